"""The claim grounding rate (docs/contract.md §1): the golden case, every quirk, and a naive oracle."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from otel_grounding.config import ConfigError
from otel_grounding.grade import COVERAGE_CAPPED, FULL, PARTIAL, VACUOUS
from otel_grounding.scoring import Attribution, as_text, score_run, score_texts, significant_tokens

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "fixtures" / "claim_grounding.golden.json"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


naive = _load("naive_grounding", REPO / "tests" / "naive_grounding.py")
# The baseline benchmarks/bench_scoring.py races against: it must compute the contract too.
plain = _load("plain_formulation", REPO / "benchmarks" / "plain_formulation.py")


# --- the golden case --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def golden() -> dict:
    # The repository's own copy of the cross-plane fixture: asserted in every clone, anywhere.
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


#: SHA-256 of the cross-plane fixture as every plane holds it (`make fixture-drift SHARED=<dir>`
#: compares the copy in tests/fixtures/ with another plane's folder, byte for byte).
GOLDEN_SHA256 = "42906e5e237ed55937c1f72760f7b9b938d30e05a558c6912b489d8e5ec7b4ca"


def test_golden_fixture_is_the_cross_plane_one_byte_for_byte() -> None:
    # The copy is the shared contract, not ours to edit: a change here is drift between planes.
    assert hashlib.sha256(GOLDEN.read_bytes()).hexdigest() == GOLDEN_SHA256, (
        "tests/fixtures/ copy drifted from the cross-plane fixture"
    )


def test_golden_fixture_states_the_contract_case(golden: dict) -> None:
    assert golden["expected"] == {
        "claims_total": 3,
        "claims_grounded": 2,
        "rate": 2 / 3,
        "below_threshold": True,
        "threshold": 0.7,
    }
    assert golden["threshold"] == 0.7 and len(golden["sources"]) == 2


def test_golden_case_score_texts(golden: dict) -> None:
    expected = golden["expected"]
    result = score_texts(golden["output"], golden["sources"], threshold=golden["threshold"])
    assert result.claims_total == expected["claims_total"] == 3
    assert result.claims_grounded == expected["claims_grounded"] == 2
    assert result.rate == expected["rate"]
    assert result.below_threshold is expected["below_threshold"] is True
    assert result.threshold == expected["threshold"]
    assert [c.grounded for c in result.claims] == [True, True, False]
    assert result.claims[2].text.startswith("Bananas are purple")
    assert result.grade == FULL


def test_golden_case_score_run_and_naive_agree(golden: dict) -> None:
    steps = [{"step_type": "tool", "output": s} for s in golden["sources"]]
    steps.insert(1, {"step_type": "llm", "output": "Bananas are purple and fly to the distant moon."})
    result = score_run(golden["output"], steps, threshold=golden["threshold"])
    oracle = naive.naive_score(golden["output"], golden["sources"], golden["threshold"])
    expected = golden["expected"]
    for key in ("claims_total", "claims_grounded", "rate", "below_threshold"):
        assert getattr(result, key) == expected[key] == oracle[key], key


# --- claims and tokens ------------------------------------------------------------------------


def test_decimal_numbers_split_into_two_candidates() -> None:
    assert significant_tokens("3.14") == []
    assert significant_tokens("314.159") == ["314", "159"]
    result = score_texts("alpha beta 3.141 gamma delta", [])
    # "alpha beta 3" has 2 tokens (dropped); "141 gamma delta" is the one claim.
    assert result.claims_total == 1
    assert result.claims[0].text == "141 gamma delta"
    assert result.claims[0].tokens_distinct == 3


def test_abbreviations_split_too() -> None:
    result = score_texts("See e.g. the report. Done!", ["report"])
    assert result.claims_total == 0


def test_every_claim_separator_and_only_those() -> None:
    text = "one two three.four five six!seven eight nine?ten eleven twelve\nabc def ghi"
    assert score_texts(text, []).claims_total == 5
    # \r, U+2028, U+0085, ';' and ':' are not claim separators.
    for sep in ("\r", "\u2028", "\u0085", ";", ":", ",", "\t"):
        result = score_texts(f"alpha beta gamma{sep}delta epsilon zeta", [])
        assert result.claims_total == 1, repr(sep)
        assert result.claims[0].tokens_distinct == 6


def test_tokens_shorter_than_three_dropped() -> None:
    assert significant_tokens("an ox ate hay in the barn") == ["ate", "hay", "the", "barn"]
    assert significant_tokens("a1 b22 c333") == ["b22", "c333"]
    assert score_texts("an ox is on it", []).claims_total == 0
    assert score_texts("Done.", []).claims_total == 0
    assert score_texts("OK!", []).claims_total == 0


def test_tokens_are_ascii_alnum_runs_lowercased() -> None:
    assert significant_tokens("Hello_World foo-bar baz42qux") == ["hello", "world", "foo", "bar", "baz42qux"]
    assert significant_tokens("PARIS Paris paris") == ["paris", "paris", "paris"]
    result = score_texts("PARIS FRANCE CAPITAL", ["paris france capital"])
    assert result.claims_grounded == 1


def test_distinct_token_counting() -> None:
    # Three tokens but only two distinct: not a claim.
    assert score_texts("Paris paris PARIS is big", []).claims_total == 0
    # Five tokens, three distinct: 1/3 covered is not grounded (5 with repeats would give 3/5).
    result = score_texts("paris paris paris london rome", ["paris"])
    assert result.claims_total == 1
    assert result.claims[0].tokens_distinct == 3
    assert result.claims[0].tokens_covered == 1
    assert result.claims_grounded == 0
    # Repeats in the source do not count twice either.
    result = score_texts("alpha beta gamma delta", ["alpha alpha alpha alpha"])
    assert result.claims[0].tokens_covered == 1 and result.claims_grounded == 0


def test_half_coverage_is_grounded() -> None:
    result = score_texts("alpha beta gamma delta", ["alpha beta"])
    assert result.claims[0].covered_fraction == 0.5
    assert result.claims_grounded == 1
    result = score_texts("alpha beta gamma", ["alpha"])
    assert result.claims_grounded == 0  # 1/3 < 0.5
    result = score_texts("alpha beta gamma", ["alpha gamma"])
    assert result.claims_grounded == 1  # 2/3


def test_threshold_is_strict() -> None:
    text = "alpha beta gamma. delta epsilon zeta. eta theta iota"
    result = score_texts(text, ["alpha beta delta epsilon"], threshold=2 / 3)
    assert result.rate == 2 / 3
    assert result.below_threshold is False  # exactly at the threshold: not flagged
    result = score_texts(text, ["alpha beta delta epsilon"], threshold=0.67)
    assert result.below_threshold is True
    half = score_texts("alpha beta gamma. delta epsilon zeta", ["alpha beta"], threshold=0.5)
    assert half.rate == 0.5 and half.below_threshold is False
    full = score_texts("alpha beta gamma", ["alpha beta gamma"], threshold=1.0)
    assert full.rate == 1.0 and full.below_threshold is False
    zero = score_texts("alpha beta gamma", [], threshold=0.0)
    assert zero.rate == 0.0 and zero.below_threshold is False


def test_no_threshold_never_flags() -> None:
    result = score_texts("alpha beta gamma", [], threshold=None)
    assert result.rate == 0.0
    assert result.below_threshold is False
    assert result.threshold is None
    assert score_run("alpha beta gamma", []).below_threshold is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("café", ["caf"]),
        ("naïve", []),
        ("\u212aelvin", ["elvin"]),  # KELVIN SIGN lowercases to 'k' in Unicode: still a separator
        ("ABC\u212aDEF", ["abc", "def"]),
        ("\u212abc", []),
        ("\u0130stanbul", ["stanbul"]),  # LATIN CAPITAL I WITH DOT ABOVE: a separator
        ("xyz\u0130abc", ["xyz", "abc"]),
        ("\u017fome", ["ome"]),  # LONG S
        ("abc\u0661\u0662\u0663def", ["abc", "def"]),  # Arabic-Indic digits are not [0-9]
        ("\uff21\uff22\uff23", []),  # fullwidth letters
        ("straße", ["stra"]),
        ("abc\ud800def", ["abc", "def"]),  # a lone surrogate separates too
        ("ÀBCDE", ["bcde"]),
    ],
)
def test_non_ascii_characters_are_separators(text: str, expected: list[str]) -> None:
    assert significant_tokens(text) == expected
    assert naive.tokens(text) == expected


def test_kelvin_sign_is_not_the_letter_k() -> None:
    result = score_texts("\u212aelvin measures absolute heat", ["kelvin measures"])
    # tokens: elvin, measures, absolute, heat -> only "measures" covered (1/4).
    assert result.claims[0].tokens_distinct == 4
    assert result.claims_grounded == 0
    result = score_texts("\u0130stanbul hosts big markets", ["istanbul hosts"])
    assert result.claims[0].uncovered_tokens == ("stanbul", "big", "markets")


# --- structured values ------------------------------------------------------------------------


def test_as_text_serialises_json_sorted_and_non_ascii_kept() -> None:
    assert as_text(None) == ""
    assert as_text("plain") == "plain"
    assert as_text({"b": "é", "a": [1, 2]}) == '{"a": [1, 2], "b": "é"}'
    assert as_text(["naïve"]) == '["naïve"]'  # ensure_ascii=True would give "na\\u00efve"
    assert as_text(42) == "42"
    assert as_text(3.5) == "3.5"
    assert as_text(True) == "true"
    assert as_text([]) == "[]"
    value = {"z": {"y": 1, "x": "café"}, "a": None}
    assert as_text(value) == json.dumps(value, sort_keys=True, ensure_ascii=False)


def test_as_text_never_raises() -> None:
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert isinstance(as_text(deep), str)
    loop: dict = {}
    loop["self"] = loop
    assert isinstance(as_text(loop), str)
    assert isinstance(as_text({1: "a", "b": 2}), str)  # unsortable keys


def test_as_text_lets_a_values_own_failing_str_through() -> None:
    # No catch-all in the pure core: a value whose __str__ fails is the caller's bug.
    class Broken:
        def __str__(self) -> str:
            raise RuntimeError("a broken __str__")

        __repr__ = __str__

    with pytest.raises(RuntimeError, match="a broken __str__"):
        as_text(Broken())


def test_score_run_with_structured_outputs() -> None:
    output = {"b": "Bananas are purple today.", "a": "Paris is the capital of France."}
    steps = [
        {"step_type": "tool", "output": {"country": "France", "city": "Paris", "note": "capital"}},
        {"step_type": "tool", "output": ["naïve", "café"]},
    ]
    result = score_run(output, steps)
    assert result.claims_total == 2
    assert result.claims[0].text.startswith('{"a": "Paris')  # sorted keys
    assert [c.grounded for c in result.claims] == [True, False]
    # Non-ASCII kept as is: "naïve" gives no token, "café" gives "caf" (never "u00e9").
    nonascii = score_run("caf u00efve u00e9 naive", steps)
    assert nonascii.claims[0].uncovered_tokens == ("u00efve", "u00e9", "naive")
    oracle = naive.naive_score(output, [s["output"] for s in steps])
    assert (result.claims_total, result.claims_grounded, result.rate) == (
        oracle["claims_total"],
        oracle["claims_grounded"],
        oracle["rate"],
    )


def test_none_is_the_empty_string() -> None:
    result = score_run(None, [{"step_type": "tool", "output": None}])
    assert result.claims_total == 0 and result.rate == 1.0
    result = score_run("alpha beta gamma", [{"step_type": "tool", "output": None}])
    assert result.claims_grounded == 0
    assert score_texts(None, [None, "alpha beta"]).claims_total == 0


def test_score_run_takes_only_tool_steps() -> None:
    text = "Paris is the capital of France"
    ignored = [
        {"step_type": "llm", "output": text},
        {"step_type": "prompt", "output": text},
        {"step_type": "TOOL", "output": text},
        {"step_type": " tool", "output": text},
        {"output": text},
        {"step_type": "tool"},  # no output
        {"step_type": "tool", "input": text},
        "tool",
        None,
        42,
        ["tool", text],
    ]
    result = score_run(text, ignored)
    assert result.claims_total == 1
    assert result.claims_grounded == 0
    result = score_run(text, [*ignored, {"step_type": "tool", "output": "capital Paris France"}])
    assert result.claims_grounded == 1
    assert result.claims[0].best_source == 0  # indexes count tool outputs only


# --- vacuous output ---------------------------------------------------------------------------


@pytest.mark.parametrize("output", ["", "Done.", "OK! Yes? No.", "a b c d e", "...\n\n", None, {}, []])
def test_vacuous_output(output: object) -> None:
    result = score_texts(output, ["alpha beta gamma"], threshold=1.0)
    assert result.claims_total == 0
    assert result.claims_grounded == 0
    assert result.rate == 1.0
    assert result.grade == VACUOUS
    assert result.below_threshold is False


# --- evidence attribution ---------------------------------------------------------------------


def test_best_source_is_the_source_covering_most() -> None:
    sources = ["paris france", "capital paris france eiffel", "capital", "unrelated words"]
    result = score_texts("Paris is the capital of France", sources)
    claim = result.claims[0]
    assert claim.tokens_distinct == 4
    assert claim.tokens_covered == 3
    assert claim.best_source == 1
    assert claim.best_source_covered == 3
    assert claim.uncovered_tokens == ("the",)


def test_best_source_ties_go_to_the_lowest_index() -> None:
    result = score_texts("Paris is the capital of France", ["other", "paris capital", "france the"])
    assert result.claims[0].best_source == 1
    assert result.claims[0].best_source_covered == 2
    assert result.claims[0].tokens_covered == 4


def test_best_source_none_when_nothing_covers() -> None:
    result = score_texts("Bananas are purple fruit", ["paris capital", "france"])
    claim = result.claims[0]
    assert claim.best_source is None
    assert claim.best_source_covered == 0
    assert claim.uncovered_tokens == ("bananas", "are", "purple", "fruit")
    assert claim.to_dict()["best_source"] is None


# --- bounds -----------------------------------------------------------------------------------

THREE_CLAIMS = "alpha beta gamma. delta epsilon zeta. eta theta iota"


def test_no_bound_cuts_by_default() -> None:
    result = score_texts(THREE_CLAIMS, ["alpha beta"])
    assert result.truncated_by is None
    assert result.claims_checked == result.claims_total == 3
    assert result.grade == FULL


def test_max_output_chars_cuts() -> None:
    result = score_texts(THREE_CLAIMS, ["alpha beta"], max_output_chars=20)
    assert result.truncated_by is not None
    assert "max_output_chars" in result.truncated_by.split(",")
    assert result.claims_total == 1
    assert result.grade == PARTIAL
    capped = score_texts(THREE_CLAIMS, ["alpha beta"], max_output_chars=20, full_coverage_target=True)
    assert capped.grade == COVERAGE_CAPPED
    exact = score_texts(THREE_CLAIMS, [], max_output_chars=len(THREE_CLAIMS))
    assert exact.truncated_by is None and exact.claims_total == 3


def test_max_claims_cuts() -> None:
    result = score_texts(THREE_CLAIMS, ["alpha beta"], max_claims=1)
    assert result.truncated_by == "max_claims"
    assert result.claims_total == 3
    assert result.claims_checked == 1
    assert len(result.claims) == 1
    assert result.grade == PARTIAL
    capped = score_texts(THREE_CLAIMS, ["alpha beta"], max_claims=1, full_coverage_target=True)
    assert capped.grade == COVERAGE_CAPPED
    assert capped.coverage_target_declared is True
    assert capped.to_dict()["truncated_by"] == "max_claims"
    exact = score_texts(THREE_CLAIMS, [], max_claims=3, full_coverage_target=True)
    assert exact.truncated_by is None and exact.grade == FULL


def test_max_evidence_chars_cuts() -> None:
    sources = ["alpha beta", "delta epsilon", "eta theta"]
    result = score_texts(THREE_CLAIMS, sources, max_evidence_chars=12)
    assert result.truncated_by == "max_evidence_chars"
    assert result.grade == PARTIAL
    assert result.claims_grounded == 1  # only "alpha beta" and "de" were read
    capped = score_texts(THREE_CLAIMS, sources, max_evidence_chars=12, full_coverage_target=True)
    assert capped.grade == COVERAGE_CAPPED
    exact = score_texts(THREE_CLAIMS, sources, max_evidence_chars=sum(map(len, sources)))
    assert exact.truncated_by is None and exact.claims_grounded == 3


def test_several_bounds_are_all_named() -> None:
    result = score_texts(THREE_CLAIMS * 3, ["alpha beta"], max_output_chars=60, max_claims=1, max_evidence_chars=5)
    assert set(result.truncated_by.split(",")) == {"max_output_chars", "max_claims", "max_evidence_chars"}


def test_evidence_incomplete_grades_partial() -> None:
    assert score_texts(THREE_CLAIMS, ["alpha"], evidence_incomplete=True).grade == PARTIAL


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_output_chars", 0),
        ("max_output_chars", -1),
        ("max_output_chars", "100"),
        ("max_output_chars", True),
        ("max_output_chars", 1.5),
        ("max_claims", 0),
        ("max_claims", None),
        ("max_evidence_chars", -5),
        ("max_evidence_chars", float("inf")),
        ("full_coverage_target", "yes"),
        ("full_coverage_target", 1),
        ("critical_anchors", "number"),
        ("critical_anchors", ["phone"]),
        ("critical_anchors", [1]),
        ("anchor_patterns", ["("]),
        ("anchor_patterns", [""]),
        ("anchor_patterns", "INV-\\d+"),
        ("max_claim", 10),  # unknown option
    ],
)
def test_bad_options_raise_config_error_naming_the_key(key: str, value: object) -> None:
    with pytest.raises(ConfigError, match=key):
        score_texts("alpha beta gamma", [], **{key: value})


@pytest.mark.parametrize("threshold", [1.5, -0.1, float("nan"), float("inf"), "0.5", True])
def test_bad_threshold_raises_config_error(threshold: object) -> None:
    with pytest.raises(ConfigError, match="threshold"):
        score_texts("alpha beta gamma", [], threshold=threshold)
    with pytest.raises(ConfigError, match="threshold"):
        score_run("alpha beta gamma", [], threshold=threshold)


def test_result_to_dict_is_json() -> None:
    result = score_texts(THREE_CLAIMS, ["alpha beta"], threshold=0.5)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["claims_total"] == 3
    assert len(data["claims"]) == 3
    assert data["claims"][0]["uncovered_tokens"] == ["gamma"]


# --- property-based: the real scorer agrees with the naive formulation ------------------------

FRAGMENTS = [
    ".", "!", "?", "\n", " ", " ", " ", ",", "-", "_", "\r", "\t", ":",
    "a", "B", "7", "ab", "Z9", "abc", "ABC", "x1y", "101", "paris", "Paris", "PARIS",
    "france", "capital", "tower", "moon", "the", "and", "3.14", "1,234", "e.g.",
    "é", "café", "naïve", "ß", "\u212a", "\u212aelvin", "\u0130", "\u0130stanbul", "\u017f",
    "\u0661", "\uff21", "\u2028", "\u0085", "\ud800", "\udfff", "\U0001f600", "\x00",
]
WORDS = ["alpha", "beta", "gamma", "delta", "paris", "france", "capital", "moon", "x7", "abc", "the"]

texts = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join),
    st.lists(st.sampled_from([*WORDS, " ", " ", ". ", "\n", "!", "é", "\u212a"]), max_size=40).map("".join),
    st.text(max_size=80),
    st.text(alphabet="abcXYZ019 .!?\n\u212a\u0130é", max_size=120),
)
thresholds = st.one_of(
    st.none(),
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    st.sampled_from([0.0, 1 / 3, 0.5, 2 / 3, 0.7, 1.0]),
)
PROPERTY = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _agree(output: object, sources: list, threshold: float | None) -> None:
    result = score_texts(output, sources, threshold=threshold)
    oracle = naive.naive_score(output, sources, threshold)
    assert result.claims_total == oracle["claims_total"]
    assert result.claims_grounded == oracle["claims_grounded"]
    assert result.rate == oracle["rate"]
    assert result.below_threshold == oracle["below_threshold"]
    assert 0.0 <= result.rate <= 1.0 and not math.isnan(result.rate)
    for verdict, expected in zip(result.claims, oracle["claims"], strict=True):
        assert verdict.tokens_distinct == expected["tokens_distinct"]
        assert verdict.tokens_covered == expected["tokens_covered"]
        assert verdict.grounded == expected["grounded"]
        assert verdict.best_source == expected["best_source"]
        assert verdict.best_source_covered == expected["best_source_covered"]
        assert list(verdict.uncovered_tokens) == expected["uncovered_tokens"]


@PROPERTY
@given(output=texts, sources=st.lists(texts, max_size=4), threshold=thresholds)
def test_score_texts_agrees_with_naive(output: str, sources: list[str], threshold: float | None) -> None:
    _agree(output, sources, threshold)


@PROPERTY
@given(output=texts, sources=st.lists(texts, max_size=4), threshold=thresholds)
def test_the_benchmark_baseline_agrees_with_naive(output: str, sources: list[str], threshold: float | None) -> None:
    oracle = naive.naive_score(output, sources, threshold)
    assert plain.plain_score(output, sources, threshold) == {
        key: oracle[key] for key in ("claims_total", "claims_grounded", "rate", "below_threshold")
    }


@PROPERTY
@given(output=texts, threshold=thresholds)
def test_grounded_against_itself(output: str, threshold: float | None) -> None:
    # Every claim is grounded by its own text: the rate is 1.0 and nothing is flagged.
    result = score_texts(output, [output], threshold=threshold)
    assert result.rate == 1.0
    assert result.below_threshold is False
    _agree(output, [output], threshold)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=json_values, sources=st.lists(json_values, max_size=3), threshold=thresholds)
def test_structured_values_agree_with_naive(output: object, sources: list, threshold: float | None) -> None:
    _agree(output, sources, threshold)
    steps = [{"step_type": "tool", "output": s} for s in sources]
    assert score_run(output, steps, threshold=threshold).rate == naive.naive_score(output, sources)["rate"]


@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_tokens_agree_with_naive(text: str) -> None:
    assert significant_tokens(text) == naive.tokens(text)


VOCAB = ["alpha", "Beta", "GAMMA", "delta", "eps", "zeta", "eta", "\u212aelvin", "kelvin", "caf\u00e9", "caf"]
dense_output = st.lists(
    st.tuples(
        st.lists(st.sampled_from(VOCAB), min_size=1, max_size=8).map(" ".join),
        st.sampled_from([".", "!", "?", "\n", ". ", "3.14"]),
    ).map("".join),
    max_size=8,
).map("".join)
dense_sources = st.lists(st.lists(st.sampled_from(VOCAB), max_size=5).map(" ".join), max_size=3)


@PROPERTY
@given(output=dense_output, sources=dense_sources, threshold=thresholds)
def test_agrees_with_naive_on_dense_overlap(output: str, sources: list[str], threshold: float | None) -> None:
    # A small vocabulary makes exact-half coverage, ties between sources and rates equal to
    # the threshold common rather than rare.
    _agree(output, sources, threshold)


# --- lazy attribution -------------------------------------------------------------------------


def _eager_oracle_verdicts(output: object, sources: list) -> list[dict]:
    """Every claim's verdict computed up front, in the same pass as the counts (the oracle)."""
    return naive.naive_score(output, sources)["claims"]


