"""Trace records: what a store remembers of a trace while its runs are still to be graded.

Plain records, no behaviour beyond reading them: a step's output waiting for its run
(`Output`), a started span not ended (`OpenSpan`), one trace's state (`TraceState`), a run
being graded (`Claim`) and what it found (`Evidence`). The table that bounds them is
`trace_table`; which of them a run owns is `run_ownership`.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import NamedTuple

from otel_grounding.conventions.base import SpanReading
from otel_grounding.conventions.payloads import ToolResult
from otel_grounding.spanview import SpanView


@dataclass
class Output:
    """A tool or LLM step's output (or what is left of it), waiting in its trace for its run."""

    span_id: int
    parent_id: int | None
    text: str | None
    truncated: bool
    run_id: str | None
    #: A tool step: the call it answers. An LLM step: the tool results in its input, the tool
    #: calls in its output, whether its output was read at all, whether it lists tools.
    call_id: str | None = None
    results: tuple[ToolResult, ...] = ()
    calls: tuple[str | None, ...] = ()
    read: bool = False
    declared: bool = False
    size: int = 0  # bytes of text charged to the buffer
    evicted: bool = False  # text dropped to keep the trace within its byte budget


class OpenSpan(NamedTuple):
    """A started span that has not ended, with what its start attributes said it is."""

    trace_id: int
    parent_id: int | None
    role: str | None
    agent: str | None


@dataclass
class TraceState:
    """One trace's state: parent links, outputs waiting, runs seen (graded or not)."""

    parents: dict[int, int | None] = field(default_factory=dict)
    tools: list[Output] = field(default_factory=list)
    llms: list[Output] = field(default_factory=list)
    #: run span id -> (agent, graded)
    runs: dict[int, tuple[str | None, bool]] = field(default_factory=dict)
    declaring_runs: set[int] = field(default_factory=set)  # runs that list tools available
    #: Ended runs an enclosing run counted as its own when it was graded first (they end later).
    covered: set[int] = field(default_factory=set)
    #: Span ids of the outputs recorded (a second copy of one, delivered twice, is the same).
    output_ids: set[int] = field(default_factory=set)
    size: int = 0
    overflowed: bool = False
    pending_runs: int = 0  # runs that ended and are not graded yet
    root_ended: bool = False  # the trace's local root ended: drop once nothing is pending
    graded: OrderedDict[int, None] = field(default_factory=OrderedDict)

    @property
    def linked(self) -> int:
        """Parent links held (a store may keep some still encoded: see its own trace state)."""
        return len(self.parents)

    def parent(self, span_id: int) -> int | None:
        """The span's parent id (None when unknown or a root)."""
        return self.parents.get(span_id)


class Claim(NamedTuple):
    """A run being graded, under the lock: its span and reading, its trace's state, the
    outputs it owns and the spans open in its trace."""

    span: SpanView
    reading: SpanReading
    trace: TraceState
    owned: list[Output]
    opened: dict[int, OpenSpan]


class Evidence(NamedTuple):
    """What a run found in its subtree when it ended (a named tuple: built for every run)."""

    sources: tuple[str, ...] = ()
    source_span_ids: tuple[int, ...] = ()
    tool_steps_found: int = 0
    tool_outputs_missing: int = 0
    #: Tool steps of the run that had started and not ended when it was graded.
    open_tool_steps: int = 0
    truncated: bool = False
    lost: bool = False
    last_llm_text: str | None = None
    last_llm_truncated: bool = False
    graded_inner_run: bool = False
    #: An enclosing run graded before this one took this run's subtree as its own.
    graded_outer_run: bool = False
    #: Tool calls the subtree shows (tool steps, calls in LLM outputs, results in LLM inputs,
    #: one per call), and how many of them have no readable output anywhere.
    tool_calls: int = 0
    tool_calls_unread: int = 0
    #: LLM steps in the subtree, and how many of them had their output read (a tool call
    #: they asked for would have been seen).
    llm_steps: int = 0
    llm_steps_read: int = 0
    #: An LLM step or a run of the subtree lists tools available to the agent.
    tools_declared: bool = False

