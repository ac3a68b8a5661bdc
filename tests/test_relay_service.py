"""A whole relay in process: `RelayService.build` from options, real OTLP/gRPC and OTLP/HTTP
over loopback sockets into it, spans delivered to a real OTLP sink, then drain and stop.

The subprocess tests (test_relay*.py) cover the command; this one covers the composition root
itself: every part built with its collaborators, serving, and shut down in order.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from otel_grounding import attributes as A
from otel_grounding.config import RELAY, ConfigError, load_settings
from otel_grounding.conventions import native
from otel_grounding.relay.options import RelayOptions
from otel_grounding.relay.service import RelayService

from relay_kit import OtlpSink, ReceivedSpan, grpc_export, make_request, make_span
from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES

LOOPBACK_ANY = "127.0.0.1:0"


def _options(sink: OtlpSink, **given: Any) -> RelayOptions:
    return RelayOptions(**{"grpc_endpoint": LOOPBACK_ANY, "http_endpoint": LOOPBACK_ANY,
                           "health_endpoint": LOOPBACK_ANY, "exporter_endpoint": sink.endpoint,
                           "drain_timeout": 5.0, **given})


@pytest.fixture
def service(sink: OtlpSink) -> Iterator[RelayService]:
    settings = load_settings({"evidence_wait": 0.2, "min_claim_grounding_rate": 0.7},
                             environ={}, shell=RELAY)
    built = RelayService.build(_options(sink), settings, environ={})
    try:
        built.start()
        yield built
    finally:
        built.stop()


def agent_trace(run_id: str) -> tuple[bytes, bytes]:
    """A run span, its LLM step and two tool steps in one request: (trace id, request)."""
    trace_id, run = os.urandom(16), os.urandom(8)
    spans = [
        make_span(trace_id, run, None, "invoke_agent", {
            native.RUN_ID: run_id, native.PROJECT_ID: "acme", native.RUN_TOOL_STEPS: 2,
            native.RUN_OUTPUT: GOLDEN_OUTPUT}),
        make_span(trace_id, os.urandom(8), run, "chat", {native.STEP_TYPE: "llm"}),
        *(make_span(trace_id, os.urandom(8), run, f"tool_{n}",
                    {native.STEP_TYPE: "tool", native.STEP_OUTPUT: text})
          for n, text in enumerate(GOLDEN_SOURCES)),
    ]
    return trace_id, make_request(spans).SerializeToString()


def run_span(sink: OtlpSink, trace_id: bytes) -> ReceivedSpan:
    assert sink.wait_until(
        lambda: sum(s.span.trace_id == trace_id for s in sink.spans()) >= 4, 10
    ), "the trace did not reach the sink"
    (run,) = [s for s in sink.spans()
              if s.span.trace_id == trace_id and native.RUN_ID in s.attributes]
    return run


def http_get(address: str, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://{address}{path}", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_relay_built_in_process_grades_runs_from_grpc_and_http(service, sink):
    assert service.grpc_address and service.http_address and service.health_address
    grpc_trace, grpc_request = agent_trace("in-process-grpc")
    grpc_export(service.grpc_address, grpc_request)
    http_trace, http_request = agent_trace("in-process-http")
    post = urllib.request.Request(
        f"http://{service.http_address}/v1/traces", data=http_request, method="POST",
        headers={"Content-Type": "application/x-protobuf"})
    with urllib.request.urlopen(post, timeout=5) as response:
        assert response.status == 200

    for trace_id in (grpc_trace, http_trace):
        attributes = run_span(sink, trace_id).attributes
        assert attributes[A.GRADE] == "full"
        assert (attributes[A.CLAIMS_TOTAL], attributes[A.CLAIMS_GROUNDED]) == (3, 2)
        assert attributes[A.THRESHOLD] == 0.7 and attributes[A.BELOW_THRESHOLD] is True

    assert sink.wait_until(lambda: http_get(service.health_address, "/readyz")[1]["exported"] >= 8)
    status, ready = http_get(service.health_address, "/readyz")
    assert status == 200 and ready["ready"] is True
    status, metrics = http_get(service.health_address, "/debug/metrics")
    assert status == 200 and "otel_grounding.relay.spans_received" in metrics
    assert service.drain() == 0
    status, ready = http_get(service.health_address, "/readyz")
    assert status == 503 and ready["draining"] is True


def test_options_that_cannot_work_are_refused_before_anything_serves(sink):
    settings = load_settings({}, environ={}, shell=RELAY)
    with pytest.raises(ConfigError, match="at least one of --grpc-endpoint and --http-endpoint"):
        RelayService.build(
            RelayOptions(grpc_endpoint="none", http_endpoint="none", health_endpoint="none",
                         exporter_endpoint=sink.endpoint), settings, environ={})
    with pytest.raises(ConfigError, match="--tls-cert and --tls-key go together"):
        RelayService.build(_options(sink, tls_cert="cert.pem"), settings, environ={})


@pytest.mark.internal_errors
def test_a_bug_serving_an_http_request_is_an_internal_error_and_the_relay_goes_on(
    service, sink, lenient, monkeypatch
):
    """socketserver's own error hook printed such a bug to stderr, uncounted; now it goes
    through `internal_error` (re-raised in strict mode, counted and logged otherwise), the
    connection is closed, and the next request is served."""
    from otel_grounding.internal_error import internal_errors

    before = internal_errors().get("relay.http", 0)
    real = service.relay.ingest

    def broken(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(service.relay, "ingest", real)  # once
        raise RuntimeError("a bug in the relay")

    monkeypatch.setattr(service.relay, "ingest", broken)
    url = f"http://{service.http_address}/v1/traces"
    headers = {"Content-Type": "application/x-protobuf"}
    _, request = agent_trace("bug")
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        urllib.request.urlopen(urllib.request.Request(url, data=request, headers=headers),
                               timeout=5)
    assert internal_errors().get("relay.http", 0) == before + 1
    trace_id, request = agent_trace("after-the-bug")
    with urllib.request.urlopen(urllib.request.Request(url, data=request, headers=headers),
                                timeout=5) as response:
        assert response.status == 200
    assert run_span(sink, trace_id).attributes[A.GRADE] == "full"


def test_an_address_in_use_is_refused_and_the_ports_already_bound_are_freed(sink):
    """The gRPC port is taken: build names it, and the HTTP port it had bound is free again."""
    import socket

    settings = load_settings({}, environ={}, shell=RELAY)
    with socket.socket() as taken, socket.socket() as probe:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        probe.bind(("127.0.0.1", 0))
        http_port = probe.getsockname()[1]
        probe.close()
        grpc = f"127.0.0.1:{taken.getsockname()[1]}"
        with pytest.raises(ConfigError, match=f"--grpc-endpoint {grpc}: cannot listen there"):
            RelayService.build(_options(sink, grpc_endpoint=grpc,
                                        http_endpoint=f"127.0.0.1:{http_port}"),
                               settings, environ={})
    with socket.socket() as again:
        again.bind(("127.0.0.1", http_port))  # raises when the relay still holds it
