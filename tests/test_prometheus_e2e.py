"""From span to alert, through a real Prometheus server.

* promtool (Debian's `prometheus` package) checks collector-config/prometheus.yml and alerts.yml
  and runs the rule unit tests in alerts.test.yml.
* Three replicas of `otel-grounding demo --prometheus-port` (real SDK, the processor, the
  OpenTelemetry Prometheus exporter) serve the plugin's metrics on 127.0.0.1; each ran the
  demo's three runs once (one flagged). Three replicas because the page needs 3 flagged runs
  of a project in its window; they also check that the rules aggregate across processes.
* A real `prometheus` server, configured from a test copy of prometheus.yml (1 s scrape and
  rule evaluation, targets on 127.0.0.1, storage in a temporary directory) and of alerts.yml
  (every `for` shortened to 2 s, nothing else changed), scrapes them.
* A traces-only app (the real SDK and the processor, in this process, project demo-spans,
  service traces-only-agent, no metrics exporter) sends its enriched spans over OTLP to the real
  Collector (the pinned build, collector-config/otelcol.yaml on loopback ports), whose
  spanmetrics connector counts the run spans and whose prometheus exporter is scraped by the
  `otel-collector` job of prometheus.yml, relabelling included. This is what lets the
  span-derived panels and alert be evaluated with data.

The test then reads Prometheus's HTTP API: the flagged-run counter and the rate histogram have
the demo's values, every query of the Grafana dashboard (and its variables) evaluates without
error and with data, and the below-threshold pages go to firing while nothing else fires.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import yaml
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from otel_grounding.conventions import native
from otel_grounding.demo import RUNS as SCRIPTED_RUNS
from otel_grounding.demo import THRESHOLD
from otel_grounding.processor import GroundingSpanProcessor

from e2e_support import (
    COLLECTOR_CONFIG,
    Process,
    clean_env,
    demo_command,
    free_port,
    http_get,
    prometheus_api,
    require_binary,
    run,
    wait_until,
)
from otel_stack import (
    OTELCOL,
    prometheus_config,
    shortened_rules,
    start_collector,
    start_prometheus,
)

pytestmark = pytest.mark.needs_build  # `make check` leaves it out

DASHBOARD = COLLECTOR_CONFIG / "grafana" / "dashboards" / "otel-grounding.json"
REPLICAS = 3
DEMO_PROJECT = "demo"
DEMO_SERVICE = "otel-grounding-demo"
APP_JOB = "otel-grounding-app"
COLLECTOR_JOB = "otel-collector"
SERVE_SECONDS = 150  # upper bound; the fixture stops the demos as soon as the tests are done

# The prometheus names of the plugin's instruments, as the OpenTelemetry Prometheus exporter
# writes them (dots -> underscores, `_total` on counters, `_seconds` for unit "s", no suffix for
# unit "1" or "{run}"). Checked against the demo's /metrics page below.
PLUGIN_METRICS = {
    "ferrumdeck_reliability_runs_scored_total",
    "ferrumdeck_reliability_runs_flagged_total",
    "ferrumdeck_reliability_claim_grounding_rate_bucket",
    "ferrumdeck_reliability_claim_grounding_rate_sum",
    "ferrumdeck_reliability_claim_grounding_rate_count",
    "otel_grounding_spans_seen_total",
    "otel_grounding_runs_seen_total",
    "otel_grounding_scoring_duration_seconds_bucket",
    "otel_grounding_scoring_duration_seconds_sum",
    "otel_grounding_scoring_duration_seconds_count",
}
# Created at their first increment: absent from a healthy demo.
PLUGIN_METRICS_ON_TROUBLE = {"otel_grounding_traces_evicted_total", "otel_grounding_scoring_errors_total",
                             # with a judge only (the demo runs none)
                             "ferrumdeck_reliability_runs_judge_flagged_total",
                             "ferrumdeck_reliability_runs_judge_unsupported_total"}

# The traces-only app: project demo-spans, 4 of its 10 runs flagged (the demo's scripted runs:
# 5 grounded, 4 partly hallucinated, 1 without a claim). The Collector's spanmetrics connector
# counts them by (grade, flag, project); the span's resource service.name becomes `job`.
SPANS_PROJECT = "demo-spans"
SPANS_SERVICE = "traces-only-agent"
SPANS_RUN_NAME = "invoke_agent agent"
_SCRIPTS = {run.name: run for run in SCRIPTED_RUNS}
SPAN_RUNS = [_SCRIPTS["grounded"]] * 5 + [_SCRIPTS["hallucinated"]] * 4 + [_SCRIPTS["no-claims"]]
_SPAN_SERIES = (
    ("full", "true", 4),
    ("full", "false", 5),
    ("vacuous", "false", 1),
)

# Concrete values for the dashboard's variables (the dashboard's defaults: All projects and
# services, the 30m window) and for Grafana's own.
DASHBOARD_VARIABLES = {
    "project": ".*",
    "service": ".*",
    "window": "30m",
    "__rate_interval": "1m",
    "__interval": "15s",
    "__range": "1h",
}
EXPECTED_ALERTS = {
    ("GroundingRunsBelowThreshold", DEMO_PROJECT, DEMO_SERVICE),
    ("GroundingRunsBelowThresholdFromSpans", SPANS_PROJECT, SPANS_SERVICE),
}


# ---------------------------------------------------------------------------------------------
# the stack


def _traces_only_agent(endpoint: str) -> None:
    """An app exporting traces only: the SDK, the processor, OTLP/gRPC to the Collector."""
    provider = TracerProvider(resource=Resource.create({"service.name": SPANS_SERVICE}))
    provider.add_span_processor(GroundingSpanProcessor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint, insecure=True)),
        min_claim_grounding_rate=THRESHOLD))
    tracer = provider.get_tracer("traces-only-agent")
    for index, script in enumerate(SPAN_RUNS):
        with tracer.start_as_current_span(SPANS_RUN_NAME, attributes={
                native.RUN_ID: f"spans-run-{index}", native.PROJECT_ID: SPANS_PROJECT,
                native.RUN_TOOL_STEPS: len(script.tool_outputs)}) as span:
            for output in script.tool_outputs:
                with tracer.start_as_current_span("execute_tool", attributes={
                        native.STEP_TYPE: native.STEP_TYPE_TOOL, native.STEP_OUTPUT: output}):
                    pass
            span.set_attribute(native.RUN_OUTPUT, script.answer)
    provider.shutdown()


@dataclass
class Stack:
    url: str
    demo_ports: list[int]
    prometheus: Process
    demos: list[Process] = field(default_factory=list)

    def diagnostics(self) -> str:
        parts = [f"--- prometheus log:\n{self.prometheus.output(3000)}"]
        parts += [f"--- {d.name} log:\n{d.output(1500)}" for d in self.demos]
        return "\n".join(parts)

    def query(self, expr: str) -> list[dict[str, Any]]:
        data = prometheus_api(self.url, "/api/v1/query", {"query": expr})
        assert data["resultType"] in ("vector", "scalar"), data
        return data["result"] if data["resultType"] == "vector" else [{"metric": {}, "value": data["result"]}]

    def value(self, expr: str) -> float:
        result = self.query(expr)
        assert len(result) == 1, f"{expr}: expected one sample, got {result}"
        return float(result[0]["value"][1])


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    promtool = require_binary("promtool")
    tmp = tmp_path_factory.mktemp("prometheus-e2e")
    processes: list[Process] = []
    try:
        # Jaeger is not part of this test: the traces pipeline's exporter retries into nothing
        collector = start_collector(tmp, [OTELCOL],
                                    JAEGER_OTLP_GRPC_ENDPOINT=f"127.0.0.1:{free_port()}")
        processes.append(collector.process)
        _traces_only_agent(collector.endpoints["otlp_grpc"])

        demo_ports = [free_port() for _ in range(REPLICAS)]
        demos = [
            Process(f"demo-{i}", demo_command("--prometheus-port", str(port),
                                              "--serve-seconds", str(SERVE_SECONDS)),
                    tmp, env=clean_env())
            for i, port in enumerate(demo_ports)
        ]
        processes += demos
        for demo, port in zip(demos, demo_ports):
            def scraped(demo: Process = demo, port: int = port) -> bool:
                demo.check_running()
                return b"ferrumdeck_reliability_runs_flagged_total" in http_get(
                    f"http://127.0.0.1:{port}/metrics", timeout=2)
            wait_until(scraped, timeout=30, what=f"{demo.name} serving its metrics on :{port}",
                       diagnostics=demo.output)

        config = prometheus_config(tmp, {
            APP_JOB: [f"127.0.0.1:{p}" for p in demo_ports],
            COLLECTOR_JOB: [collector.endpoints["prometheus"]],
        }, rules=shortened_rules(tmp))
        checked = run([promtool, "check", "config", str(config)], timeout=60)
        assert checked.returncode == 0, f"test copy of prometheus.yml:\n{checked.stdout}{checked.stderr}"

        service = start_prometheus(tmp, config)
        prometheus = service.process
        processes.append(prometheus)
        url = service.endpoints["url"]
        stack = Stack(url=url, demo_ports=demo_ports, prometheus=prometheus, demos=demos)

        def all_scraped() -> bool:
            targets = prometheus_api(url, "/api/v1/targets", {"state": "active"})["activeTargets"]
            healthy = [t for t in targets if t["health"] == "up"]
            if len(targets) != REPLICAS + 1 or len(healthy) != len(targets):
                return False
            # the series of every replica are in storage, twice (rate() needs two samples), and
            # the Collector's span-derived series (flushed every 15 s) with every run counted
            flagged = stack.query(f'ferrumdeck_reliability_runs_flagged_total{{project="{DEMO_PROJECT}"}}')
            scrapes = stack.query("count_over_time(up[1m]) >= 2")
            spans = stack.query(f'sum(traces_span_metrics_calls_total{{project="{SPANS_PROJECT}"}})')
            counted = bool(spans) and float(spans[0]["value"][1]) == len(SPAN_RUNS)
            return len(flagged) == REPLICAS and len(scrapes) == REPLICAS + 1 and counted
        wait_until(all_scraped, timeout=90, interval=1.0, what="every target scraped",
                   diagnostics=lambda: json.dumps(prometheus_api(url, "/api/v1/targets", {}), indent=1)[:4000]
                   + stack.diagnostics() + f"\n--- collector:\n{collector.process.output(3000)}")
        yield stack
    finally:
        for process in reversed(processes):
            process.stop()


# ---------------------------------------------------------------------------------------------
# promtool on the shipped files


def test_promtool_check_config() -> None:
    promtool = require_binary("promtool")
    done = run([promtool, "check", "config", "prometheus.yml"], cwd=COLLECTOR_CONFIG)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_promtool_check_rules() -> None:
    promtool = require_binary("promtool")
    done = run([promtool, "check", "rules", "alerts.yml"], cwd=COLLECTOR_CONFIG)
    assert done.returncode == 0, done.stdout + done.stderr


def test_promtool_rule_unit_tests() -> None:
    promtool = require_binary("promtool")
    done = run([promtool, "test", "rules", "alerts.test.yml"], cwd=COLLECTOR_CONFIG, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_every_alert_has_for_severity_summary_and_runbook() -> None:
    rules = yaml.safe_load((COLLECTOR_CONFIG / "alerts.yml").read_text())
    alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
    assert len(alerts) >= 8
    for rule in alerts:
        assert rule.get("for"), rule["alert"]
        assert rule["labels"]["severity"] in ("page", "ticket"), rule["alert"]
        for key in ("summary", "description", "runbook"):
            assert rule["annotations"].get(key, "").strip(), (rule["alert"], key)
    # every alert has a firing case in the unit tests
    tests = yaml.safe_load((COLLECTOR_CONFIG / "alerts.test.yml").read_text())
    fired = {case["alertname"] for t in tests["tests"] for case in t.get("alert_rule_test", [])
             if case.get("exp_alerts")}
    assert fired == {r["alert"] for r in alerts}


# ---------------------------------------------------------------------------------------------
# the demo's metrics, through Prometheus


def test_demo_exposes_the_metric_names_the_config_uses(stack: Stack) -> None:
    page = http_get(f"http://127.0.0.1:{stack.demo_ports[0]}/metrics").decode()
    exposed = set(re.findall(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)\{", page, flags=re.M))
    assert exposed >= PLUGIN_METRICS, sorted(PLUGIN_METRICS - exposed)
    # every metric name in the rules and the dashboard is one the plugin (or spanmetrics) makes
    known = PLUGIN_METRICS | PLUGIN_METRICS_ON_TROUBLE | {"traces_span_metrics_calls_total"}
    texts = [(COLLECTOR_CONFIG / "alerts.yml").read_text(), DASHBOARD.read_text()]
    used = {m for text in texts for m in re.findall(
        r"(?<![\w:])((?:ferrumdeck|otel_grounding|traces_span_metrics)_[a-z0-9_]+)(?![\w:])", text)}
    assert used, "no metric name found in alerts.yml / the dashboard"
    assert used <= known, sorted(used - known)


def test_flagged_counter_and_rate_histogram(stack: Stack) -> None:
    sel = f'{{project="{DEMO_PROJECT}", service="{DEMO_SERVICE}", job="{APP_JOB}"}}'
    flagged = stack.query(f"ferrumdeck_reliability_runs_flagged_total{sel}")
    assert len(flagged) == REPLICAS
    assert [float(s["value"][1]) for s in flagged] == [1.0] * REPLICAS  # one flagged run each
    counts = stack.query(f"ferrumdeck_reliability_claim_grounding_rate_count{sel}")
    assert [float(s["value"][1]) for s in counts] == [3.0] * REPLICAS  # three scored runs each
    assert stack.value(f"sum(ferrumdeck_reliability_claim_grounding_rate_count{sel})") == 3 * REPLICAS
    # rates 1.0, 0.5 and 1.0 (no claim): the flagged run sits in the (0.4, 0.5] bucket
    assert stack.value(f"sum(ferrumdeck_reliability_claim_grounding_rate_sum{sel})") == pytest.approx(
        2.5 * REPLICAS)
    buckets = {s["metric"]["le"]: float(s["value"][1]) for s in stack.query(
        f"sum by (le) (ferrumdeck_reliability_claim_grounding_rate_bucket{sel})")}
    assert buckets["0.4"] == 0 and buckets["0.5"] == REPLICAS and buckets["0.7"] == REPLICAS
    assert buckets["0.9"] == REPLICAS and buckets["1.0"] == 3 * REPLICAS and buckets["+Inf"] == 3 * REPLICAS
    grades = {(s["metric"]["grade"], s["metric"]["below_threshold"]): float(s["value"][1])
              for s in stack.query(f"sum by (grade, below_threshold) (ferrumdeck_reliability_runs_scored_total{sel})")}
    assert grades == {("full", "false"): REPLICAS, ("full", "true"): REPLICAS, ("vacuous", "false"): REPLICAS}
    # the recording rules see the three processes as one project (once evaluated after the
    # last replica's first scrape)
    recorded = f'project_service:ferrumdeck_reliability_runs_flagged:increase30m{{project="{DEMO_PROJECT}"}}'
    wait_until(lambda: stack.query(recorded) and stack.value(recorded) == REPLICAS, timeout=15,
               what=f"{recorded} == {REPLICAS}", diagnostics=lambda: str(stack.query(recorded)))


def test_spanmetrics_labels_renamed_by_prometheus_yml(stack: Stack) -> None:
    series = stack.query(f'traces_span_metrics_calls_total{{project="{SPANS_PROJECT}"}}')
    assert len(series) == len(_SPAN_SERIES)
    for s in series:
        labels = s["metric"]
        assert labels["service"] == SPANS_SERVICE and labels["grade"] in ("full", "vacuous")
        assert labels["below_threshold"] in ("true", "false")
        assert not any(k.startswith("ferrumdeck_reliability_") for k in labels), labels
        assert labels["job"] == SPANS_SERVICE  # honor_labels keeps the Collector's job
    # the plugin's own series pass through the same relabelling untouched
    assert stack.query(f'ferrumdeck_reliability_runs_flagged_total{{job="{APP_JOB}", project="{DEMO_PROJECT}"}}')


# ---------------------------------------------------------------------------------------------
# the Grafana dashboard


def _panels(dashboard: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in dashboard["panels"]:
        yield panel
        yield from panel.get("panels", [])  # panels inside collapsed rows


def _substitute(expr: str) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        assert name in DASHBOARD_VARIABLES, f"unknown dashboard variable ${name} in {expr}"
        return DASHBOARD_VARIABLES[name]
    out = re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", value, expr)
    assert "$" not in out, out
    return out


def _dashboard_queries() -> list[tuple[str, str, str]]:
    dashboard = json.loads(DASHBOARD.read_text())
    queries = []
    for panel in _panels(dashboard):
        for target in panel.get("targets", []):
            queries.append((panel["title"], target["refId"], target["expr"]))
    return queries


def test_dashboard_is_provisionable() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 36
    ids = [p["id"] for p in _panels(dashboard)]
    assert len(ids) == len(set(ids)), "duplicate panel ids"
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    for panel in _panels(dashboard):
        if panel["type"] == "row":
            continue
        assert panel.get("targets"), f"panel without a query: {panel['title']}"
        for target in panel["targets"]:
            assert target["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
            assert "datasource" in variables
            for name in re.findall(r"\$\{?(\w+)", target["expr"]):
                assert name in variables or name.startswith("__"), (panel["title"], name)
    titles = " ".join(p["title"] for p in _panels(dashboard)).lower()
    for needed in ("grounding rate", "grade mix", "below threshold", "worst recent runs", "evicted",
                   "scoring errors"):
        assert needed in titles, needed
    # the worst-runs table links to Jaeger, filtered on the flagged run spans
    table = next(p for p in _panels(dashboard) if p["type"] == "table")
    links = table["fieldConfig"]["defaults"]["links"]
    assert links and "${jaeger_url}/search?" in links[0]["url"]
    assert "ferrumdeck.reliability.claim_grounding_below_threshold" in links[0]["url"].replace("%22", '"')


def test_every_dashboard_query_returns_data(stack: Stack) -> None:
    queries = _dashboard_queries()
    assert len(queries) >= 15
    failures = []
    for title, ref, expr in queries:
        concrete = _substitute(expr)
        try:
            result = stack.query(concrete)
            if not result:
                failures.append(f"{title} [{ref}]: no data\n    {concrete}")
                continue
            # range queries as a time series panel runs them
            end = float(result[0]["value"][0])
            prometheus_api(stack.url, "/api/v1/query_range",
                           {"query": concrete, "start": str(end - 30), "end": str(end), "step": "5"})
        except AssertionError as exc:
            failures.append(f"{title} [{ref}]: {exc}\n    {concrete}")
    assert not failures, "\n".join(failures)


def test_dashboard_headline_values(stack: Stack) -> None:
    by_title = {}
    for title, ref, expr in _dashboard_queries():
        by_title.setdefault(title, []).append(_substitute(expr))
    assert stack.value(by_title["Runs scored"][0]) == 3 * REPLICAS
    assert stack.value(by_title["Runs below threshold"][0]) == REPLICAS
    assert stack.value(by_title["Mean claim grounding rate"][0]) == pytest.approx(2.5 / 3)
    assert stack.value(by_title["Runs with coverage problems"][0]) == 0
    assert stack.value(by_title["Processes reporting"][0]) == REPLICAS
    assert stack.value(by_title["Scoring errors"][0]) == 0
    table = next(t for t in by_title if t.startswith("Worst recent runs"))
    rows = stack.query(by_title[table][2])  # mean rate per project/service
    assert {(r["metric"]["project"], r["metric"]["service"]) for r in rows} == {(DEMO_PROJECT, DEMO_SERVICE)}


def test_dashboard_variables_list_the_demo(stack: Stack) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    found = {}
    for variable in dashboard["templating"]["list"]:
        if variable["type"] != "query":
            continue
        match = re.fullmatch(r"label_values\((.+),\s*(\w+)\)", variable["definition"])
        assert match, variable["definition"]
        selector, label = _substitute(match.group(1)), match.group(2)
        series = prometheus_api(stack.url, "/api/v1/series", [("match[]", selector)])
        found[variable["name"]] = {s[label] for s in series if label in s}
    assert {DEMO_PROJECT, SPANS_PROJECT} <= found["project"], found
    assert {DEMO_SERVICE, SPANS_SERVICE} <= found["service"], found


# ---------------------------------------------------------------------------------------------
# alerts


def test_below_threshold_pages_fire_and_nothing_else(stack: Stack) -> None:
    def alerts() -> list[dict[str, Any]]:
        return list(prometheus_api(stack.url, "/api/v1/alerts", {})["alerts"])

    def expected_firing() -> bool:
        firing = {(a["labels"]["alertname"], a["labels"].get("project"), a["labels"].get("service"))
                  for a in alerts() if a["state"] == "firing"}
        return firing >= EXPECTED_ALERTS

    wait_until(expected_firing, timeout=45, interval=0.5, what="the below-threshold alerts firing",
               diagnostics=lambda: json.dumps(alerts(), indent=1)[:4000] + json.dumps(
                   prometheus_api(stack.url, "/api/v1/rules", {}), indent=1)[:6000])
    active = alerts()
    unexpected = [a for a in active if (a["labels"]["alertname"], a["labels"].get("project"),
                                        a["labels"].get("service")) not in EXPECTED_ALERTS]
    assert not unexpected, json.dumps(unexpected, indent=1)
    page = next(a for a in active if a["labels"]["alertname"] == "GroundingRunsBelowThreshold")
    assert page["labels"]["severity"] == "page"
    assert float(page["value"]) == REPLICAS
    assert page["annotations"]["summary"].startswith(
        f"{DEMO_PROJECT} / {DEMO_SERVICE}: {REPLICAS} agent runs below their claim-grounding threshold")
    assert page["annotations"]["runbook"]
    # no rule failed to evaluate
    groups = prometheus_api(stack.url, "/api/v1/rules", {})["groups"]
    broken = [(r["name"], r.get("lastError")) for g in groups for r in g["rules"]
              if r.get("health") != "ok"]
    assert not broken, broken
