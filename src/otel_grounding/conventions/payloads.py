"""Unwrapping the JSON payloads agent instrumentations put in their content attributes.

Instrumentations rarely write "the answer" as a plain string: they write the framework's own
objects, serialised. Each shape we have seen in real traces is recognised explicitly here, and
anything else falls back to one documented rule, so that a whole envelope of user and tool
messages is never scored as if it were the answer (docs/conventions.md, "Payload unwrapping").

Four questions, four functions:

- `answer_text(value)`: the final answer in a run's or an LLM step's output: the text parts of
  the **last assistant message** (never tool-call parts, never user, system or tool messages);
  None when the payload is a message structure whose last assistant message carries no text (a
  tool call, or text the instrumentation did not capture). A payload that holds no message
  structure at all is the answer as it stands (the raw string).
- `tool_text(value)`: a tool step's result: the content of a tool message when the
  instrumentation wrapped the result in one (LangChain's ToolMessage in its three serialised
  forms, JSON-quoted strings, `{"output": ...}` envelopes); otherwise the raw string (JSON text of
  a structured result stays JSON, as docs/contract.md (section 1) scores structured values).
- `tool_results(value)`: the tool results an LLM step received in its input messages (result
  parts and tool-role messages only: nothing else of a prompt), with their call ids.
- `tool_calls(value)`: the call ids of the tool calls an LLM step's output asks for.

A Python repr (`str(obj)` of a framework object) is never prose: `python_repr` gives the text
field of a pydantic-style `field='x' other=None` string, and nothing for a call-like repr.

Shapes recognised as messages:

- `{"role": R, "parts": [{"type": "text", "content": T}, ...]}`: OpenTelemetry GenAI conventions
  (official instrumentations, pydantic-ai, OpenLLMetry);
- `{"role": R, "content": C}` (C a string or content blocks): OpenAI chat/Responses, OpenAI Agents
  generations, Langfuse;
- `{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {"content": C}}`:
  LangChain `dumpd` (OpenInference LLM spans, OpenLLMetry);
- `{"type": "ai", "data": {"content": C}}`: LangChain `message_to_dict` (OpenInference chain/tool
  spans);
- `{"type": "ai", "content": C, ...}`: LangChain `model_dump` (Langfuse).

Containers walked: lists of messages, `{"messages": [...]}` (LangGraph state), `[{"update":
{"messages": [...]}}]` (LangGraph commands), `{"outputs": ...}` / `{"output": ...}` (OpenLLMetry
and LangChain AgentExecutor envelopes), `{"generations": [[...]]}` (LangChain LLMResult),
`{"choices": [{"message": ...}]}` (OpenAI chat completion), `{"output": [items]}` (OpenAI
Responses). Content blocks: `{"type": "text"|"output_text", "text": T}`; several text parts are
joined with a newline.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from otel_grounding.scoring import as_text

#: What OpenInference (and, by convention, others) write in place of hidden content.
REDACTED = "__REDACTED__"

ASSISTANT = "assistant"
TOOL_ROLE = "tool"
USER = "user"
SYSTEM = "system"

_ROLES: dict[str, str] = {
    "assistant": ASSISTANT,
    "ai": ASSISTANT,
    "model": ASSISTANT,
    "aimessage": ASSISTANT,
    "aimessagechunk": ASSISTANT,
    "tool": TOOL_ROLE,
    "function": TOOL_ROLE,
    "toolmessage": TOOL_ROLE,
    "toolmessagechunk": TOOL_ROLE,
    "functionmessage": TOOL_ROLE,
    "user": USER,
    "human": USER,
    "humanmessage": USER,
    "humanmessagechunk": USER,
    "system": SYSTEM,
    "developer": SYSTEM,
    "systemmessage": SYSTEM,
}

#: Content-block types whose text is the message's text (never tool calls or reasoning).
_TEXT_BLOCKS = frozenset({"text", "output_text", "input_text"})

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

#: Keys beside a string `raw` that make a mapping a CrewAI `TaskOutput` / `CrewOutput`.
_CREWAI_OUTPUT_KEYS = frozenset({"output_format", "tasks_output", "json_dict", "pydantic"})

#: Keys of the content blocks a message's content is made of (Strands, Bedrock, Anthropic).
_BLOCK_KEYS = frozenset({"text", "toolUse", "toolResult", "reasoningContent", "image", "document"})
_BLOCK_TYPES = frozenset({"text", "output_text", "tool_use", "tool_result", "thinking", "image"})

#: Keys that may sit beside `output`/`outputs` in an instrumentation's own envelope.
_ENVELOPE_EXTRAS = frozenset({"kwargs", "tags", "metadata", "inputs", "input"})

_MAX_DEPTH = 8


class Message(NamedTuple):
    """One chat message: its normalised role and its text (None when it carries none).

    An empty or blank text counts as none: that is what a message holding only tool calls
    carries in most shapes.
    """

    role: str
    text: str | None


def _message(role: str, text: str | None) -> Message:
    return Message(role, text if text is not None and text.strip() else None)


class _NotMessages:
    """Sentinel: the payload holds no message structure we recognise."""


_NOT = _NotMessages()


def is_redacted(value: Any) -> bool:
    return isinstance(value, str) and value.strip() == REDACTED


def parse_json(value: str) -> tuple[bool, Any]:
    """(True, parsed) when the string is a JSON object, array or string; (False, None) otherwise."""
    stripped = value.lstrip()
    if not stripped or stripped[0] not in '{["':
        return False, None
    try:
        return True, json.loads(stripped)
    except (ValueError, RecursionError):
        return False, None


def _role(value: Any) -> str | None:
    return _ROLES.get(value.lower()) if isinstance(value, str) else None


def content_text(content: Any) -> str | None:
    """The text of a message's content: a string, or the text blocks of a content-block list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for block in content:
            if isinstance(block, str):
                texts.append(block)
            elif isinstance(block, Mapping):
                kind = block.get("type")
                text = block.get("text")
                if text is None and kind == "text":
                    text = block.get("content")
                if isinstance(text, str) and (kind is None or kind in _TEXT_BLOCKS):
                    texts.append(text)
        return "\n".join(texts) if texts else None
    return None


