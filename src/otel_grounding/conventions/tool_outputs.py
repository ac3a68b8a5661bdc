"""A tool step's result text: the content of a tool message when the instrumentation wrapped the
result in one (LangChain's ToolMessage in its three serialised forms, JSON-quoted strings,
`{"output": ...}` envelopes, LlamaIndex `ToolOutput` / `ToolCallResult`, content blocks);
otherwise the raw string (JSON text of a structured result stays JSON, as docs/contract.md
section 1 scores structured values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from otel_grounding.conventions.messages import (
    MAX_DEPTH,
    TOOL_ROLE,
    as_message,
    content_text,
    is_blocks,
    message_content,
)
from otel_grounding.conventions.unwrap import NOT_RECOGNISED, NotRecognised, unwrap
from otel_grounding.scoring import as_text

#: Keys that may sit beside `output`/`outputs` in an instrumentation's own envelope.
_ENVELOPE_EXTRAS = frozenset({"kwargs", "tags", "metadata", "inputs", "input"})


def _tool(obj: Any, depth: int = 0) -> str | NotRecognised | None:
    if depth > MAX_DEPTH:
        return NOT_RECOGNISED
    if isinstance(obj, str):
        return obj
    message = as_message(obj)
    if message is not None and message.role == TOOL_ROLE:
        if message.text is not None:
            return message.text
        content = message_content(obj)
        return None if content is None else as_text(content)
    if is_blocks(obj):  # content blocks (Strands, MCP): their text
        return content_text(obj)
    if isinstance(obj, Mapping):
        for key in ("output", "outputs"):
            if key in obj and set(obj) - {key} <= _ENVELOPE_EXTRAS:
                return _tool(obj[key], depth + 1)
        if is_tool_output(obj) and "raw_output" in obj:  # LlamaIndex ToolOutput
            blocks = obj.get("blocks")
            text = content_text(blocks) if isinstance(blocks, list) else None
            if text is None and isinstance(obj.get("content"), str):
                text = obj["content"]
            return text if text is not None else tool_text(obj.get("raw_output"))
        if is_tool_output(obj):  # LlamaIndex ToolCallResult
            return _tool(obj["tool_output"], depth + 1)
    return NOT_RECOGNISED


def is_tool_output(obj: Any) -> bool:
    """A LlamaIndex `ToolOutput` (`tool_name`, `raw_output`) or `ToolCallResult` (`tool_name`,
    `tool_output`): a tool's result, wherever an instrumentation records it."""
    return (
        isinstance(obj, Mapping)
        and "tool_name" in obj
        and ("raw_output" in obj or isinstance(obj.get("tool_output"), Mapping))
    )


def tool_text(value: Any) -> str | None:
    """A tool step's result text (see the module docstring); None when not captured."""
    return unwrap(value, _tool, broken_json_is_none=False)
