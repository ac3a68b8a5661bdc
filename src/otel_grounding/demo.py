"""`otel-grounding demo`: a scripted agent (no model) whose three runs go through a real SDK
pipeline.

One run is well grounded, one partly hallucinated, one makes no claim at all. The processor
enriches each run span; the table is read back from the exported spans, exactly as a backend
would see them. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, traces and metrics also go out over
OTLP (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `..._METRICS_ENDPOINT` send one signal, or send it
elsewhere); with a Prometheus port, the plugin's metrics are served for scraping.

`otel-grounding demo --framework NAME` runs a real agent framework instead (see `frameworks`:
offline, a fake model, one tool), once with a grounded and once with a hallucinating answer,
through the same pipeline.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SynchronousMultiSpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import attributes as attr
from otel_grounding.config import ConfigError
from otel_grounding.conventions import native
from otel_grounding.exporter import otlp_span_exporter
from otel_grounding.processor import GroundingSpanProcessor

SERVICE = "otel-grounding-demo"
PROJECT = "demo"
THRESHOLD = 0.7
ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"
TRACES_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
METRICS_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"


def otlp_endpoints(environ: Mapping[str, str]) -> tuple[str | None, str | None]:
    """Where traces and metrics go over OTLP, as the OTLP exporters read the standard variables:
    each signal's own endpoint, else the general one; None for a signal sent nowhere."""
    general = environ.get(ENDPOINT_ENV, "").strip() or None
    traces = environ.get(TRACES_ENDPOINT_ENV, "").strip() or general
    metrics = environ.get(METRICS_ENDPOINT_ENV, "").strip() or general
    return traces, metrics


@dataclass(frozen=True)
class ScriptedRun:
    name: str
    question: str
    tool_outputs: tuple[str, ...]
    answer: str


RUNS: tuple[ScriptedRun, ...] = (
    ScriptedRun(
        "grounded",
        "What is the weather in Paris and what is the capital of France?",
        (
            "Weather for Paris: 18 degrees Celsius, light rain, wind from the west at 12 km/h.",
            "Paris is the capital of France and its largest city.",
        ),
        "Paris is the capital of France. The weather in Paris is 18 degrees Celsius "
        "with light rain. Wind comes from the west at 12 km/h.",
    ),
    ScriptedRun(
        "hallucinated",
        "Summarise the quarterly report.",
        ("Quarterly report: revenue grew 12 percent to 4.2 million dollars; churn was stable.",),
        "Quarterly revenue grew 12 percent to 4.2 million dollars. "
        "The company opened three offices in Tokyo and Berlin. "
        "The board approved a generous dividend for every shareholder. "
        "Churn was stable over the quarter.",
    ),
    ScriptedRun(
        "no-claims",
        "Please archive the ticket.",
        ("Ticket 4411 archived.",),
        "Done!",
    ),
)


def _agent(tracer_provider: TracerProvider) -> None:
    """The scripted agent: one run span, an LLM step, then one span per tool call."""
    tracer = tracer_provider.get_tracer("otel_grounding.demo")
    for index, run in enumerate(RUNS):
        with tracer.start_as_current_span(
            "invoke_agent demo-agent",
            attributes={
                native.RUN_ID: f"demo-run-{index + 1}-{run.name}",
                native.PROJECT_ID: PROJECT,
                native.RUN_TOOL_STEPS: len(run.tool_outputs),
            },
        ) as span:
            with tracer.start_as_current_span(
                "chat scripted-model", attributes={native.STEP_TYPE: native.STEP_TYPE_LLM}
            ):
                pass
            for number, output in enumerate(run.tool_outputs):
                with tracer.start_as_current_span(
                    f"execute_tool tool_{number}",
                    attributes={
                        native.STEP_TYPE: native.STEP_TYPE_TOOL,
                        native.STEP_OUTPUT: output,
                    },
                ):
                    pass
            span.set_attribute(native.RUN_OUTPUT, run.answer)


def _run_name(span: ReadableSpan) -> str:
    return str((span.attributes or {}).get(native.RUN_ID, span.name))


def _table(runs: list[tuple[str, ReadableSpan]]) -> str:
    """One row per graded run span, named by the first of each pair."""
    width = max([34, *(len(name) + 1 for name, _ in runs)])
    rows = [f"{'run':{width}} {'rate':>6}  {'grade':10} {'flagged':8} ungrounded claims"]
    for name, span in runs:
        attrs = span.attributes or {}
        if attr.GRADE not in attrs:
            continue
        rate = attrs.get(attr.RATE)
        ungrounded = [
            str((e.attributes or {}).get(attr.CLAIM_EVENT_EXCERPT, ""))
            for e in span.events
            if e.name == attr.CLAIM_EVENT
        ]
        rows.append(
            f"{name:{width}} "
            f"{'-' if rate is None else format(rate, '.3f'):>6}  "
            f"{attrs[attr.GRADE]!s:10} {'YES' if attrs.get(attr.BELOW_THRESHOLD) else 'no':8} "
            f"{' | '.join(ungrounded) if ungrounded else '-'}"
        )
    return "\n".join(rows)