def _parts_text(parts: list[Any]) -> str | None:
    """Message `parts`: the text parts' text; None when none carries any (not captured).

    GenAI parts are `{"type": "text", "content": T}`; google-genai `Part`s (ADK) are
    `{"text": T}` with no type, and a `thought` part is the model's reasoning, not its answer.
    """
    texts = []
    for part in parts:
        if not isinstance(part, Mapping) or part.get("thought") is True:
            continue
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("content"), str):
            texts.append(part["content"])
        elif kind is None and isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n".join(texts) if texts else None


def as_message(obj: Any) -> Message | None:
    """The message a mapping is, in any shape this module knows; None when it is not one."""
    if not isinstance(obj, Mapping):
        return None
    kwargs = obj.get("kwargs")
    if obj.get("lc") == 1 and isinstance(kwargs, Mapping):  # LangChain dumpd
        ids = obj.get("id")
        role = _role(kwargs.get("type")) or (
            _role(ids[-1]) if isinstance(ids, list) and ids else None
        )
        return _message(role, content_text(kwargs.get("content"))) if role else None
    data = obj.get("data")
    if isinstance(data, Mapping) and "content" in data:  # LangChain message_to_dict
        role = _role(obj.get("type")) or _role(data.get("type"))
        return _message(role, content_text(data.get("content"))) if role else None
    role = _role(obj.get("role"))
    if role is not None:
        parts = obj.get("parts")
        if isinstance(parts, list):  # OpenTelemetry GenAI, google-genai Content
            return _message(role, _parts_text(parts))
        blocks = obj.get("blocks")
        if isinstance(blocks, list):  # LlamaIndex ChatMessage
            return _message(role, content_text(blocks))
        if "content" in obj or "text" in obj:  # OpenAI, Langfuse
            return _message(role, content_text(obj.get("content", obj.get("text"))))
        return None
    role = _role(obj.get("type"))
    if role is not None and "content" in obj:  # LangChain model_dump
        return _message(role, content_text(obj.get("content")))
    return None


