"""Trace stores: the evicted-trace memory every store shares, the one pass that grades a run,
and the relay kept to the pipeline's public surface."""

from __future__ import annotations

import ast
import dataclasses
import random
import threading
from pathlib import Path

from opentelemetry import trace
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

from otel_grounding import attributes as A
from otel_grounding import metrics as M
from otel_grounding.config import load_settings
from otel_grounding.conventions import native
from otel_grounding.conventions.base import RUN, TOOL, SpanReading
from otel_grounding.enrichment import RunOutcome
from otel_grounding.evicted import EvictedTraces
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.relay.unordered import UnorderedStore
from otel_grounding.scoring import score
from otel_grounding.spanview import SpanView
from otel_grounding.store import InProcessStore

from sdk_harness import GOLDEN_SOURCES, Pipeline, attrs, event_names

RELAY_SOURCES = Path(__file__).resolve().parent.parent / "src" / "otel_grounding" / "relay"


def _remote(trace_id: int) -> object:
    parent = SpanContext(trace_id, 1, is_remote=True, trace_flags=TraceFlags(1))
    return trace.set_span_in_context(NonRecordingSpan(parent))


# ------------------------------------------------------------------ the evicted-trace memory
def test_a_run_whose_evidence_went_in_an_eviction_storm_is_partial_and_never_flagged() -> None:
    """More traces evicted after it than `num_traces`: the run still learns its evidence went
    (a memory of only the last `num_traces` evictions forgot it and graded it 0.0, flagged)."""
    p = Pipeline(num_traces=2, min_claim_grounding_rate=0.7)
    with p.tracer.start_as_current_span("run", context=_remote(0xABC)) as run:
        p.tool(GOLDEN_SOURCES[0])
        for n in range(40):  # each trace's tool output evicts an older trace
            agent = p.tracer.start_span("agent", context=_remote(0x1000 + n))  # never ends
            with p.tracer.start_as_current_span(
                "tool",
                context=trace.set_span_in_context(agent),
                attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: f"output {n}"},
            ):
                pass
        run.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    out = attrs(p.span("run"))
    assert out[A.GRADE] == "partial"
    assert A.REASON_EVIDENCE_EVICTED in out[A.COVERAGE_REASON].split(",")
    assert A.RATE not in out
    assert out[A.BELOW_THRESHOLD] is False
    assert A.FLAGGED_EVENT not in event_names(p.span("run"))
    # 41 traces through a cap of 2: every one but the last two evicted (the run's own
    # state, re-created when it ended, goes with it when it is graded)
    assert sum(pt.value for pt in p.metric_points(M.TRACES_EVICTED)) >= 39


def test_the_memory_never_forgets_the_last_evictions_and_stays_in_its_bytes() -> None:
    memory = EvictedTraces(max_bytes=64 * 1024)
    rng = random.Random(7)
    ids = [rng.getrandbits(128) for _ in range(3 * memory.remembered)]
    for trace_id in ids:
        memory.add(trace_id)
    assert all(trace_id in memory for trace_id in ids[-memory.remembered :])
    fresh = [rng.getrandbits(128) for _ in range(20_000)]
    false_positives = sum(trace_id in memory for trace_id in fresh)
    assert false_positives < 0.04 * len(fresh)  # a false "evicted" only makes a run partial
    assert len(memory._current) + len(memory._previous) == 64 * 1024


def test_every_store_remembers_what_it_evicted_in_the_same_memory() -> None:
    """Both stores grade a run of an evicted trace `lost`, however many evictions followed."""
    for store in (
        InProcessStore(num_traces=1, max_spans_per_trace=100, max_bytes=10**6, retention=60),
        UnorderedStore(num_traces=1, max_spans_per_trace=100, max_bytes=10**6, retention=60),
    ):
        store.observe(_view(1, 11, 10), SpanReading(role=TOOL, convention="native", text="out"))
        for trace_id in range(2, 500):
            store.observe(_view(trace_id, 11, 10), SpanReading(TOOL, "native", text="x"))
        store.begin_run(_view(1, 10, None), SpanReading(RUN, "native", text="answer"))
        evidence = store.claim_run(_view(1, 10, None), SpanReading(RUN, "native", text="answer"))
        assert evidence is not None and evidence.lost and not evidence.sources


def _view(trace_id: int, span_id: int, parent_id: int | None) -> SpanView:
    return SpanView(trace_id, span_id, parent_id, "s", {}, (), {})


# ------------------------------------------------------------------------------- one pass
def test_a_run_is_claimed_and_released_in_one_pass_and_graded_by_coverage_grade() -> None:
    store = InProcessStore(num_traces=10, max_spans_per_trace=100, max_bytes=10**6, retention=60)
    run = SpanReading(RUN, "native", text="answer")
    root = _view(1, 10, None)._replace(local_root=True)
    store.observe(_view(1, 11, 10), SpanReading(TOOL, "native", text="out"))
    store.begin_run(root, run)
    first = store.claim_run(root, run)
    assert first is not None and first.sources == ("out",)
    # What only the run needed was released when it was graded, in the same pass.
    assert store.buffered_traces == 0

    result = score("Paris is in France.", ["Paris is in France."], threshold=0.7)
    lying = RunOutcome(
        result=dataclasses.replace(result, grade="full", evidence_incomplete=True),
        reasons=(A.REASON_EVIDENCE_UNAVAILABLE,),
        threshold=0.7,
        project=None,
        service=None,
        convention="native",
    )
    assert lying.grade == "partial"  # not the grade the scorer handed back: coverage_grade's
    assert RunOutcome(None, (), None, None, None, "native").grade == "partial"


