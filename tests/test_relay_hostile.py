"""The relay under hostile input, with authentication and TLS, and its self-observability."""

from __future__ import annotations

import gzip
import json
import os
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.rpc import status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from otel_grounding import attributes as A
from otel_grounding.conventions import native
from otel_grounding.relay.otlp import encode_json

from relay_kit import (
    OtlpSink,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)

SOURCE = "Paris is the capital of France. The Eiffel Tower stands in Paris."
OUTPUT = "The capital of France is Paris. The Eiffel Tower is in Paris."


@pytest.fixture(scope="module")
def relay(sink: OtlpSink) -> Iterator[Any]:
    process = start_relay(
        sink.endpoint, "--wait-duration", "0.3", "--max-request-bytes", str(256 * 1024),
        "--max-decompressed-bytes", str(1024 * 1024),
    )
    with process:
        yield process
        assert process.terminate() == 0
        crashes = [e for e in process.logs() if "exception" in e or e.get("level") == "error"]
        assert not crashes, crashes  # nothing raised inside the relay


def post(url: str, body: bytes, content_type: str = "application/x-protobuf",
         headers: dict[str, str] | None = None, context: ssl.SSLContext | None = None,
         ) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def valid_request(name: str = "op") -> tuple[bytes, bytes]:
    trace_id = os.urandom(16)
    return trace_id, make_request([make_span(trace_id, os.urandom(8), None, name)]).SerializeToString()


def assert_still_serving(relay: Any, sink: OtlpSink) -> None:
    trace_id, data = valid_request("after-hostile")
    assert post(relay.http_url, data)[0] == 200
    grpc_export(relay.grpc_target, valid_request("after-hostile-grpc")[1])
    assert sink.wait_until(lambda: any(s.span.trace_id == trace_id for s in sink.spans()), 5)
    assert relay.process.poll() is None


def test_malformed_protobuf_is_invalid_argument_and_the_relay_keeps_serving(relay, sink):
    garbage = b"\x0a\xff\xff\xff\xff\x0f\x01"  # a length far beyond the body
    status, headers, body = post(relay.http_url, garbage)
    assert status == 400 and headers["Content-Type"] == "application/x-protobuf"
    message = status_pb2.Status.FromString(body).message
    assert "not an OTLP ExportTraceServiceRequest" in message
    with pytest.raises(grpc.RpcError) as info:
        grpc_export(relay.grpc_target, garbage)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "not an OTLP" in info.value.details()
    # invalid UTF-8 in a string field, nesting deeper than the decoder allows
    bad_utf8 = make_request([make_span(os.urandom(16), os.urandom(8), None, "x")])
    raw = bad_utf8.SerializeToString().replace(b"\x01x", b"\x01\xff")
    assert post(relay.http_url, raw)[0] == 400
    assert post(relay.http_url, _deeply_nested(300))[0] == 400
    with pytest.raises(grpc.RpcError) as info:
        grpc_export(relay.grpc_target, _deeply_nested(300))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert_still_serving(relay, sink)


def _field(number: int, payload: bytes) -> bytes:
    def varint(n: int) -> bytes:
        out = bytearray()
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def _deeply_nested(depth: int) -> bytes:
    """A request whose one attribute value is an array nested `depth` levels deep."""
    value = b""
    for _ in range(depth):
        value = _field(5, _field(1, value))  # AnyValue.array_value -> ArrayValue.values
    attribute = _field(1, b"k") + _field(2, value)
    span = _field(1, os.urandom(16)) + _field(2, os.urandom(8)) + _field(9, attribute)
    return _field(1, _field(2, _field(2, span)))


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[1, 2, 3]",
        b'{"resourceSpans": "nope"}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"name": 5, "kind": "x"}]}]}]}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "\\ud800"}]}]}]}',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [{"key": "k", '
        b'"value": {"doubleValue": 1' + b"0" * 400 + b"}}]}]}]}]}",
    ],
    ids=["syntax", "array", "wrong-type", "bad-hex-id", "bad-field", "lone-surrogate", "deep",
         "double-overflow"],
)
def test_malformed_json_is_400_with_a_message(relay, sink, body):
    status, headers, reply = post(relay.http_url, body, "application/json")
    assert status == 400, reply
    assert headers["Content-Type"] == "application/json"
    error = json.loads(reply)
    assert error["code"] == 3 and error["message"]


