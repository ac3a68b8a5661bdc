"""Traces over the wire: `otel-grounding demo` exports over real OTLP/gRPC to a real receiver.

The receiver is a gRPC server built on the generated OTLP service (opentelemetry-proto) on a
free port of 127.0.0.1. The demo runs as a child process with only the standard
OTEL_EXPORTER_OTLP_* variables set, exactly as a user points it at a Collector; the test then
decodes the protobuf requests that arrived and checks what Jaeger would show on the run spans
(the ferrumdeck.reliability.* attributes with their wire types, the audit event) and the
plugin's metrics that the Collector's prometheus exporter would re-expose.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from e2e_support import (
    OTLPReceiver,
    attribute_kinds,
    attributes,
    clean_env,
    demo_command,
    otlp_receiver,
    run,
    wait_until,
)

P = "ferrumdeck.reliability."
RATE = P + "claim_grounding_rate"
BELOW = P + "claim_grounding_below_threshold"
THRESHOLD = P + "claim_grounding_threshold"
GRADE = P + "claim_coverage_grade"
TOTAL, GROUNDED, CHECKED = P + "claims_total", P + "claims_grounded", P + "claims_checked"
PROJECT = P + "project"
FLAGGED_EVENT = "reliability.claim_grounding_below_threshold"
CLAIM_EVENT = "reliability.ungrounded_claim"
GRADES = {"full", "vacuous", "partial", "coverage-capped", "critical-uncovered", "judge-declined",
          "judge-failed"}
DEMO_THRESHOLD = 0.7
DEMO_PROJECT = "demo"
DEMO_SERVICE = "otel-grounding-demo"


@pytest.fixture(scope="module")
def received() -> OTLPReceiver:
    """Run the demo once against a fresh receiver; keep what arrived."""
    with otlp_receiver() as receiver:
        env = clean_env(
            OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint,
            OTEL_EXPORTER_OTLP_INSECURE="true",
            OTEL_EXPORTER_OTLP_PROTOCOL="grpc",
        )
        done = run(demo_command(), env=env, timeout=60)
        assert done.returncode == 0, f"demo failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        # The demo flushes at exit, so everything has arrived once it returns; the wait only
        # covers a receiver thread still appending the last request.
        wait_until(lambda: len(run_spans(receiver)) >= 3, timeout=10,
                   what="3 enriched run spans over OTLP",
                   diagnostics=lambda: f"spans received: {[s.name for s in receiver.spans()]}\n"
                                       f"demo output:\n{done.stdout}\n{done.stderr}")
        wait_until(lambda: receiver.metrics(), timeout=10, what="the plugin's metrics over OTLP",
                   diagnostics=lambda: f"demo output:\n{done.stdout}\n{done.stderr}")
    return receiver


def run_spans(receiver: OTLPReceiver) -> list[Span]:
    return [s for s in receiver.spans() if GRADE in attributes(s.attributes)]


def by_grade_and_flag(receiver: OTLPReceiver) -> dict[str, tuple[Span, dict[str, Any]]]:
    """The demo's three runs: well grounded, flagged (partly hallucinated), no claim."""
    found: dict[str, tuple[Span, dict[str, Any]]] = {}
    for span in run_spans(receiver):
        attrs = attributes(span.attributes)
        if attrs.get(BELOW):
            key = "flagged"
        elif attrs[GRADE] == "vacuous":
            key = "vacuous"
        else:
            key = "grounded"
        assert key not in found, f"two {key} runs: {found[key][1]} and {attrs}"
        found[key] = (span, attrs)
    assert set(found) == {"flagged", "vacuous", "grounded"}, {k: v[1] for k, v in found.items()}
    return found


