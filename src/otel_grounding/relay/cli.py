"""`otel-grounding relay`: parse the flags, build the relay, serve until SIGTERM/SIGINT, drain.

`add_parser(subcommands)` adds the `relay` subcommand to the `otel-grounding` parser;
`main(argv)` runs it standalone (`python -m otel_grounding.relay ...`). The flags are declared
in `options.py`, the relay is composed in `service.py`; this module is the process around it
(logging, signals, exit status).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

from otel_grounding.config import RELAY, ConfigError, flag_overrides, load_settings
from otel_grounding.relay.options import (
    DEFAULT_HEALTH_PORT,
    RelayOptions,
    add_option_flags,
)

#: How often the main thread looks up from waiting for a signal.
SIGNAL_POLL_S = 0.5


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


def run(args: argparse.Namespace) -> int:
    """Build the relay from the flags, serve until SIGTERM/SIGINT, then drain and stop; the
    exit status (0: every accepted span delivered). ConfigError before anything serves."""
    from otel_grounding.relay.service import RelayService
    from otel_grounding.relay.telemetry import configure_logging

    options = RelayOptions.from_args(args)
    configure_logging(options.log_level)
    settings = load_settings(flag_overrides(args), settings_file=args.settings_file, shell=RELAY)
    service = RelayService.build(options, settings)
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        service.start()
        while not stop.wait(SIGNAL_POLL_S):
            pass
        return service.drain()
    finally:
        service.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


__all__ = ["DEFAULT_HEALTH_PORT", "add_parser", "build_parser", "main", "run"]
