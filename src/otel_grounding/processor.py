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
from otel_grounding.internal_error import internal_error
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode, check_wrapped
from otel_grounding.sdkcompat import ForwardsEnding, attribute_dict, ending_hook, span_limits
from otel_grounding.sdkspan import (
    configured_value_limit,
    count_error,
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


class GroundingSpanProcessor(ForwardsEnding, SpanProcessor):
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
        check_wrapped(next_processor, ("on_start", "on_end", "shutdown", "force_flush"),
                      "GroundingSpanProcessor(BatchSpanProcessor(exporter))")
        self._next = next_processor
        self.pipeline = GroundingPipeline.configure(**options)
        self._value_limit = configured_value_limit()
        self._limit_read = False
        self._next_ending = ending_hook(next_processor)
        check_judge_mode(self.pipeline)
        self._worker = scoring_worker(self.pipeline)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        try:
            if not self._limit_read:
                # The limit the provider really records under (its SpanLimits may differ
                # from the environment's); without it, the environment's stays.
                self._limit_read = True
                limits = span_limits(span)
                if limits is not None:
                    self._value_limit = limits.max_span_attribute_length
            # Spans whose start attributes already say what they are (every instrumentation
            # read sets the span kind at start) are tracked until they end; ordinary spans
            # cost a set test.
            if self.pipeline.conventions_may_read(attribute_dict(span)):
                self.pipeline.started(start_view(span))
        except Exception:  # the shell's boundary: never into the application
            internal_error("processor on_start", count_error(self.pipeline))
        finally:
            self._next.on_start(span, parent_context=parent_context)

    def on_end(self, span: ReadableSpan) -> None:
        out: ReadableSpan | None = span
        try:
            if self._worker is None:
                out = enrich_sdk_span(self.pipeline, span, self._value_limit)
            else:
                out = self._route(span, self._worker)
        except Exception:  # the shell's boundary: never into the application; the original goes on
            internal_error("processor on_end", count_error(self.pipeline))
        finally:
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
