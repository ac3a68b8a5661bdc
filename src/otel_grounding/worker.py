"""The scoring worker: a bounded queue of tasks run on one daemon thread, off the application.

A shell hands it work it must not do on the caller's thread (scoring a run, and later an
optional judge tier). Admission is decided up front: `submit` refuses when the queue is full and
the caller handles the refusal itself (the span still leaves, graded with a reason), so the
caller never blocks. A task may wait (`ready` false, e.g. a run whose tool steps are still open);
tasks with the same `key` run in submission order, so a held task holds back the later tasks of
its key. `flush` and `shutdown` drain within their deadlines; what `shutdown` could not run is
handed back to its task's `abandon`, so every task ends exactly once: run or abandoned.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Hashable
from typing import Protocol

from otel_grounding.internal_error import background_error
from otel_grounding.sdkcompat import instrumentation_suppressed

#: How often held tasks are asked again whether they are ready (seconds).
HELD_POLL_S = 0.005


class Task(Protocol):
    """One unit of work; `run` and `abandon` must not raise (the worker counts it as an internal
    error if they do)."""

    @property
    def key(self) -> Hashable: ...

    def ready(self, now: float) -> bool:
        """Whether the task may run now (False: ask again shortly)."""
        ...

    def run(self) -> None: ...

    def abandon(self) -> None:
        """The worker will never run this task (shut down past its deadline)."""
        ...


class Worker:
    """At most `capacity` tasks waiting or running; one thread, started on first use."""

    def __init__(
        self,
        capacity: int,
        *,
        name: str = "otel-grounding-worker",
        idle: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`idle` runs on the worker thread whenever no task is ready (a shell's chance to
        send what its tasks produced as one batch)."""
        self._capacity = capacity
        self._name = name
        self._idle = idle
        self._clock = clock
        self._cond = threading.Condition()
        self._tasks: list[Task] = []
        self._running = 0
        self._force_at = math.inf  # from then on every task counts as ready
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    @property
    def pending(self) -> int:
        """Tasks waiting or running."""
        return len(self._tasks) + self._running

    def submit(self, task: Task) -> bool:
        """Queue a task; False (never blocking) when the worker is full or shut down."""
        with self._cond:
            if self._stopping or len(self._tasks) + self._running >= self._capacity:
                return False
            self._ensure_thread()
            self._tasks.append(task)
            self._cond.notify_all()
            return True

    def flush(self, timeout: float) -> bool:
        """Wait until every task submitted so far has run; held tasks are forced to run at the
        latest halfway through the timeout. False when the deadline passed first."""
        started = self._clock()
        deadline = started + max(timeout, 0.0)
        with self._cond:
            self._force_at = min(self._force_at, started + max(timeout, 0.0) / 2)
            self._cond.notify_all()
            while self._tasks or self._running:
                left = deadline - self._clock()
                if left <= 0 or not self._alive():
                    return False
                self._cond.wait(left)
            return True

    def shutdown(self, timeout: float) -> bool:
        """Run what is queued now (held tasks no longer wait), stop the thread, and abandon
        whatever is still queued when the deadline passes. False if anything was abandoned."""
        with self._cond:
            self._stopping = True
            self._force_at = -math.inf
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread.is_alive():
            thread.join(max(timeout, 0.0))
        with self._cond:
            left, self._tasks = self._tasks, []
            self._cond.notify_all()
        for task in left:
            _safely(task.abandon)
        return not left

    # -- the worker thread -------------------------------------------------------------------
    def _alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _ensure_thread(self) -> None:
        if self._pid != os.getpid():  # forked: the parent's thread does not exist here
            self._pid, self._thread, self._running = os.getpid(), None, 0
        if not self._alive():
            self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
            self._thread.start()

    def _next_ready(self, *, take: bool = True) -> Task | None:
        """Under the lock: the first task that may run (keys kept in order), removed."""
        now = self._clock()
        force = now >= self._force_at
        held: set[Hashable] = set()
        for index, task in enumerate(self._tasks):
            key = task.key
            if key in held:
                continue
            if force or _safely_ready(task, now):
                if take:
                    del self._tasks[index]
                return task
            held.add(key)
        return None

    def _serve(self) -> None:
        """The thread's life. Instrumentation is suppressed on it: what its tasks call (a model,
        the next exporter) is the product's own work, never a span of the application's."""
        with instrumentation_suppressed():
            self._loop()

    def _loop(self) -> None:
        while True:
            with self._cond:
                task = self._next_ready()
                while task is None:
                    if self._stopping and not self._tasks:
                        self._cond.notify_all()
                        return
                    if not self._tasks:
                        self._force_at = math.inf
                    self._cond.wait(HELD_POLL_S if self._tasks else None)
                    task = self._next_ready()
                self._running += 1
            _safely(task.run)
            with self._cond:
                idle = self._next_ready(take=False) is None
            if idle and self._idle is not None:
                # Nothing else ready: the shell sends what the tasks produced. The task still
                # counts as running, so flush() returns only once that has been sent.
                _safely(self._idle)
            with self._cond:
                self._running -= 1
                self._cond.notify_all()


def _safely(call: Callable[[], None]) -> None:
    try:
        call()
    except Exception:  # the worker's boundary: the loop goes on
        background_error("worker task")


def _safely_ready(task: Task, now: float) -> bool:
    try:
        return task.ready(now)
    except Exception:  # a task that cannot say counts as ready: it runs, it is not held forever
        background_error("worker task ready")
        return True
