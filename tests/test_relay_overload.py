"""Every overload answer is one standard OTLP clients retry, and no client can lock others out:
the gRPC call cap answers UNAVAILABLE with RetryInfo, a full HTTP pool reads the request and
answers 503 with Retry-After, the SIGTERM drain answers the same, and slow or greedy peers are
bounded in time and in connections."""

from __future__ import annotations

import http.client
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2, status_pb2
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from relay_kit import (
    EXPORT_METHOD,
    OtlpSink,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)


def _finished_spans(count: int, name: str) -> list[Any]:
    """Real SDK spans, as an application's batch processor hands them to its exporter."""
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "overload"}))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("t")
    for i in range(count):
        with tracer.start_as_current_span(f"{name}-{i}", attributes={"pad": "x" * 200}):
            pass
    provider.shutdown()
    return list(memory.get_finished_spans())


def _retry_delay(error: grpc.RpcError) -> float | None:
    trailing = dict(error.trailing_metadata() or ())
    blob = trailing.get("grpc-status-details-bin")
    if blob is None:
        return None
    status = status_pb2.Status.FromString(blob)
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.seconds + info.retry_delay.nanos / 1e9
    return None


class _HeldCalls:
    """gRPC Export calls that are open but have not sent their request: they hold a slot."""

    def __init__(self, target: str, count: int) -> None:
        self._release = threading.Event()
        self._channel = grpc.insecure_channel(target)
        call = self._channel.stream_unary(EXPORT_METHOD, request_serializer=None,
                                          response_deserializer=None)
        body = make_request([make_span(os.urandom(16), os.urandom(8), None, "held")])

        def requests() -> Iterator[bytes]:
            self._release.wait(30)
            yield body.SerializeToString()

        self.futures = [call.future(requests(), timeout=30) for _ in range(count)]

    def release(self) -> None:
        self._release.set()
        for future in self.futures:
            future.result(timeout=10)
        self._channel.close()

    def release_quietly(self) -> None:
        self._release.set()
        self._channel.close()


def test_grpc_call_cap_answers_unavailable_with_retry_info_and_sdk_exporter_retries():
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--grpc-max-concurrent-calls", "2", "--retry-after", "1"
    ) as relay:
        held = _HeldCalls(relay.grpc_target, 2)
        time.sleep(0.5)
        data = make_request([make_span(os.urandom(16), os.urandom(8), None, "x")])
        with pytest.raises(grpc.RpcError) as info:
            grpc_export(relay.grpc_target, data.SerializeToString(), timeout=5)
        assert info.value.code() in (grpc.StatusCode.UNAVAILABLE,
                                     grpc.StatusCode.RESOURCE_EXHAUSTED)
        assert _retry_delay(info.value) == 1.0  # what the Collector needs to retry
        # the SDK's own exporter, refused at first, retries and gets through
        exporter = GrpcExporter(endpoint=relay.grpc_target, insecure=True, timeout=20)
        result: list[SpanExportResult] = []
        worker = threading.Thread(target=lambda: result.append(
            exporter.export(_finished_spans(5, "grpc"))))
        worker.start()
        time.sleep(1.5)
        assert not result  # still being refused while the slots are held
        held.release()
        worker.join(20)
        assert result == [SpanExportResult.SUCCESS]
        assert sink.wait_until(lambda: sum(s.span.name.startswith("grpc-") for s in sink.spans())
                               == 5, 10)
        assert relay.metric("otel_grounding.relay.requests_refused") >= 2
        exporter.shutdown()
        assert relay.terminate() == 0


def _hold_http(port: int, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    """Connections that send half a request line and then nothing."""
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=(source, 0))
        sock.sendall(b"POST /v1/traces HTTP/1.1\r\nHost: x\r\n")
        held.append(sock)
    return held


def test_a_full_http_pool_reads_the_request_and_answers_503_with_retry_after():
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--http-max-connections", "2", "--retry-after", "1"
    ) as relay:
        port = int(relay.http.rsplit(":", 1)[1])
        held = _hold_http(port, 2)
        time.sleep(0.3)
        big = make_request([make_span(os.urandom(16), os.urandom(8), None, "big",
                                      {"pad": "y" * 1000}) for _ in range(1000)])
        body = big.SerializeToString()
        assert len(body) > 1_000_000  # far more than a socket buffer: it must be read
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/v1/traces", body=body,
                           headers={"Content-Type": "application/x-protobuf"})
        response = connection.getresponse()
        payload = response.read()
        assert response.status == 503 and response.getheader("Retry-After") == "1"
        assert status_pb2.Status.FromString(payload).code == code_pb2.UNAVAILABLE
        connection.close()
        # the SDK's own exporter, refused at first, retries and gets through
        exporter = HttpExporter(endpoint=relay.http_url, timeout=20)
        result: list[SpanExportResult] = []
        worker = threading.Thread(target=lambda: result.append(
            exporter.export(_finished_spans(5, "http"))))
        worker.start()
        time.sleep(1.5)
        assert not result
        for sock in held:
            sock.close()
        worker.join(20)
        assert result == [SpanExportResult.SUCCESS]
        assert sink.wait_until(lambda: sum(s.span.name.startswith("http-") for s in sink.spans())
                               == 5, 10)
        assert not any(s.span.name == "big" for s in sink.spans())
        exporter.shutdown()
        assert relay.terminate() == 0


