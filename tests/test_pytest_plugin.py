"""The pytest plugin, run as a user runs it: pytest's own `pytester`, one pytest process per case.

Each case writes a small agent (native `ferrumdeck.*` spans through a real SDK TracerProvider)
and its tests, runs pytest on them in a subprocess (the global TracerProvider can be set only
once per process, so no case shares one with this suite) and asserts outcomes and messages.
"""

from __future__ import annotations

import json

import pytest

from otel_grounding.internal_error import STRICT_ENV

pytest_plugins = ["pytester"]

#: A tiny agent: one tool step, then a run span carrying the answer.
AGENT = '''
from opentelemetry import trace

WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
HALLUCINATED = GROUNDED + " Tomorrow a violent thunderstorm will flood the Louvre museum basement."


def run_agent(answer, tracer=None, tool_output=WEATHER, name="invoke_agent weather"):
    tracer = tracer or trace.get_tracer("agent")
    with tracer.start_as_current_span(name) as run:
        attributes = {"ferrumdeck.step.type": "tool"}
        if tool_output is not None:
            attributes["ferrumdeck.step.output"] = tool_output
        with tracer.start_as_current_span("execute_tool get_weather", attributes=attributes):
            pass
        run.set_attribute("ferrumdeck.run.output", answer)
    return answer
'''


@pytest.fixture
def agent(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(agent=AGENT)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n")
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", "no:randomly", *args, timeout=120)


def test_own_provider_grounded_passes_and_hallucinated_fails_with_the_claim(
    agent: pytest.Pytester,
) -> None:
    agent.makepyfile(test_own='''
from agent import GROUNDED, HALLUCINATED, run_agent

def test_grounded(grounding):
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))
    runs = grounding.assert_grounded(min_rate=0.8, grades={"full"})
    assert len(runs) == 1 and runs[0].rate == 1.0 and runs[0].grade == "full"

def test_hallucinated(grounding):
    run_agent(HALLUCINATED, grounding.provider.get_tracer("t"))
    grounding.assert_grounded(min_rate=0.8, grades={"full"})
''')
    result = run(agent)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "GroundingAssertionError: grounding: 1 of 1 agent run(s) not grounded enough" in out
    assert "rate 0.50 < min_rate 0.8" in out
    assert "run 'invoke_agent weather'" in out and "1 of 2 claims grounded, grade full" in out
    assert "ungrounded claim #1" in out
    assert "Tomorrow a violent thunderstorm will flood the Louvre museum basement" in out
    assert "not in any tool output: tomorrow, violent, thunderstorm, will, flood" in out


def test_a_run_the_judge_flags_fails_assert_grounded_with_the_judges_reason(
    agent: pytest.Pytester,
) -> None:
    agent.makepyfile(test_judged='''
import pytest
from agent import run_agent

EVIDENCE = "Paris, France: 14 C, light rain, wind 22 km/h."
judged = pytest.mark.grounding(judge="verifier", judge_min_rate=0.7)

@judged
def test_grounded(grounding):
    run_agent("It is 14 C in Paris with light rain.", grounding.provider.get_tracer("t"),
              tool_output=EVIDENCE)
    (run,) = grounding.assert_grounded()
    assert run.judge.outcome == "ok" and run.judge.below_threshold is False
    assert run.judge.rate == 1.0 and run.judge.claims == ()

@judged
def test_swapped_city(grounding):
    run_agent("It is 14 C in Lyon with light rain.", grounding.provider.get_tracer("t"),
              tool_output=EVIDENCE)
    grounding.assert_grounded()

@judged
def test_swapped_city_judge_not_asked(grounding):
    run_agent("It is 14 C in Lyon with light rain.", grounding.provider.get_tracer("t"),
              tool_output=EVIDENCE)
    (run,) = grounding.assert_grounded(judge=False)
    assert run.judge.below_threshold and run.judge.unsupported_kinds == ("name",)
    (claim,) = run.judge.claims
    assert claim.verdict == "unsupported" and "name 'Lyon'" in claim.explanation

def test_no_judge(grounding):
    run_agent("It is 14 C in Lyon with light rain.", grounding.provider.get_tracer("t"),
              tool_output=EVIDENCE)
    (run,) = grounding.assert_grounded()
    assert run.judge is None
''')
    result = run(agent, "--grounding-report")
    result.assert_outcomes(passed=3, failed=1)
    out = result.stdout.str()
    assert "[1/1] the judge 'verifier' flagged it" in out
    assert "judge 'verifier': rate 0.00, flagged (kinds: name)" in out
    assert "unsupported claim #0: 'It is 14 C in Lyon with light rain.'" in out
    assert "not in the evidence: name 'Lyon'" in out
    # the report counts a judge-flagged run as flagged, as the alert would
    assert "4 test(s), 4 run(s) scored, 2 flagged" in out


def test_instrument_a_provider_the_test_builds(agent: pytest.Pytester) -> None:
    agent.makepyfile(test_instrument='''
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from agent import GROUNDED, run_agent

def test_own(grounding):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    grounding.instrument(provider)
    grounding.instrument(provider)  # twice: still one route, no double scoring
    run_agent(GROUNDED, provider.get_tracer("t"))
    (run,) = grounding.assert_grounded(min_rate=1.0, grades={"full"})
    assert run.convention == "native" and run.claims_total == 1
    # the app's own exporter still gets its spans, unchanged
    assert [s.name for s in exporter.get_finished_spans()][-1] == "invoke_agent weather"
    assert len(grounding.spans) == 2
''')
    run(agent).assert_outcomes(passed=1)


def test_global_provider_installed_when_none_is_set_and_routed_per_test(
    agent: pytest.Pytester,
) -> None:
    agent.makepyfile(test_global='''
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from agent import GROUNDED, HALLUCINATED, run_agent

tracer = trace.get_tracer("app")  # taken at import, before any provider is set

def test_first(grounding):
    run_agent(GROUNDED, tracer, name="first")
    assert isinstance(trace.get_tracer_provider(), TracerProvider)
    assert grounding.global_route == "installed an SDK TracerProvider as the global provider"
    assert [r.name for r in grounding.assert_grounded(grades={"full"})] == ["first"]

def test_between():
    run_agent(HALLUCINATED, tracer, name="nobody-listens")

def test_second(grounding):
    run_agent(HALLUCINATED, name="second")
    (run,) = grounding.runs
    assert run.name == "second" and run.rate == 0.5

@pytest.mark.anyio
async def test_anyio(grounding):
    run_agent(GROUNDED, name="anyio")
    assert [r.name for r in grounding.runs] == ["anyio"]
''')
    run(agent).assert_outcomes(passed=4)


def test_global_sdk_provider_set_by_the_app_keeps_its_exporter(agent: pytest.Pytester) -> None:
    agent.makeconftest('''
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

APP_EXPORTER = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(APP_EXPORTER))
trace.set_tracer_provider(provider)
''')
    agent.makepyfile(test_app='''
from conftest import APP_EXPORTER
from agent import GROUNDED, run_agent

def test_app(grounding):
    run_agent(GROUNDED)
    assert grounding.global_route == "added to the global SDK TracerProvider"
    grounding.assert_grounded(min_rate=1.0, grades={"full"})
    assert "invoke_agent weather" in [s.name for s in APP_EXPORTER.get_finished_spans()]
''')
    run(agent).assert_outcomes(passed=1)


def test_no_run_seen_fails_instead_of_passing_vacuously(agent: pytest.Pytester) -> None:
    agent.makepyfile(test_missing='''
from opentelemetry.sdk.trace import TracerProvider
from agent import GROUNDED, run_agent

def test_uninstrumented(grounding):
    run_agent(GROUNDED, TracerProvider().get_tracer("elsewhere"))  # not fed to the fixture
    grounding.assert_grounded(min_rate=0.8)

def test_seen(grounding):
    grounding.assert_runs_seen()
''')
    result = run(agent, "-p", "no:randomly")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["*expected at least 1 scored agent run(s), saw 0. No run span reached*"]
    )


