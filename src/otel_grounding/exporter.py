"""`GroundingSpanExporter`: the same enrichment inside an exporter, graded off the export call.

`export()` forwards every span that is not a run at once and hands run spans to the scoring
worker, which exports them (enriched) in batches of its own: the batch processor's thread never
waits for scoring, so its queue drains as fast as without us. `GroundingOTLPSpanExporter` is the
`opentelemetry_traces_exporter` entry point (`OTEL_TRACES_EXPORTER=grounding`): it wraps the
OTLP exporter chosen by the standard `OTEL_EXPORTER_OTLP_*` variables and reads its own
settings from `OTEL_GROUNDING_*`; an invalid setting there leaves tracing on, unscored.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from otel_grounding.config import ConfigError
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode, check_wrapped
from otel_grounding.runs import RunLifecycle, scoring_worker, shell_scorer
from otel_grounding.sdkspan import configured_value_limit

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from otel_grounding.shell_options import ShellOptions

logger = logging.getLogger("otel_grounding")

#: Graded run spans exported together (the SDK batch processor's default batch size).
GRADED_BATCH_SPANS = 512

PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
GENERAL_PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_PROTOCOL"


class GroundingSpanExporter(SpanExporter):
    """Wrap an exporter: forward each batch's other spans at once, export its run spans
    enriched from the scoring worker (or, `scoring_mode="inline"`, enrich them in place).

    Keyword arguments as `GroundingSpanProcessor`'s (`ShellOptions`: every setting and the wiring).
    What happens to a span is `runs.RunLifecycle`'s; this adapts it to the `SpanExporter`
    interface and sends the graded runs in batches of their own.
    """

    def __init__(
        self,
        next_exporter: SpanExporter,
        **options: Unpack[ShellOptions],
    ) -> None:
        check_wrapped(next_exporter, ("export", "shutdown", "force_flush"),
                      "BatchSpanProcessor(GroundingSpanExporter(exporter))")
        self._next = next_exporter
        self._export_lock = threading.Lock()  # the wrapped exporter sees one call at a time
        self._outbox: list[ReadableSpan] = []
        self._outbox_lock = threading.Lock()
        self.pipeline: GroundingPipeline | None = GroundingPipeline.configure(
            scorer_for=shell_scorer, **options
        )
        check_judge_mode(self.pipeline)
        self._runs: RunLifecycle | None = RunLifecycle(
            self.pipeline,
            scoring_worker(self.pipeline.settings, idle=self._send_graded),
            self._graded,
            configured_value_limit(),
            forward_late=self._judged,
        )

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self._runs is None:
            return self._send(list(spans))
        return self._send(self._runs.end_batch(spans, "exporter export"))

    def _graded(self, span: ReadableSpan) -> None:
        """A graded run (on the worker): sent with the next batch, at the latest when full."""
        with self._outbox_lock:
            self._outbox.append(span)
            full = len(self._outbox) >= GRADED_BATCH_SPANS
        if full:
            self._send_graded()

    def _judged(self, span: ReadableSpan) -> None:
        """A run settled by the judge tier (on its thread): exported with what else is graded."""
        self._graded(span)
        self._send_graded()

    def _send_graded(self) -> None:
        """On the worker, when nothing else is ready: export the graded runs as one batch."""
        with self._outbox_lock:
            batch, self._outbox = self._outbox, []
        if batch:
            result = self._send(batch)
            if result is not SpanExportResult.SUCCESS:
                logger.debug("otel-grounding: exporting %d graded run spans failed", len(batch))

    def _send(self, spans: list[ReadableSpan]) -> SpanExportResult:
        with self._export_lock:
            return self._next.export(spans)

    def shutdown(self) -> None:
        if self._runs is None:
            self._next.shutdown()
        else:
            self._runs.shutdown(self._shutdown_next)

    def _shutdown_next(self) -> None:
        """Once the worker and the judges are done: the last graded runs, then the wrapped
        exporter."""
        self._send_graded()
        self._next.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Grade and export the runs on the worker, then flush the wrapped exporter."""
        if self._runs is None:
            return self._next.force_flush(timeout_millis)
        return self._runs.flush(timeout_millis, self._next.force_flush)


