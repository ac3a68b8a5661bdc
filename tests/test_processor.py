"""GroundingSpanProcessor in a real SDK pipeline: what is written, what is kept, what is read."""

from __future__ import annotations

import math

import pytest
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, StatusCode, TraceFlags

from otel_grounding import GroundingSpanProcessor
from otel_grounding import attributes as A
from otel_grounding import metrics as M
from otel_grounding.conventions import native

from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES, Pipeline, attrs, event_names


def test_golden_run_is_enriched_before_export() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7)
    p.golden_run(**{native.PROJECT_ID: "acme"})
    run = attrs(p.span("run"))
    assert run[A.CLAIMS_TOTAL] == 3
    assert run[A.CLAIMS_GROUNDED] == 2
    assert run[A.CLAIMS_CHECKED] == 3
    assert run[A.RATE] == pytest.approx(2 / 3)
    assert run[A.BELOW_THRESHOLD] is True
    assert run[A.THRESHOLD] == 0.7
    assert run[A.GRADE] == "full"
    assert run[A.PROJECT] == "acme"
    (flag,) = [e for e in p.span("run").events if e.name == A.FLAGGED_EVENT]
    assert dict(flag.attributes) == {"rate": pytest.approx(2 / 3), "threshold": 0.7, "project": "acme"}
    (claim,) = [e for e in p.span("run").events if e.name == A.CLAIM_EVENT]
    assert claim.attributes[A.CLAIM_EVENT_INDEX] == 2
    assert "Bananas" in claim.attributes[A.CLAIM_EVENT_EXCERPT]
    tool_ids = {f"{s.context.span_id:016x}" for s in p.spans() if s.name == "tool"}
    assert claim.attributes[A.CLAIM_EVENT_BEST_SOURCE_SPAN_ID] in tool_ids


def test_no_threshold_computes_but_never_flags() -> None:
    p = Pipeline()
    p.golden_run()
    run = attrs(p.span("run"))
    assert run[A.RATE] == pytest.approx(2 / 3)
    assert run[A.BELOW_THRESHOLD] is False
    assert A.THRESHOLD not in run
    assert A.FLAGGED_EVENT not in event_names(p.span("run"))


def test_project_settings_win_over_default_threshold() -> None:
    p = Pipeline(
        min_claim_grounding_rate=0.9,
        project_settings={"lenient": {"min_claim_grounding_rate": 0.5}, "other": {}},
    )
    p.golden_run("lenient-run", **{native.PROJECT_ID: "lenient"})
    p.golden_run("other-run", **{native.PROJECT_ID: "other"})
    p.golden_run("default-run")
    assert attrs(p.span("lenient-run"))[A.THRESHOLD] == 0.5
    assert attrs(p.span("lenient-run"))[A.BELOW_THRESHOLD] is False
    assert attrs(p.span("other-run"))[A.THRESHOLD] == 0.9
    assert attrs(p.span("default-run"))[A.BELOW_THRESHOLD] is True


def test_project_defaults_to_service_name_and_is_configurable() -> None:
    p = Pipeline(project_settings={"svc": {"min_claim_grounding_rate": 0.95}}, resource={"service.name": "svc"})
    p.golden_run()
    assert attrs(p.span("run"))[A.THRESHOLD] == 0.95
    q = Pipeline(project_attribute="tenant", project_settings={"t1": {"min_claim_grounding_rate": 0.1}})
    q.golden_run(tenant="t1")
    assert attrs(q.span("run"))[A.PROJECT] == "t1"
    assert attrs(q.span("run"))[A.THRESHOLD] == 0.1