def test_every_span_arrives_once_and_run_spans_are_enriched(received: OTLPReceiver) -> None:
    spans = received.spans()
    ids = [(s.trace_id, s.span_id) for s in spans]
    assert len(ids) == len(set(ids)), "a span was exported twice"
    runs = run_spans(received)
    assert len(runs) == 3, [attributes(s.attributes) for s in runs]
    # tool and LLM step spans travel too (Jaeger shows the whole trace), unenriched
    assert len(spans) > len(runs)
    for span in spans:
        if span not in runs:
            assert not any(k.startswith(P) for k in attributes(span.attributes)), span.name
    # the resource the Collector turns into job / Jaeger service
    services = {
        attributes(rs.resource.attributes).get("service.name") for rs in received.resource_spans()
    }
    assert services == {DEMO_SERVICE}


def test_reliability_attributes_have_their_wire_types(received: OTLPReceiver) -> None:
    for span in run_spans(received):
        kinds = attribute_kinds(span.attributes)
        attrs = attributes(span.attributes)
        assert kinds[RATE] == "double_value", kinds
        assert kinds[BELOW] == "bool_value", kinds
        assert kinds[GRADE] == "string_value", kinds
        for key in (TOTAL, GROUNDED, CHECKED):
            assert kinds[key] == "int_value", (key, kinds)
        assert attrs[GRADE] in GRADES
        assert 0.0 <= attrs[RATE] <= 1.0
        assert attrs[PROJECT] == DEMO_PROJECT
        # the threshold applies to every demo run (0.7), so it is written on each of them
        assert kinds[THRESHOLD] == "double_value"
        assert attrs[THRESHOLD] == pytest.approx(DEMO_THRESHOLD)
        # the rate is the lexical contract's ratio (1.0 when there is no claim)
        if attrs[TOTAL]:
            assert attrs[RATE] == pytest.approx(attrs[GROUNDED] / attrs[TOTAL])
        else:
            assert attrs[RATE] == 1.0
        assert attrs[GROUNDED] <= attrs[CHECKED] <= attrs[TOTAL]


def test_the_three_demo_runs(received: OTLPReceiver) -> None:
    runs = by_grade_and_flag(received)

    _, grounded = runs["grounded"]
    assert grounded[RATE] == 1.0 and grounded[GRADE] == "full" and grounded[BELOW] is False
    assert grounded[TOTAL] > 0 and grounded[GROUNDED] == grounded[TOTAL]

    _, flagged = runs["flagged"]
    assert flagged[BELOW] is True
    assert flagged[RATE] < DEMO_THRESHOLD
    assert 0 < flagged[GROUNDED] < flagged[TOTAL]

    _, vacuous = runs["vacuous"]
    assert vacuous[GRADE] == "vacuous" and vacuous[TOTAL] == 0
    assert vacuous[RATE] == 1.0 and vacuous[BELOW] is False


def test_audit_event_on_the_flagged_run_only(received: OTLPReceiver) -> None:
    runs = by_grade_and_flag(received)
    span, attrs = runs["flagged"]
    events = [e for e in span.events if e.name == FLAGGED_EVENT]
    assert len(events) == 1, [e.name for e in span.events]
    event = attributes(events[0].attributes)
    assert event["rate"] == pytest.approx(attrs[RATE])
    assert event["threshold"] == pytest.approx(DEMO_THRESHOLD)
    assert event["project"] == DEMO_PROJECT
    assert span.start_time_unix_nano <= events[0].time_unix_nano <= span.end_time_unix_nano
    # one event per ungrounded claim, carrying the claim's text
    claims = [attributes(e.attributes) for e in span.events if e.name == CLAIM_EVENT]
    assert len(claims) == attrs[TOTAL] - attrs[GROUNDED]
    assert all(c.get("claim.excerpt") for c in claims), claims
    for key in ("grounded", "vacuous"):
        other, _ = runs[key]
        assert not [e for e in other.events if e.name in (FLAGGED_EVENT, CLAIM_EVENT)], key


