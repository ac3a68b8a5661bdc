"""The judge tier: which runs are judged, admission control, judge threads and deadlines.

A run the scoring worker has graded lexically is offered here. Not selected (sampling,
`judge_when`, nothing to judge): it keeps its lexical grade, outcome `skipped`. Otherwise
admission is decided at once, never blocking the caller: no free judge thread and no room to
wait (`judge-queue-full`, or `judge-concurrency` when `judge_max_pending` is 0), or the budget
spent (`judge-budget`) -> outcome `declined`. An admitted run is judged on one of
`judge_max_concurrency` judge threads and settled exactly once: `ok`, or `failed`
(`judge-timeout` | `judge-error` | `judge-bad-response`) — a deadline thread settles a run whose
judge is still busy when `judge_timeout` has passed, and `flush`/`shutdown` settle what is left
at their deadline, so no run waits longer than its deadline on a judge that hangs.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from otel_grounding import attributes as attr
from otel_grounding.config import JudgeSettings
from otel_grounding.internal_error import background_error
from otel_grounding.judge import (
    CONTRADICTED,
    SUPPORTED,
    EvidenceText,
    Judge,
    JudgeBadResponse,
    JudgeRequest,
    JudgeVerdict,
    check_verdicts,
    judge_rate,
)
from otel_grounding.metrics import LABEL_OUTCOME, LABEL_REASON, GroundingMetrics
from otel_grounding.scoring import ClaimVerdict, GroundingResult
from otel_grounding.sdkcompat import instrumentation_suppressed
from otel_grounding.sentences import Sentence, asserts_something, split_sentences

#: How long flush waits past its deadline for runs another thread is delivering right now.
SETTLE_GRACE_S = 0.5


@dataclass(frozen=True)
class Judgement:
    """The judge tier's outcome for one run (see attributes.JUDGE_*)."""

    name: str
    model: str | None
    outcome: str
    reason: str | None = None
    verdicts: tuple[JudgeVerdict, ...] = ()
    #: For each judged claim, its index among the lexical claims (None: a judge-only sentence).
    claim_indexes: tuple[int | None, ...] = ()
    claim_texts: tuple[str, ...] = ()
    #: The judge bounds that cut (`judge_max_claims`, `judge_max_evidence_chars`).
    truncated_by: tuple[str, ...] = ()
    duration_ms: float | None = None
    error_type: str | None = None
    #: `judge_min_rate`: the judge's own alerting threshold (None: the run's threshold).
    min_rate: float | None = None
    #: `judge_alert_kinds`: the reason kinds that may raise its flag (empty: any).
    alert_kinds: tuple[str, ...] = ()

    @property
    def supported(self) -> int:
        return sum(1 for v in self.verdicts if v.verdict == SUPPORTED)

    @property
    def contradicted(self) -> int:
        return sum(1 for v in self.verdicts if v.verdict == CONTRADICTED)

    @property
    def rate(self) -> float:
        return judge_rate(self.verdicts)

    @property
    def unsupported_kinds(self) -> tuple[str, ...]:
        """The kinds of reason behind the claims not found supported, each once, sorted."""
        return tuple(sorted({k for v in self.verdicts if v.verdict != SUPPORTED for k in v.kinds}))

    def flags(self, threshold: float | None) -> bool:
        """`judge.below_threshold`: settled ok, its rate under `judge_min_rate` (else
        `threshold`, the run's), and a claim not supported resting on a kind
        `judge_alert_kinds` alerts on (a verdict naming no kind always does); no threshold
        never flags."""
        if self.outcome != attr.JUDGE_OUTCOME_OK:
            return False
        limit = self.min_rate if self.min_rate is not None else threshold
        if limit is None or self.rate >= limit:
            return False
        wanted = self.alert_kinds
        return not wanted or any(
            not v.kinds or any(k in wanted for k in v.kinds)
            for v in self.verdicts if v.verdict != SUPPORTED
        )


@dataclass(frozen=True)
class JudgeInput:
    """What one judgement is given, after the judge bounds."""

    request_claims: tuple[str, ...]
    claim_indexes: tuple[int | None, ...]
    evidence: tuple[EvidenceText, ...]
    truncated_by: tuple[str, ...]


