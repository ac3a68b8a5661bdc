"""Tool traffic an LLM step shows: the tool results it received in its input messages (result
parts and tool-role messages only: nothing else of a prompt) and the tool calls its output asks
for, with their call ids (docs/conventions.md, "Evidence the model saw")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from otel_grounding.conventions.attribute_values import parsed_payload
from otel_grounding.conventions.messages import (
    MAX_DEPTH,
    TOOL_ROLE,
    as_message,
    content_text,
    is_blocks,
    message_content,
    role_of,
)
from otel_grounding.conventions.pseudo_tools import tool_kind
from otel_grounding.conventions.tool_outputs import tool_text
from otel_grounding.scoring import as_text


class ToolResult(NamedTuple):
    """A tool's result as an LLM step received it in its input: the call it answers (None when
    the message names none) and its text (None when the content was not captured)."""

    call_id: str | None
    text: str | None


#: How many nodes of a payload the tool-traffic walkers visit at most (keeps them linear).
_MAX_NODES = 10_000


def call_id_of(value: Any) -> str | None:
    return value if isinstance(value, str) and value and value != "<not specified>" else None


def result_text(value: Any) -> str | None:
    """A tool result's content: a string (unwrapped), content blocks' text, else sorted JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return tool_text(value)
    if is_blocks(value):
        return content_text(value) or ""
    return as_text(value)


def tool_results(value: Any) -> list[ToolResult]:
    """Tool results inside an LLM step's input messages, in order: GenAI `tool_call_response`
    parts, google-genai `function_response` parts, tool-role messages (OpenAI, LangChain),
    `toolResult` / `tool_result` content blocks (Strands, Anthropic), Responses
    `function_call_output` items. Nothing else of a prompt is read."""
    found: list[ToolResult] = []

    def visit(obj: Mapping[str, Any]) -> list[Any]:
        kind = obj.get("type")
        if kind == "tool_call_response":  # GenAI part: `result` (the schema), `response`
            found.append(ToolResult(call_id_of(obj.get("id")), result_text(_response_of(obj))))
        elif kind == "tool_result":  # Anthropic block
            found.append(
                ToolResult(call_id_of(obj.get("tool_use_id")), result_text(obj.get("content")))
            )
        elif kind == "function_call_output":  # OpenAI Responses item
            found.append(ToolResult(call_id_of(obj.get("call_id")), result_text(obj.get("output"))))
        elif isinstance(inner := _first_mapping(obj, _FUNCTION_RESPONSE_KEYS), Mapping):
            found.append(
                ToolResult(call_id_of(inner.get("id")), result_text(inner.get("response")))
            )
        elif isinstance(inner := obj.get("toolResult"), Mapping):  # Strands / Bedrock block
            found.append(
                ToolResult(call_id_of(inner.get("toolUseId")), result_text(inner.get("content")))
            )
        elif (message := as_message(obj)) is not None:
            parts, content = obj.get("parts"), message_content(obj)
            if message.role != TOOL_ROLE:
                # Another role's message is never evidence itself: only the result parts some
                # frameworks put in it (google-genai sends function responses as role `user`).
                return [inner for inner in (parts, content) if isinstance(inner, list)]
            if isinstance(parts, list):
                found.extend(_tool_message_results(obj, parts, visit))
                return []
            if isinstance(content, list) and any(map(_is_result_block, content)):
                return content
            holder = obj.get("kwargs") or obj.get("data") or obj
            call = call_id_of(holder.get("tool_call_id")) if isinstance(holder, Mapping) else None
            text = message.text if message.text is not None else result_text(content)
            found.append(ToolResult(call, text))
        else:
            return _containers(obj)
        return []

    messages = _scan(value, _RESULT_MARKERS, visit)
    for message in messages:
        if role_of(message.get("role")) == TOOL_ROLE:
            found.extend(_tool_message_results(message, message["parts"], visit))
            continue
        for part in message["parts"]:
            if part.get("type") not in _NOT_RESULT_PARTS:
                visit(part)
    return found


def _response_of(part: Mapping[str, Any]) -> Any:
    """A `tool_call_response` part's result: `response` (older instrumentations) or `result`
    (the GenAI semantic conventions' schema)."""
    response = part.get("response")
    return part.get("result") if response is None else response


def _tool_message_results(
    message: Mapping[str, Any],
    parts: list[Any],
    visit: Callable[[Mapping[str, Any]], list[Any]],
) -> list[ToolResult]:
    """A tool-role message in the GenAI parts shape: its result parts as they are, and its
    text parts together as one result (LiteLLM sends the tool's output as a `text` part of a
    `tool` message, the call id on the message): a tool message is a tool result whatever
    its parts' types."""
    texts: list[str] = []
    text_parts = 0
    for part in parts:
        if not isinstance(part, Mapping):
            continue
        kind = part.get("type")
        if kind == "text" or (kind is None and "content" in part):
            text_parts += 1
            content = part.get("content")
            if isinstance(content, str):
                texts.append(content)
            elif content is not None:
                texts.append(as_text(content))
        elif kind not in _NOT_RESULT_PARTS:
            visit(part)
    if text_parts or not parts:
        call = call_id_of(message.get("tool_call_id")) or call_id_of(message.get("id"))
        return [ToolResult(call, tool_text("\n".join(texts)) if texts else None)]
    return []


def _scan(
    value: Any,
    markers: tuple[str, ...],
    visit: Callable[[Mapping[str, Any]], list[Any]],
) -> list[dict[str, Any]]:
    """Walk a payload with `visit`: JSON text holding none of `markers` is not even parsed
    (most LLM inputs carry no tool result). The common GenAI shape is not walked: its
    messages are returned, for the caller to read message by message and part by part."""
    if value is None:
        return []
    if isinstance(value, str) and not any(marker in value for marker in markers):
        return []
    root = parsed_payload(value)
    messages = _genai_messages(root)
    if messages is not None:
        return messages
    if root is not None:
        _walk(root, visit)
    return []


