"""The payload readers every adapter uses, under one name (docs/conventions.md, "Payload
unwrapping").

Instrumentations rarely write "the answer" as a plain string: they write the framework's own
objects, serialised. Each shape seen in real traces is recognised explicitly, one concept per
module, and anything else falls back to one documented rule, so that a whole envelope of user
and tool messages is never scored as if it were the answer:

- `attribute_values`: JSON text, the redaction marker, string and list fields, content keys;
- `messages`: chat messages in every serialised shape, and their text;
- `answers`: `answer_text` / `message_answer`, the last assistant message's text;
- `tool_outputs`: `tool_text`, a tool step's result;
- `tool_traffic`: `tool_results` / `tool_calls`, what an LLM step received and asked for;
- `flattened`: the same, from messages flattened into indexed attributes;
- `python_repr`: a Python repr is never prose;
- `tool_counters`: a framework's own count of a run's tool calls;
- `pseudo_tools`: answer pseudo-tools and handoffs, never evidence.

This module re-exports their public names, so the adapters read `payloads.answer_text(...)`.
"""

from __future__ import annotations

from otel_grounding.conventions.answers import answer_text, message_answer
from otel_grounding.conventions.attribute_values import (
    REDACTED,
    decoded_str,
    is_redacted,
    looks_like_json,
    non_empty,
    parse_json,
    present,
    present_prefixed,
    str_field,
)
from otel_grounding.conventions.flattened import indexed_messages, indexed_tool_traffic
from otel_grounding.conventions.messages import (
    ASSISTANT,
    SYSTEM,
    TOOL_ROLE,
    USER,
    Message,
    as_message,
    content_text,
    is_blocks,
    last_assistant_text,
)
from otel_grounding.conventions.pseudo_tools import ANSWER_TOOLS, HANDOFF_PREFIXES, tool_kind
from otel_grounding.conventions.python_repr import python_repr
from otel_grounding.conventions.tool_counters import TOOL_CALL_COUNTERS, tool_call_count
from otel_grounding.conventions.tool_outputs import is_tool_output, tool_text
from otel_grounding.conventions.tool_traffic import (
    TOOL_FINISH_REASONS,
    ToolResult,
    tool_calls,
    tool_results,
)

__all__ = [
    "ANSWER_TOOLS",
    "ASSISTANT",
    "HANDOFF_PREFIXES",
    "REDACTED",
    "SYSTEM",
    "TOOL_CALL_COUNTERS",
    "TOOL_FINISH_REASONS",
    "TOOL_ROLE",
    "USER",
    "Message",
    "ToolResult",
    "answer_text",
    "as_message",
    "content_text",
    "decoded_str",
    "indexed_messages",
    "indexed_tool_traffic",
    "is_blocks",
    "is_redacted",
    "is_tool_output",
    "last_assistant_text",
    "looks_like_json",
    "message_answer",
    "non_empty",
    "parse_json",
    "present",
    "present_prefixed",
    "python_repr",
    "str_field",
    "tool_call_count",
    "tool_calls",
    "tool_kind",
    "tool_results",
    "tool_text",
]
