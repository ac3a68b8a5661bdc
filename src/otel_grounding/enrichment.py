"""Enrichment: a run's outcome as the attributes, events and metric recordings to add.

Pure of any span representation: the SDK shells and the relay apply the same `Enrichment`
each in their own types. This module is the only writer of `attributes` names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from otel_grounding import attributes as attr
from otel_grounding.config import GroundingSettings
from otel_grounding.grade import GradeMeta, coverage_grade
from otel_grounding.judge import SUPPORTED
from otel_grounding.judgetier import Judgement
from otel_grounding.scoring import GroundingResult
from otel_grounding.spanview import format_span_id


@dataclass(frozen=True)
class EventSpec:
    """A span event to add (its timestamp is the run span's end)."""

    name: str
    attributes: Mapping[str, Any]


@dataclass(frozen=True)
class Enrichment:
    """What to change on one span: attributes to set, events to add, content keys to remove."""

    attributes: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[EventSpec, ...] = ()
    remove: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RunOutcome:
    """One run's outcome. `result` is None when the output could not be read or scoring failed."""

    result: GroundingResult | None
    reasons: tuple[str, ...]
    threshold: float | None
    project: str | None
    service: str | None
    convention: str
    source_span_ids: tuple[int | None, ...] = ()
    content_keys: tuple[str, ...] = ()
    judgement: Judgement | None = None

    @property
    def judge_settled(self) -> str | None:
        """The judge outcome the grade takes (None: no judge, or the run was skipped)."""
        j = self.judgement
        if j is None or j.outcome == attr.JUDGE_OUTCOME_SKIPPED:
            return None
        return j.outcome

    @property
    def truncated_by(self) -> str | None:
        """The bounds that cut: the scoring pass's, then the judge's (when it judged)."""
        cut = [self.result.truncated_by] if self.result and self.result.truncated_by else []
        if self.judgement is not None and self.judge_settled == attr.JUDGE_OUTCOME_OK:
            cut.extend(self.judgement.truncated_by)
        return ",".join(cut) or None

    @cached_property
    def grade(self) -> str:
        """Always `coverage_grade` over what the run's grading saw (the one place a grade is
        decided): no result (nothing scored) is an unknown claim count, so `partial`."""
        result = self.result
        if result is None:
            return coverage_grade(GradeMeta())
        return coverage_grade(
            GradeMeta(  # positional (one per run): the fields in their order
                result.claims_total,
                result.claims_checked,
                self.truncated_by,
                result.evidence_incomplete,
                result.coverage_target_declared,
                result.critical_uncovered,
                self.judge_settled,  # judge
            )
        )

    @property
    def rate(self) -> float | None:
        return self.result.rate if self.result is not None else None

    @property
    def below_threshold(self) -> bool:
        return self.result is not None and self.result.below_threshold

    @property
    def judge_below_threshold(self) -> bool:
        """The judge's flag against the run's threshold (`Judgement.flags`)."""
        return self.judgement is not None and self.judgement.flags(self.threshold)

    @property
    def judge_unsupported(self) -> tuple[tuple[str, ...], ...]:
        """The reason kinds of each claim the judge did not find supported (a judgement
        settled ok; empty otherwise), as its verdicts name them (none: the judge does not say)."""
        j = self.judgement
        if j is None or j.outcome != attr.JUDGE_OUTCOME_OK:
            return ()
        return tuple(v.kinds for v in j.verdicts if v.verdict != SUPPORTED)


def build_enrichment(outcome: RunOutcome, settings: GroundingSettings) -> Enrichment:
    """The attributes (README: "What it writes on the run span"), the audit event when
    flagged, and the ungrounded-claim events."""
    result = outcome.result
    below_threshold = outcome.below_threshold
    values: dict[str, Any] = {
        attr.GRADE: outcome.grade,
        attr.BELOW_THRESHOLD: below_threshold,
        attr.CLAIMS_TOTAL: result.claims_total if result else 0,
        attr.CLAIMS_GROUNDED: result.claims_grounded if result else 0,
        attr.CLAIMS_CHECKED: result.claims_checked if result else 0,
        attr.EVIDENCE_SOURCES: len(outcome.source_span_ids),
        attr.CONVENTION: outcome.convention,
    }
    if result is not None:
        values[attr.RATE] = result.rate
        truncated_by = outcome.truncated_by
        if truncated_by:
            values[attr.TRUNCATED_BY] = truncated_by
        if settings.scoring.anchors.enabled:
            values[attr.CRITICAL_ANCHORS_TOTAL] = result.anchors_total
            values[attr.CRITICAL_ANCHORS_UNCOVERED] = result.critical_uncovered
    if outcome.threshold is not None:
        values[attr.THRESHOLD] = outcome.threshold
    if outcome.reasons:
        values[attr.COVERAGE_REASON] = ",".join(outcome.reasons)
    if outcome.project:
        values[attr.PROJECT] = outcome.project

    judged: dict[int, Any] = {}
    if outcome.judgement is not None:
        judged = _judge_values(values, outcome.judgement, outcome.judge_below_threshold)

    events: list[EventSpec] = []
    if result is not None and below_threshold:
        flagged: dict[str, Any] = {
            attr.FLAGGED_EVENT_RATE: result.rate,
            attr.FLAGGED_EVENT_THRESHOLD: outcome.threshold,
        }
        if outcome.project:
            flagged[attr.FLAGGED_EVENT_PROJECT] = outcome.project
        events.append(EventSpec(attr.FLAGGED_EVENT, flagged))
    if result is not None and settings.claim_events:
        ungrounded = result.ungrounded_claims(settings.max_claim_events)
        for claim in ungrounded:
            event: dict[str, Any] = {
                attr.CLAIM_EVENT_INDEX: claim.index,
                attr.CLAIM_EVENT_COVERED_FRACTION: claim.covered_fraction,
            }
            if settings.strip_content:  # the content is being removed: no word of it here
                event[attr.CLAIM_EVENT_START] = claim.start
                event[attr.CLAIM_EVENT_END] = claim.end
                event[attr.CLAIM_EVENT_TOKENS] = claim.tokens_distinct
                event[attr.CLAIM_EVENT_TOKENS_UNCOVERED] = (
                    claim.tokens_distinct - claim.tokens_covered
                )
            else:
                event[attr.CLAIM_EVENT_EXCERPT] = claim.text[: attr.CLAIM_EXCERPT_CHARS]
                event[attr.CLAIM_EVENT_UNCOVERED_TOKENS] = list(claim.uncovered_tokens[:20])
            if claim.best_source is not None and claim.best_source < len(outcome.source_span_ids):
                span_id = outcome.source_span_ids[claim.best_source]
                if span_id is not None:
                    event[attr.CLAIM_EVENT_BEST_SOURCE_SPAN_ID] = format_span_id(span_id)
            verdict = judged.get(claim.index)
            if verdict is not None:
                _judge_event_fields(event, verdict, settings)
            events.append(EventSpec(attr.CLAIM_EVENT, event))
        if outcome.judgement is not None:
            room = settings.max_claim_events - len(ungrounded)
            events.extend(_judged_claim_events(outcome.judgement, result, settings, room))
    return Enrichment(values, tuple(events), stripped(outcome.content_keys, settings))


def stripped(content_keys: tuple[str, ...], settings: GroundingSettings) -> frozenset[str]:
    """The content keys to remove from a span: all of them under `strip_content`, else none.
    The one place stripping is decided, for every span the pipeline hands back."""
    return frozenset(content_keys) if settings.strip_content else frozenset()


def _judge_values(
    values: dict[str, Any], judgement: Judgement, below_threshold: bool
) -> dict[int, Any]:
    """Write the judge attributes; the verdicts by lexical claim index."""
    values[attr.JUDGE_NAME] = judgement.name
    if judgement.model:
        values[attr.JUDGE_MODEL] = judgement.model
    values[attr.JUDGE_OUTCOME] = judgement.outcome
    if judgement.reason:
        values[attr.JUDGE_REASON] = judgement.reason
    if judgement.error_type:
        values[attr.JUDGE_ERROR_TYPE] = judgement.error_type
    if judgement.duration_ms is not None:
        values[attr.JUDGE_DURATION_MS] = round(judgement.duration_ms, 3)
    if judgement.outcome != attr.JUDGE_OUTCOME_OK:
        return {}
    values[attr.JUDGE_CLAIMS_JUDGED] = len(judgement.verdicts)
    values[attr.JUDGE_CLAIMS_SUPPORTED] = judgement.supported
    values[attr.JUDGE_CLAIMS_CONTRADICTED] = judgement.contradicted
    values[attr.JUDGE_RATE] = judgement.rate
    values[attr.JUDGE_BELOW_THRESHOLD] = below_threshold
    kinds = judgement.unsupported_kinds
    if kinds:
        values[attr.JUDGE_UNSUPPORTED_KINDS] = kinds
    return {
        index: verdict
        for index, verdict in zip(judgement.claim_indexes, judgement.verdicts, strict=False)
        if index is not None
    }


def _judge_event_fields(
    event: dict[str, Any], verdict: Any, settings: GroundingSettings
) -> None:
    """The judge's verdict on a claim event (its explanation may quote content: not under
    `strip_content`)."""
    event[attr.CLAIM_EVENT_JUDGE_VERDICT] = verdict.verdict
    if verdict.explanation and not settings.strip_content:
        event[attr.CLAIM_EVENT_JUDGE_EXPLANATION] = verdict.explanation[: attr.CLAIM_EXCERPT_CHARS]


def _judged_claim_events(
    judgement: Judgement, result: GroundingResult, settings: GroundingSettings, room: int
) -> list[EventSpec]:
    """Claims the judge did not find supported that have no ungrounded-claim event (lexically
    grounded, or sentences the lexical contract does not see), within the events' cap."""
    if judgement.outcome != attr.JUDGE_OUTCOME_OK:
        return []
    grounded = {c.index for c in result.claims if c.grounded}
    events: list[EventSpec] = []
    pairs = zip(judgement.claim_indexes, judgement.verdicts, strict=False)
    for position, (index, verdict) in enumerate(pairs):
        if verdict.verdict == SUPPORTED or (index is not None and index not in grounded):
            continue
        if len(events) >= room:
            break
        event: dict[str, Any] = {} if index is None else {attr.CLAIM_EVENT_INDEX: index}
        if not settings.strip_content:
            event[attr.CLAIM_EVENT_EXCERPT] = judgement.claim_texts[position][
                : attr.CLAIM_EXCERPT_CHARS
            ]
        _judge_event_fields(event, verdict, settings)
        events.append(EventSpec(attr.JUDGED_CLAIM_EVENT, event))
    return events