_NOT_RESULT_PARTS = frozenset({"text", "tool_call", "reasoning", "blob", "uri", "file"})
_NOT_CALL_PARTS = frozenset({"text", "tool_call_response", "reasoning", "blob", "uri", "file"})


def _genai_messages(root: Any) -> list[dict[str, Any]] | None:
    """A GenAI messages list (`[{"role": R, "parts": [{...}, ...]}, ...]`) as it is; None when
    the payload has another shape."""
    if type(root) is not list:
        return None
    for message in root:
        if type(message) is not dict or type(message.get("parts")) is not list:
            return None
        if any(type(part) is not dict for part in message["parts"]):
            return None
    return root


def tool_calls(value: Any) -> list[str | None]:
    """The tool calls an LLM step's output asks for (their call ids, None when unnamed): GenAI
    `tool_call` parts, google-genai `function_call` parts, OpenAI `tool_calls`, LangChain
    `tool_calls`, `toolUse` / `tool_use` blocks, Responses `function_call` items; a GenAI
    message that stopped for tools (`finish_reason: tool_calls`) with none recorded is one
    unnamed call. Calls of an answer pseudo-tool (`final_result`, ...) are the answer itself,
    never a tool that ran: not counted."""
    found: list[str | None] = []
    seen = [0]

    def add(call_id: Any, name: Any) -> None:
        seen[0] += 1
        if tool_kind(name) != "answer":
            found.append(call_id_of(call_id))

    def add_all(calls: list[Any]) -> None:
        for call in calls:
            if not isinstance(call, Mapping):
                add(None, None)
                continue
            function = call.get("function")
            name = function.get("name") if isinstance(function, Mapping) else call.get("name")
            add(call.get("id"), name)

    def visit(obj: Mapping[str, Any]) -> list[Any]:
        kind = obj.get("type")
        if kind == "tool_call" or kind == "tool_use":  # GenAI part, Anthropic block
            add(obj.get("id"), obj.get("name"))
        elif kind == "function_call":  # OpenAI Responses item
            add(obj.get("call_id") or obj.get("id"), obj.get("name"))
        elif isinstance(inner := _first_mapping(obj, _FUNCTION_CALL_KEYS), Mapping):
            add(inner.get("id"), inner.get("name"))
        elif isinstance(inner := obj.get("toolUse"), Mapping):  # Strands / Bedrock block
            add(inner.get("toolUseId"), inner.get("name"))
        else:
            calls = obj.get("tool_calls")  # OpenAI / LangChain message
            if isinstance(calls, list):
                add_all(calls)
            return [v for k, v in obj.items() if k != "tool_calls" and isinstance(v, (list, dict))]
        return []

    for message in _scan(value, _CALL_MARKERS + _FINISH_MARKERS, visit):
        before = seen[0]
        for part in message["parts"]:
            if part.get("type") not in _NOT_CALL_PARTS:
                visit(part)
        calls = message.get("tool_calls")  # beside the parts (LiteLLM's assistant messages)
        if isinstance(calls, list):
            add_all(calls)
        if seen[0] == before and message.get("finish_reason") in TOOL_FINISH_REASONS:
            # The message ended to call tools, whose calls were not recorded (LiteLLM: `parts:
            # []`, `finish_reason: tool_calls`): a call, unnamed.
            found.append(None)
    return found


#: Finish reasons that say the model stopped to call tools (OpenAI chat, its legacy form).
TOOL_FINISH_REASONS = frozenset({"tool_calls", "function_call"})
_FINISH_MARKERS = ('"tool_calls"', '"function_call"')


#: Substrings without which a JSON payload holds no tool result / no tool call (a cheap test
#: before parsing: a role `tool` or `function`, LangChain's ToolMessage, or a result part).
_RESULT_MARKERS = (
    '"tool"',
    '"function"',
    "ToolMessage",
    "tool_call_response",
    "function_response",
    "functionResponse",
    "toolResult",
    "tool_result",
    "function_call_output",
)
_CALL_MARKERS = (
    '"tool_call"',
    '"tool_calls":',
    "function_call",
    "functionCall",
    "toolUse",
    "tool_use",
)
_FUNCTION_RESPONSE_KEYS = ("function_response", "functionResponse")  # google-genai Part
_FUNCTION_CALL_KEYS = ("function_call", "functionCall")


def _is_result_block(block: Any) -> bool:
    return isinstance(block, Mapping) and (
        "toolResult" in block or block.get("type") == "tool_result"
    )


def _first_mapping(obj: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = obj.get(key)
        if value is not None and isinstance(value, Mapping):
            return value
    return None


def _containers(obj: Mapping[str, Any]) -> list[Any]:
    return [item for item in obj.values() if isinstance(item, (list, Mapping))]


def _walk(root: Any, visit: Callable[[Mapping[str, Any]], list[Any]]) -> None:
    """Visit the mappings of a parsed payload depth-first, in order, at most `_MAX_NODES`
    nodes deep to `MAX_DEPTH * 2`; `visit` returns the values to descend into."""
    budget = [_MAX_NODES]
    _descend(root, visit, budget, 0)


def _descend(
    node: Any, visit: Callable[[Mapping[str, Any]], list[Any]], budget: list[int], depth: int
) -> None:
    for child in node if isinstance(node, list) else visit(node):
        if budget[0] <= 0 or depth >= MAX_DEPTH * 2:
            return
        budget[0] -= 1
        if isinstance(child, (list, dict, Mapping)):
            _descend(child, visit, budget, depth + 1)
