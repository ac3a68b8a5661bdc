"""`score-traces` with a judge: every stored run is judged through the real judge tier, whose
admission waits for room and budget instead of declining (a backfill has no application to
keep fast), runs are reported in the order they were scored, and a judge that hangs still
settles every run at its deadline, never flagged."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from otel_grounding import attributes as attr
from otel_grounding.config import load_settings
from otel_grounding.grade import JUDGE_FAILED
from otel_grounding.judge import SUPPORTED, UNSUPPORTED, JudgeRequest, JudgeVerdict
from otel_grounding.rescore import RescoredRun, Summary, rescore

TOOL = "Paris: 18 degrees Celsius, light rain, wind 12 km/h"
ANSWER = "The weather in Paris is 18 degrees Celsius with light rain."


def _kv(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def _line(spans: list[dict[str, Any]]) -> str:
    return json.dumps({"resourceSpans": [{
        "resource": {"attributes": [_kv("service.name", "stored-agent")]},
        "scopeSpans": [{"scope": {"name": "agent"}, "spans": spans}],
    }]})


def _span(trace: int, span: int, parent: int | None, name: str, attrs: list[Any]) -> dict:
    body: dict[str, Any] = {
        "traceId": f"{trace:032x}", "spanId": f"{span:016x}", "name": name, "kind": 1,
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": str(1700000001000000000 + trace), "attributes": attrs,
    }
    if parent is not None:
        body["parentSpanId"] = f"{parent:016x}"
    return body


def write_runs(path: Path, answers: Sequence[str]) -> Path:
    """One agent trace per answer, OTLP/JSON lines as the Collector's file exporter writes
    them: every tool span in a first line, every run span in a later one."""
    tools = [_span(i + 1, 2, 1, "execute_tool get_weather", [
        _kv("ferrumdeck.step.type", "tool"), _kv("ferrumdeck.step.output", TOOL)])
        for i in range(len(answers))]
    runs = [_span(i + 1, 1, None, f"invoke_agent run-{i}", [_kv("ferrumdeck.run.output", a)])
            for i, a in enumerate(answers)]
    path.write_text(_line(tools) + "\n" + _line(runs) + "\n", encoding="utf-8")
    return path


class SlowJudge:
    """Finds every claim supported after `delay` seconds, or holds until released."""

    name = "slow"
    model = None

    def __init__(self, delay: float = 0.0, verdict: str = SUPPORTED) -> None:
        self.delay = delay
        self.verdict = verdict
        self.release = threading.Event()
        self.release.set()
        self.calls = 0

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]:
        self.calls += 1
        self.release.wait(30)
        time.sleep(self.delay)
        return [JudgeVerdict(self.verdict, "scripted", None, ("name",)) for _ in request.claims]


def run_rescore(
    path: Path, settings: dict[str, Any], judge: Any = None
) -> tuple[list[RescoredRun], Summary]:
    runs: list[RescoredRun] = []
    summary = rescore([str(path)], load_settings(settings, environ={}), runs.append,
                      lambda bad: None, judge=judge)
    return runs, summary


def test_a_full_tier_makes_the_reading_wait_instead_of_declining(tmp_path: Path) -> None:
    """One judge thread and no waiting room: in a live shell eleven of twelve runs would be
    declined (`judge-concurrency`); re-scoring waits, judges all twelve one at a time, and
    reports them in the order it reports them without a judge."""
    path = write_runs(tmp_path / "runs.jsonl", [ANSWER] * 12)
    judge = SlowJudge(delay=0.02)
    runs, summary = run_rescore(
        path, {"judge_max_concurrency": 1, "judge_max_pending": 0}, judge=judge
    )
    lexical, _ = run_rescore(path, {})
    assert [r.run.judge.outcome for r in runs if r.run.judge] == ["ok"] * 12
    assert judge.calls == 12
    assert summary.judge_outcomes == {"ok": 12} and summary.judge_flagged == 0
    assert [r.run.name for r in runs] == [r.run.name for r in lexical]
    assert [r.run.rate for r in runs] == [r.run.rate for r in lexical]


def test_a_spent_budget_waits_for_its_next_token(tmp_path: Path) -> None:
    """`judge_rate_per_minute` 120 saves up 120 judgements and earns 2 a second: the 121st
    run waits about half a second for its token instead of being declined (`judge-budget`)."""
    path = write_runs(tmp_path / "runs.jsonl", [ANSWER] * 121)
    started = time.monotonic()
    runs, summary = run_rescore(path, {"judge_rate_per_minute": 120}, judge=SlowJudge())
    assert summary.judge_outcomes == {"ok": 121}
    assert time.monotonic() - started >= 0.4
    assert all(r.run.judge is not None and r.run.judge.outcome == "ok" for r in runs)


def test_a_hanging_judge_settles_every_run_at_its_deadline_never_flagged(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [ANSWER] * 5)
    judge = SlowJudge(verdict=UNSUPPORTED)
    judge.release.clear()  # every call hangs
    started = time.monotonic()
    try:
        runs, summary = run_rescore(
            path, {"judge_timeout": 0.2, "judge_max_concurrency": 2, "judge_max_pending": 1},
            judge=judge,
        )
    finally:
        judge.release.set()
    assert time.monotonic() - started < 10
    assert summary.judge_outcomes == {"failed": 5}
    assert summary.flagged == 0 and summary.judge_flagged == 0
    assert {(r.run.judge.reason, r.run.judge.below_threshold) for r in runs if r.run.judge} == {
        (attr.REASON_JUDGE_TIMEOUT, False)
    }
    assert [r.run.grade for r in runs] == [JUDGE_FAILED] * 5  # as on a live span
    assert [r.run.rate for r in runs] == [1.0] * 5  # the lexical rate stands


def test_a_judge_flag_counts_as_flagged_and_the_verdicts_are_read_back(tmp_path: Path) -> None:
    path = write_runs(tmp_path / "runs.jsonl", [ANSWER])
    runs, summary = run_rescore(
        path, {"judge_min_rate": 0.7}, judge=SlowJudge(verdict=UNSUPPORTED)
    )
    (run,) = runs
    assert run.run.below_threshold is False  # lexically grounded ...
    assert run.run.judge is not None and run.run.judge.below_threshold  # ... judged not
    assert run.run.judge.unsupported_kinds == ("name",)
    assert [c.explanation for c in run.run.judge.claims] == ["scripted"]
    assert summary.flagged == 1 and summary.judge_flagged == 1
    assert summary.to_dict()["judge_outcomes"] == {"ok": 1}


def test_without_a_judge_the_summary_has_no_judge_counts(tmp_path: Path) -> None:
    _, summary = run_rescore(write_runs(tmp_path / "runs.jsonl", [ANSWER]), {})
    assert "judge_flagged" not in summary.to_dict() and summary.runs == 1