#: The OTLP protocols the Python exporters speak (the spec's `http/json` has none).
SPOKEN_PROTOCOLS = ("grpc", "http/protobuf")
DEFAULT_PROTOCOL = "grpc"
JSON_PROTOCOL = "http/json"


def otlp_protocol(environ: Mapping[str, str] | None = None) -> str:
    """The OTLP protocol the standard variables ask for, as the Python exporters can speak it.

    Never raises (a bad setting must not turn tracing off under `opentelemetry-instrument`):
    a value that is no protocol is one log line naming the variable that holds it, and the
    default (`grpc`) is used; `http/json`, which no Python OTLP exporter speaks, is one line
    too, and `http/protobuf` is used.
    """
    env = os.environ if environ is None else environ
    name = PROTOCOL_ENV if env.get(PROTOCOL_ENV) else GENERAL_PROTOCOL_ENV
    protocol = (env.get(name) or DEFAULT_PROTOCOL).strip()
    if protocol in SPOKEN_PROTOCOLS:
        return protocol
    if protocol == JSON_PROTOCOL:
        logger.error(
            "otel-grounding: %s=%s: the Python OTLP exporter has no http/json; "
            "exporting with http/protobuf", name, protocol,
        )
        return "http/protobuf"
    logger.error(
        "otel-grounding: %s=%r is not one of grpc, http/protobuf, http/json; exporting with %s",
        name, protocol, DEFAULT_PROTOCOL,
    )
    return DEFAULT_PROTOCOL


#: What the OTLP exporter is built with when its own timeout or compression variable is bad.
FALLBACK_TIMEOUT_S = 10.0


def otlp_span_exporter() -> SpanExporter:
    """The OTLP span exporter the standard variables ask for (see `otlp_protocol`).

    When the exporter refuses one of its own variables (`OTEL_EXPORTER_OTLP_TIMEOUT=abc`, an
    unknown compression), it is built again with its default timeout and no compression and
    one log line says so: a bad setting does not turn tracing off. What still fails (a
    certificate that cannot be read) raises, as with `OTEL_TRACES_EXPORTER=otlp`.
    """
    protocol = otlp_protocol()
    try:
        return _otlp_exporter(protocol, fallback=False)
    except Exception as exc:  # the SDK exporter's own checks, whatever it raises
        logger.error(
            "otel-grounding: the OTLP exporter refused its OTEL_EXPORTER_OTLP_* settings "
            "(%s: %s); exporting with a %g s timeout and no compression",
            type(exc).__name__, exc, FALLBACK_TIMEOUT_S,
        )
        return _otlp_exporter(protocol, fallback=True)


def _otlp_exporter(protocol: str, *, fallback: bool) -> SpanExporter:
    if protocol == "grpc":
        from grpc import Compression as GrpcCompression
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        if fallback:
            return OTLPSpanExporter(
                timeout=FALLBACK_TIMEOUT_S, compression=GrpcCompression.NoCompression
            )
        return OTLPSpanExporter()
    from opentelemetry.exporter.otlp.proto.http import Compression as HttpCompression
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
        OTLPSpanExporter as HttpSpanExporter,
    )

    if fallback:
        return HttpSpanExporter(
            timeout=FALLBACK_TIMEOUT_S, compression=HttpCompression.NoCompression
        )
    return HttpSpanExporter()


class GroundingOTLPSpanExporter(GroundingSpanExporter):
    """Zero-code route: `opentelemetry-instrument` with `OTEL_TRACES_EXPORTER=grounding`."""

    def __init__(self, **options: Unpack[ShellOptions]) -> None:
        exporter = otlp_span_exporter()
        try:
            super().__init__(exporter, **options)
        except ConfigError as error:
            # Under opentelemetry-instrument an exception here would turn off all tracing:
            # the application's spans keep flowing, unscored, and the cause is one log line.
            logger.error("otel-grounding: invalid setting, spans are exported unscored: %s", error)
            self._next = exporter
            self.pipeline = None
            self._runs = None
            self._export_lock = threading.Lock()
