"""From the app to where operators look: the real Collector, real Jaeger v2, real Prometheus.

    otel-grounding demo (x3) --OTLP/gRPC traces--> otelcol-grounding (collector-config/otelcol.yaml)
    otel-grounding demo --framework pydantic-ai ----'   |-- otlp_grpc/jaeger --> jaeger (jaeger.yaml)
                                                        `-- spanmetrics --> prometheus exporter
                                                                  <-- scraped by prometheus
                                                                      (prometheus.yml, alerts.yml)

Everything is the pinned build (.ci/otel-binaries), on 127.0.0.1 ports chosen at run time, with
the shipped configurations; only their `${env:...}` endpoints and Prometheus's intervals (1 s)
and the alert `for` clauses (2 s) are changed. The apps export traces only to the Collector (their
own OTLP metrics go to a separate receiver), so the traces-only alert rule
(GroundingRunsBelowThresholdFromSpans) is the one that must fire.

What is read back is what an operator sees: Jaeger's query HTTP API (the one its UI reads) and
Prometheus's HTTP API. The flagged run span in Jaeger must carry exactly the
`ferrumdeck.reliability.*` attributes (values and types) that the same scripted run gets in
process, and the audit event.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.conventions import native
from otel_grounding.demo import PROJECT as DEMO_PROJECT
from otel_grounding.demo import SERVICE as DEMO_SERVICE
from otel_grounding.demo import run_demo

from e2e_support import (
    OTLPReceiver,
    clean_env,
    demo_command,
    prometheus_api,
    run,
    wait_until,
)
from otel_stack import (
    OTELCOL,
    Service,
    collector_with_jaeger,
    jaeger_traces,
    kept,
    prometheus_config,
    shortened_rules,
    start_prometheus,
    tags,
)

pytestmark = pytest.mark.needs_build  # `make check` leaves it out

REPLICAS = 3  # the traces-only page needs 3 flagged runs of a project in its window
FRAMEWORK = "pydantic-ai"
FLAGGED_RUN_ID = "demo-run-2-hallucinated"
SPANMETRICS_WAIT = 60.0  # the connector flushes every 15 s (metrics_flush_interval)
# Jaeger's tag type for each Python attribute type the processor writes.
JAEGER_TYPES = {bool: "bool", int: "int64", float: "float64", str: "string"}


@dataclass
class Chain:
    jaeger: Service
    collector: Service
    prometheus: Service
    metrics_sink: OTLPReceiver
    demo_output: str

    def diagnostics(self) -> str:
        return "\n".join(s.diagnostics() for s in (self.collector, self.jaeger, self.prometheus))

    def query(self, expr: str) -> list[dict[str, Any]]:
        return list(prometheus_api(self.prometheus.endpoints["url"], "/api/v1/query",
                                   {"query": expr})["result"])


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chain]:
    tmp = tmp_path_factory.mktemp("collector-e2e")
    with ExitStack() as stop:
        jaeger, collector = collector_with_jaeger(stop, tmp, [OTELCOL])
        config = prometheus_config(tmp, {
            "otel-collector": [collector.endpoints["prometheus"]],
            "otel-collector-internal": [collector.endpoints["telemetry"]],
        }, rules=shortened_rules(tmp))
        prometheus = kept(stop, start_prometheus(tmp, config))
        sink = OTLPReceiver().start()
        stop.callback(sink.stop)

        # the standard variables: everything to the Collector, except metrics elsewhere
        env = clean_env(
            OTEL_EXPORTER_OTLP_ENDPOINT=collector.endpoints["otlp_grpc"],
            OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=sink.endpoint,
            OTEL_EXPORTER_OTLP_INSECURE="true",
        )
        outputs = []
        for argv in [demo_command()] * REPLICAS + [demo_command("--framework", FRAMEWORK)]:
            done = run(argv, env=env, timeout=120)
            assert done.returncode == 0, f"{argv}: {done.returncode}\n{done.stdout}\n{done.stderr}"
            outputs.append(done.stdout)
        yield Chain(jaeger, collector, prometheus, sink, "\n".join(outputs))


def jaeger_spans(chain: Chain) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(span, trace) for every span of the demo service Jaeger holds."""
    return [(span, trace) for trace in jaeger_traces(chain.jaeger.endpoints["query"], DEMO_SERVICE)
            for span in trace["spans"]]


