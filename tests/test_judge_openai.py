"""The `openai` judge through the real `openai` client against a scripted server on loopback."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.config import ConfigError
from otel_grounding.conventions import native

from chat_server import ChatServer
from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES, Pipeline, attrs


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    yield chat
    chat.close()


def judged(server: ChatServer, **options: Any) -> Pipeline:
    options = {
        "judge": "openai",
        "judge_base_url": server.url,
        "judge_model": "judge-model",
        "min_claim_grounding_rate": 0.5,
        **options,
    }
    return Pipeline(**options)


def test_verdicts_are_requested_as_strict_json_and_written_on_the_run(server: ChatServer) -> None:
    server.contradict = {"bananas"}
    pipeline = judged(server)
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    assert run[attr.JUDGE_NAME] == "openai"
    assert run[attr.JUDGE_MODEL] == "judge-model"
    assert run[attr.JUDGE_OUTCOME] == "ok"
    assert run[attr.JUDGE_CLAIMS_JUDGED] == 3
    assert run[attr.JUDGE_CLAIMS_SUPPORTED] == 2
    assert run[attr.JUDGE_CLAIMS_CONTRADICTED] == 1
    assert run[attr.JUDGE_RATE] == pytest.approx(2 / 3)
    assert run[attr.JUDGE_BELOW_THRESHOLD] is False
    assert run[attr.GRADE] == "full"
    assert run[attr.RATE] == pytest.approx(2 / 3)  # the lexical contract is unchanged
    (request,) = server.requests
    assert request["model"] == "judge-model"
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["strict"] is True
    content = request["messages"][-1]["content"]
    assert GOLDEN_SOURCES[0] in content and "Bananas are purple" in content
    (event,) = [e for e in pipeline.span("run").events if e.name == attr.CLAIM_EVENT]
    assert event.attributes[attr.CLAIM_EVENT_JUDGE_VERDICT] == "contradicted"
    assert event.attributes[attr.CLAIM_EVENT_JUDGE_EXPLANATION] == "scripted contradicted"


def test_a_grounded_looking_claim_the_judge_contradicts_gets_its_own_event(
    server: ChatServer,
) -> None:
    server.contradict = {"eiffel"}
    pipeline = judged(server)
    pipeline.golden_run()
    span = pipeline.span("run")
    (event,) = [e for e in span.events if e.name == attr.JUDGED_CLAIM_EVENT]
    assert event.attributes[attr.CLAIM_EVENT_INDEX] == 1
    assert event.attributes[attr.CLAIM_EVENT_JUDGE_VERDICT] == "contradicted"
    assert "Eiffel" in event.attributes[attr.CLAIM_EVENT_EXCERPT]


def test_the_run_does_not_wait_on_the_application_thread(server: ChatServer) -> None:
    server.default = "delay:0.4"
    pipeline = judged(server)
    with pipeline.run() as span:
        pipeline.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
        started = time.perf_counter()
    ended = time.perf_counter() - started
    assert ended < 0.2
    assert attrs(pipeline.span("run"))[attr.JUDGE_OUTCOME] == "ok"
    assert attrs(pipeline.span("run"))[attr.JUDGE_DURATION_MS] >= 350


def test_one_retry_on_a_server_error_then_ok(server: ChatServer) -> None:
    server.script.extend(["status:500"])
    pipeline = judged(server)
    pipeline.golden_run()
    assert attrs(pipeline.span("run"))[attr.JUDGE_OUTCOME] == "ok"
    assert len(server.requests) == 2


def test_two_server_errors_fail_the_judgement_without_a_retry_storm(server: ChatServer) -> None:
    server.default = "status:503"
    pipeline = judged(server)
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    assert run[attr.GRADE] == "judge-failed"
    assert run[attr.JUDGE_OUTCOME] == "failed"
    assert run[attr.JUDGE_REASON] == "judge-error"
    assert run[attr.JUDGE_ERROR_TYPE] == "InternalServerError"
    assert run[attr.RATE] == pytest.approx(2 / 3)  # the lexical result still stands
    assert attr.JUDGE_RATE not in run
    assert len(server.requests) == 2


def test_a_client_error_is_not_retried(server: ChatServer) -> None:
    server.default = "status:400"
    pipeline = judged(server)
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    assert (run[attr.JUDGE_REASON], run[attr.JUDGE_ERROR_TYPE]) == ("judge-error", "BadRequestError")
    assert len(server.requests) == 1


@pytest.mark.parametrize("mode", ["garbage", "truncated", "incomplete", "length", "body-garbage"])
def test_unreadable_answers_are_bad_responses(server: ChatServer, mode: str) -> None:
    server.default = mode
    pipeline = judged(server)
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    assert run[attr.GRADE] == "judge-failed"
    assert run[attr.JUDGE_REASON] == "judge-bad-response", run.get(attr.JUDGE_ERROR_TYPE)
    assert run[attr.JUDGE_ERROR_TYPE] == "JudgeBadResponse"


def test_a_hanging_server_times_out_at_the_deadline(server: ChatServer) -> None:
    server.default = "hang"
    pipeline = judged(server, judge_timeout=0.5)
    started = time.perf_counter()
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    waited = time.perf_counter() - started
    assert run[attr.GRADE] == "judge-failed"
    assert run[attr.JUDGE_REASON] == "judge-timeout"
    assert 0.4 < waited < 3.0
    assert len(pipeline.exporter.get_finished_spans()) == 3  # run + 2 tools, once each


def test_the_key_file_is_sent_as_the_bearer_token(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    key = tmp_path / "key"
    key.write_text("sk-from-file\n")
    pipeline = judged(server, judge_api_key_file=str(key))
    pipeline.golden_run()
    assert attrs(pipeline.span("run"))[attr.JUDGE_OUTCOME] == "ok"
    assert server.headers[0]["authorization"] == "Bearer sk-from-file"


def test_configuration_errors_name_the_setting(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="judge_model"):
        Pipeline(judge="openai", judge_base_url=server.url)
    with pytest.raises(ConfigError, match="judge_api_key_file"):
        Pipeline(judge="openai", judge_model="m")
    with pytest.raises(ConfigError, match="judge_api_key_file"):
        Pipeline(judge="openai", judge_model="m", judge_api_key_file=str(tmp_path / "none"))
    with pytest.raises(ConfigError, match="scoring_mode"):
        judged(server, scoring_mode="inline")
    with pytest.raises(ConfigError, match="not an installed judge"):
        Pipeline(judge="no-such-judge")


def test_the_judge_is_configured_from_the_environment(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_GROUNDING_JUDGE", "openai")
    monkeypatch.setenv("OTEL_GROUNDING_JUDGE_BASE_URL", server.url)
    monkeypatch.setenv("OTEL_GROUNDING_JUDGE_MODEL", "env-model")
    monkeypatch.setenv("OTEL_GROUNDING_JUDGE_WHEN", "below:0.9")
    pipeline = Pipeline()
    pipeline.golden_run()
    run = attrs(pipeline.span("run"))
    assert (run[attr.JUDGE_OUTCOME], run[attr.JUDGE_MODEL]) == ("ok", "env-model")


def test_the_judges_own_model_calls_are_never_traced_while_the_applications_are(
    server: ChatServer,
) -> None:
    # The real thing: OpenInference's OpenAI instrumentation on the application's provider
    # traces every `openai` client in the process, the judge's included, unless the call runs
    # with instrumentation suppressed (as the judge threads do).
    import openai
    from openinference.instrumentation.openai import OpenAIInstrumentor

    pipeline = judged(server)
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=pipeline.provider)
    try:
        app = openai.OpenAI(base_url=server.url, api_key="unused", max_retries=0)
        question = json.dumps({"claims": [], "evidence": []})
        app.chat.completions.create(
            model="app-model", messages=[{"role": "user", "content": question}]
        )
        pipeline.golden_run()
        spans = pipeline.spans()  # after the flush: the run is judged
    finally:
        instrumentor.uninstrument()
    assert sorted(request["model"] for request in server.requests) == ["app-model", "judge-model"]
    (run,) = [s for s in spans if s.name == "run"]
    assert attrs(run)[attr.JUDGE_OUTCOME] == "ok"
    traced = [s for s in spans if s.name not in ("run", "tool")]
    assert [attrs(s).get("llm.model_name") for s in traced] == ["app-model"], [s.name for s in traced]
