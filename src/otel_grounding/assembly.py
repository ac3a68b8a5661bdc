"""Trace assembly: what every trace store shares. Remembers, per trace, what a run will need
when it ends, and decides, under one lock, which evidence a run owns and whether it is graded.

Tool and LLM outputs wait here for their run; parent links let a run find what lies in its
subtree. Budgets on traces, spans per trace, bytes and idle age keep memory bounded, modelled
on the Collector's `groupbytrace` (`num_traces`, `wait_duration`); whatever is evicted is
counted (`on_evict`) and remembered (`evicted.EvictedTraces`), and a run whose trace lost state
is told so (its grade becomes `partial`). The stores differ only in how spans reach them: see
`store.InProcessStore` (the SDK shells) and `relay.unordered.UnorderedStore` (the relay and
`score-traces`); `store.TraceStore` is the interface the pipeline is built on.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading
from otel_grounding.conventions.payloads import ToolResult
from otel_grounding.evicted import EvictedTraces
from otel_grounding.spanview import SpanView

#: Rough bytes a remembered span costs beyond its text (ids, record, dict slot).
RECORD_OVERHEAD = 160

EVICT_AGE = "age"
EVICT_COUNT = "count"
EVICT_BYTES = "bytes"
EVICT_SPANS = "spans"
#: Outputs evicted inside one trace to keep it within `max_buffer_bytes`.
EVICT_TRACE_BYTES = "trace_bytes"

#: Graded runs remembered per trace (for the runs around them); older ones are forgotten.
GRADED_RUNS_KEPT = 64
#: Started, not yet ended spans tracked at once (beyond it new spans are not tracked).
OPEN_SPANS_TRACKED = 50_000
#: Runs whose evidence was handed over with them (`TraceAssembly.hand_over`) and that are not
#: graded yet, at most; beyond it a run is graded as before, from its trace's state. The SDK
#: shells' scoring queue (which bounds them) is smaller by default.
HANDED_RUNS_MAX = 8_192
#: The memory of traces whose state was dropped when their local root ended (a run ending
#: after that learns its evidence is gone): a filter of this many bytes, see `evicted`.
CLOSED_MEMORY_BYTES = 256 * 1024


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


@dataclass(frozen=True)
class Evidence:
    """What a run found in its subtree when it ended."""

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


class TraceAssembly:
    """Per-trace buffers, thread-safe, within budgets; `on_evict(reason)` counts each eviction.

    A base: a store says how spans of no interest are linked (`_observe_unread`) and may add
    what its order of arrival allows (the hooks below). `implicit_runs`: whether a local root
    no convention reads may be its trace's run (only where it ends after its local spans).
    """

    implicit_runs = False
    #: Whether a run's evidence is taken from its trace when it is handed to a worker
    #: (`hand_over`) and kept with it, out of reach of the trace's budgets, until it is graded:
    #: only where a run's steps end before it (in one process).
    hands_over = False

    def __init__(
        self,
        *,
        num_traces: int,
        max_spans_per_trace: int,
        max_bytes: int,
        retention: float,
        on_evict: Callable[[str], None] = lambda reason: None,
        clock: Callable[[], float] = time.monotonic,
        evicted: EvictedTraces | None = None,
    ) -> None:
        """`retention`: how long an idle trace's state is kept; `evicted`: the memory of traces
        that lost state (a fresh one by default)."""
        self._num_traces = num_traces
        self._max_spans = max_spans_per_trace
        self._max_bytes = max_bytes
        self._wait = retention
        self.on_evict = on_evict
        self._clock = clock
        self._lock = threading.Lock()
        self._traces: OrderedDict[int, TraceState] = OrderedDict()
        self._touched: dict[int, float] = {}
        self.evicted = evicted if evicted is not None else EvictedTraces()
        #: Traces dropped when their local root ended: a Bloom filter (false positives about
        #: 2 %, only asked for a run whose trace holds no state: they make it `partial`).
        self._closed = EvictedTraces(CLOSED_MEMORY_BYTES)
        #: (trace id, run span id) -> the evidence a run took when it was handed over.
        self._handed: dict[tuple[int, int], Evidence] = {}
        self._open: dict[int, OpenSpan] = {}  # span id -> started, not ended (GIL-atomic ops)
        self._bytes = 0

    def holds(self, trace_id: int) -> bool:
        """Whether anything is buffered for this trace (an unlocked read: a hint, not a promise)."""
        return trace_id in self._traces

    def implicit_run(self, span: SpanView) -> bool:
        """Whether this local root is the run of its trace (an implicit run): the trace holds
        LLM steps, shows tools (a tool step, a tool call or result, tools declared on an LLM
        step) and no span was read as a run. Run spans register when they end (nested runs,
        children first) or drop the trace (local roots), so no run is graded twice."""
        if not (self.implicit_runs and span.local_root):
            return False
        with self._lock:
            trace = self._traces.get(span.trace_id)
            if trace is None or trace.runs or not trace.llms:
                return False
            return bool(trace.tools) or any(
                t.results or t.calls or t.declared for t in trace.llms
            )

    # -- open spans (shells that see spans start) --------------------------------------------
    def start(self, span: SpanView, reading: SpanReading | None) -> None:
        """Note a started span (with what its start attributes say it is), so that a run that
        ends before it can wait for it and a trace is kept while it may still end."""
        if len(self._open) < OPEN_SPANS_TRACKED:
            self._open[span.span_id] = OpenSpan(
                span.trace_id,
                span.parent_id,
                reading.role if reading is not None else None,
                reading.agent if reading is not None else None,
            )

    def open_children(self, span: SpanView) -> bool:
        """Whether a started span below this run has not ended yet."""
        if not self._open:
            return False
        with self._lock:
            opened = self._open_in(span.trace_id)
            if not opened:
                return False
            trace = self._traces.get(span.trace_id)
            return any(
                self._below(entry.parent_id, span.span_id, opened, trace)
                for entry in opened.values()
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
        trace = self._traces.get(span.trace_id)
        if trace is None:
            return None, None
        owns = _Ownership(trace, span.span_id, reading.agent, reading.run_id)
        if any(owns(t) for t in trace.llms):
            return None
        opened = self._open_in(span.trace_id) if self._open else {}
        return trace, self._same_run_around(span, reading.agent, opened, trace)

    def _same_run_around(
        self, span: SpanView, agent: str | None, opened: dict[int, OpenSpan], trace: TraceState
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

    def _open_in(self, trace_id: int) -> dict[int, OpenSpan]:
        return {sid: o for sid, o in list(self._open.items()) if o.trace_id == trace_id}

    def _below(
        self, node: int | None, run_span: int, opened: dict[int, OpenSpan], trace: TraceState | None
    ) -> bool:
        """Whether the chain of parents from `node` reaches `run_span`."""
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

    # -- observation --------------------------------------------------------------------------
    def observe(self, span: SpanView, reading: SpanReading | None) -> None:
        """Remember a non-run span: its output if it is a tool or LLM step, else its parent link."""
        if reading is None:
            self._observe_unread(span)
            return
        with self._lock:
            trace = self._trace_for(span.trace_id)
            if span.span_id in trace.output_ids:  # the same span delivered again: one span
                self._open.pop(span.span_id, None)
                return
            text = reading.text if not reading.redacted else None
            results = reading.input_tool_results
            size = (len(text) if text else 0) + sum(len(r.text or "") for r in results)
            if size and trace.size + RECORD_OVERHEAD + size > self._max_bytes:
                self._make_room(trace, RECORD_OVERHEAD + size)
            evicted = bool(size) and trace.size + RECORD_OVERHEAD + size > self._max_bytes
            if evicted:
                text, results, size = None, (), 0
            linked = self._link_output(span, trace, size)
            self._open.pop(span.span_id, None)
            if linked:
                record = Output(
                    span.span_id,
                    span.parent_id,
                    text,
                    reading.truncated,
                    reading.run_id,
                    call_id=reading.call_id,
                    results=results,
                    calls=reading.tool_calls,
                    read=text is not None or bool(reading.tool_calls),
                    declared=reading.tools_declared,
                    size=size,
                    evicted=evicted,
                )
                if reading.role == TOOL:
                    trace.tools.append(record)
                    trace.output_ids.add(span.span_id)
                elif reading.role == LLM:
                    trace.llms.append(record)
                    trace.output_ids.add(span.span_id)
            self._ended(span, trace)
            self._enforce_budgets()

    # -- what a store adds (the hooks) --------------------------------------------------------
    def _observe_unread(self, span: SpanView) -> None:
        """A span no convention reads ended: keep its parent link where a run may need it."""
        raise NotImplementedError

    def _make_room(self, trace: TraceState, needed: int) -> None:
        """Under the lock, before an output that would not fit its trace's bytes: make room
        (by default none is made: the output's text is not kept, and its run is told)."""

    def _link_output(self, span: SpanView, trace: TraceState, text_size: int) -> bool:
        """Under the lock: link a tool or LLM step and charge its text; False: over the cap."""
        return self._link(trace, span, text_size)

    def _after_grade(self, claim: Claim) -> None:
        """Under the lock, once a run is graded: release what only it needed (by default
        nothing: a store that sees spans out of order cannot know)."""

    def _compact(self, trace: TraceState) -> bool:
        """Under the lock, at a trace's span cap: free links no longer needed; True when that
        made room (by default none is freed)."""
        return False

    def _ages_out_quietly(self, trace: TraceState) -> bool:
        """Whether a trace ageing out is the normal end of its state (not counted as evicted;
        a run arriving later still learns its state is gone)."""
        return False

    def _new_trace(self) -> TraceState:
        return TraceState()

    def _ended(self, span: SpanView, trace: TraceState) -> None:
        """After a span of this trace ended: at its local root, or once nothing that ended
        under it still waits, the trace's state goes."""
        if span.local_root:
            trace.root_ended = True
        if trace.root_ended:
            self._settle(span.trace_id, trace)

    def _settle(self, trace_id: int, trace: TraceState) -> None:
        if not trace.root_ended or trace.pending_runs:
            return
        if any(o.trace_id == trace_id for o in list(self._open.values())):
            return  # a span started under the root is still open: it may be (or hold) a run
        self._drop(trace_id)
        self._closed.add(trace_id)

    def _trace_for(self, trace_id: int, expire: bool = True) -> TraceState:
        if expire:
            self._expire()
        trace = self._traces.get(trace_id)
        if trace is None:
            trace = self._traces[trace_id] = self._new_trace()
        else:
            self._traces.move_to_end(trace_id)
        self._touched[trace_id] = self._clock()
        return trace

    def _link(self, trace: TraceState, span: SpanView, text_size: int) -> bool:
        """Record a parent link (and the text's size); False when the trace is over its span cap."""
        if trace.linked >= self._max_spans and not self._compact(trace):
            self._overflow(trace)
            return False
        trace.parents[span.span_id] = span.parent_id
        self._charge(trace, RECORD_OVERHEAD + text_size)
        return True

    def _overflow(self, trace: TraceState) -> None:
        """The trace is over its span cap: its runs learn they may have lost evidence."""
        if not trace.overflowed:
            trace.overflowed = True
            self.on_evict(EVICT_SPANS)

    def _charge(self, trace: TraceState, cost: int) -> None:
        trace.size += cost
        self._bytes += cost

    # -- a run ends ----------------------------------------------------------------------------
    def begin_run(self, span: SpanView, reading: SpanReading) -> None:
        """A run span ended: register it (for the runs around it, and so that its trace is
        kept) until `claim_run` grades it."""
        with self._lock:
            trace = self._trace_for(span.trace_id)
            self._open.pop(span.span_id, None)
            if span.span_id in trace.runs:  # the same run span delivered again: one run
                return
            self._link(trace, span, 0)
            trace.pending_runs += 1
            trace.runs[span.span_id] = (reading.agent, False)
            if span.local_root:
                trace.root_ended = True
            self._enforce_budgets()

    def hand_over(self, span: SpanView, reading: SpanReading) -> None:
        """A begun run goes to be graded later (a worker): where the store allows it
        (`hands_over`), the run takes its evidence now, out of its trace, so that what piles up
        in a long-lived trace while runs wait for the worker never evicts evidence a run
        already had in hand. Its trace then keeps only what a later run can still need."""
        if not self.hands_over:
            return
        with self._lock:
            key = (span.trace_id, span.span_id)
            trace = self._traces.get(span.trace_id)
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
        opened = self._open_in(span.trace_id)
        return not any(
            self._below(entry.parent_id, span.span_id, opened, trace) for entry in opened.values()
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
        lost = span.trace_id in self.evicted
        trace = self._traces.get(span.trace_id)
        if trace is None:
            return Evidence(lost=lost or span.trace_id in self._closed)
        lost = lost or trace.overflowed
        owns = _Ownership(trace, span.span_id, reading.agent, reading.run_id)
        tools = [t for t in trace.tools if owns(t)]
        steps = [t for t in trace.llms if owns(t)]
        llms = [t for t in steps if t.text or t.evicted]
        graded_inner = any(
            owns.encloses(run_id) and graded
            for run_id, (agent, graded) in trace.runs.items()
            if agent is None or reading.agent is None or agent == reading.agent
        )
        # Runs nested in this one that ended and wait to be graded (an async generator's
        # span ending after its root): this grade covers them, they are not graded again.
        trace.covered.update(
            run_id for run_id, (_, graded) in trace.runs.items()
            if not graded and owns.absorbs(run_id)
        )
        covered = span.span_id in trace.covered
        trace.covered.discard(span.span_id)
        declared = any(t.declared for t in steps) or any(
            owns.encloses(run_id) for run_id in trace.declaring_runs
        )
        if reading.tools_declared and not span.local_root:
            trace.declaring_runs.add(span.span_id)
        opened = self._open_in(span.trace_id) if self._open else {}
        open_tools = sum(
            1
            for entry in opened.values()
            if entry.role == TOOL and self._below(entry.parent_id, span.span_id, opened, trace)
        )
        self._mark_graded(Claim(span, reading, trace, tools + steps, opened))
        llms = [t for t in llms if t.text]
        tally = tool_tally(tools, steps)
        return Evidence(
            sources=tally.sources,
            source_span_ids=tally.source_span_ids,
            tool_steps_found=len(tools),
            tool_outputs_missing=sum(1 for t in tools if t.text is None and not t.evicted),
            open_tool_steps=open_tools,
            truncated=any(t.truncated for t in tools),
            lost=lost or any(t.evicted for t in tools),
            last_llm_text=llms[-1].text if llms else None,
            last_llm_truncated=llms[-1].truncated if llms else False,
            graded_inner_run=graded_inner,
            graded_outer_run=covered,
            tool_calls=tally.calls,
            tool_calls_unread=tally.unread,
            llm_steps=len(steps),
            llm_steps_read=sum(1 for t in steps if t.read),
            tools_declared=declared,
        )

    def _mark_graded(self, claim: Claim) -> None:
        span, reading, trace = claim.span, claim.reading, claim.trace
        was = trace.runs.get(span.span_id)
        if was is None:
            self._link(trace, span, 0)
        elif not was[1] and trace.pending_runs:
            trace.pending_runs -= 1
        trace.runs[span.span_id] = (reading.agent, True)
        self._after_grade(claim)
        self._settle(span.trace_id, trace)

    # -- budgets ------------------------------------------------------------------------------
    def _drop(self, trace_id: int) -> None:
        trace = self._traces.pop(trace_id, None)
        self._touched.pop(trace_id, None)
        if trace is not None:
            self._bytes -= trace.size

    def _evict_oldest(self, reason: str, *, count: bool = True) -> None:
        trace_id = next(iter(self._traces))
        self._drop(trace_id)
        self.evicted.add(trace_id)
        if count:
            self.on_evict(reason)

    def _expire(self) -> None:
        deadline = self._clock() - self._wait
        while self._traces:
            oldest = next(iter(self._traces))
            if self._touched[oldest] > deadline:
                break
            quiet = self._ages_out_quietly(self._traces[oldest])
            self._evict_oldest(EVICT_AGE, count=not quiet)

    def _enforce_budgets(self) -> None:
        while len(self._traces) > self._num_traces:
            self._evict_oldest(EVICT_COUNT)
        while self._bytes > self._max_bytes and len(self._traces) > 1:
            self._evict_oldest(EVICT_BYTES)

    def expire(self) -> None:
        """Evict traces idle longer than the retention (also done on every insert)."""
        with self._lock:
            self._expire()

    def clear(self) -> None:
        with self._lock:
            self._traces.clear()
            self._touched.clear()
            self._open.clear()
            self._handed.clear()
            self._bytes = 0

    @property
    def buffered_bytes(self) -> int:
        return self._bytes

    @property
    def buffered_traces(self) -> int:
        return len(self._traces)


def answerless(reading: SpanReading) -> bool:
    """A run span with no answer and no evidence of its own."""
    return (reading.redacted or reading.text is None) and not reading.attached_sources


def reading_answers(reading: SpanReading) -> bool:
    """A run span with an answer, or evidence it read, of its own (graded even when a run
    inside or around it of the same agent was)."""
    own_output = None if reading.redacted else reading.text
    return own_output is not None or any(s is not None for s in reading.attached_sources)


@dataclass(frozen=True)
class ToolTally:
    """A run's tool evidence: each output once, and how many calls were made and left unread."""

    sources: tuple[str, ...]
    source_span_ids: tuple[int, ...]
    calls: int
    unread: int


def tool_tally(tools: list[Output], llms: list[Output]) -> ToolTally:
    """Pool tool outputs from tool steps and from the tool results LLM steps received, and count
    the calls the trace shows.

    A result in an LLM input is the tool step's output as the model saw it: it is evidence
    unless the same output is already pooled (same call id, or the same text: every later LLM
    input resends it). Calls are counted as few as the trace allows and outputs as many, so
    that only what is certainly missing counts as unread: once per call id, and calls without
    an id (tool steps, results, calls in LLM outputs) may be the same calls as those with one.
    """
    sources: list[str] = []
    span_ids: list[int] = []
    texts: set[str] = set()
    ids: set[str] = set()
    read_ids: set[str] = set()
    anonymous_steps = anonymous_read = anonymous_results = anonymous_calls = 0

    def pool(text: str, span_id: int) -> bool:
        if text in texts:
            return False
        sources.append(text)
        span_ids.append(span_id)
        texts.add(text)
        return True

    for tool in tools:
        seen = tool.text is not None or tool.evicted  # evicted: read, then lost (said apart)
        if tool.call_id is not None:
            ids.add(tool.call_id)
            if seen:
                read_ids.add(tool.call_id)
        else:
            anonymous_steps += 1
            anonymous_read += seen
        if tool.text is not None:
            sources.append(tool.text)
            span_ids.append(tool.span_id)
            texts.add(tool.text)
    for llm in llms:
        unnamed = 0
        for result in llm.results:
            if result.call_id is not None:
                ids.add(result.call_id)
                if result.text is None or result.call_id in read_ids:
                    continue
                read_ids.add(result.call_id)
                pool(result.text, llm.span_id)
            else:
                unnamed += 1
                if result.text is not None and pool(result.text, llm.span_id):
                    anonymous_read += 1
        anonymous_results = max(anonymous_results, unnamed)  # each input resends the earlier
        for call in llm.calls:
            if call is not None:
                ids.add(call)
            else:
                anonymous_calls += 1
    calls = max(len(ids), anonymous_steps, anonymous_results, anonymous_calls)
    read = min(calls, len(read_ids) + anonymous_read)
    return ToolTally(tuple(sources), tuple(span_ids), calls, calls - read)


class _Ownership:
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
