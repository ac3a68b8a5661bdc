"""Enrichment: a run's outcome as the attributes, events and metric recordings to add.

Pure of any span representation: the SDK shells and the relay apply the same `Enrichment`
each in their own types. This module is the only writer of `attributes` names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from otel_grounding import attributes as attr
from otel_grounding.config import GroundingSettings
from otel_grounding.grade import PARTIAL
from otel_grounding.metrics import LABEL_BELOW_THRESHOLD, LABEL_GRADE, GroundingMetrics
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

    @property
    def grade(self) -> str:
        return self.result.grade if self.result is not None else PARTIAL

    @property
    def below_threshold(self) -> bool:
        return self.result is not None and self.result.below_threshold


def build_enrichment(outcome: RunOutcome, settings: GroundingSettings) -> Enrichment:
    """The attributes (SPEC section 4), the audit event when flagged, and ungrounded-claim events."""
    result = outcome.result
    values: dict[str, Any] = {
        attr.GRADE: outcome.grade,
        attr.BELOW_THRESHOLD: outcome.below_threshold,
        attr.CLAIMS_TOTAL: result.claims_total if result else 0,
        attr.CLAIMS_GROUNDED: result.claims_grounded if result else 0,
        attr.CLAIMS_CHECKED: result.claims_checked if result else 0,
        attr.EVIDENCE_SOURCES: len(outcome.source_span_ids),
        attr.CONVENTION: outcome.convention,
    }
    if result is not None:
        values[attr.RATE] = result.rate
        if result.truncated_by:
            values[attr.TRUNCATED_BY] = result.truncated_by
        if settings.scoring.anchors.enabled:
            values[attr.CRITICAL_ANCHORS_TOTAL] = result.anchors_total
            values[attr.CRITICAL_ANCHORS_UNCOVERED] = result.critical_uncovered
    if outcome.threshold is not None:
        values[attr.THRESHOLD] = outcome.threshold
    if outcome.reasons:
        values[attr.COVERAGE_REASON] = ",".join(outcome.reasons)
    if outcome.project:
        values[attr.PROJECT] = outcome.project

    events: list[EventSpec] = []
    if result is not None and outcome.below_threshold:
        flagged: dict[str, Any] = {
            attr.FLAGGED_EVENT_RATE: result.rate,
            attr.FLAGGED_EVENT_THRESHOLD: outcome.threshold,
        }
        if outcome.project:
            flagged[attr.FLAGGED_EVENT_PROJECT] = outcome.project
        events.append(EventSpec(attr.FLAGGED_EVENT, flagged))
    if result is not None and settings.claim_events:
        for claim in result.ungrounded_claims(settings.max_claim_events):
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
            events.append(EventSpec(attr.CLAIM_EVENT, event))
    remove = frozenset(outcome.content_keys) if settings.strip_content else frozenset()
    return Enrichment(values, tuple(events), remove)


def record_metrics(metrics: GroundingMetrics, outcome: RunOutcome) -> None:
    """One run's metric recordings, with bounded labels."""
    labels = metrics.labels(outcome.project, outcome.service)
    flagged = outcome.below_threshold
    metrics.runs_scored.add(
        1,
        {**labels, LABEL_GRADE: outcome.grade, LABEL_BELOW_THRESHOLD: "true" if flagged else "false"},
    )
    if outcome.result is not None:
        metrics.rate.record(outcome.result.rate, labels)
    if flagged:
        metrics.runs_flagged.add(1, labels)
