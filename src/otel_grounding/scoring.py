"""The claim grounding rate: the lexical contract shared with every other implementation.

SPEC section 2, to the character: claims are the pieces between `.`, `!`, `?` and newline that
hold at least 3 distinct significant tokens (ASCII alphanumeric runs of length >= 3, lowercased
after tokenizing); a claim is grounded when at least half of its distinct tokens occur in the
pooled tokens of the tool outputs. Linear time: one pass over the output, one over the sources.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from otel_grounding.anchors import Anchor
from otel_grounding.config import DEFAULT_SCORING, ScoringOptions, check_threshold
from otel_grounding.grade import GradeMeta, coverage_grade

#: A claim is grounded when covered / distinct >= GROUNDING_OVERLAP.
GROUNDING_OVERLAP = 0.5
#: Candidates with fewer distinct significant tokens are not claims.
MIN_CLAIM_TOKENS = 3

_TOKEN = re.compile(r"[A-Za-z0-9]{3,}")
_TOKEN_LOWER = re.compile(r"[a-z0-9]{3,}")
_CLAIM_SEPARATOR = re.compile(r"[.!?\n]")


def significant_tokens(text: str) -> list[str]:
    """The text's significant tokens in order, lowercased; every non-ASCII character separates."""
    if text.isascii():
        return _TOKEN_LOWER.findall(text.lower())
    # Lowercasing first would turn KELVIN SIGN into "k": tokenize on the original, then lower.
    return [token.lower() for token in _TOKEN.findall(text)]