def _fields(verdict: object) -> dict:
    return {
        "tokens_distinct": verdict.tokens_distinct,
        "tokens_covered": verdict.tokens_covered,
        "grounded": verdict.grounded,
        "best_source": verdict.best_source,
        "best_source_covered": verdict.best_source_covered,
        "uncovered_tokens": list(verdict.uncovered_tokens),
    }


def _lazy_equals_eager(output: object, sources: list) -> None:
    eager = _eager_oracle_verdicts(output, sources)
    expected = [{k: v for k, v in claim.items() if k != "piece"} for claim in eager]
    # Lazily, in three ways: the ungrounded ones alone first (what the processor reads), one claim
    # at a time, then every claim on access; each must equal the eager verdicts.
    result = score_texts(output, sources)
    ungrounded = result.ungrounded_claims()
    assert [_fields(v) for v in ungrounded] == [e for e in expected if not e["grounded"]]
    assert [v.index for v in ungrounded] == [i for i, e in enumerate(expected) if not e["grounded"]]
    for k in range(result.claims_checked):
        (alone,) = result.attribution.verdicts([k])
        assert _fields(alone) == expected[k]
    claims = result.claims
    assert [_fields(v) for v in claims] == expected
    assert [v.index for v in claims] == list(range(len(expected)))
    assert [as_text(output)[v.start : v.end] for v in claims] == [e["piece"] for e in eager]
    assert [v.text for v in claims] == [e["piece"].strip() for e in eager]
    # and with the counts of the rate path, which never built a verdict
    assert result.claims_grounded == sum(v.grounded for v in claims)
    assert result.ungrounded_claims() == tuple(v for v in claims if not v.grounded)
    assert result.ungrounded_claims(1) == tuple(v for v in claims if not v.grounded)[:1]


