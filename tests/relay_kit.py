"""The relay's test kit (not part of the package): an OTLP sink, a relay subprocess, OTLP by hand.

Loopback only. Used by tests/test_relay*.py and benchmarks/bench_relay.py (both import it as
`relay_kit`, with tests/ on the path); handy for trying the relay by hand too
(`python tests/relay_kit.py sink` prints spans it receives).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_grounding.internal_error import STRICT_ENV
from otel_grounding.relay.otlp import from_any

EXPORT_METHOD = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"


# -- sink -------------------------------------------------------------------------------------
@dataclass
class ReceivedSpan:
    span: Span
    resource: dict[str, Any]

    @property
    def attributes(self) -> dict[str, Any]:
        return {kv.key: from_any(kv.value) for kv in self.span.attributes}

    @property
    def events(self) -> list[tuple[str, dict[str, Any], int]]:
        return [
            (e.name, {kv.key: from_any(kv.value) for kv in e.attributes}, e.time_unix_nano)
            for e in self.span.events
        ]


@dataclass
class SinkBehaviour:
    """What the sink answers: fail the first `fail_first` calls with `fail_code`, reject
    `reject_spans` spans of each accepted request in a partial success, or stall; refuse
    (INVALID_ARGUMENT, as a Collector does with a span it cannot take) every request holding
    a span named `refuse_name`."""

    fail_first: int = 0
    fail_code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE
    reject_spans: int = 0
    reject_message: str = ""
    delay: float = 0.0
    count_only: bool = False
    refuse_name: str = ""


class OtlpSink(trace_service_pb2_grpc.TraceServiceServicer):
    """An OTLP/gRPC sink (the opentelemetry-proto TraceServiceServicer) on 127.0.0.1."""

    def __init__(self, port: int = 0, behaviour: SinkBehaviour | None = None) -> None:
        self.behaviour = behaviour or SinkBehaviour()
        self.requests: list[ExportTraceServiceRequest] = []
        self.calls = 0
        self.span_count = 0
        self._lock = threading.Condition()
        self._server = grpc.server(
            futures.ThreadPoolExecutor(8, thread_name_prefix="sink"),
            options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)],
        )
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self, self._server)
        self.port = self._server.add_insecure_port(f"127.0.0.1:{port}")
        if not self.port:
            raise OSError(f"sink cannot listen on 127.0.0.1:{port}")
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def start(self) -> OtlpSink:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop(0).wait(2)

    def __enter__(self) -> OtlpSink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def Export(self, request: ExportTraceServiceRequest, context: Any) -> Any:
        b = self.behaviour
        with self._lock:
            self.calls += 1
            fail = self.calls <= b.fail_first
        if b.delay:
            time.sleep(b.delay)
        if fail:
            context.abort(b.fail_code, "sink told to fail")
        spans = sum(len(ss.spans) for rs in request.resource_spans for ss in rs.scope_spans)
        if b.refuse_name and any(
            span.name == b.refuse_name
            for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans
        ):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"span {b.refuse_name!r} refused")
        with self._lock:
            if not b.count_only:
                self.requests.append(request)
            self.span_count += spans
            self._lock.notify_all()
        response = ExportTraceServiceResponse()
        if b.reject_spans:
            response.partial_success.rejected_spans = min(b.reject_spans, spans)
            response.partial_success.error_message = b.reject_message
        return response

    def spans(self) -> list[ReceivedSpan]:
        with self._lock:
            requests = list(self.requests)
        out = []
        for request in requests:
            for rs in request.resource_spans:
                resource = {kv.key: from_any(kv.value) for kv in rs.resource.attributes}
                for ss in rs.scope_spans:
                    out.extend(ReceivedSpan(span, resource) for span in ss.spans)
        return out

    def wait_for_spans(self, count: int, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._lock:
            while self.span_count < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            with self._lock:
                self._lock.wait(0.05)
        return predicate()


# -- relay subprocess -------------------------------------------------------------------------
@dataclass
class RelayProcess:
    """A relay started as `python -m otel_grounding.relay` with ephemeral ports."""

    process: subprocess.Popen[bytes]
    log_path: str
    grpc: str | None
    http: str | None
    health: str | None
    _closed: bool = field(default=False)

    @property
    def grpc_target(self) -> str:
        assert self.grpc is not None
        return self.grpc

    @property
    def http_url(self) -> str:
        return f"http://{self.http}/v1/traces"

    def logs(self) -> list[dict[str, Any]]:
        entries = []
        with open(self.log_path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    entries.append(json.loads(line))
                except ValueError:
                    entries.append({"raw": line.rstrip("\n")})
        return entries

    def log_text(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as handle:
            return handle.read()

    def health_get(self, path: str) -> tuple[int, dict[str, Any]]:
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(f"http://{self.health}{path}", timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def metric(self, name: str) -> float:
        _, data = self.health_get("/debug/metrics")
        entry = data.get(name)
        return float(entry["total"]) if entry else 0.0

    def terminate(self, timeout: float = 20.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.kill()
            try:
                os.unlink(self.log_path)
            except OSError:
                pass

    def __enter__(self) -> RelayProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_relay(
    next_hop: str | None,
    *args: str,
    protocol: str = "grpc",
    env: dict[str, str] | None = None,
    timeout: float = 15.0,
    python: str = sys.executable,
) -> RelayProcess:
    """Start a relay forwarding to `next_hop`, on ephemeral loopback ports; wait until it listens.

    With `next_hop=None` the next hop comes from `env` (OTEL_EXPORTER_OTLP_*) alone.
    """
    handle, log_path = tempfile.mkstemp(prefix="relay-", suffix=".log")
    os.close(handle)
    command = [
        python, "-m", "otel_grounding.relay",
        "--grpc-endpoint", "127.0.0.1:0",
        "--http-endpoint", "127.0.0.1:0",
        "--health-endpoint", "127.0.0.1:0",
    ]
    if next_hop is not None:
        command += ["--exporter-endpoint", next_hop, "--exporter-protocol", protocol]
    command += list(args)
    environment = {  # none of the caller's settings, but the suite's strict mode (conftest.py)
        k: v for k, v in os.environ.items()
        if not k.startswith(("OTEL_EXPORTER_OTLP", "OTEL_GROUNDING_")) or k == STRICT_ENV
    }
    environment.update(env or {})
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=log, env=environment,
            stdin=subprocess.DEVNULL,
        )
    relay = RelayProcess(process, log_path, None, None, None)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in relay.logs():
            if entry.get("msg") == "relay: listening":
                relay.grpc, relay.http, relay.health = entry["grpc"], entry["http"], entry["health"]
                return relay
        if process.poll() is not None:
            text = relay.log_text()
            relay.close()
            raise RuntimeError(f"relay exited with {process.returncode}: {text}")
        time.sleep(0.05)
    text = relay.log_text()
    relay.close()
    raise RuntimeError(f"relay did not start within {timeout}s: {text}")


# -- building OTLP by hand --------------------------------------------------------------------
def empty_spans_request(spans: int) -> bytes:
    """A request of `spans` empty spans: 2 bytes each on the wire, about 180 once decoded
    (a decompression-free memory bomb)."""
    from otel_grounding.relay.wire import length_delimited

    return length_delimited(1, length_delimited(2, b"\x12\x00" * spans))


def process_memory(pid: int, key: str = "VmRSS") -> int:
    """A process's resident size (`VmRSS`) or its peak (`VmHWM`), in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise ValueError(f"no {key} for process {pid}")


