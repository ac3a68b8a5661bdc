"""A Python repr (`str(obj)` of a framework object) is never prose.

`python_repr` tells one from prose: a pydantic-style `field='x' other=None` string gives its text
field (Agno's tool results under OpenLLMetry), a call-like repr (`AgentOutput(response=...`,
LlamaIndex) gives no text at all.
"""

from __future__ import annotations

import ast
import re
from typing import Any

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
