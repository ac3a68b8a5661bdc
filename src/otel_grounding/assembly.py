"""Trace assembly: the only stateful part. Remembers, per trace, what a run will need when it ends.

Tool and LLM outputs wait here for their run; parent links let a run find what lies in its
subtree. Budgets on traces, spans per trace, bytes and idle age keep memory bounded, modelled
on the Collector's `groupbytrace` (`num_traces`, `wait_duration`); whatever is evicted is
counted, and a run whose trace lost state is told so (its grade becomes `partial`).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from otel_grounding.conventions.base import LLM, RUN, TOOL, SpanReading
from otel_grounding.conventions.payloads import ToolResult
from otel_grounding.spanview import SpanView

#: Rough bytes a remembered span costs beyond its text (ids, record, dict slot).
RECORD_OVERHEAD = 160
#: Rough bytes a batch of links costs beyond its own size (object header, list slot).
BATCH_OVERHEAD = 64

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


@dataclass
class _Output:
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


class _Open(NamedTuple):
    """A started span that has not ended, with what its start attributes said it is."""

    trace_id: int
    parent_id: int | None
    role: str | None
    agent: str | None


class LinkBatch(Protocol):
    """Parent links of some spans of one trace, kept in a shell's own compact form and decoded
    only when a run's subtree cannot be told from the links already known."""

    @property
    def count(self) -> int: ...

    @property
    def size(self) -> int: ...

    def links(self) -> Iterable[tuple[int, int | None]]: ...