@PROPERTY
@given(output=texts, sources=st.lists(texts, max_size=4))
def test_lazy_verdicts_equal_eager_verdicts(output: str, sources: list[str]) -> None:
    _lazy_equals_eager(output, sources)


@PROPERTY
@given(output=dense_output, sources=dense_sources)
def test_lazy_verdicts_equal_eager_verdicts_on_dense_overlap(output: str, sources: list[str]) -> None:
    _lazy_equals_eager(output, sources)


def test_lazy_verdicts_with_bounds_and_the_golden_case(golden: dict) -> None:
    _lazy_equals_eager(golden["output"], golden["sources"])
    _lazy_equals_eager("Le café est à Paris. \u212aelvin naïve straße capital! " * 3, ["paris capital", "café"])
    result = score_texts(THREE_CLAIMS, ["alpha beta", "delta"], max_claims=2)
    assert [v.index for v in result.claims] == [0, 1]
    assert [v.index for v in result.ungrounded_claims()] == [1]
    cut = score_texts(THREE_CLAIMS, ["alpha beta", "delta epsilon"], max_evidence_chars=12)
    assert [v.grounded for v in cut.claims] == [True, False, False]
    # the evidence as the bound left it: "alpha beta" and "de", never "delta epsilon"
    assert cut.claims[0].best_source == 0 and cut.claims[1].best_source is None


