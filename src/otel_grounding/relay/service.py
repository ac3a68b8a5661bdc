"""A whole relay, composed from its options: `RelayService.build(options, settings)`, then
`start`, `drain` (the exit status) and `stop`.

The composition root: every part is built here once, with its collaborators, in dependency
order (metrics before what counts into them, the gauges and the health port after what they
read), and nothing is patched after construction. Every check that can refuse the options runs
in `build`, before anything serves, as a `ConfigError` naming the flag or variable (the CLI
prints it on one line, exit status 2). `cli.py` adds the process around it (flags, logging,
signals); a test builds one in process on loopback ports.
"""

from __future__ import annotations

import logging
import os
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from otel_grounding.config import ConfigError, GroundingSettings
from otel_grounding.pipeline import GroundingPipeline, check_judge_mode
from otel_grounding.relay.core import GroundingRelay
from otel_grounding.relay.forward import (
    Forwarder,
    NextHop,
    RetryPolicy,
    hop_address,
    make_sender,
    next_hop_from_env,
)
from otel_grounding.relay.grpc_receiver import GrpcReceiver
from otel_grounding.relay.health import HealthServer
from otel_grounding.relay.http_receiver import HttpReceiver
from otel_grounding.relay.memory import DEFAULT_INTAKE_BYTES, IntakeBudget, MiB
from otel_grounding.relay.options import TOKEN_ENV, RelayOptions
from otel_grounding.relay.queue import DeliveryQueue
from otel_grounding.relay.receiver import ReceiverOptions, split_endpoint
from otel_grounding.relay.telemetry import RelayMetrics, metrics_snapshot, observe_levels
from otel_grounding.relay.unordered import UnorderedStore

if TYPE_CHECKING:
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import MetricReader
    from opentelemetry.sdk.resources import Resource

    from otel_grounding.judge import Judge
    from otel_grounding.relay.store import QueueStore

logger = logging.getLogger("otel_grounding.relay")
_Server = TypeVar("_Server")

#: At shutdown, how long the evaluation events still buffered may take to export.
LOGS_FLUSH_TIMEOUT_MS = 5_000
#: On drain, the share of --drain-timeout runs being judged may take; the rest is kept for
#: delivering them (and everything else queued) to the next hop.
JUDGE_DRAIN_SHARE = 0.8
#: How long a gRPC receiver lets calls in flight finish when it stops.
GRPC_STOP_GRACE_S = 0.5
#: The relay's own resource (its metrics and evaluation events).
SERVICE_NAME = "otel-grounding-relay"
#: Shortest retry delays the forwarder is given (0 would retry in a busy loop).
MIN_RETRY_S = 0.01


class RelayStatus:
    """What `/healthz` and `/readyz` report, read live from the parts that hold it."""

    def __init__(
        self,
        relay: GroundingRelay,
        queue: DeliveryQueue,
        traces: UnorderedStore,
        forwarder: Forwarder,
        budget: IntakeBudget,
    ) -> None:
        self.relay, self.queue, self.traces = relay, queue, traces
        self.forwarder, self.budget = forwarder, budget
        self.started = threading.Event()

    def __call__(self) -> dict[str, Any]:
        relay, queue, budget, stats = self.relay, self.queue, self.budget, self.forwarder.stats
        return {
            "ready": self.started.is_set() and not relay.draining and not queue.full
            and not budget.limited,
            "memory_limited": budget.limited,
            "resident_bytes": budget.resident if budget.limit else None,
            "intake_reserved_bytes": budget.reserved,
            "draining": relay.draining,
            "queue_spans": queue.spans,
            "queue_bytes": queue.nbytes,
            "runs_held": relay.runs_held,
            "traces_buffered": self.traces.buffered_traces,
            "judge_pending": relay.judge_pending,
            "exported": stats.exported,
            "rejected": stats.rejected,
            "dropped": stats.dropped,
        }


