"""Export to the next hop: OTLP/gRPC or OTLP/HTTP, configured like any OTLP exporter.

The next hop comes from the standard `OTEL_EXPORTER_OTLP_*` variables (traces-specific ones
first), each overridable by a flag. Workers take batches off the queue (concatenated
serialized requests: no re-encoding) and export them; retryable failures (gRPC UNAVAILABLE,
DEADLINE_EXCEEDED, ..., RESOURCE_EXHAUSTED with RetryInfo; HTTP 429/502/503/504; connection
errors) are retried with exponential backoff and jitter, honouring the server's RetryInfo /
Retry-After, until `max_elapsed` (0: forever). A partial success is final (never retried, as
OTLP requires): the rejected count and the server's message are reported (metric + log).
"""

from __future__ import annotations

import email.utils
import gzip
import http.client
import json
import logging
import math
import os
import random
import ssl
import threading
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from otel_grounding.config import ConfigError
from otel_grounding.internal_error import background_error
from otel_grounding.relay.options import (
    DEFAULT_EXPORT_BATCH_BYTES,
    DEFAULT_EXPORT_BATCH_SPANS,
    DEFAULT_EXPORT_WORKERS,
    DEFAULT_RETRY_INITIAL_S,
    DEFAULT_RETRY_MAX_ELAPSED_S,
    DEFAULT_RETRY_MAX_INTERVAL_S,
    EXPORT_LINGER_S,
)
from otel_grounding.relay.otlp import decode_protobuf, encode_json
from otel_grounding.relay.queue import Chunk, DeliveryQueue
from otel_grounding.relay.telemetry import (
    DROPPED_PERMANENT,
    DROPPED_RETRIES,
    DROPPED_SHUTDOWN,
    LABEL_REASON,
    RateLimitedLog,
    RelayMetrics,
)
from otel_grounding.sdkcompat import instrumentation_suppressed

logger = logging.getLogger("otel_grounding.relay")

EXPORT_METHOD = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"
PROTOCOLS = ("grpc", "http/protobuf", "http/json")

