"""Scale-out through the real Collector: two relay processes behind its `loadbalancing` exporter.

    test client --OTLP/gRPC, 5 requests--> front otelcol-grounding (otelcol-loadbalancing.yaml:
        routing_key traceID, static resolver listing the two relays)
          |-- relay 1 (`python -m otel_grounding.relay`) --.
          `-- relay 2 ----------------------------------------+--> backend otelcol-grounding
                                                                   (otelcol.yaml) --> Jaeger v2

Runs whose spans are split across requests (tools in one request mixing traces, intermediate
spans in another, runs in a third) are each scored exactly once, with their full evidence, on
whichever replica the Collector's consistent hashing gives their trace; Jaeger's query API shows
every span once. The control group, spread round-robin without trace-id routing, shows why the
routing matters: runs lose evidence to the other replica.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import yaml

from otel_grounding import attributes as A
from otel_grounding.conventions import native

from e2e_support import wait_until
from otel_stack import (
    OTELCOL,
    OTELCOL_LOADBALANCING,
    Service,
    collector_with_jaeger,
    jaeger_api,
    kept,
    start_collector,
    tags,
)
from relay_kit import RelayProcess, grpc_export, make_request, make_span, start_relay

pytestmark = pytest.mark.needs_build  # `make check` leaves it out

OUTPUT = "The capital of France is Paris. The Eiffel Tower is in Paris."
SOURCES = ("Paris is the capital of France.", "The Eiffel Tower stands in Paris, France.")
RUNS = 20  # with two replicas, each owns at least two of them but with odds ~4e-5
SPANS_PER_TRACE = 4
WAIT_DURATION = "5"  # how long a relay holds a run for tools still on their way


def make_trace(index: int) -> dict[str, Any]:
    trace_id = os.urandom(16)
    run_id, step_id, tool_a, tool_b = (os.urandom(8) for _ in range(4))
    now = time.time_ns()
    times = {"start": now - 2_000_000_000, "end": now - 1_000_000_000}
    return {
        "trace_id": trace_id,
        "run_id": run_id,
        "run": make_span(trace_id, run_id, None, "invoke_agent", {
            native.RUN_ID: f"scale-{index}", native.RUN_OUTPUT: OUTPUT,
            native.RUN_TOOL_STEPS: 2}, **times),
        "step": make_span(trace_id, step_id, run_id, "plan step", **times),
        "tools": [
            make_span(trace_id, tool_a, step_id, "tool", {
                native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCES[0]}, **times),
            make_span(trace_id, tool_b, step_id, "tool", {
                native.STEP_TYPE: "tool", native.STEP_OUTPUT: SOURCES[1]}, **times),
        ],
    }


class ScaleOut:
    def __init__(self, jaeger: Service, backend: Service, relays: list[RelayProcess],
                 front: Service) -> None:
        self.jaeger, self.backend, self.relays, self.front = jaeger, backend, relays, front

    @property
    def front_target(self) -> str:
        return self.front.endpoints["otlp_grpc"].removeprefix("http://")

    def diagnostics(self) -> str:
        parts = [s.diagnostics() for s in (self.front, self.backend, self.jaeger)]
        parts += [f"--- relay {i}:\n{r.log_text()[-3000:]}" for i, r in enumerate(self.relays)]
        return "\n".join(parts)

    def trace(self, trace_id: bytes) -> list[dict[str, Any]]:
        """The spans Jaeger holds for one trace (its query API, as the UI reads a trace)."""
        try:
            data = jaeger_api(self.jaeger.endpoints["query"], f"/api/traces/{trace_id.hex()}")
        except OSError:  # 404 until the first span of the trace is stored
            return []
        return [span for trace in data.get("data") or [] for span in trace["spans"]]

    def wait_for_traces(self, traces: list[dict[str, Any]]) -> dict[bytes, list[dict[str, Any]]]:
        def complete() -> dict[bytes, list[dict[str, Any]]] | None:
            found = {t["trace_id"]: self.trace(t["trace_id"]) for t in traces}
            return found if all(len(s) >= SPANS_PER_TRACE for s in found.values()) else None
        return wait_until(complete, timeout=60, interval=1.0,
                          what=f"{len(traces)} complete traces in Jaeger",
                          diagnostics=self.diagnostics)


@pytest.fixture(scope="module")
def scaleout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScaleOut]:
    tmp = tmp_path_factory.mktemp("scaleout")
    with ExitStack() as stop:
        jaeger, backend = collector_with_jaeger(stop, tmp, [OTELCOL], name="backend-otelcol")
        relays = []
        for _ in range(2):
            relay = start_relay(backend.endpoints["otlp_grpc"], "--wait-duration", WAIT_DURATION)
            stop.callback(relay.close)
            relays.append(relay)
        front = kept(stop, start_collector(
            tmp, [OTELCOL_LOADBALANCING], name="front-otelcol",
            RELAY_1_ENDPOINT=relays[0].grpc_target, RELAY_2_ENDPOINT=relays[1].grpc_target))
        yield ScaleOut(jaeger, backend, relays, front)


def test_every_run_scored_once_with_full_evidence_behind_the_collectors_loadbalancing(
        scaleout: ScaleOut) -> None:
    traces = [make_trace(i) for i in range(RUNS)]
    rng = random.Random(7)
    tools = [span for t in traces for span in t["tools"]]
    rng.shuffle(tools)
    # requests mixing traces; every trace's spans spread over three of them, its run span
    # sometimes before some of its tools
    requests = [tools[: len(tools) // 2], [t["run"] for t in traces[: RUNS // 2]],
                [t["step"] for t in traces], tools[len(tools) // 2:],
                [t["run"] for t in traces[RUNS // 2:]]]
    for spans in requests:
        grpc_export(scaleout.front_target, make_request(spans, service="scaleout-agent")
                    .SerializeToString())

    stored = scaleout.wait_for_traces(traces)
    for trace in traces:
        spans = stored[trace["trace_id"]]
        assert len(spans) == SPANS_PER_TRACE, spans  # nothing lost, nothing duplicated
        scored = [s for s in spans if A.GRADE in tags(s)]
        assert len(scored) == 1, f"{trace['run_id'].hex()} scored {len(scored)} times"
        run = tags(scored[0])
        assert run[native.RUN_ID] == f"scale-{traces.index(trace)}"
        assert run[A.GRADE] == "full", run
        assert run[A.EVIDENCE_SOURCES] == 2 and run[A.CLAIMS_GROUNDED] == 2, run
        assert A.COVERAGE_REASON not in run
    # both replicas worked, each span went to exactly one of them, each run scored once
    received = [r.metric("otel_grounding.relay.spans_received") for r in scaleout.relays]
    assert sum(received) == RUNS * SPANS_PER_TRACE, received
    seen = [r.metric("ferrumdeck.reliability.runs_scored") for r in scaleout.relays]
    assert sum(seen) == RUNS and min(seen) >= 2, seen


def test_without_trace_id_routing_runs_lose_evidence(scaleout: ScaleOut) -> None:
    """Control: the same shape spread round-robin straight to the relays."""
    control = [make_trace(100 + i) for i in range(4)]
    relays = scaleout.relays
    for i, trace in enumerate(control):
        grpc_export(relays[i % 2].grpc_target,
                    make_request(trace["tools"], service="scaleout-control").SerializeToString())
        grpc_export(relays[(i + 1) % 2].grpc_target,
                    make_request([trace["step"], trace["run"]], service="scaleout-control")
                    .SerializeToString())
    stored = scaleout.wait_for_traces(control)
    for trace in control:
        run = next(tags(s) for s in stored[trace["trace_id"]] if A.GRADE in tags(s))
        assert run[A.GRADE] == "partial", run
        assert A.REASON_TOOL_STEPS_MISSING in run[A.COVERAGE_REASON]


def test_relays_and_collectors_stop_cleanly(scaleout: ScaleOut) -> None:
    for relay in scaleout.relays:
        assert relay.terminate() == 0, relay.log_text()[-3000:]
    for collector in (scaleout.front, scaleout.backend):
        collector.process.popen.terminate()
        assert collector.process.popen.wait(timeout=30) == 0, collector.diagnostics()


def test_loadbalancing_config_routes_by_trace_id_to_relay_replicas() -> None:
    """The shipped configuration says what the tests above run."""
    config = yaml.safe_load((Path(__file__).parent.parent / "collector-config" /
                             "otelcol-loadbalancing.yaml").read_text())
    exporter = config["exporters"]["loadbalancing"]
    assert exporter["routing_key"] == "traceID"
    hostnames = exporter["resolver"]["static"]["hostnames"]
    assert len(hostnames) >= 2 and all(h.rstrip("}").endswith(":4317") for h in hostnames)
    assert "otlp" in exporter["protocol"]
    assert exporter["retry_on_failure"]["enabled"] is True
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["loadbalancing"]
