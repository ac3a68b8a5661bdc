"""What a request may cost before it is decoded, and the process's memory limit.

Decoding is where a small request becomes large: an empty span is 2 bytes on the wire and
about 180 once decoded, so 16 MiB of them would take 1.5 GB. Every request therefore reserves
what it may cost from one `IntakeBudget` before each step that allocates: its body before it
is read, its inflated bytes as they are produced, its decoded size before it is decoded. The
decoded size is bounded from the bytes: first by the worst case (every 2 bytes one message),
and when that does not fit, by counting the bytes that can start a message (a message field's
tag in OTLP's trace schema is one of ten bytes). A request that cannot fit even in an empty
budget is refused as too large; one that does not fit now is refused with the retryable
answer.

With a memory limit, the budget also follows the process's resident size, like the
Collector's `memory_limiter`: above the soft limit (the limit less a spike allowance) nothing
is reserved, so every request gets the retryable answer until memory comes back down.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import threading
import time
from collections.abc import Callable

from otel_grounding.relay.telemetry import REFUSED_BUSY, REFUSED_MEMORY, REFUSED_TOO_LARGE

MiB = 1024 * 1024

#: The ten bytes that can be the tag of a message field in an OTLP trace request (every
#: message field there has a number below 16, so its tag is one byte: number << 3 | 2).
MESSAGE_TAGS = bytes([0x0A, 0x12, 0x1A, 0x22, 0x2A, 0x32, 0x4A, 0x5A, 0x6A, 0x7A])
#: The tag of ScopeSpans.spans (and of smaller messages elsewhere): it may start a Span.
SPAN_TAG = b"\x12"
#: Bytes a decoded Span may take, at most (an empty one measured 176 with upb).
MESSAGE_COST = 192
#: Bytes any other decoded message may take, at most (empty ones measured 44 to 64).
SMALL_MESSAGE_COST = 72
#: Bytes a JSON object or array may take once parsed and converted (dict + message).
JSON_OBJECT_COST = 512
#: Decoded bytes per wire byte, at most (every 2 bytes an empty message).
WORST_FACTOR = MESSAGE_COST // 2
#: Bytes of decoded strings and bytes per wire byte (copies of the received text).
BYTE_COST = 2
#: How often the resident size is read.
SAMPLE_INTERVAL_S = 0.05
#: The spike allowance: the soft limit is this fraction of the limit below it (as the
#: Collector's memory_limiter defaults to 20%).
SPIKE_FRACTION = 0.2
#: Above this fraction of the soft limit, freed heap is given back to the system (glibc
#: keeps it otherwise: measured, 157 MiB resident after a burst instead of 96 MiB) at most
#: once per RECLAIM_INTERVAL_S; above the soft limit, garbage is collected first.
RECLAIM_FRACTION = 0.5
RECLAIM_INTERVAL_S = 1.0
#: Default intake budget without a memory limit; with one, a third of the soft limit.
DEFAULT_INTAKE_BYTES = 256 * MiB

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def read_rss() -> int | None:
    """The process's resident set size in bytes (Linux), None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def worst_decode_cost(size: int) -> int:
    """What decoding `size` bytes may cost at the very most, without reading them."""
    return size * WORST_FACTOR


def decode_cost(data: bytes, json: bool) -> int:
    """A bound on what decoding `data` costs, from one C-speed pass over its bytes: each
    message needs a tag byte (protobuf) or an opening brace or bracket (JSON)."""
    if json:
        objects = len(data) - len(data.translate(None, b"{["))
        return objects * JSON_OBJECT_COST + len(data) * 4 * BYTE_COST
    starts = len(data) - len(data.translate(None, MESSAGE_TAGS))
    spans = len(data) - len(data.translate(None, SPAN_TAG))
    return spans * MESSAGE_COST + (starts - spans) * SMALL_MESSAGE_COST + len(data) * BYTE_COST


