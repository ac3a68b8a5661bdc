"""Run one catalog scenario in its framework's env: the scripted model, one tool, real tracing.

    PYTHONPATH=src <env>/bin/python tests/frameworks/run_in_env.py SCENARIO [--raw] [--out FILE]

Sets the scenario's switches and the offline environment before anything is imported (the
instrumentations read them at import), starts the scripted OpenAI-compatible model on
127.0.0.1, and runs the agent once per answer (grounded, hallucinated) through a real
TracerProvider whose processor is
`GroundingSpanProcessor(SimpleSpanProcessor(InMemorySpanExporter()), min_claim_grounding_rate=0.7)`
(`--raw`: the bare SimpleSpanProcessor, as the captures are recorded). Prints, or writes to
FILE, `{"grounded": [spans], "hallucinated": [spans]}` in the format of tests/frameworks/_common.py.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from catalog import SCENARIOS, SWITCHES  # noqa: E402

THRESHOLD = 0.7
#: Where nothing listens: a client that ignores NO_PROXY or tries the internet fails at once.
CLOSED_PORT = "http://127.0.0.1:9"

#: No framework phones home, every key is a dummy, every model call goes to the scripted model.
OFFLINE = {
    "OPENAI_API_KEY": "sk-offline-test",
    "GOOGLE_API_KEY": "offline-test",
    "GEMINI_API_KEY": "offline-test",
    "GOOGLE_GENAI_USE_VERTEXAI": "false",
    "TRACELOOP_TELEMETRY": "false",
    "CREWAI_DISABLE_TELEMETRY": "true",
    "CREWAI_DISABLE_TRACKING": "true",
    "CREWAI_TRACING_ENABLED": "false",
    "OTEL_SDK_DISABLED": "false",
    "LITELLM_TELEMETRY": "False",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "ANONYMIZED_TELEMETRY": "False",
    "DO_NOT_TRACK": "1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HTTP_PROXY": CLOSED_PORT,
    "HTTPS_PROXY": CLOSED_PORT,
    "http_proxy": CLOSED_PORT,
    "https_proxy": CLOSED_PORT,
    "NO_PROXY": "127.0.0.1,localhost",
    "no_proxy": "127.0.0.1,localhost",
}


LOOPBACK = {"127.0.0.1", "::1", "localhost"}
#: Every attempt to reach past the loopback (or the closed proxy port), refused and reported.
OUTSIDE: list[str] = []


def _guard(event: str, args: tuple[Any, ...]) -> None:
    """Audit hook: refuse (and remember) any name lookup or connection beyond the loopback."""
    if event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if host is not None and str(host) not in LOOPBACK:
            OUTSIDE.append(f"lookup {host}:{args[1]}")
            raise PermissionError(f"offline test: no lookup of {host}")
    elif event == "socket.connect":
        address = args[1]
        if isinstance(address, tuple) and (
            str(address[0]) not in LOOPBACK or address[1] == int(CLOSED_PORT.rsplit(":", 1)[1])
        ):
            OUTSIDE.append(f"connect {address[0]}:{address[1]}")
            raise PermissionError(f"offline test: no connection to {address}")


def prepare(name: str) -> None:
    """The scenario's switches and the offline environment, before any framework import."""
    for switch in SWITCHES:
        os.environ.pop(switch, None)
    os.environ.update(OFFLINE)
    os.environ.update(SCENARIOS[name].environ)


def make_provider(raw: bool) -> tuple[Any, Any]:
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-service"}))
    processor: Any = SimpleSpanProcessor(exporter)
    if not raw:
        from otel_grounding import GroundingSpanProcessor

        processor = GroundingSpanProcessor(processor, min_claim_grounding_rate=THRESHOLD)
    provider.add_span_processor(processor)
    # Frameworks with built-in tracing (AutoGen, ADK, Strands, CrewAI) use the global provider.
    trace.set_tracer_provider(provider)
    return provider, exporter


def main(argv: list[str]) -> int:
    name = argv[0]
    raw = "--raw" in argv[1:]
    out = argv[argv.index("--out") + 1] if "--out" in argv else None
    prepare(name)
    sys.addaudithook(_guard)
    scenario = SCENARIOS[name]

    from otel_grounding.demo_frameworks import ANSWERS, WEATHER

    from _common import dumps, to_json
    from scripted_model import ScriptedModel

    provider, exporter = make_provider(raw)
    with ScriptedModel(WEATHER) as model:
        os.environ["OPENAI_BASE_URL"] = model.base_url
        os.environ["OPENAI_API_BASE"] = model.base_url
        if scenario.instrumentor is not None:
            path, cls = scenario.instrumentor.split(":")
            getattr(importlib.import_module(path), cls)().instrument(tracer_provider=provider)
        module = importlib.import_module(f"env_scenarios.{scenario.module}")
        run = module.agent(model, provider, **scenario.options)
        result: dict[str, Any] = {}
        for label, answer in ANSWERS.items():
            model.answer = answer
            exporter.clear()
            final = run(answer)
            provider.force_flush()
            if final is None or final.strip() != answer:
                raise SystemExit(f"{name}: the agent answered {final!r}, not the scripted answer")
            result[label] = dumps(exporter.get_finished_spans())
    provider.shutdown()
    if OUTSIDE:
        raise SystemExit(f"{name}: tried to reach the network: {sorted(set(OUTSIDE))}")
    text = to_json(result)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
