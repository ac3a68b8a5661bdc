"""Load, faults and bad input: nothing lost, nothing raised, memory within budget."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

from otel_grounding import GRADES, GroundingSpanExporter, GroundingSpanProcessor
from otel_grounding import attributes as A
from otel_grounding import metrics as M
from otel_grounding.conventions import native

from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES, Pipeline, attrs


def _agent_traffic(tracer, runs: int, thread: int) -> list[int]:
    """Runs with tools, LLM steps and ordinary spans; returns every span id created."""
    ids = []
    for i in range(runs):
        with tracer.start_as_current_span(f"run-{thread}-{i}") as run:
            ids.append(run.get_span_context().span_id)
            for source in GOLDEN_SOURCES:
                with tracer.start_as_current_span(
                    "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: source}
                ) as tool:
                    ids.append(tool.get_span_context().span_id)
            with tracer.start_as_current_span("db query") as plain:
                ids.append(plain.get_span_context().span_id)
            run.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    return ids


@pytest.mark.parametrize("shell", ["processor", "exporter"])
def test_conservation_under_eight_threads(shell: str) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    if shell == "processor":
        batch = BatchSpanProcessor(exporter, max_queue_size=100_000, schedule_delay_millis=50)
        provider.add_span_processor(GroundingSpanProcessor(batch, min_claim_grounding_rate=0.7))
    else:
        grounding = GroundingSpanExporter(exporter, min_claim_grounding_rate=0.7)
        provider.add_span_processor(
            BatchSpanProcessor(grounding, max_queue_size=100_000, schedule_delay_millis=50)
        )
    tracer = provider.get_tracer("load")
    created: list[list[int]] = [[] for _ in range(8)]
    threads = [
        threading.Thread(target=lambda n=n: created[n].extend(_agent_traffic(tracer, 150, n)))
        for n in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert provider.force_flush()
    if shell == "exporter":
        # The SDK's BatchSpanProcessor.force_flush does not flush its exporter: the runs
        # still being graded are drained by the exporter's own force_flush (or shutdown).
        assert grounding.force_flush()
    flushed = len(exporter.get_finished_spans())
    provider.shutdown()
    out = exporter.get_finished_spans()
    expected = Counter(i for ids in created for i in ids)
    exported = Counter(s.context.span_id for s in out)
    assert exported == expected  # every span exactly once
    assert flushed == len(out)  # force_flush delivered everything before shutdown
    runs = [s for s in out if s.name.startswith("run-")]
    assert len(runs) == 8 * 150
    assert all(attrs(r)[A.CLAIMS_GROUNDED] == 2 and attrs(r)[A.BELOW_THRESHOLD] for r in runs)


HOSTILE_OUTPUTS = [
    12345,
    3.5,
    True,
    ["list", "of", "strings"],
    [1, 2, 3],
    "",
    "x" * 2_000_000,
    "lone \ud800 surrogate. The capital of France is Paris \udfff here.",
    "\x00\x01 control. " * 1000,
    "{not json",
    '{"a": [1, 2, {"b": "naïve café"}]}',
]


@pytest.mark.parametrize("output", HOSTILE_OUTPUTS, ids=range(len(HOSTILE_OUTPUTS)))
def test_hostile_run_attributes_never_raise_and_still_grade(output) -> None:
    p = Pipeline(min_claim_grounding_rate=0.5, critical_anchors=["number", "url"])
    with p.run(**{native.RUN_TOOL_STEPS: "three", native.RUN_TOOL_OUTPUTS: [1, 2]}) as span:
        span.add_event(native.STEP_EVENT, {native.STEP_TYPE: "tool", native.STEP_OUTPUT: [True, False]})
        span.add_event(native.STEP_EVENT, {native.STEP_TYPE: ["tool"]})
        span.add_event("odd", {"": "", "k": ["a", "b"]})
        p.tool(output)
        p.tool(None)
        p.tool("ok", **{native.RUN_ID: 42})
        span.set_attribute(native.RUN_OUTPUT, output)
        span.set_attribute(native.PROJECT_ID, 7)
    run = attrs(p.span("run"))
    assert run[A.GRADE] in GRADES
    assert len(p.spans()) == 4


def test_surrogates_in_tool_outputs_and_output() -> None:
    p = Pipeline()
    with p.run() as span:
        p.tool("Paris \ud800 is the capital of France.")
        span.set_attribute(native.RUN_OUTPUT, "The capital \udc00 of France is Paris.")
    assert attrs(p.span("run"))[A.RATE] == 1.0


def test_local_root_ending_releases_its_trace() -> None:
    p = Pipeline()
    for i in range(100):
        with p.tracer.start_as_current_span("agent"):
            p.tool("tool output %d" % i)
    assert p.processor.pipeline.store.buffered_traces == 0


def test_flood_of_traces_that_never_end_a_run_stays_within_budget() -> None:
    budget = 2 * 1024 * 1024
    p = Pipeline(num_traces=5_000, max_buffer_bytes=budget)
    assembly = p.processor.pipeline.store
    peak = 0
    for i in range(100_000):
        agent = p.tracer.start_span("agent")  # never ended: its tool output waits for a run
        with p.tracer.start_as_current_span(
            "tool",
            context=trace.set_span_in_context(agent),
            attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: f"tool output {i} " * 4},
        ):
            pass
        if i % 100 == 0:
            peak = max(peak, assembly.buffered_bytes)
    assert 0 < peak <= budget
    assert assembly.buffered_traces <= 5_000
    evicted = sum(pt.value for pt in p.metric_points(M.TRACES_EVICTED))
    assert evicted >= 95_000
    assert len(p.spans()) == 100_000


def test_run_whose_evidence_was_evicted_grades_partial() -> None:
    p = Pipeline(num_traces=1)

    remote = SpanContext(0xABC, 1, is_remote=True, trace_flags=TraceFlags(1))
    ctx = trace.set_span_in_context(NonRecordingSpan(remote))
    with p.tracer.start_as_current_span("run", context=ctx) as run:
        p.tool(GOLDEN_SOURCES[0])
        with p.tracer.start_as_current_span("elsewhere", context=trace.set_span_in_context(
            NonRecordingSpan(SpanContext(0xDEF, 2, is_remote=True, trace_flags=TraceFlags(1)))
        )):
            p.tool("another trace's tool evicts the first")
        run.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    out = attrs(p.span("run"))
    assert out[A.GRADE] == "partial"
    assert A.REASON_EVIDENCE_EVICTED in out[A.COVERAGE_REASON]