def test_partial_grade_says_why(agent: pytest.Pytester) -> None:
    agent.makepyfile(test_partial='''
from agent import GROUNDED, run_agent

def test_no_tool_output(grounding):
    run_agent(GROUNDED, grounding.provider.get_tracer("t"), tool_output=None)
    (run,) = grounding.runs
    assert run.grade == "partial" and run.reasons == ("evidence-unavailable",)
    grounding.assert_grounded(grades={"full"})
''')
    result = run(agent)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "[1/1] grade 'partial' not in ['full']" in out
    assert "grade partial; evidence-unavailable: a tool step's output was not recorded" in out


def test_marker_sets_the_processor_threshold(agent: pytest.Pytester) -> None:
    agent.makepyfile(test_marker='''
import pytest
from agent import HALLUCINATED, run_agent

@pytest.mark.grounding(min_claim_grounding_rate=0.4)
def test_lenient(grounding):
    run_agent(HALLUCINATED, grounding.provider.get_tracer("t"))
    (run,) = grounding.assert_grounded()  # default min_rate: the processor's threshold
    assert run.threshold == 0.4 and not run.below_threshold

@pytest.mark.grounding(min_claim_grounding_rate=0.9)
def test_strict(grounding):
    run_agent(HALLUCINATED, grounding.provider.get_tracer("t"))
    (run,) = grounding.runs
    assert run.below_threshold and run.threshold == 0.9
''')
    run(agent).assert_outcomes(passed=2)


