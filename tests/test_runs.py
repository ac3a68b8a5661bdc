"""`runs.RunLifecycle`, the one owner of a run's life in the SDK shells: every begun run is
settled exactly once (graded now, graded later, or refused) and its span leaves exactly once,
whichever shell, mode or path it takes; a second settle raises; a shell that fails between
begin and settle still settles the run."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import GroundingSpanExporter, GroundingSpanProcessor
from otel_grounding import attributes as A
from otel_grounding import runs as runs_module
from otel_grounding.conventions import native
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.runs import RunLifecycle
from otel_grounding.scoring import score
from otel_grounding.scoring_process import ProcessScorer

from sdk_harness import attrs

ANSWER = "The capital of France is Paris."
SOURCE = "Paris is the capital of France."
RUNS = 12
SETTLES = ("finish_run", "finish_run_later", "refuse_run")


class Ledger:
    """Counts, per run span (trace and span id), the pipeline's `begin_run` and its settle
    calls (`finish_run`, `finish_run_later`, `refuse_run`), by wrapping them on the instance."""

    def __init__(self, pipeline: GroundingPipeline) -> None:
        self.begun: Counter[tuple[int, int]] = Counter()
        self.settled: Counter[tuple[int, int]] = Counter()
        self._lock = threading.Lock()
        self._wrap(pipeline, "begin_run", self.begun)
        for name in SETTLES:
            self._wrap(pipeline, name, self.settled)

    def _wrap(self, pipeline: GroundingPipeline, name: str, counter: Counter[tuple[int, int]]) -> None:
        real: Callable[..., Any] = getattr(pipeline, name)

        def counted(view: Any, reading: Any, *args: Any) -> Any:
            with self._lock:
                counter[(view.trace_id, view.span_id)] += 1
            return real(view, reading, *args)

        setattr(pipeline, name, counted)

    def assert_each_run_settled_once(self, runs: int) -> None:
        assert len(self.begun) == runs, self.begun
        assert self.settled == self.begun, (self.settled, self.begun)
        assert set(self.settled.values()) == {1}, self.settled


class Gate(SimpleSpanProcessor):
    """The next processor, able to stall the threads that are not the application's; it notes
    every span handed to it (even after its shutdown, when it exports no more)."""

    def __init__(self, exporter: InMemorySpanExporter) -> None:
        super().__init__(exporter)
        self.open = threading.Event()
        self.open.set()
        self.seen: list[ReadableSpan] = []

    def on_end(self, span: ReadableSpan) -> None:
        if threading.current_thread() is not threading.main_thread():
            self.open.wait(10)
        self.seen.append(span)
        super().on_end(span)


def _runs(tracer: Any, count: int) -> None:
    for i in range(count):
        with tracer.start_as_current_span(f"run-{i}") as run:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: native.STEP_TYPE_TOOL, native.STEP_OUTPUT: SOURCE}
            ):
                pass
            run.set_attribute(native.RUN_OUTPUT, ANSWER)


def _left(exporter: InMemorySpanExporter) -> Counter[str]:
    return Counter(s.name for s in exporter.get_finished_spans() if s.name.startswith("run-"))


EVERY_RUN_ONCE = Counter({f"run-{i}": 1 for i in range(RUNS)})


@pytest.mark.parametrize("mode", ["inline", "thread"])
def test_the_processor_settles_every_run_once_and_forwards_it_once(mode: str) -> None:
    exporter = InMemorySpanExporter()
    processor = GroundingSpanProcessor(SimpleSpanProcessor(exporter), scoring_mode=mode)
    ledger = Ledger(processor.pipeline)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    _runs(provider.get_tracer("t"), RUNS)
    assert processor.force_flush(10_000)
    ledger.assert_each_run_settled_once(RUNS)
    assert _left(exporter) == EVERY_RUN_ONCE
    assert all(attrs(s)[A.GRADE] == "full" for s in exporter.get_finished_spans() if s.name.startswith("run-"))
    assert processor._runs.open_runs == 0
    provider.shutdown()


def test_a_full_worker_and_a_shutdown_past_its_deadline_still_settle_every_run_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker holds two runs, stalled forwarding the first: three are refused at once
    (queue full); at shutdown the one still queued is abandoned (refused) when the deadline
    passes; the stalled one leaves when released. Each run: one settle, one span out."""
    monkeypatch.setattr(runs_module, "SHUTDOWN_TIMEOUT_S", 0.3)
    gate = Gate(InMemorySpanExporter())
    processor = GroundingSpanProcessor(gate, scoring_mode="thread", scoring_queue_size=2)
    ledger = Ledger(processor.pipeline)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    gate.open.clear()
    _runs(provider.get_tracer("t"), 5)
    provider.shutdown()  # the worker is stalled: its queued run is abandoned
    gate.open.set()
    assert processor._runs._worker is not None
    processor._runs._worker.flush(10)  # the stalled run finishes and leaves
    ledger.assert_each_run_settled_once(5)
    runs = [s for s in gate.seen if s.name.startswith("run-")]
    assert Counter(s.name for s in runs) == Counter({f"run-{i}": 1 for i in range(5)})
    reasons = Counter(attrs(s).get(A.COVERAGE_REASON) for s in runs)
    assert reasons == Counter({A.REASON_SCORING_OVERLOAD: 4, None: 1})
    assert processor._runs.open_runs == 0


