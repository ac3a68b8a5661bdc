"""Unwrapping the JSON payloads agent instrumentations put in their content attributes.

Instrumentations rarely write "the answer" as a plain string: they write the framework's own
objects, serialised. Each shape we have seen in real traces is recognised explicitly here, and
anything else falls back to one documented rule, so that a whole envelope of user and tool
messages is never scored as if it were the answer (docs/conventions.md, "Payload unwrapping").

Two questions, two functions:

- `answer_text(value)`: the final answer in a run's or an LLM step's output: the text parts of
  the **last assistant message** (never tool-call parts, never user, system or tool messages);
  None when the payload is a message structure whose last assistant message carries no text (a
  tool call, or text the instrumentation did not capture). A payload that holds no message
  structure at all is the answer as it stands (the raw string).
- `tool_text(value)`: a tool step's result: the content of a tool message when the
  instrumentation wrapped the result in one (LangChain's ToolMessage in its three serialised
  forms, JSON-quoted strings, `{"output": ...}` envelopes); otherwise the raw string (JSON text of
  a structured result stays JSON, as SPEC section 2 scores structured values).

Shapes recognised as messages:

| shape | written by |
|---|---|
| `{"role": R, "parts": [{"type": "text", "content": T}, ...]}` | OpenTelemetry GenAI conventions (official instrumentations, pydantic-ai, OpenLLMetry) |
| `{"role": R, "content": C}` (C a string or content blocks) | OpenAI chat/Responses, OpenAI Agents generations, Langfuse |
| `{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {"content": C}}` | LangChain `dumpd` (OpenInference LLM spans, OpenLLMetry) |
| `{"type": "ai", "data": {"content": C}}` | LangChain `message_to_dict` (OpenInference chain/tool spans) |
| `{"type": "ai", "content": C, ...}` | LangChain `model_dump` (Langfuse) |

Containers walked: lists of messages, `{"messages": [...]}` (LangGraph state), `[{"update":
{"messages": [...]}}]` (LangGraph commands), `{"outputs": ...}` / `{"output": ...}` (OpenLLMetry
and LangChain AgentExecutor envelopes), `{"generations": [[...]]}` (LangChain LLMResult),
`{"choices": [{"message": ...}]}` (OpenAI chat completion), `{"output": [items]}` (OpenAI
Responses). Content blocks: `{"type": "text"|"output_text", "text": T}`; several text parts are
joined with a newline.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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
_ANSWER_WRAPPERS = ("outputs", "output", "update", "messages", "final_output", "return_values")

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
    """GenAI `parts`: the text parts' content; None when none carries content (not captured)."""
    texts = [
        part["content"]
        for part in parts
        if isinstance(part, Mapping)
        and part.get("type") == "text"
        and isinstance(part.get("content"), str)
    ]
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
        if isinstance(parts, list):  # OpenTelemetry GenAI
            return _message(role, _parts_text(parts))
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


def _answer(obj: Any, depth: int = 0) -> str | None | _NotMessages:
    if depth > _MAX_DEPTH:
        return _NOT
    if isinstance(obj, str):  # a JSON-quoted string, or a string inside an envelope
        return obj
    messages = _messages(obj, depth)
    if messages is not None:
        assistant = [m for m in messages if m.role == ASSISTANT]
        return assistant[-1].text if assistant else None
    if isinstance(obj, Mapping):
        for key in _ANSWER_WRAPPERS:
            if key in obj:
                found = _answer(obj[key], depth + 1)
                if found is not _NOT:
                    return found
    elif isinstance(obj, list) and len(obj) == 1:  # LangGraph: [{"update": {...}, ...}]
        return _answer(obj[0], depth + 1)
    return _NOT


def looks_like_json(value: str) -> bool:
    return value.lstrip()[:1] in ("{", "[")


def answer_text(value: Any, *, structured: bool = False, cut: bool = False) -> str | None:
    """A run's or LLM step's final answer text (see the module docstring); None: not captured.

    `structured`: the attribute always holds JSON (the convention says so), `cut`: the value
    arrived cut at the span's length limit. Either way, JSON that does not parse cannot be
    unwrapped, and is no answer rather than an envelope scored whole.
    """
    return _unwrap(value, _answer, broken_json_is_none=structured or cut)


def _tool(obj: Any, depth: int = 0) -> str | None | _NotMessages:
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
    if isinstance(obj, Mapping):
        for key in ("output", "outputs"):
            if key in obj and set(obj) - {key} <= _ENVELOPE_EXTRAS:
                return _tool(obj[key], depth + 1)
    return _NOT


def _message_content(obj: Mapping[str, Any]) -> Any:
    for holder in (obj.get("kwargs"), obj.get("data"), obj):
        if isinstance(holder, Mapping) and "content" in holder:
            return holder["content"]
    return None


def tool_text(value: Any) -> str | None:
    """A tool step's result text (see the module docstring); None when not captured."""
    return _unwrap(value, _tool, broken_json_is_none=False)


def _unwrap(
    value: Any, walk: Callable[[Any], str | None | _NotMessages], *, broken_json_is_none: bool
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
            return None if broken_json_is_none and looks_like_json(value) else value
    else:
        parsed = value
    found = walk(parsed)
    if isinstance(found, _NotMessages):
        return value if isinstance(value, str) else as_text(value)
    return found


def indexed_messages(attributes: Mapping[str, Any], prefix: str) -> list[Message]:
    """Messages flattened into indexed attributes, in index order.

    OpenInference: `llm.output_messages.{i}.message.role` / `.message.content` /
    `.message.contents.{j}.message_content.text`; legacy GenAI (OpenLLMetry):
    `gen_ai.completion.{i}.role` / `.content`.
    """
    roles: dict[int, str] = {}
    texts: dict[int, dict[int, str]] = {}
    seen: set[int] = set()
    for key, value in attributes.items():
        if not key.startswith(prefix):
            continue
        index_text, _, rest = key[len(prefix) :].partition(".")
        if not index_text.isdigit():
            continue
        index = int(index_text)
        seen.add(index)
        rest = rest.removeprefix("message.")
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


def last_assistant_text(messages: list[Message]) -> str | None:
    assistant = [m for m in messages if m.role == ASSISTANT]
    return assistant[-1].text if assistant else None


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


#: Tool names whose "output" is the agent's answer itself, not evidence (SPEC: sources are the
#: outputs of real tool steps). Compared lowercased.
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
