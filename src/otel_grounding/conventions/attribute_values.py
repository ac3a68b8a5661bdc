"""Raw attribute values: JSON text, the redaction marker, string and list fields, and which
content keys a span carries. What every convention reads before any payload shape."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: What OpenInference (and, by convention, others) write in place of hidden content.
REDACTED = "__REDACTED__"


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


def looks_like_json(value: str) -> bool:
    return value.lstrip()[:1] in ("{", "[")


def parsed_payload(value: Any) -> Any:
    """A payload as a parsed list or mapping (JSON text is parsed); None for anything else."""
    if value is None:
        return None
    if isinstance(value, str):
        ok, parsed = parse_json(value)
        return parsed if ok and isinstance(parsed, (list, dict)) else None
    if isinstance(value, tuple):
        return list(value)
    return value if isinstance(value, (list, Mapping)) else None


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
