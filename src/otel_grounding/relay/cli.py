"""`otel-grounding relay`: wiring, and the lifecycle (start, serve, drain on SIGTERM); the flags
are declared in `options.py`.

`add_parser(subcommands)` adds the `relay` subcommand to the `otel-grounding` parser;
`main(argv)` runs it standalone (`python -m otel_grounding.relay ...`).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from otel_grounding.config import (
    RELAY,
    ConfigError,
    GroundingSettings,
    flag_overrides,
    load_settings,
)
from otel_grounding.relay.memory import DEFAULT_INTAKE_BYTES, IntakeBudget, MiB
from otel_grounding.relay.options import DEFAULT_HEALTH_PORT, TOKEN_ENV, add_option_flags

if TYPE_CHECKING:
    from otel_grounding.judge import Judge

logger = logging.getLogger("otel_grounding.relay")
_Server = TypeVar("_Server")

#: At shutdown, how long the evaluation events still buffered may take to export.
LOGS_FLUSH_TIMEOUT_MS = 5_000
#: On drain, the share of --drain-timeout runs being judged may take; the rest is kept for
#: delivering them (and everything else queued) to the next hop.
JUDGE_DRAIN_SHARE = 0.8


def configure_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The relay's flags on a given parser (the subcommand's or a standalone one)."""
    return add_option_flags(parser)


def add_parser(subcommands: Any) -> argparse.ArgumentParser:
    """Add `relay` to the `otel-grounding` subcommands; the handler returns an exit status."""
    parser = subcommands.add_parser(
        "relay",
        help="OTLP relay: enrich agent run spans from any language, forward to the next hop",
        description="Receive OTLP traces, add the claim grounding rate and coverage grade to "
        "agent run spans, forward OTLP to the next hop.",
    )
    configure_parser(parser)
    parser.set_defaults(func=run)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="otel-grounding relay")
    return configure_parser(parser)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except ConfigError as exc:
        print(f"otel-grounding relay: {exc}", file=sys.stderr)
        return 2


# -- wiring -----------------------------------------------------------------------------------
def _budget(args: argparse.Namespace) -> IntakeBudget:
    """The intake budget and the memory limit; a budget that cannot fit under the limit
    beside the queue and the trace buffers is a configuration error."""
    limit = args.memory_limit_mib * MiB if args.memory_limit_mib else None
    budget = IntakeBudget(args.max_intake_bytes or DEFAULT_INTAKE_BYTES, limit)
    if budget.soft is not None:
        if args.max_intake_bytes is None:
            budget.total = budget.soft // 3
        if budget.total + args.queue_max_bytes >= budget.soft:
            raise ConfigError(
                f"--memory-limit-mib {args.memory_limit_mib}: its soft limit "
                f"({budget.soft // MiB} MiB) leaves no room beside --queue-max-bytes "
                f"({args.queue_max_bytes // MiB} MiB) and the intake budget "
                f"({budget.total // MiB} MiB)"
            )
    return budget


def _judge(settings: GroundingSettings) -> Judge | None:
    """The judge the settings name (None: no judge); ConfigError for an unknown one or one
    that cannot be built (a missing model or endpoint), before anything listens."""
    from otel_grounding.judge import load_judge

    if settings.judge.name is None:
        return None
    return load_judge(settings.judge.name, settings.judge)


def _token(args: argparse.Namespace) -> str | None:
    if args.auth_token_file:
        try:
            with open(args.auth_token_file, encoding="utf-8") as handle:
                token = handle.read().strip()
        except OSError as exc:
            raise ConfigError(f"--auth-token-file: cannot read it: {exc.strerror}") from None
        if not token:
            raise ConfigError("--auth-token-file: the file is empty")
        return token
    return os.environ.get(TOKEN_ENV) or None


def _enabled(endpoint: str | None) -> bool:
    return bool(endpoint) and str(endpoint).lower() not in ("none", "off", "")


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


def _check_tls_pair(cert: str, key: str) -> None:
    """The receivers' certificate and key are loaded once before anything listens: a file that
    is not PEM, or a key that is not the certificate's, is named here (a receiver failing on it
    would seem to fail on its address)."""
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc.strerror or str(exc)
        raise ConfigError(
            f"--tls-cert {cert} / --tls-key {key}: not a PEM certificate and its private key "
            f"({reason})"
        ) from None


def _listen(flag: str, endpoint: str | None, build: Callable[[], _Server]) -> _Server | None:
    """A listening server for an enabled endpoint (None: disabled); ConfigError naming the
    flag and the address when it cannot listen (a port in use, an address not on this host)."""
    if not _enabled(endpoint):
        return None
    try:
        return build()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(f"{flag} {endpoint}: cannot listen there: {reason}") from None