def _messages(obj: Any, depth: int = 0) -> list[Message] | None:
    """The messages a list or a known container holds, in order; None when it holds none."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(obj, list):
        found = [m for m in map(as_message, obj) if m is not None]
        return found or None
    if not isinstance(obj, Mapping):
        return None
    message = as_message(obj)
    if message is not None:
        return [message]
    inner = obj.get("content")  # ADK Event / LlmResponse: {"content": Content, "author": ...}
    if isinstance(inner, Mapping):
        message = as_message(inner)
        if message is not None:
            return [message]
    generations = obj.get("generations")  # LangChain LLMResult: [[generation, ...], ...]
    if isinstance(generations, list):
        found = []
        for batch in generations:
            for gen in batch if isinstance(batch, list) else [batch]:
                if not isinstance(gen, Mapping):
                    continue
                inner = as_message(gen.get("message"))
                if inner is None and isinstance(gen.get("text"), str):
                    inner = _message(ASSISTANT, gen["text"])
                if inner is not None:
                    found.append(inner)
        return found or None
    choices = obj.get("choices")  # OpenAI chat completion
    if isinstance(choices, list):
        found = [
            m
            for m in (as_message(c.get("message")) for c in choices if isinstance(c, Mapping))
            if m is not None
        ]
        return found or None
    return None


def _answer(obj: Any, depth: int = 0) -> str | _NotMessages | None:
    if depth > _MAX_DEPTH:
        return _NOT
    if isinstance(obj, str):  # a JSON-quoted string, or a string inside an envelope
        return obj
    messages = _messages(obj, depth)
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
        for key in _ANSWER_WRAPPERS:
            if key in obj:
                found = _answer(obj[key], depth + 1)
                if found is not _NOT:
                    return found
    elif isinstance(obj, list) and len(obj) == 1:  # LangGraph: [{"update": {...}, ...}]
        return _answer(obj[0], depth + 1)
    return _NOT


def is_blocks(obj: Any) -> bool:
    """True for a list of content blocks (`[{"text": T}, {"toolUse": ...}]`), not messages."""
    if not isinstance(obj, list) or not obj:
        return False
    for block in obj:
        if not isinstance(block, Mapping) or "role" in block:
            return False
        if _BLOCK_KEYS.isdisjoint(block) and block.get("type") not in _BLOCK_TYPES:
            return False
    return True


def looks_like_json(value: str) -> bool:
    return value.lstrip()[:1] in ("{", "[")


def answer_text(value: Any, *, structured: bool = False, cut: bool = False) -> str | None:
    """A run's or LLM step's final answer text (see the module docstring); None: not captured.

    `structured`: the attribute always holds JSON (the convention says so), `cut`: the value
    arrived cut at the span's length limit. Either way, JSON that does not parse cannot be
    unwrapped, and is no answer rather than an envelope scored whole.
    """
    return _unwrap(value, _answer, broken_json_is_none=structured or cut)


def message_answer(value: Any) -> str | None:
    """The assistant's text when the value is a JSON object or list holding a recognised message
    structure (never the raw value: a payload with no assistant message gives None)."""
    parsed = _parsed(value)
    if parsed is None:
        return None
    found = _answer(parsed)
    return found if isinstance(found, str) and found.strip() else None


def _tool(obj: Any, depth: int = 0) -> str | _NotMessages | None:
    if depth > _MAX_DEPTH:
        return _NOT
    if isinstance(obj, str):
        return obj
    message = as_message(obj)
    if message is not None and message.role == TOOL_ROLE:
        if message.text is not None:
            return message.text
        content = _message_content(obj)
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
    return _NOT


def is_tool_output(obj: Any) -> bool:
    """A LlamaIndex `ToolOutput` (`tool_name`, `raw_output`) or `ToolCallResult` (`tool_name`,
    `tool_output`): a tool's result, wherever an instrumentation records it."""
    return (
        isinstance(obj, Mapping)
        and "tool_name" in obj
        and ("raw_output" in obj or isinstance(obj.get("tool_output"), Mapping))
    )


def _message_content(obj: Mapping[str, Any]) -> Any:
    for holder in (obj.get("kwargs"), obj.get("data"), obj):
        if isinstance(holder, Mapping) and "content" in holder:
            return holder["content"]
    return None


def tool_text(value: Any) -> str | None:
    """A tool step's result text (see the module docstring); None when not captured."""
    return _unwrap(value, _tool, broken_json_is_none=False)


def _unwrap(
    value: Any, walk: Callable[[Any], str | _NotMessages | None], *, broken_json_is_none: bool
) -> str | None:
    """`walk` over the value (parsed when it is a JSON string); what `walk` does not recognise
    is its own text. `broken_json_is_none`: JSON that does not parse is no text at all."""
    if value is None:
        return None
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, str):
        ok, parsed = parse_json(value)
        if not ok:
            is_repr, text = python_repr(value)
            if is_repr:
                return text
            return None if broken_json_is_none and looks_like_json(value) else value
    else:
        parsed = value
    found = walk(parsed)
    if isinstance(found, _NotMessages):
        return value if isinstance(value, str) else as_text(value)
    if isinstance(found, str) and found is not value:
        is_repr, text = python_repr(found)  # a repr inside a JSON string or a message
        return text if is_repr else found
    return found


