"""Scale-out: two relay processes behind a trace-id-routing front (a test-only stand-in for
the Collector's `loadbalancing` exporter with `routing_key: traceID`, whose binary cannot be
fetched here; collector-config/otelcol-loadbalancing.yaml is the real configuration).

Runs whose spans are split across requests (tools in one request mixing traces, intermediate
spans in another, runs in a third) are each scored exactly once, with their full evidence, on
whichever replica owns their trace. The control group, spread round-robin without trace-id
routing, shows why the routing matters: runs lose evidence to the other replica.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import yaml

from otel_grounding import attributes as A
from otel_grounding.conventions import native
from otel_grounding.relay.testing import (
    OtlpSink,
    TraceIdRouter,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)

OUTPUT = "The capital of France is Paris. The Eiffel Tower is in Paris."
SOURCES = ("Paris is the capital of France.", "The Eiffel Tower stands in Paris, France.")
RUNS = 8


def make_trace(index: int) -> dict[str, Any]:
    trace_id = os.urandom(16)
    run_id, step_id, tool_a, tool_b = (os.urandom(8) for _ in range(4))
    return {
        "trace_id": trace_id,
        "run_id": run_id,
        "run": make_span(trace_id, run_id, None, "invoke_agent", {
            native.RUN_ID: f"scale-{index}", native.RUN_OUTPUT: OUTPUT,
            native.RUN_TOOL_STEPS: 2}),
        "step": make_span(trace_id, step_id, run_id, "plan step"),
        "tools": [
            make_span(trace_id, tool_a, step_id, "tool", {
                native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCES[0]}),
            make_span(trace_id, tool_b, step_id, "tool", {
                native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCES[1]}),
        ],
    }


def traces_for_both(router: TraceIdRouter, count: int) -> list[dict[str, Any]]:
    """`count` traces, at least two of them owned by each replica."""
    while True:
        traces = [make_trace(i) for i in range(count)]
        owners = [router.backend_for(t["trace_id"]) for t in traces]
        if min(owners.count(0), owners.count(1)) >= 2:
            return traces


def test_every_run_scored_once_with_full_evidence_behind_trace_id_routing():
    with OtlpSink() as sink:
        relays = [start_relay(sink.endpoint, "--wait-duration", "0.8") for _ in range(2)]
        router = TraceIdRouter([r.grpc_target for r in relays]).start()
        try:
            traces = traces_for_both(router, RUNS)
            rng = random.Random(7)
            tools = [span for t in traces for span in t["tools"]]
            rng.shuffle(tools)
            # requests mixing traces; a trace's spans spread over several requests
            requests = [tools[: len(tools) // 2], [t["run"] for t in traces[: RUNS // 2]],
                        [t["step"] for t in traces], tools[len(tools) // 2:],
                        [t["run"] for t in traces[RUNS // 2:]]]
            for spans in requests:
                grpc_export(router.endpoint, make_request(spans).SerializeToString())
            expected = RUNS * 4
            assert sink.wait_for_spans(expected, timeout=10), sink.span_count
            assert router.routed[0] > 0 and router.routed[1] > 0  # both replicas worked

            runs = [s for s in sink.spans() if A.GRADE in s.attributes]
            by_run_id = {}
            for span in runs:
                by_run_id.setdefault(span.attributes[native.RUN_ID], []).append(span)
            assert sorted(by_run_id) == sorted(f"scale-{i}" for i in range(RUNS))
            for run_id, scored in by_run_id.items():
                assert len(scored) == 1, f"{run_id} scored {len(scored)} times"
                attrs = scored[0].attributes
                assert attrs[A.GRADE] == "full", (run_id, attrs)
                assert attrs[A.EVIDENCE_SOURCES] == 2 and attrs[A.CLAIMS_GROUNDED] == 2
                assert A.COVERAGE_REASON not in attrs
            assert sink.span_count == expected  # nothing lost, nothing duplicated
            seen = [r.metric("ferrumdeck.reliability.runs_scored") for r in relays]
            assert sum(seen) == RUNS and min(seen) >= 2

            # control: the same shape spread round-robin, without trace-id routing
            control = [make_trace(100 + i) for i in range(4)]
            for i, trace in enumerate(control):
                grpc_export(relays[i % 2].grpc_target,
                            make_request(trace["tools"]).SerializeToString())
                grpc_export(relays[(i + 1) % 2].grpc_target,
                            make_request([trace["step"], trace["run"]]).SerializeToString())
            assert sink.wait_for_spans(expected + 4 * 4, timeout=10)
            control_ids = {t["run_id"] for t in control}
            for span in sink.spans():
                if span.span.span_id in control_ids:
                    assert span.attributes[A.GRADE] == "partial"
                    assert A.REASON_TOOL_STEPS_MISSING in span.attributes[A.COVERAGE_REASON]
            for relay in relays:
                assert relay.terminate() == 0
        finally:
            router.stop()
            for relay in relays:
                relay.close()


def test_loadbalancing_config_routes_by_trace_id_to_relay_replicas():
    """The shipped Collector configuration says what the test above exercises."""
    text = (Path(__file__).parent.parent / "collector-config" / "otelcol-loadbalancing.yaml"
            ).read_text()
    config = yaml.safe_load(text)
    exporter = config["exporters"]["loadbalancing"]
    assert exporter["routing_key"] == "traceID"
    hostnames = exporter["resolver"]["static"]["hostnames"]
    assert len(hostnames) >= 2 and all(h.endswith(":4317") for h in hostnames)
    assert "otlp" in exporter["protocol"]
    assert exporter["retry_on_failure"]["enabled"] is True
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["loadbalancing"]
    for kind in ("receivers", "processors", "exporters"):
        for name in config["service"]["pipelines"]["traces"].get(kind, []):
            assert name in config[kind], f"pipeline uses undefined {kind[:-1]} {name!r}"
    for name in config["service"].get("extensions", []):
        assert name in config["extensions"]