def run(args: argparse.Namespace) -> int:
    """Start the relay and serve until SIGTERM/SIGINT; then drain and return the exit status."""
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader, MetricReader
    from opentelemetry.sdk.resources import Resource

    from otel_grounding.pipeline import GroundingPipeline, check_judge_mode
    from otel_grounding.relay.core import GroundingRelay
    from otel_grounding.relay.forward import (
        Forwarder,
        RetryPolicy,
        hop_address,
        make_sender,
        next_hop_from_env,
    )
    from otel_grounding.relay.queue import DeliveryQueue
    from otel_grounding.relay.server import (
        GrpcReceiver,
        HealthServer,
        HttpReceiver,
        ReceiverOptions,
        split_endpoint,
    )
    from otel_grounding.relay.telemetry import RelayMetrics, configure_logging, metrics_snapshot
    from otel_grounding.relay.unordered import UnorderedStore

    configure_logging(args.log_level)
    settings = load_settings(flag_overrides(args), settings_file=args.settings_file, shell=RELAY)
    hop = next_hop_from_env(
        endpoint=args.exporter_endpoint,
        protocol=args.exporter_protocol,
        headers=args.exporter_headers,
        insecure=args.exporter_insecure,
        certificate=args.exporter_certificate,
        compression=args.exporter_compression,
        timeout=args.exporter_timeout,
    )
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ConfigError("--tls-cert and --tls-key go together")
    for flag, path in (("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key)):
        if path and not os.access(path, os.R_OK):
            raise ConfigError(f"{flag}: cannot read {path!r}")
    if args.tls_cert:
        _check_tls_pair(args.tls_cert, args.tls_key)
    for name in ("grpc_endpoint", "http_endpoint", "health_endpoint"):
        endpoint = getattr(args, name)
        if _enabled(endpoint):
            try:
                own = split_endpoint(endpoint, 0)
            except ValueError as exc:
                raise ConfigError(f"--{name.replace('_', '-')}: {exc}") from None
            if name != "health_endpoint" and own[1] and _same_address(own, hop_address(hop)):
                raise ConfigError(
                    f"the next hop {hop.endpoint} is this relay's own --{name.replace('_', '-')} "
                    f"({endpoint}); set OTEL_EXPORTER_OTLP_ENDPOINT or --exporter-endpoint"
                )
    if not (_enabled(args.grpc_endpoint) or _enabled(args.http_endpoint)):
        raise ConfigError("at least one of --grpc-endpoint and --http-endpoint must be enabled")
    token = _token(args)
    wait = settings.evidence_wait
    retention = settings.trace_retention

    readers: list[MetricReader] = []
    memory = InMemoryMetricReader()
    readers.append(memory)
    if args.metrics_exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader

        readers.append(PeriodicExportingMetricReader(OTLPMetricExporter()))
    if args.prometheus_port is not None:
        try:
            from opentelemetry.exporter.prometheus import PrometheusMetricReader
            from prometheus_client import start_http_server
        except ImportError:
            raise ConfigError("--prometheus-port needs otel-grounding[prometheus]") from None
        try:
            start_http_server(args.prometheus_port, addr="127.0.0.1")
        except OSError as exc:
            raise ConfigError(
                f"--prometheus-port {args.prometheus_port}: cannot listen on "
                f"127.0.0.1:{args.prometheus_port}: {exc.strerror or exc}"
            ) from None
        readers.append(PrometheusMetricReader())
    resource = Resource.create({"service.name": "otel-grounding-relay"})
    meter_provider = MeterProvider(resource=resource, metric_readers=readers)
    logger_provider = _logger_provider(args.logs_exporter, resource)

    judge = _judge(settings)
    traces = UnorderedStore.from_settings(settings, retention)
    pipeline = GroundingPipeline(
        settings, meter_provider=meter_provider, store=traces, judge=judge,
        logger_provider=logger_provider,
    )
    check_judge_mode(pipeline)
    store = None
    if args.queue_dir:
        from otel_grounding.relay.store import QueueStore

        try:
            store = QueueStore(args.queue_dir, args.queue_dir_max_bytes or
                               2 * args.queue_max_bytes, fsync=args.queue_dir_fsync)
        except OSError as exc:
            raise ConfigError(f"--queue-dir: {exc}") from None
    queue = DeliveryQueue(args.queue_max_spans, args.queue_max_bytes, store=store)
    relay = GroundingRelay(
        pipeline,
        queue,
        trace_store=traces,
        evidence_wait=wait,
        passthrough=args.passthrough,
        retry_after=args.retry_after or 1.0,
    )
    metrics = RelayMetrics(
        meter_provider,
        queue_spans=lambda: queue.spans,
        queue_bytes=lambda: queue.nbytes,
        runs_held=lambda: relay.runs_held,
    )
    relay.metrics = metrics
    forwarder = Forwarder(
        queue,
        make_sender(hop),
        metrics,
        workers=args.export_workers,
        batch_spans=args.export_batch_spans,
        batch_bytes=args.export_batch_bytes,
        retry=RetryPolicy(
            initial=max(args.retry_initial, 0.01),
            max_interval=max(args.retry_max_interval, 0.01),
            max_elapsed=args.retry_max_elapsed,
        ),
        describe=hop.describe(),
    )
    options = ReceiverOptions(
        max_request_bytes=args.max_request_bytes,
        max_decompressed_bytes=max(args.max_decompressed_bytes, 1),
        token=token,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        grpc_max_concurrent_rpcs=args.grpc_max_concurrent_calls,
        http_max_connections=args.http_max_connections,
        http_max_connections_per_peer=args.http_max_connections_per_peer,
        request_timeout=args.request_timeout,
    )
    budget = _budget(args)
    grpc_receiver = _listen(
        "--grpc-endpoint", args.grpc_endpoint,
        lambda: GrpcReceiver(relay, args.grpc_endpoint, options, budget),
    )
    http_receiver = _listen(
        "--http-endpoint", args.http_endpoint,
        lambda: HttpReceiver(relay, args.http_endpoint, options, budget),
    )

    started = threading.Event()
    stop = threading.Event()

    def status() -> dict[str, Any]:
        return {
            "ready": started.is_set() and not relay.draining and not queue.full
            and not budget.limited,
            "memory_limited": budget.limited,
            "resident_bytes": budget.resident if budget.limit else None,
            "intake_reserved_bytes": budget.reserved,
            "draining": relay.draining,
            "queue_spans": queue.spans,
            "queue_bytes": queue.nbytes,
            "runs_held": relay.runs_held,
            "traces_buffered": traces.buffered_traces,
            "judge_pending": relay.judge_pending,
            "exported": forwarder.stats.exported,
            "rejected": forwarder.stats.rejected,
            "dropped": forwarder.stats.dropped,
        }

    health = _listen(
        "--health-endpoint", args.health_endpoint,
        lambda: HealthServer(args.health_endpoint, status, lambda: metrics_snapshot(memory)),
    )

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    previous = {
        sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)
    }
    try:
        replayed = relay.replay()
        if store is not None:
            logger.info("relay: queue directory replayed",
                        extra={"queue_dir": args.queue_dir, "spans": replayed})
        budget.start()
        relay.start()
        forwarder.start()
        for server in (grpc_receiver, http_receiver, health):
            if server is not None:
                server.start()
        started.set()
        logger.info(
            "relay: listening",
            extra={
                "grpc": grpc_receiver.address if grpc_receiver else None,
                "http": http_receiver.address if http_receiver else None,
                "health": health.address if health else None,
                "next_hop": hop.describe(),
                "tls": bool(args.tls_cert),
                "auth": token is not None,
                "evidence_wait_s": wait,
                "trace_retention_s": retention,
                "queue_max_spans": args.queue_max_spans,
                "queue_max_bytes": args.queue_max_bytes,
                "memory_limit_bytes": budget.limit,
                "intake_bytes": budget.total,
                "passthrough": args.passthrough,
                "judge": pipeline.judges.name if pipeline.judges is not None else None,
            },
        )
        while not stop.wait(0.5):
            pass
        return _shutdown(args, relay, forwarder, grpc_receiver, http_receiver, health, pipeline)
    finally:
        budget.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if logger_provider is not None:  # after the drain: the runs settled there are exported
            logger_provider.force_flush(LOGS_FLUSH_TIMEOUT_MS)
            logger_provider.shutdown()
        meter_provider.shutdown()


def _logger_provider(exporter: str, resource: Any) -> Any | None:
    """The relay's own LoggerProvider for the evaluation events (`--logs-exporter otlp`), or
    None: with none, the pipeline emits to the global one (unset in the relay: no events)."""
    if exporter != "otlp":
        return None
    from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor

    provider = LoggerProvider(resource=resource, shutdown_on_exit=False)  # run() shuts it down
    provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
    return provider


def _shutdown(
    args: argparse.Namespace,
    relay: Any,
    forwarder: Any,
    grpc_receiver: Any,
    http_receiver: Any,
    health: Any,
    pipeline: Any,
) -> int:
    """Stop accepting, score held runs, deliver what was accepted within the drain timeout."""
    deadline = time.monotonic() + args.drain_timeout
    queued = relay.queue.spans
    logger.info(
        "relay: draining",
        extra={"queue_spans": queued, "runs_held": relay.runs_held,
               "judge_pending": relay.judge_pending, "drain_timeout_s": args.drain_timeout},
    )
    # the receivers stay up while draining: new requests get the documented retryable answer
    # (UNAVAILABLE + RetryInfo / 503 + Retry-After), not a refused connection
    relay.stop_accepting()
    judged = relay.drain(timeout=max(deadline - time.monotonic(), 1.0),
                         judge_timeout=JUDGE_DRAIN_SHARE * args.drain_timeout)
    dropped = forwarder.drain(deadline)
    if grpc_receiver is not None:
        grpc_receiver.stop(0.5)
    if http_receiver is not None:
        http_receiver.stop()
    if health is not None:
        health.stop()
    pipeline.close()
    stats = forwarder.stats
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


__all__ = ["DEFAULT_HEALTH_PORT", "add_parser", "build_parser", "main", "run"]
