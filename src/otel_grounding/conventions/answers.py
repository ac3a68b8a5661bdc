"""The final answer in a run's or an LLM step's output: the text parts of the **last assistant
message** (never tool-call parts, never user, system or tool messages).

None when the payload is a message structure whose last assistant message carries no text (a
tool call, or text the instrumentation did not capture). A payload that holds no message
structure at all is the answer as it stands (the raw string). Envelopes walked on the way:
`{"messages": [...]}` (LangGraph state), `[{"update": {"messages": [...]}}]` (LangGraph
commands), `{"outputs": ...}` / `{"output": ...}` (OpenLLMetry and LangChain AgentExecutor),
`{"response": ...}` / `{"result": ...}` (LlamaIndex), CrewAI's `TaskOutput` (`raw`), content
blocks alone (Strands). A structured output that carries reasoning or a trajectory beside its
answer (`{"reasoning": ..., "answer": ...}`: pydantic-ai's `final_result` of such an output
type) gives the answer field: the reasoning is not a claim to the user.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_grounding.conventions.attribute_values import parsed_payload
from otel_grounding.conventions.messages import (
    ASSISTANT,
    MAX_DEPTH,
    content_text,
    is_blocks,
    messages_in,
)
from otel_grounding.conventions.unwrap import NOT_RECOGNISED, NotRecognised, unwrap
from otel_grounding.scoring import as_text

#: Envelope keys unwrapped on the way to the answer, in order.
_ANSWER_WRAPPERS = (
    "outputs",
    "output",
    "update",
    "messages",
    "final_output",
    "return_values",
    "response",  # LlamaIndex AgentOutput
    "result",  # OpenLLMetry's LlamaIndex task output
)

#: Keys of a structured output that hold the agent's reasoning or its steps, not its answer
#: (`{"reasoning": ..., "answer": ...}`, `{"trajectory": ..., "output": ...}`).
_REASONING_KEYS = frozenset(
    {
        "reasoning",
        "rationale",
        "thought",
        "thoughts",
        "thinking",
        "chain_of_thought",
        "scratchpad",
        "trajectory",
        "intermediate_steps",
    }
)
#: The answer field beside them, in order of preference.
_ANSWER_FIELDS = ("answer", "final_answer", "output", "response", "result")

#: Keys beside a string `raw` that make a mapping a CrewAI `TaskOutput` / `CrewOutput`.
_CREWAI_OUTPUT_KEYS = frozenset({"output_format", "tasks_output", "json_dict", "pydantic"})


def _answer(obj: Any, depth: int = 0) -> str | NotRecognised | None:
    if depth > MAX_DEPTH:
        return NOT_RECOGNISED
    if isinstance(obj, str):  # a JSON-quoted string, or a string inside an envelope
        return obj
    messages = messages_in(obj, depth)
    if messages is not None:
        assistant = [m for m in messages if m.role == ASSISTANT]
        return assistant[-1].text if assistant else None
    if is_blocks(obj):  # a message's content blocks alone (Strands): its text
        text = content_text(obj)
        return text if text is not None and text.strip() else None
    if isinstance(obj, Mapping):
        raw = obj.get("raw")
        if isinstance(raw, str) and not _CREWAI_OUTPUT_KEYS.isdisjoint(obj):  # CrewAI
            return raw
        if not _REASONING_KEYS.isdisjoint(obj):
            field = next((key for key in _ANSWER_FIELDS if key in obj), None)
            if field is not None:  # reasoning is not a claim to the user: the answer field is
                found = _answer(obj[field], depth + 1)
                return as_text(obj[field]) if found is NOT_RECOGNISED else found
        for key in _ANSWER_WRAPPERS:
            if key in obj:
                found = _answer(obj[key], depth + 1)
                if found is not NOT_RECOGNISED:
                    return found
    elif isinstance(obj, list) and len(obj) == 1:  # LangGraph: [{"update": {...}, ...}]
        return _answer(obj[0], depth + 1)
    return NOT_RECOGNISED


def answer_text(value: Any, *, structured: bool = False, cut: bool = False) -> str | None:
    """A run's or LLM step's final answer text (see the module docstring); None: not captured.

    `structured`: the attribute always holds JSON (the convention says so), `cut`: the value
    arrived cut at the span's length limit. Either way, JSON that does not parse cannot be
    unwrapped, and is no answer rather than an envelope scored whole.
    """
    return unwrap(value, _answer, broken_json_is_none=structured or cut)


def message_answer(value: Any) -> str | None:
    """The assistant's text when the value is a JSON object or list holding a recognised message
    structure (never the raw value: a payload with no assistant message gives None)."""
    parsed = parsed_payload(value)
    if parsed is None:
        return None
    found = _answer(parsed)
    return found if isinstance(found, str) and found.strip() else None
