"""The one enrichment path every shell uses: span view in, `Enrichment` (or nothing) out.

read the span (conventions) -> remember or collect evidence (the store) -> score (core) ->
attributes, events and metrics (enrichment). Never raises: a failure becomes a grade and a
counter (`internal_error`), and the span goes on unchanged.

The public surface, the same for every shell (none of it is shell-specific):

- `read(span)` -> the conventions' reading, or None (of no interest);
- `started(span)`: a span started (shells that see starts);
- `observe(span, reading)`: a non-run span ended -> an `Enrichment` (content stripped) or None;
- `grade_run(span, reading)`: a run span ended and is graded now -> `Enrichment` or None
  (None: not graded, the same logical run around or inside it is);
- or, where grading happens later (a worker, a judge): `begin_run(span, reading)` when it
  ended, `hand_over(span, reading)` when it goes to a worker (it takes its evidence then,
  where the store can), `waits(span, reading)` while steps under it may still end, then
  exactly one of
  `finish_run(span, reading)`, `finish_run_later(span, reading, deliver)` or
  `refuse_run(span, reading, reason)` (the SDK shells' `runs.BegunRun` enforces it);
- `process(span)`: `read` then `observe` or `grade_run`, for a shell with nothing to decide;
- `judges`: the judge tier (None without a judge), for its name and pending depth;
  `flush_judges(timeout)` / `shutdown_judges(timeout)` settle what it holds;
- before reading a span: `markers` (the attribute keys any convention reads) and
  `skips(trace_id, keys)` (a span of no interest in a trace holding no state: forwarded as it
  is, nothing kept, counted), or `skip_test`, the same as C callables for a shell's hot
  path; `graded_before(span)` for a reader that may see a run twice;
- `settings` (what it was configured with), `conventions` (the adapters, in order),
  `metrics` (its instruments, which shells count into), `expire()` (idle traces out, for a
  shell without spans arriving), `close()` at shutdown.

A shell gives the pipeline its store (`store.TraceStore`): `store.InProcessStore` by default,
`relay.unordered.UnorderedStore` where spans arrive in any order. A shell that needs its store's
own calls (the relay's link batches) keeps its own reference to it.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from opentelemetry.metrics import MeterProvider

from otel_grounding import attributes as attr
from otel_grounding.config import (
    SCORING_INLINE,
    ConfigError,
    GroundingSettings,
    ScoringOptions,
    load_settings,
)
from otel_grounding.conventions import DEFAULT_CONVENTIONS, RUN, Convention, SpanReading, read_span
from otel_grounding.conventions.base import read_implicit_run
from otel_grounding.enrichment import Enrichment, RunOutcome, build_enrichment, stripped
from otel_grounding.evaluation import EvaluationEvents
from otel_grounding.internal_error import internal_error
from otel_grounding.judge import Judge, load_judge
from otel_grounding.judgetier import Judgement, JudgeTier
from otel_grounding.metrics import GroundingMetrics
from otel_grounding.run_ownership import answerless
from otel_grounding.scoring import GroundingResult, score
from otel_grounding.spanview import SpanView
from otel_grounding.store import InProcessStore, TraceStore
from otel_grounding.trace_records import Evidence

SERVICE_NAME = "service.name"

#: Values longer than this are content, not what a span is: left out when reading a start.
START_VALUE_CHARS = 256
#: Graded runs whose enrichment is remembered (the most recent ones), so that the same run span
#: delivered again (same trace and span id: OTLP delivery is at least once) gets the same
#: enrichment, counted once, rather than being graded a second time over evidence it
#: already took.
RUNS_REMEMBERED = 512


class Scorer(Protocol):
    """What grades an answer against its evidence: `scoring.score`, or a
    `scoring_process.ProcessScorer` (the same call, computed in a child process)."""

    def __call__(
        self,
        output: str,
        sources: Sequence[str],
        *,
        threshold: float | None,
        options: ScoringOptions,
        evidence_incomplete: bool,
    ) -> GroundingResult: ...


@dataclasses.dataclass(frozen=True)
class SkipTest:
    """`GroundingPipeline.skips` as C callables: a span is skipped when `unmarked(its
    attribute keys)` and not `holds(its trace id)`, and then counted with `next(seen)`."""

    unmarked: Callable[[Iterable[str]], bool]
    holds: Callable[[int], bool]
    seen: Iterator[int]


class GroundingPipeline:
    """Conventions, a trace store, scoring and enrichment, wired once per shell."""

    def __init__(
        self,
        settings: GroundingSettings,
        *,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        meter_provider: MeterProvider | None = None,
        store: TraceStore | None = None,
        judge: Judge | None = None,
        logger_provider: Any | None = None,
        scorer: Scorer = score,
    ) -> None:
        """`store` holds the traces' state (default: an `InProcessStore` from the settings);
        the pipeline counts its evictions. `judge` turns the judge tier on (for
        `finish_run_later`); `logger_provider` receives the evaluation events (default: the
        global one); `scorer` grades the runs (default: `score`, in this thread).
        """
        self.settings = settings
        self._conventions = tuple(conventions)
        self._markers = frozenset().union(*(c.markers for c in self._conventions))
        self._seen = itertools.count()  # next() is atomic: no lock on the hot path
        self.metrics = GroundingMetrics(
            meter_provider, settings.max_project_labels, spans_seen=self.spans_seen
        )
        #: The traces' state (read it to inspect; shells go through the pipeline's calls).
        self.store: TraceStore = store if store is not None else InProcessStore.from_settings(
            settings
        )
        self.store.on_evict = self.metrics.count_eviction
        #: `skips` unrolled into C callables (a shell's hot path: no Python frame of ours).
        self.skip_test = SkipTest(self._markers.isdisjoint, self.store.holds, self._seen)
        #: The scoring function, fixed for the pipeline's life.
        self.scorer: Scorer = scorer
        self.judges = (
            JudgeTier(judge, settings.judge, self.metrics) if judge is not None else None
        )
        self.evaluations = EvaluationEvents(logger_provider)
        self._graded: OrderedDict[tuple[int, int], Enrichment | None] = OrderedDict()
        self._graded_lock = threading.Lock()

    @classmethod
    def configure(
        cls,
        *,
        settings: GroundingSettings | None = None,
        settings_file: str | None = None,
        meter_provider: MeterProvider | None = None,
        conventions: Sequence[Convention] = DEFAULT_CONVENTIONS,
        logger_provider: Any | None = None,
        scorer_for: Callable[[GroundingSettings], Scorer] | None = None,
        **options: Any,
    ) -> GroundingPipeline:
        """Build from explicit settings, or from options over the environment and settings file.

        Options left at None are not given: the environment or the file may set them. The
        `judge` option is a judge's entry-point name or a `Judge` object. `scorer_for` picks
        the scorer once the settings are known (default: `score`).
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
            scorer=score if scorer_for is None else scorer_for(settings),
        )

    def spans_seen(self) -> int:
        """How many spans entered this pipeline (read from the lock-free counter's repr)."""
        return int(repr(self._seen)[6:-1])

    @property
    def conventions(self) -> tuple[Convention, ...]:
        return self._conventions

    @property
    def markers(self) -> frozenset[str]:
        """The attribute keys by which some convention may read a span."""
        return self._markers

    # -- reading ------------------------------------------------------------------------------
    def read(self, span: SpanView) -> SpanReading | None:
        """What the conventions read of this span (None: of no interest). Never raises.

        Lets a shell decide before handing the span on (the relay holds run spans back, the
        SDK shells grade runs on a worker); the reading then goes with the span, read once.
        A local root none reads may be its trace's implicit run (stores that see local roots
        end after their spans only).
        """
        try:
            reading = read_span(span, self._conventions)
            if reading is None and span.local_root and self.store.implicit_run(span):
                return read_implicit_run(span, self._conventions)
            return reading
        except Exception:
            internal_error("pipeline.read", self.metrics.count_error)
            return None

    def skips(self, trace_id: int, attribute_keys: Iterable[str]) -> bool:
        """True (and counted) for a span no convention can read, in a trace with nothing
        buffered: the shells ask this first, so that ordinary spans cost a set test and a dict
        look-up. `skip_test` is the same test as C calls, for a shell's hot path."""
        if self._markers.isdisjoint(attribute_keys) and not self.store.holds(trace_id):
            next(self._seen)
            return True
        return False

    def conventions_may_read(self, attribute_keys: Iterable[str]) -> bool:
        """Whether any convention could read a span with these attribute keys."""
        return not self._markers.isdisjoint(attribute_keys)

    # -- spans --------------------------------------------------------------------------------
    def process(self, span: SpanView) -> Enrichment | None:
        """`read`, then `observe` or `grade_run`. Never raises."""
        reading = self.read(span)
        if reading is None or reading.role != RUN:
            return self.observe(span, reading)
        return self.grade_run(span, reading)

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
                reading = read_span(span._replace(attributes=short), self._conventions)
            self.store.start(span, reading)
        except Exception:
            internal_error("pipeline.started", self.metrics.count_error)

    def observe(self, span: SpanView, reading: SpanReading | None) -> Enrichment | None:
        """A non-run span (its reading from `read`) ended: remember what runs will need; the
        enrichment strips its content when `strip_content` is on."""
        next(self._seen)
        try:
            self.store.observe(span, reading)
        except Exception:
            internal_error("pipeline.observe", self.metrics.count_error)
        return self._ungraded(reading.content_keys) if reading is not None else None

    def _ungraded(self, content_keys: tuple[str, ...]) -> Enrichment | None:
        """What a span the pipeline does not grade gets: its content removed under
        `strip_content` (a run passed over, or one that failed, too), else nothing."""
        remove = stripped(content_keys, self.settings)
        return Enrichment(remove=remove) if remove else None

    # -- runs ---------------------------------------------------------------------------------
    def grade_run(self, span: SpanView, reading: SpanReading) -> Enrichment | None:
        """A run span ended and is graded now: `begin_run` then `finish_run`."""
        self.begin_run(span, reading)
        return self.finish_run(span, reading)

    def begin_run(self, span: SpanView, reading: SpanReading) -> None:
        """A run span ended: register it now (in order with the other spans); grade it later
        with `finish_run` (or `finish_run_later`, or `refuse_run`), exactly once."""
        next(self._seen)
        if self.graded_before(span):
            return  # the same run span again: it was counted and graded once
        self.metrics.runs_seen.add(1)
        try:
            self.store.begin_run(span, reading)
        except Exception:
            internal_error("pipeline.begin_run", self.metrics.count_error)

    def hand_over(self, span: SpanView, reading: SpanReading) -> None:
        """A begun run goes to be graded later (a worker): it takes its evidence now, where
        the store can tell it is complete (`store.TraceStore.hand_over`). Never raises."""
        try:
            self.store.hand_over(span, reading)
        except Exception:
            internal_error("pipeline.hand_over", self.metrics.count_error)

    def waits(self, span: SpanView, reading: SpanReading | None = None) -> bool:
        """Whether a begun run still has started steps below it that have not ended, or
        (given its reading) has no answer of its own and none from a step under it yet."""
        try:
            if self.store.open_children(span):
                return True
            return (
                reading is not None
                and answerless(reading)
                and self.store.awaits_answer(span, reading)
            )
        except Exception:
            internal_error("pipeline.waits", self.metrics.count_error)
            return False

    def graded_before(self, span: SpanView) -> bool:
        """Whether this run span (its trace and span id) was graded already, recently: a
        copy of the same span, delivered twice."""
        with self._graded_lock:
            return (span.trace_id, span.span_id) in self._graded

    def _earlier(self, span: SpanView) -> tuple[bool, Enrichment | None]:
        """(True, its enrichment) for a run span graded before (see `graded_before`)."""
        with self._graded_lock:
            key = (span.trace_id, span.span_id)
            if key in self._graded:
                return True, self._graded[key]
        return False, None

    def _remember(self, span: SpanView, enrichment: Enrichment | None) -> Enrichment | None:
        with self._graded_lock:
            self._graded[(span.trace_id, span.span_id)] = enrichment
            while len(self._graded) > RUNS_REMEMBERED:
                self._graded.popitem(last=False)
        return enrichment

    def finish_run(self, span: SpanView, reading: SpanReading) -> Enrichment | None:
        """Grade a begun run: the enrichment for its span, or None to forward it unchanged.
        A run span graded before (the same span delivered again) gets the same enrichment."""
        seen, earlier = self._earlier(span)
        if seen:
            return earlier
        try:
            assessed = self._assess(span, reading)
            if assessed is not None:
                return self._remember(span, self._conclude(assessed[0], span))
        except Exception:
            internal_error("pipeline.finish_run", self.metrics.count_error)
        return self._remember(span, self._ungraded(reading.content_keys))

    def finish_run_later(
        self,
        span: SpanView,
        reading: SpanReading,
        deliver: Callable[[Enrichment | None], None],
        *,
        wait: bool = False,
    ) -> None:
        """Grade a begun run, with the judge tier when there is one: `deliver` gets the
        enrichment exactly once, now or (judged) later from a judge thread. Never raises.
        `wait`: the tier's admission waits for room instead of declining (a backfill)."""
        seen, earlier = self._earlier(span)
        if seen:
            deliver(earlier)
            return
        try:
            assessed = self._assess(span, reading)
        except Exception:
            internal_error("pipeline.finish_run", self.metrics.count_error)
            assessed = None
        if assessed is None:
            deliver(self._remember(span, self._ungraded(reading.content_keys)))
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
                outcome.result, output, sources, outcome.source_span_ids, span.trace_id, judged,
                wait=wait,
            )
        except Exception:
            internal_error("pipeline.judge", self.metrics.count_error)
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
            internal_error("pipeline.conclude", self.metrics.count_error)
            enrichment = self._ungraded(outcome.content_keys)
        deliver(self._remember(span, enrichment))

    def flush_judges(self, timeout: float) -> bool:
        """Wait for the runs being judged (the rest settle as `judge-timeout` at the deadline)."""
        return self.judges.flush(timeout) if self.judges is not None else True

    def shutdown_judges(self, timeout: float) -> bool:
        return self.judges.shutdown(timeout) if self.judges is not None else True

    def refuse_run(self, span: SpanView, reading: SpanReading, reason: str) -> Enrichment:
        """Grade a begun run without scoring it (`partial`, `reason`, no rate, never flagged).
        A run span graded before (the same span delivered again) gets the same enrichment."""
        seen, earlier = self._earlier(span)
        if seen and earlier is not None:
            return earlier
        try:
            self.store.claim_run(span, reading, refused=True)
        except Exception:
            internal_error("pipeline.refuse_run", self.metrics.count_error)
        outcome = self._outcome(span, reading, None, (reason,))
        self.metrics.record_run(outcome)
        enrichment = build_enrichment(outcome, self.settings)
        self._remember(span, enrichment)
        return enrichment

    def _conclude(self, outcome: RunOutcome, span: SpanView) -> Enrichment:
        """A graded run's metric recordings, evaluation events and enrichment."""
        self.metrics.record_run(outcome)
        self.evaluations.emit(outcome, span.trace_id, span.span_id)
        return build_enrichment(outcome, self.settings)

    def _assess(
        self, span: SpanView, reading: SpanReading
    ) -> tuple[RunOutcome, str | None, list[str]] | None:
        """The lexical outcome of a begun run, with the output and evidence it was scored on
        (None: not graded, the same agent's run inside or around this one is)."""
        evidence = self.store.claim_run(span, reading)
        if evidence is None:
            return None
        attached = [s for s in reading.attached_sources if s is not None]
        output = None if reading.redacted else reading.text
        output_cut = reading.truncated
        if output is None and evidence.last_llm_text is not None:
            output, output_cut = evidence.last_llm_text, evidence.last_llm_truncated

        unseen = evidence_unseen(reading, evidence)
        reasons = _reasons(reading, evidence, output is None, output_cut, unseen)
        threshold = self.settings.threshold_for(self._project(span, reading))
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
                internal_error("scoring", self.metrics.count_error)
                reasons = (*reasons, attr.REASON_SCORING_ERROR)
            self.metrics.scoring_duration.record(time.perf_counter() - started)
        outcome = self._outcome(span, reading, result, reasons, source_span_ids)
        return outcome, output, sources

    def _outcome(
        self,
        span: SpanView,
        reading: SpanReading,
        result: Any,
        reasons: tuple[str, ...],
        source_span_ids: tuple[int | None, ...] = (),
    ) -> RunOutcome:
        project = self._project(span, reading)
        return RunOutcome(  # positional (built for every run): the fields in their order
            result,
            reasons,
            self.settings.threshold_for(project),  # threshold
            project,
            _str(span.resource.get(SERVICE_NAME)),  # service
            reading.convention,
            source_span_ids,
            reading.content_keys,
        )

    def _project(self, span: SpanView, reading: SpanReading) -> str | None:
        if reading.project:
            return reading.project
        key = self.settings.project_attribute
        return _str(span.attributes.get(key)) or _str(span.resource.get(key))

    def expire(self) -> None:
        self.store.expire()

    def close(self) -> None:
        self.store.clear()
        with self._graded_lock:
            self._graded.clear()


