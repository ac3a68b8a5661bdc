"""The plugin's metrics, through the OpenTelemetry metrics API (global or given MeterProvider).

Labels are bounded: project and service (capped at `max_project_labels` distinct values, the
rest reported as "other"), grade (seven values), flag (two) and eviction reason. Never run ids
or claim text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Protocol

from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Meter, MeterProvider, Observation

from otel_grounding.attributes import REASON_SCORING_OVERLOAD

METER_NAME = "otel_grounding"

RATE_HISTOGRAM = "ferrumdeck.reliability.claim_grounding_rate"
RUNS_SCORED = "ferrumdeck.reliability.runs_scored"
RUNS_FLAGGED = "ferrumdeck.reliability.runs_flagged"
RUNS_JUDGE_FLAGGED = "ferrumdeck.reliability.runs_judge_flagged"
RUNS_JUDGE_UNSUPPORTED = "ferrumdeck.reliability.runs_judge_unsupported"
SPANS_SEEN = "otel_grounding.spans_seen"
RUNS_SEEN = "otel_grounding.runs_seen"
TRACES_EVICTED = "otel_grounding.traces_evicted"
SCORING_ERRORS = "otel_grounding.scoring_errors"
SCORING_DURATION = "otel_grounding.scoring_duration"
RUNS_OVERLOADED = "otel_grounding.runs_overloaded"
JUDGEMENTS = "otel_grounding.judge.judgements"
JUDGE_DURATION = "otel_grounding.judge.duration"
JUDGE_PENDING = "otel_grounding.judge.pending"
JUDGE_BUDGET_REFUSALS = "otel_grounding.judge.budget_refusals"

LABEL_PROJECT = "project"
LABEL_SERVICE = "service"
LABEL_GRADE = "grade"
LABEL_BELOW_THRESHOLD = "below_threshold"
LABEL_REASON = "reason"
LABEL_OUTCOME = "outcome"
LABEL_KIND = "kind"
#: The `kind` a claim not supported counts under when its verdict names none (a judge that does
#: not say: `openai`, `similarity`, a third-party one).
KIND_UNSPECIFIED = "unspecified"
OTHER = "other"
UNKNOWN = "unknown"

#: Rate histogram buckets: tenths, so alerts and dashboards can read "share of runs below 0.7".
RATE_BUCKETS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
DURATION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
#: Judge calls take model time: buckets up to the default judge_timeout and beyond.
JUDGE_DURATION_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class RunRecord(Protocol):
    """What a run's metric recordings read of its outcome (`enrichment.RunOutcome`)."""

    @property
    def project(self) -> str | None: ...

    @property
    def service(self) -> str | None: ...

    @property
    def grade(self) -> str: ...

    @property
    def rate(self) -> float | None: ...

    @property
    def below_threshold(self) -> bool: ...

    @property
    def judge_below_threshold(self) -> bool: ...

    @property
    def judge_unsupported(self) -> tuple[tuple[str, ...], ...]: ...

    @property
    def reasons(self) -> tuple[str, ...]: ...


