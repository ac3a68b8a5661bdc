"""The OTLP grounding relay, end to end: clients it did not write -> relay subprocess -> sink.

The apps here use the Python SDK's own OTLP exporters and no grounding processor; the relay
runs as `python -m otel_grounding.relay` on ephemeral loopback ports and forwards to an OTLP
sink built on opentelemetry-proto's TraceServiceServicer.
"""

from __future__ import annotations

import gzip
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter

from otel_grounding import attributes as A
from otel_grounding.conventions import native
from otel_grounding.relay.otlp import encode_json

from relay_kit import (
    OtlpSink,
    ReceivedSpan,
    SinkBehaviour,
    attributes_first,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)
from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES

WAIT = 0.6


@pytest.fixture(scope="module")
def relay(sink: OtlpSink) -> Iterator[Any]:
    process = start_relay(
        sink.endpoint, "--wait-duration", str(WAIT), "--min-claim-grounding-rate", "0.7"
    )
    with process:
        yield process
        assert process.terminate() == 0
        crashes = [e for e in process.logs() if "exception" in e or e.get("level") == "error"]
        assert not crashes, crashes  # nothing raised inside the relay


def by_trace(sink: OtlpSink, trace_id: bytes) -> list[ReceivedSpan]:
    return [s for s in sink.spans() if s.span.trace_id == trace_id]


def wait_trace(sink: OtlpSink, trace_id: bytes, count: int, timeout: float = 8.0) -> list[ReceivedSpan]:
    assert sink.wait_until(lambda: len(by_trace(sink, trace_id)) >= count, timeout), (
        f"only {len(by_trace(sink, trace_id))} of {count} spans reached the sink"
    )
    return by_trace(sink, trace_id)


def run_of(spans: list[ReceivedSpan]) -> ReceivedSpan:
    (run,) = [s for s in spans if native.RUN_ID in s.attributes]
    return run


