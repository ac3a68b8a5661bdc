"""Tools that are not evidence: answer pseudo-tools and agent handoffs (docs/conventions.md,
"Pseudo-tools and handoffs")."""

from __future__ import annotations

from typing import Any

#: Tool names whose "output" is the agent's answer itself, not evidence (docs/contract.md: sources
#: are the outputs of real tool steps). Compared lowercased.
ANSWER_TOOLS = frozenset(
    {
        "final_answer",
        "finalanswer",
        "final_answer_tool",
        "finalanswertool",
        "final_result",
        "final_output",
    }
)

#: Tool-name prefixes of agent handoffs: control transfers, not evidence.
HANDOFF_PREFIXES = ("transfer_to_", "transfer_back_to_", "handoff to ", "handoff_to_")


def tool_kind(name: Any) -> str:
    """ "answer" for pseudo-tools that carry the answer, "handoff" for handoffs, else "tool"."""
    if not isinstance(name, str):
        return "tool"
    lowered = name.strip().lower()
    if lowered in ANSWER_TOOLS:
        return "answer"
    if lowered.startswith(HANDOFF_PREFIXES):
        return "handoff"
    return "tool"
