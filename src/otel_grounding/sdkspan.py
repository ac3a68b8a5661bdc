"""The SDK's span representation: `ReadableSpan` to span view, and an enriched copy back.

The copy keeps every field of the original (context, parent, resource, scope, kind, status,
times, links, events, attributes and the dropped counts); only the enrichment is added.
"""

from __future__ import annotations

from opentelemetry.attributes import BoundedAttributes
from opentelemetry.sdk.trace import Event, ReadableSpan, SpanLimits
from opentelemetry.sdk.util import BoundedList

from otel_grounding.enrichment import Enrichment
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.spanview import SpanView

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


def _bounded(items: list[object], dropped: int) -> BoundedList:
    bounded = BoundedList(None)
    bounded.extend(items)
    bounded.dropped = dropped
    return bounded


def enriched_copy(span: ReadableSpan, enrichment: Enrichment) -> ReadableSpan:
    """A new ReadableSpan equal to `span` plus the enrichment (nothing of the original is lost).

    The attribute count limit is not re-applied to the copy: the application's attributes were
    already bounded when recorded, and the computed ones must not evict any of them.
    """
    values = dict(span.attributes or {})
    for key in enrichment.remove:
        values.pop(key, None)
    values.update(enrichment.attributes)
    attributes = BoundedAttributes(maxlen=None, attributes=values, immutable=True)
    attributes.dropped = span.dropped_attributes
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
        events=_bounded(events, span.dropped_events),
        links=_bounded(list(span.links), span.dropped_links),
        kind=span.kind,
        status=span.status,
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
        instrumentation_info=getattr(span, "_instrumentation_info", None),
    )


def enrich_sdk_span(
    pipeline: GroundingPipeline, span: ReadableSpan, value_limit: int | None = None
) -> ReadableSpan:
    """The span to forward: an enriched copy for a run span, the same object otherwise."""
    try:
        # Hot path for ordinary spans: the public properties build a new mappingproxy per call,
        # and BoundedAttributes iterates and counts in Python; so read the SDK's own fields,
        # down to the attributes' plain dict, when they are there (public properties otherwise).
        context = getattr(span, "_context", None) or span.context
        keys = getattr(getattr(span, "_attributes", None), "_dict", None)
        if keys is None:
            keys = span.attributes or _EMPTY
        if pipeline.skips(context.trace_id if context else 0, keys):
            return span
        enrichment = pipeline.process(to_view(span, value_limit))
        return span if enrichment is None else enriched_copy(span, enrichment)
    except Exception:  # never into the application: forward the original
        pipeline.metrics.scoring_errors.add(1)
        return span
