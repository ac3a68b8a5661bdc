"""The one interface every telemetry convention answers: what is this span, and what is its text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from otel_grounding.conventions.tool_traffic import ToolResult
from otel_grounding.spanview import SpanView

RUN = "run"
TOOL = "tool"
LLM = "llm"
#: A span a convention recognises and deliberately does not read (no later convention may).
OTHER = "other"


class SpanReading(NamedTuple):
    """What a convention read from one span; spans of no interest get no reading at all.
    A named tuple: immutable, and built once for every step and run span a shell reads (a
    frozen dataclass of these many fields costs several times as much to build).

    `text` is the run's final output, the tool's result or the LLM's answer, None when the
    content was not captured. `attached_sources` are tool outputs carried on the run span
    itself (None for a tool step recorded without output). `content_keys` are the attribute
    keys holding raw content, removed after scoring when the user asks for it.

    What the trace shows of tool use: `call_id` is the call a tool step answers;
    `input_tool_results` are the tool results an LLM step received in its input (evidence as
    the model saw it); `tool_calls` are the call ids an LLM step's output asks for (None when
    unnamed); `tools_declared` says the span lists tools available to the agent.
    `declared_tool_steps` is how many tool calls the run says it made (a counter).
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
    call_id: str | None = None
    input_tool_results: tuple[ToolResult, ...] = ()
    tool_calls: tuple[str | None, ...] = ()
    tools_declared: bool = False


def reading_of(
    role: str, convention: str, content: tuple[str | None, bool, bool], **fields: Any
) -> SpanReading:
    """A reading from `(text, redacted, truncated)`, as the adapters' content readers give it."""
    text, redacted, cut = content
    return SpanReading(
        role=role, convention=convention, text=text, redacted=redacted, truncated=cut, **fields
    )


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
    """The first reading any convention gives, in order; None for spans of no interest (or
    that the first convention to recognise them reads as `OTHER`)."""
    for convention in conventions:
        reading = convention.read(span)
        if reading is not None:
            return None if reading.role == OTHER else reading
    return None


#: The convention named on an implicit run whose local root no adapter recognises.
IMPLICIT = "implicit"


def read_implicit_run(span: SpanView, conventions: Sequence[Convention]) -> SpanReading:
    """A local root read as an implicit run: its own answer, from the first convention whose
    marker it carries and that can read a span's output whatever its kind (`read_output`).

    No text when none unwraps to text (a Python repr, JSON that holds no message): the
    pipeline then takes the last LLM step's answer, as for any run without an output of its own.
    """
    keys = span.attributes.keys()
    name = IMPLICIT
    for convention in conventions:
        if convention.markers.isdisjoint(keys):
            continue
        if name == IMPLICIT:
            name = convention.name
        reader = getattr(convention, "read_output", None)
        if reader is None:
            continue
        text, redacted, cut = reader(span)
        if text is not None or redacted:
            return SpanReading(
                role=RUN, convention=convention.name, text=text, redacted=redacted, truncated=cut
            )
    return SpanReading(role=RUN, convention=name)
