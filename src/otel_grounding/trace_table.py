"""The bounded trace table: every trace's state, within budgets, and what was evicted.

Modelled on the Collector's `groupbytrace` (`num_traces`, `wait_duration`): traces are kept in
least-recently-touched order, and a trace over a budget (traces, bytes, idle age) is evicted,
counted (`on_evict(reason)`) and remembered (`evicted.EvictedTraces`), so that a run of it is
told it lost evidence (its grade becomes `partial`). Spans per trace are capped too: a trace
over its cap is marked `overflowed` (its runs learn the same). The table keeps no lock of its
own beyond `lock`, which its owner holds around every call; `holds` and the `buffered_*`
counts are unlocked reads (hints).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from otel_grounding.evicted import EvictedTraces
from otel_grounding.trace_records import TraceState

#: Rough bytes a remembered span costs beyond its text (ids, record, dict slot).
RECORD_OVERHEAD = 160

EVICT_AGE = "age"
EVICT_COUNT = "count"
EVICT_BYTES = "bytes"
EVICT_SPANS = "spans"
#: Outputs evicted inside one trace to keep it within `max_buffer_bytes`.
EVICT_TRACE_BYTES = "trace_bytes"

#: The memory of traces whose state was dropped when their local root ended (a run ending
#: after that learns its evidence is gone): a filter of this many bytes, see `evicted`.
CLOSED_MEMORY_BYTES = 256 * 1024


def _never_quiet(trace: TraceState) -> bool:
    return False


class TraceTable:
    """Trace id -> `TraceState`, within `num_traces`, `max_bytes` and `retention` (seconds idle).

    `new_trace` makes a trace's state (a store may keep more per trace); `ages_out_quietly`
    says whether a trace ageing out is the normal end of its state (not counted as evicted; a
    run arriving later still learns its state is gone).
    """

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
        new_trace: Callable[[], TraceState] = TraceState,
        ages_out_quietly: Callable[[TraceState], bool] = _never_quiet,
    ) -> None:
        self.lock = threading.Lock()
        self.on_evict = on_evict
        self.evicted = evicted if evicted is not None else EvictedTraces()
        self._num_traces = num_traces
        self._max_spans = max_spans_per_trace
        self._max_bytes = max_bytes
        self._wait = retention
        self._clock = clock
        self._new_trace = new_trace
        self._ages_out_quietly = ages_out_quietly
        self._traces: OrderedDict[int, TraceState] = OrderedDict()
        #: Whether a trace id has state (unlocked: a hint, not a promise). The dict's own
        #: `__contains__`: a C call on the shells' path of every ordinary span.
        self.holds: Callable[[int], bool] = self._traces.__contains__
        self._touched: dict[int, float] = {}
        #: Traces dropped when their local root ended: a Bloom filter (false positives about
        #: 2 %, only asked for a run whose trace holds no state: they make it `partial`).
        self._closed = EvictedTraces(CLOSED_MEMORY_BYTES)
        self._bytes = 0

    @property
    def max_spans(self) -> int:
        """Parent links a trace may hold (`max_spans_per_trace`)."""
        return self._max_spans

    @property
    def max_bytes(self) -> int:
        """Bytes all traces may hold together, and one trace at most."""
        return self._max_bytes

    def get(self, trace_id: int) -> TraceState | None:
        """The trace's state, untouched (None: none held)."""
        return self._traces.get(trace_id)

    def trace_for(self, trace_id: int, *, expire: bool = True) -> TraceState:
        """The trace's state, created if need be and marked as just touched (idle traces
        expire first, unless `expire` is False: the caller just did)."""
        now = self._clock()
        if expire:
            self._expire(now)
        trace = self._traces.get(trace_id)
        if trace is None:
            trace = self._traces[trace_id] = self._new_trace()
        else:
            self._traces.move_to_end(trace_id)
        self._touched[trace_id] = now
        return trace

    def add_link(self, trace: TraceState, span_id: int, parent_id: int | None, size: int) -> None:
        """Record a parent link, charging it and `size` bytes of text (the cap is the caller's
        to check: `max_spans`)."""
        trace.parents[span_id] = parent_id
        trace.size += RECORD_OVERHEAD + size  # `charge`, inlined: once per span
        self._bytes += RECORD_OVERHEAD + size

    def overflow(self, trace: TraceState) -> None:
        """The trace is over its span cap: its runs learn they may have lost evidence."""
        if not trace.overflowed:
            trace.overflowed = True
            self.on_evict(EVICT_SPANS)

    def charge(self, trace: TraceState, cost: int) -> None:
        """Count `cost` bytes (negative: freed) to the trace and to the table."""
        trace.size += cost
        self._bytes += cost

    def close(self, trace_id: int) -> None:
        """Drop the trace's state at its normal end (its local root ended), remembering it
        closed (`was_closed`)."""
        self._drop(trace_id)
        self._closed.add(trace_id)

    def was_closed(self, trace_id: int) -> bool:
        """Whether the trace's state was dropped at its end (false positives about 2 %)."""
        return trace_id in self._closed

    def expire(self) -> None:
        """Evict traces idle longer than the retention."""
        self._expire(self._clock())

    def _expire(self, now: float) -> None:
        deadline = now - self._wait
        while self._traces:
            oldest = next(iter(self._traces))
            if self._touched[oldest] > deadline:
                break
            quiet = self._ages_out_quietly(self._traces[oldest])
            self._evict_oldest(EVICT_AGE, count=not quiet)

    def enforce_budgets(self) -> None:
        """Evict the least recently touched traces until the table is within its budgets (one
        trace is kept whatever its bytes: its own outputs are bounded when they arrive)."""
        while len(self._traces) > self._num_traces:
            self._evict_oldest(EVICT_COUNT)
        while self._bytes > self._max_bytes and len(self._traces) > 1:
            self._evict_oldest(EVICT_BYTES)

    def clear(self) -> None:
        self._traces.clear()
        self._touched.clear()
        self._bytes = 0

    @property
    def buffered_bytes(self) -> int:
        return self._bytes

    @property
    def buffered_traces(self) -> int:
        return len(self._traces)

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
