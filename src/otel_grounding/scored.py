"""A scored run read back from its enrichment: the `ferrumdeck.reliability.*` attributes and the
ungrounded-claim events, as a trace backend shows them.

The readers of results (the pytest plugin, `score-traces`) use this one record and its
messages, so a developer reads the same words in a failed test and in a re-scoring report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from otel_grounding import attributes as attr
from otel_grounding.judge import SUPPORTED
from otel_grounding.spanview import format_span_id, format_trace_id

#: What each coverage reason means for the developer reading a result.
REASON_HINTS: Mapping[str, str] = {
    attr.REASON_OUTPUT_UNAVAILABLE: "the run's answer was not recorded (is content capture on?)",
    attr.REASON_EVIDENCE_UNAVAILABLE: "a tool step's output was not recorded "
    "(is content capture on?)",
    attr.REASON_OUTPUT_TRUNCATED: "the answer arrived cut at the attribute value-length limit",
    attr.REASON_EVIDENCE_TRUNCATED: "a tool output arrived cut at the attribute value-length limit",
    attr.REASON_EVIDENCE_EVICTED: "the trace's buffered evidence was evicted (buffer budgets)",
    attr.REASON_TOOL_STEPS_MISSING: "the run declares more tool steps than the trace holds",
    attr.REASON_SCORING_ERROR: "scoring raised (see the log)",
}


@dataclass(frozen=True)
class UngroundedClaim:
    """One claim the tool outputs did not support, as its span event records it."""

    index: int
    excerpt: str
    covered_fraction: float | None
    missing_tokens: tuple[str, ...]


@dataclass(frozen=True)
class JudgedClaim:
    """A claim the judge did not find supported, as its span event records it."""

    #: Its lexical claim's index; None for a sentence the lexical contract sees no claim in.
    index: int | None
    excerpt: str
    verdict: str
    explanation: str | None


@dataclass(frozen=True)
class JudgedRun:
    """The judge tier's outcome on a run, as its `judge.*` attributes record it."""

    name: str
    #: ok | declined | failed | skipped; only an ok judgement has a rate and a flag.
    outcome: str
    reason: str | None
    rate: float | None
    below_threshold: bool
    unsupported_kinds: tuple[str, ...]
    claims: tuple[JudgedClaim, ...]

    def describe(self) -> str:
        """The judgement in one line, then each claim it did not find supported."""
        if self.outcome != attr.JUDGE_OUTCOME_OK:
            why = f" ({self.reason})" if self.reason else ""
            return f"  judge {self.name!r}: {self.outcome}{why}, no verdict"
        rate = "" if self.rate is None else f"rate {self.rate:.2f}, "
        kinds = f" (kinds: {', '.join(self.unsupported_kinds)})" if self.unsupported_kinds else ""
        flag = "flagged" if self.below_threshold else "not flagged"
        lines = [f"  judge {self.name!r}: {rate}{flag}{kinds}"]
        for claim in self.claims:
            where = "" if claim.index is None else f" #{claim.index}"
            lines.append(f"    {claim.verdict} claim{where}: {claim.excerpt.strip()!r}")
            if claim.explanation:
                lines.append(f"      {claim.explanation}")
        return "\n".join(lines)