class RelayService:
    """The relay's parts, built (`build`), then started, drained and stopped in order."""

    def __init__(
        self,
        options: RelayOptions,
        settings: GroundingSettings,
        *,
        hop: NextHop,
        token: str | None,
        meter_provider: MeterProvider,
        logger_provider: LoggerProvider | None,
        pipeline: GroundingPipeline,
        relay: GroundingRelay,
        forwarder: Forwarder,
        budget: IntakeBudget,
        status: RelayStatus,
        grpc_receiver: GrpcReceiver | None,
        http_receiver: HttpReceiver | None,
        health: HealthServer | None,
    ) -> None:
        self.options, self.settings, self.hop, self.token = options, settings, hop, token
        self.meter_provider, self.logger_provider = meter_provider, logger_provider
        self.pipeline, self.relay, self.forwarder = pipeline, relay, forwarder
        self.budget, self.status = budget, status
        self.grpc_receiver, self.http_receiver, self.health = grpc_receiver, http_receiver, health
        self._stopped = False

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        options: RelayOptions,
        settings: GroundingSettings,
        environ: Mapping[str, str] | None = None,
    ) -> RelayService:
        """Every part, listening but not serving yet; ConfigError for options that cannot
        work (the next hop from `environ`, default the process's environment)."""
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.resources import Resource

        env = os.environ if environ is None else environ
        hop = next_hop_from_env(
            env,
            endpoint=options.exporter_endpoint,
            protocol=options.exporter_protocol,
            headers=options.exporter_headers,
            insecure=options.exporter_insecure,
            certificate=options.exporter_certificate,
            compression=options.exporter_compression,
            timeout=options.exporter_timeout,
        )
        _check_tls(options)
        _check_endpoints(options, hop)
        token = _token(options, env)
        memory = InMemoryMetricReader()
        readers = [memory, *_metric_readers(options)]
        resource = Resource.create({"service.name": SERVICE_NAME})
        meter_provider = MeterProvider(resource=resource, metric_readers=readers)
        logger_provider = _logger_provider(options.logs_exporter, resource)

        judge = _judge(settings)
        traces = UnorderedStore.from_settings(settings, settings.trace_retention)
        pipeline = GroundingPipeline(
            settings, meter_provider=meter_provider, store=traces, judge=judge,
            logger_provider=logger_provider,
        )
        check_judge_mode(pipeline)
        queue = DeliveryQueue(
            options.queue_max_spans, options.queue_max_bytes, store=_queue_store(options)
        )
        metrics = RelayMetrics(meter_provider)
        relay = GroundingRelay(
            pipeline,
            queue,
            metrics,
            trace_store=traces,
            evidence_wait=settings.evidence_wait,
            passthrough=options.passthrough,
            retry_after=options.retry_after or 1.0,
        )
        observe_levels(
            meter_provider,
            queue_spans=lambda: queue.spans,
            queue_bytes=lambda: queue.nbytes,
            runs_held=lambda: relay.runs_held,
        )
        forwarder = Forwarder(
            queue,
            make_sender(hop),
            metrics,
            workers=options.export_workers,
            batch_spans=options.export_batch_spans,
            batch_bytes=options.export_batch_bytes,
            retry=RetryPolicy(
                initial=max(options.retry_initial, MIN_RETRY_S),
                max_interval=max(options.retry_max_interval, MIN_RETRY_S),
                max_elapsed=options.retry_max_elapsed,
            ),
            describe=hop.describe(),
        )
        receiving = ReceiverOptions.of(options, token)
        budget = _budget(options)
        status = RelayStatus(relay, queue, traces, forwarder, budget)
        # gRPC binds last: grpcio frees a bound port only once its server has run, so nothing
        # may fail after it; the HTTP listeners bound before a failure are closed
        http_receiver: HttpReceiver | None = None
        health: HealthServer | None = None
        try:
            http_receiver = _listen(
                "--http-endpoint", options.http_endpoint,
                lambda endpoint: HttpReceiver(relay, endpoint, receiving, budget),
            )
            health = _listen(
                "--health-endpoint", options.health_endpoint,
                lambda endpoint: HealthServer(endpoint, status, lambda: metrics_snapshot(memory)),
            )
            grpc_receiver = _listen(
                "--grpc-endpoint", options.grpc_endpoint,
                lambda endpoint: GrpcReceiver(relay, endpoint, receiving, budget),
            )
        except ConfigError:
            for server in (http_receiver, health):
                if server is not None:
                    server.stop()
            pipeline.close()
            meter_provider.shutdown()
            raise
        return cls(
            options, settings, hop=hop, token=token, meter_provider=meter_provider,
            logger_provider=logger_provider, pipeline=pipeline, relay=relay,
            forwarder=forwarder, budget=budget, status=status, grpc_receiver=grpc_receiver,
            http_receiver=http_receiver, health=health,
        )

    # -- the life-cycle ---------------------------------------------------------------------
    def start(self) -> None:
        """Replay the persistent queue, then serve: holder, export workers, listeners."""
        replayed = self.relay.replay()
        if self.relay.queue.store is not None:
            logger.info("relay: queue directory replayed",
                        extra={"queue_dir": self.options.queue_dir, "spans": replayed})
        self.budget.start()
        self.relay.start()
        self.forwarder.start()
        for server in (self.grpc_receiver, self.http_receiver, self.health):
            if server is not None:
                server.start()
        self.status.started.set()
        options, budget, pipeline = self.options, self.budget, self.pipeline
        logger.info(
            "relay: listening",
            extra={
                "grpc": self.grpc_address,
                "http": self.http_address,
                "health": self.health_address,
                "next_hop": self.hop.describe(),
                "tls": bool(options.tls_cert),
                "auth": self.token is not None,
                "evidence_wait_s": self.settings.evidence_wait,
                "trace_retention_s": self.settings.trace_retention,
                "queue_max_spans": options.queue_max_spans,
                "queue_max_bytes": options.queue_max_bytes,
                "memory_limit_bytes": budget.limit,
                "intake_bytes": budget.total,
                "passthrough": options.passthrough,
                "judge": pipeline.judges.name if pipeline.judges is not None else None,
            },
        )

    @property
    def grpc_address(self) -> str | None:
        return self.grpc_receiver.address if self.grpc_receiver else None

    @property
    def http_address(self) -> str | None:
        return self.http_receiver.address if self.http_receiver else None

    @property
    def health_address(self) -> str | None:
        return self.health.address if self.health else None

    def drain(self) -> int:
        """Stop accepting, score held runs, deliver what was accepted within the drain timeout;
        the exit status: 0 when every accepted span was delivered, else 1.

        The receivers stay up meanwhile: new requests get the documented retryable answer
        (UNAVAILABLE + RetryInfo / 503 + Retry-After), not a refused connection."""
        relay, timeout = self.relay, self.options.drain_timeout
        deadline = time.monotonic() + timeout
        logger.info(
            "relay: draining",
            extra={"queue_spans": relay.queue.spans, "runs_held": relay.runs_held,
                   "judge_pending": relay.judge_pending, "drain_timeout_s": timeout},
        )
        relay.stop_accepting()
        judged = relay.drain(timeout=max(deadline - time.monotonic(), 1.0),
                             judge_timeout=JUDGE_DRAIN_SHARE * timeout)
        dropped = self.forwarder.drain(deadline)
        stats = self.forwarder.stats
        undelivered = stats.dropped + stats.rejected  # over the process's whole life
        (logger.error if undelivered else logger.info)(
            "relay: stopped",
            extra={
                "exported": stats.exported,
                "rejected": stats.rejected,
                "dropped": stats.dropped,
                "dropped_at_shutdown": dropped,
                "undelivered": undelivered,
                "kept_in_queue_dir": stats.kept,
                "judgements_cut_at_drain": not judged,
            },
        )
        return 0 if undelivered == 0 else 1

    def stop(self) -> None:
        """Close the listeners and the pipeline, then flush and shut the telemetry down (the
        runs settled by the drain have their evaluation events exported). Once; safe after a
        failed start."""
        if self._stopped:
            return
        self._stopped = True
        if self.grpc_receiver is not None:
            self.grpc_receiver.stop(GRPC_STOP_GRACE_S)
        if self.http_receiver is not None:
            self.http_receiver.stop()
        if self.health is not None:
            self.health.stop()
        self.pipeline.close()
        self.budget.stop()
        if self.logger_provider is not None:
            self.logger_provider.force_flush(LOGS_FLUSH_TIMEOUT_MS)
            self.logger_provider.shutdown()
        self.meter_provider.shutdown()


