"""`GroundingSpanProcessor`: enriches run spans before any exporter, off the application's thread.

A wrapping processor: it owns the next processor (usually a `BatchSpanProcessor`) and hands it
every span exactly once, a run span replaced by its enriched copy. Ordinary and step spans are
forwarded at once from the thread that ends them; a run span is graded on the scoring worker
and forwarded from there, so it can reach the next processor after spans that ended later
(a `BatchSpanProcessor` does not care; exporters never promised an order). With
`scoring_mode="inline"` runs are graded in the ending thread instead.
With a judge configured, a run graded on the worker may be judged on the judge tier's threads
and forwarded from there (at most `judge_timeout` later); flush and shutdown wait for it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

from otel_grounding.conventions import RUN
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode
from otel_grounding.sdkspan import (
    configured_value_limit,
    drain,
    enrich_sdk_span,
    enriched_copy,
    hand_off,
    scoring_worker,
    skipped,
    start_view,
    to_view,
)
from otel_grounding.worker import Worker

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from otel_grounding.shell_options import ShellOptions

#: How long `shutdown()` (which the SDK gives no timeout) waits for runs being graded.
SHUTDOWN_TIMEOUT_S = 30.0


class GroundingSpanProcessor(SpanProcessor):
    """Add the claim grounding rate and coverage grade to agent run spans, then forward.

    `min_claim_grounding_rate` is the default threshold; `project_settings` maps a project id
    to its settings document (`{"min_claim_grounding_rate": 0.9}`), which wins for that
    project. Every setting is a keyword argument (typed by `ShellOptions`, listed in the
    README); anything not given is read from `OTEL_GROUNDING_*` variables or the settings file.
    """

    def __init__(
        self,
        next_processor: SpanProcessor,
        **options: Unpack[ShellOptions],
    ) -> None:
        self._next = next_processor
        self.pipeline = GroundingPipeline.configure(**options)
        self._value_limit = configured_value_limit()
        self._limit_read = False
        self._next_on_ending = getattr(next_processor, "_on_ending", None)
        check_judge_mode(self.pipeline)
        self._worker = scoring_worker(self.pipeline)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        if not self._limit_read:
            # The limit the provider really records under (its SpanLimits may differ from env).
            limits = getattr(span, "_limits", None)
            if limits is not None:
                self._value_limit = limits.max_span_attribute_length
                self._limit_read = True
        try:
            # Spans whose start attributes already say what they are (every instrumentation
            # read sets the span kind at start) are tracked until they end; ordinary spans
            # cost a set test. The SDK's own dict: iterating BoundedAttributes while mutable
            # copies it under a lock.
            attributes = getattr(span, "_attributes", None) or ()
            if self.pipeline.conventions_may_read(getattr(attributes, "_dict", attributes)):
                self.pipeline.started(start_view(span))
        except Exception:
            self.pipeline.metrics.scoring_errors.add(1)
        self._next.on_start(span, parent_context=parent_context)

    def _on_ending(self, span: Span) -> None:
        if self._next_on_ending is not None:
            self._next_on_ending(span)

    def on_end(self, span: ReadableSpan) -> None:
        if self._worker is None:
            self._next.on_end(enrich_sdk_span(self.pipeline, span, self._value_limit))
            return
        out: ReadableSpan | None = span
        try:
            out = self._route(span, self._worker)
        except Exception:  # never into the application: forward the original
            self.pipeline.metrics.scoring_errors.add(1)
        if out is not None:
            self._next.on_end(out)

    def _route(self, span: ReadableSpan, worker: Worker) -> ReadableSpan | None:
        """The span to forward now, or None when the worker took the run (it forwards it)."""
        pipeline = self.pipeline
        if skipped(pipeline, span):
            return span
        view = to_view(span, self._value_limit)
        reading = pipeline.read(view)
        if reading is None or reading.role != RUN:
            enrichment = pipeline.observe(view, reading)
            return span if enrichment is None else enriched_copy(span, enrichment)
        pipeline.begin_run(view, reading)
        return hand_off(pipeline, worker, span, view, reading, self._next.on_end)

    def shutdown(self) -> None:
        try:
            deadline = time.monotonic() + SHUTDOWN_TIMEOUT_S
            if self._worker is not None:
                self._worker.shutdown(SHUTDOWN_TIMEOUT_S)
            self.pipeline.shutdown_judges(deadline - time.monotonic())
            self._next.shutdown()
        finally:
            self.pipeline.close()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Grade and forward the runs on the worker, then flush the next processor, all
        within `timeout_millis`."""
        return drain(self._worker, timeout_millis, self._next.force_flush, self.pipeline)