def judge_input(
    result: GroundingResult,
    output: str,
    sources: Sequence[str],
    source_span_ids: Sequence[int | None],
    settings: JudgeSettings,
) -> JudgeInput:
    """Every sentence of the answer that asserts something (a short answer such as "Delhi"
    included, which the lexical contract never sees as a claim) and the run's evidence, cut to
    `judge_max_claims` / `_evidence_chars`. A sentence holding exactly one lexical claim is
    tied to that claim's index, so its verdict lands on the claim's event."""
    cut: list[str] = []
    sentences = [s for s in split_sentences(output) if asserts_something(s.text)]
    texts = [s.text for s in sentences]
    claims = result.claims if result.claims_total else ()
    indexes = _lexical_claims(sentences, claims)
    if len(texts) > settings.max_claims:
        texts, indexes = texts[: settings.max_claims], indexes[: settings.max_claims]
        cut.append(attr.BOUND_JUDGE_MAX_CLAIMS)
    budget = settings.max_evidence_chars
    evidence: list[EvidenceText] = []
    for i, text in enumerate(sources):
        span_id = source_span_ids[i] if i < len(source_span_ids) else None
        if len(text) > budget:
            if budget:
                evidence.append(EvidenceText(text[:budget], span_id))
            cut.append(attr.BOUND_JUDGE_MAX_EVIDENCE_CHARS)
            break
        evidence.append(EvidenceText(text, span_id))
        budget -= len(text)
    return JudgeInput(tuple(texts), tuple(indexes), tuple(evidence), tuple(cut))


def _lexical_claims(
    sentences: Sequence[Sentence], claims: Sequence[ClaimVerdict]
) -> list[int | None]:
    """For each sentence, the index of the one lexical claim overlapping it (None: none or
    several). Both are in text order: one merge pass, linear."""
    out: list[int | None] = []
    first = 0
    for sentence in sentences:
        while first < len(claims) and claims[first].end <= sentence.start:
            first += 1
        inside: list[int] = []
        at = first
        while at < len(claims) and claims[at].start < sentence.end and len(inside) < 2:
            inside.append(claims[at].index)
            at += 1
        out.append(inside[0] if len(inside) == 1 else None)
    return out


def sampled(trace_id: int, rate: float) -> bool:
    """Trace-id ratio sampling (the same runs are drawn wherever the trace is judged)."""
    if rate >= 1.0:
        return True
    return (trace_id & 0xFFFFFFFFFFFFFF) < rate * (1 << 56)


class TokenBucket:
    """`rate_per_minute` tokens a minute, at most one minute's worth saved up."""

    def __init__(self, rate_per_minute: float, clock: Callable[[], float]) -> None:
        self._rate = rate_per_minute / 60.0
        self._capacity = max(1.0, rate_per_minute)
        self._tokens = self._capacity
        self._clock = clock
        self._at = clock()

    def take(self) -> bool:
        """One token if there is one (the caller holds the tier's lock)."""
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def until_next(self) -> float:
        """Seconds until the next token, as of the last `take` (the caller holds the lock)."""
        return max((1.0 - self._tokens) / self._rate, 0.0)


class _Job:
    __slots__ = ("request", "input", "deadline", "complete", "done", "started")

    def __init__(
        self,
        request: JudgeRequest,
        judge_in: JudgeInput,
        deadline: float,
        complete: Callable[[Judgement], None],
    ) -> None:
        self.request = request
        self.input = judge_in
        self.deadline = deadline
        self.complete = complete
        self.done = False
        self.started = 0.0


