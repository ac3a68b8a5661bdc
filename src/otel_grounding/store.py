"""Trace stores: the interface the pipeline is built on, and the in-process store.

Like the Collector's `groupbytrace` storage, a store holds per-trace state within budgets and
answers what the pipeline asks; unlike it, it also decides which evidence a run owns (see
`assembly`). Two implementations share `assembly.TraceAssembly`:

- `InProcessStore` (this module), for the SDK shells: spans of one process arrive mostly in
  order (children before parents), so a span of no interest is linked only into a trace that
  already holds state, a run takes its evidence when it goes to the scoring worker
  (`hands_over`: the outputs it owns leave the trace with it, so that runs waiting for the
  worker under one long-lived root, a chat session or a worker loop, never count against that
  root's budgets), and a local root ending closes its trace's state. Out-of-order arrivals
  still happen (an async generator's agent span ending after its local root; a run ending
  before its last steps start): open spans are tracked, and a run ending after a run around it
  was graded is covered by that grade.
- `relay.unordered.UnorderedStore`, for the relay and `score-traces`: spans in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from otel_grounding.assembly import (
    EVICT_TRACE_BYTES,
    GRADED_RUNS_KEPT,
    RECORD_OVERHEAD,
    Claim,
    Evidence,
    OpenSpan,
    Output,
    TraceAssembly,
    TraceState,
)
from otel_grounding.config import GroundingSettings
from otel_grounding.conventions.base import RUN, SpanReading
from otel_grounding.evicted import EvictedTraces
from otel_grounding.spanview import SpanView


class TraceStore(Protocol):
    """What the pipeline asks of a store. Every method is thread-safe; `on_evict(reason)` is
    set by the pipeline and called once per eviction; `evicted` remembers the traces that lost
    state (a run of one of them is told so)."""

    on_evict: Callable[[str], None]
    evicted: EvictedTraces
    implicit_runs: bool

    def holds(self, trace_id: int) -> bool: ...
    def implicit_run(self, span: SpanView) -> bool: ...
    def start(self, span: SpanView, reading: SpanReading | None) -> None: ...
    def observe(self, span: SpanView, reading: SpanReading | None) -> None: ...
    def begin_run(self, span: SpanView, reading: SpanReading) -> None: ...
    def hand_over(self, span: SpanView, reading: SpanReading) -> None: ...
    def open_children(self, span: SpanView) -> bool: ...
    def awaits_answer(self, span: SpanView, reading: SpanReading) -> bool: ...
    def claim_run(
        self, span: SpanView, reading: SpanReading, *, refused: bool = False
    ) -> Evidence | None: ...
    def expire(self) -> None: ...
    def clear(self) -> None: ...
    @property
    def buffered_bytes(self) -> int: ...
    @property
    def buffered_traces(self) -> int: ...


class InProcessStore(TraceAssembly):
    """The SDK shells' store: spans of one process, mostly in order (see the module text)."""

    implicit_runs = True
    hands_over = True

    @classmethod
    def from_settings(cls, settings: GroundingSettings) -> InProcessStore:
        """Budgets from the settings; idle traces are kept `trace_retention`."""
        return cls(
            num_traces=settings.num_traces,
            max_spans_per_trace=settings.max_spans_per_trace,
            max_bytes=settings.max_buffer_bytes,
            retention=settings.trace_retention,
        )

    def _observe_unread(self, span: SpanView) -> None:
        if span.trace_id not in self._traces:  # cheap unlocked check: most traces have no state
            return
        with self._lock:
            trace = self._traces.get(span.trace_id)
            self._open.pop(span.span_id, None)
            if trace is not None:
                self._link(trace, span, 0)
                self._ended(span, trace)

    def _make_room(self, trace: TraceState, needed: int) -> None:
        """Drop the oldest texts of this trace (tool outputs first) until `needed` bytes fit;
        what is dropped stays as a marker, so that its run learns it lost evidence."""
        self.on_evict(EVICT_TRACE_BYTES)
        for outputs in (trace.tools, trace.llms):
            for output in outputs:
                if trace.size + needed <= self._max_bytes:
                    return
                if output.size:
                    self._charge(trace, -output.size)
                    output.text, output.results, output.size, output.evicted = None, (), 0, True

    def _settle(self, trace_id: int, trace: TraceState) -> None:
        if trace.pending_runs == 0 and not (trace.tools or trace.llms):
            trace.overflowed = False  # nothing pending could have lost a link
        super()._settle(trace_id, trace)

    def _after_grade(self, claim: Claim) -> None:
        span, trace = claim.span, claim.trace
        if not self._claimed_above(span, claim.reading.agent, claim.opened, trace):
            self._release(trace, span.span_id, claim.owned, claim.opened)
        trace.graded[span.span_id] = None
        while len(trace.graded) > GRADED_RUNS_KEPT:
            old, _ = trace.graded.popitem(last=False)
            trace.runs.pop(old, None)

    def _claimed_above(
        self, span: SpanView, agent: str | None, opened: dict[int, OpenSpan], trace: TraceState
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

    def _release(
        self, trace: TraceState, run_span: int, owned: list[Output], opened: dict[int, OpenSpan]
    ) -> None:
        ids = {id(o) for o in owned}
        trace.output_ids.difference_update(o.span_id for o in owned)
        trace.tools = [t for t in trace.tools if id(t) not in ids]
        trace.llms = [t for t in trace.llms if id(t) not in ids]
        freed = sum(o.size for o in owned)
        # The links from those outputs up to the run go too, unless still on the way up from
        # an output kept (another run's, by explicit id) or from a span still open. Other links
        # under the run are left to `_compact` (cheaper than a walk of the whole trace per run).
        keep: set[int] = {run_span}
        _add_ancestry(trace, [o.span_id for o in (*trace.tools, *trace.llms)], keep)
        _add_ancestry(trace, [o.parent_id for o in opened.values()], keep)
        dropped = 0
        for output in owned:
            chain: list[int] = []
            step: int | None = output.span_id
            while step is not None and step not in keep and step in trace.parents:
                chain.append(step)
                step = trace.parents[step]
            if step == run_span:  # only what lies under the run
                for span_id in chain:
                    del trace.parents[span_id]
                dropped += len(chain)
        self._charge(trace, -(freed + RECORD_OVERHEAD * dropped))

    def _compact(self, trace: TraceState) -> bool:
        """Forget the links no pending output, run or open span needs (in a long-lived trace
        they pile up from work already graded); True when that freed a quarter of the cap."""
        if trace.overflowed:
            return False
        needed: set[int] = set()
        seeds: list[int | None] = [o.span_id for o in (*trace.tools, *trace.llms)]
        seeds += list(trace.runs)
        seeds += [o.parent_id for o in list(self._open.values())]
        _add_ancestry(trace, seeds, needed)
        unneeded = [span_id for span_id in trace.parents if span_id not in needed]
        if len(unneeded) < self._max_spans // 4:
            return False
        for span_id in unneeded:
            del trace.parents[span_id]
        self._charge(trace, -RECORD_OVERHEAD * len(unneeded))
        return True


def _add_ancestry(trace: TraceState, seeds: Sequence[int | None], into: set[int]) -> None:
    """Add to `into` each seed and its known ancestors (stopping at what `into` holds)."""
    for seed in seeds:
        node = seed
        while node is not None and node not in into and node in trace.parents:
            into.add(node)
            node = trace.parents[node]
