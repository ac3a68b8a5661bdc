"""The OTLP/HTTP receiver: `POST /v1/traces`, protobuf or JSON, identity, gzip or deflate.

One thread per connection, bounded: at most `http_max_connections` served (at most
`http_max_connections_per_peer` of them from one client address) and as many again being
refused, their request read and answered 503 + Retry-After (never a reset). A whole request,
headers and body, and the idle wait before the next one on a kept-alive connection, takes at
most `request_timeout` (`deadlines`). Bodies are read by `http_body`, within their caps and the
intake budget.
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
from collections import Counter
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from google.rpc import code_pb2, status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from otel_grounding.internal_error import internal_error
from otel_grounding.relay.core import GroundingRelay, Verdict
from otel_grounding.relay.deadlines import Deadlines
from otel_grounding.relay.http_body import (
    LostFraming,
    TooLarge,
    discard_small_body,
    inflate,
    read_body,
)
from otel_grounding.relay.memory import IntakeBudget, Refusal, Reservation
from otel_grounding.relay.otlp import InvalidRequest, decode_json, decode_protobuf, response_json
from otel_grounding.relay.receiver import (
    JSON,
    PROTOBUF,
    TRACES_PATH,
    ReceiverOptions,
    log_refusal,
    split_endpoint,
    token_ok,
)
from otel_grounding.relay.telemetry import (
    LABEL_REASON,
    REFUSED_BUSY,
    REFUSED_DRAINING,
    REFUSED_INVALID,
    REFUSED_TOO_LARGE,
    REFUSED_UNAUTHENTICATED,
    REFUSED_UNSUPPORTED,
    RETRYABLE_REFUSALS,
)

#: The OTLP/HTTP port a listen address without one gets.
DEFAULT_HTTP_PORT = 4318
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
    deadlines: Deadlines
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
        except OSError:  # the client went away, or its TLS handshake failed
            pass
        except Exception:  # a bug, not bad input: the error policy's, not the client's
            internal_error("relay.http", self.relay.pipeline.metrics.count_error)
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
        log_refusal("http", reason, message)
        if json_body:
            body = json.dumps({"code": code, "message": message}).encode()
            self._reply(status, body, JSON, headers, close)
        else:
            body = status_pb2.Status(code=code, message=message).SerializeToString()
            self._reply(status, body, PROTOBUF, headers, close)

    def _discard_or_close(self) -> None:
        """Skip a refused request's body when small, else close the connection after replying."""
        if not discard_small_body(self.rfile, self.headers):
            self.close_connection = True

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
        if not token_ok(options.token, self.headers.get("Authorization")):
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
            body = read_body(self.rfile, self.headers, options.max_request_bytes,
                             reservation=reservation)
            if encoding != "identity":
                compressed = len(body)
                body = inflate(body, encoding, options.max_decompressed_bytes, reservation)
                reservation.release(compressed)
            elif len(body) > options.max_decompressed_bytes:
                raise TooLarge(f"body exceeds {options.max_decompressed_bytes} bytes")
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
        except TooLarge as exc:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, code_pb2.RESOURCE_EXHAUSTED,
                        str(exc), json_body, REFUSED_TOO_LARGE, close=True)
            return
        except InvalidRequest as exc:
            if isinstance(exc, LostFraming):
                self.close_connection = True  # nothing after it on this connection is read
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

            self.close_connection = True




class _Overloaded(_Handler):
    """A connection beyond the pool's bounds: its request is read (and discarded) and answered
    with the retryable 503 + Retry-After, then the connection closes. Never a reset: a client
    still sending its body when the server closes gets one instead of the answer."""

    def do_POST(self) -> None:
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            read_body(self.rfile, self.headers, self.server.options.max_request_bytes, keep=False)
        except (TooLarge, InvalidRequest, OSError, ValueError):
            self.close_connection = True  # answered all the same, then closed
        seconds = max(1, round(self.server.relay.retry_after))
        self._error(HTTPStatus.SERVICE_UNAVAILABLE, code_pb2.UNAVAILABLE,
                    "too many connections, retry later", content_type == JSON, REFUSED_BUSY,
                    (("Retry-After", str(seconds)),), close=True)

    do_PUT = do_POST
    do_GET = do_POST


class HttpReceiver:
    """An OTLP/HTTP listener feeding the relay; `start`, then `stop`."""

    def __init__(
        self,
        relay: GroundingRelay,
        endpoint: str,
        options: ReceiverOptions,
        budget: IntakeBudget | None = None,
    ) -> None:
        host, port = split_endpoint(endpoint, DEFAULT_HTTP_PORT)
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
        self._server.deadlines = Deadlines()
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
        if self._thread.ident is not None:  # shutdown() waits for a serve loop that started
            self._server.shutdown()
        self._server.server_close()
        self._server.deadlines.stop()
