"""Trace assembly: under one lock, a trace's spans put together into what each run owns.

Tool and LLM outputs wait in their trace (`trace_table`) for their run; parent links let a run
find what lies in its subtree (`run_ownership`); a graded run's outputs are pooled into its
evidence (`evidence_pool`). What differs between the two orders spans arrive in is asked of an
`ArrivalOrder` policy passed in: `store.MostlyInOrder` (the SDK shells: one process, children
mostly before parents) and `relay.unordered.AnyOrder` (the relay and `score-traces`). A
`TraceAssembly` answers every call of `store.TraceStore`, the interface the pipeline is built on.
"""

from __future__ import annotations

from typing import Protocol

from otel_grounding.conventions.base import LLM, TOOL, SpanReading
from otel_grounding.evidence_pool import tool_tally
from otel_grounding.open_spans import OpenSpans
from otel_grounding.run_ownership import (
    RunOwnership,
    answerless,
    below,
    reading_answers,
    same_run_around,
)
from otel_grounding.spanview import SpanView
from otel_grounding.trace_records import Claim, Evidence, Output, TraceState
from otel_grounding.trace_table import RECORD_OVERHEAD, TraceTable

#: Runs whose evidence was handed over with them (`TraceAssembly.hand_over`) and that are not
#: graded yet, at most; beyond it a run is graded as before, from its trace's state. The SDK
#: shells' scoring queue (which bounds them) is smaller by default.
HANDED_RUNS_MAX = 8_192


class ArrivalOrder(Protocol):
    """What the order spans reach a store in allows it: asked by `TraceAssembly` where the
    orders differ. The methods run under the table's lock and use only public surfaces."""

    #: Whether a local root no convention reads may be its trace's run (only where it ends
    #: after its local spans).
    implicit_runs: bool
    #: Whether a run's evidence is taken from its trace when it is handed to a worker
    #: (`hand_over`) and kept with it, out of reach of the trace's budgets, until it is graded:
    #: only where a run's steps end before it (in one process).
    hands_over: bool
    #: Whether every span's parent link is kept, in a trace created for it (any order: an
    #: intermediate span may come before the tool spans under it); else a span of no interest
    #: is linked only into a trace that holds state.
    links_every_span: bool
    #: Whether a step's parent link arrives apart from its output (in a link batch, or as an
    #: unread span), so that only its text is charged when the output is recorded.
    links_apart: bool
    #: Whether a graded run's outputs leave its trace (so a trace with nothing pending and no
    #: outputs left lost nothing to its span cap).
    releases: bool

    def new_trace(self) -> TraceState:
        """A trace's fresh state."""
        ...

    def ages_out_quietly(self, trace: TraceState) -> bool:
        """Whether a trace ageing out is the normal end of its state (not counted as evicted;
        a run arriving later still learns its state is gone)."""
        ...

    def make_room(self, trace: TraceState, needed: int, table: TraceTable) -> None:
        """Before an output that would not fit its trace's bytes: make room, or none (the
        output's text is then not kept, and its run is told)."""
        ...

    def after_grade(self, claim: Claim, table: TraceTable) -> None:
        """Once a run is graded: release what only it needed, where the order lets one tell."""
        ...

    def compact(self, trace: TraceState, table: TraceTable, opened: OpenSpans) -> bool:
        """At a trace's span cap: free links no longer needed; True when that made room."""
        ...