def test_the_rate_path_attributes_nothing_until_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[int]] = []
    real = Attribution.verdicts

    def recording(self: Attribution, indexes: Sequence[int]) -> tuple:
        asked.append(list(indexes))
        return real(self, indexes)

    monkeypatch.setattr(Attribution, "verdicts", recording)
    output = "Paris is the capital of France. Bananas are purple fruit. The Eiffel Tower is in Paris. Moon cheese tastes odd."
    result = score_texts(output, ["Paris is the capital of France.", "The Eiffel Tower stands in Paris."], threshold=0.7)
    assert (result.claims_total, result.claims_grounded, result.below_threshold) == (4, 2, True)
    assert result.grade == FULL and result.rate == 0.5
    assert asked == []  # counts, rate, flag and grade: no verdict built
    assert [v.index for v in result.ungrounded_claims(1)] == [1]
    assert asked == [[1]]  # only the claim asked for
    assert [v.index for v in result.ungrounded_claims()] == [1, 3]
    assert asked == [[1], [1, 3]]
    assert len(result.claims) == 4 and result.claims is result.claims
    assert asked == [[1], [1, 3], [0, 1, 2, 3]]  # every claim once, on access, then cached
    assert [v.index for v in result.ungrounded_claims()] == [1, 3]
    assert len(asked) == 3
