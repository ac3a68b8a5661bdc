"""The relay's evaluation events: a real relay process with `--logs-exporter otlp` pushes one
`gen_ai.evaluation.result` log record per evaluation to a real OTLP/gRPC logs receiver on
loopback (through the SDK's OTLPLogExporter, addressed by OTEL_EXPORTER_OTLP_LOGS_ENDPOINT);
without the flag it pushes none.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2_grpc
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord

from otel_grounding import attributes as A
from otel_grounding.conventions import native
from otel_grounding.relay.otlp import from_any

from chat_server import ChatServer
from relay_kit import (
    OtlpSink,
    ReceivedSpan,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)

WAIT = "0.3"
EVIDENCE = "The Eiffel Tower is 330 metres tall. Tickets cost 29 euros for adults."
#: One claim the evidence holds, one it does not: a rate strictly between 0 and 1.
HALF_GROUNDED = "The Eiffel Tower is 330 metres tall. Its lifts were built by a Swedish firm."
#: The evidence in other words: lexically ungrounded, supported for the scripted judge.
PARAPHRASE = "Adult admission costs 29 EUR."


def attributes(record: LogRecord) -> dict[str, Any]:
    return {kv.key: from_any(kv.value) for kv in record.attributes}


class OtlpLogsSink(logs_service_pb2_grpc.LogsServiceServicer):
    """An OTLP/gRPC logs receiver (the opentelemetry-proto LogsServiceServicer) on 127.0.0.1."""

    def __init__(self) -> None:
        self.requests: list[ExportLogsServiceRequest] = []
        self._lock = threading.Lock()
        self._server = grpc.server(futures.ThreadPoolExecutor(2, thread_name_prefix="logs-sink"))
        logs_service_pb2_grpc.add_LogsServiceServicer_to_server(self, self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def Export(self, request: ExportLogsServiceRequest, context: Any) -> Any:
        with self._lock:
            self.requests.append(request)
        return ExportLogsServiceResponse()

    def records(self) -> list[LogRecord]:
        with self._lock:
            requests = list(self.requests)
        return [
            record
            for request in requests
            for rl in request.resource_logs
            for sl in rl.scope_logs
            for record in sl.log_records
        ]

    def services(self) -> set[str]:
        """The `service.name`s of the resources the records came with."""
        with self._lock:
            requests = list(self.requests)
        return {
            kv.value.string_value
            for request in requests
            for rl in request.resource_logs
            for kv in rl.resource.attributes
            if kv.key == "service.name"
        }

    def wait_for(self, count: int, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.records()) >= count:
                return True
            time.sleep(0.05)
        return len(self.records()) >= count

    def __enter__(self) -> OtlpLogsSink:
        self._server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.stop(0).wait(2)


@pytest.fixture
def sink() -> Iterator[OtlpSink]:
    with OtlpSink() as received:
        yield received


@pytest.fixture
def logs() -> Iterator[OtlpLogsSink]:
    with OtlpLogsSink() as received:
        yield received


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    yield chat
    chat.close()


def logs_env(logs: OtlpLogsSink, batch_delay_ms: int = 100) -> dict[str, str]:
    return {
        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": logs.endpoint,
        "OTEL_BLRP_SCHEDULE_DELAY": str(batch_delay_ms),
    }


def send_run(target: str, output: str) -> bytes:
    """One native run span with one tool step holding EVIDENCE, in one request: its trace id."""
    trace_id, run_id = os.urandom(16), os.urandom(8)
    run = make_span(trace_id, run_id, None, "invoke_agent", {
        native.RUN_ID: trace_id.hex(), native.RUN_OUTPUT: output, native.RUN_TOOL_STEPS: 1,
    })
    tool = make_span(trace_id, os.urandom(8), run_id, "search",
                     {native.STEP_TYPE: "tool", native.STEP_OUTPUT: EVIDENCE})
    grpc_export(target, make_request([tool, run]).SerializeToString())
    return trace_id


def run_span(sink: OtlpSink, trace_id: bytes) -> ReceivedSpan:
    def found() -> list[ReceivedSpan]:
        return [s for s in sink.spans()
                if s.span.trace_id == trace_id and native.RUN_ID in s.attributes]

    assert sink.wait_until(lambda: bool(found())), "the run span never arrived"
    (span,) = found()
    return span


def evaluation(logs: OtlpLogsSink, name: str) -> LogRecord:
    (record,) = [r for r in logs.records() if attributes(r).get(A.EVALUATION_NAME) == name]
    return record


def assert_parented(record: LogRecord, run: ReceivedSpan) -> None:
    assert record.event_name == A.EVALUATION_EVENT
    assert record.trace_id == run.span.trace_id
    assert record.span_id == run.span.span_id
    assert attributes(record)[A.EVALUATION_SCORE_LABEL] == run.attributes[A.GRADE]


def test_the_lexical_evaluation_event_reaches_the_logs_receiver(sink, logs):
    with start_relay(sink.endpoint, "--wait-duration", WAIT, "--logs-exporter", "otlp",
                     env=logs_env(logs)) as relay:
        trace_id = send_run(relay.grpc_target, HALF_GROUNDED)
        run = run_span(sink, trace_id)
        rate = run.attributes[A.RATE]
        assert 0.0 < rate < 1.0
        assert logs.wait_for(1), relay.log_text()
        (record,) = logs.records()  # one run, no judge: one evaluation
        assert attributes(record)[A.EVALUATION_NAME] == A.EVALUATION_LEXICAL
        assert attributes(record)[A.EVALUATION_SCORE_VALUE] == rate
        assert_parented(record, run)
        assert logs.services() == {"otel-grounding-relay"}
        assert relay.terminate() == 0, relay.log_text()


def test_a_run_judged_during_the_drain_has_both_events_exported_before_exit(sink, logs, server):
    server.default = "delay:1.5"
    # a batch delay past the test's end: only the flush at shutdown can export the events
    env = {
        "OTEL_GROUNDING_JUDGE": "openai",
        "OTEL_GROUNDING_JUDGE_BASE_URL": server.url,
        "OTEL_GROUNDING_JUDGE_MODEL": "judge-model",
        **logs_env(logs, batch_delay_ms=60_000),
    }
    with start_relay(sink.endpoint, "--wait-duration", WAIT, "--logs-exporter", "otlp",
                     env=env) as relay:
        trace_id = send_run(relay.grpc_target, PARAPHRASE)
        assert sink.wait_until(lambda: len(server.requests) == 1, 10)  # being judged now
        assert relay.terminate() == 0, relay.log_text()  # it settles in the drain
        assert not [e for e in relay.logs() if e.get("level") == "error"], relay.log_text()
        run = run_span(sink, trace_id)
        assert run.attributes[A.JUDGE_OUTCOME] == "ok"
        assert len(logs.records()) == 2  # the relay exported them before it exited
        lexical = evaluation(logs, A.EVALUATION_LEXICAL)
        judged = evaluation(logs, A.EVALUATION_JUDGE)
        assert attributes(lexical)[A.EVALUATION_SCORE_VALUE] == run.attributes[A.RATE] == 0.0
        assert attributes(judged)[A.EVALUATION_SCORE_VALUE] == run.attributes[A.JUDGE_RATE] == 1.0
        for record in (lexical, judged):
            assert_parented(record, run)
        assert logs.services() == {"otel-grounding-relay"}


def test_without_the_flag_no_evaluation_events_are_exported(sink, logs):
    with start_relay(sink.endpoint, "--wait-duration", WAIT, env=logs_env(logs)) as relay:
        trace_id = send_run(relay.grpc_target, EVIDENCE)
        assert run_span(sink, trace_id).attributes[A.RATE] == 1.0  # the run was graded
        time.sleep(0.5)  # longer than the batch delay the events would have waited
        assert relay.terminate() == 0, relay.log_text()
    assert logs.records() == []
