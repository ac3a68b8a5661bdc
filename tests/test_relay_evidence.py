"""The relay's defaults keep a run's evidence: each span counts once against
`max_spans_per_trace`, evidence is kept for the trace retention (its own setting, far longer
than `wait_duration`), and a run whose evidence did expire grades partial, never flagged."""

from __future__ import annotations

import os
import time

from otel_grounding import attributes as A
from otel_grounding.conventions import native

from relay_kit import OtlpSink, grpc_export, make_request, make_span, start_relay

SOURCE = "Paris is the capital of France."
ANSWER = "The capital of France is Paris."


def _tool(trace_id: bytes, run_id: bytes, number: int) -> object:
    return make_span(trace_id, os.urandom(8), run_id, f"tool{number}", {
        native.STEP_TYPE: "tool", native.STEP_OUTPUT: f"{SOURCE} Fact {number}."})


def _run(trace_id: bytes, run_id: bytes) -> object:
    return make_span(trace_id, run_id, None, "run", {
        native.RUN_ID: run_id.hex(), native.RUN_OUTPUT: ANSWER})


def _scored_run(sink: OtlpSink, trace_id: bytes, timeout: float = 10.0) -> dict:
    def found() -> list:
        return [s for s in sink.spans() if s.span.trace_id == trace_id and s.span.name == "run"]

    assert sink.wait_until(lambda: bool(found()), timeout)
    (run,) = found()
    return {"attributes": run.attributes, "events": [e[0] for e in run.events]}


def test_each_span_counts_once_against_the_per_trace_span_budget():
    """A 601-span trace (a run and 600 tool spans, the default budget is 1,000 spans): every
    tool output is the run's evidence."""
    with OtlpSink() as sink, start_relay(sink.endpoint, "--wait-duration", "0.3") as relay:
        trace_id, run_id = os.urandom(16), os.urandom(8)
        spans = [_tool(trace_id, run_id, i) for i in range(600)] + [_run(trace_id, run_id)]
        grpc_export(relay.grpc_target, make_request(spans).SerializeToString())
        run = _scored_run(sink, trace_id)["attributes"]
        assert run[A.EVIDENCE_SOURCES] == 600
        assert run[A.GRADE] == "full", run.get(A.COVERAGE_REASON)
        assert relay.metric("otel_grounding.traces_evicted") == 0
        assert relay.terminate() == 0


def test_evidence_is_kept_for_the_trace_retention_not_twice_the_wait():
    """The run arrives well after 2 x wait_duration after its last tool span: still full."""
    with OtlpSink() as sink, start_relay(sink.endpoint, "--wait-duration", "0.3") as relay:
        trace_id, run_id = os.urandom(16), os.urandom(8)
        grpc_export(relay.grpc_target, make_request([_tool(trace_id, run_id, 0)]).SerializeToString())
        time.sleep(2.5)  # past 2 x wait and past the relay's once-a-second expiry pass
        grpc_export(relay.grpc_target, make_request([_run(trace_id, run_id)]).SerializeToString())
        run = _scored_run(sink, trace_id)["attributes"]
        assert run[A.GRADE] == "full" and run[A.EVIDENCE_SOURCES] == 1
        assert run[A.BELOW_THRESHOLD] is False
        assert relay.terminate() == 0


def test_a_run_whose_evidence_expired_grades_partial_and_is_never_flagged():
    with OtlpSink() as sink, start_relay(
        sink.endpoint, "--wait-duration", "0.3", "--trace-retention", "0.5",
        "--min-claim-grounding-rate", "0.7",
    ) as relay:
        trace_id, run_id = os.urandom(16), os.urandom(8)
        grpc_export(relay.grpc_target, make_request([_tool(trace_id, run_id, 0)]).SerializeToString())
        time.sleep(2.5)
        grpc_export(relay.grpc_target, make_request([_run(trace_id, run_id)]).SerializeToString())
        scored = _scored_run(sink, trace_id)
        run = scored["attributes"]
        assert run[A.GRADE] == "partial"
        assert A.REASON_EVIDENCE_EVICTED in run[A.COVERAGE_REASON].split(",")
        assert run.get(A.BELOW_THRESHOLD) is not True  # no alarm over evidence not seen
        assert A.FLAGGED_EVENT not in scored["events"]
        assert relay.metric("otel_grounding.traces_evicted") == 1  # counted
        assert relay.terminate() == 0


def test_a_request_delivered_twice_grades_its_run_once_and_both_copies_alike():
    """At-least-once delivery: the same request again after its run was released (a client
    retrying a request whose acknowledgement it lost). Both copies of the run span leave with
    the first copy's enrichment; the run is counted once."""
    with OtlpSink() as sink, start_relay(sink.endpoint, "--evidence-wait", "0.3") as relay:
        trace_id, run_id = os.urandom(16), os.urandom(8)
        request = make_request([_tool(trace_id, run_id, i) for i in range(3)]
                               + [_run(trace_id, run_id)]).SerializeToString()
        grpc_export(relay.grpc_target, request)
        _scored_run(sink, trace_id)
        grpc_export(relay.grpc_target, request)

        def copies() -> list:
            return [s for s in sink.spans() if s.span.trace_id == trace_id and s.span.name == "run"]

        assert sink.wait_until(lambda: len(copies()) == 2, 10)
        first, second = ({k: v for k, v in c.attributes.items() if k.startswith(A.PREFIX)}
                         for c in copies())
        assert first == second
        assert first[A.GRADE] == "full" and first[A.EVIDENCE_SOURCES] == 3
        assert relay.metric("ferrumdeck.reliability.runs_scored") == 1
        assert relay.terminate() == 0
