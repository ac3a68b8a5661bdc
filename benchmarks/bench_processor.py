"""Processor overhead, measured side by side (a script, not a test).

1. Per-span cost on a mixed workload of ordinary (non-agent) spans: the same SDK pipeline with
   and without GroundingSpanProcessor in front of its span processor, in paired rounds; the
   median of the rounds' ratios with/without, and their spread. Two bases: a
   BatchSpanProcessor, and a SimpleSpanProcessor with a no-op exporter (the cheapest pipeline
   there is, where our share shows most: the target, issue 24, is <= 1.05 there). Then our
   share alone (`bench_layer`).
2. Cost of scoring one typical run inline (5 KB output, 50 KB of tool outputs, 10 tool spans:
   `bench_scoring.typical_run`), against the plain formulation scoring the same texts.
3. Peak memory of the per-trace buffer in a flood of 100,000 traces whose runs never end.
4. With `--instructions` (instead of 1-3): the per-span cost of 1 counted in instructions by
   valgrind's callgrind, with and without our processor on the Simple base. No other tenant
   and no CPU model moves this count, so it is the figure to compare across machines and days.

    .venv/bin/python benchmarks/bench_processor.py [--instructions]
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

from opentelemetry import trace
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
    SpanExportResult,
)

from otel_grounding import GroundingSpanProcessor
from otel_grounding.conventions import native

from bench_scoring import typical_run
from plain_formulation import plain_score

#: Spans per measured pass, and paired rounds (one pass with, one without, order alternating).
#: Short passes, many rounds: a pass mostly fits in one scheduler slice, so each pair sees the
#: same machine and the spread of the paired ratios shows how far to trust the median.
SPANS = 400
ROUNDS = 301
#: Best-of repeats for `bench_layer`.
REPEATS = 15
#: Spans counted by `bench_instructions` (less a run of none: start-up and warm-up cancel out).
COUNTED_SPANS = 20_000
#: Issue 24: at most this per ordinary span on the SimpleSpanProcessor base (the cheapest
#: pipeline, where our share shows most; a BatchSpanProcessor's ratio is lower).
TARGET_RATIO = 1.05
TARGET_BASE = "SimpleSpanProcessor"


class NullExporter(SpanExporter):
    def export(self, spans):  # type: ignore[no-untyped-def]
        return SpanExportResult.SUCCESS


def _batch() -> SpanProcessor:
    return BatchSpanProcessor(NullExporter(), max_queue_size=SPANS * 4, max_export_batch_size=512)


def _simple() -> SpanProcessor:
    return SimpleSpanProcessor(NullExporter())


BASES: dict[str, Callable[[], SpanProcessor]] = {"BatchSpanProcessor": _batch, "SimpleSpanProcessor": _simple}


def _provider(
    with_grounding: bool, base: Callable[[], SpanProcessor] = _batch, **options: object
) -> TracerProvider:
    provider = TracerProvider()
    inner = base()
    provider.add_span_processor(
        GroundingSpanProcessor(inner, min_claim_grounding_rate=0.7, **options)  # type: ignore[arg-type]
        if with_grounding
        else inner
    )
    return provider


def _ordinary_spans(provider: TracerProvider, count: int) -> float:
    """Web/db-like spans: a root with children and a handful of attributes each, then a flush
    (a BatchSpanProcessor's pass pays for its own exports); CPU seconds.

    CPU time of the process (the exporter thread included), not wall time: on a shared machine
    the wall clock mostly measures the other tenants.
    """
    tracer = provider.get_tracer("bench")
    started = time.process_time()
    for i in range(count // 4):
        with tracer.start_as_current_span("GET /orders", attributes={"http.method": "GET", "http.route": "/orders"}):
            with tracer.start_as_current_span("SELECT orders", attributes={"db.system": "postgresql", "db.statement": "SELECT * FROM orders WHERE id = $1"}):
                pass
            with tracer.start_as_current_span("cache get", attributes={"cache.key": f"order:{i}"}):
                pass
            with tracer.start_as_current_span("render", attributes={"template": "order.html"}):
                pass
    provider.force_flush()
    return time.process_time() - started


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    low, median, high = statistics.quantiles(values, n=4)
    return low, median, high


def bench_overhead() -> bool:
    """Per-span ratio with/without our processor on each base, from paired rounds; True when
    the median paired ratio on `TARGET_BASE` is on target."""
    ok = True
    load = os.getloadavg()
    print(
        f"ordinary spans: {ROUNDS} paired rounds of {SPANS} spans with and without (order "
        f"alternating), CPU time; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    for name, base in BASES.items():
        providers = {with_grounding: _provider(with_grounding, base) for with_grounding in (False, True)}
        for provider in providers.values():
            _ordinary_spans(provider, SPANS)  # warm: first spans, code specialised
        timings: dict[bool, list[float]] = {False: [], True: []}
        gc.collect()
        for i in range(ROUNDS):
            for with_grounding in (False, True) if i % 2 == 0 else (True, False):
                timings[with_grounding].append(_ordinary_spans(providers[with_grounding], SPANS) / SPANS)
        for provider in providers.values():
            provider.shutdown()
        ratios = [w / b for w, b in zip(timings[True], timings[False], strict=True)]
        low, paired, high = _quartiles(ratios)
        extra = statistics.median(w - b for w, b in zip(timings[True], timings[False], strict=True))
        verdict = ""
        if name == TARGET_BASE:
            ok = paired <= TARGET_RATIO
            verdict = f" (target <= {TARGET_RATIO})"
        print(
            f"  {name:<20} median without {statistics.median(timings[False]) * 1e6:6.2f} us/span, "
            f"with {statistics.median(timings[True]) * 1e6:6.2f} us/span (+{extra * 1e6:.2f} us paired); "
            f"paired ratio median {paired:.3f}, IQR {low:.3f}-{high:.3f}, "
            f"10-90% {statistics.quantiles(ratios, n=10)[0]:.3f}-{statistics.quantiles(ratios, n=10)[-1]:.3f}"
            f"{verdict}"
        )
    print(f"  load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return ok


def bench_layer() -> None:
    """Our share alone: the three processor calls of one finished ordinary span, ours against the
    inner processor's, in tight interleaved loops (steadier than whole-pipeline passes)."""
    provider = TracerProvider()
    span = provider.get_tracer("bench").start_span("SELECT orders", attributes={"db.system": "postgresql"})
    span.end()
    readable = span._readable_span()  # what the SDK hands to on_end
    inner = SimpleSpanProcessor(NullExporter())
    ours = GroundingSpanProcessor(SimpleSpanProcessor(NullExporter()), min_claim_grounding_rate=0.7)
    ours.on_start(span)  # a first call, outside the timed loops

    def per_span(processor: SpanProcessor, calls: int = 20_000) -> float:
        started = time.process_time()
        for _ in range(calls):
            processor.on_start(span)
            processor._on_ending(span)  # type: ignore[attr-defined]
            processor.on_end(readable)
        return (time.process_time() - started) / calls

    timings: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(REPEATS):
        timings[False].append(per_span(inner))
        timings[True].append(per_span(ours))
    share = min(timings[True]) - min(timings[False])
    print(f"  our layer alone (on_start + _on_ending + on_end of a finished span): +{share * 1e6:.2f} us/span CPU")


def count_spans(with_grounding: bool, count: int) -> None:
    """The child `bench_instructions` counts: warm, then `count` ordinary spans, no collector
    pass in between (a collection lands wherever the allocation count says, not per span)."""
    provider = _provider(with_grounding, _simple)
    _ordinary_spans(provider, SPANS)
    gc.collect()
    gc.disable()
    if count:
        _ordinary_spans(provider, count)


def _instructions(with_grounding: bool, count: int) -> int:
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
        __file__, "--count-child", "with" if with_grounding else "without", str(count),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # set look-ups probe the same slots every run
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]