def test_during_the_sigterm_drain_clients_get_the_retryable_answer_not_refused():
    # the next hop is down: the drain lasts its whole timeout
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    relay = start_relay(f"http://127.0.0.1:{dead}", "--drain-timeout", "4",
                        "--retry-initial", "0.1", "--retry-after", "2")
    with relay:
        data = make_request([make_span(os.urandom(16), os.urandom(8), None, "x")])
        port = int(relay.http.rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", "/v1/traces", body=data.SerializeToString(),
                           headers={"Content-Type": "application/x-protobuf"})
        assert connection.getresponse().status == 200
        connection.close()
        relay.process.send_signal(__import__("signal").SIGTERM)
        assert relay.process.poll() is None
        time.sleep(1.0)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", "/v1/traces", body=data.SerializeToString(),
                           headers={"Content-Type": "application/x-protobuf"})
        response = connection.getresponse()
        assert response.status == 503 and response.getheader("Retry-After") == "2"
        connection.close()
        with pytest.raises(grpc.RpcError) as info:
            grpc_export(relay.grpc_target, data.SerializeToString(), timeout=5)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
        assert _retry_delay(info.value) == 2.0
        assert relay.process.wait(15) == 1  # the accepted span could not be delivered


def test_slow_peers_are_cut_off_and_cannot_lock_other_clients_out():
    """64 connections from one peer trickling a byte a second: each is closed once its
    request has taken the request timeout, and another client is served meanwhile."""
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--request-timeout", "2", "--http-max-connections-per-peer", "8"
    ) as relay:
        port = int(relay.http.rsplit(":", 1)[1])
        slow = _hold_http(port, 64, source="127.0.0.2")
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(0.5):
                for sock in slow:
                    try:
                        sock.send(b"x")
                    except OSError:
                        pass

        trickler = threading.Thread(target=trickle, daemon=True)
        trickler.start()
        try:
            time.sleep(0.5)
            data = make_request([make_span(os.urandom(16), os.urandom(8), None, "served")])
            started = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/v1/traces", body=data.SerializeToString(),
                               headers={"Content-Type": "application/x-protobuf"})
            assert connection.getresponse().status == 200
            assert time.monotonic() - started < 1.5
            connection.close()
            time.sleep(3.0)  # past the request timeout: every slow connection was closed
            closed = 0
            for sock in slow:
                sock.settimeout(2)
                try:
                    while sock.recv(65536):
                        pass
                    closed += 1
                except (ConnectionResetError, BrokenPipeError):
                    closed += 1
                except TimeoutError:
                    pass
            assert closed == 64
        finally:
            stop.set()
            for sock in slow:
                sock.close()
        assert sink.wait_until(lambda: any(s.span.name == "served" for s in sink.spans()), 5)
        assert relay.terminate() == 0


def test_grpc_calls_that_never_send_their_request_are_cut_off():
    """Calls holding every gRPC slot without sending their request are cancelled once they
    have taken the request timeout; then other clients are served again."""
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--grpc-max-concurrent-calls", "2", "--request-timeout", "1.5"
    ) as relay:
        held = _HeldCalls(relay.grpc_target, 2)
        time.sleep(0.3)
        data = make_request([make_span(os.urandom(16), os.urandom(8), None, "later")])
        with pytest.raises(grpc.RpcError) as info:
            grpc_export(relay.grpc_target, data.SerializeToString(), timeout=5)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE  # the slots are held
        time.sleep(2.5)
        for future in held.futures:
            assert future.exception(timeout=5) is not None  # cancelled by the relay
        grpc_export(relay.grpc_target, data.SerializeToString(), timeout=5)
        assert sink.wait_until(lambda: any(s.span.name == "later" for s in sink.spans()), 5)
        held.release_quietly()
        assert relay.terminate() == 0
