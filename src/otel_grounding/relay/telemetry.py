"""The relay's self-observability: its own metrics (OTel metrics API) and JSON-lines logs.

Metrics (meter `otel_grounding.relay`), next to the pipeline's own (`otel_grounding.*`:
runs scored, traces evicted, scoring duration...):

- `otel_grounding.relay.spans_received`  spans in accepted requests, by transport
- `otel_grounding.relay.requests_refused` requests refused, by reason (queue_full,
  draining, busy, memory_limited, unauthenticated, invalid, too_large, unsupported)
- `otel_grounding.relay.spans_refused`   spans in requests refused after decoding, by reason
- `otel_grounding.relay.queue_spans` / `queue_bytes` / `runs_held`  gauges
- `otel_grounding.relay.spans_exported`  spans the next hop accepted
- `otel_grounding.relay.spans_rejected`  spans the next hop rejected in a partial success
- `otel_grounding.relay.export_failures` failed export attempts, by reason
- `otel_grounding.relay.spans_dropped`   accepted spans given up, by reason (permanent_error,
  retries_exhausted, shutdown): the only way an accepted span is not delivered, always counted
- `otel_grounding.relay.request_duration` time to acknowledge a request (s)
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from opentelemetry.metrics import CallbackOptions, MeterProvider, Observation

from otel_grounding.metrics import Tally

METER_NAME = "otel_grounding.relay"
PREFIX = "otel_grounding.relay."

LABEL_TRANSPORT = "transport"
LABEL_REASON = "reason"

REFUSED_QUEUE_FULL = "queue_full"
REFUSED_DRAINING = "draining"
REFUSED_UNAUTHENTICATED = "unauthenticated"
REFUSED_INVALID = "invalid"
REFUSED_TOO_LARGE = "too_large"
REFUSED_UNSUPPORTED = "unsupported"
REFUSED_BUSY = "busy"  # too many concurrent calls or connections
REFUSED_MEMORY = "memory_limited"  # the process is above its soft memory limit
#: Refusals the client is told to retry (gRPC UNAVAILABLE + RetryInfo, HTTP 503 + Retry-After).
RETRYABLE_REFUSALS = frozenset(
    {REFUSED_QUEUE_FULL, REFUSED_DRAINING, REFUSED_BUSY, REFUSED_MEMORY}
)

DROPPED_PERMANENT = "permanent_error"
DROPPED_RETRIES = "retries_exhausted"
DROPPED_SHUTDOWN = "shutdown"

logger = logging.getLogger("otel_grounding.relay")


class RelayMetrics:
    """The relay's counters and histogram (its gauges: `observe_levels`)."""

    def __init__(self, meter_provider: MeterProvider) -> None:
        meter = meter_provider.get_meter(METER_NAME)
        def tally(name: str, unit: str, description: str) -> Tally:
            return Tally(meter, PREFIX + name, unit=unit, description=description)

        self.spans_received = tally("spans_received", "{span}", "Spans in accepted requests")
        self.requests_refused = tally(
            "requests_refused", "{request}", "Requests refused, by reason"
        )
        self.spans_refused = tally("spans_refused", "{span}", "Spans in refused requests")
        self.spans_exported = tally("spans_exported", "{span}", "Spans the next hop accepted")
        self.spans_rejected = tally(
            "spans_rejected", "{span}", "Spans the next hop rejected in a partial success"
        )
        self.export_failures = tally("export_failures", "{attempt}", "Failed export attempts")
        self.spans_dropped = tally("spans_dropped", "{span}", "Accepted spans given up")
        self.request_duration = meter.create_histogram(
            PREFIX + "request_duration",
            unit="s",
            description="Time to acknowledge an export request",
            explicit_bucket_boundaries_advisory=[
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
            ],
        )


def observe_levels(
    meter_provider: MeterProvider,
    *,
    queue_spans: Callable[[], int],
    queue_bytes: Callable[[], int],
    runs_held: Callable[[], int],
) -> None:
    """The relay's gauges, read through callbacks from the parts that hold the levels (made
    after them, as `RelayMetrics` is made before the parts that count into it)."""
    meter = meter_provider.get_meter(METER_NAME)
    for name, read, description in (
        ("queue_spans", queue_spans, "Spans accepted and not yet delivered"),
        ("queue_bytes", queue_bytes, "Bytes accepted and not yet delivered"),
        ("runs_held", runs_held, "Run spans waiting for late evidence"),
    ):
        meter.create_observable_gauge(
            PREFIX + name, callbacks=[_gauge(read)], description=description
        )


def _gauge(read: Callable[[], int]) -> Callable[[CallbackOptions], list[Observation]]:
    def callback(options: CallbackOptions) -> list[Observation]:
        return [Observation(read())]

    return callback


def metrics_snapshot(reader: Any) -> dict[str, Any]:
    """A JSON-able summary of an InMemoryMetricReader: per metric, a total and its points."""
    data = reader.get_metrics_data()
    out: dict[str, Any] = {}
    if data is None:
        return out
    for rm in data.resource_metrics:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                points = []
                total = 0.0
                for point in metric.data.data_points:
                    attrs = dict(point.attributes or {})
                    if hasattr(point, "value"):
                        value: Any = point.value
                        total += value
                    else:  # histogram
                        value = {"count": point.count, "sum": point.sum}
                        total += point.count
                    points.append({"attributes": attrs, "value": value})
                out[metric.name] = {"total": total, "points": points}
    return out


# -- structured logs --------------------------------------------------------------------------
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg and any `extra=` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, timezone.utc).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure_logging(level: str = "info", stream: Any = None) -> None:
    """JSON-lines logs on stderr for the relay and the pipeline (`otel_grounding.*`)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("otel_grounding")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


class RateLimitedLog:
    """Log a recurring condition at most once per `interval` seconds, with a suppressed count."""

    def __init__(self, interval: float = 5.0) -> None:
        self._interval = interval
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, key: str, level: int, msg: str, **fields: Any) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self._interval:
                self._suppressed[key] = self._suppressed.get(key, 0) + 1
                return
            self._last[key] = now
            suppressed = self._suppressed.pop(key, 0)
        if suppressed:
            fields["suppressed"] = suppressed
        logger.log(level, msg, extra=fields)
