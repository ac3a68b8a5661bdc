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
from typing import Protocol

from otel_grounding.conventions.base import LLM, TOOL, SpanReading
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
    size: int = 0
    overflowed: bool = False

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
    truncated: bool = False
    lost: bool = False
    last_llm_text: str | None = None
    last_llm_truncated: bool = False
    graded_inner_run: bool = False
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
                if trace is not None:
                    self._link(span.trace_id, trace, span, 0)
                    if span.local_root:
                        self._drop(span.trace_id)
            return
        with self._lock:
            trace = self._trace_for(span.trace_id)
            text = reading.text if not reading.redacted else None
            results = reading.input_tool_results
            size = (len(text) if text else 0) + sum(len(r.text or "") for r in results)
            if self._link_all:  # its link came in a batch already: counted once, not twice
                if trace.overflowed:
                    return
                cost = RECORD_OVERHEAD + size
                trace.size += cost
                self._bytes += cost
            elif not self._link(span.trace_id, trace, span, size):
                return
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
            )
            if reading.role == TOOL:
                trace.tools.append(record)
            elif reading.role == LLM:
                trace.llms.append(record)
            self._enforce_budgets()

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
        if trace.linked >= self._max_spans:
            if not trace.overflowed:
                trace.overflowed = True
                self._on_evict(EVICT_SPANS)
            return False
        trace.parents[span_id] = parent_id
        cost = RECORD_OVERHEAD + text_size
        trace.size += cost
        self._bytes += cost
        return True

    # -- a run ends ---------------------------------------------------------------------------
    def take(self, span: SpanView, reading: SpanReading) -> Evidence:
        """The evidence in a run's subtree; registers the run for the runs that enclose it."""
        with self._lock:
            lost = span.trace_id in self._lost
            trace = self._traces.get(span.trace_id)
            if trace is None:
                if span.local_root:
                    return Evidence(lost=lost)
                trace = self._trace_for(span.trace_id)
            lost = lost or trace.overflowed
            owns = _Ownership(trace, span.span_id, reading.agent, reading.run_id)
            tools = [t for t in trace.tools if owns(t)]
            steps = [t for t in trace.llms if owns(t)]
            llms = [t for t in steps if t.text]
            graded_inner = any(
                owns.encloses(run_id) and graded
                for run_id, (agent, graded) in trace.runs.items()
                if agent == reading.agent or reading.agent is None
            )
            declared = any(t.declared for t in steps) or any(
                owns.encloses(run_id) for run_id in trace.declaring_runs
            )
            if span.local_root:
                self._drop(span.trace_id)
            else:
                self._link(span.trace_id, trace, span, 0)
                trace.runs[span.span_id] = (reading.agent, False)
                if reading.tools_declared:
                    trace.declaring_runs.add(span.span_id)
        with_text = [t for t in tools if t.text is not None]
        tally = tool_tally(tools, steps)
        return Evidence(
            sources=tally.sources,
            source_span_ids=tally.source_span_ids,
            tool_steps_found=len(tools),
            tool_outputs_missing=len(tools) - len(with_text),
            truncated=any(t.truncated for t in tools),
            lost=lost,
            last_llm_text=llms[-1].text if llms else None,
            last_llm_truncated=llms[-1].truncated if llms else False,
            graded_inner_run=graded_inner,
            tool_calls=tally.calls,
            tool_calls_unread=tally.unread,
            llm_steps=len(steps),
            llm_steps_read=sum(1 for t in steps if t.read),
            tools_declared=declared,
        )

    def mark_graded(self, span: SpanView) -> None:
        """Note that a run was graded, for the nested-run policy of the runs around it."""
        with self._lock:
            trace = self._traces.get(span.trace_id)
            if trace is not None and span.span_id in trace.runs:
                agent, _ = trace.runs[span.span_id]
                trace.runs[span.span_id] = (agent, True)

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
        if tool.call_id is not None:
            ids.add(tool.call_id)
            if tool.text is not None:
                read_ids.add(tool.call_id)
        else:
            anonymous_steps += 1
            anonymous_read += tool.text is not None
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
            if inner is not None and (self._agent is None or inner[0] != self._agent):
                break
            node = self._trace.parent(node)
            seen += 1
            if seen > self._trace.linked:  # a cycle in hostile parent links
                break
        for visited in path:
            self._memo[visited] = result
        return result
