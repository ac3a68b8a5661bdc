"""The relay's receivers: OTLP/gRPC `TraceService/Export` and OTLP/HTTP `POST /v1/traces`,
plus `/healthz` and `/readyz` on a separate local port.

Both receivers take the raw request bytes (the gRPC handler has no deserializer), so the
relay decodes once, answers malformed input with INVALID_ARGUMENT / 400 and a message, and can
forward an untouched request byte for byte. Sizes are capped before anything is inflated:
gRPC's receive limit applies to the decompressed message; HTTP bodies are capped on the wire
(`max_request_bytes`) and while inflating (`max_decompressed_bytes`: a gzip bomb is refused
after at most that many bytes were produced). Optional bearer token (constant-time compare)
and TLS on both receivers.
"""

from __future__ import annotations

import hmac
import json
import logging
import socket
import ssl
import threading
import zlib
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import grpc
from google.protobuf import duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from otel_grounding.relay.core import GroundingRelay, Verdict
from otel_grounding.relay.otlp import InvalidRequest, decode_json, decode_protobuf, response_json
from otel_grounding.relay.telemetry import (
    LABEL_REASON,
    REFUSED_DRAINING,
    REFUSED_INVALID,
    REFUSED_QUEUE_FULL,
    REFUSED_TOO_LARGE,
    REFUSED_UNAUTHENTICATED,
    REFUSED_UNSUPPORTED,
    RateLimitedLog,
)

logger = logging.getLogger("otel_grounding.relay")

SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"
TRACES_PATH = "/v1/traces"
PROTOBUF = "application/x-protobuf"
JSON = "application/json"


@dataclass(frozen=True)
class ReceiverOptions:
    max_request_bytes: int = 4 * 1024 * 1024
    max_decompressed_bytes: int = 16 * 1024 * 1024
    token: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    grpc_workers: int = 4  # measured: more handler threads only contend for the GIL
    grpc_max_concurrent_rpcs: int = 32  # beyond this, RESOURCE_EXHAUSTED; others wait for a worker
    http_max_connections: int = 64
    read_timeout: float = 30.0


def split_endpoint(endpoint: str, default_port: int) -> tuple[str, int]:
    """`host:port` (IPv6 in brackets) to (host, port)."""
    host, sep, port = endpoint.rpartition(":")
    if not sep:
        return endpoint, default_port
    if not port.isdigit():
        raise ValueError(f"{endpoint!r} is not host:port")
    return host.strip("[]") or "127.0.0.1", int(port)


def _token_ok(expected: str | None, header: str | None) -> bool:
    if expected is None:
        return True
    if not header:
        return False
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), expected.encode())


class _Log:
    refused = RateLimitedLog()


def _log_refusal(transport: str, reason: str, message: str) -> None:
    level = logging.WARNING if reason != REFUSED_QUEUE_FULL else logging.INFO
    _Log.refused(
        f"{transport}-{reason}", level, "relay: request refused",
        transport=transport, reason=reason, error=message[:300],
    )