def test_a_run_passed_over_still_has_its_content_stripped() -> None:
    """An answerless run inside the same logical run is not graded: under `strip_content` its
    content still goes (stripping is decided once, for every span handed back)."""
    pipeline = GroundingPipeline(load_settings({"strip_content": True}))
    outer = _view(1, 10, None)
    inner = _view(1, 20, 10)
    outer_reading = SpanReading(RUN, "native", text=None, content_keys=(native.RUN_OUTPUT,))
    pipeline.store.start(outer, outer_reading)
    inner_reading = SpanReading(
        RUN, "native", text=None, content_keys=(native.RUN_TOOL_OUTPUTS,)
    )
    enrichment = pipeline.grade_run(inner, inner_reading)
    assert enrichment is not None
    assert enrichment.remove == frozenset({native.RUN_TOOL_OUTPUTS})
    assert A.GRADE not in enrichment.attributes


# --------------------------------------------------------------------- the relay's surface
#: What the relay may call on its pipeline: the public surface every shell shares.
PUBLIC_SURFACE = {
    "read", "observe", "process", "grade_run", "begin_run", "finish_run", "finish_run_later",
    "refuse_run", "waits", "expire", "close", "conventions", "settings", "metrics",
    "flush_judges", "shutdown_judges", "judges", "started", "conventions_may_read",
}


def test_the_relay_uses_only_the_pipelines_public_surface() -> None:
    """No relay module reaches into the pipeline's store or its private parts."""
    used: dict[str, set[str]] = {}
    for path in sorted(RELAY_SOURCES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            named = (isinstance(owner, ast.Name) and owner.id == "pipeline") or (
                isinstance(owner, ast.Attribute) and owner.attr == "pipeline"
            )
            if named:
                used.setdefault(path.name, set()).add(node.attr)
    assert used, "the relay no longer calls its pipeline by that name: update this test"
    for name, attributes in used.items():
        assert attributes <= PUBLIC_SURFACE, (name, attributes - PUBLIC_SURFACE)


# ----------------------------------------------------- a long-lived root, runs piling up
def test_a_burst_of_runs_under_one_long_lived_root_keeps_every_grade() -> None:
    """One open session span, 1,000 runs of 3 tool spans under it, the scoring worker held
    back until all have ended: every run has its evidence in hand when it ends, so none is
    graded `evidence-evicted` (the trace's span cap of 1,000 counted the spans of every run
    still waiting for the worker)."""
    p = Pipeline(scoring_mode="thread", min_claim_grounding_rate=0.7)
    gate = threading.Event()
    pipeline = p.processor.pipeline
    real = pipeline.scorer

    def held_back(*args: object, **kwargs: object) -> object:
        gate.wait(60)
        return real(*args, **kwargs)

    pipeline.scorer = held_back
    with p.tracer.start_as_current_span("chat.session"):
        for n in range(1_000):
            with p.run(f"run-{n}") as span:
                for source in (*GOLDEN_SOURCES, f"Turn {n} of the chat."):
                    p.tool(source)
                span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
        assert pipeline.store.buffered_traces == 1
        gate.set()
        spans = p.spans()
    graded = [attrs(s) for s in spans if A.GRADE in attrs(s)]
    assert len(graded) == 1_000
    assert {(g[A.GRADE], g.get(A.COVERAGE_REASON)) for g in graded} == {("full", None)}
    assert all(g[A.RATE] == 1.0 for g in graded)


def test_a_run_ending_after_its_trace_closed_learns_so_after_many_traces_closed() -> None:
    """The memory of closed traces is a filter, not the last `num_traces` ids: a late run of a
    trace closed before thousands of others is told its evidence went (not a fresh trace
    with no evidence, graded as if it had none)."""
    store = InProcessStore(num_traces=4, max_spans_per_trace=100, max_bytes=10**6, retention=60)
    tool = SpanReading(TOOL, "native", text="Paris is the capital of France.")
    for trace_id in range(1, 5_001):
        root = _view(trace_id, 10, None)._replace(local_root=True)
        store.observe(_view(trace_id, 11, 10), tool)
        store.begin_run(root, SpanReading(RUN, "native", text="answer"))
        assert store.claim_run(root, SpanReading(RUN, "native", text="answer")) is not None
    assert store.buffered_traces == 0
    evidence = store.claim_run(_view(1, 20, 10), SpanReading(RUN, "native", text="late"))
    assert evidence is not None and evidence.lost


# ------------------------------------------------------------------ the same span twice
def test_a_span_delivered_twice_is_one_span_in_process() -> None:
    """The same tool span and run span handed over twice (same trace and span id): the run is
    graded once, with its evidence counted once; the copy gets the same enrichment."""
    pipeline = GroundingPipeline(load_settings({"min_claim_grounding_rate": 0.7}))
    tool = _view(1, 11, 10)
    run = _view(1, 10, None)._replace(local_root=True, attributes={
        native.RUN_OUTPUT: "The capital of France is Paris."})
    for _ in range(2):
        pipeline.observe(tool, SpanReading(TOOL, "native", text=GOLDEN_SOURCES[0]))
    first = pipeline.process(run)
    second = pipeline.process(run)
    assert first is not None and first.attributes[A.GRADE] == "full"
    assert second == first
