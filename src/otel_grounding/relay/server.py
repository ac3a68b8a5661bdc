"""The relay's receivers: OTLP/gRPC `TraceService/Export` and OTLP/HTTP `POST /v1/traces`,
plus `/healthz` and `/readyz` on a separate local port.

Both receivers take the raw request bytes (the gRPC handler has no deserializer), so the
relay decodes once, answers malformed input with INVALID_ARGUMENT / 400 and a message, and can
forward an untouched request byte for byte. Sizes are capped before anything is inflated:
gRPC's receive limit applies to the decompressed message; HTTP bodies are capped on the wire
(`max_request_bytes`) and while inflating (`max_decompressed_bytes`: a gzip bomb is refused
after at most that many bytes were produced); what a request may cost is reserved from the
intake budget (`memory`) before it is read, inflated and decoded. Optional bearer token
(constant-time compare) and TLS on both receivers.

Every overload answer is one OTLP clients retry (UNAVAILABLE + RetryInfo, 503 + Retry-After):
gRPC calls beyond the cap are refused before their request is read; HTTP connections beyond
the pool (or one peer's share of it) get their request read and a 503. A whole request, not
each read, is bounded in time (`request_timeout`) on both receivers.
"""

from __future__ import annotations

import functools
import hmac
import itertools
import json
import logging
import os
import socket
import ssl
import threading
import time
import zlib
from collections import Counter
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

from otel_grounding.relay.cli import DEFAULT_HEALTH_PORT
from otel_grounding.relay.core import GroundingRelay, Verdict
from otel_grounding.relay.memory import IntakeBudget, Refusal, Reservation
from otel_grounding.relay.otlp import InvalidRequest, decode_json, decode_protobuf, response_json
from otel_grounding.relay.telemetry import (
    LABEL_REASON,
    REFUSED_BUSY,
    REFUSED_DRAINING,
    REFUSED_INVALID,
    REFUSED_MEMORY,
    REFUSED_TOO_LARGE,
    REFUSED_UNAUTHENTICATED,
    REFUSED_UNSUPPORTED,
    RETRYABLE_REFUSALS,
    RateLimitedLog,
)

logger = logging.getLogger("otel_grounding.relay")

SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"
EXPORT_PATH = f"/{SERVICE}/Export"
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
    grpc_max_concurrent_rpcs: int = 32  # beyond this, UNAVAILABLE + RetryInfo
    http_max_connections: int = 64  # beyond this (and per peer), 503 + Retry-After
    http_max_connections_per_peer: int = 32
    read_timeout: float = 30.0  # one read
    request_timeout: float = 30.0  # one whole request: HTTP (or the idle wait before it), gRPC


#: The largest TCP port number.
MAX_PORT = 65535


def split_endpoint(endpoint: str, default_port: int) -> tuple[str, int]:
    """`host:port` (IPv6 in brackets) to (host, port); ValueError for a port that is not a
    number from 0 to 65535 (0: any free port)."""
    host, sep, port = endpoint.rpartition(":")
    if not sep:
        return endpoint, default_port
    if not port.isdigit():
        raise ValueError(f"{endpoint!r} is not HOST:PORT (the port {port!r} is not a number)")
    if int(port) > MAX_PORT:
        raise ValueError(f"{endpoint!r}: the port {int(port)} is not a TCP port (0-{MAX_PORT})")
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
    level = logging.WARNING if reason not in RETRYABLE_REFUSALS else logging.INFO
    _Log.refused(
        f"{transport}-{reason}", level, "relay: request refused",
        transport=transport, reason=reason, error=message[:300],
    )


# -- gRPC -------------------------------------------------------------------------------------
def _abort_retryable(context: grpc.ServicerContext, delay: float, message: str) -> None:
    """UNAVAILABLE with a RetryInfo delay, in `grpc-status-details-bin` (what OTLP specifies and
    the Collector reads) and as `google.rpc.retryinfo-bin` (what the Python SDK reads)."""
    info = error_details_pb2.RetryInfo(
        retry_delay=duration_pb2.Duration(seconds=int(delay), nanos=int((delay % 1) * 1e9))
    )
    status = status_pb2.Status(code=code_pb2.UNAVAILABLE, message=message)
    status.details.add().Pack(info)
    context.set_trailing_metadata(
        (
            ("google.rpc.retryinfo-bin", info.SerializeToString()),
            ("grpc-status-details-bin", status.SerializeToString()),
        )
    )
    context.abort(grpc.StatusCode.UNAVAILABLE, message)


