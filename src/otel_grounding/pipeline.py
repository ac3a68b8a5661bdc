"""The one enrichment path every shell uses: span view in, `Enrichment` (or nothing) out.

read the span (conventions) -> remember or collect evidence (assembly) -> score (core) ->
attributes, events and metrics (enrichment). Never raises: a failure becomes a grade and a
counter, and the span goes on unchanged.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from opentelemetry.metrics import MeterProvider

from otel_grounding import attributes as attr
from otel_grounding.assembly import Evidence, TraceAssembly
from otel_grounding.config import (
    DEFAULT_PROCESSOR_WAIT_S,
    SCORING_INLINE,
    ConfigError,
    GroundingSettings,
    load_settings,
)
from otel_grounding.conventions import DEFAULT_CONVENTIONS, RUN, Convention, SpanReading, read_span
from otel_grounding.conventions.base import read_implicit_run
from otel_grounding.enrichment import Enrichment, RunOutcome, build_enrichment, record_metrics
from otel_grounding.evaluation import EvaluationEvents
from otel_grounding.judge import Judge, load_judge
from otel_grounding.judgetier import Judgement, JudgeTier
from otel_grounding.metrics import LABEL_REASON, GroundingMetrics
from otel_grounding.scoring import score
from otel_grounding.spanview import SpanView

logger = logging.getLogger("otel_grounding")

SERVICE_NAME = "service.name"

#: Values longer than this are content, not what a span is: left out when reading a start.
START_VALUE_CHARS = 256

#: `process()` without a reading reads the span itself.
_UNREAD: Any = object()


class GroundingPipeline:
    """Conventions, trace assembly, scoring and enrichment, wired once per shell."""

    def __init__(
        self,
        settings: GroundingSettings,
        *,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        meter_provider: MeterProvider | None = None,
        trace_retention: float | None = None,
        link_all: bool = False,
        judge: Judge | None = None,
        logger_provider: Any | None = None,
    ) -> None:
        """`trace_retention` is how long an idle trace's state is kept (default: the settings'
        `wait_duration`, else `DEFAULT_PROCESSOR_WAIT_S`); `link_all` remembers every span's parent link, even before the trace
        holds any output. A shell that sees spans out of order (the relay) sets both.
        `judge` turns the judge tier on (for `finish_run_later`); `logger_provider` receives
        the evaluation events (default: the global one).
        """
        self.settings = settings
        self._conventions = tuple(conventions)
        self._markers = frozenset().union(*(c.markers for c in self._conventions))
        self._seen = itertools.count()  # next() is atomic: no lock on the hot path
        self.metrics = GroundingMetrics(
            meter_provider, settings.max_project_labels, spans_seen=self.spans_seen
        )
        self.assembly = TraceAssembly(
            num_traces=settings.num_traces,
            max_spans_per_trace=settings.max_spans_per_trace,
            max_bytes=settings.max_buffer_bytes,
            wait_duration=(
                trace_retention
                if trace_retention is not None
                else settings.wait_duration or DEFAULT_PROCESSOR_WAIT_S
            ),
            on_evict=lambda reason: self.metrics.traces_evicted.add(1, {LABEL_REASON: reason}),
            link_all=link_all,
        )
        self._warned = False
        # A local root is an implicit run only where it ends after its trace's local spans
        # (the SDK shells); the relay sees a trace's spans in any order and holds only the
        # spans an adapter reads as runs.
        self._implicit_runs = not link_all
        #: The scoring function; a shell may put a `ProcessScorer` here (same signature).
        self.scorer: Any = score
        self.judges = (
            JudgeTier(judge, settings.judge, self.metrics) if judge is not None else None
        )
        self.evaluations = EvaluationEvents(logger_provider)

    @classmethod
    def configure(
        cls,
        *,
        settings: GroundingSettings | None = None,
        settings_file: str | None = None,
        meter_provider: MeterProvider | None = None,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        logger_provider: Any | None = None,
        **options: Any,
    ) -> GroundingPipeline:
        """Build from explicit settings, or from options over the environment and settings file.

        Options left at None are not given: the environment or the file may set them. The
        `judge` option is a judge's entry-point name or a `Judge` object.
        """
        judge_object = options.get("judge")
        if judge_object is not None and not isinstance(judge_object, str):
            del options["judge"]
        else:
            judge_object = None
        if settings is None:
            given = {key: value for key, value in options.items() if value is not None}
            settings = load_settings(given, settings_file=settings_file)
        elif options:
            raise ConfigError(f"{sorted(options)[0]}: give either settings or options, not both")
        judge = None
        if judge_object is not None or settings.judge.name is not None:
            judge = load_judge(judge_object or settings.judge.name, settings.judge)  # type: ignore[arg-type]
        return cls(
            settings,
            conventions=conventions,
            meter_provider=meter_provider,
            judge=judge,
            logger_provider=logger_provider,
        )

    def spans_seen(self) -> int:
        """How many spans entered this pipeline (read from the lock-free counter's repr)."""
        return int(repr(self._seen)[6:-1])

    @property
    def conventions(self) -> tuple[Convention, ...]:
        return self._conventions

    def read(self, span: SpanView) -> SpanReading | None:
        """What the conventions read of this span (None: of no interest). Never raises.

        Lets a shell decide before processing (the relay holds run spans back); hand the
        reading to `process(span, reading=...)` so that the span is not read twice.
        """
        try:
            return self._read(span)
        except Exception:
            self._unreadable()
            return None

    def _read(self, span: SpanView) -> SpanReading | None:
        """The conventions' reading; a local root none reads may be its trace's implicit run."""
        reading = read_span(span, self._conventions)
        if (
            reading is None
            and span.local_root
            and self._implicit_runs
            and self.assembly.implicit_run(span)
        ):
            return read_implicit_run(span, self._conventions)
        return reading

    def skips(self, trace_id: int, attribute_keys: Iterable[str]) -> bool:
        """True for a span no convention can read, in a trace with nothing buffered.

        The shells ask this first, so that ordinary spans cost a set test and a dict look-up.
        """
        if self._markers.isdisjoint(attribute_keys) and not self.assembly.holds(trace_id):
            next(self._seen)
            return True
        return False

    def conventions_may_read(self, attribute_keys: Iterable[str]) -> bool:
        """Whether any convention could read a span with these attribute keys."""
        return not self._markers.isdisjoint(attribute_keys)

    def process(self, span: SpanView, *, reading: Any = _UNREAD) -> Enrichment | None:
        """The enrichment for this span, or None to forward it unchanged. Never raises.

        A run span is graded at once (`begin_run` then `finish_run`); a shell that grades
        runs elsewhere (a worker) calls those two itself, and `observe` for other spans.
        """
        next(self._seen)
        try:
            if reading is _UNREAD:
                reading = self._read(span)
            if reading is None or reading.role != RUN:
                return self._observe(span, reading)
            self._begin(span, reading)
            return self._finish(span, reading)
        except Exception:
            self._unreadable()
            return None

    def observe(self, span: SpanView, reading: SpanReading | None) -> Enrichment | None:
        """A non-run span (its reading from `read`) ended: remember what runs will need."""
        next(self._seen)
        try:
            return self._observe(span, reading)
        except Exception:
            self._unreadable()
            return None

    def started(self, span: SpanView) -> None:
        """A span started (shells that see starts): runs ending before it can wait for it.

        Only what the span is matters here, not its text: long values are left out of the
        reading, so that a step started with its output already set is not read twice.
        """
        try:
            reading = None
            if not self._markers.isdisjoint(span.attributes):
                short = {
                    k: v
                    for k, v in span.attributes.items()
                    if not (isinstance(v, str) and len(v) > START_VALUE_CHARS)
                }
                reading = self.read(span._replace(attributes=short))
            self.assembly.start(span, reading)
        except Exception:
            self._unreadable()

    def begin_run(self, span: SpanView, reading: SpanReading) -> None:
        """A run span ended: register it now (in order with the other spans); grade it later
        with `finish_run` (or `refuse_run`), exactly once."""
        next(self._seen)
        try:
            self._begin(span, reading)
        except Exception:
            self._unreadable()

    def waits(self, span: SpanView, reading: SpanReading | None = None) -> bool:
        """Whether a begun run still has started steps below it that have not ended, or
        (given its reading) has no answer of its own and none from a step under it yet."""
        try:
            if self.assembly.open_children(span):
                return True
            return (
                reading is not None
                and _answerless(reading)
                and self.assembly.awaits_answer(span, reading)
            )
        except Exception:
            return False

    def finish_run(self, span: SpanView, reading: SpanReading) -> Enrichment | None:
        """Grade a begun run: the enrichment for its span, or None to forward it unchanged."""
        try:
            return self._finish(span, reading)
        except Exception:
            self._unreadable()
            return None

    def finish_run_later(
        self,
        span: SpanView,
        reading: SpanReading,
        deliver: Callable[[Enrichment | None], None],
    ) -> None:
        """Grade a begun run, with the judge tier when there is one: `deliver` gets the
        enrichment exactly once, now or (judged) later from a judge thread. Never raises."""
        try:
            assessed = self._assess(span, reading)
        except Exception:
            self._unreadable()
            assessed = None
        if assessed is None:
            deliver(None)
            return
        outcome, output, sources = assessed
        if output is not None:
            output = output[: self.settings.scoring.max_output_chars]
        tier = self.judges
        if tier is None:
            self._settle(outcome, span, deliver)
            return

        def judged(judgement: Judgement) -> None:
            self._settle(dataclasses.replace(outcome, judgement=judgement), span, deliver)

        try:
            now = tier.offer(
                outcome.result, output, sources, outcome.source_span_ids, span.trace_id, judged
            )
        except Exception:
            self._unreadable()
            now = None
            self._settle(outcome, span, deliver)
            return
        if now is not None:
            judged(now)

    def _settle(
        self, outcome: RunOutcome, span: SpanView, deliver: Callable[[Enrichment | None], None]
    ) -> None:
        try:
            enrichment: Enrichment | None = self._conclude(outcome, span)
        except Exception:
            self._unreadable()
            enrichment = None
        deliver(enrichment)

    def flush_judges(self, timeout: float) -> bool:
        """Wait for the runs being judged (the rest settle as `judge-timeout` at the deadline)."""
        return self.judges.flush(timeout) if self.judges is not None else True

    def shutdown_judges(self, timeout: float) -> bool:
        return self.judges.shutdown(timeout) if self.judges is not None else True

    def refuse_run(self, span: SpanView, reading: SpanReading, reason: str) -> Enrichment:
        """Grade a begun run without scoring it (`partial`, `reason`, no rate, never flagged)."""
        try:
            self.assembly.take(span, reading)
        except Exception:
            self._unreadable()
        if reason == attr.REASON_SCORING_OVERLOAD:
            self.metrics.runs_overloaded.add(1)
        project = self._project(span, reading)
        outcome = RunOutcome(
            result=None,
            reasons=(reason,),
            threshold=self.settings.threshold_for(project),
            project=project,
            service=_str(span.resource.get(SERVICE_NAME)),
            convention=reading.convention,
            content_keys=reading.content_keys,
        )
        record_metrics(self.metrics, outcome)
        return build_enrichment(outcome, self.settings)

    def _observe(self, span: SpanView, reading: SpanReading | None) -> Enrichment | None:
        self.assembly.observe(span, reading)
        if reading is not None and self.settings.strip_content and reading.content_keys:
            return Enrichment(remove=frozenset(reading.content_keys))
        return None

    def _begin(self, span: SpanView, reading: SpanReading) -> None:
        self.metrics.runs_seen.add(1)
        self.assembly.begin_run(span, reading)

    def _unreadable(self) -> None:
        """Count a span the pipeline could not handle; log the first one with its traceback."""
        self.metrics.scoring_errors.add(1)
        if not self._warned:
            self._warned = True
            logger.exception("otel-grounding: a span could not be read; forwarded unchanged")

    def _finish(self, span: SpanView, reading: SpanReading) -> Enrichment | None:
        assessed = self._assess(span, reading)
        return None if assessed is None else self._conclude(assessed[0], span)

    def _conclude(self, outcome: RunOutcome, span: SpanView) -> Enrichment:
        """A graded run's metric recordings, evaluation events and enrichment."""
        record_metrics(self.metrics, outcome)
        self.evaluations.emit(outcome, span.trace_id, span.span_id)
        return build_enrichment(outcome, self.settings)

    def _assess(
        self, span: SpanView, reading: SpanReading
    ) -> tuple[RunOutcome, str | None, list[str]] | None:
        """The lexical outcome of a begun run, with the output and evidence it was scored on
        (None: not graded, the same agent's run inside or around this one was)."""
        if _answerless(reading) and self.assembly.pass_over(span, reading):
            return None  # the same logical run around this one is graded in its place
        evidence = self.assembly.take(span, reading)
        attached = [s for s in reading.attached_sources if s is not None]
        own_output = None if reading.redacted else reading.text
        graded_nested = evidence.graded_inner_run or evidence.graded_outer_run
        if own_output is None and not attached and graded_nested:
            return None  # the same agent's run inside (or around) this one was graded: not twice
        output, output_cut = own_output, reading.truncated
        if output is None and evidence.last_llm_text is not None:
            output, output_cut = evidence.last_llm_text, evidence.last_llm_truncated

        unseen = evidence_unseen(reading, evidence)
        reasons = _reasons(reading, evidence, output is None, output_cut, unseen)
        project = self._project(span, reading)
        threshold = self.settings.threshold_for(project)
        sources = attached + list(evidence.sources)
        source_span_ids: tuple[int | None, ...] = (None,) * len(attached) + evidence.source_span_ids
        result = None
        # Evidence known to exist but gone (evicted, or steps still open) and none left to
        # read: a rate would be one over nothing, so none is written (and nothing flagged).
        gone = (evidence.lost or evidence.open_tool_steps) and not sources
        if output is not None and not unseen and not gone:
            started = time.perf_counter()
            try:
                result = self.scorer(
                    output,
                    sources,
                    threshold=threshold,
                    options=self.settings.scoring,
                    evidence_incomplete=bool(reasons),
                )
            except Exception:
                self.metrics.scoring_errors.add(1)
                logger.exception("otel-grounding: scoring a run failed; graded partial")
                reasons = (*reasons, attr.REASON_SCORING_ERROR)
            self.metrics.scoring_duration.record(time.perf_counter() - started)
        outcome = RunOutcome(
            result=result,
            reasons=reasons,
            threshold=threshold,
            project=project,
            service=_str(span.resource.get(SERVICE_NAME)),
            convention=reading.convention,
            source_span_ids=source_span_ids,
            content_keys=reading.content_keys,
        )
        return outcome, output, sources

    def _project(self, span: SpanView, reading: SpanReading) -> str | None:
        if reading.project:
            return reading.project
        key = self.settings.project_attribute
        return _str(span.attributes.get(key)) or _str(span.resource.get(key))

    def expire(self) -> None:
        self.assembly.expire()

    def close(self) -> None:
        self.assembly.clear()


def check_judge_mode(pipeline: GroundingPipeline) -> None:
    """A judge never runs on the application's thread: it needs the scoring worker."""
    if pipeline.judges is not None and pipeline.settings.scoring_mode == SCORING_INLINE:
        raise ConfigError("judge: needs scoring_mode 'background' (a judge never runs inline)")


def _answerless(reading: SpanReading) -> bool:
    """A run span with no answer and no evidence of its own."""
    return (reading.redacted or reading.text is None) and not reading.attached_sources


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _reasons(
    reading: SpanReading,
    evidence: Evidence,
    output_missing: bool,
    output_cut: bool,
    unseen: bool,
) -> tuple[str, ...]:
    """Why coverage is short, most telling first; empty when nothing is known to be missing."""
    reasons = []
    if output_missing:
        reasons.append(attr.REASON_OUTPUT_UNAVAILABLE)
    if output_cut:
        reasons.append(attr.REASON_OUTPUT_TRUNCATED)
    missing = evidence.tool_calls_unread + sum(1 for s in reading.attached_sources if s is None)
    if missing or unseen:
        reasons.append(attr.REASON_EVIDENCE_UNAVAILABLE)
    if evidence.truncated or reading.attached_truncated:
        reasons.append(attr.REASON_EVIDENCE_TRUNCATED)
    found = max(evidence.tool_steps_found, evidence.tool_calls) + len(reading.attached_sources)
    declared = reading.declared_tool_steps is not None and reading.declared_tool_steps > found
    if declared or evidence.open_tool_steps:
        reasons.append(attr.REASON_TOOL_STEPS_MISSING)
    if reading.declared_tool_steps_unreadable:
        reasons.append(attr.REASON_TOOL_STEPS_UNREADABLE)
    if evidence.lost:
        reasons.append(attr.REASON_EVIDENCE_EVICTED)
    return tuple(reasons)


def evidence_unseen(reading: SpanReading, evidence: Evidence) -> bool:
    """True when the run used tools, or may have, and not one tool output could be read.

    Then no rate is written and the run is never flagged (docs/contract.md, section 3): a 0.0
    over evidence nobody could see is as false as a 1.0 over an answer nobody could see. "May
    have": tools were available to the agent and no LLM step's output was read, so a tool call
    would not have been visible. A run whose LLM steps were read and asked for no tool really used none.
    """
    if evidence.sources or any(s is not None for s in reading.attached_sources):
        return False
    if evidence.lost and not evidence.tool_calls_unread:
        return False  # the outputs were there and were evicted: `evidence-evicted` says so
    declared_steps = reading.declared_tool_steps or 0
    if evidence.tool_calls or reading.attached_sources or declared_steps > 0:
        return True
    return (reading.tools_declared or evidence.tools_declared) and not evidence.llm_steps_read
