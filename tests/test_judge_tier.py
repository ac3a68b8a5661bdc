"""The judge tier: admission control, deadlines, flush and shutdown, grades, metrics and the
GenAI evaluation events, with judges given as objects in code (a supported way to add one)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import GroundingSpanExporter
from otel_grounding import attributes as attr
from otel_grounding.config import ConfigError, build_settings, env_values, load_settings
from otel_grounding.conventions import native
from otel_grounding.grade import JUDGE_DECLINED, JUDGE_FAILED
from otel_grounding.judge import (
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    JudgeBadResponse,
    JudgeRequest,
    JudgeVerdict,
    parse_verdicts,
)
from otel_grounding.judgetier import JudgeTier
from otel_grounding.metrics import (
    JUDGE_BUDGET_REFUSALS,
    JUDGE_DURATION,
    JUDGE_PENDING,
    JUDGEMENTS,
    KIND_UNSPECIFIED,
    RUNS_JUDGE_FLAGGED,
    RUNS_JUDGE_UNSUPPORTED,
    RUNS_SCORED,
    GroundingMetrics,
)
from otel_grounding.scoring import score_texts

from chat_server import ChatServer
from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES, Pipeline, attrs


class ScriptedJudge:
    """Says `verdict` for every claim after `delay` seconds; can be held on an event."""

    name = "scripted"
    model = "rules-v2"

    def __init__(
        self,
        verdict: str = SUPPORTED,
        delay: float = 0.0,
        raises: Exception | None = None,
        short: bool = False,
        kinds: tuple[str, ...] = (),
    ) -> None:
        self.verdict = verdict
        self.kinds = kinds
        self.delay = delay
        self.raises = raises
        self.short = short
        self.hold = threading.Event()
        self.hold.set()
        self.calls: list[JudgeRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]:
        with self._lock:
            self.calls.append(request)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            self.hold.wait(30)
            time.sleep(self.delay)
            if self.raises is not None:
                raise self.raises
            count = len(request.claims) - (1 if self.short else 0)
            return [JudgeVerdict(self.verdict, "rule", 0, self.kinds) for _ in range(count)]
        finally:
            with self._lock:
                self.in_flight -= 1


def grades(pipeline: Pipeline) -> list[dict[str, Any]]:
    return [attrs(s) for s in pipeline.spans() if s.name == "run"]


def points(pipeline: Pipeline, name: str) -> dict[tuple[tuple[str, Any], ...], Any]:
    return {tuple(sorted(p.attributes.items())): p for p in pipeline.metric_points(name)}


def test_a_skipped_run_keeps_its_lexical_grade() -> None:
    judge = ScriptedJudge()
    pipeline = Pipeline(judge=judge, judge_sample_rate=0.0)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.GRADE] == "full"
    assert (run[attr.JUDGE_OUTCOME], run[attr.JUDGE_REASON]) == ("skipped", "judge-not-sampled")
    assert not judge.calls


def test_judge_when_flagged_judges_only_flagged_runs() -> None:
    judge = ScriptedJudge()
    pipeline = Pipeline(judge=judge, judge_when="flagged", min_claim_grounding_rate=0.9)
    pipeline.golden_run()  # 2/3 < 0.9: flagged
    with pipeline.run("clean") as span:
        pipeline.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    spans = {s.name: attrs(s) for s in pipeline.spans()}
    assert spans["run"][attr.JUDGE_OUTCOME] == "ok"
    assert spans["clean"][attr.JUDGE_OUTCOME] == "skipped"
    assert spans["clean"][attr.JUDGE_REASON] == "judge-not-wanted"
    assert len(judge.calls) == 1


def test_a_run_with_no_claim_is_not_sent_to_the_judge() -> None:
    judge = ScriptedJudge()
    pipeline = Pipeline(judge=judge)
    with pipeline.run() as span:
        span.set_attribute(native.RUN_OUTPUT, "OK.")
    (run,) = grades(pipeline)
    assert (run[attr.GRADE], run[attr.JUDGE_REASON]) == ("vacuous", "judge-nothing-to-judge")
    assert not judge.calls


def test_the_judge_verdicts_set_the_judge_rate_not_the_contract_rate() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(CONTRADICTED), min_claim_grounding_rate=0.5)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.RATE] == pytest.approx(2 / 3)
    assert run[attr.BELOW_THRESHOLD] is False
    assert (run[attr.JUDGE_RATE], run[attr.JUDGE_BELOW_THRESHOLD]) == (0.0, True)
    assert run[attr.JUDGE_CLAIMS_CONTRADICTED] == 3


@pytest.mark.parametrize(
    ("judge", "reason", "error"),
    [
        (ScriptedJudge(raises=ValueError("boom")), "judge-error", "ValueError"),
        (ScriptedJudge(raises=TimeoutError()), "judge-timeout", "TimeoutError"),
        (ScriptedJudge(short=True), "judge-bad-response", "JudgeBadResponse"),
        (ScriptedJudge(verdict="maybe"), "judge-bad-response", "JudgeBadResponse"),
    ],
)
def test_a_judge_that_does_not_settle_ok_fails_the_run(
    judge: ScriptedJudge, reason: str, error: str
) -> None:
    pipeline = Pipeline(judge=judge)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.GRADE] == "judge-failed"
    assert (run[attr.JUDGE_REASON], run[attr.JUDGE_ERROR_TYPE]) == (reason, error)
    assert attr.JUDGE_CLAIMS_JUDGED not in run
    scored = points(pipeline, RUNS_SCORED)
    assert [dict(k)["grade"] for k in scored] == ["judge-failed"]  # what the alert counts


def test_a_judge_bound_that_cuts_is_reported_like_every_bound() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(), judge_max_claims=1)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.GRADE] == "partial"
    assert run[attr.TRUNCATED_BY] == "judge_max_claims"
    assert run[attr.JUDGE_CLAIMS_JUDGED] == 1
    capped = Pipeline(
        judge=ScriptedJudge(), judge_max_evidence_chars=10, full_coverage_target=True
    )
    capped.golden_run()
    (run,) = grades(capped)
    assert run[attr.GRADE] == "coverage-capped"
    assert run[attr.TRUNCATED_BY] == "judge_max_evidence_chars"


def test_the_budget_declines_once_spent_and_counts_it() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(), judge_rate_per_minute=2)
    for _ in range(3):
        pipeline.golden_run()
        assert pipeline.processor.force_flush(5_000)
    runs = grades(pipeline)
    assert [r[attr.JUDGE_OUTCOME] for r in runs] == ["ok", "ok", "declined"]
    assert runs[2][attr.GRADE] == "judge-declined"
    assert runs[2][attr.JUDGE_REASON] == "judge-budget"
    assert runs[2][attr.RATE] == pytest.approx(2 / 3)  # forwarded with the lexical result
    (refused,) = pipeline.metric_points(JUDGE_BUDGET_REFUSALS)
    assert refused.value == 1


def test_no_waiting_room_declines_for_concurrency() -> None:
    judge = ScriptedJudge()
    judge.hold.clear()
    pipeline = Pipeline(judge=judge, judge_max_concurrency=1, judge_max_pending=0)
    pipeline.golden_run()
    deadline = time.monotonic() + 5
    while not judge.calls and time.monotonic() < deadline:
        time.sleep(0.01)
    pipeline.golden_run()
    deadline = time.monotonic() + 5
    while len(pipeline.exporter.get_finished_spans()) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    judge.hold.set()
    runs = grades(pipeline)
    assert sorted(r[attr.JUDGE_OUTCOME] for r in runs) == ["declined", "ok"]
    (declined,) = [r for r in runs if r[attr.JUDGE_OUTCOME] == "declined"]
    assert declined[attr.JUDGE_REASON] == "judge-concurrency"


def test_a_waiting_admission_waits_for_room_and_not_for_a_stopping_tier() -> None:
    """`score-traces`' admission (`wait=True`): with the only judge thread busy, the second
    run waits for it instead of `judge-concurrency`; a tier shutting down declines at once."""
    judge = ScriptedJudge(delay=0.2)
    settings = build_settings({"judge_max_concurrency": 1, "judge_max_pending": 0}).judge
    tier = JudgeTier(judge, settings, GroundingMetrics(None))
    result = score_texts(GOLDEN_OUTPUT, GOLDEN_SOURCES)
    settled: list[str] = []

    def offer(wait: bool) -> Any:
        return tier.offer(result, GOLDEN_OUTPUT, GOLDEN_SOURCES, (None, None), 1,
                          lambda judgement: settled.append(judgement.outcome), wait=wait)

    assert offer(wait=True) is None
    declined = offer(wait=False)
    assert declined is not None and declined.reason == attr.REASON_JUDGE_CONCURRENCY
    started = time.monotonic()
    assert offer(wait=True) is None  # admitted once the first run settled
    assert time.monotonic() - started >= 0.1
    assert tier.shutdown(5) and settled == ["ok", "ok"]
    started = time.monotonic()
    stopped = offer(wait=True)
    assert stopped is not None and stopped.reason == attr.REASON_JUDGE_QUEUE_FULL
    assert time.monotonic() - started < 1


def test_two_hundred_runs_against_a_300ms_judge_all_leave_once() -> None:
    server = ChatServer(default="delay:0.3")
    try:
        pipeline = Pipeline(
            judge="openai",
            judge_base_url=server.url,
            judge_model="m",
            judge_max_concurrency=4,
            judge_max_pending=16,
            scoring_queue_size=256,
        )
        tier = pipeline.processor.pipeline.judges
        assert tier is not None
        deepest = [0]
        watching = threading.Event()

        def watch() -> None:
            while not watching.is_set():
                deepest[0] = max(deepest[0], tier.pending())
                time.sleep(0.002)

        watcher = threading.Thread(target=watch)
        watcher.start()
        for _ in range(200):
            pipeline.golden_run()
        runs = grades(pipeline)
        watching.set()
        watcher.join()
    finally:
        server.close()
    outcomes = [r[attr.JUDGE_OUTCOME] for r in runs]
    ok, declined = outcomes.count("ok"), outcomes.count("declined")
    assert len(runs) == 200 and ok + declined == 200
    assert ok >= 20 and declined >= 100
    assert {r[attr.JUDGE_REASON] for r in runs if r[attr.JUDGE_OUTCOME] == "declined"} == {
        "judge-queue-full"
    }
    assert len(server.requests) == ok
    assert server.max_in_flight <= 4
    assert deepest[0] <= 20  # 4 in flight + 16 waiting: memory bounded
    assert len(pipeline.exporter.get_finished_spans()) == 600
    counted = points(pipeline, JUDGEMENTS)
    assert counted[(("outcome", "ok"), ("reason", "none"))].value == ok
    assert counted[(("outcome", "declined"), ("reason", "judge-queue-full"))].value == declined
    (latency,) = pipeline.metric_points(JUDGE_DURATION)
    assert latency.count == ok and latency.sum >= 0.3 * ok
    (depth,) = pipeline.metric_points(JUDGE_PENDING)
    assert depth.value == 0  # all settled


def test_force_flush_settles_judgements_still_running_at_its_deadline() -> None:
    judge = ScriptedJudge()
    judge.hold.clear()
    pipeline = Pipeline(judge=judge, judge_timeout=30)
    pipeline.golden_run()
    started = time.perf_counter()
    assert pipeline.processor.force_flush(500) is False
    assert time.perf_counter() - started < 2
    runs = [attrs(s) for s in pipeline.exporter.get_finished_spans() if s.name == "run"]
    assert [(r[attr.GRADE], r[attr.JUDGE_REASON]) for r in runs] == [
        ("judge-failed", "judge-timeout")
    ]
    judge.hold.set()  # the late verdict is dropped: the run left once, counted once
    time.sleep(0.2)
    assert len([s for s in pipeline.exporter.get_finished_spans() if s.name == "run"]) == 1
    counted = {k: p.value for k, p in points(pipeline, JUDGEMENTS).items()}
    assert counted == {(("outcome", "failed"), ("reason", "judge-timeout")): 1}


def test_strip_content_keeps_the_judges_words_off_the_span() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(CONTRADICTED), strip_content=True)
    pipeline.golden_run()
    events = [e for e in pipeline.span("run").events if e.name.startswith("reliability.")]
    assert {e.name for e in events} == {attr.CLAIM_EVENT, attr.JUDGED_CLAIM_EVENT}
    for event in events:
        assert event.attributes[attr.CLAIM_EVENT_JUDGE_VERDICT] == CONTRADICTED
        assert attr.CLAIM_EVENT_JUDGE_EXPLANATION not in event.attributes
        assert attr.CLAIM_EVENT_EXCERPT not in event.attributes


def test_shutdown_with_judgements_in_flight_forwards_each_run_once() -> None:
    judge = ScriptedJudge(delay=0.05)
    judge.hold.clear()
    pipeline = Pipeline(judge=judge, judge_timeout=1.0, judge_max_concurrency=2)
    for _ in range(5):
        pipeline.golden_run()
    started = time.perf_counter()
    pipeline.provider.shutdown()
    assert time.perf_counter() - started < 5
    judge.hold.set()
    runs = [attrs(s) for s in pipeline.exporter.get_finished_spans() if s.name == "run"]
    assert len(runs) == 5
    assert {(r[attr.GRADE], r[attr.JUDGE_REASON]) for r in runs} == {
        ("judge-failed", "judge-timeout")
    }


def test_the_exporter_shell_judges_off_the_export_call() -> None:
    exporter = InMemorySpanExporter()
    grounding = GroundingSpanExporter(exporter, judge=ScriptedJudge(delay=0.2))
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(grounding))
    tracer = provider.get_tracer("t")
    with tracer.start_as_current_span("run") as span:
        with tracer.start_as_current_span("tool", attributes={
            native.STEP_TYPE: native.STEP_TYPE_TOOL, native.STEP_OUTPUT: GOLDEN_SOURCES[0]
        }):
            pass
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
        started = time.perf_counter()
    assert time.perf_counter() - started < 0.15
    assert grounding.force_flush(5_000)
    (run,) = [attrs(s) for s in exporter.get_finished_spans() if s.name == "run"]
    assert run[attr.JUDGE_OUTCOME] == "ok"
    provider.shutdown()


@pytest.fixture
def logs() -> Iterator[tuple[LoggerProvider, InMemoryLogRecordExporter]]:
    exporter = InMemoryLogRecordExporter()
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    yield provider, exporter
    provider.shutdown()


def test_one_evaluation_event_per_evaluation_parented_to_the_run(
    logs: tuple[LoggerProvider, InMemoryLogRecordExporter],
) -> None:
    provider, exporter = logs
    pipeline = Pipeline(judge=ScriptedJudge(UNSUPPORTED), logger_provider=provider)
    pipeline.golden_run()
    run = pipeline.span("run")
    records = [r.log_record for r in exporter.get_finished_logs()]
    assert [r.event_name for r in records] == ["gen_ai.evaluation.result"] * 2
    assert {(r.trace_id, r.span_id) for r in records} == {
        (run.context.trace_id, run.context.span_id)
    }
    lexical, judged = (dict(r.attributes) for r in records)
    assert lexical["gen_ai.evaluation.name"] == "claim_grounding_rate"
    assert lexical["gen_ai.evaluation.score.value"] == pytest.approx(2 / 3)
    assert lexical["gen_ai.evaluation.score.label"] == "full"
    assert "2 of 3" in lexical["gen_ai.evaluation.explanation"]
    assert judged["gen_ai.evaluation.name"] == "claim_grounding_judge"
    assert judged["gen_ai.evaluation.score.value"] == 0.0
    assert "error.type" not in judged


def test_a_failed_judgement_event_names_the_error(
    logs: tuple[LoggerProvider, InMemoryLogRecordExporter],
) -> None:
    provider, exporter = logs
    pipeline = Pipeline(judge=ScriptedJudge(raises=KeyError("x")), logger_provider=provider)
    pipeline.golden_run()
    pipeline.spans()
    judged = dict(exporter.get_finished_logs()[-1].log_record.attributes)
    assert judged["gen_ai.evaluation.score.label"] == "judge-failed"
    assert judged["error.type"] == "KeyError"
    assert "gen_ai.evaluation.score.value" not in judged


def test_parse_verdicts_accepts_only_one_verdict_per_claim() -> None:
    good = {"verdicts": [
        {"claim": 1, "verdict": "contradicted", "explanation": "x" * 999, "evidence": 0},
        {"claim": 0, "verdict": "supported", "explanation": None, "evidence": None},
    ]}
    first, second = parse_verdicts(good, 2, 1)
    assert (first.verdict, second.verdict, second.evidence_index) == (SUPPORTED, CONTRADICTED, 0)
    assert len(second.explanation or "") == 300
    bad = [
        {},
        {"verdicts": [good["verdicts"][0]]},
        {"verdicts": [good["verdicts"][1], good["verdicts"][1]]},
        {"verdicts": [{**good["verdicts"][0], "evidence": 5}, good["verdicts"][1]]},
        {"verdicts": [{**good["verdicts"][0], "claim": True}, good["verdicts"][1]]},
        {"verdicts": [{**good["verdicts"][0], "verdict": "yes"}, good["verdicts"][1]]},
    ]
    for data in bad:
        with pytest.raises(JudgeBadResponse):
            parse_verdicts(data, 2, 1)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("judge_when", "sometimes"),
        ("judge_when", "below:1.5"),
        ("judge_sample_rate", 2),
        ("judge_max_concurrency", 0),
        ("judge_max_pending", -1),
        ("judge_rate_per_minute", 0),
        ("judge_timeout", 0),
    ],
)
def test_bad_judge_settings_are_configuration_errors(key: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=key):
        load_settings({key: value}, environ={})


def test_judge_settings_defaults() -> None:
    judge = load_settings({}, environ={}).judge
    assert (judge.max_pending, judge.max_concurrency, judge.timeout) == (64, 4, 10.0)
    assert (judge.rate_per_minute, judge.sample_rate, judge.when) == (None, 1.0, "always")


def test_the_shipped_alert_counts_the_grades_judged_runs_are_recorded_with() -> None:
    rules = yaml.safe_load(
        (Path(__file__).parent.parent / "collector-config" / "alerts.yml").read_text()
    )
    (alert,) = [
        r for g in rules["groups"] for r in g["rules"]
        if r.get("alert") == "GroundingJudgeUnavailable"
    ]
    (pattern,) = re.findall(r'grade=~"([^"]+)"', alert["expr"])
    assert "runs_scored" in alert["expr"]
    assert set(pattern.split("|")) == {JUDGE_FAILED, JUDGE_DECLINED}
    pipeline = Pipeline(judge=ScriptedJudge(), judge_rate_per_minute=1)
    pipeline.golden_run()
    pipeline.processor.force_flush(5_000)
    pipeline.golden_run()
    scored = {dict(k)["grade"]: p.value for k, p in points(pipeline, RUNS_SCORED).items()}
    assert scored == {"full": 1, JUDGE_DECLINED: 1}


# -- what the judge is asked: every sentence that asserts something ------------------------------
def test_a_short_answer_the_contract_sees_no_claim_in_is_judged() -> None:
    judge = ScriptedJudge(UNSUPPORTED)
    pipeline = Pipeline(judge=judge, min_claim_grounding_rate=0.7)
    with pipeline.run() as span:
        pipeline.tool("The Oberoi Group is a hotel company with its head office in Delhi.")
        span.set_attribute(native.RUN_OUTPUT, "Mumbai")
    (run,) = grades(pipeline)
    assert run[attr.CLAIMS_TOTAL] == 0 and run[attr.GRADE] == "vacuous"  # the contract: as is
    assert [call.claims for call in judge.calls] == [("Mumbai",)]
    assert (run[attr.JUDGE_CLAIMS_JUDGED], run[attr.JUDGE_BELOW_THRESHOLD]) == (1, True)
    assert run[attr.BELOW_THRESHOLD] is False


def test_the_judge_sees_whole_sentences_not_the_contracts_pieces() -> None:
    # The contract splits at every "." ("v3", "3", "2, came out..."); the judge gets the
    # sentence, and a filler sentence ("Done.") asserts nothing.
    judge = ScriptedJudge()
    pipeline = Pipeline(judge=judge)
    answer = (
        "Its last release, v3.3.2, came out on 2026-11-20, and it is licensed under AGPL-3.0. "
        "Done. The project has 214 open issues."
    )
    with pipeline.run() as span:
        pipeline.tool("release v3.3.2 2026-11-20 AGPL-3.0; open issues: 214")
        span.set_attribute(native.RUN_OUTPUT, answer)
    (run,) = grades(pipeline)
    assert judge.calls[0].claims == (
        "Its last release, v3.3.2, came out on 2026-11-20, and it is licensed under AGPL-3.0.",
        "The project has 214 open issues.",
    )
    assert run[attr.JUDGE_CLAIMS_JUDGED] == 2


def test_a_verdict_lands_on_the_claim_event_of_its_one_lexical_claim() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(CONTRADICTED))
    pipeline.golden_run()  # three sentences, three lexical claims, the third ungrounded
    events = [e for e in pipeline.span("run").events if e.name.startswith("reliability.")]
    ungrounded = [e for e in events if e.name == attr.CLAIM_EVENT]
    judged = [e for e in events if e.name == attr.JUDGED_CLAIM_EVENT]
    assert [e.attributes[attr.CLAIM_EVENT_INDEX] for e in ungrounded] == [2]
    assert ungrounded[0].attributes[attr.CLAIM_EVENT_JUDGE_VERDICT] == CONTRADICTED
    assert sorted(e.attributes[attr.CLAIM_EVENT_INDEX] for e in judged) == [0, 1]


@pytest.mark.parametrize(
    ("kinds", "alert_kinds", "flagged"),
    [
        (("name",), [], True),  # empty: any kind
        (("name",), ["number", "date"], False),
        (("name", "date"), ["number", "date"], True),
        ((), ["number"], True),  # a verdict naming no kind always counts
    ],
)
def test_judge_alert_kinds_decide_which_reasons_raise_the_judges_flag(
    kinds: tuple[str, ...], alert_kinds: list[str], flagged: bool
) -> None:
    pipeline = Pipeline(
        judge=ScriptedJudge(UNSUPPORTED, kinds=kinds), judge_min_rate=1.0,
        judge_alert_kinds=alert_kinds,
    )
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.JUDGE_RATE] == 0.0 and run[attr.JUDGE_BELOW_THRESHOLD] is flagged
    assert run.get(attr.JUDGE_UNSUPPORTED_KINDS) == (tuple(sorted(kinds)) or None)
    (point,) = pipeline.metric_points(RUNS_JUDGE_FLAGGED) or [None]
    assert (point is not None and point.value == 1) is flagged


@pytest.mark.parametrize(
    ("verdict", "kinds", "counted"),
    [
        (UNSUPPORTED, ("name", "date"), {"name": 1, "date": 1}),  # once under each kind
        (CONTRADICTED, ("polarity",), {"polarity": 1}),
        (UNSUPPORTED, (), {KIND_UNSPECIFIED: 1}),  # a judge that does not say
        (SUPPORTED, ("name",), {}),
    ],
)
def test_runs_with_unsupported_claims_are_counted_by_reason_kind(
    verdict: str, kinds: tuple[str, ...], counted: dict[str, int]
) -> None:
    """`runs_judge_unsupported{kind}`: whatever `judge_alert_kinds` pages on, the mix of what
    the judge found unsupported can be charted (and alerted on) per kind; the golden run's
    three claims all carry the kinds, and the run counts once under each."""
    pipeline = Pipeline(
        judge=ScriptedJudge(verdict, kinds=kinds), judge_min_rate=1.0,
        judge_alert_kinds=["number"],
    )
    pipeline.golden_run()
    points = pipeline.metric_points(RUNS_JUDGE_UNSUPPORTED)
    assert {p.attributes["kind"]: p.value for p in points} == counted
    assert all(p.attributes["project"] and p.attributes["service"] for p in points)


def test_a_supported_verdicts_kinds_are_not_reported() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(SUPPORTED, kinds=("name",)), judge_min_rate=1.0)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert attr.JUDGE_UNSUPPORTED_KINDS not in run and run[attr.JUDGE_BELOW_THRESHOLD] is False


def test_a_judge_naming_an_unknown_kind_is_a_bad_response() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(UNSUPPORTED, kinds=("vibes",)), judge_min_rate=1.0)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert run[attr.JUDGE_OUTCOME] == attr.JUDGE_OUTCOME_FAILED
    assert run[attr.JUDGE_REASON] == attr.REASON_JUDGE_BAD_RESPONSE


def test_judge_alert_kinds_are_checked_when_configured() -> None:
    with pytest.raises(ConfigError, match=r"'names' is not a reason kind.*did you mean name"):
        build_settings({"judge_alert_kinds": ["names"]})
    with pytest.raises(ConfigError, match="names a kind twice"):
        build_settings({"judge_alert_kinds": ["date", "date"]})
    given = env_values({"OTEL_GROUNDING_JUDGE_ALERT_KINDS": "number, date"})
    assert build_settings(given).judge.alert_kinds == ("number", "date")


def test_judge_min_rate_is_the_judges_own_threshold() -> None:
    pipeline = Pipeline(judge=ScriptedJudge(UNSUPPORTED), judge_min_rate=1.0)
    pipeline.golden_run()
    (run,) = grades(pipeline)
    assert attr.THRESHOLD not in run and run[attr.BELOW_THRESHOLD] is False
    assert run[attr.JUDGE_BELOW_THRESHOLD] is True
    # Without it the run's own threshold applies, and no threshold never flags.
    quiet = Pipeline(judge=ScriptedJudge(UNSUPPORTED))
    quiet.golden_run()
    (run,) = grades(quiet)
    assert run[attr.JUDGE_BELOW_THRESHOLD] is False