class _Admission(grpc.GenericRpcHandler):
    """Admits at most `cap` Export calls at a time; the others are answered at once, from their
    own small pool and without reading their request, with the retryable UNAVAILABLE.

    grpcio's own `maximum_concurrent_rpcs` answers RESOURCE_EXHAUSTED without RetryInfo, which
    OTLP clients (the Collector's among them) treat as permanent. `service` runs on the
    server's polling thread, before a call is queued for a worker. Both handlers take the
    request as a stream, so that a refused call's request is never read and an admitted call
    always reaches `_admitted` (which releases its slot), even when cancelled meanwhile."""

    def __init__(self, receiver: GrpcReceiver, cap: int) -> None:
        self._receiver = receiver
        self._cap = cap
        self._active = 0
        self._lock = threading.Lock()
        self.refusals = futures.ThreadPoolExecutor(2, thread_name_prefix="relay-grpc-refuse")
        self._admit = grpc.stream_unary_rpc_method_handler(self._admitted)

        def refuse(requests: Any, context: grpc.ServicerContext) -> bytes:
            return receiver.refuse_retryable(
                context, REFUSED_BUSY, "too many concurrent export calls, retry later")

        def refuse_memory(requests: Any, context: grpc.ServicerContext) -> bytes:
            return receiver.refuse_retryable(
                context, REFUSED_MEMORY, "the relay is at its memory limit, retry later")

        for behaviour in (refuse, refuse_memory):
            behaviour.experimental_thread_pool = self.refusals  # type: ignore[attr-defined]
        self._refuse = grpc.stream_unary_rpc_method_handler(refuse)
        self._refuse_memory = grpc.stream_unary_rpc_method_handler(refuse_memory)

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
        if details.method != EXPORT_PATH:
            return None
        budget = self._receiver.budget
        if budget is not None and budget.limited:  # refused before its request is read
            return self._refuse_memory
        with self._lock:
            if self._active >= self._cap:
                return self._refuse
            self._active += 1
        return self._admit

    def _admitted(self, requests: Any, context: grpc.ServicerContext) -> bytes:
        deadlines = self._receiver.deadlines
        token = deadlines.watch(context.cancel, self._receiver.options.request_timeout)
        try:
            try:
                request = next(requests)
            except StopIteration:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "no request message")
            except grpc.RpcError:  # gone, or cancelled: it took longer than a request may
                return b""
            finally:
                deadlines.unwatch(token)
            return self._receiver.export(request, context)
        finally:
            with self._lock:
                self._active -= 1


class GrpcReceiver:
    def __init__(
        self,
        relay: GroundingRelay,
        endpoint: str,
        options: ReceiverOptions,
        budget: IntakeBudget | None = None,
    ) -> None:
        self.relay = relay
        self.options = options
        self.budget = budget
        self.deadlines = _Deadlines()
        self._server = grpc.server(
            futures.ThreadPoolExecutor(options.grpc_workers, thread_name_prefix="relay-grpc"),
            options=[
                ("grpc.max_receive_message_length", options.max_decompressed_bytes),
                ("grpc.max_send_message_length", 4 * 1024 * 1024),
                ("grpc.so_reuseport", 0),
                # under a memory limit, no flow-control window growth: a call's request waits
                # at the client until it is served instead of in gRPC's buffers (measured: a
                # burst's peak 211 MiB instead of 248-263 under a 256 MiB limit)
                ("grpc.http2.bdp_probe", 0 if budget is not None and budget.limit else 1),
            ],
        )
        self._admission = _Admission(self, options.grpc_max_concurrent_rpcs)
        self._server.add_generic_rpc_handlers([self._admission])
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
        self.deadlines.start()
        self._server.start()

    def stop(self, grace: float) -> None:
        self._server.stop(grace).wait(grace + 1.0)
        self._admission.refusals.shutdown(wait=False)
        self.deadlines.stop()

    def refuse_retryable(self, context: grpc.ServicerContext, reason: str, message: str) -> bytes:
        self._count(reason)
        _log_refusal("grpc", reason, message)
        _abort_retryable(context, self.relay.retry_after, message)
        return b""

    def export(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        metadata = dict(context.invocation_metadata() or ())
        if not _token_ok(self.options.token, metadata.get("authorization")):
            self._count(REFUSED_UNAUTHENTICATED)
            _log_refusal("grpc", REFUSED_UNAUTHENTICATED, "missing or wrong bearer token")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")
        with Reservation(self.budget) as reservation:
            try:
                reservation.add(len(request))
                reservation.decoding(request, json=False)
            except Refusal as refusal:
                self._count(refusal.reason)
                _log_refusal("grpc", refusal.reason, str(refusal))
                if refusal.permanent:
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(refusal))
                _abort_retryable(context, self.relay.retry_after, str(refusal))
            try:
                decoded = decode_protobuf(request)
            except InvalidRequest as exc:
                self._count(REFUSED_INVALID)
                _log_refusal("grpc", REFUSED_INVALID, str(exc))
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            verdict = self.relay.ingest(decoded, request, "grpc")
            del decoded
        if not verdict.accepted:
            _log_refusal("grpc", verdict.reason or "", verdict.message)
            if verdict.reason in RETRYABLE_REFUSALS:
                _abort_retryable(context, verdict.retry_after or 1.0, verdict.message)
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


