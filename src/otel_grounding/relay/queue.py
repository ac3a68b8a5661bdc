"""The relay's bounded queue: what was accepted and is not yet delivered, in spans and bytes.

A request is acknowledged only after `reserve()` succeeded and its spans were handed over;
the reservation covers the spans waiting for export, the run spans held back for late evidence
and the batches being exported, and is released only when a batch is delivered (or given up,
counted). When a reservation does not fit, the receiver answers with OTLP's retryable error.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from otel_grounding.relay.store import QueueStore


@dataclass(frozen=True)
class Chunk:
    """Serialized `ExportTraceServiceRequest` bytes holding `spans` spans.

    Serialized requests concatenate into one valid request (repeated fields append), so a
    batch is the concatenation of its chunks: nothing is decoded again on the way out.
    """

    data: bytes
    spans: int
    #: The persisted requests (see `store`) this chunk holds a part of, one entry per part.
    records: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.data)


class DeliveryQueue:
    """Reservations in spans and bytes, plus the FIFO of chunks ready for export."""

    def __init__(
        self,
        max_spans: int,
        max_bytes: int,
        clock: Callable[[], float] = time.monotonic,
        store: QueueStore | None = None,
    ) -> None:
        self.max_spans = max_spans
        self.max_bytes = max_bytes
        self.store = store
        self._clock = clock
        self._lock = threading.Lock()
        self._ready_cond = threading.Condition(self._lock)
        self._empty_cond = threading.Condition(self._lock)
        self._ready: deque[Chunk] = deque()
        self._spans = 0  # reserved: ready + held + in flight
        self._bytes = 0
        self._ready_spans = 0
        self._ready_bytes = 0
        self._closed = False

    # -- intake -----------------------------------------------------------------------------
    def reserve(self, spans: int, nbytes: int) -> bool:
        """Reserve room for an incoming request; False when it does not fit (refuse it)."""
        with self._lock:
            if self._closed:
                return False
            if self._spans + spans > self.max_spans or self._bytes + nbytes > self.max_bytes:
                return False
            self._spans += spans
            self._bytes += nbytes
            return True

    def adjust(self, spans: int, nbytes: int) -> None:
        """Correct a reservation once the request's real share is known (may go negative)."""
        with self._lock:
            self._spans += spans
            self._bytes += nbytes
            if self._spans == 0:
                self._empty_cond.notify_all()

    def put(self, chunk: Chunk) -> None:
        """Make a reserved chunk ready for export."""
        with self._lock:
            self._ready.append(chunk)
            self._ready_spans += chunk.spans
            self._ready_bytes += chunk.size
            self._ready_cond.notify()

    # -- export side ------------------------------------------------------------------------
    def take(
        self, max_spans: int, max_bytes: int, timeout: float, linger: float = 0.0
    ) -> list[Chunk]:
        """Up to `max_spans` spans / `max_bytes` bytes of ready chunks (at least one chunk
        when any is ready); waits up to `timeout` seconds for the first one, then up to
        `linger` seconds more while less than a full batch is ready (fewer, fuller exports)."""
        with self._lock:
            if not self._ready:
                self._ready_cond.wait(timeout)
            if self._ready and linger > 0:
                until = self._clock() + linger
                while (
                    not self._closed
                    and self._ready_spans < max_spans
                    and self._ready_bytes < max_bytes
                ):
                    left = until - self._clock()
                    if left <= 0:
                        break
                    self._ready_cond.wait(left)
            batch: list[Chunk] = []
            spans = size = 0
            while self._ready:
                chunk = self._ready[0]
                if batch and (spans + chunk.spans > max_spans or size + chunk.size > max_bytes):
                    break
                self._ready.popleft()
                batch.append(chunk)
                spans += chunk.spans
                size += chunk.size
            self._ready_spans -= spans
            self._ready_bytes -= size
            return batch

    def done(self, chunks: list[Chunk], kept: bool = False) -> None:
        """Release the reservation of delivered (or given-up) chunks; their persisted requests
        are removed from disk unless `kept` (at shutdown, for the next start)."""
        with self._lock:
            self._spans -= sum(c.spans for c in chunks)
            self._bytes -= sum(c.size for c in chunks)
            if self._spans <= 0:
                self._empty_cond.notify_all()
        if self.store is not None and not kept:
            self.store.done(record for chunk in chunks for record in chunk.records)

    def wait_empty(self, deadline: float) -> bool:
        """Wait until nothing is reserved, or the monotonic deadline passes."""
        with self._lock:
            while self._spans > 0:
                left = deadline - self._clock()
                if left <= 0:
                    return False
                self._empty_cond.wait(min(left, 0.2))
            return True

    def close(self) -> None:
        """Refuse every further reservation (draining)."""
        with self._lock:
            self._closed = True
            self._ready_cond.notify_all()

    def wake(self) -> None:
        with self._lock:
            self._ready_cond.notify_all()

    def drain_ready(self) -> list[Chunk]:
        """Everything still waiting for export (at shutdown, to count what was not sent)."""
        with self._lock:
            chunks = list(self._ready)
            self._ready.clear()
            self._ready_spans = 0
            self._ready_bytes = 0
            return chunks

    # -- gauges -----------------------------------------------------------------------------
    @property
    def spans(self) -> int:
        return self._spans

    @property
    def nbytes(self) -> int:
        return self._bytes

    @property
    def ready_spans(self) -> int:
        return self._ready_spans

    @property
    def full(self) -> bool:
        return self._spans >= self.max_spans or self._bytes >= self.max_bytes
