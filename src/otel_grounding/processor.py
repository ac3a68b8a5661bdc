"""`GroundingSpanProcessor`: enriches run spans in the application's thread, before any exporter.

A wrapping processor: it owns the next processor (usually a `BatchSpanProcessor`) and hands it
every span exactly once, a run span replaced by its enriched copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from opentelemetry.context import Context
from opentelemetry.metrics import MeterProvider
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

from otel_grounding.config import GroundingSettings
from otel_grounding.conventions import DEFAULT_CONVENTIONS, Convention
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.sdkspan import configured_value_limit, enrich_sdk_span


class GroundingSpanProcessor(SpanProcessor):
    """Add the claim grounding rate and coverage grade to agent run spans, then forward.

    `min_claim_grounding_rate` is the default threshold; `project_settings` maps a project id
    to its settings document (`{"min_claim_grounding_rate": 0.9}`), which wins for that
    project. Further options (bounds, anchors, buffering) are listed in the README; anything
    not given is read from `OTEL_GROUNDING_*` variables or the settings file.
    """

    def __init__(
        self,
        next_processor: SpanProcessor,
        *,
        min_claim_grounding_rate: float | None = None,
        project_settings: Mapping[str, Mapping[str, Any]] | None = None,
        settings: GroundingSettings | None = None,
        settings_file: str | None = None,
        meter_provider: MeterProvider | None = None,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        **options: Any,
    ) -> None:
        self._next = next_processor
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
        self._limit_read = False
        self._next_on_ending = getattr(next_processor, "_on_ending", None)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        if not self._limit_read:
            # The limit the provider really records under (its SpanLimits may differ from env).
            limits = getattr(span, "_limits", None)
            if limits is not None:
                self._value_limit = limits.max_span_attribute_length
                self._limit_read = True
        self._next.on_start(span, parent_context=parent_context)

    def _on_ending(self, span: Span) -> None:
        if self._next_on_ending is not None:
            self._next_on_ending(span)

    def on_end(self, span: ReadableSpan) -> None:
        self._next.on_end(enrich_sdk_span(self.pipeline, span, self._value_limit))

    def shutdown(self) -> None:
        try:
            self._next.shutdown()
        finally:
            self.pipeline.close()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._next.force_flush(timeout_millis)