def _inflate(body: bytes, encoding: str, limit: int, reservation: Reservation) -> bytes:
    """Decompress, producing at most `limit` bytes: beyond that raises _TooLarge without
    inflating further (a gzip bomb costs at most `limit` bytes), each piece reserved before it
    is produced. Concatenated gzip members are read in turn; bad data raises InvalidRequest."""
    wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
    out: list[bytes] = []
    produced = 0
    data = body
    try:
        while True:
            inflater = zlib.decompressobj(wbits)
            pending = data
            while True:
                want = min(INFLATE_PIECE, limit - produced + 1)
                reservation.add(want)
                chunk = inflater.decompress(pending, want)
                reservation.release(want - len(chunk))
                produced += len(chunk)
                out.append(chunk)
                if produced > limit:
                    raise _TooLarge(f"decompressed body exceeds {limit} bytes")
                pending = inflater.unconsumed_tail
                if inflater.eof or (not pending and len(chunk) < want):
                    break
            if not inflater.eof:
                raise InvalidRequest(f"body is truncated {encoding} data")
            data = inflater.unused_data
            if not data or wbits == zlib.MAX_WBITS:
                break
    except zlib.error as exc:
        raise InvalidRequest(f"body is not valid {encoding} data: {exc}") from None
    reservation.add(produced)  # the pieces and their join, for a moment
    joined = b"".join(out)
    del out
    reservation.release(produced)
    return joined


#: Bodies are inflated in pieces of at most this many bytes, each reserved first.
INFLATE_PIECE = 1024 * 1024


