"""The real agent frameworks, offline, through the processor: what lands on the exported run span.

Each scenario runs in its own process (instrumentations patch globally) from
tests/frameworks/scenarios.py (over `otel_grounding.demo_frameworks`): a fake model that calls one tool (get_weather) and then answers,
the framework's own instrumentation, and a real TracerProvider whose processor is
`GroundingSpanProcessor(SimpleSpanProcessor(InMemorySpanExporter()), min_claim_grounding_rate=0.7)`.
The frameworks come from the pinned `frameworks` extra that `make test` installs: a missing
package fails these tests, it never skips them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.demo_frameworks import CONTENT_CAPTURE

SCRIPT = Path(__file__).parent / "frameworks" / "scenarios.py"
THRESHOLD = 0.7
#: Switches that must not leak from the developer's shell into a scenario.
CONTENT_SWITCHES = tuple(CONTENT_CAPTURE)


@dataclass(frozen=True)
class Case:
    script: str
    run_span: str
    env: dict[str, str] = field(default_factory=dict)


#: Content captured: the answer and the tool output are read.
CAPTURED = {
    "pydantic-ai": Case("pydantic-ai", "invoke_agent weather_agent"),
    "langchain-openinference": Case("langchain-openinference", "weather_agent"),
    "langchain-genai": Case(
        "langchain-genai",
        "invoke_agent weather_agent",
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY"},
    ),
    "langchain-openllmetry": Case(
        "langchain-openllmetry", "weather_agent.workflow", {"TRACELOOP_TRACE_CONTENT": "true"}
    ),
    "langchain-langfuse": Case("langchain-langfuse", "weather_agent"),
    "openai-agents-openinference": Case("openai-agents-openinference", "weather_agent"),
}

#: Content not captured or redacted: no rate, grade partial, reason output-unavailable.
NOT_CAPTURED = {
    "langchain-genai-no-content": Case(
        "langchain-genai",
        "invoke_agent weather_agent",
        {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "NO_CONTENT"},
    ),
    "pydantic-ai-no-content": Case("pydantic-ai-no-content", "invoke_agent weather_agent"),
    "langchain-openinference-hidden": Case(
        "langchain-openinference", "weather_agent", {"OPENINFERENCE_HIDE_OUTPUTS": "true"}
    ),
    # two nested runs of one agent (workflow + invoke_agent), neither with content: graded once
    "langchain-openllmetry-no-content": Case(
        "langchain-openllmetry", "weather_agent.workflow", {"TRACELOOP_TRACE_CONTENT": "false"}
    ),
}


def _run(case: Case) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in CONTENT_SWITCHES}
    env.update(case.env)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), case.script],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    if done.returncode != 0:
        hint = ""
        if "ModuleNotFoundError" in done.stderr or "ImportError" in done.stderr:
            hint = " (install the pinned frameworks: pip install -e '.[test,frameworks]')"
        pytest.fail(f"scenario {case.script} failed{hint}:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def outcomes() -> dict[str, Any]:
    """Every scenario, run once per session, a few at a time."""
    cases = {**CAPTURED, **NOT_CAPTURED}
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {name: pool.submit(_run, case) for name, case in cases.items()}
        return {name: future.result() for name, future in futures.items()}


def enriched(spans: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The spans that carry a coverage grade, by name (each must be unique)."""
    found: dict[str, dict[str, Any]] = {}
    for span in spans:
        if attr.GRADE in span["attributes"]:
            assert span["name"] not in found, f"two runs named {span['name']!r} were graded"
            found[span["name"]] = span
    return found


@pytest.mark.parametrize("name", list(CAPTURED))
def test_grounded_answer(outcomes: dict[str, Any], name: str) -> None:
    case = CAPTURED[name]
    runs = enriched(outcomes[name]["grounded"])
    assert list(runs) == [case.run_span], "exactly one run is scored (nested runs: once)"
    attrs = runs[case.run_span]["attributes"]
    assert attrs[attr.RATE] == 1.0
    assert attrs[attr.GRADE] == "full"
    assert attrs[attr.BELOW_THRESHOLD] is False
    assert attrs[attr.THRESHOLD] == THRESHOLD
    assert attrs[attr.CLAIMS_TOTAL] == attrs[attr.CLAIMS_GROUNDED] == 1
    assert attrs[attr.PROJECT] == "weather-service"  # the resource's service.name
    assert attr.COVERAGE_REASON not in attrs
    events = [e["name"] for e in runs[case.run_span]["events"]]
    assert attr.FLAGGED_EVENT not in events


@pytest.mark.parametrize("name", list(CAPTURED))
def test_hallucinated_answer_is_flagged(outcomes: dict[str, Any], name: str) -> None:
    case = CAPTURED[name]
    runs = enriched(outcomes[name]["hallucinated"])
    assert list(runs) == [case.run_span]
    span = runs[case.run_span]
    attrs = span["attributes"]
    assert attrs[attr.RATE] < 1.0
    assert attrs[attr.RATE] == 0.5  # the weather claim is grounded, the flood is not
    assert attrs[attr.BELOW_THRESHOLD] is True
    assert attrs[attr.GRADE] == "full"
    (flagged,) = [e for e in span["events"] if e["name"] == attr.FLAGGED_EVENT]
    assert flagged["attributes"][attr.FLAGGED_EVENT_RATE] == 0.5
    assert flagged["attributes"][attr.FLAGGED_EVENT_THRESHOLD] == THRESHOLD


@pytest.mark.parametrize("name", list(NOT_CAPTURED))
def test_content_not_captured_writes_no_rate(outcomes: dict[str, Any], name: str) -> None:
    case = NOT_CAPTURED[name]
    for label in ("grounded", "hallucinated"):
        runs = enriched(outcomes[name][label])
        assert list(runs) == [case.run_span]
        attrs = runs[case.run_span]["attributes"]
        assert attr.RATE not in attrs, "a rate over nothing would be a silent green"
        assert attrs[attr.GRADE] == "partial"
        assert attrs[attr.BELOW_THRESHOLD] is False
        reasons = attrs[attr.COVERAGE_REASON].split(",")
        assert reasons[0] == attr.REASON_OUTPUT_UNAVAILABLE
        if name == "langchain-openinference-hidden":
            # OpenInference hides outputs, not the tool message the second LLM step received:
            # the tool's output is read there
            assert attr.REASON_EVIDENCE_UNAVAILABLE not in reasons
            assert attrs[attr.EVIDENCE_SOURCES] == 1
        else:
            # the tool's output was not captured either
            assert attr.REASON_EVIDENCE_UNAVAILABLE in reasons


def test_spans_other_than_the_run_are_exported_unchanged(outcomes: dict[str, Any]) -> None:
    for name, case in CAPTURED.items():
        for span in outcomes[name]["hallucinated"]:
            if span["name"] != case.run_span:
                assert not any(k.startswith(attr.PREFIX) for k in span["attributes"]), name