def agent_app(exporter: SpanExporter, run_id: str, tool_outputs: tuple[str, ...], output: str,
              declared: int | None = None) -> bytes:
    """An app WITHOUT the grounding processor: native run span, an LLM step, tool spans.

    SimpleSpanProcessor exports every span in its own request: the tools and the run reach
    the relay in different requests. Returns the trace id.
    """
    provider = TracerProvider(resource=Resource.create({"service.name": "py-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("agent")
    attributes: dict[str, Any] = {native.RUN_ID: run_id, native.PROJECT_ID: "acme"}
    if declared is not None:
        attributes[native.RUN_TOOL_STEPS] = declared
    with tracer.start_as_current_span("invoke_agent", attributes=attributes) as run:
        with tracer.start_as_current_span("chat", attributes={native.STEP_TYPE: "llm"}):
            pass
        for number, text in enumerate(tool_outputs):
            with tracer.start_as_current_span(
                f"tool_{number}",
                attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: text, "app.keep": number},
            ):
                pass
        run.set_attribute(native.RUN_OUTPUT, output)
        trace_id = run.get_span_context().trace_id.to_bytes(16, "big")
    provider.shutdown()
    return trace_id


@pytest.mark.parametrize("transport", ["grpc", "http/protobuf"])
def test_sdk_exporters_get_the_run_enriched_at_the_sink(sink, relay, transport):
    exporter = (
        GrpcExporter(endpoint=relay.grpc_target, insecure=True)
        if transport == "grpc" else HttpExporter(endpoint=relay.http_url)
    )
    trace_id = agent_app(exporter, f"golden-{transport}", GOLDEN_SOURCES, GOLDEN_OUTPUT, declared=2)
    spans = wait_trace(sink, trace_id, 4)
    time.sleep(0.2)
    spans = by_trace(sink, trace_id)
    assert len(spans) == 4 and len({s.span.span_id for s in spans}) == 4  # each exactly once
    run = run_of(spans)
    attrs = run.attributes
    assert attrs[A.CLAIMS_TOTAL] == 3 and attrs[A.CLAIMS_GROUNDED] == 2
    assert attrs[A.CLAIMS_CHECKED] == 3
    assert attrs[A.RATE] == pytest.approx(2 / 3)
    assert attrs[A.BELOW_THRESHOLD] is True
    assert attrs[A.THRESHOLD] == 0.7
    assert attrs[A.GRADE] == "full"
    assert attrs[A.EVIDENCE_SOURCES] == 2
    assert A.COVERAGE_REASON not in attrs
    # the application's own attributes and identity are untouched
    assert attrs[native.RUN_OUTPUT] == GOLDEN_OUTPUT and attrs[native.PROJECT_ID] == "acme"
    assert run.span.name == "invoke_agent" and run.resource["service.name"] == "py-agent"
    flagged = [e for e in run.events if e[0] == A.FLAGGED_EVENT]
    assert len(flagged) == 1
    name, fields, timestamp = flagged[0]
    assert fields[A.FLAGGED_EVENT_RATE] == pytest.approx(2 / 3)
    assert fields[A.FLAGGED_EVENT_THRESHOLD] == 0.7
    assert fields[A.FLAGGED_EVENT_PROJECT] == "acme"
    assert timestamp == run.span.end_time_unix_nano
    # tool and LLM spans are forwarded unchanged
    for span in spans:
        if span.span.span_id != run.span.span_id:
            assert not any(k.startswith(A.PREFIX) for k in span.attributes)
    tools = [s for s in spans if s.attributes.get(native.STEP_TYPE) == "tool"]
    assert sorted(s.attributes["app.keep"] for s in tools) == [0, 1]


def _ids(n: int) -> tuple[bytes, list[bytes]]:
    import os

    return os.urandom(16), [os.urandom(8) for _ in range(n)]


def post(url: str, body: bytes, content_type: str = "application/x-protobuf",
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_spans_of_one_trace_in_any_order_across_requests_and_encodings(sink, relay):
    """An intermediate span arrives first (before any tool), the run before its tool; the tool
    in a gzip OTLP/JSON request. The run waits and is scored with its full evidence."""
    trace_id, (run_id, step_id, tool_id) = _ids(3)
    step = make_span(trace_id, step_id, run_id, "agent step")  # no convention: just a link
    run = make_span(trace_id, run_id, None, "invoke_agent", {
        native.RUN_ID: "ordered", native.RUN_OUTPUT: GOLDEN_OUTPUT, native.RUN_TOOL_STEPS: 1})
    tool = make_span(trace_id, tool_id, step_id, "tool", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: " ".join(GOLDEN_SOURCES)})
    grpc_export(relay.grpc_target, make_request([step]).SerializeToString())
    status, _, _ = post(relay.http_url, make_request([run]).SerializeToString())
    assert status == 200
    body = gzip.compress(encode_json(make_request([tool])))
    assert tool_id.hex() in gzip.decompress(body).decode()  # OTLP/JSON: hex ids
    status, headers, reply = post(relay.http_url, body, "application/json",
                                  {"Content-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert json.loads(reply) == {}
    spans = wait_trace(sink, trace_id, 3)
    attrs = run_of(spans).attributes
    assert attrs[A.GRADE] == "full", attrs
    assert attrs[A.EVIDENCE_SOURCES] == 1
    assert attrs[A.CLAIMS_GROUNDED] == 2
    assert A.COVERAGE_REASON not in attrs


def test_run_scored_before_its_declared_tool_steps_arrived_grades_partial(sink, relay):
    trace_id, (run_id, tool_id, late_id) = _ids(3)
    run = make_span(trace_id, run_id, None, "invoke_agent", {
        native.RUN_ID: "early", native.RUN_OUTPUT: GOLDEN_OUTPUT, native.RUN_TOOL_STEPS: 2})
    tool = make_span(trace_id, tool_id, run_id, "tool", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: GOLDEN_SOURCES[0]})
    late = make_span(trace_id, late_id, run_id, "tool", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: GOLDEN_SOURCES[1]})
    started = time.monotonic()
    grpc_export(relay.grpc_target, make_request([tool, run]).SerializeToString())
    spans = wait_trace(sink, trace_id, 2)
    assert time.monotonic() - started >= WAIT * 0.9  # the run waited for late evidence
    attrs = run_of(spans).attributes
    assert attrs[A.GRADE] == "partial"
    assert A.REASON_TOOL_STEPS_MISSING in attrs[A.COVERAGE_REASON]
    grpc_export(relay.grpc_target, make_request([late]).SerializeToString())  # too late
    spans = wait_trace(sink, trace_id, 3)
    time.sleep(0.3)
    assert len([s for s in by_trace(sink, trace_id) if A.GRADE in s.attributes]) == 1  # once


def test_non_run_spans_are_not_held_and_sigterm_drains_held_runs():
    with OtlpSink() as sink, start_relay(sink.endpoint, "--wait-duration", "30") as relay:
        trace_id, (run_id, tool_id) = _ids(2)
        tool = make_span(trace_id, tool_id, run_id, "tool", {
            native.STEP_TYPE: "tool", native.STEP_OUTPUT: " ".join(GOLDEN_SOURCES)})
        run = make_span(trace_id, run_id, None, "invoke_agent", {
            native.RUN_ID: "drained", native.RUN_OUTPUT: GOLDEN_OUTPUT})
        started = time.monotonic()
        grpc_export(relay.grpc_target, make_request([tool, run]).SerializeToString())
        spans = wait_trace(sink, trace_id, 1, timeout=3)
        assert time.monotonic() - started < 3  # forwarded without waiting for the run's 30 s
        assert [s.span.name for s in spans] == ["tool"]
        assert relay.health_get("/healthz")[1]["runs_held"] == 1
        started = time.monotonic()
        assert relay.terminate() == 0
        assert time.monotonic() - started < 5
        attrs = run_of(by_trace(sink, trace_id)).attributes
        assert attrs[A.GRADE] == "full" and attrs[A.EVIDENCE_SOURCES] == 1  # scored at drain
        messages = [e.get("msg") for e in relay.logs()]
        assert "relay: draining" in messages and "relay: stopped" in messages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_backpressure_refuses_when_full_and_drops_nothing_it_accepted():
    """Next hop down: the queue fills, further requests get 503 + Retry-After / UNAVAILABLE
    with RetryInfo; once the next hop is back, exactly the accepted spans arrive."""
    port = free_port()
    relay = start_relay(
        f"http://127.0.0.1:{port}", "--queue-max-spans", "10", "--retry-initial", "0.1",
        "--retry-max-interval", "0.3", "--retry-max-elapsed", "0", "--retry-after", "2",
    )
    with relay:
        accepted: list[bytes] = []
        refused = 0
        for i in range(4):
            trace_id, ids = _ids(4)
            spans = [make_span(trace_id, s, None, f"op{i}") for s in ids]
            status, headers, body = post(relay.http_url, make_request(spans).SerializeToString())
            if status == 200:
                accepted.append(trace_id)
            else:
                assert status == 503 and headers["Retry-After"] == "2"
                assert headers["Content-Type"] == "application/x-protobuf" and body
                refused += 1
        assert len(accepted) == 2 and refused == 2  # 4 + 4 fit in 10; 4 more do not
        trace_id, ids = _ids(4)
        data = make_request([make_span(trace_id, s, None, "g") for s in ids]).SerializeToString()
        with pytest.raises(grpc.RpcError) as info:
            grpc_export(relay.grpc_target, data)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
        trailing = dict(info.value.trailing_metadata())
        assert "google.rpc.retryinfo-bin" in trailing
        # a request that fits is still taken
        trace_small, (one, two) = _ids(2)
        small = make_request([make_span(trace_small, one, None, "a"),
                              make_span(trace_small, two, None, "b")])
        assert post(relay.http_url, small.SerializeToString())[0] == 200
        accepted.append(trace_small)
        assert relay.health_get("/readyz")[0] == 503  # full: not ready
        assert relay.metric("otel_grounding.relay.requests_refused") == 3
        with OtlpSink(port) as sink:  # the next hop comes back
            assert sink.wait_for_spans(10, timeout=10)
            time.sleep(0.5)
            assert sink.span_count == 10
            assert sorted({s.span.trace_id for s in sink.spans()}) == sorted(accepted)
            assert relay.health_get("/readyz")[0] == 200
            assert relay.terminate() == 0


def test_export_retries_with_backoff_and_delivers_once():
    behaviour = SinkBehaviour(fail_first=2)
    with OtlpSink(behaviour=behaviour) as sink, start_relay(
        sink.endpoint, "--retry-initial", "0.1", "--retry-max-interval", "0.2"
    ) as relay:
        trace_id, ids = _ids(3)
        data = make_request([make_span(trace_id, s, None, "op") for s in ids]).SerializeToString()
        grpc_export(relay.grpc_target, data)
        assert sink.wait_for_spans(3, timeout=8)
        time.sleep(0.3)
        assert sink.span_count == 3 and sink.calls == 3
        assert relay.metric("otel_grounding.relay.export_failures") == 2
        assert relay.metric("otel_grounding.relay.spans_exported") == 3
        assert relay.terminate() == 0


def test_partial_success_is_honoured_and_reported():
    behaviour = SinkBehaviour(reject_spans=1, reject_message="span 2 has no name")
    with OtlpSink(behaviour=behaviour) as sink, start_relay(sink.endpoint) as relay:
        trace_id, ids = _ids(3)
        data = make_request([make_span(trace_id, s, None, "op") for s in ids]).SerializeToString()
        grpc_export(relay.grpc_target, data)
        assert sink.wait_for_spans(3, timeout=8)
        time.sleep(0.5)
        assert sink.calls == 1  # a partial success is final: never retried
        assert relay.metric("otel_grounding.relay.spans_rejected") == 1
        assert relay.metric("otel_grounding.relay.spans_exported") == 2
        warnings = [e for e in relay.logs() if e.get("msg", "").startswith("relay: next hop accepted")]
        assert warnings and warnings[0]["rejected_spans"] == 1
        assert warnings[0]["error"] == "span 2 has no name"
        assert relay.terminate() == 1  # a span the next hop rejected was not delivered


def test_a_permanent_export_error_drops_the_batch_counted_and_logged():
    behaviour = SinkBehaviour(fail_first=1, fail_code=grpc.StatusCode.INVALID_ARGUMENT)
    with OtlpSink(behaviour=behaviour) as sink, start_relay(sink.endpoint) as relay:
        trace_id, ids = _ids(3)
        data = make_request([make_span(trace_id, s, None, "op") for s in ids]).SerializeToString()
        grpc_export(relay.grpc_target, data)
        assert sink.wait_until(lambda: relay.metric("otel_grounding.relay.spans_dropped") == 3, 5)
        assert sink.calls == 1 and sink.span_count == 0  # not retried: it would never succeed
        (entry,) = [e for e in relay.logs() if e.get("msg") == "relay: accepted spans given up"]
        assert entry["reason"] == "permanent_error" and entry["code"] == "INVALID_ARGUMENT"
        assert relay.terminate() == 1  # dropped before shutdown: still not a clean exit


def test_sigterm_keeps_retrying_within_the_drain_timeout_then_gives_up_counted():
    port = free_port()
    relay = start_relay(f"http://127.0.0.1:{port}", "--drain-timeout", "1.5",
                        "--retry-initial", "0.1", "--retry-max-interval", "0.2")
    with relay:
        trace_id, ids = _ids(2)
        data = make_request([make_span(trace_id, s, None, "op") for s in ids]).SerializeToString()
        grpc_export(relay.grpc_target, data)
        started = time.monotonic()
        assert relay.terminate() == 1  # accepted spans could not be delivered: not a clean exit
        assert time.monotonic() - started < 6  # bounded
        stopped = [e for e in relay.logs() if e.get("msg") == "relay: stopped"]
        assert stopped and stopped[0]["dropped"] == 2
        given_up = [e for e in relay.logs() if e.get("msg") == "relay: accepted spans given up"]
        assert given_up and given_up[0]["reason"] == "shutdown"


@pytest.mark.parametrize("protocol", ["http/protobuf", "http/json"])
def test_next_hop_from_standard_variables_over_http_with_headers(tmp_path, protocol):
    """Two relays in a chain. The outer one is configured by OTEL_EXPORTER_OTLP_* only:
    OTLP/HTTP, gzip, and an authorization header the inner relay requires. The run is enriched
    once: the inner relay forwards an already enriched run span as it is."""
    token = tmp_path / "token"
    token.write_text("s3cret\n")
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--wait-duration", "0.3", "--auth-token-file", str(token)
    ) as inner:
        env = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://{inner.http}",
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20s3cret,x-tenant=acme",
            "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
        }
        with start_relay(None, "--wait-duration", "0.3", "--min-claim-grounding-rate", "0.7",
                         env=env) as outer:
            listening = [e for e in outer.logs() if e.get("msg") == "relay: listening"][0]
            assert listening["next_hop"] == f"{protocol} http://{inner.http}/v1/traces"
            trace_id = agent_app(GrpcExporter(endpoint=outer.grpc_target, insecure=True),
                                 "chained", GOLDEN_SOURCES, GOLDEN_OUTPUT)
            spans = wait_trace(sink, trace_id, 4)
            time.sleep(0.5)
            run = run_of(by_trace(sink, trace_id))
            assert run.attributes[A.GRADE] == "full"
            assert [kv.key for kv in run.span.attributes].count(A.GRADE) == 1
            assert len([e for e in run.events if e[0] == A.FLAGGED_EVENT]) == 1
            assert len(spans) == 4
            assert outer.terminate() == 0
        assert inner.metric("otel_grounding.relay.requests_refused") == 0
        assert inner.terminate() == 0