@pytest.mark.parametrize("mode", ["inline", "thread"])
def test_the_exporter_settles_every_run_once_and_exports_it_once(mode: str) -> None:
    sink = InMemorySpanExporter()
    grounding = GroundingSpanExporter(sink, scoring_mode=mode)
    assert grounding.pipeline is not None
    ledger = Ledger(grounding.pipeline)
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(grounding, max_export_batch_size=5))
    _runs(provider.get_tracer("t"), RUNS)
    provider.shutdown()
    ledger.assert_each_run_settled_once(RUNS)
    assert _left(sink) == EVERY_RUN_ONCE
    assert all(attrs(s)[A.GRADE] == "full" for s in sink.get_finished_spans() if s.name.startswith("run-"))


# ------------------------------------------------------------------------ one settle, enforced
class Holding:
    """A worker that keeps the tasks it is given, for the test to run by hand."""

    def __init__(self) -> None:
        self.tasks: list[Any] = []

    def submit(self, task: Any) -> bool:
        self.tasks.append(task)
        return True


def _ended_run() -> ReadableSpan:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _runs(provider.get_tracer("t"), 1)
    (run,) = [s for s in exporter.get_finished_spans() if s.name == "run-0"]
    return run


@pytest.fixture
def held() -> Iterator[tuple[RunLifecycle, Holding, Ledger, list[ReadableSpan]]]:
    pipeline = GroundingPipeline.configure(min_claim_grounding_rate=0.7)
    worker = Holding()
    forwarded: list[ReadableSpan] = []
    runs = RunLifecycle(pipeline, worker, forwarded.append, None)  # type: ignore[arg-type]
    yield runs, worker, Ledger(pipeline), forwarded
    pipeline.close()


def test_a_second_settle_raises_and_neither_the_pipeline_nor_the_next_see_it(held) -> None:
    runs, worker, ledger, forwarded = held
    assert runs.end(_ended_run()) is None  # taken by the worker
    (task,) = worker.tasks
    task.run()
    for again in (task.run, task.abandon, lambda: task.refused(A.REASON_SCORING_OVERLOAD)):
        with pytest.raises(RuntimeError, match="settled twice"):
            again()
    ledger.assert_each_run_settled_once(1)
    assert [s.name for s in forwarded] == ["run-0"] and attrs(forwarded[0])[A.GRADE] == "full"
    assert runs.open_runs == 0


def test_an_abandoned_run_is_refused_once_and_leaves(held) -> None:
    runs, worker, ledger, forwarded = held
    assert runs.end(_ended_run()) is None
    (task,) = worker.tasks
    task.abandon()
    with pytest.raises(RuntimeError, match="settled twice"):
        task.run()
    ledger.assert_each_run_settled_once(1)
    assert [attrs(s)[A.COVERAGE_REASON] for s in forwarded] == [A.REASON_SCORING_OVERLOAD]
    assert runs.open_runs == 0


@pytest.mark.internal_errors
def test_a_shell_failing_between_begin_and_settle_still_settles_the_run(
    lenient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    exporter = InMemorySpanExporter()
    processor = GroundingSpanProcessor(SimpleSpanProcessor(exporter), scoring_mode="thread")
    ledger = Ledger(processor.pipeline)

    def broken(*args: object) -> None:
        raise RuntimeError("hand-over failed")

    monkeypatch.setattr(processor.pipeline, "hand_over", broken)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    _runs(provider.get_tracer("t"), 3)
    assert processor.force_flush(10_000)
    ledger.assert_each_run_settled_once(3)
    assert _left(exporter) == Counter({f"run-{i}": 1 for i in range(3)})
    assert all(A.GRADE not in attrs(s) for s in exporter.get_finished_spans() if s.name.startswith("run-"))
    assert processor._runs.open_runs == 0


# ------------------------------------------------------------------------ the scorer, fixed
@pytest.mark.parametrize("mode, scorer", [("background", ProcessScorer), ("thread", None), ("inline", None)])
def test_the_scorer_is_chosen_once_when_the_pipeline_is_built(mode: str, scorer: type | None) -> None:
    processor = GroundingSpanProcessor(_Null(), scoring_mode=mode)
    if scorer is None:
        assert processor.pipeline.scorer is score
    else:
        assert isinstance(processor.pipeline.scorer, scorer)
    processor.shutdown()


class _Null(SpanProcessor):
    pass
