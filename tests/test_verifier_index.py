"""The `verifier`'s evidence index is read lazily and its patterns are written for speed: each
shortcut must give what the plain definition gives. (Every verdict on a larger corpus, before
and after a change: `benchmarks/verifier_parity.py`.)"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from otel_grounding.config import JudgeSettings
from otel_grounding.judges import facts
from otel_grounding.judges.evidence import EvidenceIndex
from otel_grounding.judges.facts import DateFact, evidence_sentences, may_negate, words_profile
from otel_grounding.judges.verifier import check_claim
from otel_grounding.judgetier import judge_input
from otel_grounding.scoring import score_texts

ROOT = Path(__file__).resolve().parent.parent
SLICE = ROOT / "tests" / "fixtures" / "halueval" / "dev_slice.jsonl"
CASES = ROOT / "benchmarks" / "data" / "agent_style_cases.json"

#: The number patterns as first written: a look-behind, then the digits.
PLAIN_NUMBER = (
    r"(?P<n>\d{1,3}(?:,\d{3}(?!\d))+|\d+)(?P<frac>\.\d+)?(?:st|nd|rd|th)?"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|[kKmMbB])\b)?"
)
PLAIN_CLAIM_NUMBER = re.compile(r"(?<![\w.,])" + PLAIN_NUMBER)
# after no digit, and not a thousands group ("EUR,2483.41" holds 2483.41)
PLAIN_EVIDENCE_NUMBER = re.compile(r"(?<!\d)(?!(?<=\d,)\d{3}(?!\d))" + PLAIN_NUMBER)


def shuffled_texts(alphabet: str, count: int, longest: int) -> list[str]:
    """Deterministic random strings over an alphabet of the characters a pattern turns on."""
    rng = random.Random(26)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))
            for _ in range(count)]


def runs() -> list[tuple[str, list[str]]]:
    """The development slice's answers and the agent-style cases, with their evidence."""
    out = []
    for line in SLICE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out += [(record["right"], [record["evidence"]]),
                (record["hallucinated"], [record["evidence"]])]
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    out += [(c[kind], [c["tool_output"]]) for c in cases for kind in ("grounded", "altered")]
    out.append((" ".join(c["altered"] for c in cases), [c["tool_output"] for c in cases]))
    return out


def test_sentences_are_cut_where_the_plain_pattern_cuts_them() -> None:
    texts = shuffled_texts('aZ. !?\n"X\tq,B.\x00e\u00a0', 20_000, 20)
    texts += [evidence for _, sources in runs() for evidence in sources]
    for text in texts:
        plain = [s.strip() for s in facts._EVIDENCE_SENTENCE.split(text) if s.strip()]
        assert evidence_sentences(text) == plain, text


@pytest.mark.parametrize(
    ("fast", "plain"),
    [(facts._CLAIM_NUMBER, PLAIN_CLAIM_NUMBER), (facts._EVIDENCE_NUMBER, PLAIN_EVIDENCE_NUMBER)],
)
def test_numbers_are_read_as_the_plain_pattern_reads_them(
    fast: re.Pattern[str], plain: re.Pattern[str]
) -> None:
    for text in shuffled_texts("12,3.4 a_xk mb\u0663", 20_000, 16):
        assert [(m.span(), m.groupdict()) for m in fast.finditer(text)] == [
            (m.span(), m.groupdict()) for m in plain.finditer(text)
        ], text


def test_identifiers_are_read_as_the_plain_pattern_reads_them() -> None:
    plain = re.compile(facts._RUN_IDENTIFIER)
    texts = shuffled_texts("aZ09_.-# ,x1Ab.v3(\t", 20_000, 16)
    texts += [claim for claim, _ in runs()]
    for text in texts:
        if text.isascii():
            assert facts._RUN_IDENTIFIER_SPLIT_ASCII.split(text)[1::2] == plain.findall(text), text


def test_a_text_said_to_hold_no_negation_holds_none() -> None:
    for word in (*facts.NEGATIONS, "doesn't", "Isn\u2019t", "NEVER", "Without"):
        assert may_negate(f"it {word} works")
    for text in ("The release supports Windows and Linux.", "Nobel laureates", "Nord"):
        words = facts.words_of_in_order(text)
        assert may_negate(text) or not any(facts.word_profile(w).negation for w in words)
    assert not may_negate("The release supports Windows and Linux.")
    assert words_profile(["does", "not", "support", "Windows"])[1]


def _read_in_full(texts: list[str]) -> EvidenceIndex:
    """An index whose every lazily read part has been read before any claim is checked."""
    index = EvidenceIndex(texts)
    assert index.profiles is not None and index.vocabulary is not None
    assert index.segments >= 0 and index.number_at is not None and index.negates in (True, False)
    index.has_date(DateFact("2020", 2020, None, None))  # the evidence's numbers and dates
    index.has_identifier("x1")
    return index


def test_the_lazy_index_checks_claims_as_an_index_read_in_full() -> None:
    settings = JudgeSettings()
    checked = 0
    for output, sources in runs():
        built = judge_input(score_texts(output, sources), output, sources, [None] * len(sources),
                            settings)
        texts = [e.text for e in built.evidence]
        lazy, full = EvidenceIndex(texts), _read_in_full(texts)
        for claim in built.request_claims:
            assert check_claim(claim, lazy) == check_claim(claim, full), claim
            assert check_claim(claim, EvidenceIndex(texts)) == check_claim(claim, full), claim
            checked += 1
    assert checked > 400
