"""The optional persistent queue (`--queue-dir`): accepted requests on disk until delivered.

Each accepted request is written to its own file before it is acknowledged (written to a
temporary name, then renamed: a file is whole or absent) and removed once every part of it
(the spans forwarded at once, each held run) was delivered or given up, counted. After a
kill (SIGKILL, the OOM killer) the relay replays what is left on its next start: an
acknowledged span is delivered at least once. Files survive the process, not the machine,
unless `fsync` is on. The directory is bounded in bytes: beyond it, requests get the
retryable answer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable

SUFFIX = ".otlp"
TEMPORARY = ".tmp"


class StoreFull(Exception):
    """The directory holds its maximum of bytes: refuse (retryable) until some is delivered."""


class QueueStore:
    """Request files in one directory, each removed when its last outstanding part is done."""

    def __init__(self, directory: str, max_bytes: int, fsync: bool = False) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.max_bytes = max_bytes
        self._fsync = fsync
        self._lock = threading.Lock()
        self._parts: dict[int, int] = {}
        self._sizes: dict[int, int] = {}
        self._bytes = 0
        self._next = 0
        for name in os.listdir(directory):
            if name.endswith(TEMPORARY):  # a write the kill interrupted: never acknowledged
                os.unlink(os.path.join(directory, name))
            elif name.endswith(SUFFIX) and name[: -len(SUFFIX)].isdigit():
                record = int(name[: -len(SUFFIX)])
                size = os.path.getsize(os.path.join(directory, name))
                self._sizes[record] = size
                self._bytes += size
                self._next = max(self._next, record + 1)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def _path(self, record: int) -> str:
        return os.path.join(self.directory, f"{record:020d}{SUFFIX}")

    def left_over(self) -> list[tuple[int, bytes]]:
        """What a previous process accepted and did not deliver, oldest first."""
        out = []
        for record in sorted(self._sizes):
            with open(self._path(record), "rb") as handle:
                out.append((record, handle.read()))
        return out

    def write(self, data: bytes) -> int:
        """Write a request (its parts not yet known: see `expect`); raises StoreFull."""
        with self._lock:
            if self._bytes + len(data) > self.max_bytes:
                raise StoreFull(f"the queue directory holds {self._bytes} bytes")
            record = self._next
            self._next += 1
            self._bytes += len(data)
            self._sizes[record] = len(data)
        path = self._path(record)
        try:
            with open(path + TEMPORARY, "wb") as handle:
                handle.write(data)
                if self._fsync:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(path + TEMPORARY, path)
        except OSError:
            self._forget(record)
            raise
        return record

    def expect(self, record: int, parts: int) -> None:
        """The request was split into `parts` parts, each reported to `done` once."""
        if parts <= 0:
            self._remove(record)
            return
        with self._lock:
            self._parts[record] = parts

    def done(self, records: Iterable[int]) -> None:
        """One part of each listed request was delivered (or given up)."""
        finished = []
        with self._lock:
            for record in records:
                left = self._parts.get(record, 1) - 1
                if left > 0:
                    self._parts[record] = left
                else:
                    self._parts.pop(record, None)
                    finished.append(record)
        for record in finished:
            self._remove(record)

    def _remove(self, record: int) -> None:
        try:
            os.unlink(self._path(record))
        except OSError:
            pass
        self._forget(record)

    def _forget(self, record: int) -> None:
        with self._lock:
            self._bytes -= self._sizes.pop(record, 0)
            self._parts.pop(record, None)
