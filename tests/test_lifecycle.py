"""A run's life in the processor: graded off the application's thread, waiting for steps still
open, released once graded, bounded per trace, and graded once however it is wrapped."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import ConfigError, GroundingSpanProcessor
from otel_grounding import attributes as A
from otel_grounding import metrics as M
from otel_grounding.config import DEFAULT_MAX_SPANS_PER_TRACE
from otel_grounding.conventions import native
from otel_grounding.trace_table import RECORD_OVERHEAD

from sdk_harness import GOLDEN_SOURCES, Pipeline, attrs, event_names

ANSWER = "The capital of France is Paris."
SOURCE = "Paris is the capital of France."


class ThreadRecorder(SimpleSpanProcessor):
    """The next processor, noting the thread each span arrives on (and able to stall it)."""

    def __init__(self, exporter: InMemorySpanExporter) -> None:
        super().__init__(exporter)
        self.threads: dict[str, str] = {}
        self.gate = threading.Event()
        self.gate.set()

    def on_end(self, span: ReadableSpan) -> None:
        self.threads[span.name] = threading.current_thread().name
        if threading.current_thread() is not threading.main_thread():
            self.gate.wait(10)
        super().on_end(span)


def _recording(**options) -> tuple[TracerProvider, GroundingSpanProcessor, ThreadRecorder, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    recorder = ThreadRecorder(exporter)
    processor = GroundingSpanProcessor(recorder, **options)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    return provider, processor, recorder, exporter


def _run(tracer, name: str = "run", output: str = ANSWER, source: str | None = SOURCE) -> None:
    with tracer.start_as_current_span(name) as run:
        if source is not None:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: source}
            ):
                pass
        run.set_attribute(native.RUN_OUTPUT, output)


# -- item 1: off the application's thread --------------------------------------------------------
def test_runs_are_graded_off_the_application_thread_by_default() -> None:
    provider, processor, recorder, exporter = _recording()
    tracer = provider.get_tracer("t")
    _run(tracer)
    assert recorder.threads["tool"] == threading.main_thread().name  # forwarded at once
    assert processor.force_flush()
    assert recorder.threads["run"] != threading.main_thread().name
    (run,) = [s for s in exporter.get_finished_spans() if s.name == "run"]
    assert run.attributes[A.RATE] == 1.0 and run.attributes[A.GRADE] == "full"


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_inline_scoring_is_an_explicit_opt_in(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if how == "environment":
        monkeypatch.setenv("OTEL_GROUNDING_SCORING_MODE", "inline")
        provider, _, recorder, exporter = _recording()
    else:
        provider, _, recorder, exporter = _recording(scoring_mode="inline")
    _run(provider.get_tracer("t"))
    # No flush: the run was graded and forwarded by the thread that ended it.
    assert recorder.threads["run"] == threading.main_thread().name
    (run,) = [s for s in exporter.get_finished_spans() if s.name == "run"]
    assert run.attributes[A.RATE] == 1.0


def test_unknown_scoring_mode_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="scoring_mode: 'sideways'"):
        _recording(scoring_mode="sideways")


def test_a_full_worker_forwards_the_run_at_once_unscored_and_counts_it() -> None:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    reader = InMemoryMetricReader()
    provider, processor, recorder, exporter = _recording(
        scoring_queue_size=2, min_claim_grounding_rate=0.9,
        meter_provider=MeterProvider(metric_readers=[reader]),
    )
    tracer = provider.get_tracer("t")
    recorder.gate.clear()  # the worker stalls forwarding its first run
    started = time.monotonic()
    for i in range(5):
        _run(tracer, name=f"run-{i}", output="Bananas are purple.")
    assert time.monotonic() - started < 5  # never blocked on the stalled worker
    refused = [s for s in exporter.get_finished_spans() if s.name.startswith("run-")]
    assert len(refused) == 3  # two held by the worker, three forwarded at once
    for span in refused:
        got = attrs(span)
        assert got[A.GRADE] == "partial"
        assert got[A.COVERAGE_REASON] == A.REASON_SCORING_OVERLOAD
        assert A.RATE not in got and got[A.BELOW_THRESHOLD] is False
        assert A.FLAGGED_EVENT not in event_names(span)
    recorder.gate.set()
    assert processor.force_flush()
    runs = Counter(s.name for s in exporter.get_finished_spans() if s.name.startswith("run-"))
    assert runs == Counter({f"run-{i}": 1 for i in range(5)})  # every run exactly once
    scored = [s for s in exporter.get_finished_spans() if A.RATE in attrs(s)]
    assert len(scored) == 2 and all(attrs(s)[A.BELOW_THRESHOLD] for s in scored)
    points = [
        p for rm in reader.get_metrics_data().resource_metrics for sm in rm.scope_metrics
        for m in sm.metrics if m.name == M.RUNS_OVERLOADED for p in m.data.data_points
    ]
    assert sum(p.value for p in points) == 3


def test_shutdown_drains_the_worker_before_the_next_processor() -> None:
    provider, processor, recorder, exporter = _recording()
    tracer = provider.get_tracer("t")
    for i in range(50):
        _run(tracer, name=f"run-{i}")
    provider.shutdown()
    runs = [s for s in exporter.get_finished_spans() if s.name.startswith("run-")]
    assert len(runs) == 50 and all(attrs(s)[A.RATE] == 1.0 for s in runs)


# -- item 3: long-lived traces -------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["background", "inline"])
def test_five_thousand_runs_under_one_long_lived_root_are_all_full_in_flat_memory(mode: str) -> None:
    p = Pipeline(min_claim_grounding_rate=0.7, scoring_mode=mode)
    assembly = p.processor.pipeline.store
    session = p.tracer.start_span("chat session")
    ctx = trace.set_span_in_context(session)
    peaks = []
    for i in range(5_000):
        with p.tracer.start_as_current_span(f"run-{i}", context=ctx) as run:
            for source in GOLDEN_SOURCES:
                p.tool(source)
            with p.tracer.start_as_current_span("db query"):
                pass
            run.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
        with p.tracer.start_as_current_span("heartbeat", context=ctx):
            pass
        # One turn of a chat session after another: each run is graded before the next one.
        assert p.processor.force_flush()
        if i % 500 == 499:
            peaks.append(assembly.buffered_bytes)
    session.end()
    runs = [s for s in p.spans() if s.name.startswith("run-")]
    assert len(runs) == 5_000
    assert Counter(attrs(r)[A.GRADE] for r in runs) == Counter({"full": 5_000})
    assert all(attrs(r)[A.RATE] == 1.0 and not attrs(r)[A.BELOW_THRESHOLD] for r in runs)
    # Flat: what graded runs held was released; what is left is at most one span cap of links.
    assert max(peaks) <= DEFAULT_MAX_SPANS_PER_TRACE * RECORD_OVERHEAD + 16 * 1024
    assert assembly.buffered_traces == 0


# -- item 4: a run that ends before its tool steps -----------------------------------------------
def _tool_outliving_its_run(p: Pipeline, *, end_tool_after: float | None) -> None:
    with p.tracer.start_as_current_span("run") as run:
        tool = p.tracer.start_span("tool", attributes={native.STEP_TYPE: "tool"})
        run.set_attribute(native.RUN_OUTPUT, ANSWER)
    if end_tool_after is not None:
        time.sleep(end_tool_after)
        tool.set_attribute(native.STEP_OUTPUT, SOURCE)
        tool.end()


def test_a_run_waits_for_its_tool_step_still_open() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7)
    _tool_outliving_its_run(p, end_tool_after=0.2)
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "full" and run[A.RATE] == 1.0 and run[A.EVIDENCE_SOURCES] == 1


@pytest.mark.parametrize("mode", ["background", "inline"])
def test_a_tool_step_that_never_ends_is_never_graded_full(mode: str) -> None:
    p = Pipeline(min_claim_grounding_rate=0.7, open_step_wait=0.2, scoring_mode=mode)
    _tool_outliving_its_run(p, end_tool_after=None)
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "partial"
    assert A.REASON_TOOL_STEPS_MISSING in run[A.COVERAGE_REASON].split(",")
    assert A.RATE not in run and run[A.BELOW_THRESHOLD] is False  # nothing read: no alarm


# -- item 5: one trace within the byte budget ----------------------------------------------------
def test_one_trace_is_held_within_the_byte_budget_and_its_run_says_so() -> None:
    budget = 64 * 1024
    p = Pipeline(max_buffer_bytes=budget, min_claim_grounding_rate=0.7)
    assembly = p.processor.pipeline.store
    peak = 0
    with p.run() as run:
        for i in range(200):
            p.tool(f"record {i}: " + "lorem ipsum " * 170)  # ~2 KB each, 400 KB in all
            peak = max(peak, assembly.buffered_bytes)
        p.tool(SOURCE)
        run.set_attribute(native.RUN_OUTPUT, ANSWER)
    assert 0 < peak <= budget
    got = attrs(p.span("run"))
    assert got[A.GRADE] == "partial"
    assert A.REASON_EVIDENCE_EVICTED in got[A.COVERAGE_REASON].split(",")
    assert got[A.RATE] == 1.0  # what was kept still grounds the answer
    assert sum(pt.value for pt in p.metric_points(M.TRACES_EVICTED)) >= 1


def test_a_run_whose_evidence_was_all_evicted_is_never_flagged() -> None:
    p = Pipeline(max_buffer_bytes=4096, min_claim_grounding_rate=0.7)
    with p.run("run-1") as run:
        p.tool("Paris " + "is the capital of France " * 400)  # alone over the budget
        run.set_attribute(native.RUN_OUTPUT, ANSWER)
    with p.run("run-2") as run:  # another run of another trace is not affected
        p.tool(SOURCE)
        run.set_attribute(native.RUN_OUTPUT, ANSWER)
    first, second = attrs(p.span("run-1")), attrs(p.span("run-2"))
    assert first[A.GRADE] == "partial" and first[A.COVERAGE_REASON] == A.REASON_EVIDENCE_EVICTED
    assert A.RATE not in first and first[A.BELOW_THRESHOLD] is False
    assert second[A.GRADE] == "full" and second[A.RATE] == 1.0


# -- issue 12 item 5: ownership ------------------------------------------------------------------
OPENLLMETRY_KIND = "traceloop.span.kind"


def test_a_wrapper_inside_a_wrapper_is_graded_once() -> None:
    """OpenLLMetry's CrewAI chain: workflow > task (also an invoke_agent) > agent."""
    p = Pipeline()
    with p.tracer.start_as_current_span("crew.workflow", attributes={OPENLLMETRY_KIND: "workflow"}):
        with p.tracer.start_as_current_span(
            "research.task",
            attributes={OPENLLMETRY_KIND: "task", "gen_ai.operation.name": "invoke_agent"},
        ):
            with p.tracer.start_as_current_span(
                "researcher.agent",
                attributes={OPENLLMETRY_KIND: "agent", "traceloop.entity.name": "researcher"},
            ) as agent:
                with p.tracer.start_as_current_span(
                    "lookup.tool",
                    attributes={OPENLLMETRY_KIND: "tool", "traceloop.entity.output": '"%s"' % SOURCE},
                ):
                    pass
                agent.set_attribute("traceloop.entity.output", '"%s"' % ANSWER)
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert graded == ["researcher.agent"]
    assert attrs(p.span("researcher.agent"))[A.RATE] == 1.0


