"""Messages flattened into indexed attributes (`prefix{i}.role`, `prefix{i}.content`, ...):
OpenInference's `llm.input_messages.*` / `llm.output_messages.*` and the legacy GenAI
`gen_ai.prompt.*` / `gen_ai.completion.*` that OpenLLMetry writes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from otel_grounding.conventions.attribute_values import parse_json
from otel_grounding.conventions.messages import (
    ASSISTANT,
    TOOL_ROLE,
    Message,
    message_of,
    role_of,
)
from otel_grounding.conventions.tool_traffic import ToolResult, call_id_of, result_text


def indexed_keys(attributes: Mapping[str, Any], prefix: str) -> Iterator[tuple[int, str, Any]]:
    """(message index, the key's rest without `message.`, value) of the keys `prefix{i}.rest`."""
    for key, value in attributes.items():
        if not key.startswith(prefix):
            continue
        index_text, _, rest = key[len(prefix) :].partition(".")
        if index_text.isdigit():
            yield int(index_text), rest.removeprefix("message."), value


def indexed_messages(attributes: Mapping[str, Any], prefix: str) -> list[Message]:
    """Messages flattened into indexed attributes, in index order.

    OpenInference: `llm.output_messages.{i}.message.role` / `.message.content` /
    `.message.contents.{j}.message_content.text`; legacy GenAI (OpenLLMetry):
    `gen_ai.completion.{i}.role` / `.content`.
    """
    roles: dict[int, str] = {}
    texts: dict[int, dict[int, str]] = {}
    seen: set[int] = set()
    for index, rest, value in indexed_keys(attributes, prefix):
        seen.add(index)
        if rest == "role" and isinstance(value, str):
            roles[index] = value
        elif rest == "content" and isinstance(value, str):
            texts.setdefault(index, {})[-1] = value
        elif rest.startswith("contents.") and rest.endswith(".message_content.text"):
            sub = rest[len("contents.") : -len(".message_content.text")]
            if sub.isdigit() and isinstance(value, str):
                texts.setdefault(index, {})[int(sub)] = value
    messages = []
    for index in sorted(seen):
        parts = texts.get(index)
        text = "\n".join(parts[k] for k in sorted(parts)) if parts else None
        messages.append(message_of(role_of(roles.get(index)) or ASSISTANT, text))
    return messages


def indexed_tool_traffic(
    attributes: Mapping[str, Any], prefix: str
) -> tuple[list[ToolResult], list[str | None]]:
    """Tool results and tool calls in messages flattened into indexed attributes.

    Results: messages whose role is `tool` (OpenInference `llm.input_messages.{i}.message.role`
    with `.message.content` and `.message.tool_call_id`; legacy GenAI `gen_ai.prompt.{i}.role`
    with `.content` and `.tool_call_id`). Calls: `{i}.message.tool_calls.{j}.tool_call.id`
    (OpenInference), `{i}.tool_calls.{j}.id` / `.name` (legacy GenAI) and the legacy single
    `{i}.function_call.name` / `.arguments` (LiteLLM; no call id).
    """
    roles: dict[int, Any] = {}
    contents: dict[int, Any] = {}
    call_ids: dict[int, Any] = {}
    calls: dict[tuple[int, int], str | None] = {}
    functions: list[tuple[int, int, Mapping[str, Any]]] = []
    for index, rest, value in indexed_keys(attributes, prefix):
        if rest == "role":
            roles[index] = value
        elif rest == "content":
            contents[index] = value
        elif rest == "tool_call_id":
            call_ids[index] = value
        elif rest.startswith("function.") and rest[len("function.") :].isdigit():
            # AutoGen under OpenInference: a function message's results, one JSON per result
            ok, parsed = parse_json(value) if isinstance(value, str) else (False, None)
            if ok and isinstance(parsed, Mapping):
                functions.append(
                    (index, int(rest[len("function.") :]), parsed)
                )
        elif rest.startswith("tool_calls."):
            sub, _, field = rest[len("tool_calls.") :].partition(".")
            if sub.isdigit():
                slot = (index, int(sub))
                calls.setdefault(slot, None)
                if field in ("tool_call.id", "id"):
                    calls[slot] = call_id_of(value)
        elif rest in ("function_call.name", "function_call.arguments"):
            # The legacy single function call (LiteLLM: `gen_ai.completion.{i}.function_call.*`):
            # a call with no id, one per message.
            calls.setdefault((index, -1), None)
    by_index: dict[int, list[ToolResult]] = {}
    for index, _, result in sorted(functions, key=lambda f: f[:2]):
        call = call_id_of(result.get("call_id")) or call_id_of(result.get("tool_call_id"))
        by_index.setdefault(index, []).append(ToolResult(call, result_text(result.get("content"))))
    results: list[ToolResult] = []
    for index in sorted(roles):
        if role_of(roles[index]) != TOOL_ROLE:
            continue
        if index in by_index and index not in contents:
            results += by_index[index]
        else:
            results.append(
                ToolResult(call_id_of(call_ids.get(index)), result_text(contents.get(index)))
            )
    return results, [calls[slot] for slot in sorted(calls)]