_REPR_CALL = re.compile(r"[A-Za-z_][\w.]*\((?:\)|[A-Za-z_]\w*=)")
_REPR_FIELD = re.compile(r"([A-Za-z_]\w*)=")
#: Fields of a Python repr whose string value is the object's text, in order of preference.
_REPR_TEXT_FIELDS = ("result", "content", "text", "output", "response")


def python_repr(value: str) -> tuple[bool, str | None]:
    """(True, text) when the string is a Python object's repr rather than prose.

    Some instrumentations write `str(obj)`: a pydantic model's `field='x' other=None` (Agno's
    tool results: `status='success' result='...' error=None`) gives its text field; a call-like
    repr (`AgentOutput(response=ChatMessage(...), ...)`) gives no text: it is never prose.
    """
    stripped = value.strip()
    if _REPR_CALL.match(stripped):  # often cut short by the instrumentation ("...")
        return True, None
    fields = _repr_fields(stripped)
    if fields is None:
        return False, None
    for key in _REPR_TEXT_FIELDS:
        if isinstance(fields.get(key), str):
            return True, fields[key]
    return True, None


def _repr_fields(text: str) -> dict[str, Any] | None:
    """The top-level `name=value` fields of a pydantic-style str (string values decoded);
    None unless the whole text is at least two such fields."""
    fields: dict[str, Any] = {}
    pos, end = 0, len(text)
    while pos < end:
        match = _REPR_FIELD.match(text, pos)
        if match is None:
            return None
        pos = match.end()
        if pos < end and text[pos] in "'\"":
            close = _string_end(text, pos)
            if close < 0:
                return None
            try:
                fields[match.group(1)] = ast.literal_eval(text[pos:close])
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return None
            pos = close
        else:
            pos = _value_end(text, pos)
            fields[match.group(1)] = None
        if pos < end and not text[pos].isspace():
            return None
        while pos < end and text[pos].isspace():
            pos += 1
    return fields if len(fields) >= 2 else None


def _string_end(text: str, start: int) -> int:
    """The index just past the Python string literal opening at `start`; -1 when unclosed."""
    quote, pos = text[start], start + 1
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if char == quote:
            return pos + 1
        pos += 1
    return -1


def _value_end(text: str, start: int) -> int:
    """The index where a non-string field value ends: top-level whitespace or the end."""
    depth, pos = 0, start
    while pos < len(text):
        char = text[pos]
        if char in "'\"":
            close = _string_end(text, pos)
            if close < 0:
                return len(text)
            pos = close
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char.isspace() and depth <= 0:
            return pos
        pos += 1
    return pos


def _indexed(attributes: Mapping[str, Any], prefix: str) -> Iterator[tuple[int, str, Any]]:
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
    for index, rest, value in _indexed(attributes, prefix):
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
        messages.append(_message(_role(roles.get(index)) or ASSISTANT, text))
    return messages


class ToolResult(NamedTuple):
    """A tool's result as an LLM step received it in its input: the call it answers (None when
    the message names none) and its text (None when the content was not captured)."""

    call_id: str | None
    text: str | None


#: How many nodes of a payload the tool-traffic walkers visit at most (keeps them linear).
_MAX_NODES = 10_000


def _call_id(value: Any) -> str | None:
    return value if isinstance(value, str) and value and value != "<not specified>" else None


def _result_text(value: Any) -> str | None:
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
        if kind == "tool_call_response":  # GenAI part
            found.append(ToolResult(_call_id(obj.get("id")), _result_text(obj.get("response"))))
        elif kind == "tool_result":  # Anthropic block
            found.append(
                ToolResult(_call_id(obj.get("tool_use_id")), _result_text(obj.get("content")))
            )
        elif kind == "function_call_output":  # OpenAI Responses item
            found.append(ToolResult(_call_id(obj.get("call_id")), _result_text(obj.get("output"))))
        elif isinstance(inner := _first_mapping(obj, _FUNCTION_RESPONSE_KEYS), Mapping):
            found.append(ToolResult(_call_id(inner.get("id")), _result_text(inner.get("response"))))
        elif isinstance(inner := obj.get("toolResult"), Mapping):  # Strands / Bedrock block
            found.append(
                ToolResult(_call_id(inner.get("toolUseId")), _result_text(inner.get("content")))
            )
        elif (message := as_message(obj)) is not None:
            parts, content = obj.get("parts"), _message_content(obj)
            if message.role != TOOL_ROLE:
                # Another role's message is never evidence itself: only the result parts some
                # frameworks put in it (google-genai sends function responses as role `user`).
                return [inner for inner in (parts, content) if isinstance(inner, list)]
            if isinstance(parts, list):
                return parts
            if isinstance(content, list) and any(map(_is_result_block, content)):
                return content
            holder = obj.get("kwargs") or obj.get("data") or obj
            call = _call_id(holder.get("tool_call_id")) if isinstance(holder, Mapping) else None
            text = message.text if message.text is not None else _result_text(content)
            found.append(ToolResult(call, text))
        else:
            return _containers(obj)
        return []

    _scan(value, _RESULT_MARKERS, _NOT_RESULT_PARTS, visit)
    return found


