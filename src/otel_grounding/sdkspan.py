"""The SDK's span representation: `ReadableSpan` to span view, and an enriched copy back.

The copy keeps every field of the original (context, parent, resource, scope, kind, status,
times, links, events, attributes and the dropped counts); only the enrichment is added. What
this reads or sets of the SDK's private surface goes through `sdkcompat`. Nothing here catches:
each shell's outermost boundary does (`internal_error`), and forwards the original span.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from opentelemetry.sdk.trace import Event, ReadableSpan, SpanLimits

from otel_grounding import attributes as attr
from otel_grounding.config import SCORING_BACKGROUND, SCORING_INLINE
from otel_grounding.conventions import SpanReading
from otel_grounding.enrichment import Enrichment
from otel_grounding.internal_error import internal_error
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.scoring_process import shared_scorer
from otel_grounding.sdkcompat import (
    attribute_dict,
    bounded_attributes,
    bounded_list,
    instrumentation_info,
    span_context,
)
from otel_grounding.spanview import SpanView
from otel_grounding.worker import Worker

_EMPTY: dict[str, object] = {}


def configured_value_limit() -> int | None:
    """The span attribute value-length limit the SDK applies by default (from its env variables)."""
    return SpanLimits().max_span_attribute_length


def to_view(span: ReadableSpan, value_limit: int | None = None) -> SpanView:
    """The span view of an SDK span (no copies: attributes and events are read in place)."""
    context = span.context
    parent = span.parent
    return SpanView(
        trace_id=context.trace_id if context is not None else 0,
        span_id=context.span_id if context is not None else 0,
        parent_id=parent.span_id if parent is not None else None,
        name=span.name,
        attributes=span.attributes if span.attributes is not None else _EMPTY,
        events=span.events,
        resource=span.resource.attributes,
        value_limit=value_limit,
        local_root=parent is None or parent.is_remote,
    )


def enriched_copy(span: ReadableSpan, enrichment: Enrichment) -> ReadableSpan:
    """A new ReadableSpan equal to `span` plus the enrichment (nothing of the original is lost).

    The attribute count limit is not re-applied to the copy: the application's attributes were
    already bounded when recorded, and the computed ones must not evict any of them.
    """
    values = dict(span.attributes or {})
    for key in enrichment.remove:
        values.pop(key, None)
    values.update(enrichment.attributes)
    attributes = bounded_attributes(values, span.dropped_attributes)
    events = list(span.events)
    events.extend(
        Event(e.name, attributes=dict(e.attributes), timestamp=span.end_time)
        for e in enrichment.events
    )
    return ReadableSpan(
        name=span.name,
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=attributes,
        events=bounded_list(events, span.dropped_events),
        links=bounded_list(span.links, span.dropped_links),
        kind=span.kind,
        status=span.status,
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
        instrumentation_info=instrumentation_info(span),
    )


def enrich_sdk_span(
    pipeline: GroundingPipeline, span: ReadableSpan, value_limit: int | None = None
) -> ReadableSpan:
    """The span to forward: an enriched copy for a run span, the same object otherwise.
    Raises what fails: the caller's boundary forwards the original."""
    if skipped(pipeline, span):
        return span
    enrichment = pipeline.process(to_view(span, value_limit))
    return span if enrichment is None else enriched_copy(span, enrichment)


def count_error(pipeline: GroundingPipeline) -> Callable[[], object]:
    """The pipeline's `scoring_errors` counter, as `internal_error` takes it."""
    return lambda: pipeline.metrics.scoring_errors.add(1)


def skipped(pipeline: GroundingPipeline, span: ReadableSpan) -> bool:
    """`pipeline.skips` for an SDK span, on the hot path for ordinary spans: the public
    properties build a new mappingproxy per call, and BoundedAttributes iterates and counts in
    Python; so the SDK's own fields are read, down to the attributes' plain dict."""
    context = span_context(span)
    return pipeline.skips(context.trace_id if context else 0, attribute_dict(span))


def start_view(span: ReadableSpan) -> SpanView:
    """The span view of a span that just started (what its start attributes say)."""
    return to_view(span)._replace(events=(), resource=_EMPTY)