def kv(key: str, value: Any) -> KeyValue:
    from otel_grounding.relay.otlp import to_any

    return KeyValue(key=key, value=to_any(value))


def make_span(
    trace_id: bytes,
    span_id: bytes,
    parent_id: bytes | None,
    name: str,
    attributes: dict[str, Any] | None = None,
    start: int = 1_700_000_000_000_000_000,
    end: int = 1_700_000_001_000_000_000,
) -> Span:
    span = Span(
        trace_id=trace_id, span_id=span_id, parent_span_id=parent_id or b"", name=name,
        kind=Span.SPAN_KIND_INTERNAL, start_time_unix_nano=start, end_time_unix_nano=end,
    )
    span.attributes.extend(kv(k, v) for k, v in (attributes or {}).items())
    return span


def attributes_first(span: Span) -> bytes:
    """A span encoded with its attributes before its ids: valid protobuf (fields may come in
    any order), unlike what OTLP encoders write."""
    attributes = Span()
    attributes.attributes.extend(span.attributes)
    rest = Span()
    rest.CopyFrom(span)
    del rest.attributes[:]
    return attributes.SerializeToString() + rest.SerializeToString()


def make_request(
    spans: Iterable[Span], service: str = "agent", scope: str = "agent"
) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    rs = request.resource_spans.add()
    rs.resource.attributes.append(KeyValue(key="service.name", value=AnyValue(string_value=service)))
    ss = rs.scope_spans.add()
    ss.scope.name = scope
    ss.spans.extend(spans)
    return request


def grpc_export(target: str, data: bytes, timeout: float = 10.0,
                metadata: Sequence[tuple[str, str]] | None = None,
                credentials: grpc.ChannelCredentials | None = None,
                options: Sequence[tuple[str, Any]] = ()) -> ExportTraceServiceResponse:
    """One raw Export call (bytes in); raises grpc.RpcError."""
    channel = (grpc.secure_channel(target, credentials, options=options) if credentials
               else grpc.insecure_channel(target, options=options))
    try:
        call = channel.unary_unary(EXPORT_METHOD, request_serializer=None,
                                   response_deserializer=ExportTraceServiceResponse.FromString)
        return call(data, timeout=timeout, metadata=metadata)
    finally:
        channel.close()


if __name__ == "__main__":  # a sink printing what it receives, for trying the relay by hand
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 4319
    with OtlpSink(port) as sink:
        print(f"sink on 127.0.0.1:{sink.port}", flush=True)
        seen = 0
        try:
            while True:
                time.sleep(0.5)
                spans = sink.spans()
                for received in spans[seen:]:
                    print(received.span.name, json.dumps(received.attributes, default=str),
                          flush=True)
                seen = len(spans)
        except KeyboardInterrupt:
            pass