@dataclass(frozen=True)
class ScoredRun:
    """One scored agent run: rate, grade, flag, reasons, the ungrounded claims and, when a
    judge ran, its judgement."""

    name: str
    trace_id: str
    span_id: str
    rate: float | None
    grade: str
    below_threshold: bool
    threshold: float | None
    claims_total: int
    claims_grounded: int
    claims_checked: int
    reasons: tuple[str, ...]
    truncated_by: str | None
    convention: str | None
    project: str | None
    ungrounded: tuple[UngroundedClaim, ...]
    judge: JudgedRun | None = None

    @property
    def judge_flagged(self) -> bool:
        """Its judge raised `judge.below_threshold`."""
        return self.judge is not None and self.judge.below_threshold

    @property
    def flagged(self) -> bool:
        """Below its threshold or flagged by its judge: what `score-traces` and the pytest
        gate count as flagged."""
        return self.below_threshold or self.judge_flagged

    @classmethod
    def read(
        cls,
        name: str,
        trace_id: int,
        span_id: int,
        attributes: Mapping[str, Any],
        events: Iterable[tuple[str, Mapping[str, Any]]],
    ) -> ScoredRun | None:
        """The run these attributes and events describe, or None when they hold no grade."""
        if attr.GRADE not in attributes:
            return None
        claims = []
        judged: list[JudgedClaim] = []
        for event_name, fields in events:
            if event_name == attr.JUDGED_CLAIM_EVENT:
                judged.append(_judged_claim(fields))
                continue
            if event_name != attr.CLAIM_EVENT:
                continue
            if fields.get(attr.CLAIM_EVENT_JUDGE_VERDICT, SUPPORTED) != SUPPORTED:
                judged.append(_judged_claim(fields))
            fraction = fields.get(attr.CLAIM_EVENT_COVERED_FRACTION)
            claims.append(
                UngroundedClaim(
                    index=int(fields.get(attr.CLAIM_EVENT_INDEX, -1)),
                    excerpt=str(fields.get(attr.CLAIM_EVENT_EXCERPT, "")),
                    covered_fraction=float(fraction) if fraction is not None else None,
                    missing_tokens=tuple(fields.get(attr.CLAIM_EVENT_UNCOVERED_TOKENS, ())),
                )
            )
        get = attributes.get
        reasons = get(attr.COVERAGE_REASON)
        rate = get(attr.RATE)
        threshold = get(attr.THRESHOLD)
        return cls(  # positional (one per run read): the fields in their order
            name,
            format_trace_id(trace_id),  # trace_id
            format_span_id(span_id),  # span_id
            float(rate) if rate is not None else None,  # rate
            str(attributes[attr.GRADE]),  # grade
            bool(get(attr.BELOW_THRESHOLD, False)),  # below_threshold
            float(threshold) if threshold is not None else None,  # threshold
            int(get(attr.CLAIMS_TOTAL, 0)),  # claims_total
            int(get(attr.CLAIMS_GROUNDED, 0)),  # claims_grounded
            int(get(attr.CLAIMS_CHECKED, 0)),  # claims_checked
            tuple(str(reasons).split(",")) if reasons else (),  # reasons
            _text(get(attr.TRUNCATED_BY)),  # truncated_by
            _text(get(attr.CONVENTION)),  # convention
            _text(get(attr.PROJECT)),  # project
            tuple(claims),  # ungrounded
            _judged_run(attributes, judged) if attr.JUDGE_OUTCOME in attributes else None,  # judge
        )

    def why(self) -> str:
        """The grade and what explains it, in one line."""
        parts = [f"grade {self.grade}"]
        for reason in self.reasons:
            parts.append(f"{reason}: {REASON_HINTS.get(reason, reason)}")
        if self.truncated_by:
            parts.append(f"coverage cut by {self.truncated_by}")
        return "; ".join(parts)

    def describe(self) -> str:
        """The run, its rate and grade, then each ungrounded claim with its missing tokens."""
        rate = "no rate" if self.rate is None else f"rate {self.rate:.2f}"
        lines = [
            f"run {self.name!r} (trace {self.trace_id}, span {self.span_id}): {rate}, "
            f"{self.claims_grounded} of {self.claims_total} claims grounded, {self.why()}"
        ]
        for claim in self.ungrounded:
            covered = (
                "" if claim.covered_fraction is None else f", {claim.covered_fraction:.0%} covered"
            )
            lines.append(f"  ungrounded claim #{claim.index}{covered}: {claim.excerpt.strip()!r}")
            if claim.missing_tokens:
                lines.append(f"    not in any tool output: {', '.join(claim.missing_tokens)}")
        unlisted = self.claims_checked - self.claims_grounded - len(self.ungrounded)
        if unlisted > 0:
            lines.append(f"  ... and {unlisted} more ungrounded claims (max_claim_events)")
        if self.judge is not None:
            lines.append(self.judge.describe())
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """`dataclasses.asdict` of the run, written out (it deep-copies every value, and
        `score-traces --format jsonl` calls this once per run)."""
        return {
            "name": self.name,
            "trace_id": self.trace_id,
            "span_id": self.span_id,
            "rate": self.rate,
            "grade": self.grade,
            "below_threshold": self.below_threshold,
            "threshold": self.threshold,
            "claims_total": self.claims_total,
            "claims_grounded": self.claims_grounded,
            "claims_checked": self.claims_checked,
            "reasons": tuple(self.reasons),
            "truncated_by": self.truncated_by,
            "convention": self.convention,
            "project": self.project,
            "ungrounded": tuple(
                {
                    "index": claim.index,
                    "excerpt": claim.excerpt,
                    "covered_fraction": claim.covered_fraction,
                    "missing_tokens": tuple(claim.missing_tokens),
                }
                for claim in self.ungrounded
            ),
            "judge": None if self.judge is None else {
                "name": self.judge.name,
                "outcome": self.judge.outcome,
                "reason": self.judge.reason,
                "rate": self.judge.rate,
                "below_threshold": self.judge.below_threshold,
                "unsupported_kinds": tuple(self.judge.unsupported_kinds),
                "claims": tuple(
                    {
                        "index": claim.index,
                        "excerpt": claim.excerpt,
                        "verdict": claim.verdict,
                        "explanation": claim.explanation,
                    }
                    for claim in self.judge.claims
                ),
            },
        }


def _judged_claim(fields: Mapping[str, Any]) -> JudgedClaim:
    index = fields.get(attr.CLAIM_EVENT_INDEX)
    return JudgedClaim(
        int(index) if index is not None else None,  # index
        str(fields.get(attr.CLAIM_EVENT_EXCERPT, "")),  # excerpt
        str(fields.get(attr.CLAIM_EVENT_JUDGE_VERDICT, "")),  # verdict
        _text(fields.get(attr.CLAIM_EVENT_JUDGE_EXPLANATION)),  # explanation
    )


def _judged_run(attributes: Mapping[str, Any], claims: list[JudgedClaim]) -> JudgedRun:
    get = attributes.get
    rate = get(attr.JUDGE_RATE)
    return JudgedRun(
        str(get(attr.JUDGE_NAME, "")),  # name
        str(attributes[attr.JUDGE_OUTCOME]),  # outcome
        _text(get(attr.JUDGE_REASON)),  # reason
        float(rate) if rate is not None else None,  # rate
        bool(get(attr.JUDGE_BELOW_THRESHOLD, False)),  # below_threshold
        tuple(str(k) for k in get(attr.JUDGE_UNSUPPORTED_KINDS, ())),  # unsupported_kinds
        tuple(sorted(claims, key=_in_text_order)),  # claims
    )


def _in_text_order(claim: JudgedClaim) -> tuple[bool, int]:
    """Lexical claims by index, then the sentences the contract sees no claim in."""
    return (claim.index is None, claim.index or 0)


def _text(value: Any) -> str | None:
    return str(value) if value else None