def as_text(value: Any) -> str:
    """A value as the contract reads it: strings as they are, None as "", the rest as sorted JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        try:
            return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
        except (TypeError, ValueError, RecursionError):
            try:
                return str(value)
            except Exception:  # nested too deep even for repr, or a hostile __str__
                return ""


@dataclass(frozen=True)
class ClaimVerdict:
    """One claim: where it is, how much of it the evidence covers, and which source covers most."""

    index: int
    start: int
    end: int
    text: str
    tokens_distinct: int
    tokens_covered: int
    grounded: bool
    best_source: int | None
    best_source_covered: int
    uncovered_tokens: tuple[str, ...]

    @property
    def covered_fraction(self) -> float:
        return self.tokens_covered / self.tokens_distinct

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "tokens_distinct": self.tokens_distinct,
            "tokens_covered": self.tokens_covered,
            "covered_fraction": self.covered_fraction,
            "grounded": self.grounded,
            "best_source": self.best_source,
            "best_source_covered": self.best_source_covered,
            "uncovered_tokens": list(self.uncovered_tokens),
        }


@dataclass(frozen=True)
class GroundingResult:
    """The outcome of one scoring pass: the rate, the grade and the per-claim verdicts."""

    claims_total: int
    claims_grounded: int
    claims_checked: int
    rate: float
    below_threshold: bool
    threshold: float | None
    grade: str
    claims: tuple[ClaimVerdict, ...] = ()
    truncated_by: str | None = None
    evidence_incomplete: bool = False
    coverage_target_declared: bool = False
    anchors_total: int = 0
    uncovered_anchors: tuple[Anchor, ...] = field(default=())

    @property
    def critical_uncovered(self) -> int:
        return len(self.uncovered_anchors)

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims_total": self.claims_total,
            "claims_grounded": self.claims_grounded,
            "claims_checked": self.claims_checked,
            "rate": self.rate,
            "below_threshold": self.below_threshold,
            "threshold": self.threshold,
            "grade": self.grade,
            "truncated_by": self.truncated_by,
            "evidence_incomplete": self.evidence_incomplete,
            "coverage_target_declared": self.coverage_target_declared,
            "anchors_total": self.anchors_total,
            "critical_uncovered": self.critical_uncovered,
            "uncovered_anchors": [a.to_dict() for a in self.uncovered_anchors],
            "claims": [c.to_dict() for c in self.claims],
        }


class _Claim(NamedTuple):  # a NamedTuple: built once per claim, cheaper than a dataclass
    start: int
    end: int
    tokens: tuple[str, ...]  # distinct, in first-seen order


def _claims(output: str) -> list[_Claim]:
    claims: list[_Claim] = []
    start = 0
    for piece in _CLAIM_SEPARATOR.split(output):
        end = start + len(piece)
        distinct = tuple(dict.fromkeys(significant_tokens(piece)))
        if len(distinct) >= MIN_CLAIM_TOKENS:
            claims.append(_Claim(start, end, distinct))
        start = end + 1
    return claims


def _bounded_sources(sources: Iterable[str], budget: int) -> tuple[list[str], bool]:
    """The sources within the evidence budget (characters), and whether the budget cut any."""
    kept: list[str] = []
    for text in sources:
        if len(text) > budget:
            if budget:
                kept.append(text[:budget])
            return kept, True
        kept.append(text)
        budget -= len(text)
    return kept, False


def score(
    output: str,
    sources: Iterable[str],
    *,
    threshold: float | None = None,
    options: ScoringOptions = DEFAULT_SCORING,
    evidence_incomplete: bool = False,
) -> GroundingResult:
    """Score already-validated inputs; the processor and the relay call this directly."""
    cut: list[str] = []
    if len(output) > options.max_output_chars:
        output = output[: options.max_output_chars]
        cut.append("max_output_chars")
    claims = _claims(output)
    checked = claims[: options.max_claims]
    if len(checked) < len(claims):
        cut.append("max_claims")
    source_list, evidence_cut = _bounded_sources(sources, options.max_evidence_chars)
    if evidence_cut:
        cut.append("max_evidence_chars")

    wanted = {token for claim in checked for token in claim.tokens}
    pool: set[str] = set()
    postings: defaultdict[str, list[int]] = defaultdict(list)
    for i, text in enumerate(source_list):
        source_tokens = set(significant_tokens(text))
        pool |= source_tokens
        for token in source_tokens & wanted:
            postings[token].append(i)

    verdicts: list[ClaimVerdict] = []
    grounded_count = 0
    for index, claim in enumerate(checked):
        covered = [t for t in claim.tokens if t in pool]
        grounded = len(covered) / len(claim.tokens) >= GROUNDING_OVERLAP
        grounded_count += grounded
        best, best_covered = None, 0
        if covered:
            counts: dict[int, int] = {}
            for token in covered:
                for source in postings[token]:
                    counts[source] = counts.get(source, 0) + 1
            # the source covering most of the claim's tokens, the first one on a tie
            best_covered = max(counts.values())
            best = min(source for source, count in counts.items() if count == best_covered)
        verdicts.append(
            ClaimVerdict(
                index=index,
                start=claim.start,
                end=claim.end,
                text=output[claim.start : claim.end].strip(),
                tokens_distinct=len(claim.tokens),
                tokens_covered=len(covered),
                grounded=grounded,
                best_source=best,
                best_source_covered=best_covered,
                uncovered_tokens=tuple([t for t in claim.tokens if t not in pool]),
            )
        )

    anchors = options.anchors
    uncovered: tuple[Anchor, ...] = ()
    anchors_total = 0
    if anchors.enabled:
        found = anchors.find(output)
        anchors_total = len(found)
        if found:
            keys = anchors.source_keys(source_list)
            uncovered = tuple(a for a in found if a.key not in keys)

    total = len(claims)
    rate = grounded_count / len(checked) if checked else 1.0
    truncated_by = ",".join(cut) or None
    grade = coverage_grade(
        GradeMeta(
            claims_total=total,
            claims_checked=len(checked),
            truncated_by=truncated_by,
            evidence_incomplete=evidence_incomplete,
            coverage_target_declared=options.full_coverage_target,
            critical_uncovered=len(uncovered),
        )
    )
    return GroundingResult(
        claims_total=total,
        claims_grounded=grounded_count,
        claims_checked=len(checked),
        rate=rate,
        below_threshold=threshold is not None and total > 0 and rate < threshold,
        threshold=threshold,
        grade=grade,
        claims=tuple(verdicts),
        truncated_by=truncated_by,
        evidence_incomplete=evidence_incomplete,
        coverage_target_declared=options.full_coverage_target,
        anchors_total=anchors_total,
        uncovered_anchors=uncovered,
    )


def score_texts(
    output: str,
    sources: Iterable[str],
    *,
    threshold: float | None = None,
    evidence_incomplete: bool = False,
    **options: Any,
) -> GroundingResult:
    """Score an output against tool-output texts.

    Keyword options (validated here, `ConfigError` when bad): `max_output_chars`, `max_claims`,
    `max_evidence_chars`, `full_coverage_target`, `critical_anchors`, `anchor_patterns`.
    """
    opts = ScoringOptions.build(**options) if options else DEFAULT_SCORING
    return score(
        as_text(output),
        (as_text(s) for s in sources),
        threshold=check_threshold("threshold", threshold),
        options=opts,
        evidence_incomplete=evidence_incomplete,
    )


TOOL_STEP_TYPE = "tool"


def tool_outputs(steps: Iterable[Any]) -> list[str]:
    """The texts of the tool steps of a ferrumdeck-style step list (other steps never count)."""
    return [
        as_text(step["output"])
        for step in steps
        if isinstance(step, Mapping) and step.get("step_type") == TOOL_STEP_TYPE and "output" in step
    ]


def score_run(
    output: Any,
    steps: Iterable[Mapping[str, Any]],
    *,
    threshold: float | None = None,
    **options: Any,
) -> GroundingResult:
    """Score a run: its final output against the outputs of its `step_type == "tool"` steps."""
    return score_texts(as_text(output), tool_outputs(steps), threshold=threshold, **options)
