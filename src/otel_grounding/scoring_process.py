"""Scoring in a child interpreter, so that grading a run never holds the application's GIL.

A scoring thread in the application's process still competes with the application for the
interpreter lock: an asyncio loop waits for it on every wake-up (measured: event-loop lag about
twice the SDK's alone). `ProcessScorer` sends each scoring call (output, sources, threshold,
options: all plain, picklable data) to one child interpreter started for it (isolated, running
only this module: no re-import of the application's `__main__`, unlike multiprocessing's
spawn) and waits for the result with the lock released. If the child cannot be started or
dies, that call and every later one are scored in the calling thread instead, and the
fallback is logged once: a run is never lost to the child.

Run as a module it is the child: it reads pickled calls on stdin and answers on stdout.
"""

from __future__ import annotations

import logging
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

from otel_grounding.internal_error import background_error
from otel_grounding.scoring import GroundingResult, ScoringOptions, score

logger = logging.getLogger("otel_grounding")

_HEADER = struct.Struct("!I")
#: Below this many characters (answer and sources) scoring costs less than a round trip to
#: the child (about 0.1 ms against 0.5-1 ms): it is done in the calling thread.
IN_PROCESS_CHARS = 8_000


def _send(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("scoring process closed its pipe")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("scoring process closed its pipe")
    return pickle.loads(data)


class ProcessScorer:
    """`score(...)` with the same arguments and result, computed in the child process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._pid = os.getpid()
        self._failed = False

    def __call__(
        self,
        output: str,
        sources: Sequence[str],
        *,
        threshold: float | None,
        options: ScoringOptions,
        evidence_incomplete: bool,
    ) -> GroundingResult:
        call = (output, list(sources), threshold, options, evidence_incomplete)
        if len(output) + sum(len(s) for s in sources) < IN_PROCESS_CHARS:
            return _score(call)
        with self._lock:
            child = None if self._failed else self._started()
            if child is not None:
                try:
                    assert child.stdin is not None and child.stdout is not None
                    _send(child.stdin, call)
                    ok, value = _receive(child.stdout)
                except (OSError, EOFError, pickle.PickleError) as error:
                    # Counted (a test sees it), never raised: the call is scored here instead.
                    background_error("scoring process")
                    self._give_up(f"the scoring process failed ({error})")
                else:
                    if ok:
                        return value
                    raise RuntimeError(value)
        return _score(call)

    def _started(self) -> subprocess.Popen[bytes] | None:
        if self._pid != os.getpid():  # forked: the pipes belong to the parent's child
            self._pid, self._child = os.getpid(), None
        if self._child is not None and self._child.poll() is None:
            return self._child
        try:
            # Isolated (-I): no PYTHON* variables, so no sitecustomize of opentelemetry-instrument
            # in the child; it finds this package on the parent's own path.
            boot = (
                f"import sys; sys.path[:0] = {[p for p in sys.path if p]!r}; "
                "from otel_grounding.scoring_process import main; main()"
            )
            self._child = subprocess.Popen(
                [sys.executable, "-I", "-c", boot],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                close_fds=True,
            )
        except OSError as error:
            self._give_up(f"the scoring process could not start ({error})")
            return None
        return self._child

    def _give_up(self, why: str) -> None:
        self._failed = True
        logger.warning("otel-grounding: %s; scoring in this process from now on", why)
        self._stop()

    def _stop(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        try:
            if child.stdin is not None:
                child.stdin.close()
            child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            child.kill()
        finally:
            if child.stdout is not None:
                child.stdout.close()

    def close(self) -> None:
        """Stop the child (it also exits by itself when this process goes away)."""
        with self._lock:
            self._stop()


_SHARED = ProcessScorer()


def shared_scorer() -> ProcessScorer:
    """The one scoring child of this process, shared by every pipeline (scoring is pure and
    each call carries its own options); it exits when this process does."""
    return _SHARED


def _score(call: tuple[str, list[str], float | None, ScoringOptions, bool]) -> GroundingResult:
    output, sources, threshold, options, incomplete = call
    return score(
        output, sources, threshold=threshold, options=options, evidence_incomplete=incomplete
    )


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    while True:
        try:
            call = _receive(requests)
        except EOFError:
            return
        try:
            _send(answers, (True, _score(call)))
        except Exception as error:  # raised again in the parent, whose boundary counts it
            _send(answers, (False, repr(error)))


def main() -> None:
    """The child's entry point: serve scoring calls until the parent closes the pipe."""
    _serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