def run_spans(chain: Chain, expected: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    def graded() -> list[tuple[dict[str, Any], dict[str, Any]]] | None:
        found = [(s, t) for s, t in jaeger_spans(chain) if attr.GRADE in tags(s)]
        return found if len(found) >= expected else None
    return wait_until(graded, timeout=30, what=f"{expected} graded run spans in Jaeger",
                      diagnostics=lambda: chain.demo_output + chain.diagnostics())


def reliability(span_tags: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in span_tags.items() if k.startswith(attr.PREFIX)}


def test_flagged_run_in_jaeger_carries_every_reliability_attribute_and_the_audit_event(
        chain: Chain) -> None:
    # the same scripted run, in process: what the processor writes on it
    local = {str(s.attributes[native.RUN_ID]): s for s in run_demo(out=io.StringIO())}
    expected_span = local[FLAGGED_RUN_ID]
    expected = reliability(dict(expected_span.attributes or {}))
    assert expected[attr.BELOW_THRESHOLD] is True and len(expected) >= 10, expected

    runs = run_spans(chain, 3 * REPLICAS + 2)
    flagged = [(s, t) for s, t in runs if tags(s).get(native.RUN_ID) == FLAGGED_RUN_ID]
    assert len(flagged) == REPLICAS, [tags(s).get(native.RUN_ID) for s, _ in runs]
    for span, trace in flagged:
        got = reliability(tags(span))
        assert got == expected, json.dumps(span["tags"], indent=1)
        kinds = {tag["key"]: tag["type"] for tag in span["tags"]}
        for key, value in expected.items():
            assert kinds[key] == JAEGER_TYPES[type(value)], (key, kinds[key], value)
        # the audit event, as the UI shows it (a span log named by its `event` field)
        logs = [tags(log) for log in span["logs"]]
        audit = [log for log in logs if log.get("event") == attr.FLAGGED_EVENT]
        assert len(audit) == 1, logs
        assert audit[0][attr.FLAGGED_EVENT_RATE] == expected[attr.RATE]
        assert audit[0][attr.FLAGGED_EVENT_THRESHOLD] == expected[attr.THRESHOLD]
        assert audit[0][attr.FLAGGED_EVENT_PROJECT] == DEMO_PROJECT
        local_claims = [e for e in expected_span.events if e.name == attr.CLAIM_EVENT]
        claims = [log for log in logs if log.get("event") == attr.CLAIM_EVENT]
        assert len(claims) == len(local_claims) >= 1
        # the whole trace went to Jaeger (the run-span filter is in the spanmetrics pipeline only)
        names = sorted(s["operationName"] for s in trace["spans"])
        assert names == ["chat scripted-model", "execute_tool tool_0", "invoke_agent demo-agent"]
        assert trace["processes"][span["processID"]]["serviceName"] == DEMO_SERVICE


def test_every_run_reaches_jaeger_once_with_its_grade(chain: Chain) -> None:
    runs = run_spans(chain, 3 * REPLICAS + 2)
    demo = [tags(s) for s, _ in runs if str(tags(s).get(native.RUN_ID, "")).startswith("demo-run-")]
    assert len(demo) == 3 * REPLICAS
    by_run: dict[str, list[dict[str, Any]]] = {}
    for span_tags in demo:
        by_run.setdefault(span_tags[native.RUN_ID], []).append(span_tags)
    assert {k: len(v) for k, v in by_run.items()} == {
        "demo-run-1-grounded": REPLICAS, "demo-run-2-hallucinated": REPLICAS,
        "demo-run-3-no-claims": REPLICAS}
    assert {s[attr.GRADE] for s in by_run["demo-run-1-grounded"]} == {"full"}
    assert {s[attr.GRADE] for s in by_run["demo-run-3-no-claims"]} == {"vacuous"}
    assert not any(s[attr.BELOW_THRESHOLD] for s in by_run["demo-run-1-grounded"])


def test_real_framework_run_flagged_in_jaeger(chain: Chain) -> None:
    runs = run_spans(chain, 3 * REPLICAS + 2)
    framework = [s for s, _ in runs
                 if not str(tags(s).get(native.RUN_ID, "")).startswith("demo-run-")]
    assert len(framework) == 2, [tags(s) for s in framework]
    flags = sorted(bool(tags(s)[attr.BELOW_THRESHOLD]) for s in framework)
    assert flags == [False, True], [reliability(tags(s)) for s in framework]
    hallucinating = next(s for s in framework if tags(s)[attr.BELOW_THRESHOLD])
    assert tags(hallucinating)[attr.GRADE] == "full"
    assert tags(hallucinating)[attr.RATE] < tags(hallucinating)[attr.THRESHOLD]
    events = [tags(log).get("event") for log in hallucinating["logs"]]
    assert attr.FLAGGED_EVENT in events and attr.CLAIM_EVENT in events


def test_span_derived_counters_reach_prometheus(chain: Chain) -> None:
    selector = f'traces_span_metrics_calls_total{{project="{DEMO_PROJECT}", service="{DEMO_SERVICE}"}}'
    expected = {("full", "false"): REPLICAS, ("full", "true"): REPLICAS,
                ("vacuous", "false"): REPLICAS}

    def counted() -> dict[tuple[str, str], float] | None:
        found = {(s["metric"]["grade"], s["metric"]["below_threshold"]): float(s["value"][1])
                 for s in chain.query(f"sum by (grade, below_threshold) ({selector})")}
        return found if found == expected else None
    wait_until(counted, timeout=SPANMETRICS_WAIT, interval=1.0,
               what="spanmetrics counters of the demo's runs in Prometheus",
               diagnostics=lambda: json.dumps(chain.query(selector), indent=1)[:3000]
               + chain.diagnostics())
    # only run spans reach the connector (filter/run_spans): no series per tool or LLM step
    names = {s["metric"]["span_name"] for s in chain.query("traces_span_metrics_calls_total")}
    assert "execute_tool tool_0" not in names and "chat scripted-model" not in names
    assert "invoke_agent demo-agent" in names
    # the app's own metrics went elsewhere: this is a traces-only path
    assert chain.metrics_sink.metrics()
    assert not chain.query("ferrumdeck_reliability_runs_scored_total")


def test_traces_only_alert_fires_in_prometheus(chain: Chain) -> None:
    url = chain.prometheus.endpoints["url"]

    def alerts() -> list[dict[str, Any]]:
        return list(prometheus_api(url, "/api/v1/alerts", {})["alerts"])

    def from_spans(states: tuple[str, ...]) -> list[dict[str, Any]]:
        return [a for a in alerts() if a["labels"]["alertname"] == "GroundingRunsBelowThresholdFromSpans"
                and a["labels"].get("project") == DEMO_PROJECT and a["state"] in states]

    wait_until(lambda: from_spans(("pending", "firing")), timeout=SPANMETRICS_WAIT, interval=0.5,
               what="GroundingRunsBelowThresholdFromSpans pending",
               diagnostics=lambda: json.dumps(alerts(), indent=1)[:4000])
    firing = wait_until(lambda: from_spans(("firing",)), timeout=30, interval=0.5,
                        what="GroundingRunsBelowThresholdFromSpans firing",
                        diagnostics=lambda: json.dumps(alerts(), indent=1)[:4000])
    alert = firing[0]
    assert alert["labels"]["service"] == DEMO_SERVICE and alert["labels"]["severity"] == "page"
    assert float(alert["value"]) == REPLICAS
    # the metrics-path page has no data on a traces-only path, so it stays silent
    assert not [a for a in alerts() if a["labels"]["alertname"] == "GroundingRunsBelowThreshold"]


def test_collector_exported_every_span_to_jaeger(chain: Chain) -> None:
    """The Collector's own counters (scraped by the otel-collector-internal job): nothing failed."""
    total = len(jaeger_spans(chain))

    def sent() -> float | None:
        result = chain.query('sum(otelcol_exporter_sent_spans{exporter="otlp_grpc/jaeger"})')
        return float(result[0]["value"][1]) if result and float(result[0]["value"][1]) >= total else None
    wait_until(sent, timeout=30, interval=1.0, what=f"{total} spans counted as sent to Jaeger",
               diagnostics=chain.diagnostics)
    failed = chain.query('sum(otelcol_exporter_send_failed_spans{exporter="otlp_grpc/jaeger"}) > 0')
    assert not failed, failed
    refused = chain.query("sum(otelcol_receiver_refused_spans) > 0")
    assert not refused, refused

