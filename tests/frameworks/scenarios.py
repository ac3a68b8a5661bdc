"""Real agent frameworks, offline: a fake model, one tool, and the framework's own instrumentation.

Run one scenario per process (instrumentations patch globally):

    python tests/frameworks/scenarios.py SCENARIO [--raw]

The scenarios are `otel_grounding.demo_frameworks.SCENARIOS` (what `otel-grounding demo --framework`
runs) plus test-only variants. It runs the agent twice (a grounded and a hallucinating final
answer) through a real TracerProvider whose processor is
`GroundingSpanProcessor(SimpleSpanProcessor(InMemorySpanExporter()), min_claim_grounding_rate=0.7)`
with the default conventions, and prints `{"grounded": [spans], "hallucinated": [spans]}` as
JSON on stdout. `--raw` leaves the grounding processor out: what the captures under
`captures/` were made with. Content-capture switches come from the environment (the tests set
them). Nothing reaches the network: models are fake, API keys are dummies.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import shape_scenarios as shapes
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import demo_frameworks as frameworks

from _common import dumps, to_json

THRESHOLD = 0.7

SCENARIOS: dict[str, Callable[[TracerProvider], frameworks.Run]] = {
    **{name: scenario.setup for name, scenario in frameworks.SCENARIOS.items()},
    "pydantic-ai-no-content": lambda provider: frameworks.pydantic_ai(
        provider, include_content=False
    ),
    "pydantic-ai-reasoned-output": shapes.pydantic_ai_reasoned,
    "langgraph-node-agent-openinference": lambda provider: shapes.langgraph_node_agent(
        provider, "openinference"
    ),
    "langgraph-node-agent-langfuse": lambda provider: shapes.langgraph_node_agent(
        provider, "langfuse"
    ),
}


def make_provider(raw: bool) -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-service"}))
    if raw:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    else:
        from otel_grounding import GroundingSpanProcessor

        provider.add_span_processor(
            GroundingSpanProcessor(
                SimpleSpanProcessor(exporter), min_claim_grounding_rate=THRESHOLD
            )
        )
    return provider, exporter


def main(argv: list[str]) -> int:
    name = argv[0]
    raw = "--raw" in argv[1:]
    os.environ.update(frameworks.offline_variables())
    provider, exporter = make_provider(raw)
    run = SCENARIOS[name](provider)
    result: dict[str, Any] = {}
    for label, answer in frameworks.ANSWERS.items():
        exporter.clear()
        final = run(answer)
        provider.force_flush()
        if final != answer:
            raise SystemExit(f"{name}: the agent answered {final!r}, not the scripted answer")
        result[label] = dumps(exporter.get_finished_spans())
    provider.shutdown()
    sys.stdout.write(to_json(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
