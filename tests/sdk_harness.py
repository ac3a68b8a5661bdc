"""A real SDK pipeline around the processor, and native-convention spans to feed it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Tracer

from otel_grounding import GroundingSpanProcessor
from otel_grounding.conventions import native

GOLDEN_OUTPUT = (
    "The capital of France is Paris. The Eiffel Tower is in Paris. "
    "Bananas are purple and fly to the distant moon."
)
GOLDEN_SOURCES = ("Paris is the capital of France.", "The Eiffel Tower stands in Paris, France.")


class Pipeline:
    """TracerProvider -> GroundingSpanProcessor -> SimpleSpanProcessor -> in-memory exporter."""

    def __init__(
        self,
        *,
        span_limits: SpanLimits | None = None,
        resource: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        self.exporter = InMemorySpanExporter()
        self.metric_reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.metric_reader])
        self.processor = GroundingSpanProcessor(
            SimpleSpanProcessor(self.exporter), meter_provider=self.meter_provider, **options
        )
        self.provider = TracerProvider(
            span_limits=span_limits,
            resource=Resource.create(dict(resource or {"service.name": "test-agent"})),
        )
        self.provider.add_span_processor(self.processor)
        self.tracer: Tracer = self.provider.get_tracer("tests")

    def spans(self) -> tuple[ReadableSpan, ...]:
        """What reached the exporter once the runs on the scoring worker were graded."""
        assert self.processor.force_flush(10_000)
        return self.exporter.get_finished_spans()

    def span(self, name: str) -> ReadableSpan:
        (match,) = [s for s in self.spans() if s.name == name]
        return match

    def metric_points(self, name: str) -> list[Any]:
        assert self.processor.force_flush(10_000)
        data = self.metric_reader.get_metrics_data()
        points: list[Any] = []
        for resource_metrics in data.resource_metrics if data else ():
            for scope in resource_metrics.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        points.extend(metric.data.data_points)
        return points

    @contextmanager
    def run(self, name: str = "run", **attributes: Any) -> Iterator[Any]:
        with self.tracer.start_as_current_span(name, attributes=attributes or None) as span:
            yield span

    def tool(self, output: Any, name: str = "tool", **attributes: Any) -> None:
        attrs = {native.STEP_TYPE: native.STEP_TYPE_TOOL, **attributes}
        if output is not None:
            attrs[native.STEP_OUTPUT] = output
        with self.tracer.start_as_current_span(name, attributes=attrs):
            pass

    def golden_run(self, name: str = "run", **attributes: Any) -> None:
        with self.run(name, **attributes) as span:
            for source in GOLDEN_SOURCES:
                self.tool(source)
            span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)


def attrs(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def event_names(span: ReadableSpan) -> Sequence[str]:
    return [e.name for e in span.events]