def test_wrong_path_method_and_media_type(relay, sink):
    _, data = valid_request()
    assert post(relay.http_url.replace("/v1/traces", "/v1/metrics"), data)[0] == 404
    assert post(relay.http_url, data, "text/plain")[0] == 415
    assert post(relay.http_url, data, headers={"Content-Encoding": "br"})[0] == 415
    try:
        urllib.request.urlopen(relay.http_url, timeout=5)
        raise AssertionError("GET accepted")
    except urllib.error.HTTPError as error:
        assert error.code == 405
    assert_still_serving(relay, sink)


def test_request_and_decompressed_sizes_are_capped_and_a_gzip_bomb_is_not_inflated(relay, sink):
    # declared too large: refused before the body is read
    with socket.create_connection(("127.0.0.1", int(relay.http.rsplit(":", 1)[1])), 5) as conn:
        conn.sendall(b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/"
                     b"x-protobuf\r\nContent-Length: 999999999\r\n\r\n")
        assert conn.recv(4096).startswith(b"HTTP/1.1 413")
    # a gzip bomb: 200 MiB of zeros in 210 KiB of concatenated gzip members (under the wire cap)
    member = gzip.compress(b"\0" * (1 << 20))
    bomb = member * 200
    before = _peak_rss_kib(relay.process.pid)
    started = time.monotonic()
    status, _, body = post(relay.http_url, bomb, headers={"Content-Encoding": "gzip"})
    assert status == 413
    assert "decompressed body exceeds 1048576 bytes" in status_pb2.Status.FromString(body).message
    assert time.monotonic() - started < 2
    assert _peak_rss_kib(relay.process.pid) - before < 40 * 1024  # never inflated 200 MiB
    # over gRPC the decompressed size is capped by the receive limit
    with pytest.raises(grpc.RpcError) as info:
        channel = grpc.insecure_channel(relay.grpc_target)
        call = channel.unary_unary(
            "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
            request_serializer=None, response_deserializer=None)
        try:
            call(b"\0" * (8 << 20), timeout=10, compression=grpc.Compression.Gzip)
        finally:
            channel.close()
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert_still_serving(relay, sink)


def _peak_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


HOSTILE_VALUES: list[Any] = [
    12345,
    3.5,
    True,
    ["a list", 1, 2.5, False],
    {"nested": {"deeper": ["x" * 10, 7]}},
    b"\x00\xffbytes",
    "x" * 50_000,  # four times in one request: within the 256 KiB request cap
    "Zero-width\u200b and emoji \U0001f600 and NUL \x00 claims are strange.",
    "",
]


def test_attribute_values_of_any_type_and_size_never_crash_scoring(relay, sink):
    trace_ids = []
    for index, value in enumerate(HOSTILE_VALUES):
        trace_id, run_id, tool_id = os.urandom(16), os.urandom(8), os.urandom(8)
        run = make_span(trace_id, run_id, None, f"run-{index}", {
            native.RUN_ID: f"hostile-{index}", native.RUN_OUTPUT: value,
            native.RUN_TOOL_STEPS: value, native.RUN_TOOL_OUTPUTS: value})
        tool = make_span(trace_id, tool_id, run_id, "tool", {
            native.STEP_TYPE: "tool", native.STEP_OUTPUT: value})
        request = make_request([tool, run])
        # arrays nested 40 deep (beyond the adapter's decode depth, within protobuf's)
        deep = request.resource_spans[0].scope_spans[0].spans[1].attributes.add(key="deep").value
        for _ in range(40):
            deep = deep.array_value.values.add()
        deep.string_value = "bottom"
        status, _, _ = post(relay.http_url, request.SerializeToString())
        assert status == 200
        trace_ids.append(trace_id)
    def graded() -> list[Any]:
        return [s for s in sink.spans() if s.span.trace_id in trace_ids and A.GRADE in s.attributes]
    assert sink.wait_until(lambda: len(graded()) == len(HOSTILE_VALUES), 8), len(graded())
    for span in graded():
        assert span.attributes[A.GRADE] in ("full", "partial", "vacuous", "critical-uncovered")
    assert_still_serving(relay, sink)


