"""Run ownership: which remembered outputs belong to a run, and which runs stand for one.

A run owns the outputs under it (nearest run ancestor, explicit run id first); a run of the
same agent nested in it is transparent (one logical run recorded twice, as some
instrumentations do). The walks here follow parent links up, through the spans still open
where a shell sees spans start, and stop on a cycle in hostile links.
"""

from __future__ import annotations

from otel_grounding.conventions.base import RUN, SpanReading
from otel_grounding.spanview import SpanView
from otel_grounding.trace_records import OpenSpan, Output, TraceState


def answerless(reading: SpanReading) -> bool:
    """A run span with no answer and no evidence of its own."""
    return (reading.redacted or reading.text is None) and not reading.attached_sources


def reading_answers(reading: SpanReading) -> bool:
    """A run span with an answer, or evidence it read, of its own (graded even when a run
    inside or around it of the same agent was)."""
    own_output = None if reading.redacted else reading.text
    return own_output is not None or any(s is not None for s in reading.attached_sources)


def below(
    node: int | None, run_span: int, opened: dict[int, OpenSpan], trace: TraceState | None
) -> bool:
    """Whether the chain of parents from `node` (open spans first, then links) reaches
    `run_span`."""
    for _ in range(len(opened) + (trace.linked if trace is not None else 0) + 1):
        if node is None:
            return False
        if node == run_span:
            return True
        entry = opened.get(node)
        if entry is not None:
            node = entry.parent_id
        elif trace is not None:
            node = trace.parent(node)
        else:
            return False
    return False


def same_run_around(
    span: SpanView, agent: str | None, opened: dict[int, OpenSpan], trace: TraceState
) -> int | None:
    """The nearest run around this one, not graded yet (still open, or ended and
    pending), that is the same logical run: the same agent, or either names none."""
    node = span.parent_id
    for _ in range(len(opened) + trace.linked + 1):
        if node is None:
            return None
        entry = opened.get(node)
        if entry is not None and entry.role == RUN:
            if agent is None or entry.agent in (None, agent):
                return node
            return None
        ended = trace.runs.get(node)
        if ended is not None:
            if not ended[1] and (agent is None or ended[0] in (None, agent)):
                return node
            return None
        node = entry.parent_id if entry is not None else trace.parent(node)
    return None


def claimed_above(
    span: SpanView, agent: str | None, opened: dict[int, OpenSpan], trace: TraceState
) -> bool:
    """Whether an open run around this one (known as a run when it started) would count
    this run's outputs as its own: the same agent, or this run names none."""
    node = span.parent_id
    for _ in range(len(opened) + trace.linked + 1):
        if node is None:
            return False
        entry = opened.get(node)
        if entry is not None:
            if entry.role == RUN and entry.agent is not None and agent in (None, entry.agent):
                return True
            node = entry.parent_id
        else:
            node = trace.parent(node)
    return False


class RunOwnership:
    """Which remembered outputs belong to one run: nearest run ancestor, explicit run id first.

    Runs of the same agent nested inside this one are transparent: their outputs are this
    run's too (one logical run recorded twice, as some instrumentations do).
    """

    def __init__(self, trace: TraceState, run_span: int, agent: str | None, run_id: str | None):
        self._trace = trace
        self._run_span = run_span
        self._agent = agent
        self._run_id = run_id
        self._memo: dict[int | None, bool] = {}

    def __call__(self, output: Output) -> bool:
        if output.run_id is not None and self._run_id is not None:
            return output.run_id == self._run_id
        return self._reaches(output.parent_id)

    def encloses(self, span_id: int) -> bool:
        return span_id != self._run_span and self._reaches(self._trace.parent(span_id))

    def absorbs(self, run_span: int) -> bool:
        """Whether a run nested in this one is transparent to it (its outputs are this run's)."""
        return run_span != self._run_span and self._reaches(run_span)

    def _reaches(self, node: int | None) -> bool:
        path: list[int | None] = []
        result = False
        seen = 0
        while node is not None:
            if node in self._memo:
                result = self._memo[node]
                break
            path.append(node)
            if node == self._run_span:
                result = True
                break
            inner = self._trace.runs.get(node)
            # A run nested in this one is transparent when it is the same agent's, or names
            # no agent inside a named run (one logical run recorded twice).
            if inner is not None and (self._agent is None or inner[0] not in (None, self._agent)):
                break
            node = self._trace.parent(node)
            seen += 1
            if seen > self._trace.linked:  # a cycle in hostile parent links
                break
        for visited in path:
            self._memo[visited] = result
        return result
