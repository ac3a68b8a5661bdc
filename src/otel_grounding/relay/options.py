"""The relay's own options, declared once: every `otel-grounding relay` flag is one field of
`RelayOptions`, with its default, its check, its one-line doc and its docs row.

Derived from that declaration: the argparse flags (`add_option_flags`, in groups, each value
checked as it is parsed), the typed options the relay is built from (`RelayOptions.from_args`,
or `RelayOptions(...)` in code, checked the same way) and docs/relay.md's flags table
(`options_markdown`, tests/test_relay_options.py checks it is current). The grounding settings
(`--min-claim-grounding-rate`, `--set`, ...) are `config.py`'s, not declared here. Adding a flag
is one field here plus its use.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from otel_grounding.config import (
    MAX_SECONDS,
    RELAY,
    ConfigError,
    add_setting_flags,
    relay_flags_markdown,
)
from otel_grounding.relay.memory import DEFAULT_INTAKE_BYTES, SPIKE_FRACTION, MiB

#: The health port's default: not the shipped Collector's `health_check` (13133) nor the
#: shipped Jaeger's (13134), so that the relay runs beside the shipped stack.
DEFAULT_HEALTH_PORT = 13135
#: The bearer token, when no `--auth-token-file` is given.
TOKEN_ENV = "OTEL_GROUNDING_RELAY_TOKEN"
#: More export workers than this only contend for the GIL (and each holds a batch).
MAX_EXPORT_WORKERS = 64
#: Connections or calls served at once, at most (a typo beyond is refused).
MAX_CONCURRENCY = 4096
#: The largest TCP port number.
MAX_PORT = 65535

#: Defaults another component keeps for its own callers (the forwarder, its retry policy).
DEFAULT_EXPORT_WORKERS = 2
DEFAULT_EXPORT_BATCH_SPANS = 4096
DEFAULT_EXPORT_BATCH_BYTES = 3 * MiB
#: An export worker that found less than a full batch ready waits this long for more: fewer,
#: fuller exports under load (measured: the export threads' CPU down by a third at 500-span
#: requests), at most this much later when traffic is light.
EXPORT_LINGER_S = 0.05
DEFAULT_RETRY_INITIAL_S = 0.5
DEFAULT_RETRY_MAX_INTERVAL_S = 30.0
DEFAULT_RETRY_MAX_ELAPSED_S = 300.0

# --- the flag groups, in the order `--help` shows them -------------------------------------
RECEIVERS = "receivers (loopback by default)"
NEXT_HOP = "next hop (defaults: the OTEL_EXPORTER_OTLP_* variables)"
QUEUE = "queue and delivery"
GROUNDING = "grounding (the processor's settings; also OTEL_GROUNDING_* and the settings file)"
OBSERVABILITY = "self-observability"
GROUPS = (RECEIVERS, NEXT_HOP, QUEUE, GROUNDING, OBSERVABILITY)


# --- checks: a value in, nothing out; ValueError with the reason ----------------------------
def at_least_one(value: int) -> None:
    if value < 1:
        raise ValueError(f"{value} is not an integer >= 1")


def at_most(limit: int) -> Callable[[int], None]:
    def check(value: int) -> None:
        at_least_one(value)
        if value > limit:
            raise ValueError(f"{value} is more than {limit}")

    return check


def tcp_port(value: int) -> None:
    at_least_one(value)
    if value > MAX_PORT:
        raise ValueError(f"{value} is not a TCP port (1-{MAX_PORT})")


def seconds(value: float) -> None:
    """A finite number of seconds in [0, MAX_SECONDS] (`inf` and `nan` refused)."""
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise ValueError(f"{value:g} is not a number of seconds from 0 to {MAX_SECONDS:g}")


def positive_seconds(value: float) -> None:
    seconds(value)
    if value <= 0:
        raise ValueError(f"{value:g} is not a number of seconds > 0")


# --- text to a value, as a flag gives it ------------------------------------------------------
def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an integer") from None


def _number_of_seconds(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None


def _true_or_false(text: str) -> bool:
    lowered = text.lower()
    if lowered not in ("true", "false"):
        raise ValueError(f"{text} is not true or false")
    return lowered == "true"


_FROM_TEXT: Mapping[type, Callable[[str], Any]] = {
    int: _integer, float: _number_of_seconds, bool: _true_or_false, str: str,
}
_KIND_TEXT = {int: "an integer", float: "a number of seconds", bool: "true or false",
              str: "a string"}


# --- the declaration ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Flag:
    """One relay flag: its default, the kind of value it takes and its check, its one-line
    doc (the `--help` text and the docs table's meaning), its group, and how the docs show its
    default when the value's own text would mislead. Key: its `RelayOptions` field's."""

    default: Any
    doc: str
    group: str
    kind: type = str
    check: Callable[[Any], None] | None = None
    choices: tuple[str, ...] | None = None
    #: A flag that takes no value (`--passthrough`).
    switch: bool = False
    metavar: str | None = None
    shown: str | None = None
    key: str = ""

    @property
    def flag_name(self) -> str:
        return "--" + self.key.replace("_", "-")

    def checked(self, value: Any) -> Any:
        """The value when it is one this flag takes; ValueError with the reason otherwise."""
        if value is None or self.switch:
            return value
        kinds = (int, float) if self.kind is float else (self.kind,)
        if not isinstance(value, kinds) or isinstance(value, bool) != (self.kind is bool):
            raise ValueError(f"{value!r} is not {_KIND_TEXT[self.kind]}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{value!r} is not one of {', '.join(self.choices)}")
        if self.check is not None:
            self.check(value)
        return value

    def parse(self, text: str) -> Any:
        """A flag's text, converted and checked (argparse names the flag when it is refused)."""
        try:
            return self.checked(_FROM_TEXT[self.kind](text))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    def shown_default(self) -> str:
        if self.shown is not None:
            return self.shown
        value = self.default
        if value is None or value is False:
            return "off"
        if self.kind is float:
            return f"{value:g} s"
        if self.kind is int and value >= MiB and value % MiB == 0:
            return f"{value // MiB} MiB"
        if isinstance(value, int):
            return f"{value:,}"
        return f"`{value}`"


def option(default: Any, doc: str, group: str, **how: Any) -> Any:
    """A `RelayOptions` field declaring its flag (`how`: the rest of `Flag`'s fields)."""
    return field(default=default, metadata={"flag": Flag(default, doc, group, **how)})


@dataclass(frozen=True)
class RelayOptions:
    """Every relay flag: one field each, `name: type = option(default, doc, group, ...)`;
    checked when built (a value a flag would refuse is a `ConfigError` naming the flag)."""

    # receivers
    grpc_endpoint: str | None = option(
        "127.0.0.1:4317", "OTLP/gRPC listen address, HOST:PORT or `none`", RECEIVERS)
    http_endpoint: str | None = option(
        "127.0.0.1:4318", "OTLP/HTTP listen address, HOST:PORT or `none`", RECEIVERS)
    health_endpoint: str | None = option(
        f"127.0.0.1:{DEFAULT_HEALTH_PORT}",
        "`/healthz`, `/readyz` and `/debug/metrics`, HOST:PORT or `none` (the default is not "
        "the Collector's `health_check` port, 13133)", RECEIVERS)
    auth_token_file: str | None = option(
        None, "require `Authorization: Bearer <token>` on both receivers (the token read from "
        f"this file; or set `${TOKEN_ENV}`)", RECEIVERS)
    tls_cert: str | None = option(None, "PEM certificate: TLS on both receivers", RECEIVERS)
    tls_key: str | None = option(None, "PEM private key for `--tls-cert`", RECEIVERS)
    max_request_bytes: int = option(
        4 * MiB, "largest request body on the wire", RECEIVERS, kind=int, check=at_least_one)
    max_decompressed_bytes: int = option(
        16 * MiB, "largest request once decompressed", RECEIVERS, kind=int, check=at_least_one)
    memory_limit_mib: int | None = option(
        None, "refuse requests (retryable) while the resident size is above "
        f"{100 - round(SPIKE_FRACTION * 100)}% of this", RECEIVERS, kind=int, check=at_least_one)
    max_intake_bytes: int | None = option(
        None, "bytes all requests being read, inflated and decoded may take together",
        RECEIVERS, kind=int, check=at_least_one,
        shown=f"{DEFAULT_INTAKE_BYTES // MiB} MiB (a third of the soft limit with "
        "`--memory-limit-mib`)")
    grpc_max_concurrent_calls: int = option(
        32, "Export calls served at once; beyond, `UNAVAILABLE` + `RetryInfo`", RECEIVERS,
        kind=int, check=at_most(MAX_CONCURRENCY))
    http_max_connections: int = option(
        64, "HTTP connections served at once; as many more are answered `503` + `Retry-After`",
        RECEIVERS, kind=int, check=at_most(MAX_CONCURRENCY))
    http_max_connections_per_peer: int = option(
        32, "of those, at most this many from one client address", RECEIVERS, kind=int,
        check=at_most(MAX_CONCURRENCY))
    request_timeout: float = option(
        30.0, "time one request may take to arrive as a whole (HTTP headers and body, a gRPC "
        "call's message)", RECEIVERS, kind=float, check=positive_seconds)
    # next hop (None: the OTEL_EXPORTER_OTLP_* variable, then the OTLP exporters' default)
    exporter_endpoint: str | None = option(
        None, "URL of the next OTLP hop", NEXT_HOP,
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT`, else `http://localhost:4317`")
    exporter_protocol: str | None = option(
        None, "the next hop's protocol", NEXT_HOP, choices=("grpc", "http/protobuf", "http/json"),
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`, else `grpc`")
    exporter_headers: str | None = option(
        None, "headers of every export, `key1=value1,key2=value2`", NEXT_HOP,
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`")
    exporter_insecure: bool | None = option(
        None, "plain-text gRPC to a next hop given as HOST:PORT (`true` or `false`)", NEXT_HOP,
        kind=bool,
        metavar="true|false", shown="`OTEL_EXPORTER_OTLP_[TRACES_]INSECURE`, else false")
    exporter_certificate: str | None = option(
        None, "CA bundle for TLS to the next hop", NEXT_HOP,
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE`")
    exporter_compression: str | None = option(
        None, "compression of the exports", NEXT_HOP, choices=("gzip", "none"),
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]COMPRESSION`, else none")
    exporter_timeout: float | None = option(
        None, "time one export may take", NEXT_HOP, kind=float, check=positive_seconds,
        shown="`OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT`, else 10 s")
    # queue and delivery
    queue_max_spans: int = option(
        100_000, "spans accepted and not yet delivered, at most", QUEUE, kind=int,
        check=at_least_one)
    queue_max_bytes: int = option(
        64 * MiB, "bytes accepted and not yet delivered, at most", QUEUE, kind=int,
        check=at_least_one)
    queue_dir: str | None = option(
        None, "persistent queue: every accepted request is written here before it is "
        "acknowledged and replayed after a kill", QUEUE, shown="off (memory only)")
    queue_dir_max_bytes: int | None = option(
        None, "bytes the queue directory may hold", QUEUE, kind=int, check=at_least_one,
        shown="2 x `--queue-max-bytes`")
    queue_dir_fsync: bool = option(
        False, "fsync each request file (survive a machine crash, not only a kill)", QUEUE,
        switch=True)
    export_workers: int = option(
        DEFAULT_EXPORT_WORKERS, "export threads (exports in flight at once)", QUEUE, kind=int,
        check=at_most(MAX_EXPORT_WORKERS))
    export_batch_spans: int = option(
        DEFAULT_EXPORT_BATCH_SPANS, "spans one export holds, at most (with less ready, an "
        f"export worker waits up to {EXPORT_LINGER_S * 1000:.0f} ms for more: fewer, fuller "
        "exports under load)", QUEUE, kind=int, check=at_least_one)
    export_batch_bytes: int = option(
        DEFAULT_EXPORT_BATCH_BYTES, "bytes one export holds, at most", QUEUE, kind=int,
        check=at_least_one)
    retry_initial: float = option(
        DEFAULT_RETRY_INITIAL_S, "first delay before an export is retried", QUEUE, kind=float,
        check=seconds)
    retry_max_interval: float = option(
        DEFAULT_RETRY_MAX_INTERVAL_S, "longest delay between retries", QUEUE, kind=float,
        check=seconds)
    retry_max_elapsed: float = option(
        DEFAULT_RETRY_MAX_ELAPSED_S, "give up a batch after this long (0: retry until shutdown)",
        QUEUE, kind=float, check=seconds)
    retry_after: float = option(
        1.0, "delay a refused client is told to wait (`Retry-After` / `RetryInfo`)", QUEUE,
        kind=float, check=seconds)
    drain_timeout: float = option(
        10.0, "on SIGTERM, how long to keep delivering accepted spans", QUEUE, kind=float,
        check=seconds)
    # self-observability
    log_level: str = option(
        "info", "the relay's JSON-lines log on stderr", OBSERVABILITY,
        choices=("debug", "info", "warning", "error"))
    metrics_exporter: str = option(
        "none", "also push the relay's metrics over OTLP/gRPC, configured by "
        "`OTEL_EXPORTER_OTLP_METRICS_*`",
        OBSERVABILITY, choices=("none", "otlp"))
    logs_exporter: str = option(
        "none", "push the `gen_ai.evaluation.result` log events (one per evaluation of a graded "
        "run, parented to its run span) over OTLP/gRPC, configured by "
        "`OTEL_EXPORTER_OTLP_[LOGS_]*`; flushed at shutdown, after the drain has settled the "
        "runs being judged", OBSERVABILITY,
        choices=("none", "otlp"))
    prometheus_port: int | None = option(
        None, "serve the metrics on 127.0.0.1:PORT (needs otel-grounding[prometheus])",
        OBSERVABILITY, kind=int, check=tcp_port)
    passthrough: bool = option(
        False, "benchmark floor: decode and re-encode only, no grounding", OBSERVABILITY,
        switch=True)

    def __post_init__(self) -> None:
        for flag in FLAGS:
            try:
                flag.checked(getattr(self, flag.key))
            except ValueError as exc:
                raise ConfigError(f"{flag.flag_name}: {exc}") from None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RelayOptions:
        """The options `add_option_flags`' flags were given (the settings flags are not)."""
        return cls(**{flag.key: getattr(args, flag.key) for flag in FLAGS})


def _declared() -> tuple[Flag, ...]:
    return tuple(
        dataclasses.replace(f.metadata["flag"], key=f.name)
        for f in dataclasses.fields(RelayOptions)
    )


#: Every relay flag, in the declaration's order.
FLAGS: tuple[Flag, ...] = _declared()


# --- flags ---------------------------------------------------------------------------------------
def _help(flag: Flag) -> str:
    text = flag.doc.replace("`", "").replace("%", "%%")  # argparse formats help with %
    return f"{text} (default {flag.shown_default().replace('`', '')})"


def add_option_flags(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every relay flag on a parser (the subcommand's or a standalone one), in its group, with
    the grounding settings' flags (`config.add_setting_flags`) in theirs."""
    for title in GROUPS:
        group = parser.add_argument_group(title)
        if title == GROUNDING:
            add_setting_flags(group, RELAY)
            continue
        for flag in FLAGS:
            if flag.group != title:
                continue
            if flag.switch:
                group.add_argument(flag.flag_name, dest=flag.key, action="store_true",
                                   help=_help(flag))
            elif flag.choices is not None:
                group.add_argument(flag.flag_name, dest=flag.key, choices=flag.choices,
                                   default=flag.default, help=_help(flag))
            else:
                group.add_argument(flag.flag_name, dest=flag.key, default=flag.default,
                                   type=flag.parse, metavar=flag.metavar, help=_help(flag))
    return parser


# --- docs ----------------------------------------------------------------------------------------
def options_markdown() -> str:
    """docs/relay.md's flags table: a row per flag, the grounding settings' row in its place."""
    rows = ["| flag | default | meaning |", "|---|---|---|"]
    for title in GROUPS:
        if title == GROUNDING:
            rows.append(relay_flags_markdown())
            continue
        for flag in FLAGS:
            if flag.group == title:
                choices = f" (one of `{'`, `'.join(flag.choices)}`)" if flag.choices else ""
                meaning = flag.doc + choices
                rows.append(f"| `{flag.flag_name}` | {flag.shown_default()} | {meaning} |")
    return "\n".join(rows)


__all__ = [
    "DEFAULT_HEALTH_PORT",
    "FLAGS",
    "TOKEN_ENV",
    "Flag",
    "RelayOptions",
    "add_option_flags",
    "options_markdown",
]
