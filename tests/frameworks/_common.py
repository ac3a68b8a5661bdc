"""Shared by the framework scenarios: the one tool, the two answers, offline set-up, span dumps."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

WEATHER = "Paris: 18 degrees Celsius, light rain"
QUESTION = "What is the weather in Paris?"
#: Every claim's tokens are in the tool output (the, weather, paris, degrees, celsius, light, rain).
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
#: The first claim is grounded, the second invented: rate 1/2, flagged at 0.7.
HALLUCINATED = (
    "The weather in Paris is 18 degrees Celsius with light rain. "
    "Tomorrow a violent thunderstorm will flood the Louvre museum basement."
)
ANSWERS = {"grounded": GROUNDED, "hallucinated": HALLUCINATED}
AGENT_NAME = "weather_agent"


def offline_env() -> None:
    """Dummy keys and no phoning home: every model here is fake, nothing may leave the machine."""
    os.environ.setdefault("OPENAI_API_KEY", "sk-offline-test")
    os.environ["TRACELOOP_TELEMETRY"] = "false"
    os.environ["LANGSMITH_TRACING"] = "false"
    os.environ["LANGCHAIN_TRACING_V2"] = "false"
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "0"
    os.environ.setdefault("LANGFUSE_PUBLIC_KEY", "pk-lf-offline")
    os.environ.setdefault("LANGFUSE_SECRET_KEY", "sk-lf-offline")
    # A closed loopback port: should anything try to reach Langfuse, it goes nowhere.
    os.environ["LANGFUSE_BASE_URL"] = "http://127.0.0.1:9"
    os.environ["LANGFUSE_HOST"] = "http://127.0.0.1:9"


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return WEATHER if "paris" in city.lower() else f"{city}: no data"


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def span_dict(span: Any) -> dict[str, Any]:
    """An exported SDK span as the JSON the captures and the tests read."""
    parent = span.parent.span_id if span.parent is not None else None
    return {
        "name": span.name,
        "trace_id": f"{span.context.trace_id:032x}",
        "span_id": f"{span.context.span_id:016x}",
        "parent_id": None if parent is None else f"{parent:016x}",
        "attributes": {k: _plain(v) for k, v in (span.attributes or {}).items()},
        "events": [
            {"name": e.name, "attributes": {k: _plain(v) for k, v in (e.attributes or {}).items()}}
            for e in span.events
        ],
        "resource": {k: _plain(v) for k, v in span.resource.attributes.items()},
    }


def dumps(spans: Iterable[Any]) -> list[dict[str, Any]]:
    return [span_dict(s) for s in spans]


def to_json(value: Any) -> str:
    return json.dumps(value, indent=1, default=str, ensure_ascii=False)