def test_everything_else_about_the_span_is_kept() -> None:
    limits = SpanLimits(max_span_attributes=5, max_events=2, max_links=1)
    p = Pipeline(span_limits=limits)
    other = p.tracer.start_span("linked")
    other.end()
    links = [Link(other.get_span_context(), {"k": 1}), Link(other.get_span_context())]
    with p.tracer.start_as_current_span("run", kind=SpanKind.SERVER, links=links) as span:
        for i in range(6):
            span.set_attribute(f"app.attr{i}", i)
        for i in range(3):
            span.add_event(f"app.event{i}", {"i": i})
        span.set_status(Status(StatusCode.ERROR, "tool timed out"))
        p.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    out = p.span("run")
    original = [s for s in p.spans() if s.name == "run"][0]
    assert out.kind is SpanKind.SERVER
    assert out.status.status_code is StatusCode.ERROR and out.status.description == "tool timed out"
    assert out.dropped_attributes == 2  # 7 app attributes into 5 slots
    assert out.dropped_events == 1
    assert out.dropped_links == 1
    assert [e.name for e in out.events][:2] == ["app.event1", "app.event2"]
    assert len(out.links) == 1 and out.links[0].context == other.get_span_context()
    assert out.start_time == original.start_time and out.end_time > out.start_time
    assert out.instrumentation_scope.name == "tests"
    assert out.resource.attributes["service.name"] == "test-agent"
    kept = {k: v for k, v in attrs(out).items() if not k.startswith(A.PREFIX)}
    assert kept == {"app.attr2": 2, "app.attr3": 3, "app.attr4": 4, "app.attr5": 5, native.RUN_OUTPUT: GOLDEN_OUTPUT}
    assert A.GRADE in attrs(out)  # computed attributes survive the count limit


def test_computed_attributes_do_not_evict_application_attributes() -> None:
    p = Pipeline()  # default count limit 128
    with p.run() as span:
        for i in range(127):
            span.set_attribute(f"app.{i}", i)
        span.set_attribute(native.RUN_OUTPUT, "Paris is the capital of France.")
    out = attrs(p.span("run"))
    assert all(f"app.{i}" in out for i in range(127))
    assert out[A.GRADE] == "full"


def test_a_next_processor_that_acts_on_start_gets_every_start_with_its_parent_context() -> None:
    started: list[tuple[str, object]] = []

    class Acting(SimpleSpanProcessor):
        def on_start(self, span: Span, parent_context: Context | None = None) -> None:
            started.append((span.name, parent_context))

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(GroundingSpanProcessor(Acting(exporter), scoring_mode="inline"))
    tracer = provider.get_tracer("t")
    parent = trace.set_span_in_context(trace.NonRecordingSpan(SpanContext(7, 8, is_remote=True, trace_flags=TraceFlags(TraceFlags.SAMPLED))))
    with tracer.start_as_current_span("run", context=parent) as run:
        with tracer.start_as_current_span("http GET"):
            pass
        run.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    assert [name for name, _ in started] == ["run", "http GET"]
    assert started[0][1] is parent
    assert [s.name for s in exporter.get_finished_spans()] == ["http GET", "run"]
    assert A.GRADE in attrs(exporter.get_finished_spans()[1])


def test_non_run_spans_are_forwarded_as_the_same_object() -> None:
    p = Pipeline()
    seen_in = []
    on_end = p.processor.on_end
    p.processor.on_end = lambda span: (seen_in.append(span), on_end(span))
    with p.tracer.start_as_current_span("http GET", attributes={"http.method": "GET"}):
        pass
    p.golden_run()
    seen_out = p.spans()  # what the next processor handed its exporter
    assert seen_out[0] is seen_in[0]
    assert seen_out[-1].name == seen_in[-1].name == "run"
    assert seen_out[-1] is not seen_in[-1]  # the run span is replaced by its enriched copy


