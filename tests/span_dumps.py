"""Span views for the convention tests: raw span dumps (tests/frameworks/captures/), hand-made."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_grounding.spanview import SpanView


class Event:
    """A span event as an adapter reads it."""

    def __init__(self, name: str, attributes: Mapping[str, Any]) -> None:
        self.name = name
        self.attributes = attributes


def view(
    attributes: Mapping[str, Any],
    *,
    name: str = "span",
    span_id: int = 2,
    parent_id: int | None = 1,
    value_limit: int | None = None,
    local_root: bool = False,
    events: tuple[Event, ...] = (),
) -> SpanView:
    """A hand-written span of trace 1."""
    return SpanView(
        trace_id=1,
        span_id=span_id,
        parent_id=parent_id,
        name=name,
        attributes=attributes,
        events=events,
        resource={"service.name": "svc"},
        value_limit=value_limit,
        local_root=local_root,
    )


def view_of(span: Mapping[str, Any]) -> SpanView:
    """One dumped span (`tests/frameworks/_common.py` span_dict) as the shells hand it over."""
    return SpanView(
        trace_id=int(span["trace_id"], 16),
        span_id=int(span["span_id"], 16),
        parent_id=int(span["parent_id"], 16) if span["parent_id"] else None,
        name=span["name"],
        attributes=span["attributes"],
        events=tuple(Event(e["name"], e["attributes"]) for e in span["events"]),
        resource=span["resource"],
        local_root=span["parent_id"] is None,
    )