def _scan(
    value: Any,
    markers: tuple[str, ...],
    skip: frozenset[str],
    visit: Callable[[Mapping[str, Any]], list[Any]],
) -> None:
    """Walk a payload with `visit`: JSON text holding none of `markers` is not even parsed
    (most LLM inputs carry no tool result), and the common GenAI shape is read part by part
    (parts of a type in `skip` are passed over)."""
    if value is None:
        return
    if isinstance(value, str) and not any(marker in value for marker in markers):
        return
    root = _parsed(value)
    parts = _genai_parts(root)
    if parts is not None:
        for part in parts:
            if part.get("type") not in skip:
                visit(part)
    elif root is not None:
        _walk(root, visit)


_NOT_RESULT_PARTS = frozenset({"text", "tool_call", "reasoning", "blob", "uri", "file"})
_NOT_CALL_PARTS = frozenset({"text", "tool_call_response", "reasoning", "blob", "uri", "file"})


def _genai_parts(root: Any) -> list[dict[str, Any]] | None:
    """The parts of a GenAI messages list (`[{"role": R, "parts": [...]}, ...]`), in order;
    None when the payload has another shape."""
    if type(root) is not list:
        return None
    parts: list[dict[str, Any]] = []
    for message in root:
        if type(message) is not dict or type(message.get("parts")) is not list:
            return None
        for part in message["parts"]:
            if type(part) is not dict:
                return None
            parts.append(part)
    return parts


def tool_calls(value: Any) -> list[str | None]:
    """The tool calls an LLM step's output asks for (their call ids, None when unnamed): GenAI
    `tool_call` parts, google-genai `function_call` parts, OpenAI `tool_calls`, LangChain
    `tool_calls`, `toolUse` / `tool_use` blocks, Responses `function_call` items."""
    found: list[str | None] = []

    def visit(obj: Mapping[str, Any]) -> list[Any]:
        kind = obj.get("type")
        if kind == "tool_call" or kind == "tool_use":  # GenAI part, Anthropic block
            found.append(_call_id(obj.get("id")))
        elif kind == "function_call":  # OpenAI Responses item
            found.append(_call_id(obj.get("call_id") or obj.get("id")))
        elif isinstance(inner := _first_mapping(obj, _FUNCTION_CALL_KEYS), Mapping):
            found.append(_call_id(inner.get("id")))
        elif isinstance(inner := obj.get("toolUse"), Mapping):  # Strands / Bedrock block
            found.append(_call_id(inner.get("toolUseId")))
        else:
            calls = obj.get("tool_calls")  # OpenAI / LangChain message
            if isinstance(calls, list):
                found.extend(
                    _call_id(c.get("id")) if isinstance(c, Mapping) else None for c in calls
                )
            return [v for k, v in obj.items() if k != "tool_calls" and isinstance(v, (list, dict))]
        return []

    _scan(value, _CALL_MARKERS, _NOT_CALL_PARTS, visit)
    return found


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


def _parsed(value: Any) -> Any:
    """A payload as a parsed list or mapping (JSON text is parsed); None for anything else."""
    if value is None:
        return None
    if isinstance(value, str):
        ok, parsed = parse_json(value)
        return parsed if ok and isinstance(parsed, (list, dict)) else None
    if isinstance(value, tuple):
        return list(value)
    return value if isinstance(value, (list, Mapping)) else None


def _containers(obj: Mapping[str, Any]) -> list[Any]:
    return [item for item in obj.values() if isinstance(item, (list, Mapping))]