# -- the checks and parts `build` uses --------------------------------------------------------
def _check_tls(options: RelayOptions) -> None:
    """The receivers' certificate and key go together, can be read, and are loaded once before
    anything listens: a file that is not PEM, or a key that is not the certificate's, is named
    here (a receiver failing on it would seem to fail on its address)."""
    cert, key = options.tls_cert, options.tls_key
    if bool(cert) != bool(key):
        raise ConfigError("--tls-cert and --tls-key go together")
    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        if path and not os.access(path, os.R_OK):
            raise ConfigError(f"{flag}: cannot read {path!r}")
    if not cert:
        return
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or str(exc)
        raise ConfigError(
            f"--tls-cert {cert} / --tls-key {key}: not a PEM certificate and its private key "
            f"({reason})"
        ) from None


def _enabled(endpoint: str | None) -> bool:
    return bool(endpoint) and str(endpoint).lower() not in ("none", "off", "")


def _check_endpoints(options: RelayOptions, hop: NextHop) -> None:
    """Each listen address is HOST:PORT, neither receiver is the next hop, one is enabled."""
    for name in ("grpc_endpoint", "http_endpoint", "health_endpoint"):
        endpoint = getattr(options, name)
        flag = "--" + name.replace("_", "-")
        if not _enabled(endpoint):
            continue
        try:
            own = split_endpoint(endpoint, 0)
        except ValueError as exc:
            raise ConfigError(f"{flag}: {exc}") from None
        if name != "health_endpoint" and own[1] and _same_address(own, hop_address(hop)):
            raise ConfigError(
                f"the next hop {hop.endpoint} is this relay's own {flag} ({endpoint}); set "
                "OTEL_EXPORTER_OTLP_ENDPOINT or --exporter-endpoint"
            )
    if not (_enabled(options.grpc_endpoint) or _enabled(options.http_endpoint)):
        raise ConfigError("at least one of --grpc-endpoint and --http-endpoint must be enabled")


