"""The claim coverage grade (docs/contract.md §2): seven values, precedence, old records, no value
makes it raise."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from otel_grounding.grade import (
    COVERAGE_CAPPED,
    CRITICAL_UNCOVERED,
    FULL,
    GRADES,
    JUDGE_DECLINED,
    JUDGE_FAILED,
    PARTIAL,
    VACUOUS,
    GradeMeta,
    coverage_grade,
)

FIELDS = (
    "claims_total",
    "claims_checked",
    "truncated_by",
    "evidence_incomplete",
    "coverage_target_declared",
    "critical_uncovered",
    "judge",
)


def test_the_vocabulary_in_precedence_order() -> None:
    assert GRADES == (
        "full",
        "vacuous",
        "partial",
        "coverage-capped",
        "critical-uncovered",
        "judge-declined",
        "judge-failed",
    )
    assert (FULL, VACUOUS, PARTIAL, COVERAGE_CAPPED, CRITICAL_UNCOVERED, JUDGE_DECLINED, JUDGE_FAILED) == GRADES


# One record per grade, each the minimal record that earns it.
EACH_GRADE = {
    FULL: {"claims_total": 3, "claims_checked": 3},
    VACUOUS: {"claims_total": 0},
    PARTIAL: {"claims_total": 3, "claims_checked": 2},
    COVERAGE_CAPPED: {"claims_total": 3, "claims_checked": 2, "truncated_by": "max_claims", "coverage_target_declared": True},
    CRITICAL_UNCOVERED: {"claims_total": 3, "critical_uncovered": 1},
    JUDGE_DECLINED: {"claims_total": 3, "judge": "declined"},
    JUDGE_FAILED: {"claims_total": 3, "judge": "failed"},
}


@pytest.mark.parametrize("grade", GRADES)
def test_each_grade(grade: str) -> None:
    record = EACH_GRADE[grade]
    assert coverage_grade(record) == grade
    assert coverage_grade(GradeMeta(**record)) == grade


@pytest.mark.parametrize(
    ("record", "grade"),
    [
        ({"claims_total": 5}, FULL),  # claims_checked absent: all of them
        ({"claims_total": 5, "claims_checked": None}, FULL),
        ({"claims_total": 5, "judge": "ok"}, FULL),
        ({"claims_total": 5, "judge": None}, FULL),
        ({"claims_total": 5, "truncated_by": None}, FULL),
        ({"claims_total": 5, "truncated_by": ""}, FULL),
        ({"claims_total": 5, "coverage_target_declared": True}, FULL),  # target met: nothing cut
        ({"claims_total": 5, "critical_uncovered": 0}, FULL),
        ({"claims_total": 0, "claims_checked": 0}, VACUOUS),
        ({"claims_total": 3, "truncated_by": "max_output_chars"}, PARTIAL),
        ({"claims_total": 3, "truncated_by": "max_evidence_chars"}, PARTIAL),
        ({"claims_total": 3, "evidence_incomplete": True}, PARTIAL),
        ({"claims_total": 0, "truncated_by": "max_output_chars"}, PARTIAL),  # a cut beats vacuous
        ({"claims_total": 0, "evidence_incomplete": True}, PARTIAL),
        ({"claims_total": 0, "truncated_by": "max_output_chars", "coverage_target_declared": True}, COVERAGE_CAPPED),
        ({"claims_total": 3, "judge": "timeout"}, JUDGE_FAILED),  # anything not ok and not declined
    ],
)
def test_records(record: dict, grade: str) -> None:
    assert coverage_grade(record) == grade


# The conditions, weakest first, each a record fragment; combining several must give the strongest.
CONDITIONS: list[tuple[str, dict[str, Any]]] = [
    (VACUOUS, {"claims_total": 0, "claims_checked": 0}),
    (PARTIAL, {"evidence_incomplete": True}),
    (COVERAGE_CAPPED, {"truncated_by": "max_claims", "coverage_target_declared": True}),
    (CRITICAL_UNCOVERED, {"critical_uncovered": 2}),
    (JUDGE_DECLINED, {"judge": "declined"}),
    (JUDGE_FAILED, {"judge": "failed"}),
]


@pytest.mark.parametrize("mask", range(1, 1 << len(CONDITIONS)))
def test_precedence_strongest_wins(mask: int) -> None:
    record: dict[str, Any] = {"claims_total": 4, "claims_checked": 4}
    chosen = [i for i in range(len(CONDITIONS)) if mask >> i & 1]
    # judge-declined and judge-failed share the "judge" field: the later (stronger) one is kept.
    for i in chosen:
        record.update(CONDITIONS[i][1])
    expected = CONDITIONS[max(chosen)][0]
    assert coverage_grade(record) == expected
    assert GRADES.index(coverage_grade(record)) == max(GRADES.index(CONDITIONS[i][0]) for i in chosen)


def test_precedence_pairwise_examples() -> None:
    base = {"claims_total": 3, "claims_checked": 2, "truncated_by": "max_claims"}
    assert coverage_grade(base) == PARTIAL
    assert coverage_grade({**base, "coverage_target_declared": True}) == COVERAGE_CAPPED
    assert coverage_grade({**base, "coverage_target_declared": True, "critical_uncovered": 1}) == CRITICAL_UNCOVERED
    assert coverage_grade({**base, "critical_uncovered": 1, "judge": "declined"}) == JUDGE_DECLINED
    assert coverage_grade({**base, "critical_uncovered": 1, "judge": "failed"}) == JUDGE_FAILED
    assert coverage_grade({"claims_total": 0, "critical_uncovered": 1}) == CRITICAL_UNCOVERED


def test_missing_keys_default_to_not_applicable() -> None:
    assert coverage_grade({"claims_total": 7}) == FULL
    assert coverage_grade(GradeMeta(claims_total=7)) == FULL
    assert coverage_grade({"claims_total": 0}) == VACUOUS

    class Old:  # an object written by an older version: only some attributes
        claims_total = 2

    assert coverage_grade(Old()) == FULL


class NoCount:  # an object that carries other fields but never counted the claims
    claims_checked = 0
    truncated_by = None

    def __repr__(self) -> str:  # a stable test id (pytest-xdist workers compare them)
        return "NoCount()"


class Bare:
    """A record with no field at all."""

    def __repr__(self) -> str:
        return "Bare()"


@pytest.mark.parametrize(
    "record",
    [
        {},
        GradeMeta(),
        Bare(),
        NoCount(),
        {"claims_checked": 0},
        {"claims_checked": 0, "truncated_by": None, "evidence_incomplete": False, "judge": "ok"},
        {"claims_total": None},
        {"claims_total": None, "claims_checked": None},
        GradeMeta(claims_total=None, claims_checked=0),
        {"claims_total": 0.0},
        {"claims_total": False},
        {"claims_total": "0"},
        {"claims_total": b"0"},
        {"claims_total": [0]},
        {"claims_total": float("nan")},
    ],
    ids=repr,
)
def test_claims_total_missing_or_not_an_int_grades_partial(record: object) -> None:
    # A record that does not count the claims says nothing about the output: not "no claims".
    assert coverage_grade(record) == PARTIAL


def test_only_an_explicit_zero_is_vacuous() -> None:
    assert coverage_grade({"claims_total": 0}) == VACUOUS
    assert coverage_grade({"claims_total": 0, "claims_checked": None}) == VACUOUS
    assert coverage_grade(GradeMeta(claims_total=0)) == VACUOUS
    assert coverage_grade(GradeMeta(claims_total=0, claims_checked=0)) == VACUOUS
    # stronger grades still win over a missing count
    assert coverage_grade({"judge": "failed"}) == JUDGE_FAILED
    assert coverage_grade({"critical_uncovered": 1}) == CRITICAL_UNCOVERED
    assert coverage_grade({"truncated_by": "max_claims", "coverage_target_declared": True}) == COVERAGE_CAPPED


def test_unknown_keys_are_ignored() -> None:
    record = {"claims_total": 3, "claims_checked": 3, "future_field": "whatever", "judge_model": 42}
    assert coverage_grade(record) == FULL
    assert coverage_grade({"claims_total": 0, "something_new": True}) == VACUOUS


def test_grademeta_dataclass_input() -> None:
    assert coverage_grade(GradeMeta(claims_total=3, claims_checked=3)) == FULL
    assert coverage_grade(GradeMeta(claims_total=3, claims_checked=1, truncated_by="max_claims")) == PARTIAL
    assert (
        coverage_grade(
            GradeMeta(claims_total=3, claims_checked=1, truncated_by="max_claims", coverage_target_declared=True)
        )
        == COVERAGE_CAPPED
    )
    assert coverage_grade(GradeMeta(claims_total=3, critical_uncovered=1)) == CRITICAL_UNCOVERED
    assert coverage_grade(GradeMeta(claims_total=3, judge="declined")) == JUDGE_DECLINED
    assert coverage_grade(GradeMeta(claims_total=3, judge="failed")) == JUDGE_FAILED
    assert coverage_grade(GradeMeta(claims_total=3, judge="ok")) == FULL


MALFORMED_COUNTS = [-1, -100, 1.0, 2.5, float("nan"), float("inf"), True, False, "3", "", None, [3], {"n": 3}, b"3"]


@pytest.mark.parametrize("bad", MALFORMED_COUNTS, ids=repr)
@pytest.mark.parametrize("key", ["claims_total", "critical_uncovered"])
def test_malformed_counters_grade_partial(key: str, bad: object) -> None:
    for total in (0, 3):
        record = {"claims_total": total, "claims_checked": total, key: bad}
        assert coverage_grade(record) == PARTIAL, record


@pytest.mark.parametrize("bad", [b for b in MALFORMED_COUNTS if b is not None], ids=repr)
def test_malformed_claims_checked_grades_partial(bad: object) -> None:
    for total in (0, 3):
        assert coverage_grade({"claims_total": total, "claims_checked": bad}) == PARTIAL


@pytest.mark.parametrize(("total", "checked"), [(0, 1), (3, 4), (3, 1000)])
def test_checked_above_total_grades_partial(total: int, checked: int) -> None:
    assert coverage_grade({"claims_total": total, "claims_checked": checked}) == PARTIAL
    assert coverage_grade(GradeMeta(claims_total=total, claims_checked=checked)) == PARTIAL


def test_malformed_never_hides_a_stronger_grade() -> None:
    assert coverage_grade({"claims_total": -1, "judge": "failed"}) == JUDGE_FAILED
    assert coverage_grade({"claims_total": "x", "critical_uncovered": 1}) == CRITICAL_UNCOVERED


class HostileMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def get(self, key: str, default: Any = None) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        raise RuntimeError("boom")


class HostileObject:
    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("boom")


class HostileBool:
    def __bool__(self) -> bool:
        raise RuntimeError("boom")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __hash__ = None  # type: ignore[assignment]


class HostileInt(int):
    def __lt__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __gt__ = __ge__ = __le__ = __lt__


class HostileStr(str):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __ne__ = __eq__
    __hash__ = str.__hash__


@pytest.mark.parametrize(
    "meta",
    [
        {"claims_total": 3, "evidence_incomplete": HostileBool()},
        {"claims_total": 3, "truncated_by": HostileBool()},
        {"claims_total": 3, "judge": HostileBool()},
        {"claims_total": 3, "truncated_by": "x", "coverage_target_declared": HostileBool()},
        {"claims_total": 3, "critical_uncovered": HostileBool()},
        {"claims_total": HostileBool()},
        {"claims_total": 3, "claims_checked": HostileBool()},
        None,
        42,
        "full",
        [("claims_total", 3)],
    ],
    ids=lambda m: type(m).__name__ + (f"-{sorted(m)[-1]}" if isinstance(m, dict) else ""),
)
def test_hostile_values_still_grade_never_raise(meta: object) -> None:
    # Values are read by their type alone: no value's own code runs, so none can raise.
    grade = coverage_grade(meta)
    assert grade in GRADES
    assert grade not in (FULL, VACUOUS)


def test_values_of_builtin_subclasses_are_read_as_their_builtin() -> None:
    assert coverage_grade({"claims_total": HostileInt(3), "claims_checked": HostileInt(3)}) == FULL
    assert coverage_grade({"claims_total": 3, "judge": HostileStr("ok")}) == FULL
    assert coverage_grade({"claims_total": 3, "judge": HostileStr("declined")}) == JUDGE_DECLINED
    assert coverage_grade({"claims_total": 3, "judge": HostileStr("oops")}) == JUDGE_FAILED


@pytest.mark.parametrize("meta", [HostileMapping(), HostileObject()], ids=lambda m: type(m).__name__)
def test_a_record_whose_own_accessor_raises_is_the_callers_error(meta: object) -> None:
    # No catch-all: the record's own code failing is a bug for the caller's error policy
    # (the pipeline counts it as an internal error), never a silent `partial`.
    with pytest.raises(RuntimeError, match="boom"):
        coverage_grade(meta)


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=10),
    st.floats(),
    st.text(max_size=8),
    st.sampled_from(["ok", "declined", "failed", "max_claims", "max_output_chars"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
records = st.dictionaries(
    st.one_of(st.sampled_from(FIELDS), st.text(max_size=10)),
    values,
    max_size=9,
)


@settings(max_examples=400, deadline=None)
@given(record=records)
def test_any_record_grades_within_the_vocabulary(record: dict) -> None:
    grade = coverage_grade(record)
    assert grade in GRADES

    def well_formed(value: object) -> bool:
        return type(value) is int and value >= 0

    malformed = (
        not well_formed(record.get("claims_total"))  # missing counts as malformed: no evidence of 0
        or ("critical_uncovered" in record and not well_formed(record["critical_uncovered"]))
        or (record.get("claims_checked") is not None and not well_formed(record["claims_checked"]))
    )
    if malformed:
        assert grade not in (FULL, VACUOUS), record


@settings(max_examples=300, deadline=None)
@given(
    total=st.integers(min_value=0, max_value=50),
    missing=st.integers(min_value=0, max_value=50),
    cut=st.sampled_from([None, "max_claims", "max_output_chars", "max_evidence_chars"]),
    target=st.booleans(),
    incomplete=st.booleans(),
    critical=st.integers(min_value=0, max_value=3),
    judge=st.sampled_from([None, "ok", "declined", "failed"]),
)
def test_well_formed_records_follow_the_table(
    total: int, missing: int, cut: str | None, target: bool, incomplete: bool, critical: int, judge: str | None
) -> None:
    checked = max(total - missing, 0)
    meta = GradeMeta(total, checked, cut, incomplete, target, critical, judge)
    if judge == "failed":
        expected = JUDGE_FAILED
    elif judge == "declined":
        expected = JUDGE_DECLINED
    elif critical > 0:
        expected = CRITICAL_UNCOVERED
    elif cut and target:
        expected = COVERAGE_CAPPED
    elif cut or incomplete or checked < total:
        expected = PARTIAL
    elif total == 0:
        expected = VACUOUS
    else:
        expected = FULL
    assert coverage_grade(meta) == expected
    assert coverage_grade({f: getattr(meta, f) for f in FIELDS}) == expected