class JudgeTier:
    """Admission control and a small pool of judge threads around one `Judge`."""

    def __init__(
        self,
        judge: Judge,
        settings: JudgeSettings,
        metrics: GroundingMetrics,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.judge = judge
        self.settings = settings
        self._metrics = metrics
        self._clock = clock
        self._cond = threading.Condition()
        self._waiting: deque[_Job] = deque()
        self._active: set[_Job] = set()  # admitted and not settled (waiting or in flight)
        self._threads: list[threading.Thread] = []
        self._deadline_thread: threading.Thread | None = None
        self._stopping = False
        self._bucket = (
            TokenBucket(settings.rate_per_minute, clock)
            if settings.rate_per_minute is not None
            else None
        )
        metrics.observe_judge_pending(self.pending)

    @property
    def name(self) -> str:
        return str(getattr(self.judge, "name", type(self.judge).__name__))

    @property
    def model(self) -> str | None:
        model = getattr(self.judge, "model", None)
        return model if isinstance(model, str) and model else None

    def pending(self) -> int:
        """Runs admitted and not yet settled."""
        return len(self._active)

    def _judgement(self, outcome: str, reason: str | None, **fields: object) -> Judgement:
        return Judgement(
            self.name,
            self.model,
            outcome,
            reason,
            min_rate=self.settings.min_rate,
            alert_kinds=self.settings.alert_kinds,
            **fields,  # type: ignore[arg-type]
        )

    def offer(
        self,
        result: GroundingResult | None,
        output: str | None,
        sources: Sequence[str],
        source_span_ids: Sequence[int | None],
        trace_id: int,
        complete: Callable[[Judgement], None],
        *,
        wait: bool = False,
    ) -> Judgement | None:
        """None: admitted, `complete` will be called exactly once (from a judge thread, the
        deadline thread or flush/shutdown). Otherwise the run's judgement now (skipped or
        declined), and `complete` is never called.

        `wait` (a backfill, `score-traces`: no application waits on it) blocks until there is
        room and a budget token instead of declining; only a tier shutting down declines."""
        settings = self.settings
        if result is None or output is None:
            return self._skip(attr.REASON_JUDGE_NOTHING)
        if not sampled(trace_id, settings.sample_rate):
            return self._skip(attr.REASON_JUDGE_NOT_SAMPLED)
        if not settings.selects(result.rate, result.below_threshold):
            return self._skip(attr.REASON_JUDGE_NOT_WANTED)
        judge_in = judge_input(result, output, sources, source_span_ids, settings)
        if not judge_in.request_claims:
            return self._skip(attr.REASON_JUDGE_NOTHING)
        with self._cond:
            while True:
                now = self._clock()
                full = len(self._active) >= settings.max_concurrency + settings.max_pending
                reason = None
                if self._stopping or full:
                    reason = (
                        attr.REASON_JUDGE_CONCURRENCY
                        if settings.max_pending == 0 and not self._stopping
                        else attr.REASON_JUDGE_QUEUE_FULL
                    )
                elif self._bucket is not None and not self._bucket.take():
                    reason = attr.REASON_JUDGE_BUDGET
                if reason is None or not wait or self._stopping:
                    break
                # Woken by a run settling (room) or when the next token is due (budget).
                self._cond.wait(
                    self._bucket.until_next()
                    if reason == attr.REASON_JUDGE_BUDGET and self._bucket is not None
                    else None
                )
            if reason is None:
                request = JudgeRequest(judge_in.request_claims, judge_in.evidence, settings.timeout)
                job = _Job(request, judge_in, now + settings.timeout, complete)
                self._waiting.append(job)
                self._active.add(job)
                self._start_threads()
                self._cond.notify_all()
                return None
        if reason == attr.REASON_JUDGE_BUDGET:
            self._metrics.judge_budget_refusals.add(1)
        return self._count(self._judgement(attr.JUDGE_OUTCOME_DECLINED, reason))

    def _skip(self, reason: str) -> Judgement:
        return self._count(self._judgement(attr.JUDGE_OUTCOME_SKIPPED, reason))

    def _count(self, judgement: Judgement) -> Judgement:
        self._metrics.judgements.add(
            1, {LABEL_OUTCOME: judgement.outcome, LABEL_REASON: judgement.reason or "none"}
        )
        return judgement

    # -- threads ----------------------------------------------------------------------------
    def _start_threads(self) -> None:
        """Under the lock: judge threads up to the concurrency, and the deadline thread."""
        self._threads = [t for t in self._threads if t.is_alive()]
        while len(self._threads) < self.settings.max_concurrency:
            thread = threading.Thread(
                target=_suppressed, args=(self._judge_loop,), name="otel-grounding-judge",
                daemon=True,
            )
            thread.start()
            self._threads.append(thread)
        if self._deadline_thread is None or not self._deadline_thread.is_alive():
            self._deadline_thread = threading.Thread(
                target=_suppressed, args=(self._deadline_loop,),
                name="otel-grounding-judge-deadline", daemon=True,
            )
            self._deadline_thread.start()

    def _judge_loop(self) -> None:
        while True:
            with self._cond:
                while not self._waiting:
                    if self._stopping:
                        return
                    self._cond.wait()
                job = self._waiting.popleft()  # settled jobs are never left in the deque
                left = job.deadline - self._clock()
                job.started = self._clock()
                late = self._take(job) if left <= 0 else None
            if late is not None:
                self._settle(late, self._failed(late, attr.REASON_JUDGE_TIMEOUT, None))
                continue
            try:
                judgement = self._call(job, left)
            except Exception as exc:  # the tier's own failure: still one judgement per run
                background_error("judge tier")
                judgement = self._failed(job, attr.REASON_JUDGE_ERROR, type(exc).__name__)
            with self._cond:
                mine = self._take(job)
            if mine is not None:
                self._settle(mine, judgement)

    def _call(self, job: _Job, left: float) -> Judgement:
        request = JudgeRequest(job.request.claims, job.request.evidence, left)
        started = time.perf_counter()
        error: BaseException | None = None
        verdicts: tuple[JudgeVerdict, ...] = ()
        try:
            verdicts = check_verdicts(
                self.judge.judge(request), len(request.claims), len(request.evidence)
            )
        except Exception as exc:  # every failure of a judge is a grade, never an exception
            error = exc
        elapsed = time.perf_counter() - started
        self._metrics.judge_duration.record(elapsed)
        if error is not None:
            reason = (
                attr.REASON_JUDGE_BAD_RESPONSE
                if isinstance(error, JudgeBadResponse)
                else attr.REASON_JUDGE_TIMEOUT
                if isinstance(error, TimeoutError)
                else attr.REASON_JUDGE_ERROR
            )
            return self._failed(job, reason, type(error).__name__, elapsed * 1000)
        if self._clock() > job.deadline:
            return self._failed(job, attr.REASON_JUDGE_TIMEOUT, None, elapsed * 1000)
        return self._judgement(
            attr.JUDGE_OUTCOME_OK,
            None,
            verdicts=verdicts,
            claim_indexes=job.input.claim_indexes,
            claim_texts=job.input.request_claims,
            truncated_by=job.input.truncated_by,
            duration_ms=elapsed * 1000,
        )

    def _failed(
        self, job: _Job, reason: str, error_type: str | None, duration_ms: float | None = None
    ) -> Judgement:
        if duration_ms is None and job.started:
            duration_ms = (self._clock() - job.started) * 1000
        return self._judgement(
            attr.JUDGE_OUTCOME_FAILED, reason, error_type=error_type, duration_ms=duration_ms
        )

    def _take(self, job: _Job) -> _Job | None:
        """Under the lock: claim the right to settle `job` (None: already claimed). The job
        stays pending until `_settle` has delivered it, so flush never returns before that."""
        if job.done:
            return None
        job.done = True
        if job in self._waiting:
            self._waiting.remove(job)
        return job

    def _settle(self, job: _Job, judgement: Judgement) -> None:
        """Hand the run its judgement (the caller won `_take`: this happens once per job)."""
        self._count(judgement)
        try:
            job.complete(judgement)
        except Exception:  # the judge threads' boundary: the next job still runs
            background_error("judge tier delivery")
        finally:
            with self._cond:
                self._active.discard(job)
                self._cond.notify_all()

    def _deadline_loop(self) -> None:
        while True:
            with self._cond:
                if self._stopping and not self._active:
                    return
                now = self._clock()
                open_jobs = [j for j in self._active if not j.done]
                expired = [self._take(j) for j in open_jobs if j.deadline <= now]
                if not expired:
                    soonest = min((j.deadline for j in open_jobs), default=None)
                    self._cond.wait(None if soonest is None else max(soonest - now, 0.001))
                    continue
            for job in expired:
                if job is not None:
                    self._settle(job, self._failed(job, attr.REASON_JUDGE_TIMEOUT, None))

    # -- lifecycle --------------------------------------------------------------------------
    def flush(self, timeout: float) -> bool:
        """Wait for every admitted run to settle; at the deadline settle the rest as
        `judge-timeout`. False when anything had to be settled that way."""
        deadline = self._clock() + max(timeout, 0.0)
        with self._cond:
            while self._active:
                left = deadline - self._clock()
                if left <= 0:
                    break
                self._cond.wait(left)
            left_over = [self._take(j) for j in list(self._active)]
        for job in left_over:
            if job is not None:
                self._settle(job, self._failed(job, attr.REASON_JUDGE_TIMEOUT, None))
        with self._cond:  # settled elsewhere a moment ago: wait for their delivery too
            while self._active and self._clock() < deadline + SETTLE_GRACE_S:
                self._cond.wait(SETTLE_GRACE_S)
        return not any(left_over)

    def shutdown(self, timeout: float) -> bool:
        """Refuse new runs, then flush; the threads end (one stuck in a judge call ends when
        the call returns, its run already settled)."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        drained = self.flush(timeout)
        with self._cond:
            self._cond.notify_all()
        return drained


def _suppressed(loop: Callable[[], None]) -> None:
    """A judge tier thread's life, instrumentation suppressed: the judge's calls (an instrumented
    model client) and the deliveries are the product's own work, never the application's spans."""
    with instrumentation_suppressed():
        loop()
