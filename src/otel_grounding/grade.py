"""The claim coverage grade: one closed vocabulary saying how much of the output a check covered.

A pure, total function over a small record (docs/contract.md, section 2). It accepts records
written by older versions (missing fields mean "not applicable", except `claims_total`: see
`coverage_grade`), ignores unknown fields, and reads every value by its type alone, so no value
can make it raise. It catches nothing: an exception from the record's own accessor (a mapping's
`get`, an object's attribute) is the caller's bug and goes to the caller's error policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FULL = "full"
VACUOUS = "vacuous"
PARTIAL = "partial"
COVERAGE_CAPPED = "coverage-capped"
CRITICAL_UNCOVERED = "critical-uncovered"
JUDGE_DECLINED = "judge-declined"
JUDGE_FAILED = "judge-failed"

#: The seven grades in precedence order, strongest last.
GRADES: tuple[str, ...] = (
    FULL,
    VACUOUS,
    PARTIAL,
    COVERAGE_CAPPED,
    CRITICAL_UNCOVERED,
    JUDGE_DECLINED,
    JUDGE_FAILED,
)

JUDGE_OK = "ok"
JUDGE_DECLINED_OUTCOME = "declined"
JUDGE_FAILED_OUTCOME = "failed"


@dataclass(frozen=True)
class GradeMeta:
    """The record the grade is computed from; every field but `claims_total` defaults to "not
    applicable".

    `claims_total` defaults to None, "unknown": a record that does not say how many claims the
    output held grades `partial`, never `vacuous`.
    """

    claims_total: int | None = None
    claims_checked: int | None = None
    truncated_by: str | None = None
    evidence_incomplete: bool = False
    coverage_target_declared: bool = False
    critical_uncovered: int = 0
    judge: str | None = None


_MISSING = object()

#: The types whose truth value is built in: reading it runs no code of the record's.
_PLAIN = (type(None), bool, int, float, str, bytes, list, tuple, dict)


def _field(meta: Any, name: str) -> Any:
    """The field's value, or `_MISSING` when the record has none."""
    if type(meta) is GradeMeta:  # the scorer's own record, every field set (no ABC check)
        return getattr(meta, name)
    if isinstance(meta, Mapping):
        return meta.get(name, _MISSING)
    return getattr(meta, name, _MISSING)


def _count(value: Any) -> int | None:
    """A well-formed counter, or None when the value is not a non-negative integer."""
    kind = type(value)  # not isinstance: type() cannot be faked by the value
    if not issubclass(kind, int) or issubclass(kind, bool):
        return None
    number = int.__int__(value)  # the integer itself, whatever a subclass overrides
    return number if number >= 0 else None


def _flag(value: Any, unreadable: bool) -> bool:
    """A yes/no field: missing is no, a plain value its truth value, anything else
    `unreadable` (set for the flags that say something is missing: never `full` by mistake)."""
    if value is _MISSING:
        return False
    return bool(value) if type(value) in _PLAIN else unreadable


def _judge_outcome(value: Any) -> str:
    """`ok`, `declined` or `failed`: missing or None is ok (no judge), a string its own
    outcome read as a plain string, any other value a failure."""
    if value is _MISSING or value is None:
        return JUDGE_OK
    if issubclass(type(value), str):
        text = str.__str__(value)  # the string itself, whatever a subclass overrides
        return text if text in (JUDGE_OK, JUDGE_DECLINED_OUTCOME) else JUDGE_FAILED_OUTCOME
    return JUDGE_FAILED_OUTCOME


def coverage_grade(meta: Any) -> str:
    """Grade a record (mapping or object with the `GradeMeta` fields).

    Malformed counters (negative, non-integer, None where a count is due, checked > total)
    grade `partial`: a record we cannot read must never read as `full` or `vacuous`.
    `claims_total` must be present and an int: missing, None or any non-integer grades `partial`
    (a record that does not count the claims is no evidence that there were none); `vacuous` is
    only ever earned by an explicit `claims_total` of 0. Any other missing field is "not
    applicable"; `claims_checked` None means "all of them". Values are read by type: a value of
    no built-in type in `truncated_by` or `evidence_incomplete` counts as set.
    """
    judge = _judge_outcome(_field(meta, "judge"))
    if judge != JUDGE_OK:
        return JUDGE_DECLINED if judge == JUDGE_DECLINED_OUTCOME else JUDGE_FAILED

    raw_critical = _field(meta, "critical_uncovered")
    critical = 0 if raw_critical is _MISSING else _count(raw_critical)
    if critical is not None and critical > 0:
        return CRITICAL_UNCOVERED

    cut = _flag(_field(meta, "truncated_by"), unreadable=True)
    if cut and _flag(_field(meta, "coverage_target_declared"), unreadable=False):
        return COVERAGE_CAPPED

    total = _count(_field(meta, "claims_total"))  # missing (the sentinel) is not a count either
    raw_checked = _field(meta, "claims_checked")
    checked = total if raw_checked is _MISSING or raw_checked is None else _count(raw_checked)
    incomplete = _flag(_field(meta, "evidence_incomplete"), unreadable=True)
    if (
        total is None
        or checked is None
        or critical is None
        or checked != total  # above: malformed; below: a bound cut the claims
        or cut
        or incomplete
    ):
        return PARTIAL
    if total == 0:
        return VACUOUS
    return FULL
