"""Open spans: spans a shell saw start and not yet end, with what their start attributes said.

Only shells that see spans start (the SDK processor) fill it. A run that ends before a step
under it can wait for that step, and a trace is kept while a span of it may still end. Each
operation is one dictionary operation (atomic under the GIL), so a caller may ask without the
store's lock for a hint (`bool`), and takes the lock for an answer.
"""

from __future__ import annotations

from otel_grounding.conventions.base import SpanReading
from otel_grounding.spanview import SpanView
from otel_grounding.trace_records import OpenSpan

#: Started, not yet ended spans tracked at once (beyond it new spans are not tracked).
OPEN_SPANS_TRACKED = 50_000


class OpenSpans:
    """Span id -> `OpenSpan`, for at most `OPEN_SPANS_TRACKED` spans."""

    __slots__ = ("_spans",)

    def __init__(self) -> None:
        self._spans: dict[int, OpenSpan] = {}

    def __bool__(self) -> bool:
        return bool(self._spans)

    def start(self, span: SpanView, reading: SpanReading | None) -> None:
        """Note a started span (with what its start attributes say it is), if room is left."""
        if len(self._spans) < OPEN_SPANS_TRACKED:
            self._spans[span.span_id] = OpenSpan(
                span.trace_id,
                span.parent_id,
                reading.role if reading is not None else None,
                reading.agent if reading is not None else None,
            )

    def end(self, span_id: int) -> None:
        """The span ended (or was never tracked)."""
        self._spans.pop(span_id, None)

    def in_trace(self, trace_id: int) -> dict[int, OpenSpan]:
        """The open spans of one trace, by span id (a copy)."""
        return {sid: o for sid, o in list(self._spans.items()) if o.trace_id == trace_id}

    def any_in(self, trace_id: int) -> bool:
        """Whether a span of this trace is still open."""
        return any(o.trace_id == trace_id for o in list(self._spans.values()))

    def parent_ids(self) -> list[int | None]:
        """The parents of every open span (the links they will need when they end)."""
        return [o.parent_id for o in list(self._spans.values())]

    def clear(self) -> None:
        self._spans.clear()
