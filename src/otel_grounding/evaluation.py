"""The GenAI semantic conventions' `gen_ai.evaluation.result` event (v1.38.0), beside our
attributes.

One log record per evaluation of a run — the lexical claim grounding rate, and the judge's rate
when a judge was asked — parented to the run span (its trace and span id), through the given
`LoggerProvider` or the global one (nothing is emitted while neither is set).
"""

from __future__ import annotations

import time
from typing import Any

from opentelemetry import _logs
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags, set_span_in_context

from otel_grounding import attributes as attr
from otel_grounding.enrichment import RunOutcome
from otel_grounding.internal_error import internal_error

LOGGER_NAME = "otel_grounding"


class EvaluationEvents:
    """Emits the evaluation events of graded runs."""

    def __init__(self, logger_provider: Any | None = None) -> None:
        """A `NoOpLoggerProvider` given turns the events off (nothing is built for them)."""
        provider = logger_provider if logger_provider is not None else _logs.get_logger_provider()
        logger = provider.get_logger(LOGGER_NAME)
        self._logger = None if isinstance(logger, _logs.NoOpLogger) else logger

    def emit(self, outcome: RunOutcome, trace_id: int, span_id: int) -> None:
        """The run's evaluation events. A failure is an internal error (the events' own
        boundary: the run's grade on its span does not depend on its log records)."""
        if self._logger is None:
            return
        try:
            context = set_span_in_context(
                NonRecordingSpan(
                    SpanContext(trace_id, span_id, is_remote=False, trace_flags=TraceFlags(1))
                )
            )
            now = time.time_ns()
            for attributes in evaluations(outcome):
                self._logger.emit(
                    timestamp=now,
                    context=context,
                    event_name=attr.EVALUATION_EVENT,
                    attributes=attributes,
                )
        except Exception:
            internal_error("evaluation events")


def evaluations(outcome: RunOutcome) -> list[dict[str, Any]]:
    """The attributes of each evaluation event of one run (lexical first, then the judge)."""
    result = outcome.result
    grade = outcome.grade
    lexical: dict[str, Any] = {
        attr.EVALUATION_NAME: attr.EVALUATION_LEXICAL,
        attr.EVALUATION_SCORE_LABEL: grade,
    }
    if result is not None:
        lexical[attr.EVALUATION_SCORE_VALUE] = result.rate
        lexical[attr.EVALUATION_EXPLANATION] = (
            f"{result.claims_grounded} of {result.claims_checked} checked claims grounded "
            f"({result.claims_total} claims)"
        )
    else:
        lexical[attr.EVALUATION_EXPLANATION] = "not scored: " + (
            ",".join(outcome.reasons) or "no output"
        )
        if attr.REASON_SCORING_ERROR in outcome.reasons:
            lexical[attr.EVALUATION_ERROR_TYPE] = attr.REASON_SCORING_ERROR
    events = [lexical]
    judgement = outcome.judgement
    if judgement is None or judgement.outcome == attr.JUDGE_OUTCOME_SKIPPED:
        return events
    judged: dict[str, Any] = {
        attr.EVALUATION_NAME: attr.EVALUATION_JUDGE,
        attr.EVALUATION_SCORE_LABEL: grade,
    }
    if judgement.outcome == attr.JUDGE_OUTCOME_OK:
        judged[attr.EVALUATION_SCORE_VALUE] = judgement.rate
        judged[attr.EVALUATION_EXPLANATION] = (
            f"{judgement.supported} of {len(judgement.verdicts)} claims supported, "
            f"{judgement.contradicted} contradicted ({judgement.name})"
        )
    else:
        judged[attr.EVALUATION_EXPLANATION] = f"judge {judgement.outcome}: {judgement.reason}"
        judged[attr.EVALUATION_ERROR_TYPE] = judgement.error_type or judgement.reason or "unknown"
    events.append(judged)
    return events