@dataclass
class _Trace:
    parents: dict[int, int | None] = field(default_factory=dict)
    pending: list[LinkBatch] = field(default_factory=list)
    pending_links: int = 0
    tools: list[_Output] = field(default_factory=list)
    llms: list[_Output] = field(default_factory=list)
    runs: dict[int, tuple[str | None, bool]] = field(default_factory=dict)  # span -> (agent, graded)
    declaring_runs: set[int] = field(default_factory=set)  # runs that list tools available
    #: Ended runs an enclosing run counted as its own when it was graded first (they end later).
    covered: set[int] = field(default_factory=set)
    size: int = 0
    overflowed: bool = False
    pending_runs: int = 0  # runs that ended and are not graded yet
    root_ended: bool = False  # the trace's local root ended: drop once nothing is pending
    graded: OrderedDict[int, None] = field(default_factory=OrderedDict)

    @property
    def linked(self) -> int:
        return len(self.parents) + self.pending_links

    def parent(self, span_id: int) -> int | None:
        """The span's parent id (None when unknown or a root); reads pending batches once."""
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
    """Per-trace buffers, thread-safe, within budgets; `on_evict(reason)` counts each eviction."""

    def __init__(
        self,
        *,
        num_traces: int,
        max_spans_per_trace: int,
        max_bytes: int,
        wait_duration: float,
        on_evict: Callable[[str], None] = lambda reason: None,
        clock: Callable[[], float] = time.monotonic,
        link_all: bool = False,
    ) -> None:
        """`link_all`: remember the parent link of every span, even in a trace that holds no
        output yet (for shells that see a trace's spans in any order, like the OTLP relay);
        by default a span of no interest is linked only into a trace that already has state.
        With `link_all`, a trace that ages out holding no unclaimed output is not counted as
        evicted (its state simply ends), though a run arriving later still learns it is lost;
        and the shell gives every span's link through `remember_batches` (a tool or LLM span
        passed to `observe` then adds its output, not its link a second time).
        """
        self._link_all = link_all
        self._num_traces = num_traces
        self._max_spans = max_spans_per_trace
        self._max_bytes = max_bytes
        self._wait = wait_duration
        self._on_evict = on_evict
        self._clock = clock
        self._lock = threading.Lock()
        self._traces: OrderedDict[int, _Trace] = OrderedDict()
        self._touched: dict[int, float] = {}
        self._lost: OrderedDict[int, None] = OrderedDict()
        self._closed: OrderedDict[int, None] = OrderedDict()  # dropped when their root ended
        self._open: dict[int, _Open] = {}  # span id -> started, not ended (GIL-atomic ops)
        self._bytes = 0

    def holds(self, trace_id: int) -> bool:
        """Whether anything is buffered for this trace (an unlocked read: a hint, not a promise)."""
        return trace_id in self._traces

    def implicit_run(self, span: SpanView) -> bool:
        """Whether this local root is the run of its trace (an implicit run): the trace holds
        LLM steps, shows tools (a tool step, a tool call or result, tools declared on an LLM
        step) and no span was read as a run. Run spans register when they end (nested runs,
        children first) or drop the trace (local roots), so no run is graded twice."""
        if not span.local_root:
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
            self._open[span.span_id] = _Open(
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

    def pass_over(self, span: SpanView, reading: SpanReading) -> bool:
        """A begun run with no answer of its own and no LLM step under it, inside a pending run
        of the same logical run (the same agent, or either names none): that run is the
        faithful place for the grade. This one is not graded and becomes transparent (its
        steps, and the tools it declares, count for the run around it). True when passed over."""
        with self._lock:
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
    ) -> tuple[_Trace | None, int | None] | None:
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
        self, span: SpanView, agent: str | None, opened: dict[int, _Open], trace: _Trace
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

    def _open_in(self, trace_id: int) -> dict[int, _Open]:
        return {sid: o for sid, o in list(self._open.items()) if o.trace_id == trace_id}

    def _below(
        self, node: int | None, run_span: int, opened: dict[int, _Open], trace: _Trace | None
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
            if self._link_all:
                with self._lock:
                    self._link(span.trace_id, self._trace_for(span.trace_id), span, 0)
                    self._enforce_budgets()
                return
            if span.trace_id not in self._traces:  # cheap unlocked check: most traces have no state
                return
            with self._lock:
                trace = self._traces.get(span.trace_id)
                self._open.pop(span.span_id, None)
                if trace is not None:
                    self._link(span.trace_id, trace, span, 0)
                    self._ended(span, trace)
            return
        with self._lock:
            trace = self._trace_for(span.trace_id)
            text = reading.text if not reading.redacted else None
            results = reading.input_tool_results
            size = (len(text) if text else 0) + sum(len(r.text or "") for r in results)
            if size and not self._link_all and trace.size + RECORD_OVERHEAD + size > self._max_bytes:
                self._evict_within(trace, RECORD_OVERHEAD + size)
            evicted = bool(size) and trace.size + RECORD_OVERHEAD + size > self._max_bytes
            if evicted:
                text, results, size = None, (), 0
            if self._link_all:  # its link came in a batch already: counted once, not twice
                linked = not trace.overflowed
                if linked:
                    cost = RECORD_OVERHEAD + size
                    trace.size += cost
                    self._bytes += cost
            else:
                linked = self._link(span.trace_id, trace, span, size)
            self._open.pop(span.span_id, None)
            if linked:
                record = _Output(
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
                elif reading.role == LLM:
                    trace.llms.append(record)
            self._ended(span, trace)
            self._enforce_budgets()

    def _evict_within(self, trace: _Trace, needed: int) -> None:
        """Drop the oldest texts of this trace (tool outputs first) until `needed` bytes fit;
        what is dropped stays as a marker, so that its run learns it lost evidence."""
        self._on_evict(EVICT_TRACE_BYTES)
        for outputs in (trace.tools, trace.llms):
            for output in outputs:
                if trace.size + needed <= self._max_bytes:
                    return
                if output.size:
                    trace.size -= output.size
                    self._bytes -= output.size
                    output.text, output.results, output.size, output.evicted = None, (), 0, True

    def _ended(self, span: SpanView, trace: _Trace) -> None:
        """After a span of this trace ended: at its local root, or once nothing that ended
        under it still waits, the trace's state goes."""
        if span.local_root:
            trace.root_ended = True
        if trace.root_ended:
            self._settle(span.trace_id, trace)

    def _settle(self, trace_id: int, trace: _Trace) -> None:
        if not self._link_all and trace.pending_runs == 0 and not (trace.tools or trace.llms):
            trace.overflowed = False  # nothing pending could have lost a link
        if not trace.root_ended or trace.pending_runs:
            return
        if any(o.trace_id == trace_id for o in list(self._open.values())):
            return  # a span started under the root is still open: it may be (or hold) a run
        self._drop(trace_id)
        self._closed[trace_id] = None
        if len(self._closed) > self._num_traces:
            self._closed.popitem(last=False)

    def remember_batches(self, batches: Mapping[int, LinkBatch]) -> None:
        """Remember parent links, one batch per trace id, creating each trace's state; the
        links are decoded only if a run needs them."""
        with self._lock:
            self._expire()
            for trace_id, batch in batches.items():
                trace = self._trace_for(trace_id, expire=False)
                count = batch.count
                if trace.linked + count > self._max_spans:
                    if not trace.overflowed:
                        trace.overflowed = True
                        self._on_evict(EVICT_SPANS)
                    continue
                trace.pending.append(batch)
                trace.pending_links += count
                cost = batch.size + BATCH_OVERHEAD
                trace.size += cost
                self._bytes += cost
            self._enforce_budgets()

    def mark_lost(self, trace_ids: Iterable[int]) -> None:
        """Traces whose state a shell lost (the relay replaying its persistent queue after a
        kill): a run of one of them grades partial (`evidence-evicted`)."""
        with self._lock:
            for trace_id in trace_ids:
                self._lost[trace_id] = None
                if len(self._lost) > self._num_traces:
                    self._lost.popitem(last=False)

    def _trace_for(self, trace_id: int, expire: bool = True) -> _Trace:
        if expire:
            self._expire()
        trace = self._traces.get(trace_id)
        if trace is None:
            trace = self._traces[trace_id] = _Trace()
        else:
            self._traces.move_to_end(trace_id)
        self._touched[trace_id] = self._clock()
        return trace

    def _link(self, trace_id: int, trace: _Trace, span: SpanView, text_size: int) -> bool:
        """Record a parent link (and the text's size); False when the trace is over its span cap."""
        return self._link_ids(trace, span.span_id, span.parent_id, text_size)

    def _link_ids(
        self, trace: _Trace, span_id: int, parent_id: int | None, text_size: int
    ) -> bool:
        if trace.linked >= self._max_spans and not self._compact(trace):
            if not trace.overflowed:
                trace.overflowed = True
                self._on_evict(EVICT_SPANS)
            return False
        trace.parents[span_id] = parent_id
        cost = RECORD_OVERHEAD + text_size
        trace.size += cost
        self._bytes += cost
        return True

    def _compact(self, trace: _Trace) -> bool:
        """Forget the links no pending output, run or open span needs (in a long-lived trace
        they pile up from work already graded); True when that freed a quarter of the cap."""
        if self._link_all or trace.overflowed or trace.pending:
            return False
        needed: set[int] = set()
        seeds = [o.span_id for o in (*trace.tools, *trace.llms)]
        seeds += list(trace.runs)
        seeds += [o.parent_id for o in list(self._open.values()) if o.parent_id is not None]
        for node in seeds:
            while node is not None and node not in needed and node in trace.parents:
                needed.add(node)
                node = trace.parents[node]
        unneeded = [span_id for span_id in trace.parents if span_id not in needed]
        if len(unneeded) < self._max_spans // 4:
            return False
        for span_id in unneeded:
            del trace.parents[span_id]
        trace.size -= RECORD_OVERHEAD * len(unneeded)
        self._bytes -= RECORD_OVERHEAD * len(unneeded)
        return True

    # -- a run ends ----------------------------------------------------------------------------
    def begin_run(self, span: SpanView, reading: SpanReading) -> None:
        """A run span ended: register it (for the runs around it, and so that its trace is
        kept) until `take` grades it."""
        with self._lock:
            trace = self._trace_for(span.trace_id)
            self._link(span.trace_id, trace, span, 0)
            if span.span_id not in trace.runs:
                trace.pending_runs += 1
            trace.runs[span.span_id] = (reading.agent, False)
            self._open.pop(span.span_id, None)
            if span.local_root:
                trace.root_ended = True
            self._enforce_budgets()

    def take(self, span: SpanView, reading: SpanReading) -> Evidence:
        """The evidence in a run's subtree; the run counts as graded from then on and, in a
        shell that sees its spans in order, what only it needed is released."""
        with self._lock:
            lost = span.trace_id in self._lost
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
            self._graded(span, reading, trace, tools + steps, opened)
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

    def _graded(
        self,
        span: SpanView,
        reading: SpanReading,
        trace: _Trace,
        owned: list[_Output],
        opened: dict[int, _Open],
    ) -> None:
        """Mark the run graded and release what it alone needed (outputs, their links)."""
        was = trace.runs.get(span.span_id)
        if was is None:
            self._link(span.trace_id, trace, span, 0)
        elif not was[1] and trace.pending_runs:
            trace.pending_runs -= 1
        trace.runs[span.span_id] = (reading.agent, True)
        if not self._link_all:
            if not self._claimed_above(span, reading.agent, opened, trace):
                self._release(trace, span.span_id, owned, opened)
            trace.graded[span.span_id] = None
            while len(trace.graded) > GRADED_RUNS_KEPT:
                old, _ = trace.graded.popitem(last=False)
                trace.runs.pop(old, None)
        self._settle(span.trace_id, trace)

    def _claimed_above(
        self, span: SpanView, agent: str | None, opened: dict[int, _Open], trace: _Trace
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
        self, trace: _Trace, run_span: int, owned: list[_Output], opened: dict[int, _Open]
    ) -> None:
        ids = {id(o) for o in owned}
        trace.tools = [t for t in trace.tools if id(t) not in ids]
        trace.llms = [t for t in trace.llms if id(t) not in ids]
        freed = sum(o.size for o in owned)
        # The links from those outputs up to the run go too, unless still on the way up from
        # an output kept (another run's, by explicit id) or from a span still open. Other links
        # under the run are left to `_compact` (cheaper than a walk of the whole trace per run).
        keep: set[int] = {run_span}
        for node in [o.span_id for o in (*trace.tools, *trace.llms)] + [
            o.parent_id for o in opened.values() if o.parent_id is not None
        ]:
            while node is not None and node not in keep and node in trace.parents:
                keep.add(node)
                node = trace.parents[node]
        dropped = 0
        for output in owned:
            chain: list[int] = []
            node: int | None = output.span_id
            while node is not None and node not in keep and node in trace.parents:
                chain.append(node)
                node = trace.parents[node]
            if node == run_span:  # only what lies under the run
                for span_id in chain:
                    del trace.parents[span_id]
                dropped += len(chain)
        freed += RECORD_OVERHEAD * dropped
        trace.size -= freed
        self._bytes -= freed

    # -- budgets ------------------------------------------------------------------------------
    def _drop(self, trace_id: int) -> None:
        trace = self._traces.pop(trace_id, None)
        self._touched.pop(trace_id, None)
        if trace is not None:
            self._bytes -= trace.size

    def _evict_oldest(self, reason: str, *, count: bool = True) -> None:
        trace_id = next(iter(self._traces))
        self._drop(trace_id)
        self._lost[trace_id] = None
        if len(self._lost) > self._num_traces:
            self._lost.popitem(last=False)
        if count:
            self._on_evict(reason)

    def _expire(self) -> None:
        deadline = self._clock() - self._wait
        while self._traces:
            oldest = next(iter(self._traces))
            if self._touched[oldest] > deadline:
                break
            # With `link_all` no shell knows when a trace is complete: a trace ageing out is
            # the normal end of its state unless it still holds outputs no run has claimed.
            trace = self._traces[oldest]
            quiet = self._link_all and (bool(trace.runs) or not (trace.tools or trace.llms))
            self._evict_oldest(EVICT_AGE, count=not quiet)

    def _enforce_budgets(self) -> None:
        while len(self._traces) > self._num_traces:
            self._evict_oldest(EVICT_COUNT)
        while self._bytes > self._max_bytes and len(self._traces) > 1:
            self._evict_oldest(EVICT_BYTES)

    def expire(self) -> None:
        """Evict traces idle longer than `wait_duration` (also done on every insert)."""
        with self._lock:
            self._expire()

    def clear(self) -> None:
        with self._lock:
            self._traces.clear()
            self._touched.clear()
            self._open.clear()
            self._closed.clear()
            self._bytes = 0

    @property
    def buffered_bytes(self) -> int:
        return self._bytes

    @property
    def buffered_traces(self) -> int:
        return len(self._traces)


@dataclass(frozen=True)
class ToolTally:
    """A run's tool evidence: each output once, and how many calls were made and left unread."""

    sources: tuple[str, ...]
    source_span_ids: tuple[int, ...]
    calls: int
    unread: int


def tool_tally(tools: list[_Output], llms: list[_Output]) -> ToolTally:
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

    def __init__(self, trace: _Trace, run_span: int, agent: str | None, run_id: str | None):
        self._trace = trace
        self._run_span = run_span
        self._agent = agent
        self._run_id = run_id
        self._memo: dict[int | None, bool] = {}

    def __call__(self, output: _Output) -> bool:
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