def test_min_rate_option_fails_tests_below_it_and_tests_without_runs(
    agent: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory
) -> None:
    agent.makepyfile(test_gate='''
import asyncio
import pytest
from agent import GROUNDED, HALLUCINATED, run_agent

def test_grounded(grounding):
    run_agent(GROUNDED)

def test_hallucinated(grounding):
    run_agent(HALLUCINATED)

def test_nothing(grounding):
    pass

def test_unrelated():
    pass

@pytest.mark.asyncio
async def test_async_in_a_thread(grounding):
    await asyncio.to_thread(run_agent, HALLUCINATED, None, "Paris: 18 degrees Celsius, light rain", "threaded")
''')
    report = tmp_path_factory.mktemp("report") / "grounding.json"
    result = run(agent, "--grounding-min-rate", "0.8", "--grounding-report",
                 "--grounding-json", str(report))
    result.assert_outcomes(passed=2, failed=3)
    out = result.stdout.str()
    assert "(--grounding-min-rate 0.8): 1 of 1 agent run(s) not grounded enough" in out
    assert "expected at least 1 scored agent run(s), saw 0" in out
    assert "grounding report" in out
    result.stdout.fnmatch_lines(["*1*1.000*0*passed*full*test_gate.py::test_grounded"])
    result.stdout.fnmatch_lines(["*1*0.500*1*failed*full*test_gate.py::test_hallucinated"])
    document = json.loads(report.read_text())
    rows = {row["nodeid"].split("::")[1]: row for row in document["tests"]}
    assert set(rows) == {"test_grounded", "test_hallucinated", "test_nothing",
                         "test_async_in_a_thread"}
    assert rows["test_async_in_a_thread"]["runs"][0]["name"] == "threaded"
    assert rows["test_async_in_a_thread"]["outcome"] == "failed"
    assert rows["test_hallucinated"]["runs"][0]["ungrounded"][0]["missing_tokens"][:2] == [
        "tomorrow", "violent"]
    assert document["summary"] == {"tests": 4, "runs": 3, "flagged": 2, "failed": 3}


