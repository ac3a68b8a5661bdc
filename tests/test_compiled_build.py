"""The compiled build (README, "The compiled build"): the wheel `OTEL_GROUNDING_COMPILE=1`
builds holds every module `[tool.otel-grounding] compiled-modules` lists as a C extension, and
the tests of what those modules do pass against it, as they pass against the source."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from compiled_build import compiled_build  # noqa: E402

pytestmark = pytest.mark.needs_build

#: The tests of the compiled modules' behaviour: re-scoring stored traces (the JSON reader and
#: its parity with the protobuf one), the processor over the same pipeline, the stores, grades,
#: conventions and positional records, and the relay (its wire walk, intake, delivery, hostile
#: input), each file's tests in their order (`--dist loadfile`).
PARITY_TESTS = (
    "test_score_traces.py", "test_score_traces_judge.py", "test_score_traces_paths.py",
    "test_json_spans.py", "test_processor.py", "test_store.py", "test_store_composition.py",
    "test_grade.py", "test_conventions.py", "test_positional_records.py",
    *sorted(p.name for p in (REPO / "tests").glob("test_relay*.py")),
)
#: Tests that replace a compiled module's own functions (its calls go to them directly) or hand
#: it a stand-in where its types declare the real class (checked there): what they check of the
#: source is not a behaviour of the build.
SUBSTITUTES = (
    "test_json_spans.py::test_the_fast_parser_reads_canonical_lines_alone_and_hands_the_rest_to_json_loads",
    "test_relay_delivery.py::test_the_relays_own_exports_run_with_instrumentation_suppressed",
    "test_relay_delivery.py::test_a_sender_bug_is_an_internal_error_and_the_worker_goes_on",
    "test_relay_service.py::test_a_bug_serving_an_http_request_is_an_internal_error_and_the_relay_goes_on",
)
MODULES: list[str] = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"]["otel-grounding"]["compiled-modules"]


def _in_build(build: Path, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(build)},
        capture_output=True, text=True, check=True,
    )
    return done.stdout


def test_every_listed_module_is_an_extension_and_the_rest_is_source() -> None:
    build = compiled_build()
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES + ['otel_grounding.scoring', 'otel_grounding.cli']!r}:\n"
        "    print(name, importlib.import_module(name).__file__)\n"
    )
    files = dict(line.split(" ", 1) for line in _in_build(build, code).splitlines())
    for name in MODULES:
        assert files[name].startswith(str(build)) and files[name].endswith(".so"), name
    for name in ("otel_grounding.scoring", "otel_grounding.cli"):  # not listed: source
        assert files[name].endswith(".py"), name


def test_the_command_says_it_is_the_compiled_build() -> None:
    build = compiled_build()
    code = "from otel_grounding.cli import version_line; print(version_line())"
    assert _in_build(build, code).strip().endswith(", compiled build (mypyc)")


def test_the_tests_of_the_compiled_modules_pass_against_the_build() -> None:
    build = compiled_build()
    tests = REPO / "tests"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not needs_build",
         "-n", "2", "--dist", "loadfile",
         *(str(tests / name) for name in PARITY_TESTS),
         *(f"--deselect=tests/{name}" for name in SUBSTITUTES)],
        cwd=REPO, env={**os.environ, "PYTHONPATH": os.pathsep.join((str(build), str(tests)))},
        capture_output=True, text=True, timeout=900,
    )
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", summary).group(1))  # type: ignore[union-attr]
    assert passed >= 450, summary