@pytest.mark.parametrize("mode", ["background", "inline"])
def test_a_run_ending_after_its_local_root_still_gets_its_evidence(mode: str) -> None:
    p = Pipeline(scoring_mode=mode)
    root = p.tracer.start_span("run_stream root")
    run = p.tracer.start_span(  # OpenInference sets the span kind at start
        "on_messages_stream", context=trace.set_span_in_context(root),
        attributes={"openinference.span.kind": "AGENT"},
    )
    with p.tracer.start_as_current_span(
        "get_weather", context=trace.set_span_in_context(run),
        attributes={"openinference.span.kind": "TOOL", "output.value": SOURCE},
    ):
        pass
    root.end()  # the async generator's span ends after the root
    run.set_attribute("output.value", ANSWER)
    run.end()
    got = attrs(p.span("on_messages_stream"))
    assert got[A.GRADE] == "full" and got[A.RATE] == 1.0 and got[A.EVIDENCE_SOURCES] == 1
    assert p.processor.pipeline.store.buffered_traces == 0  # released once all ended


def test_an_unnamed_run_inside_a_named_run_is_one_run() -> None:
    """A named GenAI invoke_agent around an unnamed OpenInference AGENT span (AutoGen)."""
    p = Pipeline()
    with p.tracer.start_as_current_span(
        "invoke_agent assistant",
        attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "assistant"},
    ), p.tracer.start_as_current_span(
        "on_messages_stream", attributes={"openinference.span.kind": "AGENT"}
    ) as inner:
        with p.tracer.start_as_current_span(
            "get_weather", attributes={"openinference.span.kind": "TOOL", "output.value": SOURCE}
        ):
            pass
        inner.set_attribute("output.value", ANSWER)
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert graded == ["on_messages_stream"]
    assert attrs(p.span("on_messages_stream"))[A.RATE] == 1.0


