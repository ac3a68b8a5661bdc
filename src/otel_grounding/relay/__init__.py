"""The OTLP grounding relay: the processor's enrichment for agents written in any language.

Receives OTLP traces (gRPC and HTTP), enriches agent run spans through the same pipeline as the
SDK processor (conventions, trace assembly, scoring, attribute writing), and forwards OTLP to
the next hop. `otel-grounding relay --help` lists the flags; docs/relay.md the semantics.
"""

from otel_grounding.relay.cli import add_parser, build_parser, main, run

__all__ = ["add_parser", "build_parser", "main", "run"]
