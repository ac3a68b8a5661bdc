"""The OTLP/gRPC receiver: `TraceService/Export`, the request taken as raw bytes.

gRPC's receive limit applies to the decompressed message; what a request may cost is reserved
from the intake budget before it is decoded. Calls beyond `grpc_max_concurrent_rpcs` are
refused before their request is read, with UNAVAILABLE + RetryInfo (which OTLP clients
retry); a call whose message has not arrived within `request_timeout` is cancelled.
"""

from __future__ import annotations

import threading
from concurrent import futures
from typing import Any

import grpc
from google.protobuf import duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from otel_grounding.relay.core import GroundingRelay
from otel_grounding.relay.deadlines import Deadlines
from otel_grounding.relay.memory import IntakeBudget, Refusal, Reservation
from otel_grounding.relay.otlp import InvalidRequest, decode_protobuf
from otel_grounding.relay.receiver import (
    EXPORT_PATH,
    ReceiverOptions,
    log_refusal,
    split_endpoint,
    token_ok,
)
from otel_grounding.relay.telemetry import (
    LABEL_REASON,
    REFUSED_BUSY,
    REFUSED_INVALID,
    REFUSED_MEMORY,
    REFUSED_UNAUTHENTICATED,
    RETRYABLE_REFUSALS,
)

#: The OTLP/gRPC port a listen address without one gets.
DEFAULT_GRPC_PORT = 4317
#: The largest response message (an Export response is empty or a partial success).
MAX_SEND_BYTES = 4 * 1024 * 1024

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
    """An OTLP/gRPC listener feeding the relay; `start`, then `stop(grace)`."""

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
        self.deadlines = Deadlines()
        self._server = grpc.server(
            futures.ThreadPoolExecutor(options.grpc_workers, thread_name_prefix="relay-grpc"),
            options=[
                ("grpc.max_receive_message_length", options.max_decompressed_bytes),
                ("grpc.max_send_message_length", MAX_SEND_BYTES),
                ("grpc.so_reuseport", 0),
                # under a memory limit, no flow-control window growth: a call's request waits
                # at the client until it is served instead of in gRPC's buffers (measured: a
                # burst's peak 211 MiB instead of 248-263 under a 256 MiB limit)
                ("grpc.http2.bdp_probe", 0 if budget is not None and budget.limit else 1),
            ],
        )
        self._admission = _Admission(self, options.grpc_max_concurrent_rpcs)
        self._server.add_generic_rpc_handlers([self._admission])
        host, port = split_endpoint(endpoint, DEFAULT_GRPC_PORT)
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
        log_refusal("grpc", reason, message)
        _abort_retryable(context, self.relay.retry_after, message)
        return b""

    def export(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        metadata = dict(context.invocation_metadata() or ())
        if not token_ok(self.options.token, metadata.get("authorization")):
            self._count(REFUSED_UNAUTHENTICATED)
            log_refusal("grpc", REFUSED_UNAUTHENTICATED, "missing or wrong bearer token")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")
        with Reservation(self.budget) as reservation:
            try:
                reservation.add(len(request))
                reservation.decoding(request, json=False)
            except Refusal as refusal:
                self._count(refusal.reason)
                log_refusal("grpc", refusal.reason, str(refusal))
                if refusal.permanent:
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(refusal))
                _abort_retryable(context, self.relay.retry_after, str(refusal))
            try:
                decoded = decode_protobuf(request)
            except InvalidRequest as exc:
                self._count(REFUSED_INVALID)
                log_refusal("grpc", REFUSED_INVALID, str(exc))
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            verdict = self.relay.ingest(decoded, request, "grpc")
            del decoded
        if not verdict.accepted:
            log_refusal("grpc", verdict.reason or "", verdict.message)
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