def test_an_unnamed_run_ending_after_its_named_local_root_is_one_run() -> None:
    """AutoGen + OpenInference as recorded: the named `invoke_agent` root ends first, then the
    unnamed AGENT span of the async generator inside it; the answer is the last LLM step's."""
    p = Pipeline()
    root = p.tracer.start_span(
        "invoke_agent weather_agent",
        attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather_agent"},
    )
    inner = p.tracer.start_span(
        "weather_agent.on_messages_stream", context=trace.set_span_in_context(root),
        attributes={"openinference.span.kind": "AGENT"},
    )
    under = trace.set_span_in_context(inner)
    with p.tracer.start_as_current_span(
        "weather_agent.get_weather", context=under,
        attributes={"openinference.span.kind": "TOOL", "output.value": SOURCE},
    ):
        pass
    with p.tracer.start_as_current_span(
        "create", context=under,
        attributes={
            "openinference.span.kind": "LLM",
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.content": ANSWER,
        },
    ):
        pass
    root.end()  # the root ends while the async generator's span is still open
    inner.end()
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert graded == ["invoke_agent weather_agent"]
    got = attrs(p.span("invoke_agent weather_agent"))
    assert got[A.GRADE] == "full" and got[A.RATE] == 1.0 and got[A.EVIDENCE_SOURCES] == 1
    assert p.processor.pipeline.store.buffered_traces == 0


