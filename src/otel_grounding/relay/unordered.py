"""The relay's trace store: a trace's spans in any order, from many requests and services.

An intermediate span may arrive before any tool span under it, so every span's parent link is
remembered, even in a trace that holds nothing yet: the relay hands each request's links as
one encoded batch per trace (`remember_batches`), decoded only when a run's subtree cannot be
told from the links already known. No shell knows when such a trace is complete, so a graded
run releases nothing and a trace ageing out is the normal end of its state (not counted as
evicted unless it still holds outputs no run claimed); a run arriving after that still learns
its state is gone. `score-traces` uses the same store for stored spans (linked one by one).
The store is a `trace_table.TraceTable` and an `assembly.TraceAssembly` told, by the policy
`AnyOrder`, what that order allows; `remember_batches` adds to the table through its public
surface, under its lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from otel_grounding.config import GroundingSettings
from otel_grounding.open_spans import OpenSpans
from otel_grounding.store import AssembledStore
from otel_grounding.trace_records import Claim, TraceState
from otel_grounding.trace_table import RECORD_OVERHEAD, TraceTable

#: Rough bytes a batch of links costs beyond its own size (object header, list slot).
BATCH_OVERHEAD = 64


class LinkBatch(Protocol):
    """Parent links of some spans of one trace, kept in a shell's own compact form and decoded
    only when a run's subtree cannot be told from the links already known."""

    @property
    def count(self) -> int: ...

    @property
    def size(self) -> int: ...

    def links(self) -> Iterable[tuple[int, int | None]]: ...


@dataclass
class _BatchedTrace(TraceState):
    """A trace's state with some of its links still encoded, in the batches they came in."""

    pending: list[LinkBatch] = field(default_factory=list)
    pending_links: int = 0

    @property
    def linked(self) -> int:
        return len(self.parents) + self.pending_links

    def parent(self, span_id: int) -> int | None:
        """The span's parent id (None when unknown or a root); decodes pending batches once."""
        try:
            return self.parents[span_id]
        except KeyError:
            pass
        if self.pending:
            for batch in self.pending:
                for child, parent in batch.links():
                    self.parents.setdefault(child, parent)
            self.pending.clear()
            self.pending_links = 0
            return self.parents.get(span_id)
        return None


class AnyOrder:
    """Spans in any order (`assembly.ArrivalOrder`): every span's link is kept, a step's link
    came with its batch, a graded run releases nothing (a later span may still need it), and
    a trace ageing out with its runs graded is the normal end of its state."""

    implicit_runs = False
    hands_over = False
    links_every_span = True
    links_apart = True
    releases = False

    def new_trace(self) -> TraceState:
        return _BatchedTrace()

    def ages_out_quietly(self, trace: TraceState) -> bool:
        return bool(trace.runs) or not (trace.tools or trace.llms)

    def make_room(self, trace: TraceState, needed: int, table: TraceTable) -> None:
        """No room is made: the output's text is not kept, and its run is told."""

    def after_grade(self, claim: Claim, table: TraceTable) -> None:
        """Nothing is released: a span arriving later may still need it."""

    def compact(self, trace: TraceState, table: TraceTable, opened: OpenSpans) -> bool:
        """No link is forgotten: which ones a later span needs cannot be told."""
        return False


class UnorderedStore(AssembledStore):
    """Per-trace state for spans that arrive in any order (see the module text)."""

    arrival_order = AnyOrder

    @classmethod
    def from_settings(cls, settings: GroundingSettings, retention: float) -> UnorderedStore:
        """Budgets from the settings; idle traces are kept `retention` (the relay keeps them at
        least twice its evidence wait, so that a held run still finds them)."""
        return cls(
            num_traces=settings.num_traces,
            max_spans_per_trace=settings.max_spans_per_trace,
            max_bytes=settings.max_buffer_bytes,
            retention=retention,
        )

    def remember_batches(self, batches: Mapping[int, LinkBatch]) -> None:
        """Remember parent links, one batch per trace id, creating each trace's state; the
        links are decoded only if a run needs them."""
        table = self.table
        with table.lock:
            table.expire()
            for trace_id, batch in batches.items():
                trace = table.trace_for(trace_id, expire=False)
                assert isinstance(trace, _BatchedTrace)
                count = batch.count
                if trace.linked + count > table.max_spans:
                    table.overflow(trace)
                    continue
                trace.pending.append(batch)
                trace.pending_links += count
                table.charge(trace, batch.size + BATCH_OVERHEAD)
            table.enforce_budgets()

    def link(self, trace_id: int, links: Iterable[tuple[int, int | None]]) -> None:
        """Remember the parent links `(span id, parent id)` of spans of no interest of one
        trace, decoded already (`score-traces`): what `observe` does for each of them in turn,
        in one call. The budgets are enforced after them (and before the trace overflows its
        span cap, which is reported then): the links only grow this trace, the newest, so the
        same traces are evicted, in the same order, as when enforced after each. No link is
        forgotten at the cap in any order (`AnyOrder.compact`)."""
        table = self.table
        with table.lock:
            trace = table.trace_for(trace_id)
            assert isinstance(trace, _BatchedTrace)
            room = table.max_spans - trace.pending_links  # `trace.linked < cap`, as parents grow
            parents = trace.parents
            added = 0  # links added since the last charge (`TraceTable.add_link`, in one sum)
            for span_id, parent_id in links:
                if len(parents) < room:
                    parents[span_id] = parent_id
                    added += 1
                elif not trace.overflowed:
                    table.charge(trace, RECORD_OVERHEAD * added)
                    added = 0
                    table.enforce_budgets()
                    table.overflow(trace)
            table.charge(trace, RECORD_OVERHEAD * added)
            table.enforce_budgets()

    def mark_lost(self, trace_ids: Iterable[int]) -> None:
        """Traces whose state a shell lost (the relay replaying its persistent queue after a
        kill): a run of one of them grades partial (`evidence-evicted`)."""
        for trace_id in trace_ids:
            self.table.evicted.add(trace_id)
