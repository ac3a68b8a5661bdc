"""Request deadlines: the time a request may take as a whole, not per read.

One reaper thread runs the action of every request past its deadline: an HTTP connection is
shut down (which ends the blocked read in its handler thread), a gRPC call is cancelled. A
client trickling a byte at a time is cut off like one that sends nothing.
"""

from __future__ import annotations

import functools
import itertools
import os
import socket
import threading
import time
from collections.abc import Callable

from otel_grounding.internal_error import background_error

#: How often request deadlines are checked (a request may overrun its deadline by this much).
DEADLINE_TICK_S = 0.25


class Deadlines:
    """Actions due at a deadline, each watched under a token until it is unwatched."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: dict[int, tuple[float, Callable[[], object]]] = {}
        self._tokens = itertools.count()
        self._thread = threading.Thread(target=self._reap, name="relay-deadlines", daemon=True)
        self._stopped = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def watch(self, action: Callable[[], object], seconds: float) -> int:
        token = next(self._tokens)
        with self._lock:
            self._due[token] = (time.monotonic() + seconds, action)
        return token

    def watch_socket(self, sock: socket.socket, seconds: float) -> int:
        return self.watch(functools.partial(_shut_down, sock.fileno()), seconds)

    def extend(self, token: int, seconds: float) -> None:
        with self._lock:
            entry = self._due.get(token)
            if entry is not None:
                self._due[token] = (time.monotonic() + seconds, entry[1])

    def unwatch(self, token: int) -> None:
        with self._lock:  # after this the action never runs (a descriptor may be reused)
            self._due.pop(token, None)

    def _reap(self) -> None:
        while not self._stopped.wait(DEADLINE_TICK_S):
            now = time.monotonic()
            with self._lock:
                expired = [t for t, (deadline, _) in self._due.items() if deadline <= now]
                for token in expired:
                    _, action = self._due.pop(token)
                    try:
                        action()
                    except OSError:  # the connection is already gone
                        pass
                    except Exception:  # nobody to raise to: counted, and the reaper goes on
                        background_error("relay.deadline")


def _shut_down(fd: int) -> None:
    """Shut a connection down through a duplicate of its descriptor (shutdown acts on the
    shared connection; the handler thread's blocked read returns)."""
    with socket.socket(fileno=os.dup(fd)) as dup:
        dup.shutdown(socket.SHUT_RDWR)
