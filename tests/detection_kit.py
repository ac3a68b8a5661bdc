"""Detection quality through the real processor: labelled answers in, the flags out.

Shared by `benchmarks/bench_quality.py` and `tests/test_detection_regression.py`. Each labelled
answer is sent as a native run span whose one tool-step child returned the evidence, through
`GroundingSpanProcessor` (real SDK objects, the judge tier when the settings name a judge);
what comes back is read from the exported run span's attributes, as a trace backend sees it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import GroundingSpanProcessor
from otel_grounding import attributes as attr
from otel_grounding.conventions import native
from otel_grounding.grade import CRITICAL_UNCOVERED

#: Runs sent between two `force_flush` calls: the judge tier's admission (`judge_max_pending`)
#: is never the limit, so no run is declined for the benchmark's own burst.
BATCH = 32


@dataclass(frozen=True)
class LabelledRun:
    """One answer, its evidence (a tool output) and whether it is hallucinated."""

    answer: str
    evidence: str
    hallucinated: bool


@dataclass(frozen=True)
class RunFlags:
    """What the processor wrote on one run span, as read back."""

    hallucinated: bool
    rate: float | None
    lexical_flag: bool
    grade: str
    judge_outcome: str | None
    judge_rate: float | None
    judge_flag: bool
    judge_ms: float | None

    @property
    def alert(self) -> bool:
        """The README's alerting rule: any of the three attributes a user alerts on."""
        return self.lexical_flag or self.grade == CRITICAL_UNCOVERED or self.judge_flag


@dataclass(frozen=True)
class Detection:
    """True and false positive rates of one flag, and the AUC of one continuous score."""

    positives: int
    negatives: int
    true_positives: int
    false_positives: int
    auc: float | None

    @property
    def tpr(self) -> float:
        return self.true_positives / self.positives if self.positives else 0.0

    @property
    def fpr(self) -> float:
        return self.false_positives / self.negatives if self.negatives else 0.0

    @property
    def balanced_accuracy(self) -> float:
        return (self.tpr + 1.0 - self.fpr) / 2.0


def send_runs(
    runs: Sequence[LabelledRun], settings: Mapping[str, Any]
) -> tuple[list[RunFlags], float]:
    """Every run through one processor built with `settings`; the flags read back, in order,
    and the wall time per run in seconds."""
    exporter = InMemorySpanExporter()
    processor = GroundingSpanProcessor(SimpleSpanProcessor(exporter), **settings)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    tracer = provider.get_tracer("otel-grounding-detection")
    flags: list[RunFlags] = []
    started = time.perf_counter()
    try:
        for at in range(0, len(runs), BATCH):
            batch = runs[at : at + BATCH]
            for number, run in enumerate(batch):
                with tracer.start_as_current_span(f"run-{at + number}") as span:
                    span.set_attribute(native.RUN_OUTPUT, run.answer)
                    with tracer.start_as_current_span("tool") as tool:
                        tool.set_attribute(native.STEP_TYPE, native.STEP_TYPE_TOOL)
                        tool.set_attribute(native.STEP_OUTPUT, run.evidence)
            processor.force_flush(60_000)
            by_name = {s.name: dict(s.attributes or {}) for s in exporter.get_finished_spans()}
            exporter.clear()
            for number, run in enumerate(batch):
                flags.append(_flags(run, by_name[f"run-{at + number}"]))
    finally:
        elapsed = time.perf_counter() - started
        provider.shutdown()
    return flags, elapsed / max(len(runs), 1)


def _flags(run: LabelledRun, values: Mapping[str, Any]) -> RunFlags:
    rate = values.get(attr.RATE)
    judge_rate = values.get(attr.JUDGE_RATE)
    judge_ms = values.get(attr.JUDGE_DURATION_MS)
    return RunFlags(
        hallucinated=run.hallucinated,
        rate=float(rate) if rate is not None else None,
        lexical_flag=bool(values.get(attr.BELOW_THRESHOLD, False)),
        grade=str(values.get(attr.GRADE)),
        judge_outcome=values.get(attr.JUDGE_OUTCOME),
        judge_rate=float(judge_rate) if judge_rate is not None else None,
        judge_flag=bool(values.get(attr.JUDGE_BELOW_THRESHOLD, False)),
        judge_ms=float(judge_ms) if judge_ms is not None else None,
    )


def detection(
    flags: Sequence[RunFlags],
    flagged: Callable[[RunFlags], bool],
    score: Callable[[RunFlags], float | None] | None = None,
) -> Detection:
    """The flag's TPR/FPR, and the AUC of `score` (higher: more likely hallucinated; a run
    with no score counts as the lowest)."""
    positives = [f for f in flags if f.hallucinated]
    negatives = [f for f in flags if not f.hallucinated]
    auc = None
    if score is not None and positives and negatives:
        auc = _auc(
            [_score(score, f) for f in positives], [_score(score, f) for f in negatives]
        )
    return Detection(
        len(positives),
        len(negatives),
        sum(1 for f in positives if flagged(f)),
        sum(1 for f in negatives if flagged(f)),
        auc,
    )


def _score(score: Callable[[RunFlags], float | None], flags: RunFlags) -> float:
    value = score(flags)
    return float("-inf") if value is None else value


def _auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Mann-Whitney AUC with ties counted half, by ranks (n log n)."""
    labelled = sorted([(v, 1) for v in positives] + [(v, 0) for v in negatives])
    rank_sum = 0.0
    i = 0
    while i < len(labelled):
        j = i
        while j < len(labelled) and labelled[j][0] == labelled[i][0]:
            j += 1
        mean_rank = (i + 1 + j) / 2.0
        rank_sum += mean_rank * sum(1 for k in range(i, j) if labelled[k][1] == 1)
        i = j
    n_pos, n_neg = len(positives), len(negatives)
    return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def lexical_score(flags: RunFlags) -> float | None:
    """1 - the claim grounding rate."""
    return None if flags.rate is None else 1.0 - flags.rate


def judge_score(flags: RunFlags) -> float | None:
    """1 - the judge's rate (a run the judge skipped: nothing unsupported, 0)."""
    if flags.judge_rate is None:
        return 0.0 if flags.judge_outcome == attr.JUDGE_OUTCOME_SKIPPED else None
    return 1.0 - flags.judge_rate
