"""`otel-grounding score`: the real console command, run as a user runs it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "claim_grounding.golden.json"
SCRIPT = Path(sys.executable).parent / ("otel-grounding.exe" if os.name == "nt" else "otel-grounding")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "otel_grounding.cli"]


def run_cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    data = stdin.encode("utf-8", "surrogatepass") if isinstance(stdin, str) else stdin
    proc = subprocess.run([*COMMAND, *args], input=data, capture_output=True, env=env, timeout=60)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "replace")
    )


@pytest.fixture(scope="module")
def golden_run() -> dict:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return {
        "output": golden["output"],
        "steps": [
            {"step_type": "llm", "output": "Bananas are purple and fly to the distant moon."},
            *({"step_type": "tool", "output": s} for s in golden["sources"]),
        ],
        "threshold": golden["threshold"],
    }


@pytest.fixture()
def golden_file(tmp_path: Path, golden_run: dict) -> Path:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(golden_run), encoding="utf-8")
    return path


def assert_golden_json(stdout: str) -> None:
    data = json.loads(stdout)
    assert data["claims_total"] == 3
    assert data["claims_grounded"] == 2
    assert data["claims_checked"] == 3
    assert data["rate"] == 2 / 3
    assert data["below_threshold"] is True
    assert data["threshold"] == 0.7
    assert data["grade"] == "full"
    assert [c["grounded"] for c in data["claims"]] == [True, True, False]


def test_score_file_json(golden_file: Path) -> None:
    proc = run_cli("score", str(golden_file))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert_golden_json(proc.stdout)


def test_score_explicit_json_format(golden_file: Path) -> None:
    proc = run_cli("score", "--format", "json", str(golden_file))
    assert proc.returncode == 0, proc.stderr
    assert_golden_json(proc.stdout)


def test_score_table_one_row_per_claim(golden_file: Path) -> None:
    proc = run_cli("score", "--format", "table", str(golden_file))
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if re.match(r"^\s*\d+\s+(yes|NO)\s", line)]
    assert len(rows) == 3
    assert "The capital of France is Paris" in rows[0]
    assert "Bananas are purple" in rows[2] and " NO " in rows[2]
    assert "rate 0.6667" in proc.stdout
    assert "grade full" in proc.stdout
    assert "flagged yes" in proc.stdout


def test_score_stdin(golden_run: dict) -> None:
    proc = run_cli("score", "-", stdin=json.dumps(golden_run))
    assert proc.returncode == 0, proc.stderr
    assert_golden_json(proc.stdout)
    table = run_cli("score", "-", "--format", "table", stdin=json.dumps(golden_run))
    assert table.returncode == 0, table.stderr
    assert "rate 0.6667" in table.stdout


def test_no_threshold_is_never_flagged(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"output": "Bananas are purple fruit.", "steps": []}), encoding="utf-8")
    data = json.loads(run_cli("score", str(path)).stdout)
    assert data["rate"] == 0.0 and data["below_threshold"] is False and data["threshold"] is None


def test_structured_and_non_ascii_values(tmp_path: Path) -> None:
    run = {
        "output": {"text": "Le café est à Paris, capitale de France."},
        "steps": [{"step_type": "tool", "output": {"ville": "Paris", "pays": "France", "note": "capitale café"}}],
    }
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run, ensure_ascii=False), encoding="utf-8")
    proc = run_cli("score", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "café" in proc.stdout  # non-ASCII kept in the JSON output
    data = json.loads(proc.stdout)
    assert data["claims_total"] == 1 and data["claims_grounded"] == 1


@pytest.mark.parametrize("fmt", ["json", "table"])
def test_lone_surrogate_in_output_does_not_crash(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "run.json"
    path.write_text('{"output": "The \\ud800 capital of France is Paris.", "steps": []}', encoding="utf-8")
    proc = run_cli("score", "--format", fmt, str(path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    if fmt == "json":
        data = json.loads(proc.stdout)
        assert data["claims_total"] == 1
        assert "\ud800" in data["claims"][0]["text"]


BAD_INPUTS = [
    ("not-json", "this is not json", "not JSON"),
    ("empty", "", "not JSON"),
    ("array", "[1, 2, 3]", "object"),
    ("string", '"hello"', "object"),
    ("no-output", '{"steps": []}', "output"),
    ("steps-object", '{"output": "x", "steps": {"a": 1}}', "steps"),
    ("steps-string", '{"output": "x", "steps": "tool"}', "steps"),
    ("threshold-high", '{"output": "x", "steps": [], "threshold": 1.5}', "threshold"),
    ("threshold-negative", '{"output": "x", "steps": [], "threshold": -0.1}', "threshold"),
    ("threshold-string", '{"output": "x", "steps": [], "threshold": "x"}', "threshold"),
    ("threshold-bool", '{"output": "x", "steps": [], "threshold": true}', "threshold"),
    ("threshold-nan", '{"output": "x", "steps": [], "threshold": NaN}', "threshold"),
    ("deep", "[" * 100_000, "nested"),
]


def assert_one_line_error(proc: subprocess.CompletedProcess[str], expected: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert expected.lower() in lines[0].lower(), lines[0]
    assert proc.stdout == ""


@pytest.mark.parametrize(("name", "content", "expected"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_file(tmp_path: Path, name: str, content: str, expected: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(content, encoding="utf-8")
    assert_one_line_error(run_cli("score", str(path)), expected)


@pytest.mark.parametrize(("name", "content", "expected"), BAD_INPUTS[:6], ids=[b[0] for b in BAD_INPUTS[:6]])
def test_bad_input_stdin(name: str, content: str, expected: str) -> None:
    assert_one_line_error(run_cli("score", "-", stdin=content), expected)


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    proc = run_cli("score", str(missing))
    assert_one_line_error(proc, "cannot read")
    assert "nope.json" in proc.stderr


def test_directory_instead_of_file(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("score", str(tmp_path)), "cannot read")


def test_not_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"output": "caf\xe9"}')
    assert_one_line_error(run_cli("score", str(path)), "UTF-8")


def test_not_utf8_stdin() -> None:
    proc = run_cli("score", "-", stdin=b'{"output": "caf\xe9"}')
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_reader_closing_the_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    # `otel-grounding score run.json | head -2`: the output is far larger than a pipe buffer.
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"output": "alpha beta gamma. " * 10_000, "steps": []}), encoding="utf-8")
    proc = subprocess.Popen([*COMMAND, "score", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(100)
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    proc.wait(timeout=60)
    assert "Traceback" not in stderr
    assert proc.returncode != 0


MISSPELLED = [
    ("run-key", '{"output": "x", "step": [{"step_type": "tool", "output": "x"}]}', "'steps'"),
    ("step-key", '{"output": "x", "steps": [{"step_type": "tool", "outptu": "x"}]}',
     "steps[0]: unknown key 'outptu'; did you mean 'output'"),
    ("threshold-key", '{"output": "x", "steps": [], "treshold": 0.7}', "'threshold'"),
    ("step-type-case", '{"output": "x", "steps": [{"step_type": "Tool", "output": "x"}]}',
     "step_type 'Tool' is not a step type read; did you mean 'tool'"),
    ("step-type-plural", '{"output": "x", "steps": [{"step_type": "tools", "output": "x"}]}',
     "did you mean 'tool'"),
    ("step-not-object", '{"output": "x", "steps": ["the tool said x"]}',
     "steps[0]: expected an object"),
]


@pytest.mark.parametrize(("name", "content", "expected"), MISSPELLED, ids=[m[0] for m in MISSPELLED])
def test_a_misspelled_key_is_named_not_ignored(tmp_path: Path, name: str, content: str,
                                               expected: str) -> None:
    """`"step"` for `"steps"` was ignored and graded `0.0 full flagged` with exit 0."""
    path = tmp_path / f"{name}.json"
    path.write_text(content, encoding="utf-8")
    proc = run_cli("score", str(path))
    assert proc.returncode == 2
    assert_one_line_error(proc, expected)


def test_a_tool_step_without_output_is_evidence_unavailable_as_on_a_span(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({
        "output": "The capital of France is Paris. The Eiffel Tower is in Paris.",
        "steps": [{"step_type": "tool", "name": "search"}],
        "threshold": 0.7,
    }), encoding="utf-8")
    data = json.loads(run_cli("score", str(path)).stdout)
    assert (data["grade"], data["rate"], data["below_threshold"]) == ("partial", None, False)
    assert data["reasons"] == ["evidence-unavailable"]
    table = run_cli("score", "--format", "table", str(path)).stdout
    assert "rate -" in table and "evidence-unavailable" in table


def test_settings_from_the_environment_and_the_file_apply(tmp_path: Path, golden_run: dict
                                                          ) -> None:
    """The settings table says `all` shells: `score` read none of them."""
    path = tmp_path / "run.json"
    path.write_text(json.dumps({k: v for k, v in golden_run.items() if k != "threshold"}),
                    encoding="utf-8")
    env = {**os.environ, "OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE": "0.9"}
    proc = subprocess.run([*COMMAND, "score", str(path)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert json.loads(proc.stdout)["threshold"] == 0.9
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"min_claim_grounding_rate": 0.5, "max_claims": 1}))
    data = json.loads(run_cli("score", "--settings-file", str(settings), str(path)).stdout)
    assert data["threshold"] == 0.5 and data["claims_checked"] == 1
    assert data["truncated_by"] == "max_claims"
    env = {**os.environ, "OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RAT": "0.9"}
    proc = subprocess.run([*COMMAND, "score", str(path)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 2
    assert "did you mean OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE" in proc.stderr


def test_one_claim_is_one_claim(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({
        "output": "The capital of France is Paris.",
        "steps": [{"step_type": "tool", "output": "Paris is the capital of France."}],
    }), encoding="utf-8")
    assert "(1/1 claim grounded)" in run_cli("score", "--format", "table", str(path)).stdout


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LYON = {
    "output": "It is 14 C in Lyon with light rain.",
    "steps": [{"step_type": "tool", "output": "Paris, France: 14 C, light rain."}],
}


@pytest.mark.parametrize(
    ("settings_file", "flagged"),
    [("offline-detection.json", True), ("offline-detection-paging.json", False)],
)
def test_the_judge_the_settings_name_judges_the_run_as_on_a_span(
    tmp_path: Path, settings_file: str, flagged: bool
) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(LYON), encoding="utf-8")
    settings = str(EXAMPLES / settings_file)
    result = run_cli("score", "--settings-file", settings, str(path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # the contract finds the words; the verifier does not find the city
    assert data["rate"] == 1.0 and data["below_threshold"] is False
    judge = data["judge"]
    assert (judge["name"], judge["outcome"], judge["rate"]) == ("verifier", "ok", 0.0)
    assert judge["below_threshold"] is flagged and judge["unsupported_kinds"] == ["name"]
    (verdict,) = judge["verdicts"]
    assert verdict["sentence"] == LYON["output"] and verdict["verdict"] == "unsupported"
    assert verdict["explanation"].startswith("not in the evidence: name 'Lyon'")
    table = run_cli("score", "--format", "table", "--settings-file", settings, str(path)).stdout
    assert (
        f"judge verifier (rules-v60): rate 0.0000 (0/1 sentence supported)  flagged "
        f"{'yes' if flagged else 'no'}  kinds name"
    ) in table
    assert "not in the evidence: name 'Lyon'" in table


def test_without_a_judge_score_writes_no_judgement_and_with_nothing_read_the_judge_is_not_asked(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(LYON), encoding="utf-8")
    assert "judge" not in json.loads(run_cli("score", str(path)).stdout)
    unread = {"output": LYON["output"], "steps": [{"step_type": "tool"}]}
    path.write_text(json.dumps(unread), encoding="utf-8")
    data = json.loads(run_cli("score", "--set", "judge=verifier", str(path)).stdout)
    assert data["rate"] is None and data["judge"]["outcome"] == "skipped"
    assert data["judge"]["below_threshold"] is False and data["judge"]["verdicts"] == []


def test_a_judge_that_is_not_installed_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(LYON), encoding="utf-8")
    result = run_cli("score", "--set", "judge=verifierr", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "otel-grounding score: judge: 'verifierr' is not an installed judge "
        "(known: openai, similarity, verifier)"
    ]


def test_version_names_the_version_and_the_kind_of_build() -> None:
    import importlib.metadata

    proc = run_cli("--version")
    assert proc.returncode == 0, proc.stderr
    expected = f"otel-grounding {importlib.metadata.version('otel-grounding')}, pure Python"
    assert proc.stdout.strip() == expected  # the source tree: no module is an extension
