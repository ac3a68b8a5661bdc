"""The demo and the examples run as a user runs them, and say what the README says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).parent / "otel-grounding"


def test_demo_prints_three_scored_runs() -> None:
    done = subprocess.run([str(CLI), "demo"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.startswith("demo-run-")}
    assert set(rows) == {"demo-run-1-grounded", "demo-run-2-hallucinated", "demo-run-3-no-claims"}
    assert rows["demo-run-1-grounded"][1:4] == ["1.000", "full", "no"]
    assert rows["demo-run-2-hallucinated"][2:4] == ["full", "YES"]
    assert float(rows["demo-run-2-hallucinated"][1]) < 0.7
    assert rows["demo-run-3-no-claims"][1:4] == ["1.000", "vacuous", "no"]
    assert "The company opened three offices in Tokyo and Berlin" in done.stdout


def test_demo_rejects_bad_flags_in_one_line() -> None:
    done = subprocess.run([str(CLI), "demo", "--serve-seconds", "-1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_demo_prometheus_port_without_the_extra_or_in_use_is_one_line() -> None:
    """Without the `prometheus` extra the demo died with ModuleNotFoundError."""
    hidden = (
        "import sys; sys.modules['prometheus_client'] = None; "
        "sys.modules['opentelemetry.exporter.prometheus'] = None; "
        "from otel_grounding.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run([sys.executable, "-c", hidden, "demo", "--prometheus-port", "9999"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "otel-grounding demo: --prometheus-port needs otel-grounding[prometheus]")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([str(CLI), "demo", "--prometheus-port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert f"--prometheus-port {port}: cannot listen on 127.0.0.1:{port}" in done.stderr
    for bad in (("--prometheus-port", "70000"), ("--serve-seconds", "nan")):
        done = subprocess.run([str(CLI), "demo", *bad], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert bad[0] in done.stderr


def test_quickstart_example_prints_an_enriched_run_span() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "quickstart.py")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert '"ferrumdeck.reliability.claim_grounding_rate": 0.5' in done.stdout
    assert '"ferrumdeck.reliability.claim_grounding_below_threshold": true' in done.stdout


def test_agent_test_suite_example_passes_grounded_and_fails_hallucinated() -> None:
    """examples/test_agent_grounding.py under the pytest plugin: a real pydantic-ai agent."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "examples" / "test_agent_grounding.py"),
         "-p", "no:cacheprovider", "-q", "-rA"],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "1 failed, 2 passed" in out
    assert "PASSED examples/test_agent_grounding.py::test_grounded_answer" in out
    assert "PASSED examples/test_agent_grounding.py::test_grounded_answer_async" in out
    assert "FAILED examples/test_agent_grounding.py::test_hallucinated_answer" in out
    assert "grounding: 1 of 1 agent run(s) not grounded enough" in out
    assert "rate 0.50 < min_rate 0.8" in out
    assert "run 'invoke_agent weather_agent'" in out and "1 of 2 claims grounded, grade full" in out
    assert "'Tomorrow a violent thunderstorm will flood the Louvre museum basement'" in out
    assert "not in any tool output: tomorrow, violent, thunderstorm" in out
