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
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from otel_grounding.config import ConfigError
from otel_grounding.conventions import RUN
from otel_grounding.internal_error import internal_error
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode, check_wrapped
from otel_grounding.sdkcompat import attribute_dict
from otel_grounding.sdkspan import (
    configured_value_limit,
    count_error,
    drain,
    enrich_sdk_span,
    enriched_copy,
    hand_off,
    scoring_worker,
    to_view,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from otel_grounding.shell_options import ShellOptions

logger = logging.getLogger("otel_grounding")

#: Graded run spans exported together (the SDK batch processor's default batch size).
GRADED_BATCH_SPANS = 512
#: How long `shutdown()` waits for runs being graded before the wrapped exporter shuts down.
SHUTDOWN_TIMEOUT_S = 30.0

PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
GENERAL_PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_PROTOCOL"


class GroundingSpanExporter(SpanExporter):
    """Wrap an exporter: forward each batch's other spans at once, export its run spans
    enriched from the scoring worker (or, `scoring_mode="inline"`, enrich them in place).

    Keyword arguments as `GroundingSpanProcessor`'s (`ShellOptions`: every setting and the wiring).
    """

    def __init__(
        self,
        next_exporter: SpanExporter,
        **options: Unpack[ShellOptions],
    ) -> None:
        check_wrapped(next_exporter, ("export", "shutdown", "force_flush"),
                      "BatchSpanProcessor(GroundingSpanExporter(exporter))")
        self._next = next_exporter
        self.pipeline: GroundingPipeline | None = GroundingPipeline.configure(**options)
        self._value_limit = configured_value_limit()
        self._export_lock = threading.Lock()  # the wrapped exporter sees one call at a time
        self._outbox: list[ReadableSpan] = []
        self._outbox_lock = threading.Lock()
        check_judge_mode(self.pipeline)
        self._worker = scoring_worker(self.pipeline, idle=self._send_graded)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        pipeline = self.pipeline
        if pipeline is None:
            return self._send(list(spans))
        limit = self._value_limit
        if self._worker is None:
            return self._send([self._enriched(pipeline, s, limit) for s in spans])
        # Runs of this batch are registered first, so that a local root ending before one of
        # them (earlier in the batch) does not release the evidence that run will need.
        # The shell's boundary is each span: one that fails goes on unchanged, the rest enriched.
        readings: list[Any] = []
        for span in spans:
            readings.append(None)
            try:
                if pipeline.conventions_may_read(attribute_dict(span)):
                    view = to_view(span, limit)
                    reading = pipeline.read(view)
                    readings[-1] = (view, reading)
                    if reading is not None and reading.role == RUN:
                        pipeline.begin_run(view, reading)
            except Exception:
                readings[-1] = False  # forwarded unchanged below
                internal_error("exporter export", count_error(pipeline))
        out: list[ReadableSpan] = []
        runs: list[tuple[ReadableSpan, Any, Any]] = []
        for span, read in zip(spans, readings, strict=True):
            if read is False:
                out.append(span)
                continue
            try:
                if read is None:
                    out.append(self._enriched(pipeline, span, limit))
                    continue
                view, reading = read
                if reading is None or reading.role != RUN:
                    enrichment = pipeline.observe(view, reading)
                    out.append(span if enrichment is None else enriched_copy(span, enrichment))
                    continue
                runs.append((span, view, reading))
            except Exception:
                out.append(span)
                internal_error("exporter export", count_error(pipeline))
        # The runs go to the worker once the batch's steps are in: a run takes its evidence
        # when it is handed over, and a step may come after its run in a batch.
        for span, view, reading in runs:
            try:
                now = hand_off(
                    pipeline, self._worker, span, view, reading, self._graded, self._judged
                )
                if now is not None:
                    out.append(now)
            except Exception:
                out.append(span)
                internal_error("exporter export", count_error(pipeline))
        return self._send(out)

    @staticmethod
    def _enriched(
        pipeline: GroundingPipeline, span: ReadableSpan, limit: int | None
    ) -> ReadableSpan:
        """`enrich_sdk_span` at the shell's boundary: the original when it fails."""
        try:
            return enrich_sdk_span(pipeline, span, limit)
        except Exception:
            internal_error("exporter export", count_error(pipeline))
            return span

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
        try:
            deadline = time.monotonic() + SHUTDOWN_TIMEOUT_S
            if self._worker is not None:
                self._worker.shutdown(SHUTDOWN_TIMEOUT_S)
            if self.pipeline is not None:
                self.pipeline.shutdown_judges(deadline - time.monotonic())
            if self._worker is not None:
                self._send_graded()
            self._next.shutdown()
        finally:
            if self.pipeline is not None:
                self.pipeline.close()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Grade and export the runs on the worker, then flush the wrapped exporter."""
        return drain(self._worker, timeout_millis, self._next.force_flush, self.pipeline)


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
            self._worker = None
            self._export_lock = threading.Lock()