def test_self_observability_health_metrics_and_json_logs(relay, sink):
    assert post(relay.http_url, b"\xff\xff")[0] == 400  # one refusal, counted
    status, body = relay.health_get("/healthz")
    assert status == 200 and body["status"] == "ok"
    status, body = relay.health_get("/readyz")
    assert status == 200 and body["ready"] is True and body["draining"] is False
    trace_id, run_id, tool_id = os.urandom(16), os.urandom(8), os.urandom(8)
    spans = [make_span(trace_id, tool_id, run_id, "tool", {
                native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCE}),
             make_span(trace_id, run_id, None, "run", {
                native.RUN_ID: "observed", native.RUN_OUTPUT: OUTPUT})]
    other = make_span(os.urandom(16), os.urandom(8), None, "GET /", {})  # one over HTTP
    assert post(relay.http_url, make_request([other]).SerializeToString())[0] == 200
    grpc_export(relay.grpc_target, make_request(spans).SerializeToString())
    assert sink.wait_until(lambda: any(
        s.span.span_id == run_id for s in sink.spans()), 5)
    time.sleep(0.3)
    _, metrics = relay.health_get("/debug/metrics")
    for name in (
        "otel_grounding.relay.spans_received",
        "otel_grounding.relay.spans_exported",
        "otel_grounding.relay.requests_refused",
        "otel_grounding.relay.queue_spans",
        "otel_grounding.relay.request_duration",
        "otel_grounding.scoring_duration",
        "ferrumdeck.reliability.runs_scored",
    ):
        assert name in metrics, name
    assert metrics["otel_grounding.relay.spans_received"]["total"] >= 2
    transports = {p["attributes"].get("transport") for p in
                  metrics["otel_grounding.relay.spans_received"]["points"]}
    assert {"grpc", "http"} <= transports
    refused = {p["attributes"]["reason"] for p in
               metrics["otel_grounding.relay.requests_refused"]["points"]}
    assert "invalid" in refused
    assert metrics["otel_grounding.scoring_duration"]["total"] >= 1  # runs scored, timed
    for line in relay.log_text().splitlines():  # structured: every line is one JSON object
        entry = json.loads(line)
        assert {"ts", "level", "logger", "msg"} <= set(entry)


def test_evicted_traces_are_counted_and_their_run_grades_partial(sink):
    with start_relay(sink.endpoint, "--wait-duration", "0.3", "--num-traces", "4") as relay:
        first, run_id, tool_id = os.urandom(16), os.urandom(8), os.urandom(8)
        tool = make_span(first, tool_id, run_id, "tool", {
            native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCE})
        grpc_export(relay.grpc_target, make_request([tool]).SerializeToString())
        for _ in range(6):  # other traces' tool outputs push the first one out
            other = os.urandom(16)
            grpc_export(relay.grpc_target, make_request([make_span(
                other, os.urandom(8), os.urandom(8), "tool",
                {native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCE})]).SerializeToString())
        run = make_span(first, run_id, None, "run", {
            native.RUN_ID: "evicted", native.RUN_OUTPUT: OUTPUT})
        grpc_export(relay.grpc_target, make_request([run]).SerializeToString())
        assert sink.wait_until(lambda: any(s.span.span_id == run_id for s in sink.spans()), 5)
        (scored,) = [s for s in sink.spans() if s.span.span_id == run_id]
        assert scored.attributes[A.GRADE] == "partial"
        assert A.REASON_EVIDENCE_EVICTED in scored.attributes[A.COVERAGE_REASON]
        assert relay.metric("otel_grounding.traces_evicted") >= 3
        assert relay.terminate() == 0


