"""Declared options: one row per option (its default, its check, a one-line doc), the checks a
raw value goes through, and `ConfigError`, what a check raises.

Pure (no argparse, no os, no OpenTelemetry), so the scorer declares its own options beside it
(`scoring.ScoringSettings`) and the pure core imports alone; config.py's settings table is made
of these rows and derives the environment, the flags and the docs from them.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


class ConfigError(ValueError):
    """Invalid configuration; the message names the key and the value."""


@dataclass(frozen=True)
class Option:
    """One declared option: its default, its check (key, raw value -> checked value, or
    `ConfigError`) and a one-line doc. Key and type: its row's in a `TypedDict` of options."""

    default: Any
    check: Callable[[str, Any], Any]
    doc: str


def declared(table: type) -> dict[str, Option]:
    """{key: option} for a `TypedDict` whose rows are `key: Annotated[type, Option(...)]`."""
    rows: dict[str, Option] = {}
    for key, hint in typing.get_type_hints(table, include_extras=True).items():
        (rows[key],) = (m for m in hint.__metadata__ if isinstance(m, Option))
    return rows


def check_threshold(key: str, value: Any) -> float | None:
    """A grounding threshold in [0, 1], or None when none is set."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{key}: {value!r} is not a number in [0, 1]")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise ConfigError(f"{key}: {value!r} is not a number in [0, 1]")
    return number


def check_int(key: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{key}: {value!r} is not an integer >= {minimum}")
    return value


def check_bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{key}: {value!r} is not true or false")
    return value


def check_str_list(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ConfigError(f"{key}: {value!r} is not a list of strings")
    items = tuple(value)
    for item in items:
        if not isinstance(item, str):
            raise ConfigError(f"{key}: {item!r} is not a string")
    return items


__all__ = [
    "ConfigError",
    "Option",
    "check_bool",
    "check_int",
    "check_str_list",
    "check_threshold",
    "declared",
]
