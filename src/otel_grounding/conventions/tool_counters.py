"""A framework's own count of a run's tool calls, kept in its output state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_grounding.conventions.attribute_values import parsed_payload

#: Framework counters of a run's tool calls, in its output state: a count, or counts by tool
#: (LangChain's `ToolCallLimitMiddleware` keeps `run_tool_call_count` in the agent state).
TOOL_CALL_COUNTERS = ("tool_call_counts", "run_tool_call_count", "tool_call_count")


def tool_call_count(value: Any) -> int | None:
    """How many tool calls a run's output state says were made; None when it says nothing."""
    if isinstance(value, str) and "tool_call_count" not in value:
        return None
    parsed = parsed_payload(value)
    if not isinstance(parsed, Mapping):
        return None
    for key in TOOL_CALL_COUNTERS:
        counter = parsed.get(key)
        if isinstance(counter, Mapping):
            counts = [n for n in counter.values() if isinstance(n, int) and not isinstance(n, bool)]
            return sum(n for n in counts if n > 0)
        if isinstance(counter, int) and not isinstance(counter, bool) and counter >= 0:
            return counter
    return None