def _trim() -> Callable[[], object] | None:
    """glibc's malloc_trim: gives freed heap back to the system (else RSS stays high)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)


class Refusal(Exception):
    """A reservation that cannot be made: `permanent` when it could never fit."""

    def __init__(self, reason: str, message: str, permanent: bool = False) -> None:
        super().__init__(message)
        self.reason = reason
        self.permanent = permanent


class IntakeBudget:
    """Bytes reserved by requests being read, inflated and decoded, within `total`; with a
    memory `limit`, nothing is reserved while the resident size is above the soft limit."""

    def __init__(
        self,
        total: int,
        limit: int | None = None,
        rss: Callable[[], int | None] = read_rss,
        interval: float = SAMPLE_INTERVAL_S,
    ) -> None:
        self.limit = limit
        self.soft = int(limit * (1 - SPIKE_FRACTION)) if limit else None
        self.total = total
        self._rss = rss
        self._interval = interval
        self._reserved = 0
        self._lock = threading.Lock()
        self._resident = rss() or 0
        self._trim = _trim()
        self._last_reclaim = 0.0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="relay-memory", daemon=True)

    def start(self) -> None:
        if self.limit is not None:
            self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    @property
    def reserved(self) -> int:
        return self._reserved

    @property
    def resident(self) -> int:
        return self._resident

    @property
    def limited(self) -> bool:
        """Above the soft limit: every request is refused (retryable) until it comes down."""
        return self.soft is not None and self._resident >= self.soft

    def reserve(self, nbytes: int) -> None:
        """Reserve `nbytes`, or raise Refusal (permanent when it could never fit)."""
        if nbytes > self.total:
            raise Refusal(
                REFUSED_TOO_LARGE,
                f"the request may need {nbytes} bytes to be read and decoded, more than the "
                f"relay's intake budget ({self.total} bytes): send smaller requests",
                permanent=True,
            )
        with self._lock:
            if self.soft is not None and self._resident + self._reserved + nbytes > self.soft:
                raise Refusal(REFUSED_MEMORY, "the relay is at its memory limit, retry later")
            if self._reserved + nbytes > self.total:
                raise Refusal(REFUSED_BUSY, "the relay is decoding as much as it may, retry later")
            self._reserved += nbytes

    def release(self, nbytes: int) -> None:
        with self._lock:
            self._reserved -= nbytes

    def _sample(self) -> None:
        while not self._stopped.wait(self._interval):
            resident = self._rss()
            if resident is None:
                continue
            self._resident = resident
            if self.soft is None or resident < self.soft * RECLAIM_FRACTION:
                continue
            now = time.monotonic()
            if now - self._last_reclaim >= RECLAIM_INTERVAL_S:
                self._last_reclaim = now
                if resident >= self.soft:  # as the Collector forces a GC
                    gc.collect()
                if self._trim is not None:  # freed heap back to the system: RSS comes down
                    self._trim()


class Reservation:
    """One request's share of the budget, released as a whole when the request is done."""

    __slots__ = ("budget", "held")

    def __init__(self, budget: IntakeBudget | None) -> None:
        self.budget = budget
        self.held = 0

    def add(self, nbytes: int) -> None:
        if self.budget is not None and nbytes > 0:
            self.budget.reserve(nbytes)
            self.held += nbytes

    def decoding(self, data: bytes, json: bool) -> None:
        """Reserve what decoding `data` may cost: the worst case when it fits (no pass over
        the bytes), else the bound counted from them."""
        if self.budget is None:
            return
        try:
            self.add(worst_decode_cost(len(data)))
        except Refusal:
            self.add(decode_cost(data, json))

    def release(self, nbytes: int | None = None) -> None:
        """Give back `nbytes` (all that is held by default)."""
        amount = self.held if nbytes is None else min(nbytes, self.held)
        if self.budget is not None and amount:
            self.budget.release(amount)
        self.held -= amount

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
