"""Processor overhead, measured side by side (a script, not a test).

1. Per-span cost on a mixed workload of ordinary (non-agent) spans: the same SDK pipeline with
   and without GroundingSpanProcessor in front of its BatchSpanProcessor; ratio with/without.
2. Cost of scoring one typical run inline (5 KB output, 50 KB of tool outputs, 10 tool spans).
3. Peak memory of the per-trace buffer in a flood of 100,000 traces whose runs never end.

    .venv/bin/python benchmarks/bench_processor.py
"""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from otel_grounding import GroundingSpanProcessor
from otel_grounding.conventions import native

SPANS = 20_000
REPEATS = 15


class NullExporter(SpanExporter):
    def export(self, spans):  # type: ignore[no-untyped-def]
        return SpanExportResult.SUCCESS


def _provider(with_grounding: bool, **options: object) -> TracerProvider:
    provider = TracerProvider()
    batch = BatchSpanProcessor(NullExporter(), max_queue_size=SPANS * 2, max_export_batch_size=512)
    provider.add_span_processor(
        GroundingSpanProcessor(batch, min_claim_grounding_rate=0.7, **options)
        if with_grounding
        else batch
    )
    return provider


def _ordinary_spans(provider: TracerProvider, count: int) -> float:
    """Web/db-like spans: a root with children and a handful of attributes each."""
    tracer = provider.get_tracer("bench")
    started = time.perf_counter()
    for i in range(count // 4):
        with tracer.start_as_current_span("GET /orders", attributes={"http.method": "GET", "http.route": "/orders"}):
            with tracer.start_as_current_span("SELECT orders", attributes={"db.system": "postgresql", "db.statement": "SELECT * FROM orders WHERE id = $1"}):
                pass
            with tracer.start_as_current_span("cache get", attributes={"cache.key": f"order:{i}"}):
                pass
            with tracer.start_as_current_span("render", attributes={"template": "order.html"}):
                pass
    return time.perf_counter() - started


def bench_overhead() -> None:
    timings: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(REPEATS):
        for with_grounding in (False, True):  # interleaved so both see the same machine state
            provider = _provider(with_grounding)
            gc.collect()
            timings[with_grounding].append(_ordinary_spans(provider, SPANS))
            provider.shutdown()
    base, grounded = min(timings[False]), min(timings[True])
    print(f"ordinary spans: {SPANS} per pass, best of {REPEATS}")
    print(f"  without processor  {base / SPANS * 1e6:7.2f} us/span")
    print(f"  with processor     {grounded / SPANS * 1e6:7.2f} us/span")
    print(f"  ratio              {grounded / base:7.3f}  (target <= 1.10)")


def _text(rng: random.Random, words: list[str], chars: int) -> str:
    out, size = [], 0
    while size < chars:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + ". "
        out.append(sentence)
        size += len(sentence)
    return "".join(out)[:chars]


def bench_typical_run() -> None:
    rng = random.Random(7)
    words = [f"{w}{i}" for w in ("alpha", "delta", "orbit", "ledger", "vector", "harbor") for i in range(300)]
    tool_outputs = [_text(rng, words, 5_000) for _ in range(10)]
    output = _text(rng, words, 5_000)
    for mode, what in (("inline", "scored inline in"), ("background", "handed to the worker by")):
        provider = _provider(True, scoring_mode=mode)
        tracer = provider.get_tracer("bench")
        samples = []
        for _ in range(50):
            with tracer.start_as_current_span("run") as run:
                for out in tool_outputs:
                    with tracer.start_as_current_span("tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: out}):
                        pass
                run.set_attribute(native.RUN_OUTPUT, output)
                started = time.perf_counter()
            samples.append(time.perf_counter() - started)  # run.end() on the application's thread
            provider.force_flush()
        provider.shutdown()
        print(f"typical run (5 KB output, 10 tool outputs = 50 KB), {what} span.end():")
        print(f"  median {statistics.median(samples) * 1e3:6.2f} ms   p95 {sorted(samples)[int(len(samples) * 0.95)] * 1e3:6.2f} ms")


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
    assembly = processor.pipeline.assembly
    print("flood: 100,000 traces whose runs never end (default num_traces=10,000, 64 MiB budget):")
    print(f"  buffered traces {assembly.buffered_traces}, accounted bytes {assembly.buffered_bytes / 2**20:.1f} MiB")
    print(f"  peak traced Python memory {peak / 2**20:.1f} MiB (includes the SDK's own span objects)")
    provider.shutdown()


if __name__ == "__main__":
    bench_overhead()
    bench_typical_run()
    bench_flood()
