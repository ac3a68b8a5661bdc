"""The SDK's private surface (`otel_grounding.sdkcompat`) on the oldest and the newest supported
SDK, its fallbacks, and the shells' error boundary: an internal error never reaches the
application (strict mode off) and always reaches the test (strict mode on), and the span goes on.

The oldest SDK runs in the `sdk-oldest` env, built by `make fw-envs` (which `make test` runs): a
missing env fails, never skips.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanContext

from otel_grounding import attributes as A
from otel_grounding import runs as runs_module
from otel_grounding import sdkcompat
from otel_grounding.conventions import native
from otel_grounding.internal_error import internal_errors

from sdk_harness import GOLDEN_SOURCES, Pipeline, attrs

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS / "frameworks"))

from catalog import SDK_OLDEST, env_dir, env_python, requirements  # noqa: E402


def _checks(python: str) -> dict[str, Any]:
    """tests/sdkcompat_checks.py under `python`, with the checkout's src/ (strict mode on)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(TESTS)])}
    done = subprocess.run(
        [python, str(TESTS / "sdkcompat_checks.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _floor(package: str) -> str:
    """The version floor of a runtime dependency in pyproject.toml (`"package>=X"`)."""
    found = re.findall(rf'^\s*"{re.escape(package)}>=([\d.]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert len(found) == 1, f"{package}: {found}"
    return found[0]


def test_checks_pass_on_the_newest_sdk() -> None:
    report = _checks(sys.executable)
    assert report["sdk"] == version("opentelemetry-sdk")
    assert report["failures"] == {}


@pytest.mark.needs_build
def test_checks_pass_on_the_oldest_sdk_pyproject_allows() -> None:
    python = env_python(SDK_OLDEST)
    assert python.is_file(), f"env {SDK_OLDEST!r} is not built at {env_dir(SDK_OLDEST)}: run `make fw-envs`"
    pins = dict(
        line.split("==")
        for line in requirements(SDK_OLDEST).read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    floor = _floor("opentelemetry-sdk")
    assert pins["opentelemetry-sdk"].startswith(floor), "the env must pin the floor of pyproject.toml"
    assert pins["opentelemetry-api"].startswith(_floor("opentelemetry-api"))
    report = _checks(str(python))
    assert report["sdk"] == pins["opentelemetry-sdk"]
    assert report["failures"] == {}


# --------------------------------------------------------------------------- the fallbacks
class PublicOnly:
    """A span as an SDK without our private fields would give it: the public properties only."""

    def __init__(self) -> None:
        self.attributes = {"a": 1}
        self.context = SpanContext(1, 2, is_remote=False)


def test_each_fallback_is_the_public_api_and_is_named_once(caplog: pytest.LogCaptureFixture) -> None:
    span: Any = PublicOnly()
    with caplog.at_level(logging.WARNING, logger="otel_grounding"):
        for _ in range(2):
            assert sdkcompat.value_limit(span, 5) == 5
            assert sdkcompat.attribute_dict(span) == {"a": 1}
            assert sdkcompat.span_context(span) == span.context
            assert sdkcompat.instrumentation_info(span) is None
    taken = {sdkcompat.SPAN_LIMITS, sdkcompat.ATTRIBUTE_DICT, sdkcompat.SPAN_CONTEXT, sdkcompat.INSTRUMENTATION_INFO}
    assert taken <= sdkcompat.degraded()
    for name in taken:  # at most once per process (an earlier test may have taken it first)
        lines = [r for r in caplog.records if sdkcompat.CONSEQUENCES[name] in r.getMessage()]
        assert len(lines) <= 1, name


def test_suppression_without_the_apis_key_falls_back_to_the_plain_key(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from opentelemetry import context

    monkeypatch.delattr(context, "_SUPPRESS_INSTRUMENTATION_KEY")
    with caplog.at_level(logging.WARNING, logger="otel_grounding"):
        with sdkcompat.instrumentation_suppressed():
            assert context.get_value(sdkcompat.PLAIN_SUPPRESS_KEY) is True
    assert not context.get_value(sdkcompat.PLAIN_SUPPRESS_KEY)
    assert sdkcompat.SUPPRESS_KEY in sdkcompat.degraded()


def test_a_span_built_by_hand_with_plain_attributes_takes_no_fallback() -> None:
    before = sdkcompat.degraded()
    span = ReadableSpan("s", attributes={"k": "v"})
    assert sdkcompat.attribute_dict(span) == {"k": "v"}
    assert sdkcompat.attribute_dict(ReadableSpan("s")) == {}
    assert sdkcompat.degraded() == before


# --------------------------------------------------------------------------- the boundary
def _break_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure inside the shell itself (reading an ended span, inline or for the worker),
    where no pipeline catches."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("view failed")

    monkeypatch.setattr(runs_module, "to_view", broken)


def _golden(p: Pipeline) -> None:
    with p.run() as span:
        for source in GOLDEN_SOURCES:
            p.tool(source)
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")


@pytest.mark.internal_errors
@pytest.mark.parametrize("mode", ["inline", "thread"])
def test_strict_mode_off_never_raises_into_the_app_and_forwards_every_span(
    lenient: None, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    p = Pipeline(scoring_mode=mode)
    _break_views(monkeypatch)
    before = internal_errors().get("processor on_end", 0)
    _golden(p)  # no exception here
    spans = p.spans()
    assert sorted(s.name for s in spans) == ["run", "tool", "tool"]
    assert A.GRADE not in attrs(p.span("run"))  # forwarded unchanged
    assert internal_errors()["processor on_end"] >= before + 3
    (point,) = p.metric_points("otel_grounding.scoring_errors")
    assert point.value >= 3


@pytest.mark.internal_errors
def test_strict_mode_raises_into_the_test_and_still_forwards_the_span(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = Pipeline(scoring_mode="inline")
    _break_views(monkeypatch)
    with pytest.raises(RuntimeError, match="view failed"):
        p.tool(GOLDEN_SOURCES[0])
    assert [s.name for s in p.spans()] == ["tool"]


def test_a_clean_run_counts_no_internal_error() -> None:
    """What the suite-wide check relies on: a normal graded run leaves the counts alone."""
    before = internal_errors()
    p = Pipeline()
    p.golden_run()
    assert attrs(p.span("run"))[A.GRADE] == "full"
    assert internal_errors() == before