class ScoringTask:
    """One run span on the scoring worker: it waits while steps started under it are still
    open (at most `wait` seconds), then is graded and handed to `deliver`, exactly once."""

    __slots__ = (
        "_pipeline",
        "_span",
        "_view",
        "_reading",
        "_deliver",
        "_deliver_late",
        "_deadline",
        "key",
    )

    def __init__(
        self,
        pipeline: GroundingPipeline,
        span: ReadableSpan,
        view: SpanView,
        reading: SpanReading,
        deliver: Callable[[ReadableSpan], None],
        wait: float,
        deliver_late: Callable[[ReadableSpan], None] | None = None,
    ) -> None:
        """`deliver_late` receives a run settled later by the judge tier (default `deliver`)."""
        self._pipeline = pipeline
        self._span = span
        self._view = view
        self._reading = reading
        self._deliver = deliver
        self._deliver_late = deliver_late or deliver
        self._deadline = time.monotonic() + wait
        self.key = view.trace_id  # runs of one trace are graded in the order they ended

    def ready(self, now: float) -> bool:
        return now >= self._deadline or not self._pipeline.waits(self._view, self._reading)

    def run(self) -> None:
        span = self._span
        pipeline = self._pipeline
        now = [True]  # delivered from inside run(), not later from the judge tier

        def deliver(enrichment: Enrichment | None) -> None:
            out = span
            try:
                if enrichment is not None:
                    out = enriched_copy(span, enrichment)
            except Exception:  # the run's boundary: it still leaves, unenriched
                internal_error("sdk enriched copy", count_error(pipeline))
            finally:
                (self._deliver if now[0] else self._deliver_late)(out)

        pipeline.finish_run_later(self._view, self._reading, deliver)
        now[0] = False

    def abandon(self) -> None:
        out = self._span
        try:
            out = refused(self._pipeline, self._span, self._view, self._reading)
        except Exception:  # the run's boundary at shutdown: it still leaves, unenriched
            internal_error("sdk refused run", count_error(self._pipeline))
        finally:
            self._deliver(out)


def refused(
    pipeline: GroundingPipeline, span: ReadableSpan, view: SpanView, reading: SpanReading
) -> ReadableSpan:
    """The run span forwarded unscored because the worker could not take it."""
    return enriched_copy(span, pipeline.refuse_run(view, reading, attr.REASON_SCORING_OVERLOAD))


def hand_off(
    pipeline: GroundingPipeline,
    worker: Worker,
    span: ReadableSpan,
    view: SpanView,
    reading: SpanReading,
    deliver: Callable[[ReadableSpan], None],
    deliver_late: Callable[[ReadableSpan], None] | None = None,
) -> ReadableSpan | None:
    """Give a begun run to the worker; when it is full, the run to forward now (unscored).
    A run the judge tier settles later goes to `deliver_late` (default `deliver`)."""
    pipeline.hand_over(view, reading)  # its evidence goes with it, out of its trace's budgets
    task = ScoringTask(
        pipeline, span, view, reading, deliver, pipeline.settings.open_step_wait, deliver_late
    )
    if worker.submit(task):
        return None
    return refused(pipeline, span, view, reading)


def scoring_worker(
    pipeline: GroundingPipeline, idle: Callable[[], None] | None = None
) -> Worker | None:
    """The worker an SDK shell grades runs on (None: inline), scoring in a child process in the
    default mode."""
    settings = pipeline.settings
    if settings.scoring_mode == SCORING_INLINE:
        return None
    if settings.scoring_mode == SCORING_BACKGROUND:
        pipeline.scorer = shared_scorer()
    return Worker(settings.scoring_queue_size, name="otel-grounding-scoring", idle=idle)


def drain(
    worker: Worker | None,
    timeout_millis: int,
    flush_next: Callable[[int], bool],
    pipeline: GroundingPipeline | None = None,
) -> bool:
    """A shell's `force_flush`: grade and forward the runs on the worker, settle the pending
    judgements, then flush what comes next with the time left, all within `timeout_millis`."""
    deadline = time.monotonic() + timeout_millis / 1000
    drained = worker.flush(timeout_millis / 1000) if worker is not None else True
    if pipeline is not None:
        drained = pipeline.flush_judges(deadline - time.monotonic()) and drained
    left = max(0, int((deadline - time.monotonic()) * 1000))
    return flush_next(left) and drained