# -- a run with no answer of its own ------------------------------------------------------------
def _crew(p: Pipeline, *, tool: bool) -> None:
    """OpenLLMetry's CrewAI chain for a one-agent crew: an unnamed `invoke_agent` workflow with
    the crew's answer > task > the agent's run, which declares its tools and has no output."""
    with p.tracer.start_as_current_span(
        "crew.workflow", attributes={"gen_ai.operation.name": "invoke_agent"}
    ) as workflow:
        with p.tracer.start_as_current_span(
            "weather.task",
            attributes={OPENLLMETRY_KIND: "task", "gen_ai.operation.name": "invoke_agent"},
        ):
            with p.tracer.start_as_current_span(
                "weather_agent.agent",
                attributes={
                    OPENLLMETRY_KIND: "agent",
                    "gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": "weather_agent",
                    "crewai.agent.tools": '[{"name": "get_weather"}]',
                },
            ):
                if tool:
                    with p.tracer.start_as_current_span(
                        "get_weather.tool",
                        attributes={OPENLLMETRY_KIND: "tool", "traceloop.entity.output": '"%s"' % SOURCE},
                    ):
                        pass
        workflow.set_attribute("crewai.crew.result", ANSWER)


@pytest.mark.parametrize("mode", ["background", "inline"])
def test_a_run_without_an_answer_inside_the_same_run_with_one_is_graded_there(mode: str) -> None:
    """The agent's run has nothing to grade; the workflow around it (no agent named: the same
    logical run) holds the answer: graded once, there, with the agent's steps as its own."""
    p = Pipeline(min_claim_grounding_rate=0.7, scoring_mode=mode)
    _crew(p, tool=False)
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert graded == ["crew.workflow"]
    got = attrs(p.span("crew.workflow"))
    assert A.RATE not in got and got[A.GRADE] == "partial" and got[A.BELOW_THRESHOLD] is False
    assert got[A.COVERAGE_REASON] == A.REASON_EVIDENCE_UNAVAILABLE  # tools declared, none seen

    p = Pipeline(min_claim_grounding_rate=0.7, scoring_mode=mode)
    _crew(p, tool=True)
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert graded == ["crew.workflow"]
    got = attrs(p.span("crew.workflow"))
    assert got[A.GRADE] == "full" and got[A.RATE] == 1.0 and got[A.EVIDENCE_SOURCES] == 1
    assert p.processor.pipeline.store.buffered_traces == 0