def test_any_field_order_and_embedded_span_copies_are_handled(sink, relay):
    """Marker attribution assumes encoders write a span's ids first; a span encoded with its
    attributes first, and a span carrying a copy of a run's encoding in a bytes attribute, are
    still read correctly (the attribution check falls back to searching every span)."""
    from opentelemetry.proto.trace.v1.trace_pb2 import Span

    from otel_grounding.relay.wire import wrap_spans

    trace_id, (run_id, tool_id, other_id) = _ids(3)
    run = make_span(trace_id, run_id, None, "invoke_agent", {
        native.RUN_ID: "field-order", native.RUN_OUTPUT: GOLDEN_OUTPUT})
    tool = make_span(trace_id, tool_id, run_id, "tool", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: " ".join(GOLDEN_SOURCES)})
    tool_bytes = attributes_first(tool)
    assert tool_bytes != tool.SerializeToString() and Span.FromString(tool_bytes) == tool
    # a plain span carrying an exact copy of the run's encoding as a bytes value
    other = make_span(trace_id, other_id, run_id, "cache put", {"payload": run.SerializeToString()})
    data = wrap_spans(b"", b"", b"", b"", [tool_bytes, other.SerializeToString(),
                                         run.SerializeToString()])
    grpc_export(relay.grpc_target, data)
    spans = wait_trace(sink, trace_id, 3)
    time.sleep(0.2)
    spans = by_trace(sink, trace_id)
    assert sorted(s.span.name for s in spans) == ["cache put", "invoke_agent", "tool"]
    scored = [s for s in spans if A.GRADE in s.attributes]
    assert len(scored) == 1 and scored[0].span.span_id == run_id
    assert scored[0].attributes[A.GRADE] == "full" and scored[0].attributes[A.EVIDENCE_SOURCES] == 1
    (cache,) = [s for s in spans if s.span.name == "cache put"]
    assert cache.attributes["payload"] == run.SerializeToString()  # untouched


