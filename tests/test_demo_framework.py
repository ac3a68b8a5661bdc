"""`otel-grounding demo --framework NAME`: a real framework end to end, as a user runs it.

The frameworks come from the pinned `frameworks` extra (as in test_frameworks.py): a missing
package fails the end-to-end tests, it never skips them. The missing-package tests make the
import fail on purpose, in a child process, with an import hook that raises what Python raises
for a module that is not installed: what they test is our error handling, not the framework.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.demo_frameworks import INSTALL, SCENARIOS, FrameworkMissing

import e2e_support as e2e

#: Runs the CLI with the top-level modules named in argv[1] (comma-separated) "not installed".
BLOCKED_IMPORTS = """
import sys
blocked = set(sys.argv[1].split(","))

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
from otel_grounding.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _env(**extra: str) -> dict[str, str]:
    """No OTEL_* from the shell, and every content switch turned *off*: the demo turns them on."""
    return e2e.clean_env(
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="NO_CONTENT",
        OPENINFERENCE_HIDE_OUTPUTS="true",
        TRACELOOP_TRACE_CONTENT="false",
        **extra,
    )


def _graded(receiver: e2e.OTLPReceiver) -> list[dict[str, Any]] | None:
    runs = [a for a in (e2e.attributes(s.attributes) for s in receiver.spans()) if attr.GRADE in a]
    return runs if len(runs) >= 2 else None


@pytest.mark.parametrize("name", ["pydantic-ai", "langchain-genai"])
def test_demo_framework_scores_a_grounded_and_a_hallucinating_run(name: str) -> None:
    with e2e.otlp_receiver() as receiver:
        env = _env(
            OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint, OTEL_EXPORTER_OTLP_INSECURE="true"
        )
        done = e2e.run(e2e.demo_command("--framework", name), env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        exported = e2e.wait_until(
            lambda: _graded(receiver), timeout=10, what="the two graded run spans over OTLP"
        )
    rows = {
        line.split()[0]: line
        for line in done.stdout.splitlines()
        if line.startswith(f"{name}/")
    }
    assert set(rows) == {f"{name}/grounded", f"{name}/hallucinated"}, done.stdout
    assert rows[f"{name}/grounded"].split()[1:5] == ["1.000", "full", "no", "-"]
    hallucinated = rows[f"{name}/hallucinated"].split()
    assert float(hallucinated[1]) < 0.7
    assert hallucinated[2:4] == ["full", "YES"]
    assert "thunderstorm will flood the Louvre" in rows[f"{name}/hallucinated"]
    assert "Paris is 18 degrees" not in rows[f"{name}/hallucinated"]  # the grounded claim
    # what the table shows is what went out over OTLP
    assert sorted((a[attr.RATE], a[attr.BELOW_THRESHOLD]) for a in exported) == [
        (0.5, True),
        (1.0, False),
    ]
    assert {a[attr.PROJECT] for a in exported} == {"otel-grounding-demo"}


def _blocked(modules: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return e2e.run([sys.executable, "-c", BLOCKED_IMPORTS, modules, *argv], env=_env(), timeout=60)


@pytest.mark.parametrize(
    ("name", "missing"),
    [
        ("pydantic-ai", "pydantic_ai"),
        # a dependency deep in the chain: langchain.agents imports langgraph
        ("langchain-openinference", "langgraph"),
        ("openai-agents-openinference", "agents"),
    ],
)
def test_missing_framework_is_one_line_naming_the_extra(name: str, missing: str) -> None:
    done = _blocked(missing, "demo", "--framework", name)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"otel-grounding demo: --framework {name}: module {missing!r} is not installed;"
        f" install the extra: {INSTALL}"
    ]


def test_help_lists_the_frameworks_without_importing_them() -> None:
    """Importing otel_grounding and building the CLI needs none of the framework packages."""
    blocked = "pydantic_ai,langchain,langchain_core,langgraph,openinference,agents,langfuse"
    done = _blocked(blocked, "demo", "--help")
    assert done.returncode == 0, done.stderr
    assert INSTALL in done.stdout
    for name in SCENARIOS:
        assert f"  {name} " in done.stdout


def test_missing_message_without_a_module_name_stays_one_line() -> None:
    error = ImportError("cannot import name 'Agent'\n  from a half-installed package")
    message = str(FrameworkMissing("pydantic-ai", error))
    assert "\n" not in message
    assert message == (
        "--framework pydantic-ai: cannot import name 'Agent' from a half-installed package;"
        f" install the extra: {INSTALL}"
    )



def test_the_demo_environment_is_the_demos_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline variables and content capture while the demo runs; the caller's environment back
    afterwards (a key the caller set is kept throughout)."""
    from otel_grounding.demo_frameworks import CONTENT_CAPTURE, demo_environment

    monkeypatch.setenv("OPENAI_API_KEY", "the-callers-key")
    monkeypatch.delenv("TRACELOOP_TELEMETRY", raising=False)
    monkeypatch.setenv("TRACELOOP_TRACE_CONTENT", "false")
    before = dict(os.environ)
    with demo_environment():
        assert os.environ["OPENAI_API_KEY"] == "the-callers-key"
        assert os.environ["TRACELOOP_TELEMETRY"] == "false"
        assert all(os.environ[k] == v for k, v in CONTENT_CAPTURE.items())
    assert dict(os.environ) == before
    with demo_environment(content=False):
        assert os.environ["TRACELOOP_TRACE_CONTENT"] == "false"
    assert dict(os.environ) == before
