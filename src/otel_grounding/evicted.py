"""The evicted-trace memory every trace store shares: which traces lost buffered state.

A run whose trace lost state to a budget must not be graded as if it saw everything (no rate,
`partial` with `evidence-evicted`, never flagged). The memory is two Bloom-filter generations
in a fixed number of bytes, whatever the traffic: an id it was given is never reported "not
evicted" until at least `remembered` later evictions have happened (the older generation is
dropped only when the newer one is full); an id it was never given is reported evicted only
by a rare false positive (about 2 %), which can only make a run `partial`, never flag it.
"""

from __future__ import annotations

import threading

#: The memory's size (both generations), whatever the number of traces.
DEFAULT_EVICTED_MEMORY_BYTES = 1 << 20
#: Hash positions per id; with `BITS_PER_ID` bits per id, about 1 % false positives each.
HASHES = 4  # `EvictedTraces._positions` writes them out
BITS_PER_ID = 10

_MASK64 = 0xFFFFFFFFFFFFFFFF
_MIX1 = 0x9E3779B97F4A7C15
_MIX2 = 0xC2B2AE3D27D4EB4F


class EvictedTraces:
    """Trace ids whose state a store evicted (or otherwise lost): `add`, then `in`."""

    def __init__(self, max_bytes: int = DEFAULT_EVICTED_MEMORY_BYTES) -> None:
        generation_bytes = max(max_bytes // 2, 8)
        self._bits = generation_bytes * 8
        self._current = bytearray(generation_bytes)
        self._previous = bytearray(generation_bytes)
        self._added = 0
        #: Nothing was ever added: every answer is no (the common case, asked once a span).
        self._empty = True
        self._lock = threading.Lock()

    @property
    def remembered(self) -> int:
        """How many evictions an id is remembered for, at least (one generation's capacity)."""
        return self._bits // BITS_PER_ID

    def _positions(self, trace_id: int) -> tuple[int, ...]:
        folded = (trace_id ^ (trace_id >> 64)) & _MASK64
        first = ((folded * _MIX1) & _MASK64) >> 17
        step = (((folded ^ (folded >> 31)) * _MIX2) & _MASK64) | 1
        bits = self._bits
        # The `HASHES` positions, written out (asked for every trace closed or looked up).
        return (
            first % bits,
            (first + step) % bits,
            (first + 2 * step) % bits,
            (first + 3 * step) % bits,
        )

    def add(self, trace_id: int) -> None:
        positions = self._positions(trace_id)
        with self._lock:
            if self._added >= self.remembered:  # the newer generation is full: it ages
                self._previous, self._current = self._current, self._previous
                self._current[:] = bytes(len(self._current))
                self._added = 0
            bits = self._current
            for p in positions:
                bits[p >> 3] |= 1 << (p & 7)
            self._added += 1
            self._empty = False

    def __contains__(self, trace_id: object) -> bool:
        if self._empty or not isinstance(trace_id, int):
            return False
        positions = self._positions(trace_id)
        with self._lock:
            for bits in (self._current, self._previous):
                for p in positions:
                    if not bits[p >> 3] & (1 << (p & 7)):
                        break
                else:
                    return True
            return False