class _Deadlines:
    """Bounds the time a request may take as a whole, not per read: one reaper thread runs
    the action of every request past its deadline (an HTTP connection is shut down, which
    ends the blocked read in its handler thread; a gRPC call is cancelled)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: dict[int, tuple[float, Callable[[], object]]] = {}
        self._tokens = itertools.count()
        self._thread = threading.Thread(target=self._reap, name="relay-deadlines", daemon=True)
        self._stopped = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def watch(self, action: Callable[[], object], seconds: float) -> int:
        token = next(self._tokens)
        with self._lock:
            self._due[token] = (time.monotonic() + seconds, action)
        return token

    def watch_socket(self, sock: socket.socket, seconds: float) -> int:
        return self.watch(functools.partial(_shut_down, sock.fileno()), seconds)

    def extend(self, token: int, seconds: float) -> None:
        with self._lock:
            entry = self._due.get(token)
            if entry is not None:
                self._due[token] = (time.monotonic() + seconds, entry[1])

    def unwatch(self, token: int) -> None:
        with self._lock:  # after this the action never runs (a descriptor may be reused)
            self._due.pop(token, None)

    def _reap(self) -> None:
        while not self._stopped.wait(DEADLINE_TICK_S):
            now = time.monotonic()
            with self._lock:
                expired = [t for t, (deadline, _) in self._due.items() if deadline <= now]
                for token in expired:
                    _, action = self._due.pop(token)
                    try:
                        action()
                    except Exception:  # a call or connection already gone
                        pass


def _shut_down(fd: int) -> None:
    """Shut a connection down through a duplicate of its descriptor (shutdown acts on the
    shared connection; the handler thread's blocked read returns)."""
    with socket.socket(fileno=os.dup(fd)) as dup:
        dup.shutdown(socket.SHUT_RDWR)


#: How often request deadlines are checked (a request may overrun its deadline by this much).
DEADLINE_TICK_S = 0.25
#: A connection refused for overload is answered within this long at most.
REFUSAL_TIMEOUT_S = 5.0


class _HttpServer(ThreadingHTTPServer):
    """One thread per connection, at most `http_max_connections` served and as many again
    being refused (their request read and answered 503 + Retry-After, never reset); one peer
    holds at most `http_max_connections_per_peer` of the served ones."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 128

    relay: GroundingRelay
    options: ReceiverOptions
    tls: ssl.SSLContext | None
    slots: threading.BoundedSemaphore
    refusing: threading.BoundedSemaphore
    deadlines: _Deadlines
    budget: IntakeBudget | None
    peers: Counter[str]
    peers_lock: threading.Lock

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        peer = str(client_address[0])
        handler: type[_Handler] | None = None
        timeout = self.options.request_timeout
        with self.peers_lock:
            if self.peers[peer] < self.options.http_max_connections_per_peer and (
                self.slots.acquire(blocking=False)
            ):
                self.peers[peer] += 1
                handler = _Handler
        if handler is None:
            if not self.refusing.acquire(blocking=False):
                self.shutdown_request(request)  # far beyond every bound: no thread to spare
                return
            handler = _Overloaded
            timeout = min(timeout, REFUSAL_TIMEOUT_S)
        token = self.deadlines.watch_socket(request, timeout)
        try:
            request.settimeout(min(self.options.read_timeout, timeout))
            if self.tls is not None:  # the handshake in the connection's own thread
                request = self.tls.wrap_socket(request, server_side=True)
            handler(request, client_address, self, token)
        except (OSError, ssl.SSLError):
            pass
        except Exception:  # reported by socketserver's own error hook
            self.handle_error(request, client_address)
        finally:
            self.deadlines.unwatch(token)
            self.shutdown_request(request)
            if handler is _Overloaded:
                self.refusing.release()
            else:
                with self.peers_lock:
                    self.peers[peer] -= 1
                    if not self.peers[peer]:
                        del self.peers[peer]
                self.slots.release()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HttpServer
    server_version = "otel-grounding-relay"
    sys_version = ""

    def __init__(self, request: Any, client_address: Any, server: Any, token: int) -> None:
        self._token = token
        super().__init__(request, client_address, server)

    def handle_one_request(self) -> None:
        super().handle_one_request()
        # the next request on this connection (and the idle wait for it) gets its own time
        self.server.deadlines.extend(self._token, self.server.options.request_timeout)

    def log_message(self, format: str, *args: Any) -> None:
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
        with Reservation(self.server.budget) as reservation:
            self._post(options, json_body, encoding, reservation)

    def _post(
        self, options: ReceiverOptions, json_body: bool, encoding: str, reservation: Reservation
    ) -> None:
        try:
            body = self._read_body(options.max_request_bytes, reservation=reservation)
            if encoding != "identity":
                compressed = len(body)
                body = _inflate(body, encoding, options.max_decompressed_bytes, reservation)
                reservation.release(compressed)
            elif len(body) > options.max_decompressed_bytes:
                raise _TooLarge(f"body exceeds {options.max_decompressed_bytes} bytes")
            reservation.decoding(body, json_body)
            request = decode_json(body) if json_body else decode_protobuf(body)
        except Refusal as refusal:
            if refusal.permanent:
                self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, code_pb2.RESOURCE_EXHAUSTED,
                            str(refusal), json_body, refusal.reason, close=True)
            else:
                seconds = max(1, round(self.server.relay.retry_after))
                self._error(HTTPStatus.SERVICE_UNAVAILABLE, code_pb2.UNAVAILABLE, str(refusal),
                            json_body, refusal.reason, (("Retry-After", str(seconds)),))
            return
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
        if verdict.reason in RETRYABLE_REFUSALS:
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

    def _read_body(
        self, limit: int, keep: bool = True, reservation: Reservation | None = None
    ) -> bytes:
        """The body (at most `limit` bytes on the wire, else _TooLarge), reserved before it is
        read; with `keep` False it is read and discarded in pieces (a refused request costs
        no memory). When the reservation is refused the body is still read (discarded), so
        the client gets the answer rather than a reset."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked(limit, keep, reservation)
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            raise InvalidRequest("Content-Length or chunked Transfer-Encoding required")
        if not length_header.strip().isdigit():
            raise InvalidRequest(f"bad Content-Length {length_header!r}")
        length = int(length_header)
        if length > limit:
            raise _TooLarge(f"request body of {length} bytes exceeds {limit} bytes")
        if reservation is not None:
            try:
                reservation.add(length)
            except Refusal:
                self._read_exactly(length, keep=False)
                raise
        return self._read_exactly(length, keep)

    def _read_exactly(self, length: int, keep: bool) -> bytes:
        parts: list[bytes] = []
        left = length
        while left > 0:
            part = self.rfile.read(min(left, READ_PIECE))
            if not part:
                raise InvalidRequest("request body shorter than its Content-Length")
            left -= len(part)
            if keep:
                parts.append(part)
        return b"".join(parts)

    def _read_chunked(
        self, limit: int, keep: bool = True, reservation: Reservation | None = None
    ) -> bytes:
        parts: list[bytes] = []
        total = 0
        refused: Refusal | None = None
        while True:
            line = self.rfile.readline(1024)
            token = line.split(b";")[0].strip()
            if not token or len(token) > 16 or token.strip(HEX_DIGITS):
                self.close_connection = True  # the framing is lost: nothing after it is read
                raise InvalidRequest("bad chunk size in chunked body")  # no sign, no 0x: hex only
            size = int(token, 16)
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                if refused is not None:
                    raise refused
                return b"".join(parts)
            total += size
            if total > limit:
                raise _TooLarge(f"request body exceeds {limit} bytes")
            if reservation is not None and refused is None:
                try:
                    reservation.add(size)
                except Refusal as refusal:  # read the rest, discarded, then answer
                    refused, keep, parts = refusal, False, []
            part = self._read_exactly(size, keep)
            if keep:
                parts.append(part)
            if self.rfile.readline(8) not in (b"\r\n", b"\n"):
                self.close_connection = True
                raise InvalidRequest("chunk not followed by CRLF in chunked body")

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


#: Bodies are read in pieces of at most this many bytes.
READ_PIECE = 64 * 1024
HEX_DIGITS = b"0123456789abcdefABCDEF"


class _Overloaded(_Handler):
    """A connection beyond the pool's bounds: its request is read (and discarded) and answered
    with the retryable 503 + Retry-After, then the connection closes. Never a reset: a client
    still sending its body when the server closes gets one instead of the answer."""

    def do_POST(self) -> None:
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            self._read_body(self.server.options.max_request_bytes, keep=False)
        except (_TooLarge, InvalidRequest, OSError, ValueError):
            self.close_connection = True  # answered all the same, then closed
        seconds = max(1, round(self.server.relay.retry_after))
        self._error(HTTPStatus.SERVICE_UNAVAILABLE, code_pb2.UNAVAILABLE,
                    "too many connections, retry later", content_type == JSON, REFUSED_BUSY,
                    (("Retry-After", str(seconds)),), close=True)

    do_PUT = do_POST
    do_GET = do_POST


class HttpReceiver:
    def __init__(
        self,
        relay: GroundingRelay,
        endpoint: str,
        options: ReceiverOptions,
        budget: IntakeBudget | None = None,
    ) -> None:
        host, port = split_endpoint(endpoint, 4318)
        server_class: type[_HttpServer] = type("RelayHttpServer", (_HttpServer,), {})
        if ":" in host:
            server_class.address_family = socket.AF_INET6
        # process_request_thread builds the handler itself (with its deadline token).
        self._server = server_class((host, port), _Handler)  # type: ignore[arg-type]
        self._server.relay = relay
        self._server.options = options
        self._server.slots = threading.BoundedSemaphore(options.http_max_connections)
        self._server.refusing = threading.BoundedSemaphore(options.http_max_connections)
        self._server.peers = Counter()
        self._server.peers_lock = threading.Lock()
        self._server.deadlines = _Deadlines()
        self._server.budget = budget
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
        self._server.deadlines.start()
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._server.deadlines.stop()


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
        host, port = split_endpoint(endpoint, DEFAULT_HEALTH_PORT)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
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

        server_class: type[ThreadingHTTPServer] = type(
            "HealthHttpServer", (ThreadingHTTPServer,), {"daemon_threads": True}
        )
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