def check_judge_mode(pipeline: GroundingPipeline) -> None:
    """A judge never runs on the application's thread: it needs the scoring worker."""
    if pipeline.judges is not None and pipeline.settings.scoring_mode == SCORING_INLINE:
        raise ConfigError("judge: needs scoring_mode 'background' (a judge never runs inline)")


def check_wrapped(wrapped: object, methods: Sequence[str], usage: str) -> None:
    """A shell wraps a span processor or an exporter: one that lacks their methods (an
    exporter handed where a processor goes, or the reverse) is refused when the shell is
    built, not met as an AttributeError in the application's thread at its first span."""
    missing = [name for name in methods if not callable(getattr(wrapped, name, None))]
    if missing:
        raise ConfigError(
            f"{type(wrapped).__name__} has no {missing[0]}(): it is not what is wrapped here; "
            f"use {usage}"
        )


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
    would not have been visible. A run whose LLM steps were read and asked for no tool really
    used none.
    """
    if evidence.sources or any(s is not None for s in reading.attached_sources):
        return False
    if evidence.lost and not evidence.tool_calls_unread:
        return False  # the outputs were there and were evicted: `evidence-evicted` says so
    declared_steps = reading.declared_tool_steps or 0
    if evidence.tool_calls or reading.attached_sources or declared_steps > 0:
        return True
    return (reading.tools_declared or evidence.tools_declared) and not evidence.llm_steps_read