def test_enrichment_changes_nothing_else(received: OTLPReceiver) -> None:
    for span in received.spans():
        assert span.status.code == Status.STATUS_CODE_UNSET, span.name
        assert span.end_time_unix_nano >= span.start_time_unix_nano
    names = {s.name for s in run_spans(received)}
    assert names == {"invoke_agent demo-agent"}, names


def _points(receiver: OTLPReceiver, name: str) -> list[tuple[dict[str, Any], float]]:
    points: list[tuple[dict[str, Any], float]] = []
    for metric in receiver.metrics():
        if metric.name != name:
            continue
        kind = metric.WhichOneof("data")
        for point in getattr(metric, kind).data_points:
            if kind == "histogram":
                value = float(point.count)
            else:
                value = point.as_double if point.WhichOneof("value") == "as_double" else point.as_int
            points.append((attributes(point.attributes), float(value)))
    return points


def _last(points: list[tuple[dict[str, Any], float]], **labels: str) -> float:
    """Cumulative series: the largest value exported for these labels."""
    values = [v for attrs, v in points if all(attrs.get(k) == want for k, want in labels.items())]
    assert values, f"no point with {labels} in {points}"
    return max(values)


def test_plugin_metrics_over_otlp(received: OTLPReceiver) -> None:
    """What the Collector's prometheus exporter re-exposes for Prometheus (compose path)."""
    labels = {"project": DEMO_PROJECT, "service": DEMO_SERVICE}
    assert _last(_points(received, "ferrumdeck.reliability.runs_flagged"), **labels) == 1
    assert _last(_points(received, "ferrumdeck.reliability.claim_grounding_rate"), **labels) == 3
    scored = _points(received, "ferrumdeck.reliability.runs_scored")
    assert _last(scored, grade="full", below_threshold="true", **labels) == 1
    assert _last(scored, grade="full", below_threshold="false", **labels) == 1
    assert _last(scored, grade="vacuous", below_threshold="false", **labels) == 1
    histogram = [m for m in received.metrics() if m.name == "ferrumdeck.reliability.claim_grounding_rate"]
    assert histogram[0].unit == "1"
    bounds = list(histogram[0].histogram.data_points[0].explicit_bounds)
    assert bounds == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
    total = max(p.sum for m in histogram for p in m.histogram.data_points)
    assert math.isclose(total, sum(
        attributes(s.attributes)[RATE] for s in run_spans(received)), rel_tol=1e-9)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, (None, None)),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4317"}, ("http://a:4317", "http://a:4317")),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4317"}, ("http://t:4317", None)),
        ({"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://m:4317"}, (None, "http://m:4317")),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4317",
             "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4317"},
            ("http://t:4317", "http://a:4317"),
        ),
        # the misspelling the demo once read is not an OTLP variable
        ({"OTEL_EXPORTER_OTLP_ENDPOINT_TRACES": "http://t:4317"}, (None, None)),
    ],
)
def test_demo_reads_the_standard_endpoint_variables(
    environ: dict[str, str], expected: tuple[str | None, str | None]
) -> None:
    from otel_grounding.demo import otlp_endpoints

    assert otlp_endpoints(environ) == expected


def test_demo_exports_traces_with_only_the_traces_endpoint_set() -> None:
    """OTEL_EXPORTER_OTLP_TRACES_ENDPOINT alone turns the demo's trace export on."""
    with otlp_receiver() as receiver:
        env = clean_env(
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=receiver.endpoint,
            OTEL_EXPORTER_OTLP_INSECURE="true",
        )
        done = run(demo_command(), env=env, timeout=60)
        assert done.returncode == 0, f"demo failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        wait_until(lambda: len(run_spans(receiver)) >= 3, timeout=10,
                   what="3 enriched run spans over OTLP",
                   diagnostics=lambda: f"demo output:\n{done.stdout}\n{done.stderr}")
        assert f"traces exported over OTLP to {receiver.endpoint}" in done.stdout
        assert "metrics exported" not in done.stdout
