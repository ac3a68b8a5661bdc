"""Spans lost in exporter mode, against the SDK alone (a script, not a test).

The SDK's default `BatchSpanProcessor` (queue 2,048, batches of 512) in front of: a counting
exporter alone (the SDK alone); `GroundingSpanExporter` around it (default: runs graded on the
scoring worker); and the same with `scoring_mode="inline"` (runs scored inside `export()`, as
before). Typical runs (10 tool steps of 5 KB, a 5 KB answer, 12 spans a run) are sent at 150
runs/s and flat out; after shutdown the spans that reached the exporter are counted, and how
many runs were scored or left unscored (`scoring-overload`).

    .venv/bin/python benchmarks/bench_exporter.py
"""

from __future__ import annotations

import random
import threading
import time

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from otel_grounding import GroundingSpanExporter
from otel_grounding import attributes as A
from otel_grounding.conventions import native

RUNS = 600
TOOLS = 10
WORDS = "paris france capital river seine museum louvre tower eiffel bridge".split()


def _text(rng: random.Random, chars: int) -> str:
    out, size = [], 0
    while size < chars:
        sentence = " ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + "."
        out.append(sentence)
        size += len(sentence) + 1
    return " ".join(out)


TEXTS = [_text(random.Random(seed), 5_000) for seed in range(64)]


class CountingExporter(SpanExporter):
    def __init__(self) -> None:
        self.spans = 0
        self.scored = 0
        self.overloaded = 0
        self._lock = threading.Lock()

    def export(self, spans):  # type: ignore[no-untyped-def]
        with self._lock:
            self.spans += len(spans)
            for span in spans:
                attributes = span.attributes or {}
                if A.RATE in attributes:
                    self.scored += 1
                elif attributes.get(A.COVERAGE_REASON) == A.REASON_SCORING_OVERLOAD:
                    self.overloaded += 1
        return SpanExportResult.SUCCESS


def _measure(kind: str, rate: float | None) -> tuple[int, CountingExporter, float]:
    sink = CountingExporter()
    exporter: SpanExporter = sink
    if kind == "background":
        exporter = GroundingSpanExporter(sink, min_claim_grounding_rate=0.7)
    elif kind == "inline":
        exporter = GroundingSpanExporter(sink, min_claim_grounding_rate=0.7, scoring_mode="inline")
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = provider.get_tracer("bench")
    rng = random.Random(7)
    created = 0
    started = time.perf_counter()
    for i in range(RUNS):
        if rate is not None:
            delay = started + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        with tracer.start_as_current_span("invoke_agent") as run:
            for _ in range(TOOLS):
                with tracer.start_as_current_span(
                    "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: rng.choice(TEXTS)}
                ):
                    pass
            with tracer.start_as_current_span("db query"):
                pass
            run.set_attribute(native.RUN_OUTPUT, rng.choice(TEXTS))
        created += TOOLS + 2
    elapsed = time.perf_counter() - started
    provider.shutdown()
    return created, sink, RUNS / elapsed


def main() -> None:
    for label, rate in (("150 runs/s", 150.0), ("flat out", None)):
        print(f"{label}:")
        for kind in ("sdk", "background", "inline"):
            created, sink, achieved = _measure(kind, rate)
            lost = created - sink.spans
            print(
                f"  {kind:10s} {achieved:6.0f} runs/s sent, spans lost {lost:5d} of {created}"
                f" ({lost / created:6.1%}); runs scored {sink.scored}, unscored (overload)"
                f" {sink.overloaded}"
            )


if __name__ == "__main__":
    main()
