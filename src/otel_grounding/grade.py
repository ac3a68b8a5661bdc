"""The claim coverage grade: one closed vocabulary saying how much of the output a check covered.

A pure, total function over a small record (docs/contract.md, section 2). It accepts records
written by older versions (missing fields mean "not applicable", except `claims_total`: see
`coverage_grade`), ignores unknown fields and never raises.
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


def _field(meta: Any, name: str) -> Any:
    if isinstance(meta, Mapping):
        return meta.get(name, _MISSING)
    return getattr(meta, name, _MISSING)


def _count(value: Any) -> int | None:
    """A well-formed counter, or None when the value is not a non-negative integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def coverage_grade(meta: Any) -> str:
    """Grade a record (mapping or object with the `GradeMeta` fields); never raises.

    Malformed counters (negative, non-integer, None where a count is due, checked > total)
    grade `partial`: a record we cannot read must never read as `full` or `vacuous`.
    `claims_total` must be present and an int: missing, None or any non-integer grades `partial`
    (a record that does not count the claims is no evidence that there were none); `vacuous` is
    only ever earned by an explicit `claims_total` of 0. Any other missing field is "not
    applicable"; `claims_checked` None means "all of them".
    """
    try:
        return _grade(meta)
    except Exception:  # a hostile mapping: still a grade, never an exception
        return PARTIAL


def _grade(meta: Any) -> str:
    judge = _field(meta, "judge")
    if judge is not _MISSING and judge is not None and judge != JUDGE_OK:
        return JUDGE_DECLINED if judge == JUDGE_DECLINED_OUTCOME else JUDGE_FAILED

    malformed = False
    raw_critical = _field(meta, "critical_uncovered")
    critical = 0 if raw_critical is _MISSING else _count(raw_critical)
    if critical is None:
        malformed = True
    elif critical > 0:
        return CRITICAL_UNCOVERED

    truncated_by = _field(meta, "truncated_by")
    cut = truncated_by is not _MISSING and bool(truncated_by)
    target = _field(meta, "coverage_target_declared")
    if cut and target is not _MISSING and bool(target):
        return COVERAGE_CAPPED

    total = _count(_field(meta, "claims_total"))  # missing (the sentinel) is not a count either
    raw_checked = _field(meta, "claims_checked")
    checked = total if raw_checked is _MISSING or raw_checked is None else _count(raw_checked)
    if total is None or checked is None or checked > total:
        malformed = True
    incomplete = _field(meta, "evidence_incomplete")
    if (
        cut
        or malformed
        or (incomplete is not _MISSING and bool(incomplete))
        or checked < total  # type: ignore[operator]
    ):
        return PARTIAL
    if total == 0:
        return VACUOUS
    return FULL
