"""The one walk shared by the answer and tool-result readers: parse JSON text, tell a Python
repr from prose, and fall back to the raw value when no known shape is found in it
(docs/conventions.md, "Payload unwrapping": the generic fallback)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from otel_grounding.conventions.attribute_values import looks_like_json, parse_json
from otel_grounding.conventions.python_repr import python_repr
from otel_grounding.scoring import as_text


class NotRecognised:
    """Sentinel: the payload holds no shape the walk recognises (its raw text then stands)."""


NOT_RECOGNISED = NotRecognised()


def unwrap(
    value: Any, walk: Callable[[Any], str | NotRecognised | None], *, broken_json_is_none: bool
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
    if isinstance(found, NotRecognised):
        return value if isinstance(value, str) else as_text(value)
    if isinstance(found, str) and found is not value:
        is_repr, text = python_repr(found)  # a repr inside a JSON string or a message
        return text if is_repr else found
    return found