class _Pipeline:
    """The processor in front of an in-memory exporter (and OTLP when configured)."""

    def __init__(self, tracer_provider: TracerProvider, prometheus_port: int | None) -> None:
        self.tracer_provider = tracer_provider
        self.prometheus_port = prometheus_port
        self.traces_endpoint, self.metrics_endpoint = otlp_endpoints(os.environ)
        readers: list[MetricReader] = []
        if prometheus_port is not None:
            try:
                from opentelemetry.exporter.prometheus import PrometheusMetricReader
                from prometheus_client import start_http_server
            except ImportError:
                raise ConfigError(
                    "--prometheus-port needs otel-grounding[prometheus]"
                ) from None
            try:
                start_http_server(prometheus_port, addr="127.0.0.1")
            except OSError as exc:
                raise ConfigError(
                    f"--prometheus-port {prometheus_port}: cannot listen on "
                    f"127.0.0.1:{prometheus_port}: {exc.strerror or exc}"
                ) from None
            readers.append(PrometheusMetricReader())
        if self.metrics_endpoint:
            from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter

            readers.append(PeriodicExportingMetricReader(OTLPMetricExporter()))
        self.meter_provider = MeterProvider(
            resource=tracer_provider.resource, metric_readers=readers
        )
        self.memory = InMemorySpanExporter()
        fan_out = SynchronousMultiSpanProcessor()
        fan_out.add_span_processor(SimpleSpanProcessor(self.memory))
        if self.traces_endpoint:
            fan_out.add_span_processor(BatchSpanProcessor(otlp_span_exporter()))
        tracer_provider.add_span_processor(
            GroundingSpanProcessor(
                fan_out, min_claim_grounding_rate=THRESHOLD, meter_provider=self.meter_provider
            )
        )

    def graded(self) -> list[ReadableSpan]:
        """The run spans exported since the last call."""
        self.tracer_provider.force_flush()
        spans = self.memory.get_finished_spans()
        self.memory.clear()
        return [s for s in spans if attr.GRADE in (s.attributes or {})]

    def finish(self, out: TextIO, serve_seconds: float) -> None:
        if self.traces_endpoint and self.traces_endpoint == self.metrics_endpoint:
            print(f"\ntraces and metrics exported over OTLP to {self.traces_endpoint}", file=out)
        else:
            signals = (("traces", self.traces_endpoint), ("metrics", self.metrics_endpoint))
            for signal, endpoint in signals:
                if endpoint:
                    print(f"\n{signal} exported over OTLP to {endpoint}", file=out)
        if self.prometheus_port is not None:
            print(f"\nmetrics on http://127.0.0.1:{self.prometheus_port}/metrics", file=out)
        out.flush()
        if serve_seconds > 0:
            time.sleep(serve_seconds)

    def shutdown(self) -> None:
        self.tracer_provider.shutdown()
        self.meter_provider.shutdown()


def _resource() -> Resource:
    return Resource.create({"service.name": SERVICE})


def run_demo(
    *, prometheus_port: int | None = None, serve_seconds: float = 0.0, out: TextIO = sys.stdout
) -> list[ReadableSpan]:
    """Run the scripted agent through a real pipeline; return the exported run spans."""
    pipeline = _Pipeline(TracerProvider(resource=_resource()), prometheus_port)
    try:
        _agent(pipeline.tracer_provider)
        runs = pipeline.graded()
        print(f"otel-grounding demo: 3 scripted runs, threshold {THRESHOLD}\n", file=out)
        print(_table([(_run_name(s), s) for s in runs]), file=out)
        pipeline.finish(out, serve_seconds)
        return runs
    finally:
        pipeline.shutdown()


def run_framework_demo(
    name: str,
    *,
    prometheus_port: int | None = None,
    serve_seconds: float = 0.0,
    out: TextIO = sys.stdout,
) -> list[ReadableSpan]:
    """Run a real framework (offline: a fake model, one tool) for a grounded and a hallucinating
    answer through a real pipeline; return the exported run spans.

    Raises `frameworks.FrameworkMissing` (before anything is started) when its packages are not
    installed. Every instrumentation's content capture is on while it runs (then restored).
    """
    from otel_grounding import demo_frameworks as frameworks

    with frameworks.demo_environment():  # before the instrumentations are imported
        tracer_provider = TracerProvider(resource=_resource())
        run = frameworks.start(name, tracer_provider)
        pipeline = _Pipeline(tracer_provider, prometheus_port)
        try:
            runs: list[tuple[str, ReadableSpan]] = []
            for label, answer in frameworks.ANSWERS.items():
                with frameworks.missing_as(name):
                    run(answer)
                runs += [(f"{name}/{label}", span) for span in pipeline.graded()]
            print(
                f"otel-grounding demo --framework {name}: {frameworks.SCENARIOS[name].about}\n"
                f"a fake model calls get_weather ({frameworks.WEATHER!r}) and answers;"
                f" threshold {THRESHOLD}\n",
                file=out,
            )
            print(_table(runs), file=out)
            pipeline.finish(out, serve_seconds)
            return [span for _, span in runs]
        finally:
            pipeline.shutdown()
