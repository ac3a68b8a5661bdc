"""`GroundingSpanExporter`: the same enrichment inside an exporter, on the batch worker thread.

`GroundingOTLPSpanExporter` is the `opentelemetry_traces_exporter` entry point
(`OTEL_TRACES_EXPORTER=grounding`): it wraps the OTLP exporter chosen by the standard
`OTEL_EXPORTER_OTLP_*` variables and reads its own settings from `OTEL_GROUNDING_*`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry.metrics import MeterProvider
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from otel_grounding.config import ConfigError, GroundingSettings
from otel_grounding.conventions import DEFAULT_CONVENTIONS, Convention
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.sdkspan import configured_value_limit, enrich_sdk_span

PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
GENERAL_PROTOCOL_ENV = "OTEL_EXPORTER_OTLP_PROTOCOL"


class GroundingSpanExporter(SpanExporter):
    """Wrap an exporter: enrich run spans in each batch, then export the batch unchanged in size."""

    def __init__(
        self,
        next_exporter: SpanExporter,
        *,
        min_claim_grounding_rate: float | None = None,
        project_settings: Mapping[str, Mapping[str, Any]] | None = None,
        settings: GroundingSettings | None = None,
        settings_file: str | None = None,
        meter_provider: MeterProvider | None = None,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        **options: Any,
    ) -> None:
        self._next = next_exporter
        self.pipeline = GroundingPipeline.configure(
            settings=settings,
            settings_file=settings_file,
            meter_provider=meter_provider,
            conventions=conventions,
            min_claim_grounding_rate=min_claim_grounding_rate,
            project_settings=project_settings,
            **options,
        )
        self._value_limit = configured_value_limit()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        limit = self._value_limit
        return self._next.export([enrich_sdk_span(self.pipeline, s, limit) for s in spans])

    def shutdown(self) -> None:
        try:
            self._next.shutdown()
        finally:
            self.pipeline.close()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._next.force_flush(timeout_millis)


def otlp_span_exporter() -> SpanExporter:
    """The OTLP span exporter the standard variables ask for (gRPC unless http/* is set)."""
    protocol = os.environ.get(PROTOCOL_ENV) or os.environ.get(GENERAL_PROTOCOL_ENV) or "grpc"
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    elif protocol in ("http/protobuf", "http/json"):
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # type: ignore[assignment]
            OTLPSpanExporter,
        )
    else:
        raise ConfigError(f"{PROTOCOL_ENV}: {protocol!r} is not grpc or http/protobuf")
    return OTLPSpanExporter()


class GroundingOTLPSpanExporter(GroundingSpanExporter):
    """Zero-code route: `opentelemetry-instrument` with `OTEL_TRACES_EXPORTER=grounding`."""

    def __init__(self, **options: Any) -> None:
        super().__init__(otlp_span_exporter(), **options)
