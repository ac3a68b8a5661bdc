"""The one interface every telemetry convention answers: what is this span, and what is its text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from otel_grounding.spanview import SpanView

RUN = "run"
TOOL = "tool"
LLM = "llm"


@dataclass(frozen=True)
class SpanReading:
    """What a convention read from one span; spans of no interest get no reading at all.

    `text` is the run's final output, the tool's result or the LLM's answer, None when the
    content was not captured. `attached_sources` are tool outputs carried on the run span
    itself (None for a tool step recorded without output). `content_keys` are the attribute
    keys holding raw content, removed after scoring when the user asks for it.
    """

    role: str
    convention: str
    text: str | None = None
    redacted: bool = False
    truncated: bool = False
    run_id: str | None = None
    agent: str | None = None
    project: str | None = None
    declared_tool_steps: int | None = None
    #: A tool-step count was declared but is not a whole number (graded partial, not ignored).
    declared_tool_steps_unreadable: bool = False
    attached_sources: tuple[str | None, ...] = ()
    attached_truncated: bool = False
    content_keys: tuple[str, ...] = ()


class Convention(Protocol):
    """A telemetry dialect: reads a span from its attributes and events alone."""

    name: str
    #: Attribute keys of which a span must carry at least one for this convention to read it:
    #: spans with none of any convention's markers skip the adapters entirely.
    markers: frozenset[str]

    def read(self, span: SpanView) -> SpanReading | None:
        """A reading when the span is a run, a tool step or an LLM step of this convention."""
        ...


def value_cut(span: SpanView, value: Any) -> bool:
    """True when a string value is exactly as long as the span's value-length limit."""
    return (
        span.value_limit is not None and isinstance(value, str) and len(value) >= span.value_limit
    )


def read_span(span: SpanView, conventions: Sequence[Convention]) -> SpanReading | None:
    """The first reading any convention gives, in order; None for spans of no interest."""
    for convention in conventions:
        reading = convention.read(span)
        if reading is not None:
            return reading
    return None
