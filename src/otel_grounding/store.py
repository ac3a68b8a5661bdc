"""Trace stores: the interface the pipeline is built on, and the in-process store.

Like the Collector's `groupbytrace` storage (a five-method interface over its trace map), a
store holds per-trace state within budgets and answers what the pipeline asks; unlike it, it
also decides which evidence a run owns. Both stores are a `trace_table.TraceTable` and an
`assembly.TraceAssembly` over it, told by an `assembly.ArrivalOrder` policy what the order
their spans arrive in allows:

- `InProcessStore` (this module, policy `MostlyInOrder`), for the SDK shells: spans of one
  process arrive mostly in order (children before parents), so a span of no interest is linked
  only into a trace that already holds state, a run takes its evidence when it goes to the
  scoring worker (`hands_over`: the outputs it owns leave the trace with it, so that runs
  waiting for the worker under one long-lived root, a chat session or a worker loop, never
  count against that root's budgets), and a local root ending closes its trace's state.
  Out-of-order arrivals still happen (an async generator's agent span ending after its local
  root; a run ending before its last steps start): open spans are tracked, and a run ending
  after a run around it was graded is covered by that grade.
- `relay.unordered.UnorderedStore` (policy `relay.unordered.AnyOrder`), for the relay and
  `score-traces`: spans in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from otel_grounding.assembly import ArrivalOrder, TraceAssembly
from otel_grounding.config import GroundingSettings
from otel_grounding.conventions.base import SpanReading
from otel_grounding.evicted import EvictedTraces
from otel_grounding.open_spans import OpenSpans
from otel_grounding.run_ownership import claimed_above
from otel_grounding.spanview import SpanView
from otel_grounding.trace_records import Claim, Evidence, OpenSpan, Output, TraceState
from otel_grounding.trace_table import EVICT_TRACE_BYTES, RECORD_OVERHEAD, TraceTable

#: Graded runs remembered per trace (for the runs around them); older ones are forgotten.
GRADED_RUNS_KEPT = 64


class TraceStore(Protocol):
    """What the pipeline asks of a store. Every method is thread-safe; `on_evict(reason)` is
    set by the pipeline and called once per eviction; `evicted` remembers the traces that lost
    state (a run of one of them is told so)."""

    on_evict: Callable[[str], None]

    @property
    def evicted(self) -> EvictedTraces: ...
    @property
    def implicit_runs(self) -> bool: ...
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


class MostlyInOrder:
    """The arrival order of one process's spans (`assembly.ArrivalOrder`): a run's steps end
    before it, so a graded run releases what only it needed, a trace over its bytes drops its
    oldest texts first, and links no pending work needs are forgotten at the span cap."""

    implicit_runs = True
    hands_over = True
    links_every_span = False
    links_apart = False
    releases = True

    def new_trace(self) -> TraceState:
        return TraceState()

    def ages_out_quietly(self, trace: TraceState) -> bool:
        return False

    def make_room(self, trace: TraceState, needed: int, table: TraceTable) -> None:
        """Drop the oldest texts of this trace (tool outputs first) until `needed` bytes fit;
        what is dropped stays as a marker, so that its run learns it lost evidence."""
        table.on_evict(EVICT_TRACE_BYTES)
        for outputs in (trace.tools, trace.llms):
            for output in outputs:
                if trace.size + needed <= table.max_bytes:
                    return
                if output.size:
                    table.charge(trace, -output.size)
                    output.text, output.results, output.size, output.evicted = None, (), 0, True

    def after_grade(self, claim: Claim, table: TraceTable) -> None:
        """Release the run's outputs (unless an open run around it will count them too), and
        remember it graded for the runs around it (the last `GRADED_RUNS_KEPT`)."""
        span, trace = claim.span, claim.trace
        if not claimed_above(span, claim.reading.agent, claim.opened, trace):
            _release(trace, span.span_id, claim.owned, claim.opened, table)
        trace.graded[span.span_id] = None
        while len(trace.graded) > GRADED_RUNS_KEPT:
            old, _ = trace.graded.popitem(last=False)
            trace.runs.pop(old, None)

    def compact(self, trace: TraceState, table: TraceTable, opened: OpenSpans) -> bool:
        """Forget the links no pending output, run or open span needs (in a long-lived trace
        they pile up from work already graded); True when that freed a quarter of the cap."""
        if trace.overflowed:
            return False
        needed: set[int] = set()
        seeds: list[int | None] = [o.span_id for o in (*trace.tools, *trace.llms)]
        seeds += list(trace.runs)
        seeds += opened.parent_ids()
        _add_ancestry(trace, seeds, needed)
        unneeded = [span_id for span_id in trace.parents if span_id not in needed]
        if len(unneeded) < table.max_spans // 4:
            return False
        for span_id in unneeded:
            del trace.parents[span_id]
        table.charge(trace, -RECORD_OVERHEAD * len(unneeded))
        return True


class AssembledStore:
    """A `TraceStore` made of a trace table with its budgets and an assembly over it, told by
    an arrival-order policy what its order allows; the two stores are this with their order
    (and the relay's, its link batches). The table's and the assembly's methods are bound once,
    here, so that a call costs what it would on them."""

    #: The policy of the store's arrival order, one per store.
    arrival_order: Callable[[], ArrivalOrder]

    def __init__(
        self,
        *,
        num_traces: int,
        max_spans_per_trace: int,
        max_bytes: int,
        retention: float,
        on_evict: Callable[[str], None] = lambda reason: None,
    ) -> None:
        """`retention`: how long an idle trace's state is kept."""
        order = self.arrival_order()
        self.table = table = TraceTable(
            num_traces=num_traces,
            max_spans_per_trace=max_spans_per_trace,
            max_bytes=max_bytes,
            retention=retention,
            on_evict=on_evict,
            new_trace=order.new_trace,
            ages_out_quietly=order.ages_out_quietly,
        )
        self.assembly = assembly = TraceAssembly(table, order)
        self.holds = table.holds
        self.implicit_run = assembly.implicit_run
        self.start = assembly.start
        self.observe = assembly.observe
        self.begin_run = assembly.begin_run
        self.hand_over = assembly.hand_over
        self.open_children = assembly.open_children
        self.awaits_answer = assembly.awaits_answer
        self.claim_run = assembly.claim_run
        self.expire = assembly.expire
        self.clear = assembly.clear

    @property
    def on_evict(self) -> Callable[[str], None]:
        return self.table.on_evict

    @on_evict.setter
    def on_evict(self, on_evict: Callable[[str], None]) -> None:
        self.table.on_evict = on_evict

    @property
    def evicted(self) -> EvictedTraces:
        return self.table.evicted

    @property
    def implicit_runs(self) -> bool:
        return self.assembly.implicit_runs

    @property
    def buffered_bytes(self) -> int:
        return self.table.buffered_bytes

    @property
    def buffered_traces(self) -> int:
        return self.table.buffered_traces


class InProcessStore(AssembledStore):
    """The SDK shells' store: spans of one process, mostly in order (see the module text)."""

    arrival_order = MostlyInOrder

    @classmethod
    def from_settings(cls, settings: GroundingSettings) -> InProcessStore:
        """Budgets from the settings; idle traces are kept `trace_retention`."""
        return cls(
            num_traces=settings.num_traces,
            max_spans_per_trace=settings.max_spans_per_trace,
            max_bytes=settings.max_buffer_bytes,
            retention=settings.trace_retention,
        )


def _release(
    trace: TraceState,
    run_span: int,
    owned: list[Output],
    opened: dict[int, OpenSpan],
    table: TraceTable,
) -> None:
    """Take a graded run's outputs out of its trace, with the links only they needed."""
    ids = {id(o) for o in owned}
    trace.output_ids.difference_update(o.span_id for o in owned)
    trace.tools = [t for t in trace.tools if id(t) not in ids]
    trace.llms = [t for t in trace.llms if id(t) not in ids]
    freed = sum(o.size for o in owned)
    # The links from those outputs up to the run go too, unless still on the way up from
    # an output kept (another run's, by explicit id) or from a span still open. Other links
    # under the run are left to `compact` (cheaper than a walk of the whole trace per run).
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
    table.charge(trace, -(freed + RECORD_OVERHEAD * dropped))


def _add_ancestry(trace: TraceState, seeds: Sequence[int | None], into: set[int]) -> None:
    """Add to `into` each seed and its known ancestors (stopping at what `into` holds)."""
    for seed in seeds:
        node = seed
        while node is not None and node not in into and node in trace.parents:
            into.add(node)
            node = trace.parents[node]