def test_every_span_is_counted_once_whichever_way_it_goes() -> None:
    """Ordinary spans leave from the processor's own test, the others through the lifecycle:
    `spans_seen` counts each span once either way (an ordinary span in a trace holding state
    and a hand-built span without the SDK's fields go the long way)."""
    p = Pipeline()
    pipeline = p.processor.pipeline
    with p.tracer.start_as_current_span("http GET", attributes={"http.method": "GET"}):
        pass
    assert pipeline.spans_seen() == 1
    with p.run():
        with p.tracer.start_as_current_span("tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: "x"}):
            pass
        with p.tracer.start_as_current_span("db"):  # ordinary, in a trace that holds a step
            pass
    assert pipeline.spans_seen() == 4
    sampled = SpanContext(7, 8, is_remote=False, trace_flags=TraceFlags(TraceFlags.SAMPLED))
    p.processor.on_end(ReadableSpan("by hand", context=sampled, attributes={"http.method": "GET"}))
    assert pipeline.spans_seen() == 5
    assert [s.name for s in p.spans()] == ["http GET", "tool", "db", "run", "by hand"]


@pytest.mark.parametrize(
    "declared, tools, reason",
    [
        (3, [GOLDEN_SOURCES[0], GOLDEN_SOURCES[1]], A.REASON_TOOL_STEPS_MISSING),
        (None, [GOLDEN_SOURCES[0], None], A.REASON_EVIDENCE_UNAVAILABLE),
    ],
)
def test_missing_evidence_grades_partial(declared, tools, reason) -> None:
    p = Pipeline()
    run_attrs = {} if declared is None else {native.RUN_TOOL_STEPS: declared}
    with p.run(**run_attrs) as span:
        for t in tools:
            p.tool(t)
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "partial"
    assert reason in run[A.COVERAGE_REASON].split(",")
    assert run[A.RATE] == 1.0


def test_output_not_captured_writes_no_rate() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7)
    with p.run(**{native.RUN_ID: "r-1"}):
        p.tool(GOLDEN_SOURCES[0])
    run = attrs(p.span("run"))
    assert A.RATE not in run
    assert run[A.GRADE] == "partial"
    assert run[A.COVERAGE_REASON] == A.REASON_OUTPUT_UNAVAILABLE
    assert run[A.BELOW_THRESHOLD] is False
    assert run[A.CLAIMS_TOTAL] == 0


def test_values_cut_at_the_sdk_length_limit_grade_partial() -> None:
    p = Pipeline(span_limits=SpanLimits(max_span_attribute_length=40))
    with p.run() as span:
        p.tool("Paris is the capital of France and its largest city by far.")
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "partial"
    assert A.REASON_EVIDENCE_TRUNCATED in run[A.COVERAGE_REASON]
    q = Pipeline(span_limits=SpanLimits(max_span_attribute_length=20))
    with q.run() as span:
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    assert A.REASON_OUTPUT_TRUNCATED in attrs(q.span("run"))[A.COVERAGE_REASON]


def test_sources_attached_to_the_run_span() -> None:
    p = Pipeline()
    with p.run() as span:
        span.set_attribute(native.RUN_TOOL_OUTPUTS, [GOLDEN_SOURCES[0]])
        span.add_event(native.STEP_EVENT, {native.STEP_TYPE: "tool", native.STEP_OUTPUT: GOLDEN_SOURCES[1]})
        span.add_event(native.STEP_EVENT, {native.STEP_TYPE: "llm", native.STEP_OUTPUT: "Bananas purple fly moon distant"})
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    run = attrs(p.span("run"))
    assert run[A.CLAIMS_GROUNDED] == 2 and run[A.EVIDENCE_SOURCES] == 2


def test_llm_steps_are_never_sources() -> None:
    p = Pipeline()
    with p.run() as span:
        with p.tracer.start_as_current_span(
            "llm", attributes={native.STEP_TYPE: "llm", native.STEP_OUTPUT: GOLDEN_OUTPUT}
        ):
            pass
        span.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    assert attrs(p.span("run"))[A.CLAIMS_GROUNDED] == 0


def test_nested_runs_nearest_ancestor_and_explicit_run_id() -> None:
    p = Pipeline()
    with p.run("outer", **{native.RUN_ID: "outer"}) as outer:
        with p.run("inner", **{native.RUN_ID: "inner"}) as inner:
            p.tool("Paris is the capital of France.")
            p.tool("Bananas are purple and fly to the distant moon.", **{native.RUN_ID: "outer"})
            inner.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
        outer.set_attribute(native.RUN_OUTPUT, "Bananas are purple and fly to the distant moon.")
    assert attrs(p.span("inner"))[A.RATE] == 1.0
    assert attrs(p.span("inner"))[A.EVIDENCE_SOURCES] == 1
    assert attrs(p.span("outer"))[A.RATE] == 1.0
    assert attrs(p.span("outer"))[A.EVIDENCE_SOURCES] == 1


