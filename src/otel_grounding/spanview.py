"""The minimal span view every convention adapter reads: no SDK or protobuf class gets past it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol


class EventView(Protocol):
    """What an adapter reads of a span event (SDK `Event` objects already fit)."""

    @property
    def name(self) -> str: ...

    @property
    def attributes(self) -> Mapping[str, Any] | None: ...


class SpanView(NamedTuple):
    """One ended span as the shells hand it over: ids as ints, attributes as a mapping.

    `value_limit` is the attribute value-length limit the span was recorded under, when the
    shell knows it: a text exactly that long probably arrived cut. `local_root` is true when
    no span of this process is its parent: once it has ended, the trace's local part is done.

    Only the SDK shells know either: they read the SDK's `SpanLimits` and see the parent. The
    relay and `score-traces` leave both unset, by design: OTLP does not carry the limit a
    sender recorded under (a text its SDK cut is detected as cut only where a convention says
    so), and a parent may live in another service (so no local root is taken as a trace's
    implicit run there; see `store.InProcessStore`).
    """

    trace_id: int
    span_id: int
    parent_id: int | None
    name: str
    attributes: Mapping[str, Any]
    events: Sequence[EventView]
    resource: Mapping[str, Any]
    value_limit: int | None = None
    local_root: bool = False


def format_span_id(span_id: int) -> str:
    return f"{span_id:016x}"


def format_trace_id(trace_id: int) -> str:
    return f"{trace_id:032x}"