# -- authentication and TLS -------------------------------------------------------------------
@pytest.fixture(scope="module")
def certificate(tmp_path_factory: Any) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=30,
    )
    return cert, key


def test_bearer_token_and_tls_on_both_receivers(tmp_path, certificate):
    cert, key = certificate
    token = tmp_path / "token"
    token.write_text("t0ken-value\n")
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--auth-token-file", str(token), "--tls-cert", cert, "--tls-key", key,
        "--wait-duration", "0.2",
    ) as relay:
        context = ssl.create_default_context(cafile=cert)
        credentials = grpc.ssl_channel_credentials(root_certificates=open(cert, "rb").read())
        https = f"https://{relay.http}/v1/traces"
        _, data = valid_request("refused")
        # no token, wrong token, wrong scheme: refused, nothing accepted
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic t0ken-value"}):
            status, reply_headers, body = post(https, data, headers=headers, context=context)
            assert status == 401 and "Bearer" in reply_headers["WWW-Authenticate"]
            assert status_pb2.Status.FromString(body).code == 16  # UNAUTHENTICATED
        for metadata in ((), (("authorization", "Bearer wrong"),)):
            with pytest.raises(grpc.RpcError) as info:
                grpc_export(relay.grpc_target, data, metadata=metadata, credentials=credentials)
            assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        # plaintext to a TLS receiver goes nowhere
        with pytest.raises((urllib.error.URLError, ConnectionError, http_client_errors())):
            post(f"http://{relay.http}/v1/traces", data)
        time.sleep(0.3)
        assert sink.span_count == 0
        assert relay.metric("otel_grounding.relay.spans_received") == 0
        assert relay.metric("otel_grounding.relay.requests_refused") == 5
        # with the token, over TLS: accepted on both receivers
        good = {"Authorization": "Bearer t0ken-value"}
        assert post(https, data, headers=good, context=context)[0] == 200
        grpc_export(relay.grpc_target, valid_request("grpc-ok")[1],
                    metadata=(("authorization", "Bearer t0ken-value"),), credentials=credentials)
        assert sink.wait_for_spans(2, timeout=5)
        # a relay in front, reaching this one over gRPC with TLS and the token, configured by
        # the standard variables (CA file, headers)
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"https://{relay.grpc}",
               "OTEL_EXPORTER_OTLP_CERTIFICATE": cert,
               "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20t0ken-value"}
        with start_relay(None, env=env) as front:
            grpc_export(front.grpc_target, valid_request("via-tls-hop")[1])
            assert sink.wait_for_spans(3, timeout=8)
            assert front.terminate() == 0
        assert relay.terminate() == 0


def http_client_errors() -> type[Exception]:
    import http.client

    return http.client.HTTPException


def test_json_request_over_http_round_trips_ids_and_enum_values(relay, sink):
    trace_id, run_id, tool_id = os.urandom(16), os.urandom(8), os.urandom(8)
    tool = make_span(trace_id, tool_id, run_id, "tool", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCE})
    tool.kind = 3  # CLIENT, an integer in OTLP/JSON
    run = make_span(trace_id, run_id, None, "run", {native.RUN_ID: "json", native.RUN_OUTPUT: OUTPUT})
    body = encode_json(make_request([tool, run]))
    decoded = json.loads(body)
    span0 = decoded["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert span0["traceId"] == trace_id.hex() and span0["kind"] == 3
    status, _, reply = post(relay.http_url, body, "application/json")
    assert status == 200 and json.loads(reply) == {}
    assert sink.wait_until(lambda: len([s for s in sink.spans() if s.span.trace_id == trace_id]) == 2, 5)
    spans = {s.span.span_id: s for s in sink.spans() if s.span.trace_id == trace_id}
    assert spans[tool_id].span.kind == 3 and spans[tool_id].span.parent_span_id == run_id
    assert spans[run_id].attributes[A.GRADE] == "full"
    assert ExportTraceServiceRequest  # the decoded shape is the protobuf one