def test_tool_outputs_from_other_traces_are_not_evidence() -> None:
    p = Pipeline()
    with p.run("other-run"):
        p.tool("Paris is the capital of France.")
    with p.run() as span:
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    assert attrs(p.span("run"))[A.RATE] == 0.0


def test_claim_events_capped_and_switchable() -> None:
    output = ". ".join(f"Claim number {i} mentions zebra{i} quokka{i}" for i in range(30))
    p = Pipeline(max_claim_events=4)
    with p.run() as span:
        span.set_attribute(native.RUN_OUTPUT, output)
    assert event_names(p.span("run")).count(A.CLAIM_EVENT) == 4
    q = Pipeline(claim_events=False)
    with q.run() as span:
        span.set_attribute(native.RUN_OUTPUT, output)
    assert A.CLAIM_EVENT not in event_names(q.span("run"))


def test_strip_content_removes_raw_content_after_scoring() -> None:
    p = Pipeline(strip_content=True)
    p.golden_run()
    run = attrs(p.span("run"))
    assert native.RUN_OUTPUT not in run and run[A.CLAIMS_GROUNDED] == 2
    assert all(native.STEP_OUTPUT not in attrs(s) for s in p.spans() if s.name == "tool")
    q = Pipeline()
    q.golden_run()
    assert native.RUN_OUTPUT in attrs(q.span("run"))


def test_critical_anchors_reported() -> None:
    p = Pipeline(critical_anchors=["money"])
    with p.run() as span:
        p.tool("Invoice total: 1,200 USD, due in March.")
        span.set_attribute(native.RUN_OUTPUT, "The invoice total is $1,200 and a fee of $35 applies.")
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "critical-uncovered"
    assert run[A.CRITICAL_ANCHORS_TOTAL] == 2
    assert run[A.CRITICAL_ANCHORS_UNCOVERED] == 1


def test_bound_that_cut_is_named_and_coverage_capped() -> None:
    p = Pipeline(max_claims=1, full_coverage_target=True)
    p.golden_run()
    run = attrs(p.span("run"))
    assert run[A.TRUNCATED_BY] == "max_claims"
    assert run[A.GRADE] == "coverage-capped"
    assert run[A.CLAIMS_CHECKED] == 1 and run[A.CLAIMS_TOTAL] == 3


def test_metrics_recorded_with_bounded_labels() -> None:
    p = Pipeline(min_claim_grounding_rate=0.7, max_project_labels=2)
    for project in ("a", "b", "c", "d"):
        p.golden_run(**{native.PROJECT_ID: project})
    scored = p.metric_points(M.RUNS_SCORED)
    assert sum(pt.value for pt in scored) == 4
    assert {pt.attributes["project"] for pt in scored} == {"a", "b", "other"}
    assert all(pt.attributes["grade"] == "full" and pt.attributes["below_threshold"] == "true" for pt in scored)
    assert sum(pt.value for pt in p.metric_points(M.RUNS_FLAGGED)) == 4
    rate = p.metric_points(M.RATE_HISTOGRAM)
    assert sum(pt.count for pt in rate) == 4
    assert math.isclose(sum(pt.sum for pt in rate), 4 * 2 / 3)
    assert p.metric_points(M.SPANS_SEEN)[0].value == 12


