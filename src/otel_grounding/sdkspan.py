"""The SDK's span representation: `ReadableSpan` to span view, and an enriched copy back.

The copy keeps every field of the original (context, parent, resource, scope, kind, status,
times, links, events, attributes and the dropped counts); only the enrichment is added. What
this reads or sets of the SDK's private surface goes through `sdkcompat`. Nothing here catches:
each shell's outermost boundary does (`internal_error`), and forwards the original span.
"""

from __future__ import annotations

from opentelemetry.sdk.trace import Event, ReadableSpan, SpanLimits

from otel_grounding.enrichment import Enrichment
from otel_grounding.sdkcompat import (
    bounded_attributes,
    bounded_list,
    instrumentation_info,
    value_limit,
)
from otel_grounding.spanview import SpanView

_EMPTY: dict[str, object] = {}


def configured_value_limit() -> int | None:
    """The span attribute value-length limit the SDK applies by default (from its env variables)."""
    return SpanLimits().max_span_attribute_length


def to_view(span: ReadableSpan, configured_limit: int | None = None) -> SpanView:
    """The span view of an SDK span (no copies: attributes and events are read in place), with
    the value-length limit it was recorded under (`configured_limit` when it does not say)."""
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
        value_limit=value_limit(span, configured_limit),
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


def start_view(span: ReadableSpan) -> SpanView:
    """The span view of a span that just started (what its start attributes say)."""
    return to_view(span)._replace(events=(), resource=_EMPTY)
