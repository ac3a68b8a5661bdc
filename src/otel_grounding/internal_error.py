"""Internal errors: a failure inside span processing is counted and logged, never raised into
the application, except in strict mode (the test suite turns it on), where it is re-raised so
the test that caused it fails.

Call `internal_error(where, count)` from an `except` block, at the outermost boundary of a
shell's work only: inner code lets exceptions travel up to it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import Counter
from collections.abc import Callable, Mapping

logger = logging.getLogger("otel_grounding")

#: `OTEL_GROUNDING_STRICT=1` re-raises every internal error (for test suites).
STRICT_ENV = "OTEL_GROUNDING_STRICT"

#: A failure at one place is logged in full the first time, then once every this many times.
LOG_EVERY = 1_000

_lock = threading.Lock()
_counts: Counter[str] = Counter()
_strict = os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false", "no")


def set_strict(on: bool) -> None:
    """Turn strict mode on (re-raise internal errors) or off."""
    global _strict
    _strict = on


def strict() -> bool:
    """Whether internal errors are re-raised."""
    return _strict


def internal_error(where: str, count: Callable[[], object] | None = None) -> None:
    """Count (process-wide and in `count`, e.g. a pipeline's `scoring_errors`), log, and
    re-raise in strict mode. Call only while an exception is being handled."""
    with _lock:
        _counts[where] += 1
        seen = _counts[where]
    if count is not None:
        try:
            count()
        except Exception:  # a metrics failure must not hide the error being reported
            pass
    if seen == 1 or seen % LOG_EVERY == 0:
        logger.exception(
            "otel_grounding: internal error in %s (%d so far); the span goes on unchanged",
            where,
            seen,
        )
    if _strict:
        raise


def background_error(where: str, count: Callable[[], object] | None = None) -> None:
    """`internal_error` where nobody can take the exception (a background thread, or a fallback
    that already handled it): counted and logged, never re-raised, even in strict mode; the
    count is what a test sees."""
    try:
        internal_error(where, count)
    except Exception:
        pass


def internal_errors() -> Mapping[str, int]:
    """A snapshot of how many internal errors happened where, since the process started."""
    with _lock:
        return dict(_counts)


__all__ = [
    "STRICT_ENV",
    "background_error",
    "internal_error",
    "internal_errors",
    "set_strict",
    "strict",
]