# -- gRPC -------------------------------------------------------------------------------------
class GrpcReceiver:
    def __init__(self, relay: GroundingRelay, endpoint: str, options: ReceiverOptions) -> None:
        self.relay = relay
        self.options = options
        self._server = grpc.server(
            futures.ThreadPoolExecutor(options.grpc_workers, thread_name_prefix="relay-grpc"),
            options=[
                ("grpc.max_receive_message_length", options.max_decompressed_bytes),
                ("grpc.max_send_message_length", 4 * 1024 * 1024),
                ("grpc.so_reuseport", 0),
            ],
            maximum_concurrent_rpcs=options.grpc_max_concurrent_rpcs,
        )
        handler = grpc.unary_unary_rpc_method_handler(
            self._export, request_deserializer=None, response_serializer=None
        )
        self._server.add_generic_rpc_handlers(
            [grpc.method_handlers_generic_handler(SERVICE, {"Export": handler})]
        )
        host, port = split_endpoint(endpoint, 4317)
        address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            if options.tls_cert:
                with open(options.tls_cert, "rb") as cert, open(options.tls_key or "", "rb") as key:
                    credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
                self.port = self._server.add_secure_port(address, credentials)
            else:
                self.port = self._server.add_insecure_port(address)
        except RuntimeError as exc:  # grpcio raises RuntimeError when it cannot bind
            raise OSError(f"cannot listen on {address} (gRPC): {exc}") from None
        if not self.port:
            raise OSError(f"cannot listen on {address} (gRPC)")
        self.address = f"{host}:{self.port}"

    def start(self) -> None:
        self._server.start()

    def stop(self, grace: float) -> None:
        self._server.stop(grace).wait(grace + 1.0)

    def _export(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        metadata = dict(context.invocation_metadata() or ())
        if not _token_ok(self.options.token, metadata.get("authorization")):
            self._count(REFUSED_UNAUTHENTICATED)
            _log_refusal("grpc", REFUSED_UNAUTHENTICATED, "missing or wrong bearer token")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")
        try:
            decoded = decode_protobuf(request)
        except InvalidRequest as exc:
            self._count(REFUSED_INVALID)
            _log_refusal("grpc", REFUSED_INVALID, str(exc))
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        verdict = self.relay.ingest(decoded, request, "grpc")
        if not verdict.accepted:
            _log_refusal("grpc", verdict.reason or "", verdict.message)
            if verdict.reason in (REFUSED_QUEUE_FULL, REFUSED_DRAINING):
                delay = verdict.retry_after or 1.0
                info = error_details_pb2.RetryInfo(
                    retry_delay=duration_pb2.Duration(
                        seconds=int(delay), nanos=int((delay % 1) * 1e9)
                    )
                )
                status = status_pb2.Status(code=code_pb2.UNAVAILABLE, message=verdict.message)
                status.details.add().Pack(info)
                context.set_trailing_metadata(
                    (
                        ("google.rpc.retryinfo-bin", info.SerializeToString()),
                        ("grpc-status-details-bin", status.SerializeToString()),
                    )
                )
                context.abort(grpc.StatusCode.UNAVAILABLE, verdict.message)
            if verdict.reason == REFUSED_INVALID:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, verdict.message)
            # too large for the queue: not retryable as is (no RetryInfo)
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, verdict.message)
        return b""  # an empty ExportTraceServiceResponse: full success

    def _count(self, reason: str) -> None:
        if self.relay.metrics is not None:
            self.relay.metrics.requests_refused.add(1, {LABEL_REASON: reason})


# -- HTTP -------------------------------------------------------------------------------------
class _TooLarge(Exception):
    pass


