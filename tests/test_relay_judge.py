"""The relay with a judge: a real relay process, the `openai` judge through the real client
against a scripted OpenAI-compatible server on loopback, an OTLP sink as the next hop.

Judge settings reach the relay the way an operator gives them: OTEL_GROUNDING_JUDGE_* variables.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from otel_grounding import attributes as A
from otel_grounding.conventions import native

from chat_server import ChatServer
from relay_kit import (
    OtlpSink,
    ReceivedSpan,
    RelayProcess,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)

WAIT = 0.3
EVIDENCE = (
    "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair.",
    "Opening hours: 9:00 to 23:45 every day. Tickets cost 29 euros for adults.",
)
#: Says what the evidence says in other words: the lexical rate finds no support for it.
PARAPHRASE = "Adult admission costs 29 EUR and it opens at nine each morning."


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    yield chat
    chat.close()


@pytest.fixture
def sink() -> Iterator[OtlpSink]:
    with OtlpSink() as received:
        yield received


def judge_env(server: ChatServer, **settings: Any) -> dict[str, str]:
    env = {
        "OTEL_GROUNDING_JUDGE": "openai",
        "OTEL_GROUNDING_JUDGE_BASE_URL": server.url,
        "OTEL_GROUNDING_JUDGE_MODEL": "judge-model",
    }
    env.update({f"OTEL_GROUNDING_{key.upper()}": str(value) for key, value in settings.items()})
    return env


def relay_with(sink: OtlpSink, server: ChatServer, *args: str, **settings: Any) -> RelayProcess:
    return start_relay(
        sink.endpoint, "--wait-duration", str(WAIT), "--min-claim-grounding-rate", "0.5", *args,
        env=judge_env(server, **settings),
    )


def agent_trace(output: str, sources: tuple[str, ...] = EVIDENCE) -> tuple[bytes, list[Any]]:
    """One native run span with its tool steps (one request): its trace id and spans."""
    trace_id, run_id = os.urandom(16), os.urandom(8)
    run = make_span(trace_id, run_id, None, "invoke_agent", {
        native.RUN_ID: trace_id.hex(), native.RUN_OUTPUT: output,
        native.RUN_TOOL_STEPS: len(sources),
    })
    tools = [
        make_span(trace_id, os.urandom(8), run_id, f"tool_{i}",
                  {native.STEP_TYPE: "tool", native.STEP_OUTPUT: text})
        for i, text in enumerate(sources)
    ]
    return trace_id, [*tools, run]


def send(relay: RelayProcess, *traces: tuple[bytes, list[Any]]) -> None:
    spans = [span for _, trace in traces for span in trace]
    grpc_export(relay.grpc_target, make_request(spans).SerializeToString())


def runs(sink: OtlpSink) -> list[ReceivedSpan]:
    return [s for s in sink.spans() if native.RUN_ID in s.attributes]


def run_of(sink: OtlpSink, trace_id: bytes, timeout: float = 10.0) -> dict[str, Any]:
    def found() -> list[ReceivedSpan]:
        return [s for s in runs(sink) if s.span.trace_id == trace_id]

    assert sink.wait_until(lambda: bool(found()), timeout), "the run span never arrived"
    (run,) = found()
    return run.attributes


def stopped_cleanly(relay: RelayProcess) -> None:
    assert relay.terminate() == 0, relay.log_text()
    crashes = [e for e in relay.logs() if "exception" in e or e.get("level") == "error"]
    assert not crashes, crashes


def test_a_paraphrase_is_judged_supported_on_the_span_the_next_hop_receives(sink, server):
    with relay_with(sink, server) as relay:
        trace_id, trace = agent_trace(PARAPHRASE)
        send(relay, (trace_id, trace))
        run = run_of(sink, trace_id)
        assert run[A.RATE] == 0.0 and run[A.BELOW_THRESHOLD] is True  # lexical: ungrounded
        assert run[A.JUDGE_NAME] == "openai" and run[A.JUDGE_MODEL] == "judge-model"
        assert run[A.JUDGE_OUTCOME] == "ok"
        assert run[A.JUDGE_CLAIMS_JUDGED] == 1 and run[A.JUDGE_CLAIMS_SUPPORTED] == 1
        assert run[A.JUDGE_RATE] == 1.0 and run[A.JUDGE_BELOW_THRESHOLD] is False
        assert run[A.JUDGE_DURATION_MS] > 0
        assert run[A.GRADE] == "full"
        (request,) = server.requests  # the evidence the relay buffered went to the judge
        content = request["messages"][-1]["content"]
        assert "29 euros" in content and "Adult admission" in content
        assert sink.wait_for_spans(len(trace))  # the tool steps flowed as before
        status, body = relay.health_get("/healthz")
        assert status == 200 and body["judge_pending"] == 0
        assert relay.metric("otel_grounding.judge.judgements") == 1
        stopped_cleanly(relay)


def test_without_a_judge_the_status_says_so_and_nothing_is_judged(sink, server):
    with start_relay(sink.endpoint, "--wait-duration", str(WAIT)) as relay:
        trace_id, trace = agent_trace(PARAPHRASE)
        send(relay, (trace_id, trace))
        run = run_of(sink, trace_id)
        assert A.JUDGE_OUTCOME not in run and run[A.GRADE] == "full"
        assert relay.health_get("/healthz")[1]["judge_pending"] is None
        assert not server.requests
        stopped_cleanly(relay)


@pytest.mark.parametrize(
    ("script", "reason", "error_type"),
    [
        (["status:500", "status:500"], A.REASON_JUDGE_ERROR, "InternalServerError"),
        (["garbage"], A.REASON_JUDGE_BAD_RESPONSE, "JudgeBadResponse"),
        (["truncated"], A.REASON_JUDGE_BAD_RESPONSE, "JudgeBadResponse"),
    ],
)
def test_a_judge_that_fails_grades_the_run_judge_failed_with_the_lexical_rate_kept(
    sink, server, script, reason, error_type
):
    server.script.extend(script)
    with relay_with(sink, server) as relay:
        trace_id, trace = agent_trace(EVIDENCE[0])
        send(relay, (trace_id, trace))
        run = run_of(sink, trace_id)
        assert run[A.GRADE] == "judge-failed"
        assert run[A.JUDGE_OUTCOME] == "failed" and run[A.JUDGE_REASON] == reason
        assert run[A.JUDGE_ERROR_TYPE] == error_type
        assert run[A.RATE] == 1.0 and run[A.CLAIMS_CHECKED] == 2  # the lexical result stays
        assert A.JUDGE_RATE not in run
        assert len(server.requests) == len(script)  # one retry on a 500, none on garbage
        stopped_cleanly(relay)


def test_admission_under_load_every_run_leaves_once_ok_or_declined(sink, server):
    runs_sent = 60
    server.default = "delay:0.3"
    with relay_with(sink, server, judge_max_concurrency=2, judge_max_pending=4,
                    judge_timeout=20) as relay:
        traces = [agent_trace(EVIDENCE[1]) for _ in range(runs_sent)]
        for start in range(0, runs_sent, 20):  # three requests, their runs due together
            send(relay, *traces[start:start + 20])
        total = runs_sent * (1 + len(EVIDENCE))
        assert sink.wait_for_spans(total, timeout=30), f"{sink.span_count} of {total} spans"
        time.sleep(0.3)
        received = runs(sink)
        assert len(received) == runs_sent
        assert len({r.span.span_id for r in received}) == runs_sent  # each exactly once
        assert {r.span.trace_id for r in received} == {t for t, _ in traces}
        outcomes = Counter(r.attributes[A.JUDGE_OUTCOME] for r in received)
        assert set(outcomes) == {"ok", "declined"}, outcomes
        assert outcomes["ok"] + outcomes["declined"] == runs_sent
        assert outcomes["ok"] == len(server.requests) >= 2
        declined = [r.attributes for r in received if r.attributes[A.JUDGE_OUTCOME] == "declined"]
        assert {d[A.GRADE] for d in declined} == {"judge-declined"}
        assert {d[A.JUDGE_REASON] for d in declined} == {A.REASON_JUDGE_QUEUE_FULL}
        assert all(d[A.RATE] == 1.0 for d in declined)  # forwarded with the lexical result
        assert server.max_in_flight <= 2
        status = relay.health_get("/healthz")[1]
        assert status["judge_pending"] == 0 and status["queue_spans"] == 0
        assert status["queue_bytes"] == 0  # the byte accounting of judged runs settled exactly
        stopped_cleanly(relay)


def test_sigterm_with_judgements_in_flight_forwards_every_run_within_the_drain_deadline(
    sink, server
):
    runs_sent, drain = 6, 3.0
    server.default = "hang"
    with relay_with(sink, server, "--drain-timeout", str(drain), judge_max_concurrency=2,
                    judge_max_pending=8, judge_timeout=60) as relay:
        traces = [agent_trace(EVIDENCE[1]) for _ in range(runs_sent)]
        send(relay, *traces)
        assert sink.wait_until(lambda: len(server.requests) == 2, 10)  # two calls hang
        assert relay.health_get("/healthz")[1]["judge_pending"] == runs_sent
        assert not runs(sink)  # none forwarded before it is judged
        started = time.monotonic()
        assert relay.terminate() == 0, relay.log_text()
        elapsed = time.monotonic() - started
        # within the drain deadline, not the judge's 60 s (slack for a loaded machine)
        assert elapsed < drain + 5.0, elapsed
        received = runs(sink)
        assert len(received) == runs_sent and len({r.span.span_id for r in received}) == runs_sent
        for run in received:
            attributes = run.attributes
            assert attributes[A.GRADE] == "judge-failed"
            assert attributes[A.JUDGE_REASON] == A.REASON_JUDGE_TIMEOUT
            assert attributes[A.RATE] == 1.0
        assert sink.span_count == runs_sent * (1 + len(EVIDENCE))
        (stopped,) = [e for e in relay.logs() if e.get("msg") == "relay: stopped"]
        assert stopped["undelivered"] == 0 and stopped["judgements_cut_at_drain"] is True
        assert stopped["exported"] == sink.span_count


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"OTEL_GROUNDING_JUDGE": "no-such-judge"}, "is not an installed judge"),
        ({"OTEL_GROUNDING_JUDGE": "openai", "OTEL_GROUNDING_JUDGE_BASE_URL": "http://127.0.0.1:9/v1"},
         "judge_model"),
        ({"OTEL_GROUNDING_JUDGE": "openai", "OTEL_GROUNDING_JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
          "OTEL_GROUNDING_JUDGE_MODEL": "m", "OTEL_GROUNDING_SCORING_MODE": "inline"},
         "scoring_mode"),
    ],
)
def test_a_judge_misconfigured_is_refused_at_start(sink, settings, message):
    with pytest.raises(RuntimeError, match="exited with 2") as refused:
        start_relay(sink.endpoint, env=settings)
    assert message in str(refused.value)


def test_the_offline_similarity_judge_runs_in_the_relay(sink):
    """The bundled model through the relay: the paraphrase is supported, an unrelated
    sentence is not (both read ungrounded lexically)."""
    env = {"OTEL_GROUNDING_JUDGE": "similarity", "OTEL_GROUNDING_JUDGE_TIMEOUT": "30"}
    with start_relay(sink.endpoint, "--wait-duration", str(WAIT), "--min-claim-grounding-rate",
                     "0.5", env=env, timeout=60) as relay:
        paraphrase = agent_trace(PARAPHRASE)
        unrelated = agent_trace("The company reported record profits from its cloud division.")
        send(relay, paraphrase, unrelated)
        supported, not_supported = run_of(sink, paraphrase[0], 40), run_of(sink, unrelated[0], 40)
        for run in (supported, not_supported):
            assert run[A.RATE] == 0.0 and run[A.JUDGE_OUTCOME] == "ok"
            assert run[A.JUDGE_NAME] == "similarity" and "e5" in run[A.JUDGE_MODEL]
        assert supported[A.JUDGE_CLAIMS_SUPPORTED] == 1 and supported[A.JUDGE_RATE] == 1.0
        assert not_supported[A.JUDGE_CLAIMS_SUPPORTED] == 0
        assert not_supported[A.JUDGE_BELOW_THRESHOLD] is True
        stopped_cleanly(relay)


def test_the_verifiers_reason_kinds_reach_the_next_hop_and_route_its_flag(sink):
    """`judge_alert_kinds` given as the operator gives it (a comma list in the environment):
    a swapped name is reported and not paged on, a swapped number is paged on."""
    env = {"OTEL_GROUNDING_JUDGE": "verifier", "OTEL_GROUNDING_JUDGE_MIN_RATE": "0.7",
           "OTEL_GROUNDING_JUDGE_ALERT_KINDS": "date, number"}
    with start_relay(sink.endpoint, "--wait-duration", str(WAIT), env=env) as relay:
        grounded = agent_trace("The Eiffel Tower is 330 metres tall and was completed in 1889.")
        name = agent_trace("The Blackpool Tower is 330 metres tall and was completed in 1889.")
        number = agent_trace("The Eiffel Tower is 330 metres tall and was completed in 1887.")
        send(relay, grounded, name, number)
        grounded, name, number = (run_of(sink, t[0]) for t in (grounded, name, number))
        assert grounded[A.JUDGE_RATE] == 1.0 and A.JUDGE_UNSUPPORTED_KINDS not in grounded
        assert name[A.JUDGE_RATE] == 0.0 and list(name[A.JUDGE_UNSUPPORTED_KINDS]) == ["name"]
        assert name[A.JUDGE_BELOW_THRESHOLD] is False
        assert list(number[A.JUDGE_UNSUPPORTED_KINDS]) == ["number"]
        assert number[A.JUDGE_BELOW_THRESHOLD] is True
        stopped_cleanly(relay)


def test_a_persisted_request_is_kept_until_its_last_judged_run_is_delivered(sink, server, tmp_path):
    queue_dir = tmp_path / "queue"
    server.default = "delay:1.0"
    with relay_with(sink, server, "--queue-dir", str(queue_dir)) as relay:
        traces = [agent_trace(EVIDENCE[1]) for _ in range(3)]
        send(relay, *traces)
        assert sink.wait_until(lambda: len(server.requests) == 3, 10)  # judged now
        assert sink.span_count == 3 * len(EVIDENCE)  # the tool steps went on at once
        assert relay.health_get("/healthz")[1]["judge_pending"] == 3
        assert os.listdir(queue_dir) != []  # its runs are still being judged: kept
        assert sink.wait_until(lambda: len(runs(sink)) == 3, 15)
        assert {r.attributes[A.JUDGE_OUTCOME] for r in runs(sink)} == {"ok"}
        assert sink.wait_until(lambda: os.listdir(queue_dir) == [], 5)  # all delivered: gone
        stopped_cleanly(relay)