class _LabelCap:
    """Keeps at most `limit` distinct label values; later newcomers read as "other"."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, value: str | None) -> str:
        if not value:
            return UNKNOWN
        if value in self._seen:
            return value
        with self._lock:
            if len(self._seen) < self._limit:
                self._seen.add(value)
                return value
        return OTHER


class Tally:
    """A monotonic counter kept in process and reported through an observable counter.

    Same `add(amount, attributes)` as a synchronous counter and the same exported sum, but an
    add is a dict update under a lock (well under a microsecond) instead of an SDK measurement
    (several microseconds each, measured): counters on the per-run and per-request paths use it.
    """

    def __init__(self, meter: Meter, name: str, *, unit: str, description: str) -> None:
        self._lock = threading.Lock()
        self._totals: dict[tuple[tuple[str, str], ...], int] = {}
        meter.create_observable_counter(
            name, callbacks=[self._observe], unit=unit, description=description
        )

    def add(self, amount: int, attributes: Mapping[str, str] | None = None) -> None:
        key = tuple(sorted(attributes.items())) if attributes else ()
        with self._lock:
            self._totals[key] = self._totals.get(key, 0) + amount

    def total(self) -> int:
        """The sum over every label set (what a metrics reader's total of it would say)."""
        with self._lock:
            return sum(self._totals.values())

    def _observe(self, options: CallbackOptions) -> list[Observation]:
        with self._lock:
            totals = list(self._totals.items())
        return [Observation(total, dict(key)) for key, total in totals]


class GroundingMetrics:
    """The instruments, created once per pipeline."""

    def __init__(
        self,
        meter_provider: MeterProvider | None = None,
        max_labels: int = 100,
        spans_seen: Callable[[], int] = lambda: 0,
    ) -> None:
        meter = (
            meter_provider.get_meter(METER_NAME)
            if meter_provider is not None
            else metrics.get_meter(METER_NAME)
        )
        #: A no-op provider (`score-traces`) exports nothing: a run's recordings, which no
        #: reader would ever collect, are skipped (the tallies' `total()` still counts the rest).
        self._records_runs = not isinstance(meter_provider, metrics.NoOpMeterProvider)
        self._projects = _LabelCap(max_labels)
        self._services = _LabelCap(max_labels)
        self.rate = meter.create_histogram(
            RATE_HISTOGRAM,
            unit="1",
            description="Claim grounding rate of scored agent runs",
            explicit_bucket_boundaries_advisory=list(RATE_BUCKETS),
        )
        self.runs_scored = Tally(
            meter,
            RUNS_SCORED,
            unit="{run}",
            description="Agent runs graded, by coverage grade and flag",
        )
        self.runs_flagged = Tally(
            meter,
            RUNS_FLAGGED,
            unit="{run}",
            description="Agent runs below their grounding threshold",
        )
        self.runs_judge_flagged = Tally(
            meter,
            RUNS_JUDGE_FLAGGED,
            unit="{run}",
            description="Agent runs whose judge rate is below the judge's threshold",
        )
        self.runs_judge_unsupported = Tally(
            meter,
            RUNS_JUDGE_UNSUPPORTED,
            unit="{run}",
            description="Judged runs with a claim the judge did not find supported, by the kind "
            "of reason it rests on (a run counts once under each of its kinds)",
        )
        self._spans_seen = spans_seen
        meter.create_observable_counter(
            SPANS_SEEN,
            callbacks=[self._observe_spans_seen],
            unit="{span}",
            description="Spans that entered the grounding pipeline",
        )
        self.runs_seen = Tally(
            meter, RUNS_SEEN, unit="{run}", description="Run-completion spans recognised"
        )
        self.traces_evicted = Tally(
            meter,
            TRACES_EVICTED,
            unit="{trace}",
            description="Buffered traces evicted before their run ended, by reason",
        )
        self.scoring_errors = Tally(
            meter,
            SCORING_ERRORS,
            unit="{run}",
            description="Runs whose scoring raised (graded partial)",
        )
        self.runs_overloaded = Tally(
            meter,
            RUNS_OVERLOADED,
            unit="{run}",
            description="Runs forwarded unscored because the scoring worker was full",
        )
        self.scoring_duration = meter.create_histogram(
            SCORING_DURATION,
            unit="s",
            description="Time spent scoring one run",
            explicit_bucket_boundaries_advisory=list(DURATION_BUCKETS),
        )

        self.judgements = Tally(
            meter,
            JUDGEMENTS,
            unit="{run}",
            description="Runs offered to the judge tier, by judge outcome and reason",
        )
        self.judge_budget_refusals = Tally(
            meter,
            JUDGE_BUDGET_REFUSALS,
            unit="{run}",
            description="Runs the judge declined because judge_rate_per_minute was spent",
        )
        self.judge_duration = meter.create_histogram(
            JUDGE_DURATION,
            unit="s",
            description="Time one judge call took",
            explicit_bucket_boundaries_advisory=list(JUDGE_DURATION_BUCKETS),
        )
        self._judge_pending: Callable[[], int] | None = None
        meter.create_observable_gauge(
            JUDGE_PENDING,
            callbacks=[self._observe_judge_pending],
            unit="{run}",
            description="Runs admitted by the judge tier and not yet settled",
        )

    def record_run(self, outcome: RunRecord) -> None:
        """One graded run's recordings, with bounded labels: the one place a run is counted."""
        if not self._records_runs:
            return
        labels = self.labels(outcome.project, outcome.service)
        flagged = outcome.below_threshold
        self.runs_scored.add(
            1,
            {
                **labels,
                LABEL_GRADE: outcome.grade,
                LABEL_BELOW_THRESHOLD: "true" if flagged else "false",
            },
        )
        rate = outcome.rate
        if rate is not None:
            self.rate.record(rate, labels)
        if flagged:
            self.runs_flagged.add(1, labels)
        if outcome.judge_below_threshold:
            self.runs_judge_flagged.add(1, labels)
        unsupported = outcome.judge_unsupported
        if unsupported:
            for kind in sorted({k for kinds in unsupported for k in kinds or (KIND_UNSPECIFIED,)}):
                self.runs_judge_unsupported.add(1, {**labels, LABEL_KIND: kind})
        if REASON_SCORING_OVERLOAD in outcome.reasons:
            self.runs_overloaded.add(1)

    def count_eviction(self, reason: str) -> None:
        """A store evicted a trace's state (or part of it) for this reason."""
        self.traces_evicted.add(1, {LABEL_REASON: reason})

    def count_error(self) -> None:
        """An internal error (for `internal_error`): the span went on unchanged or partial."""
        self.scoring_errors.add(1)

    def observe_judge_pending(self, pending: Callable[[], int]) -> None:
        """The judge tier's pending depth, reported by the gauge."""
        self._judge_pending = pending

    def _observe_judge_pending(self, options: CallbackOptions) -> list[Observation]:
        return [] if self._judge_pending is None else [Observation(self._judge_pending())]

    def _observe_spans_seen(self, options: CallbackOptions) -> list[Observation]:
        return [Observation(self._spans_seen())]

    def labels(self, project: str | None, service: str | None) -> dict[str, str]:
        return {LABEL_PROJECT: self._projects(project), LABEL_SERVICE: self._services(service)}