def bench_instructions() -> None:
    """Instructions per ordinary span on the Simple base, with and without our processor."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian package valgrind)")
    per_span = {
        with_grounding: (_instructions(with_grounding, COUNTED_SPANS) - _instructions(with_grounding, 0)) / COUNTED_SPANS
        for with_grounding in (False, True)
    }
    print(
        f"ordinary spans, instructions per span (callgrind, {COUNTED_SPANS} spans, SimpleSpanProcessor "
        f"+ no-op exporter): without {per_span[False]:,.0f}, with {per_span[True]:,.0f} "
        f"(+{per_span[True] - per_span[False]:,.0f}, {per_span[True] / per_span[False]:.4f}x)"
    )


def bench_typical_run() -> None:
    output, tool_outputs = typical_run()

    def ms(samples: list[float]) -> str:
        ordered = sorted(samples)
        return f"median {statistics.median(ordered) * 1e3:5.2f} ms, p95 {ordered[int(len(ordered) * 0.95)] * 1e3:5.2f} ms"

    for mode, what in (("inline", "scored inline in"), ("background", "handed to the worker by")):
        provider = _provider(True, scoring_mode=mode)
        tracer = provider.get_tracer("bench")
        wall, cpu = [], []
        for _ in range(50):
            with tracer.start_as_current_span("run") as run:
                for out in tool_outputs:
                    with tracer.start_as_current_span("tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: out}):
                        pass
                run.set_attribute(native.RUN_OUTPUT, output)
                started, started_cpu = time.perf_counter(), time.thread_time()
            # run.end() on the application's thread
            wall.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - started_cpu)
            provider.force_flush()
        provider.shutdown()
        print(f"typical run (5 KB output, 10 tool outputs = 50 KB), {what} span.end():")
        print(f"  wall {ms(wall)}; CPU {ms(cpu)}")
    plain = []
    for _ in range(50):
        started_cpu = time.thread_time()
        plain_score(output, tool_outputs, 0.7)
        plain.append(time.thread_time() - started_cpu)
    print(f"  the plain formulation alone on the same texts, CPU {ms(plain)}")


def bench_flood() -> None:
    budget = 64 * 1024 * 1024
    provider = TracerProvider()
    processor = GroundingSpanProcessor(BatchSpanProcessor(NullExporter(), max_queue_size=4096), max_buffer_bytes=budget)
    provider.add_span_processor(processor)
    tracer = provider.get_tracer("bench")
    gc.collect()
    tracemalloc.start()
    for i in range(100_000):
        agent = tracer.start_span("agent")  # never ended
        with tracer.start_as_current_span(
            "tool", context=trace.set_span_in_context(agent),
            attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: f"tool output {i} " * 20},
        ):
            pass
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assembly = processor.pipeline.store
    print("flood: 100,000 traces whose runs never end (default num_traces=10,000, 64 MiB budget):")
    print(f"  buffered traces {assembly.buffered_traces}, accounted bytes {assembly.buffered_bytes / 2**20:.1f} MiB")
    print(f"  peak traced Python memory {peak / 2**20:.1f} MiB (includes the SDK's own span objects)")
    provider.shutdown()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--count-child"]:
        count_spans(sys.argv[2] == "with", int(sys.argv[3]))
        raise SystemExit(0)
    if sys.argv[1:2] == ["--instructions"]:
        bench_instructions()
        raise SystemExit(0)
    on_target = bench_overhead()
    bench_layer()
    bench_typical_run()
    bench_flood()
    raise SystemExit(0 if on_target else 2)