def _same_address(a: tuple[str, int], b: tuple[str, int]) -> bool:
    if a[1] != b[1]:
        return False
    try:
        left = {info[4][0] for info in socket.getaddrinfo(a[0], a[1])}
        right = {info[4][0] for info in socket.getaddrinfo(b[0], b[1])}
    except OSError:
        return a[0] == b[0]
    wildcard = {"0.0.0.0", "::"}
    return bool(left & right) or bool(left & wildcard) or bool(right & wildcard)


def _token(options: RelayOptions, environ: Mapping[str, str]) -> str | None:
    if options.auth_token_file:
        try:
            with open(options.auth_token_file, encoding="utf-8") as handle:
                token = handle.read().strip()
        except OSError as exc:
            raise ConfigError(f"--auth-token-file: cannot read it: {exc.strerror}") from None
        if not token:
            raise ConfigError("--auth-token-file: the file is empty")
        return token
    return environ.get(TOKEN_ENV) or None


def _metric_readers(options: RelayOptions) -> list[MetricReader]:
    """The readers beside the in-memory one `/debug/metrics` shows: OTLP, Prometheus."""
    readers: list[MetricReader] = []
    if options.metrics_exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader

        readers.append(PeriodicExportingMetricReader(OTLPMetricExporter()))
    port = options.prometheus_port
    if port is not None:
        try:
            from opentelemetry.exporter.prometheus import PrometheusMetricReader
            from prometheus_client import start_http_server
        except ImportError:
            raise ConfigError("--prometheus-port needs otel-grounding[prometheus]") from None
        try:
            start_http_server(port, addr="127.0.0.1")
        except OSError as exc:
            raise ConfigError(
                f"--prometheus-port {port}: cannot listen on 127.0.0.1:{port}: "
                f"{exc.strerror or exc}"
            ) from None
        readers.append(PrometheusMetricReader())
    return readers


def _logger_provider(exporter: str, resource: Resource) -> LoggerProvider | None:
    """The relay's own LoggerProvider for the evaluation events (`--logs-exporter otlp`), or
    None: with none, the pipeline emits to the global one (unset in the relay: no events)."""
    if exporter != "otlp":
        return None
    from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor

    provider = LoggerProvider(resource=resource, shutdown_on_exit=False)  # stop() shuts it down
    provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
    return provider


def _judge(settings: GroundingSettings) -> Judge | None:
    """The judge the settings name (None: no judge); ConfigError for an unknown one or one
    that cannot be built (a missing model or endpoint), before anything listens."""
    from otel_grounding.judge import load_judge

    if settings.judge.name is None:
        return None
    return load_judge(settings.judge.name, settings.judge)


def _queue_store(options: RelayOptions) -> QueueStore | None:
    """The persistent queue (`--queue-dir`), or None: memory only."""
    if not options.queue_dir:
        return None
    from otel_grounding.relay.store import QueueStore

    limit = options.queue_dir_max_bytes or 2 * options.queue_max_bytes
    try:
        return QueueStore(options.queue_dir, limit, fsync=options.queue_dir_fsync)
    except OSError as exc:
        raise ConfigError(f"--queue-dir: {exc}") from None


def _budget(options: RelayOptions) -> IntakeBudget:
    """The intake budget and the memory limit; a budget that cannot fit under the limit
    beside the queue and the trace buffers is a configuration error."""
    limit = options.memory_limit_mib * MiB if options.memory_limit_mib else None
    budget = IntakeBudget(options.max_intake_bytes or DEFAULT_INTAKE_BYTES, limit)
    if budget.soft is not None:
        if options.max_intake_bytes is None:
            budget.total = budget.soft // 3
        if budget.total + options.queue_max_bytes >= budget.soft:
            raise ConfigError(
                f"--memory-limit-mib {options.memory_limit_mib}: its soft limit "
                f"({budget.soft // MiB} MiB) leaves no room beside --queue-max-bytes "
                f"({options.queue_max_bytes // MiB} MiB) and the intake budget "
                f"({budget.total // MiB} MiB)"
            )
    return budget


def _listen(
    flag: str, endpoint: str | None, build: Callable[[str], _Server]
) -> _Server | None:
    """A listening server for an enabled endpoint (None: disabled); ConfigError naming the
    flag and the address when it cannot listen (a port in use, an address not on this host)."""
    if endpoint is None or not _enabled(endpoint):
        return None
    try:
        return build(endpoint)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(f"{flag} {endpoint}: cannot listen there: {reason}") from None


__all__ = ["RelayService", "RelayStatus"]