def test_tally_counters_export_what_a_synchronous_counter_would() -> None:
    """Counters kept in process: monotonic cumulative sums, one point per label set whatever
    the order of the labels, under concurrent adds."""
    import threading

    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader, Sum

    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("t")
    tally = M.Tally(meter, "t.count", unit="{x}", description="d")
    counter = meter.create_counter("t.sync", unit="{x}", description="d")

    def work() -> None:
        for n in range(1000):
            labels = {"a": "1", "b": str(n % 2)} if n % 3 else {"b": str(n % 2), "a": "1"}
            tally.add(2, labels)
            counter.add(2, labels)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    metrics = {m.name: m for rm in reader.get_metrics_data().resource_metrics
               for sm in rm.scope_metrics for m in sm.metrics}
    ours, sync = metrics["t.count"].data, metrics["t.sync"].data
    assert isinstance(ours, Sum) and ours.is_monotonic
    assert ours.aggregation_temporality == sync.aggregation_temporality

    def points(data: Sum) -> dict:
        return {tuple(sorted(p.attributes.items())): p.value for p in data.data_points}
    assert points(ours) == points(sync) == {(("a", "1"), ("b", "0")): 4000,
                                            (("a", "1"), ("b", "1")): 4000}


@pytest.mark.parametrize(
    "declared, reason",
    [("3", A.REASON_TOOL_STEPS_MISSING), (3.0, A.REASON_TOOL_STEPS_MISSING),
     ("three", A.REASON_TOOL_STEPS_UNREADABLE), (2.5, A.REASON_TOOL_STEPS_UNREADABLE),
     (-1, A.REASON_TOOL_STEPS_UNREADABLE), (True, A.REASON_TOOL_STEPS_UNREADABLE)],
)
def test_wrong_typed_tool_step_count_is_read_or_graded_partial(declared, reason) -> None:
    p = Pipeline()
    with p.run(**{native.RUN_TOOL_STEPS: declared}) as span:
        p.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    run = attrs(p.span("run"))
    assert run[A.GRADE] == "partial"
    assert run[A.COVERAGE_REASON] == reason


def test_a_tool_step_count_read_as_what_it_says_can_be_complete() -> None:
    p = Pipeline()
    with p.run(**{native.RUN_TOOL_STEPS: "1"}) as span:
        p.tool(GOLDEN_SOURCES[0])
        span.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    assert attrs(p.span("run"))[A.GRADE] == "full"


def test_strip_content_keeps_claim_text_out_of_the_claim_events() -> None:
    p = Pipeline(strip_content=True)
    p.golden_run()
    (claim,) = [e for e in p.span("run").events if e.name == A.CLAIM_EVENT]
    got = dict(claim.attributes)
    assert set(got) == {
        A.CLAIM_EVENT_INDEX, A.CLAIM_EVENT_COVERED_FRACTION, A.CLAIM_EVENT_START,
        A.CLAIM_EVENT_END, A.CLAIM_EVENT_TOKENS, A.CLAIM_EVENT_TOKENS_UNCOVERED,
        A.CLAIM_EVENT_BEST_SOURCE_SPAN_ID,
    }
    assert GOLDEN_OUTPUT[got[A.CLAIM_EVENT_START]:got[A.CLAIM_EVENT_END]].strip().startswith("Bananas")
    assert 0 < got[A.CLAIM_EVENT_TOKENS_UNCOVERED] <= got[A.CLAIM_EVENT_TOKENS]
    words = {w.strip(".").lower() for w in GOLDEN_OUTPUT.split()}
    values = [v for e in p.span("run").events for v in dict(e.attributes or {}).values()]
    assert not any(isinstance(v, str) and v.lower() in words for v in values)
    assert not any(isinstance(v, (tuple, list)) for v in values)


def test_an_exporter_where_a_processor_goes_is_refused_at_construction() -> None:
    """`GroundingSpanProcessor(OTLPSpanExporter())` built, then raised AttributeError into the
    application at its first span; the exporter shell given a processor failed on export."""
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from otel_grounding import GroundingSpanExporter, GroundingSpanProcessor
    from otel_grounding.config import ConfigError

    with pytest.raises(ConfigError, match=r"InMemorySpanExporter has no on_start\(\).*"
                       r"GroundingSpanProcessor\(BatchSpanProcessor\(exporter\)\)"):
        GroundingSpanProcessor(InMemorySpanExporter())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"SimpleSpanProcessor has no export\(\)"):
        GroundingSpanExporter(SimpleSpanProcessor(InMemorySpanExporter()))  # type: ignore[arg-type]