def _inflate(body: bytes, encoding: str, limit: int) -> bytes:
    """Decompress, producing at most `limit` bytes: beyond that raises _TooLarge without
    inflating further (a gzip bomb costs at most `limit` bytes). Concatenated gzip members
    are read in turn; bad data raises InvalidRequest."""
    wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
    out: list[bytes] = []
    produced = 0
    data = body
    try:
        while True:
            inflater = zlib.decompressobj(wbits)
            chunk = inflater.decompress(data, limit - produced + 1)
            produced += len(chunk)
            out.append(chunk)
            if produced > limit or inflater.unconsumed_tail:
                raise _TooLarge(f"decompressed body exceeds {limit} bytes")
            if not inflater.eof:
                raise InvalidRequest(f"body is truncated {encoding} data")
            data = inflater.unused_data
            if not data or wbits == zlib.MAX_WBITS:
                break
    except zlib.error as exc:
        raise InvalidRequest(f"body is not valid {encoding} data: {exc}") from None
    return b"".join(out)


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128

    relay: GroundingRelay
    options: ReceiverOptions
    tls: ssl.SSLContext | None
    slots: threading.BoundedSemaphore

    def finish_request(self, request: Any, client_address: Any) -> None:
        # TLS handshake in the connection's own thread, never in the accept loop
        request.settimeout(self.options.read_timeout)
        if self.tls is not None:
            try:
                request = self.tls.wrap_socket(request, server_side=True)
            except (OSError, ssl.SSLError):
                return
        super().finish_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            try:
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HttpServer
    server_version = "otel-grounding-relay"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence stderr
        return

    # -- replies ----------------------------------------------------------------------------
    def _reply(
        self,
        status: int,
        body: bytes,
        content_type: str,
        headers: tuple[tuple[str, str], ...] = (),
        close: bool = False,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers:
            self.send_header(key, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(
        self,
        status: int,
        code: int,
        message: str,
        json_body: bool,
        reason: str,
        headers: tuple[tuple[str, str], ...] = (),
        close: bool = False,
        count: bool = True,
    ) -> None:
        relay = self.server.relay
        if count and relay.metrics is not None and reason != "not_found":
            relay.metrics.requests_refused.add(1, {LABEL_REASON: reason})
        _log_refusal("http", reason, message)
        if json_body:
            body = json.dumps({"code": code, "message": message}).encode()
            self._reply(status, body, JSON, headers, close)
        else:
            body = status_pb2.Status(code=code, message=message).SerializeToString()
            self._reply(status, body, PROTOBUF, headers, close)

    # -- methods ----------------------------------------------------------------------------
    def do_GET(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, code_pb2.UNIMPLEMENTED,
                    "only POST /v1/traces", False, "not_found", (("Allow", "POST"),))

    def do_POST(self) -> None:
        options = self.server.options
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        json_body = content_type == JSON
        path = self.path.split("?")[0]
        if path != TRACES_PATH:
            self._discard_or_close()
            self._error(HTTPStatus.NOT_FOUND, code_pb2.NOT_FOUND, f"no such path {path!r}; "
                        f"traces go to POST {TRACES_PATH}", json_body, "not_found")
            return
        if not _token_ok(options.token, self.headers.get("Authorization")):
            self._discard_or_close()
            self._error(HTTPStatus.UNAUTHORIZED, code_pb2.UNAUTHENTICATED,
                        "missing or invalid bearer token", json_body, REFUSED_UNAUTHENTICATED,
                        (("WWW-Authenticate", 'Bearer realm="otel-grounding-relay"'),))
            return
        if content_type not in (PROTOBUF, JSON):
            self._discard_or_close()
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, code_pb2.INVALID_ARGUMENT,
                        f"unsupported Content-Type {content_type!r}: use {PROTOBUF} or {JSON}",
                        False, REFUSED_UNSUPPORTED)
            return
        encoding = (self.headers.get("Content-Encoding") or "identity").strip().lower()
        if encoding not in ("identity", "gzip", "x-gzip", "deflate"):
            self._discard_or_close()
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, code_pb2.INVALID_ARGUMENT,
                        f"unsupported Content-Encoding {encoding!r}: use gzip, deflate or none",
                        json_body, REFUSED_UNSUPPORTED)
            return
        try:
            body = self._read_body(options.max_request_bytes)
            if encoding != "identity":
                body = _inflate(body, encoding, options.max_decompressed_bytes)
            elif len(body) > options.max_decompressed_bytes:
                raise _TooLarge(f"body exceeds {options.max_decompressed_bytes} bytes")
            request = decode_json(body) if json_body else decode_protobuf(body)
        except _TooLarge as exc:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, code_pb2.RESOURCE_EXHAUSTED,
                        str(exc), json_body, REFUSED_TOO_LARGE, close=True)
            return
        except InvalidRequest as exc:
            self._error(HTTPStatus.BAD_REQUEST, code_pb2.INVALID_ARGUMENT, str(exc), json_body,
                        REFUSED_INVALID)
            return
        except (OSError, ValueError) as exc:  # client went away or sent a broken framing
            self._error(HTTPStatus.BAD_REQUEST, code_pb2.INVALID_ARGUMENT,
                        f"cannot read the request body: {exc}", json_body, REFUSED_INVALID,
                        close=True)
            return
        verdict = self.server.relay.ingest(
            request, body if not json_body else None, "http"
        )
        if not verdict.accepted:
            self._refused(verdict, json_body)
            return
        response = ExportTraceServiceResponse()
        if json_body:
            self._reply(HTTPStatus.OK, response_json(response), JSON)
        else:
            self._reply(HTTPStatus.OK, response.SerializeToString(), PROTOBUF)

    def _refused(self, verdict: Verdict, json_body: bool) -> None:
        if verdict.reason in (REFUSED_QUEUE_FULL, REFUSED_DRAINING):
            seconds = max(1, round(verdict.retry_after or 1.0))
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, code_pb2.UNAVAILABLE, verdict.message,
                        json_body, verdict.reason or "", (("Retry-After", str(seconds)),),
                        close=verdict.reason == REFUSED_DRAINING, count=False)
        elif verdict.reason == REFUSED_INVALID:
            self._error(HTTPStatus.BAD_REQUEST, code_pb2.INVALID_ARGUMENT, verdict.message,
                        json_body, verdict.reason, count=False)
        else:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, code_pb2.RESOURCE_EXHAUSTED,
                        verdict.message, json_body, verdict.reason or "", count=False)

    def _read_body(self, limit: int) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked(limit)
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            raise InvalidRequest("Content-Length or chunked Transfer-Encoding required")
        try:
            length = int(length_header)
        except ValueError:
            raise InvalidRequest(f"bad Content-Length {length_header!r}") from None
        if length < 0:
            raise InvalidRequest(f"bad Content-Length {length_header!r}")
        if length > limit:
            raise _TooLarge(f"request body of {length} bytes exceeds {limit} bytes")
        body = self.rfile.read(length)
        if len(body) != length:
            raise InvalidRequest("request body shorter than its Content-Length")
        return body

    def _read_chunked(self, limit: int) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise InvalidRequest("bad chunk size in chunked body") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            total += size
            if total > limit:
                raise _TooLarge(f"request body exceeds {limit} bytes")
            parts.append(self.rfile.read(size))
            self.rfile.readline(8)

    def _discard_or_close(self) -> None:
        """Skip a refused request's body when small, else close the connection after replying."""
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if 0 <= length <= 64 * 1024 and "chunked" not in (
            self.headers.get("Transfer-Encoding") or ""
        ).lower():
            self.rfile.read(length)
        else:
            self.close_connection = True


