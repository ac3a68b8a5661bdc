"""Chat messages in every shape instrumentations serialise them, and their text.

Shapes recognised as messages:

- `{"role": R, "parts": [{"type": "text", "content": T}, ...]}`: OpenTelemetry GenAI conventions
  (official instrumentations, pydantic-ai, OpenLLMetry); google-genai `Content` (`{"text": T}`
  parts, `thought` parts skipped);
- `{"role": R, "content": C}` (C a string or content blocks): OpenAI chat/Responses, OpenAI Agents
  generations, Langfuse;
- `{"role": R, "blocks": [...]}`: LlamaIndex `ChatMessage`;
- `{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {"content": C}}`:
  LangChain `dumpd` (OpenInference LLM spans, OpenLLMetry);
- `{"type": "ai", "data": {"content": C}}`: LangChain `message_to_dict` (OpenInference chain/tool
  spans);
- `{"type": "ai", "content": C, ...}`: LangChain `model_dump` (Langfuse).

Containers of messages: lists, ADK `Event` / `LlmResponse` (`{"content": Content}`), LangChain
`LLMResult` (`{"generations": [[...]]}`), OpenAI chat completions (`{"choices": [...]}`).
Content blocks: `{"type": "text"|"output_text", "text": T}`; several text parts are joined with
a newline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

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

#: Keys of the content blocks a message's content is made of (Strands, Bedrock, Anthropic).
_BLOCK_KEYS = frozenset({"text", "toolUse", "toolResult", "reasoningContent", "image", "document"})
_BLOCK_TYPES = frozenset({"text", "output_text", "tool_use", "tool_result", "thinking", "image"})

#: How deep the payload walkers descend into nested containers.
MAX_DEPTH = 8


class Message(NamedTuple):
    """One chat message: its normalised role and its text (None when it carries none).

    An empty or blank text counts as none: that is what a message holding only tool calls
    carries in most shapes.
    """

    role: str
    text: str | None


def message_of(role: str, text: str | None) -> Message:
    return Message(role, text if text is not None and text.strip() else None)


def role_of(value: Any) -> str | None:
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
        role = role_of(kwargs.get("type")) or (
            role_of(ids[-1]) if isinstance(ids, list) and ids else None
        )
        return message_of(role, content_text(kwargs.get("content"))) if role else None
    data = obj.get("data")
    if isinstance(data, Mapping) and "content" in data:  # LangChain message_to_dict
        role = role_of(obj.get("type")) or role_of(data.get("type"))
        return message_of(role, content_text(data.get("content"))) if role else None
    role = role_of(obj.get("role"))
    if role is not None:
        parts = obj.get("parts")
        if isinstance(parts, list):  # OpenTelemetry GenAI, google-genai Content
            return message_of(role, _parts_text(parts))
        blocks = obj.get("blocks")
        if isinstance(blocks, list):  # LlamaIndex ChatMessage
            return message_of(role, content_text(blocks))
        if "content" in obj or "text" in obj:  # OpenAI, Langfuse
            return message_of(role, content_text(obj.get("content", obj.get("text"))))
        return None
    role = role_of(obj.get("type"))
    if role is not None and "content" in obj:  # LangChain model_dump
        return message_of(role, content_text(obj.get("content")))
    return None


def messages_in(obj: Any, depth: int = 0) -> list[Message] | None:
    """The messages a list or a known container holds, in order; None when it holds none."""
    if depth > MAX_DEPTH:
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
                    inner = message_of(ASSISTANT, gen["text"])
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


def message_content(obj: Mapping[str, Any]) -> Any:
    for holder in (obj.get("kwargs"), obj.get("data"), obj):
        if isinstance(holder, Mapping) and "content" in holder:
            return holder["content"]
    return None


def last_assistant_text(messages: list[Message]) -> str | None:
    assistant = [m for m in messages if m.role == ASSISTANT]
    return assistant[-1].text if assistant else None