def test_other_conventions_and_content_stripping_go_through_the_same_pipeline():
    """A GenAI-semantic-conventions run, with `strip_content` set through --set: the run is
    scored by the same pipeline, then the raw content is removed from the tool and run spans."""
    answer = json.dumps([{"role": "assistant", "parts": [
        {"type": "text", "content": "The capital of France is Paris. The Eiffel Tower is in Paris."}]}])
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--wait-duration", "0.3", "--set", "strip_content=true"
    ) as relay:
        trace_id, (run_id, tool_id) = _ids(2)
        tool = make_span(trace_id, tool_id, run_id, "execute_tool lookup", {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
            "gen_ai.tool.call.result": " ".join(GOLDEN_SOURCES), "app.keep": 1})
        run = make_span(trace_id, run_id, None, "invoke_agent support", {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support",
            "gen_ai.output.messages": answer, "app.keep": 2})
        grpc_export(relay.grpc_target, make_request([tool]).SerializeToString())
        post(relay.http_url, make_request([run]).SerializeToString())
        spans = {s.span.span_id: s for s in wait_trace(sink, trace_id, 2)}
        scored = spans[run_id].attributes
        assert scored[A.CONVENTION] == "genai" and scored[A.GRADE] == "full"
        assert scored[A.CLAIMS_GROUNDED] == 2 and scored[A.EVIDENCE_SOURCES] == 1
        assert "gen_ai.output.messages" not in scored and scored["app.keep"] == 2
        assert "gen_ai.tool.call.result" not in spans[tool_id].attributes
        assert spans[tool_id].attributes["app.keep"] == 1
        assert relay.terminate() == 0
