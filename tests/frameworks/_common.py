"""Shared by the framework scenarios: span dumps as JSON.

The scenarios themselves (the one tool, the two answers, offline set-up, the fake models) live
in `otel_grounding.demo_frameworks`, which `otel-grounding demo --framework` runs too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def span_dict(span: Any) -> dict[str, Any]:
    """An exported SDK span as the JSON the captures and the tests read."""
    parent = span.parent.span_id if span.parent is not None else None
    return {
        "name": span.name,
        "trace_id": f"{span.context.trace_id:032x}",
        "span_id": f"{span.context.span_id:016x}",
        "parent_id": None if parent is None else f"{parent:016x}",
        "attributes": {k: _plain(v) for k, v in (span.attributes or {}).items()},
        "events": [
            {"name": e.name, "attributes": {k: _plain(v) for k, v in (e.attributes or {}).items()}}
            for e in span.events
        ],
        "resource": {k: _plain(v) for k, v in span.resource.attributes.items()},
    }


def dumps(spans: Iterable[Any]) -> list[dict[str, Any]]:
    return [span_dict(s) for s in spans]


def to_json(value: Any) -> str:
    return json.dumps(value, indent=1, default=str, ensure_ascii=False)