def _walk(root: Any, visit: Callable[[Mapping[str, Any]], list[Any]]) -> None:
    """Visit the mappings of a parsed payload depth-first, in order, at most `_MAX_NODES`
    nodes deep to `_MAX_DEPTH * 2`; `visit` returns the values to descend into."""
    budget = [_MAX_NODES]
    _descend(root, visit, budget, 0)


def _descend(
    node: Any, visit: Callable[[Mapping[str, Any]], list[Any]], budget: list[int], depth: int
) -> None:
    for child in node if isinstance(node, list) else visit(node):
        if budget[0] <= 0 or depth >= _MAX_DEPTH * 2:
            return
        budget[0] -= 1
        if isinstance(child, (list, dict, Mapping)):
            _descend(child, visit, budget, depth + 1)


def indexed_tool_traffic(
    attributes: Mapping[str, Any], prefix: str
) -> tuple[list[ToolResult], list[str | None]]:
    """Tool results and tool calls in messages flattened into indexed attributes.

    Results: messages whose role is `tool` (OpenInference `llm.input_messages.{i}.message.role`
    with `.message.content` and `.message.tool_call_id`; legacy GenAI `gen_ai.prompt.{i}.role`
    with `.content` and `.tool_call_id`). Calls: `{i}.message.tool_calls.{j}.tool_call.id`
    (OpenInference) and `{i}.tool_calls.{j}.id` / `.name` (legacy GenAI).
    """
    roles: dict[int, Any] = {}
    contents: dict[int, Any] = {}
    call_ids: dict[int, Any] = {}
    calls: dict[tuple[int, int], str | None] = {}
    functions: list[tuple[int, int, Mapping[str, Any]]] = []
    for index, rest, value in _indexed(attributes, prefix):
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
                    calls[slot] = _call_id(value)
    by_index: dict[int, list[ToolResult]] = {}
    for index, _, result in sorted(functions, key=lambda f: f[:2]):
        call = _call_id(result.get("call_id")) or _call_id(result.get("tool_call_id"))
        by_index.setdefault(index, []).append(ToolResult(call, _result_text(result.get("content"))))
    results: list[ToolResult] = []
    for index in sorted(roles):
        if _role(roles[index]) != TOOL_ROLE:
            continue
        if index in by_index and index not in contents:
            results += by_index[index]
        else:
            results.append(
                ToolResult(_call_id(call_ids.get(index)), _result_text(contents.get(index)))
            )
    return results, [calls[slot] for slot in sorted(calls)]


def last_assistant_text(messages: list[Message]) -> str | None:
    assistant = [m for m in messages if m.role == ASSISTANT]
    return assistant[-1].text if assistant else None


#: Framework counters of a run's tool calls, in its output state: a count, or counts by tool
#: (LangChain's `ToolCallLimitMiddleware` keeps `run_tool_call_count` in the agent state).
TOOL_CALL_COUNTERS = ("tool_call_counts", "run_tool_call_count", "tool_call_count")


def tool_call_count(value: Any) -> int | None:
    """How many tool calls a run's output state says were made; None when it says nothing."""
    if isinstance(value, str) and "tool_call_count" not in value:
        return None
    parsed = _parsed(value)
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


def str_field(obj: Any, key: str) -> str | None:
    """A non-empty string field of a mapping; None otherwise."""
    value = obj.get(key) if isinstance(obj, Mapping) else None
    return value if isinstance(value, str) and value else None


def non_empty(value: Any) -> bool:
    """True for a non-empty list, or a string that is not an empty JSON list / object."""
    if isinstance(value, (list, tuple)):
        return bool(value)
    if not isinstance(value, str) or not value.strip():
        return False
    ok, parsed = parse_json(value)
    return bool(parsed) if ok else True


def decoded_str(value: Any) -> str | None:
    """A string attribute that may be JSON-encoded (Langfuse metadata): the plain string."""
    if not isinstance(value, str) or not value:
        return None
    if value[0] == '"':
        try:
            decoded = json.loads(value)
        except ValueError:
            return value
        return decoded if isinstance(decoded, str) and decoded else None
    return value


def present(attributes: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, ...]:
    """The keys of `keys` that the span carries."""
    return tuple(key for key in keys if key in attributes)


def present_prefixed(attributes: Mapping[str, Any], prefixes: tuple[str, ...]) -> tuple[str, ...]:
    """The span's attribute keys that start with one of the prefixes."""
    return tuple(key for key in attributes if key.startswith(prefixes))


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
