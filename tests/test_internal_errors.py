"""The suite-wide check of tests/conftest.py, run as pytest runs it (pytester): a test during
which an internal error was counted fails (an error at teardown), even when the error happened on a background thread
and never reached it, unless it wears `@pytest.mark.internal_errors`. And the pure core's failures
reach that policy: a bug inside grading is an internal error, never a silent `partial`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from otel_grounding import attributes as A
from otel_grounding import grade
from otel_grounding.internal_error import internal_errors

from sdk_harness import Pipeline, attrs

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parent

CASES = '''
import threading

import pytest

from otel_grounding.internal_error import internal_error, strict
from otel_grounding.internal_error import background_error


def fail_on_a_thread():
    def work():
        try:
            raise ValueError("on a background thread")
        except ValueError:
            background_error("a background thread")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def test_unnoticed():
    fail_on_a_thread()


@pytest.mark.internal_errors
def test_expected():
    fail_on_a_thread()


@pytest.mark.internal_errors
def test_strict_is_on():
    assert strict()
    with pytest.raises(KeyError):
        try:
            raise KeyError("x")
        except KeyError:
            internal_error("in the test")


@pytest.mark.internal_errors
def test_lenient_counts_without_raising(lenient):
    assert not strict()
    try:
        raise KeyError("x")
    except KeyError:
        internal_error("in the test")


def test_clean():
    pass
'''


def test_an_unnoticed_internal_error_fails_its_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest((TESTS / "conftest.py").read_text())
    pytester.makeini(
        "[pytest]\nmarkers =\n    internal_errors: the test expects internal errors\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(TESTS))  # the conftest imports the relay kit
    pytester.makepyfile(test_cases=CASES)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    # The check runs as the test's last teardown (after every fixture's): pytest reports an error.
    result.assert_outcomes(passed=5, errors=1)
    result.stdout.fnmatch_lines(
        ["ERROR test_cases.py::test_unnoticed - Failed: internal errors during the test*"]
    )


def _grown(before: Mapping[str, int]) -> dict[str, int]:
    return {k: n - before.get(k, 0) for k, n in internal_errors().items() if n > before.get(k, 0)}


def _a_bug_in_grading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A programming error inside the grade (the pure core catches nothing)."""

    def broken(value: object) -> int | None:
        raise TypeError("a bug in grading")

    monkeypatch.setattr(grade, "_count", broken)


@pytest.mark.internal_errors
def test_a_bug_in_grading_raises_in_strict_mode_instead_of_grading_partial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _a_bug_in_grading(monkeypatch)
    p = Pipeline(scoring_mode="inline")
    before = internal_errors()
    with pytest.raises(TypeError, match="a bug in grading"):
        p.golden_run()
    assert "processor on_end" in _grown(before)


@pytest.mark.internal_errors
def test_a_bug_in_grading_is_counted_and_the_run_leaves_unenriched_when_lenient(
    monkeypatch: pytest.MonkeyPatch, lenient: None
) -> None:
    _a_bug_in_grading(monkeypatch)
    p = Pipeline(scoring_mode="inline")
    before = internal_errors()
    p.golden_run()
    assert _grown(before)  # counted (and logged) where the pipeline met it
    run = attrs(p.span("run"))
    assert A.GRADE not in run and A.RATE not in run  # never a silent `partial`