class TraceAssembly:
    """Per-trace state, thread-safe, within the table's budgets, for one `ArrivalOrder`."""

    def __init__(self, table: TraceTable, order: ArrivalOrder) -> None:
        """`table`: the traces' state (built with `order.new_trace` and
        `order.ages_out_quietly`); `order`: what the store's arrival order allows."""
        self._table = table
        self._order = order
        self._lock = table.lock
        #: (trace id, run span id) -> the evidence a run took when it was handed over.
        self._handed: dict[tuple[int, int], Evidence] = {}
        self._open = OpenSpans()
        #: `start(span, reading)`: note a started span (with what its start attributes say it
        #: is), so that a run that ends before it can wait for it and a trace is kept while it
        #: may still end (the open spans' own method: one call per span).
        self.start = self._open.start

    @property
    def implicit_runs(self) -> bool:
        return self._order.implicit_runs

    def holds(self, trace_id: int) -> bool:
        """Whether anything is buffered for this trace (an unlocked read: a hint, not a promise)."""
        return self._table.holds(trace_id)

    def implicit_run(self, span: SpanView) -> bool:
        """Whether this local root is the run of its trace (an implicit run): the trace holds
        LLM steps, shows tools (a tool step, a tool call or result, tools declared on an LLM
        step) and no span was read as a run. Run spans register when they end (nested runs,
        children first) or drop the trace (local roots), so no run is graded twice."""
        if not (self._order.implicit_runs and span.local_root):
            return False
        with self._lock:
            trace = self._table.get(span.trace_id)
            if trace is None or trace.runs or not trace.llms:
                return False
            return bool(trace.tools) or any(
                t.results or t.calls or t.declared for t in trace.llms
            )

    # -- open spans (shells that see spans start) --------------------------------------------
    def open_children(self, span: SpanView) -> bool:
        """Whether a started span below this run has not ended yet."""
        if not self._open:
            return False
        with self._lock:
            opened = self._open.in_trace(span.trace_id)
            if not opened:
                return False
            trace = self._table.get(span.trace_id)
            return any(
                below(entry.parent_id, span.span_id, opened, trace) for entry in opened.values()
            )

    def awaits_answer(self, span: SpanView, reading: SpanReading) -> bool:
        """Whether a begun run with no answer of its own should wait for one: no LLM step has
        ended under it yet and no pending run around it would take its place (some
        frameworks end the run span before its last steps even start, LlamaIndex workflows
        under OpenLLMetry among them)."""
        with self._lock:
            found = self._stepless(span, reading)
            return found is not None and found[1] is None

    def _pass_over(self, span: SpanView, reading: SpanReading) -> bool:
        """Under the lock: a begun run with no answer of its own and no LLM step under it,
        inside a pending run of the same logical run (the same agent, or either names none):
        that run is the faithful place for the grade. This one is not graded and becomes
        transparent (its steps, and the tools it declares, count for the run around it)."""
        found = self._stepless(span, reading)
        if found is None or found[0] is None or found[1] is None:
            return False
        trace = found[0]
        was = trace.runs.pop(span.span_id, None)
        if was is not None and not was[1] and trace.pending_runs:
            trace.pending_runs -= 1
        if reading.tools_declared:
            trace.declaring_runs.add(span.span_id)
        self._settle(span.trace_id, trace)
        return True

    def _stepless(
        self, span: SpanView, reading: SpanReading
    ) -> tuple[TraceState | None, int | None] | None:
        """Under the lock: None when an LLM step lies under this run; else its trace's state
        and the pending run around it that is the same run (None: no such run)."""
        trace = self._table.get(span.trace_id)
        if trace is None:
            return None, None
        owns = RunOwnership(trace, span.span_id, reading.agent, reading.run_id)
        if any(owns(t) for t in trace.llms):
            return None
        opened = self._open.in_trace(span.trace_id) if self._open else {}
        return trace, same_run_around(span, reading.agent, opened, trace)

    # -- observation --------------------------------------------------------------------------
    def observe(self, span: SpanView, reading: SpanReading | None) -> None:
        """Remember a non-run span: its output if it is a tool or LLM step, else its parent link."""
        if reading is None:
            self._observe_unread(span)
            return
        table = self._table
        with self._lock:
            trace = table.trace_for(span.trace_id)
            if span.span_id in trace.output_ids:  # the same span delivered again: one span
                self._open.end(span.span_id)
                return
            text = reading.text if not reading.redacted else None
            results = reading.input_tool_results
            size = (len(text) if text else 0) + (
                sum(len(r.text or "") for r in results) if results else 0
            )
            evicted = False
            if size:
                max_bytes = table.max_bytes
                if trace.size + RECORD_OVERHEAD + size > max_bytes:
                    self._order.make_room(trace, RECORD_OVERHEAD + size, table)
                    evicted = trace.size + RECORD_OVERHEAD + size > max_bytes
            if evicted:
                text, results, size = None, (), 0
            linked = self._link_output(span, trace, size)
            self._open.end(span.span_id)
            if linked:
                record = Output(  # positional (one per step): the fields in their order
                    span.span_id,
                    span.parent_id,
                    text,
                    reading.truncated,
                    reading.run_id,
                    reading.call_id,
                    results,
                    reading.tool_calls,  # calls
                    text is not None or bool(reading.tool_calls),  # read
                    reading.tools_declared,  # declared
                    size,
                    evicted,
                )
                if reading.role == TOOL:
                    trace.tools.append(record)
                    trace.output_ids.add(span.span_id)
                elif reading.role == LLM:
                    trace.llms.append(record)
                    trace.output_ids.add(span.span_id)
            self._ended(span, trace)
            table.enforce_budgets()

    def _observe_unread(self, span: SpanView) -> None:
        """A span no convention reads ended: keep its parent link where a run may need it."""
        if self._order.links_every_span:
            with self._lock:
                self._link(self._table.trace_for(span.trace_id), span, 0)
                self._table.enforce_budgets()
            return
        if not self._table.holds(span.trace_id):  # cheap unlocked check: most hold no state
            return
        with self._lock:
            trace = self._table.get(span.trace_id)
            self._open.end(span.span_id)
            if trace is not None:
                self._link(trace, span, 0)
                self._ended(span, trace)

    def _link_output(self, span: SpanView, trace: TraceState, text_size: int) -> bool:
        """Under the lock: link a tool or LLM step and charge its text; False: over the cap.
        Where links arrive apart, only the text is charged (not the link a second time)."""
        if not self._order.links_apart:
            return self._link(trace, span, text_size)
        if trace.overflowed:
            return False
        self._table.charge(trace, RECORD_OVERHEAD + text_size)
        return True

    def _ended(self, span: SpanView, trace: TraceState) -> None:
        """After a span of this trace ended: at its local root, or once nothing that ended
        under it still waits, the trace's state goes."""
        if span.local_root:
            trace.root_ended = True
        if trace.root_ended:
            self._settle(span.trace_id, trace)

    def _settle(self, trace_id: int, trace: TraceState) -> None:
        if self._order.releases and trace.pending_runs == 0 and not (trace.tools or trace.llms):
            trace.overflowed = False  # nothing pending could have lost a link
        if not trace.root_ended or trace.pending_runs:
            return
        if self._open.any_in(trace_id):
            return  # a span started under the root is still open: it may be (or hold) a run
        self._table.close(trace_id)

    def _link(self, trace: TraceState, span: SpanView, text_size: int) -> bool:
        """Record a parent link (and the text's size); False when the trace is over its span cap."""
        table = self._table
        if trace.linked >= table.max_spans and not self._order.compact(trace, table, self._open):
            table.overflow(trace)
            return False
        table.add_link(trace, span.span_id, span.parent_id, text_size)
        return True

    # -- a run ends ----------------------------------------------------------------------------
    def begin_run(self, span: SpanView, reading: SpanReading) -> None:
        """A run span ended: register it (for the runs around it, and so that its trace is
        kept) until `claim_run` grades it."""
        with self._lock:
            trace = self._table.trace_for(span.trace_id)
            self._open.end(span.span_id)
            if span.span_id in trace.runs:  # the same run span delivered again: one run
                return
            self._link(trace, span, 0)
            trace.pending_runs += 1
            trace.runs[span.span_id] = (reading.agent, False)
            if span.local_root:
                trace.root_ended = True
            self._table.enforce_budgets()

    def hand_over(self, span: SpanView, reading: SpanReading) -> None:
        """A begun run goes to be graded later (a worker): where the store allows it
        (`hands_over`), the run takes its evidence now, out of its trace, so that what piles up
        in a long-lived trace while runs wait for the worker never evicts evidence a run
        already had in hand. Its trace then keeps only what a later run can still need."""
        if not self._order.hands_over:
            return
        with self._lock:
            key = (span.trace_id, span.span_id)
            trace = self._table.get(span.trace_id)
            if trace is None or key in self._handed:
                return
            begun = trace.runs.get(span.span_id)
            if begun is None or begun[1]:  # not begun, or graded already
                return
            if self._may_hand_over(span, reading, trace):
                self._handed[key] = self._take(span, reading)

    def _may_hand_over(self, span: SpanView, reading: SpanReading, trace: TraceState) -> bool:
        """Under the lock: whether a run that ended can take its evidence now. It can
        when it has an answer or evidence of its own (an answerless run may be passed over for
        the run around it, decided when it is graded) and no step started under it is still
        open (that step's output is still to come), and no other run of its trace waits to be
        graded (runs are graded in the order they ended: an inner run still waiting may be
        passed over for this one, or covered by it)."""
        if answerless(reading) or len(self._handed) >= HANDED_RUNS_MAX:
            return False
        if trace.pending_runs > 1:
            return False
        if not self._open:
            return True
        opened = self._open.in_trace(span.trace_id)
        return not any(
            below(entry.parent_id, span.span_id, opened, trace) for entry in opened.values()
        )

    def claim_run(
        self, span: SpanView, reading: SpanReading, *, refused: bool = False
    ) -> Evidence | None:
        """Grade a begun run, in one pass under one lock: whether it is graded (None: not, the
        same logical run around it or inside it is graded in its place), the evidence in its
        subtree, and the mark that it is graded (what only it needed is then released, where
        the store can tell). `refused`: graded without scoring (no pass-over, no nesting)."""
        with self._lock:
            evidence = self._handed.pop((span.trace_id, span.span_id), None)
            if evidence is None:
                if not refused and answerless(reading) and self._pass_over(span, reading):
                    return None
                evidence = self._take(span, reading)
        if refused or reading_answers(reading):
            return evidence
        if evidence.graded_inner_run or evidence.graded_outer_run:
            return None  # the same agent's run inside (or around) this one was graded: not twice
        return evidence

    def _take(self, span: SpanView, reading: SpanReading) -> Evidence:
        """Under the lock: the evidence in a run's subtree; the run counts as graded from then."""
        table = self._table
        lost = span.trace_id in table.evicted
        trace = table.get(span.trace_id)
        if trace is None:
            return Evidence(lost=lost or table.was_closed(span.trace_id))
        lost = lost or trace.overflowed
        owns = RunOwnership(trace, span.span_id, reading.agent, reading.run_id)
        tools = [t for t in trace.tools if owns(t)]
        steps = [t for t in trace.llms if owns(t)]
        llms = [t for t in steps if t.text or t.evicted]
        # The other runs of the trace (a run neither encloses nor absorbs itself): most
        # traces hold this run only, and these walks are then skipped.
        others = len(trace.runs) > 1 or span.span_id not in trace.runs
        graded_inner = others and any(
            graded and owns.encloses(run_id)
            for run_id, (agent, graded) in trace.runs.items()
            if agent is None or reading.agent is None or agent == reading.agent
        )
        # Runs nested in this one that ended and wait to be graded (an async generator's
        # span ending after its root): this grade covers them, they are not graded again.
        if others:
            trace.covered.update(
                run_id for run_id, (_, graded) in trace.runs.items()
                if not graded and owns.absorbs(run_id)
            )
        covered = span.span_id in trace.covered
        trace.covered.discard(span.span_id)
        declared = any(t.declared for t in steps) or (
            bool(trace.declaring_runs)
            and any(owns.encloses(run_id) for run_id in trace.declaring_runs)
        )
        if reading.tools_declared and not span.local_root:
            trace.declaring_runs.add(span.span_id)
        opened = self._open.in_trace(span.trace_id) if self._open else {}
        open_tools = (
            sum(
                1
                for entry in opened.values()
                if entry.role == TOOL and below(entry.parent_id, span.span_id, opened, trace)
            )
            if opened
            else 0
        )
        self._mark_graded(Claim(span, reading, trace, tools + steps, opened))
        llms = [t for t in llms if t.text]
        tally = tool_tally(tools, steps)
        missing = 0
        truncated = False
        for tool in tools:  # one pass over the tool steps for what is counted of them
            if tool.text is None and not tool.evicted:
                missing += 1
            if tool.truncated:
                truncated = True
            if tool.evicted:
                lost = True
        return Evidence(  # positional (one per run): the fields in their order
            tally.sources,
            tally.source_span_ids,
            len(tools),  # tool_steps_found
            missing,  # tool_outputs_missing
            open_tools,  # open_tool_steps
            truncated,
            lost,
            llms[-1].text if llms else None,  # last_llm_text
            llms[-1].truncated if llms else False,  # last_llm_truncated
            graded_inner,  # graded_inner_run
            covered,  # graded_outer_run
            tally.calls,  # tool_calls
            tally.unread,  # tool_calls_unread
            len(steps),  # llm_steps
            sum(1 for t in steps if t.read),  # llm_steps_read
            declared,  # tools_declared
        )

    def _mark_graded(self, claim: Claim) -> None:
        span, reading, trace = claim.span, claim.reading, claim.trace
        was = trace.runs.get(span.span_id)
        if was is None:
            self._link(trace, span, 0)
        elif not was[1] and trace.pending_runs:
            trace.pending_runs -= 1
        trace.runs[span.span_id] = (reading.agent, True)
        self._order.after_grade(claim, self._table)
        self._settle(span.trace_id, trace)

    # -- budgets ------------------------------------------------------------------------------
    def expire(self) -> None:
        """Evict traces idle longer than the retention (also done on every insert)."""
        with self._lock:
            self._table.expire()

    def clear(self) -> None:
        with self._lock:
            self._table.clear()
            self._open.clear()
            self._handed.clear()

    @property
    def buffered_bytes(self) -> int:
        return self._table.buffered_bytes

    @property
    def buffered_traces(self) -> int:
        return self._table.buffered_traces
