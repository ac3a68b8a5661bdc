"""What the two OTLP receivers share: their options, their listen address, the bearer-token
check and the refusal log.

Both receivers take the raw request bytes, so the relay decodes once, answers malformed input
with INVALID_ARGUMENT / 400 and a message, and can forward an untouched request byte for byte.
Every overload answer is one OTLP clients retry (UNAVAILABLE + RetryInfo, 503 + Retry-After).
Optional bearer token (constant-time compare) and TLS on both receivers.
"""

from __future__ import annotations

import hmac
import logging
from dataclasses import dataclass

from otel_grounding.relay.options import MAX_PORT, RelayOptions
from otel_grounding.relay.telemetry import RETRYABLE_REFUSALS, RateLimitedLog

SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService"
EXPORT_PATH = f"/{SERVICE}/Export"
TRACES_PATH = "/v1/traces"
PROTOBUF = "application/x-protobuf"
JSON = "application/json"
#: gRPC handler threads: measured, more only contend for the GIL.
GRPC_WORKERS = 4
#: One read from a connection may take this long (the whole request: `request_timeout`).
READ_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class ReceiverOptions:
    """The receivers' part of the relay's options (`RelayOptions`), the token resolved."""

    max_request_bytes: int
    max_decompressed_bytes: int
    token: str | None
    tls_cert: str | None
    tls_key: str | None
    grpc_max_concurrent_rpcs: int  # beyond this, UNAVAILABLE + RetryInfo
    http_max_connections: int  # beyond this (and per peer), 503 + Retry-After
    http_max_connections_per_peer: int
    request_timeout: float  # one whole request: HTTP (or the idle wait before it), gRPC
    grpc_workers: int = GRPC_WORKERS
    read_timeout: float = READ_TIMEOUT_S

    @classmethod
    def of(cls, options: RelayOptions, token: str | None) -> ReceiverOptions:
        return cls(
            max_request_bytes=options.max_request_bytes,
            max_decompressed_bytes=options.max_decompressed_bytes,
            token=token,
            tls_cert=options.tls_cert,
            tls_key=options.tls_key,
            grpc_max_concurrent_rpcs=options.grpc_max_concurrent_calls,
            http_max_connections=options.http_max_connections,
            http_max_connections_per_peer=options.http_max_connections_per_peer,
            request_timeout=options.request_timeout,
        )


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


def token_ok(expected: str | None, header: str | None) -> bool:
    """Whether an `Authorization` header carries the bearer token (none expected: always)."""
    if expected is None:
        return True
    if not header:
        return False
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), expected.encode())


_refused = RateLimitedLog()


def log_refusal(transport: str, reason: str, message: str) -> None:
    """One log line per refusal kind and transport, rate limited."""
    level = logging.WARNING if reason not in RETRYABLE_REFUSALS else logging.INFO
    _refused(
        f"{transport}-{reason}", level, "relay: request refused",
        transport=transport, reason=reason, error=message[:300],
    )