class HttpReceiver:
    def __init__(self, relay: GroundingRelay, endpoint: str, options: ReceiverOptions) -> None:
        host, port = split_endpoint(endpoint, 4318)
        server_class = type("RelayHttpServer", (_HttpServer,), {})
        if ":" in host:
            server_class.address_family = socket.AF_INET6
        self._server = server_class((host, port), _Handler)
        self._server.relay = relay
        self._server.options = options
        self._server.slots = threading.BoundedSemaphore(options.http_max_connections)
        self._server.tls = None
        if options.tls_cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.minimum_version = ssl.TLSVersion.TLSv1_2
            context.load_cert_chain(options.tls_cert, options.tls_key)
            self._server.tls = context
        self.port = self._server.server_address[1]
        self.address = f"{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
            name="relay-http", daemon=True,
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# -- health -----------------------------------------------------------------------------------
class HealthServer:
    """`/healthz` (alive), `/readyz` (accepting: not draining, queue not full) and
    `/debug/metrics` (the relay's metrics as JSON) on a separate local port."""

    def __init__(
        self,
        endpoint: str,
        status: Callable[[], dict[str, Any]],
        metrics: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        host, port = split_endpoint(endpoint, 13133)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                state = status()
                if path == "/healthz":
                    code, body = 200, {"status": "ok", **state}
                elif path == "/readyz":
                    ready = state.get("ready", False)
                    code, body = (200 if ready else 503), state
                elif path == "/debug/metrics" and metrics is not None:
                    code, body = 200, metrics()
                else:
                    code, body = 404, {"error": "not found"}
                data = json.dumps(body, default=str).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server_class = type("HealthHttpServer", (ThreadingHTTPServer,), {"daemon_threads": True})
        if ":" in host:
            server_class.address_family = socket.AF_INET6
        self._server = server_class((host, port), Handler)
        self.port = self._server.server_address[1]
        self.address = f"{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
            name="relay-health", daemon=True,
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