_RETRYABLE_GRPC = frozenset(
    {
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.OUT_OF_RANGE,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
_RETRYABLE_HTTP = frozenset({429, 502, 503, 504})
DEFAULT_TIMEOUT_S = 10.0
#: An export attempt longer than this is a misconfiguration (`inf` would hang a worker).
MAX_TIMEOUT_S = 3600.0


# -- configuration ----------------------------------------------------------------------------
@dataclass(frozen=True)
class NextHop:
    """Where and how to export: the resolved OTLP exporter configuration."""

    endpoint: str
    protocol: str = "grpc"
    headers: tuple[tuple[str, str], ...] = ()
    insecure: bool = False
    certificate: str | None = None
    client_key: str | None = None
    client_certificate: str | None = None
    compression: str | None = None
    timeout: float = DEFAULT_TIMEOUT_S

    def describe(self) -> str:
        return f"{self.protocol} {self.endpoint}"


def _source(environ: Mapping[str, str], name: str, flag: str, given: object) -> str:
    """Where a next-hop value came from, for a message: the flag, or the variable set."""
    if given is not None:
        return flag
    specific = f"OTEL_EXPORTER_OTLP_TRACES_{name}"
    return specific if (environ.get(specific) or "").strip() else f"OTEL_EXPORTER_OTLP_{name}"


def _env(environ: Mapping[str, str], name: str) -> str | None:
    """`OTEL_EXPORTER_OTLP_TRACES_<NAME>`, else `OTEL_EXPORTER_OTLP_<NAME>`."""
    for key in (f"OTEL_EXPORTER_OTLP_TRACES_{name}", f"OTEL_EXPORTER_OTLP_{name}"):
        value = environ.get(key)
        if value is not None and value.strip() != "":
            return value.strip()
    return None


def parse_headers(text: str, where: str = "headers") -> tuple[tuple[str, str], ...]:
    """`key1=value1,key2=value2` (values URL-encoded), as the OTLP exporter variables give."""
    headers = []
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{where}: {part.strip()!r} is not key=value")
        headers.append((key.strip().lower(), urllib.parse.unquote(value.strip())))
    return tuple(headers)


def _bool(text: str, where: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no", ""):
        return False
    raise ConfigError(f"{where}: {text!r} is not true or false")


def next_hop_from_env(
    environ: Mapping[str, str] | None = None, **overrides: object
) -> NextHop:
    """The next hop from the standard variables, then flag overrides (None: not given)."""
    env = os.environ if environ is None else environ
    protocol = str(overrides.get("protocol") or _env(env, "PROTOCOL") or "grpc")
    if protocol not in PROTOCOLS:
        where = _source(env, "PROTOCOL", "--exporter-protocol", overrides.get("protocol"))
        raise ConfigError(f"{where}: {protocol!r} is not one of {', '.join(PROTOCOLS)}")
    endpoint = overrides.get("endpoint")
    source = "--exporter-endpoint"
    if endpoint is None:
        specific = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
        general = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip()
        if specific:
            endpoint, source = specific, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
        elif general:
            endpoint, source = general, "OTEL_EXPORTER_OTLP_ENDPOINT"
            if protocol != "grpc":  # the general endpoint is a base URL for OTLP/HTTP
                endpoint = general.rstrip("/") + "/v1/traces"
        else:
            endpoint = "http://localhost:4317" if protocol == "grpc" else (
                "http://localhost:4318/v1/traces"
            )
    endpoint = str(endpoint)
    if protocol != "grpc" or "://" in endpoint:
        parsed = urllib.parse.urlsplit(endpoint)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            shape = "an http(s) URL" if protocol != "grpc" else "an http(s) URL or HOST:PORT"
            raise ConfigError(f"{source}: {endpoint!r} is not {shape}")
    _check_port(endpoint, source)
    if protocol == "grpc" and "://" in endpoint and urllib.parse.urlsplit(endpoint).path.rstrip(
        "/"
    ):
        logger.warning(
            "relay: the next hop's URL has a path, which gRPC ignores: is OTLP/HTTP meant "
            "(--exporter-protocol http/protobuf)?", extra={"setting": source, "endpoint": endpoint},
        )
    if protocol != "grpc" and urllib.parse.urlsplit(endpoint).path in ("", "/"):
        # Used as given (as the OTLP exporters use a signal's own endpoint), but a receiver
        # takes traces at /v1/traces: a base URL here is most often a mistake, said once.
        logger.warning(
            "relay: the next hop's URL has no path; OTLP/HTTP receivers take traces at "
            "/v1/traces", extra={"setting": source, "endpoint": endpoint},
        )
    headers_text = overrides.get("headers")
    headers = (
        parse_headers(str(headers_text), "exporter headers")
        if headers_text is not None
        else parse_headers(_env(env, "HEADERS") or "", "OTEL_EXPORTER_OTLP_HEADERS")
    )
    insecure = overrides.get("insecure")
    if insecure is None:
        insecure = _bool(_env(env, "INSECURE") or "false", "OTEL_EXPORTER_OTLP_INSECURE")
    compression = overrides.get("compression") or _env(env, "COMPRESSION") or "none"
    if compression not in ("gzip", "none"):
        where = _source(env, "COMPRESSION", "--exporter-compression", overrides.get("compression"))
        raise ConfigError(f"{where}: {compression!r} is not gzip or none")
    timeout_raw = overrides.get("timeout")
    where = "--exporter-timeout"
    if timeout_raw is None:
        env_timeout = _env(env, "TIMEOUT")
        where = "OTEL_EXPORTER_OTLP_TIMEOUT"
        try:
            timeout = float(env_timeout) / 1000.0 if env_timeout else DEFAULT_TIMEOUT_S
        except ValueError:
            raise ConfigError(f"{where}: {env_timeout!r} is not milliseconds") from None
    else:
        timeout = float(timeout_raw)  # type: ignore[arg-type]
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT_S):
        raise ConfigError(
            f"{where}: {timeout:g} s is not a timeout between 0 and {MAX_TIMEOUT_S:g} s"
        )
    for name, flag in (("CERTIFICATE", "--exporter-certificate"), ("CLIENT_KEY", None),
                       ("CLIENT_CERTIFICATE", None)):
        given = overrides.get("certificate") if flag else None
        path = str(given or _env(env, name) or "")
        if path and not os.access(path, os.R_OK):
            where = _source(env, name, flag or "", given)
            raise ConfigError(f"{where}: cannot read {path!r}")
    return NextHop(
        endpoint=endpoint,
        protocol=protocol,
        headers=headers,
        insecure=bool(insecure),
        certificate=str(overrides.get("certificate") or _env(env, "CERTIFICATE") or "") or None,
        client_key=_env(env, "CLIENT_KEY"),
        client_certificate=_env(env, "CLIENT_CERTIFICATE"),
        compression=None if compression == "none" else str(compression),
        timeout=timeout,
    )


def _check_port(endpoint: str, source: str) -> None:
    """ConfigError naming where the endpoint came from when its port is not a TCP port."""
    if not _port_ok(endpoint):
        raise ConfigError(f"{source}: {endpoint!r} has no valid port (a number from 1 to 65535)")


def _port_ok(endpoint: str) -> bool:
    """Whether an endpoint (a URL, or HOST:PORT for gRPC) has no port or a valid one."""
    if "://" in endpoint:
        try:
            urllib.parse.urlsplit(endpoint).port  # noqa: B018 - raises for a bad port
        except ValueError:
            return False
        return True
    _, sep, port = endpoint.rpartition(":")
    return not sep or endpoint.endswith("]") or (port.isdigit() and 0 < int(port) <= 65535)


def hop_address(hop: NextHop) -> tuple[str, int]:
    """(host, port) the next hop connects to, for the self-loop check."""
    if hop.protocol == "grpc":
        endpoint = hop.endpoint
        if "://" in endpoint:
            parsed = urllib.parse.urlsplit(endpoint)
            return parsed.hostname or "", parsed.port or (443 if parsed.scheme == "https" else 80)
        host, _, port = endpoint.rpartition(":")
        return host.strip("[]"), int(port) if port.isdigit() else 4317
    parsed = urllib.parse.urlsplit(hop.endpoint)
    return parsed.hostname or "", parsed.port or (443 if parsed.scheme == "https" else 80)


def _read(path: str | None) -> bytes | None:
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ConfigError(f"cannot read {path!r}: {exc.strerror}") from None


# -- senders ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SendResult:
    ok: bool
    retryable: bool = False
    rejected: int = 0
    message: str = ""
    retry_after: float | None = None
    reason: str = ""


def _retry_info_delay(blob: bytes | None) -> float | None:
    if not blob:
        return None
    try:
        info = error_details_pb2.RetryInfo.FromString(blob)
    except DecodeError:  # a peer's malformed detail: no retry hint
        return None
    return info.retry_delay.seconds + info.retry_delay.nanos / 1e9


def _status_retry_delay(blob: bytes | None) -> float | None:
    if not blob:
        return None
    try:
        status = status_pb2.Status.FromString(blob)
    except DecodeError:  # a peer's malformed status: no retry hint
        return None
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.seconds + info.retry_delay.nanos / 1e9
    return None


def _partial(response: ExportTraceServiceResponse) -> SendResult:
    partial = response.partial_success
    return SendResult(True, rejected=partial.rejected_spans, message=partial.error_message)


class GrpcSender:
    """One shared channel (thread-safe); raw bytes out, the response decoded."""

    def __init__(self, hop: NextHop) -> None:
        endpoint = hop.endpoint
        secure = not hop.insecure
        if "://" in endpoint:
            parsed = urllib.parse.urlsplit(endpoint)
            secure = parsed.scheme == "https"
            endpoint = parsed.netloc
        options = [
            ("grpc.max_send_message_length", -1),
            ("grpc.max_receive_message_length", -1),
            # reconnect within seconds once a next hop that was down comes back (default: 120 s)
            ("grpc.max_reconnect_backoff_ms", 5000),
        ]
        if secure:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(hop.certificate),
                private_key=_read(hop.client_key),
                certificate_chain=_read(hop.client_certificate),
            )
            self._channel = grpc.secure_channel(endpoint, credentials, options=options)
        else:
            self._channel = grpc.insecure_channel(endpoint, options=options)
        self._call = self._channel.unary_unary(
            EXPORT_METHOD,
            request_serializer=None,
            response_deserializer=ExportTraceServiceResponse.FromString,
        )
        self._metadata = hop.headers or None
        self._compression = grpc.Compression.Gzip if hop.compression == "gzip" else None
        self._timeout = hop.timeout

    def send(self, data: bytes) -> SendResult:
        try:
            response = self._call(
                data,
                timeout=self._timeout,
                metadata=self._metadata,
                compression=self._compression,
            )
        except grpc.RpcError as error:
            code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
            trailing = (
                dict(error.trailing_metadata() or ()) if hasattr(error, "trailing_metadata") else {}
            )
            delay = _status_retry_delay(trailing.get("grpc-status-details-bin")) or (
                _retry_info_delay(trailing.get("google.rpc.retryinfo-bin"))
            )
            retryable = code in _RETRYABLE_GRPC or (
                code == grpc.StatusCode.RESOURCE_EXHAUSTED and delay is not None
            )
            details = error.details() if hasattr(error, "details") else str(error)
            return SendResult(
                False, retryable, message=str(details), retry_after=delay, reason=code.name
            )
        return _partial(response)

    def close(self) -> None:
        self._channel.close()


class HttpSender:
    """POST to the next hop over a persistent connection per worker thread."""

    def __init__(self, hop: NextHop) -> None:
        parsed = urllib.parse.urlsplit(hop.endpoint)
        self._https = parsed.scheme == "https"
        self._host = parsed.hostname or "localhost"
        self._port = parsed.port or (443 if self._https else 80)
        self._path = (parsed.path or "/v1/traces") + (f"?{parsed.query}" if parsed.query else "")
        self._json = hop.protocol == "http/json"
        self._gzip = hop.compression == "gzip"
        self._timeout = hop.timeout
        self._headers = dict(hop.headers)
        self._headers["Content-Type"] = "application/json" if self._json else (
            "application/x-protobuf"
        )
        if self._gzip:
            self._headers["Content-Encoding"] = "gzip"
        self._context: ssl.SSLContext | None = None
        if self._https:
            self._context = ssl.create_default_context(cafile=hop.certificate)
            if hop.client_certificate:
                self._context.load_cert_chain(hop.client_certificate, hop.client_key)
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            if self._https:
                connection = http.client.HTTPSConnection(
                    self._host, self._port, timeout=self._timeout, context=self._context
                )
            else:
                connection = http.client.HTTPConnection(
                    self._host, self._port, timeout=self._timeout
                )
            self._local.connection = connection
        return connection

    def _reset(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        self._local.connection = None

    def send(self, data: bytes) -> SendResult:
        body = encode_json(decode_protobuf(data)) if self._json else data
        if self._gzip:
            body = gzip.compress(body, compresslevel=5)
        try:
            connection = self._connection()
            connection.request("POST", self._path, body=body, headers=self._headers)
            response = connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self._reset()
            return SendResult(
                False, True, message=str(exc) or type(exc).__name__, reason="connection"
            )
        if response.getheader("Connection", "").lower() == "close":
            self._reset()
        status = response.status
        if 200 <= status < 300:
            return _partial(_decode_response(payload, response.getheader("Content-Type", "")))
        retryable = status in _RETRYABLE_HTTP
        return SendResult(
            False,
            retryable,
            message=_status_message(payload, response.getheader("Content-Type", "")) or
            f"HTTP {status}",
            retry_after=_retry_after(response.getheader("Retry-After")),
            reason=f"http_{status}",
        )

    def close(self) -> None:
        self._reset()


def _decode_response(payload: bytes, content_type: str) -> ExportTraceServiceResponse:
    response = ExportTraceServiceResponse()
    if not payload:
        return response
    try:
        if "json" in content_type:
            json_format.Parse(payload, response, ignore_unknown_fields=True)
        else:
            response.ParseFromString(payload)
    except (DecodeError, json_format.ParseError, ValueError):  # unreadable: read as empty
        return ExportTraceServiceResponse()
    return response


def _status_message(payload: bytes, content_type: str) -> str:
    if not payload:
        return ""
    try:
        if "json" not in content_type:
            return status_pb2.Status.FromString(payload).message[:500]
        document = json.loads(payload)
        if isinstance(document, dict):
            return str(document.get("message", ""))[:500]
    except (DecodeError, ValueError):  # an unreadable status: show its first bytes instead
        pass
    return payload[:200].decode("utf-8", "replace")


def _retry_after(value: str | None) -> float | None:
    """Retry-After as delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def make_sender(hop: NextHop) -> GrpcSender | HttpSender:
    return GrpcSender(hop) if hop.protocol == "grpc" else HttpSender(hop)


# -- the export workers -----------------------------------------------------------------------
@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter; a server's own delay wins when longer."""

    initial: float = DEFAULT_RETRY_INITIAL_S
    multiplier: float = 2.0
    max_interval: float = DEFAULT_RETRY_MAX_INTERVAL_S
    max_elapsed: float = DEFAULT_RETRY_MAX_ELAPSED_S  # 0: retry until shutdown


@dataclass
class ForwarderStats:
    exported: int = 0
    rejected: int = 0
    dropped: int = 0
    kept: int = 0  # left in the persistent queue at shutdown, delivered after the next start
    failures: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Forwarder:
    """Export workers over the delivery queue."""

    def __init__(
        self,
        queue: DeliveryQueue,
        sender: GrpcSender | HttpSender,
        metrics: RelayMetrics | None = None,
        *,
        workers: int = DEFAULT_EXPORT_WORKERS,
        batch_spans: int = DEFAULT_EXPORT_BATCH_SPANS,
        batch_bytes: int = DEFAULT_EXPORT_BATCH_BYTES,
        linger: float = EXPORT_LINGER_S,
        retry: RetryPolicy = RetryPolicy(),
        describe: str = "",
    ) -> None:
        self.queue = queue
        self.sender = sender
        self.metrics = metrics
        self.batch_spans = batch_spans
        self.batch_bytes = batch_bytes
        self.linger = linger
        self.retry = retry
        self.describe = describe
        self.stats = ForwarderStats()
        self._stop = threading.Event()  # no new batches once the queue is empty
        self._abort = threading.Event()  # give up retrying (drain deadline passed)
        self._log = RateLimitedLog()
        self._threads = [
            threading.Thread(target=self._work, name=f"relay-export-{i}", daemon=True)
            for i in range(workers)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def drain(self, deadline: float) -> int:
        """Export everything reserved until the monotonic deadline; returns spans given up
        meanwhile (at the deadline, whatever is still queued or being retried)."""
        before = self.stats.dropped
        delivered = self.queue.wait_empty(deadline)
        self._stop.set()
        if not delivered:
            self._abort.set()
        self.queue.wake()
        for thread in self._threads:
            thread.join(max(0.5, deadline - time.monotonic() + 1.0))
        leftover = self.queue.drain_ready()
        if leftover:
            self._give_up_at_shutdown(leftover, "drain deadline passed")
        stuck = self.queue.spans  # batches still being sent when the deadline passed
        if stuck > 0:
            self._give_up_at_shutdown([Chunk(b"", stuck)], "export still in flight at exit")
        try:
            self.sender.close()
        except OSError:  # closing at exit: nothing is left to save
            pass
        return self.stats.dropped - before

    def _work(self) -> None:
        # The relay's own requests: never traced, even under zero-code instrumentation (the SDK's
        # exporters suppress theirs the same way).
        with instrumentation_suppressed():
            while not self._abort.is_set() and not (
                self._stop.is_set() and self.queue.ready_spans == 0
            ):
                batch = self.queue.take(self.batch_spans, self.batch_bytes, timeout=0.25,
                                        linger=self.linger)
                if batch:
                    self._deliver(batch)

    def _deliver(self, batch: list[Chunk]) -> None:
        data = batch[0].data if len(batch) == 1 else b"".join(c.data for c in batch)
        spans = sum(c.spans for c in batch)
        started = time.monotonic()
        attempt = 0
        while True:
            try:
                result = self.sender.send(data)
            except Exception as exc:  # a bug, not a failed send (senders return those)
                background_error("relay.export")  # counted and logged; the worker lives on
                result = SendResult(False, False, message=repr(exc), reason="error")
            if result.ok:
                self._delivered(batch, spans, result)
                return
            with self.stats.lock:
                self.stats.failures += 1
            if self.metrics is not None:
                self.metrics.export_failures.add(1, {LABEL_REASON: result.reason or "error"})
            if not result.retryable:
                if len(batch) > 1:  # merged requests: find the one the next hop refuses
                    self._isolate(batch, spans, result)
                    return
                self._drop(batch, DROPPED_PERMANENT, result.message, code=result.reason)
                return
            delay = self.retry.initial * self.retry.multiplier**attempt
            delay = min(delay, self.retry.max_interval) * random.uniform(0.8, 1.2)
            if result.retry_after is not None:
                delay = max(delay, min(result.retry_after, max(self.retry.max_interval, 1.0)))
            attempt += 1
            elapsed = time.monotonic() - started
            if self.retry.max_elapsed and elapsed + delay > self.retry.max_elapsed:
                self._drop(batch, DROPPED_RETRIES, result.message, code=result.reason)
                return
            self._log(
                "export-retry",
                logging.WARNING,
                "relay: export failed, retrying",
                next_hop=self.describe,
                code=result.reason,
                error=result.message,
                spans=spans,
                attempt=attempt,
                retry_in_s=round(delay, 3),
            )
            if self._abort.wait(delay):
                self._give_up_at_shutdown(batch, result.message, code=result.reason)
                return

    def _isolate(self, batch: list[Chunk], spans: int, result: SendResult) -> None:
        """A permanent refusal of a batch of several requests: send each half on its own, so
        that only the request(s) the next hop refuses are dropped, not everyone's."""
        self._log(
            "export-isolate",
            logging.WARNING,
            "relay: next hop refused a merged batch; sending its requests apart",
            next_hop=self.describe,
            code=result.reason,
            error=result.message,
            spans=spans,
            requests=len(batch),
        )
        half = len(batch) // 2
        self._deliver(batch[:half])
        self._deliver(batch[half:])

    def _delivered(self, batch: list[Chunk], spans: int, result: SendResult) -> None:
        rejected = max(0, min(result.rejected, spans))
        with self.stats.lock:
            self.stats.exported += spans - rejected
            self.stats.rejected += rejected
        if self.metrics is not None:
            self.metrics.spans_exported.add(spans - rejected)
            if rejected:
                self.metrics.spans_rejected.add(rejected)
        if rejected or result.message:
            self._log(
                "partial-success",
                logging.WARNING,
                "relay: next hop accepted a partial success",
                next_hop=self.describe,
                rejected_spans=rejected,
                spans=spans,
                error=result.message,
            )
        self.queue.done(batch)

    def _give_up_at_shutdown(self, batch: list[Chunk], message: str, code: str = "") -> None:
        """Spans not delivered by the drain deadline: dropped, counted; with a persistent
        queue they stay on disk instead and are delivered after the next start."""
        if self.queue.store is None:
            self._drop(batch, DROPPED_SHUTDOWN, message, code=code)
            return
        spans = sum(c.spans for c in batch)
        with self.stats.lock:
            self.stats.kept += spans
        logger.warning(
            "relay: accepted spans kept in the queue directory for the next start",
            extra={"next_hop": self.describe, "error": message, "spans": spans},
        )
        self.queue.done(batch, kept=True)

    def _drop(self, batch: list[Chunk], reason: str, message: str, code: str = "") -> None:
        spans = sum(c.spans for c in batch)
        with self.stats.lock:
            self.stats.dropped += spans
        if self.metrics is not None:
            self.metrics.spans_dropped.add(spans, {LABEL_REASON: reason})
        logger.error(
            "relay: accepted spans given up",
            extra={
                "next_hop": self.describe,
                "reason": reason,
                "code": code,
                "error": message,
                "spans": spans,
            },
        )
        self.queue.done(batch)
