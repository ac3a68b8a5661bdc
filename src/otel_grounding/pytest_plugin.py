"""The pytest plugin: an agent's runs scored inside its own tests, and assertions that say why.

Loaded by pytest through the `pytest11` entry point (nothing else imports it). The `grounding`
fixture routes one test's spans through a `GroundingSpanProcessor` into memory and reads each
run's result back from the exported span's `ferrumdeck.reliability.*` attributes and events,
so a test sees exactly what a trace backend would.

Where spans come from, per test:

- `grounding.provider`: a fresh SDK `TracerProvider` feeding the fixture (hand it to the app);
- `grounding.instrument(provider)`: the test's own SDK `TracerProvider` also feeds the fixture
  (a processor is added that goes quiet when the test ends: SDK processors cannot be removed);
- the global provider, which the process can set only once. At the first `grounding` test the
  plugin adds one dispatching processor to it when it is an SDK `TracerProvider`, or, when no
  global provider is set yet, installs an SDK `TracerProvider` holding only that processor.
  The processor hands spans to the test running now (one at a time per process: each xdist
  worker is a process) and drops them between tests. An application that sets its own global
  provider should do so before the first `grounding` test (at import or in a conftest);
  afterwards the SDK refuses the override (and logs it). A non-SDK global provider cannot be
  fed: `grounding.global_route` says why, and the other two ways still work.

Every result is read after `force_flush()`, so a processor that scores off-thread still
delivers every run before the assertions look.

Strict mode (`--grounding-strict`, ini `grounding_strict`; off by default) turns the product's
internal errors into failures of the test during which they happened, in every test of the
session (the product may run inside the application under test, fixture or not): an error met
on the test's own thread raises there (`internal_error`'s strict switch), one met on a
background thread fails the test when its call, or its teardown, ends. The switch is restored
when the session ends.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding.config import ConfigError, check_threshold
from otel_grounding.grade import GRADES
from otel_grounding.internal_error import internal_errors, set_strict, strict
from otel_grounding.processor import GroundingSpanProcessor
from otel_grounding.scored import ScoredRun

MARKER = "grounding"
#: The key under which a test's runs travel in its report's `user_properties` (xdist-safe).
REPORT_KEY = "otel_grounding.runs"
#: How long a flush may take before the results are read anyway.
FLUSH_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class Switch:
    """A yes/no option of the plugin, declared once: an ini key and its flag
    (`--key-name` / `--no-key-name`), the flag winning over the ini file."""

    ini: str
    default: bool
    help: str

    @property
    def flag(self) -> str:
        return "--" + self.ini.replace("_", "-")

    def add_to(self, parser: pytest.Parser, group: Any) -> None:
        shown = "on" if self.default else "off"
        group.addoption(
            self.flag, dest=self.ini, action=argparse.BooleanOptionalAction, default=None,
            help=f"{self.help} (default {shown}; ini {self.ini})",
        )
        parser.addini(self.ini, type="bool", default=self.default, help=self.help)

    def value(self, config: pytest.Config) -> bool:
        given = config.getoption(self.ini)
        return bool(config.getini(self.ini) if given is None else given)


STRICT = Switch(
    "grounding_strict", False,
    "fail a test during which otel-grounding counted an internal error (strict mode)",
)

def _scored(span: ReadableSpan) -> ScoredRun | None:
    context = span.context
    return ScoredRun.read(
        span.name,
        context.trace_id if context else 0,
        context.span_id if context else 0,
        span.attributes or {},
        ((event.name, event.attributes or {}) for event in span.events),
    )


def check_grades(grades: Collection[str] | str | None) -> frozenset[str] | None:
    """The grades asked for, each one of the seven (`ConfigError` naming one that is not,
    with the closest); a single grade may be given as a string."""
    if grades is None:
        return None
    asked = frozenset([grades] if isinstance(grades, str) else grades)
    for grade in sorted(asked, key=str):
        if grade not in GRADES:
            match = difflib.get_close_matches(str(grade), GRADES, n=1, cutoff=0.6)
            hint = f"; did you mean {match[0]!r}?" if match else ""
            raise ConfigError(
                f"grades: {grade!r} is not a grade (one of {', '.join(GRADES)}){hint}"
            )
    return asked


class GroundingAssertionError(AssertionError):
    """A grounding assertion failed; the message lists the runs and why."""


def check_runs(
    runs: Sequence[ScoredRun],
    *,
    min_rate: float | None = None,
    grades: Collection[str] | None = None,
    at_least: int = 1,
    use_threshold: bool = False,
    judge: bool = False,
    where: str = "",
) -> str | None:
    """What is wrong with these runs (a message to act on), or None when they pass.

    Fewer than `at_least` runs is a failure: a test whose instrumentation records nothing
    must not pass by having nothing to check. A run without a rate fails `min_rate` (its
    grade says why it could not be scored). `use_threshold`: with no `min_rate`, each run
    is held to its own threshold (the project's, else the default). `judge`: a run the
    judge flagged (`judge.below_threshold`, the alert it would raise) fails too.

    Arguments that cannot be meant (a rate outside [0, 1], a grade that is none of the seven,
    a negative count) raise `ConfigError`: refused, not reported as runs falling short.
    """
    check_threshold("min_rate", min_rate)
    grades = check_grades(grades)
    if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
        raise ConfigError(f"at_least: {at_least!r} is not an integer >= 0")
    if len(runs) < at_least:
        return (
            f"grounding{where}: expected at least {at_least} scored agent run(s), saw {len(runs)}. "
            "No run span reached the grounding processor: is the agent instrumented, and "
            "does it trace through grounding.provider, grounding.instrument(provider) "
            "or the global TracerProvider?"
        )
    failed = []
    for number, run in enumerate(runs, 1):
        problems = []
        limit = min_rate if min_rate is not None else run.threshold if use_threshold else None
        if limit is not None:
            if run.rate is None:
                problems.append(f"no rate to compare with min_rate {limit:g}")
            elif run.rate < limit:
                problems.append(f"rate {run.rate:.2f} < min_rate {limit:g}")
        if grades is not None and run.grade not in grades:
            problems.append(f"grade {run.grade!r} not in {sorted(grades)}")
        if judge and run.judge is not None and run.judge_flagged:
            problems.append(f"the judge {run.judge.name!r} flagged it")
        if problems:
            failed.append(f"[{number}/{len(runs)}] {'; '.join(problems)}\n{run.describe()}")
    if not failed:
        return None
    return (
        f"grounding{where}: {len(failed)} of {len(runs)} agent run(s) not grounded enough\n"
        + "\n".join(failed)
    )


# -- routing ------------------------------------------------------------------------------------
class _Route(SpanProcessor):
    """A span processor that hands spans to a test's processor while one is attached."""

    def __init__(self, target: GroundingSpanProcessor | None = None) -> None:
        self.target = target

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        target = self.target
        if target is not None:
            target.on_start(span, parent_context=parent_context)

    def on_end(self, span: ReadableSpan) -> None:
        target = self.target
        if target is not None:
            target.on_end(span)

    def shutdown(self) -> None:
        self.target = None

    def force_flush(self, timeout_millis: int = FLUSH_TIMEOUT_MS) -> bool:
        target = self.target
        return target.force_flush(timeout_millis) if target is not None else True


@dataclass(frozen=True)
class GlobalRoute:
    """How the global TracerProvider feeds the fixture (`route` None: it cannot)."""

    route: _Route | None
    provider: Any
    how: str


_GLOBAL: GlobalRoute | None = None
_GLOBAL_LOCK = threading.Lock()


def global_route() -> GlobalRoute:
    """The process-wide route from the global TracerProvider, set up on first use."""
    global _GLOBAL
    with _GLOBAL_LOCK:
        if _GLOBAL is None:
            _GLOBAL = _attach_global()
        return _GLOBAL


def _attach_global() -> GlobalRoute:
    current = trace.get_tracer_provider()
    how = "added to the global SDK TracerProvider"
    if isinstance(current, trace.ProxyTracerProvider):  # none set yet: set ours, once
        trace.set_tracer_provider(TracerProvider())
        current = trace.get_tracer_provider()
        how = "installed an SDK TracerProvider as the global provider"
    if not isinstance(current, TracerProvider):
        return GlobalRoute(
            None, current, f"not routed: the global provider is a {type(current).__name__}, "
            "not an SDK TracerProvider (use grounding.provider or grounding.instrument)",
        )
    route = _Route()
    current.add_span_processor(route)
    return GlobalRoute(route, current, how)


# -- the fixture's object --------------------------------------------------------------------------
class Grounding:
    """One test's grounding: where its spans go, its scored runs, and the assertions."""

    def __init__(self, options: Mapping[str, Any], *, use_global: bool = True) -> None:
        self._exporter = InMemorySpanExporter()
        self.processor = GroundingSpanProcessor(SimpleSpanProcessor(self._exporter), **options)
        self._routes: list[_Route] = []
        self._instrumented: list[Any] = []
        self._provider: TracerProvider | None = None
        self._closed = False
        self.global_route: str = "not used"
        if use_global:
            shared = global_route()
            self.global_route = shared.how
            if shared.route is not None:
                shared.route.target = self.processor
                self._routes.append(shared.route)
                self._instrumented.append(shared.provider)

    @property
    def provider(self) -> TracerProvider:
        """A TracerProvider of this test's own whose spans are all scored here."""
        if self._provider is None:
            self._provider = TracerProvider()
            self._provider.add_span_processor(self.processor)
        return self._provider

    def instrument(self, provider: TracerProvider) -> TracerProvider:
        """Also score the spans of `provider` (an SDK TracerProvider) until the test ends."""
        if any(provider is seen for seen in self._instrumented) or provider is self._provider:
            return provider  # already feeding this test: never score a span twice
        add = getattr(provider, "add_span_processor", None)
        if add is None:
            raise TypeError(
                f"grounding.instrument: {type(provider).__name__} is not an SDK TracerProvider"
            )
        route = _Route(self.processor)
        add(route)
        self._routes.append(route)
        self._instrumented.append(provider)
        return provider

    def flush(self) -> None:
        """Deliver every scored span to memory (the processor may score off-thread)."""
        for provider in self._instrumented:
            try:
                provider.force_flush(FLUSH_TIMEOUT_MS)
            except Exception:  # a provider that cannot flush still lets us read
                pass
        self.processor.force_flush(FLUSH_TIMEOUT_MS)

    @property
    def spans(self) -> tuple[ReadableSpan, ...]:
        """Every span this test exported (run spans enriched), after a flush."""
        self.flush()
        return tuple(self._exporter.get_finished_spans())

    @property
    def runs(self) -> tuple[ScoredRun, ...]:
        """The scored agent runs, in the order their spans ended."""
        return tuple(run for run in map(_scored, self.spans) if run is not None)

    def assert_runs_seen(self, at_least: int = 1) -> tuple[ScoredRun, ...]:
        """Fail unless at least `at_least` runs were scored; return them."""
        __tracebackhide__ = True
        runs = self.runs
        message = check_runs(runs, at_least=at_least, where=self._seen_hint(runs))
        if message:
            raise GroundingAssertionError(message)
        return runs

    def assert_grounded(
        self,
        min_rate: float | None = None,
        grades: Collection[str] | None = None,
        *,
        at_least: int = 1,
        judge: bool = True,
    ) -> tuple[ScoredRun, ...]:
        """Fail unless every run reaches `min_rate` (default: its threshold) with a grade in
        `grades` (default: any), no judge flagged it (`judge=False`: whatever the judge said),
        and at least `at_least` runs were seen; return the runs."""
        __tracebackhide__ = True
        runs = self.runs
        message = check_runs(
            runs, min_rate=min_rate, grades=grades, at_least=at_least, use_threshold=True,
            judge=judge, where=self._seen_hint(runs),
        )
        if message:
            raise GroundingAssertionError(message)
        return runs

    def _seen_hint(self, runs: Sequence[ScoredRun]) -> str:
        if runs:
            return ""
        names = sorted({span.name for span in self._exporter.get_finished_spans()})
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        return f" ({len(names)} other span name(s) seen: {shown or 'none'}; global route: " \
               f"{self.global_route})"

    def close(self) -> None:
        """Detach from every provider (their spans go nowhere from now on) and flush."""
        if self._closed:
            return
        self._closed = True
        try:
            self.flush()
        finally:
            for route in self._routes:
                route.target = None
            if self._provider is not None:
                self._provider.shutdown()
            else:
                self.processor.shutdown()


# -- pytest hooks ---------------------------------------------------------------------------------
def _min_rate(text: str) -> float:
    try:
        value = check_threshold("--grounding-min-rate", float(text))
    except (ValueError, ConfigError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number in [0, 1]") from None
    assert value is not None
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("otel-grounding", "claim grounding of agent runs (grounding fixture)")
    group.addoption(
        "--grounding-min-rate", type=_min_rate, default=None, metavar="RATE",
        help="fail every test using the grounding fixture whose runs score below RATE "
        "(or that saw no run); also the processor's threshold",
    )
    group.addoption(
        "--grounding-report", action="store_true", default=False,
        help="print a per-test table of the scored runs at the end of the session",
    )
    group.addoption(
        "--grounding-json", default=None, metavar="PATH",
        help="write the per-test report as JSON to PATH",
    )
    parser.addini(
        "grounding_global_provider", type="bool", default=True,
        help="route spans of the global TracerProvider to the grounding fixture",
    )
    STRICT.add_to(parser, group)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(**options): GroundingSpanProcessor options for this test's grounding fixture "
        "(e.g. min_claim_grounding_rate=0.9)",
    )
    _check_json_path(config.getoption("--grounding-json"))
    config.pluginmanager.register(SessionReport(config), "otel-grounding-report")
    if STRICT.value(config):
        config.stash[_STRICT_BEFORE] = strict()
        set_strict(True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Strict mode as it was before the session."""
    before = config.stash.get(_STRICT_BEFORE, None)
    if before is not None:
        set_strict(before)


def _check_json_path(path: str | None) -> None:
    """`--grounding-json` is checked before any test runs: a report that cannot be written is
    a usage error now, not a traceback after the whole session."""
    if not path:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise pytest.UsageError(f"--grounding-json: {path} is a directory")
    if not folder.is_dir():
        raise pytest.UsageError(f"--grounding-json: {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise pytest.UsageError(f"--grounding-json: {path}: not writable")


_ACTIVE = pytest.StashKey[Grounding]()
_STRICT_BEFORE = pytest.StashKey[bool]()
#: Internal errors counted so far, as last seen for the test running now.
_SEEN_ERRORS = pytest.StashKey[Mapping[str, int]]()


@pytest.fixture
def grounding(request: pytest.FixtureRequest) -> Iterator[Grounding]:
    """Score this test's agent runs; see `Grounding` for where spans come from."""
    options: dict[str, Any] = {}
    min_rate = request.config.getoption("--grounding-min-rate")
    if min_rate is not None:
        options["min_claim_grounding_rate"] = min_rate
    for marker in reversed(list(request.node.iter_markers(MARKER))):
        options.update(marker.kwargs)
    use_global = bool(request.config.getini("grounding_global_provider"))
    try:
        collector = Grounding(options, use_global=use_global)
    except ConfigError as exc:  # a marker's option: the test's error, said in one line
        pytest.fail(f"@pytest.mark.{MARKER}: {exc}", pytrace=False)
    request.node.stash[_ACTIVE] = collector
    try:
        yield collector
    finally:
        try:
            runs = collector.runs
        finally:
            collector.close()
        request.node.user_properties.append((REPORT_KEY, [run.to_dict() for run in runs]))


def _new_internal_errors(item: pytest.Item) -> dict[str, int]:
    """The internal errors counted since the test's last look (none outside strict mode)."""
    if _STRICT_BEFORE not in item.config.stash:
        return {}
    seen = item.stash.get(_SEEN_ERRORS, {})
    now = internal_errors()
    item.stash[_SEEN_ERRORS] = now
    return {where: n - seen.get(where, 0) for where, n in now.items() if n > seen.get(where, 0)}


def _fail_on_internal_errors(grown: Mapping[str, int]) -> None:
    if grown:
        pytest.fail(
            f"otel-grounding: internal error(s) during the test: {dict(grown)} "
            f"({STRICT.flag}; the log has the first traceback)",
            pytrace=False,
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _new_internal_errors(item)  # the errors of earlier tests are theirs
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Strict mode: an internal error while the test's fixtures closed (the grounding fixture
    flushes runs graded off-thread) fails the test at teardown."""
    result = yield
    _fail_on_internal_errors(_new_internal_errors(item))
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Strict mode: a test during which an internal error was counted fails. Under
    --grounding-min-rate, a passing test with the fixture fails when a run falls short."""
    try:
        result = yield
    finally:
        grown = _new_internal_errors(item)  # an error the test already raised is not re-told
    _fail_on_internal_errors(grown)
    min_rate = item.config.getoption("--grounding-min-rate")
    collector = item.stash.get(_ACTIVE, None)
    if min_rate is not None and collector is not None:
        message = check_runs(
            collector.runs, min_rate=min_rate, where=f" (--grounding-min-rate {min_rate:g})"
        )
        if message:
            # The test's own failure, reported at the test: no traceback into this hook.
            pytest.fail(message, pytrace=False)
    return result


def format_report(rows: Sequence[Mapping[str, Any]]) -> str:
    """The per-test table printed by --grounding-report."""
    lines = [f"{'runs':>4}  {'min rate':>8}  {'flagged':>7}  {'outcome':7}  {'grades':20}  test"]
    for row in rows:
        rate = "-" if row["min_rate"] is None else f"{row['min_rate']:.3f}"
        lines.append(
            f"{len(row['runs']):>4}  {rate:>8}  {row['flagged']:>7}  {row['outcome']:7}  "
            f"{','.join(row['grades']) or '-':20}  {row['nodeid']}"
        )
    runs = sum(len(row["runs"]) for row in rows)
    flagged = sum(row["flagged"] for row in rows)
    lines.append(f"{len(rows)} test(s), {runs} run(s) scored, {flagged} flagged")
    return "\n".join(lines)


class SessionReport:
    """Per-test rows from the test reports: under xdist, the controller receives every
    worker's reports (the runs travel in `user_properties`) and alone prints and writes."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._runs: dict[str, list[dict[str, Any]]] = {}
        self._outcomes: dict[str, str] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key == REPORT_KEY and isinstance(value, (list, tuple)):
                self._runs[report.nodeid] = list(value)
        if report.failed:
            self._outcomes[report.nodeid] = "failed"
        elif report.skipped and report.when == "setup":
            self._outcomes[report.nodeid] = "skipped"
        else:
            self._outcomes.setdefault(report.nodeid, "passed")

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for nodeid, runs in sorted(self._runs.items()):
            rates = [run["rate"] for run in runs if run["rate"] is not None]
            rows.append({
                "nodeid": nodeid,
                "outcome": self._outcomes.get(nodeid, "passed"),
                "runs": runs,
                "min_rate": min(rates) if rates else None,
                "grades": sorted({run["grade"] for run in runs}),
                "flagged": sum(1 for run in runs if self._flagged(run)),
            })
        return rows

    def _flagged(self, run: Mapping[str, Any]) -> bool:
        """Below its threshold or flagged by its judge (as `assert_grounded` fails it), or
        below `--grounding-min-rate` (no rate: below it too, as that gate counts it)."""
        if run["below_threshold"] or (run["judge"] or {}).get("below_threshold"):
            return True
        gate = self.config.getoption("--grounding-min-rate")
        return gate is not None and (run["rate"] is None or run["rate"] < gate)

    @property
    def _controller(self) -> bool:
        return not hasattr(self.config, "workerinput")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.config.getoption("--grounding-report") and self._controller:
            terminalreporter.write_sep("=", "grounding report")
            terminalreporter.write_line(format_report(self.rows()))

    def pytest_sessionfinish(self) -> None:
        path = self.config.getoption("--grounding-json")
        if not path or not self._controller:
            return
        rows = self.rows()
        document = {
            "tests": rows,
            "summary": {
                "tests": len(rows),
                "runs": sum(len(row["runs"]) for row in rows),
                "flagged": sum(row["flagged"] for row in rows),
                "failed": sum(1 for row in rows if row["outcome"] == "failed"),
            },
        }
        try:
            Path(path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:  # checked at start; the folder went since: one line, no trace
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            line = f"otel-grounding: --grounding-json: cannot write {path}: {exc.strerror}"
            if reporter is not None:
                reporter.write_line(line, red=True)