def test_a_run_of_another_agent_around_one_without_an_answer_does_not_take_its_place() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7, open_step_wait=0.2)
    with p.tracer.start_as_current_span(
        "invoke_agent supervisor",
        attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "supervisor"},
    ) as outer:
        with p.tracer.start_as_current_span(
            "invoke_agent worker",
            attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "worker"},
        ):
            pass
        outer.set_attribute("gen_ai.output.messages", _assistant(ANSWER))
    graded = [s.name for s in p.spans() if A.GRADE in attrs(s)]
    assert sorted(graded) == ["invoke_agent supervisor", "invoke_agent worker"]
    assert attrs(p.span("invoke_agent worker"))[A.COVERAGE_REASON] == A.REASON_OUTPUT_UNAVAILABLE


def _assistant(text: str) -> str:
    return json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": text}]}])


LLAMA_TOOL = (
    '{"blocks": [{"block_type": "text", "text": "%s"}], "tool_name": "lookup", '
    '"raw_output": "%s", "is_error": false}' % (SOURCE, SOURCE)
)
LLAMA_ANSWER = (
    '{"result": {"response": {"role": "assistant", "blocks": '
    '[{"block_type": "text", "text": "%s"}]}, "tool_calls": []}}' % ANSWER
)


def test_a_run_ending_before_its_last_steps_start_waits_for_its_answer() -> None:
    """LlamaIndex workflows under OpenLLMetry end the workflow span before its last task spans
    start (the kind set after start): the run, with no answer yet, waits for an LLM step."""
    p = Pipeline(min_claim_grounding_rate=0.7)
    root = p.tracer.start_span("agent.workflow", attributes={OPENLLMETRY_KIND: "workflow"})
    context = trace.set_span_in_context(root)
    root.end()
    time.sleep(0.1)
    for output in (LLAMA_TOOL, LLAMA_ANSWER):
        task = p.tracer.start_span("step.task", context=context)
        task.set_attributes({OPENLLMETRY_KIND: "task", "traceloop.entity.output": output})
        task.end()
    got = attrs(p.span("agent.workflow"))
    assert got[A.GRADE] == "full" and got[A.RATE] == 1.0 and got[A.EVIDENCE_SOURCES] == 1
    assert p.processor.pipeline.store.buffered_traces == 0


def test_a_run_whose_answer_never_comes_is_graded_after_the_wait() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7, open_step_wait=0.2)
    started = time.monotonic()
    with p.tracer.start_as_current_span("agent.workflow", attributes={OPENLLMETRY_KIND: "workflow"}):
        pass
    got = attrs(p.span("agent.workflow"))
    assert time.monotonic() - started >= 0.2
    assert A.RATE not in got and got[A.GRADE] == "partial" and got[A.BELOW_THRESHOLD] is False
    assert got[A.COVERAGE_REASON] == A.REASON_OUTPUT_UNAVAILABLE
