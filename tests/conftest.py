"""Suite-wide settings and fixtures.

Strict mode is on for the whole suite, in this process and in every subprocess a test starts
(`OTEL_GROUNDING_STRICT=1` in the environment): an internal error raises into the test that
caused it. An error on a background thread cannot raise into the test, so every test also
fails when `internal_errors()` grew during it, unless it declares that it expects internal
errors with `@pytest.mark.internal_errors`; such a test that also needs the graceful path
(the error counted, the span forwarded) instead of the raise uses the `lenient` fixture.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from otel_grounding.internal_error import STRICT_ENV, internal_errors, set_strict, strict

os.environ[STRICT_ENV] = "1"  # before anything reads it: this process and its children
set_strict(True)

from relay_kit import OtlpSink  # noqa: E402

#: The marker a test wears when it expects internal errors (registered in pyproject.toml).
EXPECTS_INTERNAL_ERRORS = "internal_errors"


@pytest.fixture(autouse=True)
def no_unnoticed_internal_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test during which an internal error was counted, unless it expects them."""
    before = internal_errors()
    yield
    if request.node.get_closest_marker(EXPECTS_INTERNAL_ERRORS) is not None:
        return
    grown = {
        where: count - before.get(where, 0)
        for where, count in internal_errors().items()
        if count > before.get(where, 0)
    }
    if grown:
        pytest.fail(
            f"internal errors during the test: {grown} (the log has the first traceback); "
            f"mark the test @pytest.mark.{EXPECTS_INTERNAL_ERRORS} if they are expected",
            pytrace=False,
        )


@pytest.fixture
def lenient(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Strict mode off for one test (and its subprocesses): internal errors are counted and
    logged, never raised, as in production."""
    was = strict()
    monkeypatch.setenv(STRICT_ENV, "0")
    set_strict(False)
    try:
        yield
    finally:
        set_strict(was)


@pytest.fixture(scope="module")
def sink() -> Iterator[OtlpSink]:
    """A real OTLP/gRPC sink on 127.0.0.1: the relay's next hop."""
    with OtlpSink() as server:
        yield server