def test_bad_min_rate_is_a_usage_error(agent: pytest.Pytester) -> None:
    result = run(agent, "--grounding-min-rate", "1.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--grounding-min-rate: '1.5' is not a number in [0, 1]" in result.stderr.str()


def test_xdist_workers_report_is_merged_by_the_controller(
    agent: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory
) -> None:
    agent.makepyfile(test_parallel='''
import os
import pytest
from agent import GROUNDED, HALLUCINATED, run_agent

@pytest.mark.parametrize("n", range(6))
def test_run(grounding, n):
    run_agent(HALLUCINATED if n == 5 else GROUNDED, name=f"run-{n}-{os.environ['PYTEST_XDIST_WORKER']}")
    grounding.assert_grounded(min_rate=0.8)
''')
    report = tmp_path_factory.mktemp("xdist") / "grounding.json"
    result = run(agent, "-n", "2", "--dist", "load", "--grounding-json", str(report),
                 "--grounding-report")
    result.assert_outcomes(passed=5, failed=1)
    document = json.loads(report.read_text())
    assert document["summary"] == {"tests": 6, "runs": 6, "flagged": 0, "failed": 1}
    workers = {row["runs"][0]["name"].rsplit("-", 1)[1] for row in document["tests"]}
    assert workers == {"gw0", "gw1"}
    assert "6 test(s), 6 run(s) scored, 0 flagged" in result.stdout.str()


def test_a_report_path_that_cannot_be_written_is_a_usage_error_at_start(
    agent: pytest.Pytester,
) -> None:
    """The tests ran and passed, then a traceback at the end."""
    agent.makepyfile(test_one="def test_one():\n    pass\n")
    result = run(agent, "--grounding-json", "/nonexistent/dir/r.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--grounding-json: /nonexistent/dir/r.json: the folder /nonexistent/dir does not " \
        "exist" in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert "passed" not in result.stdout.str()


def test_assertion_arguments_that_cannot_be_meant_are_refused(agent: pytest.Pytester) -> None:
    """`min_rate=1.5` reported a run "not grounded enough"; `grades={"ful"}` was not checked."""
    agent.makepyfile(test_args='''
import pytest
from otel_grounding.config import ConfigError
from agent import GROUNDED, run_agent

def test_min_rate(grounding):
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))
    with pytest.raises(ConfigError, match=r"min_rate: 1.5 is not a number in \\[0, 1\\]"):
        grounding.assert_grounded(min_rate=1.5)

def test_grades(grounding):
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))
    with pytest.raises(ConfigError, match="'ful' is not a grade .*did you mean 'full'"):
        grounding.assert_grounded(grades={"ful"})
    assert grounding.assert_grounded(grades="full")
''')
    run(agent).assert_outcomes(passed=2)


def test_a_min_rate_failure_points_at_the_test_and_counts_as_flagged(
    agent: pytest.Pytester,
) -> None:
    """The failure's traceback pointed into the plugin's hook; the report's "flagged" column
    said 0 for a test that failed on rate 0.5 (its threshold, from a marker, was lower)."""
    agent.makepyfile(test_gate='''
import pytest
from agent import HALLUCINATED, run_agent

@pytest.mark.grounding(min_claim_grounding_rate=0.3)
def test_hallucinated(grounding):
    run_agent(HALLUCINATED, grounding.provider.get_tracer("t"))
''')
    result = run(agent, "--grounding-min-rate", "0.8", "--grounding-report")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "pytest_plugin.py" not in out
    assert "(--grounding-min-rate 0.8): 1 of 1 agent run(s) not grounded enough" in out
    result.stdout.fnmatch_lines(["*1*0.500*1*failed*full*test_gate.py::test_hallucinated"])


def test_a_bad_marker_option_is_one_line_at_the_test(agent: pytest.Pytester) -> None:
    agent.makepyfile(test_marker='''
import pytest

@pytest.mark.grounding(min_claim_grounding_rat=0.9)
def test_typo(grounding):
    pass
''')
    result = run(agent)
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "@pytest.mark.grounding: min_claim_grounding_rat: unknown setting" in out
    assert "did you mean min_claim_grounding_rate" in out
    assert "pytest_plugin.py" not in out


STRICT_CASES = '''
import pytest

from otel_grounding import grade
from otel_grounding.internal_error import background_error

from agent import GROUNDED, run_agent


def broken(value):
    raise TypeError("a bug in grading")


@pytest.mark.grounding(scoring_mode="inline")
def test_inline(grounding, monkeypatch):
    monkeypatch.setattr(grade, "_count", broken)  # raises where the run span ends
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))


def test_background(grounding, monkeypatch):
    monkeypatch.setattr(grade, "_count", broken)  # raises on the scoring worker's thread
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))
    grounding.flush()


def test_clean(grounding):
    run_agent(GROUNDED, grounding.provider.get_tracer("t"))
    grounding.assert_grounded(min_rate=0.8)


@pytest.fixture
def fails_while_closing():
    yield
    try:
        raise ValueError("while closing")
    except ValueError:
        background_error("a fixture's teardown")


def test_teardown(fails_while_closing):
    pass
'''

#: Writes strict mode as the session leaves it (after the plugin's own unconfigure).
STRICT_CONFTEST = '''
import pathlib

import pytest

from otel_grounding.internal_error import strict


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    pathlib.Path("strict-after-session.txt").write_text(str(strict()))
'''


@pytest.fixture
def strict_cases(agent: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # The suite's own strict mode (tests/conftest.py) must not leak into the user's session.
    monkeypatch.setenv(STRICT_ENV, "0")
    agent.makepyfile(test_strict=STRICT_CASES)
    agent.makeconftest(STRICT_CONFTEST)
    return agent


def _strict_after(pytester: pytest.Pytester) -> str:
    return (pytester.path / "strict-after-session.txt").read_text()


def test_internal_errors_pass_unnoticed_without_strict_mode(strict_cases: pytest.Pytester) -> None:
    result = run(strict_cases)
    result.assert_outcomes(passed=4)
    assert "otel_grounding: internal error" not in result.stdout.str()  # logged, not shown
    assert _strict_after(strict_cases) == "False"


def test_grounding_strict_fails_the_test_an_internal_error_happened_in(
    strict_cases: pytest.Pytester,
) -> None:
    result = run(strict_cases, "--grounding-strict")
    # test_teardown's call passed, its teardown errs: pytest counts both.
    result.assert_outcomes(passed=2, failed=2, errors=1)
    result.stdout.fnmatch_lines([  # pytest lists the errors, then the failures
        "*_ ERROR at teardown of test_teardown _*",
        "otel-grounding: internal error(s) during the test: {*a fixture's teardown*: 1} *",
        "*_ test_inline _*",
        "E       TypeError: a bug in grading",  # raised where the run span ended
        "*_ test_background _*",
        "otel-grounding: internal error(s) during the test: {*} (--grounding-strict; *)",
    ])
    assert _strict_after(strict_cases) == "False"  # restored after the session


def test_grounding_strict_as_an_ini_option_and_the_flag_that_turns_it_off(
    strict_cases: pytest.Pytester,
) -> None:
    strict_cases.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\nasyncio_mode = strict\n"
        "asyncio_default_fixture_loop_scope = function\ngrounding_strict = true\n"
    )
    run(strict_cases).assert_outcomes(passed=2, failed=2, errors=1)
    run(strict_cases, "--no-grounding-strict").assert_outcomes(passed=4)
