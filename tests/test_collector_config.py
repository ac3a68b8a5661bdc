"""collector-config/ checked by the real Collector, and cross-checked where nothing runs.

Every shipped Collector configuration is validated by the pinned Collector build
(`otelcol-grounding validate`, built by ocb from builder-config.yaml) and started for real on
loopback ports (its `${env:...}` endpoints set to free 127.0.0.1 ports) until its health check
answers; the manifest lists exactly the component types the configurations use. The rest is
parsed and cross-checked: every component a pipeline names is defined (and every defined one is
used), connectors join the right pipeline types, ports and host names agree between the
Collector, Prometheus, Grafana and the compose file, images are pinned to the versions built
here, mounted files exist, and the span attribute names in the Collector config are the
plugin's. Prometheus's own files are checked by promtool in test_prometheus_e2e.py; the traffic
through the Collector by test_collector_e2e.py and test_relay_scaleout.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml

from otel_grounding import attributes as attr

from e2e_support import COLLECTOR_CONFIG, free_port, http_get, wait_until
from otel_stack import (
    JAEGER_CONFIG,
    OTELCOL,
    OTELCOL_LOADBALANCING,
    OTELCOL_PHOENIX,
    start_collector,
    validate,
)

KINDS = ("receivers", "processors", "exporters", "connectors", "extensions")
# connector type -> (pipeline type it exports from, pipeline type it receives into)
CONNECTOR_SIGNALS = {"spanmetrics": ("traces", "metrics")}
SERVICES = {"otel-collector", "jaeger", "prometheus", "grafana"}
# Collector configurations the project ships, each validated and started by the real binary
# (the Phoenix overlay on top of otelcol.yaml, as `make stack` runs it).
SHIPPED = {
    "otelcol.yaml": [OTELCOL],
    "otelcol-loadbalancing.yaml": [OTELCOL_LOADBALANCING],
    "otelcol.yaml + otelcol-phoenix.yaml": [OTELCOL, OTELCOL_PHOENIX],
}
ENV_REFERENCE = re.compile(r"\$\{env:([A-Z0-9_]+):-([^}]*)\}")
# Component type names as the manifest's Go modules register them.
MODULE_TYPES = {
    "otlpreceiver": "otlp", "memorylimiterprocessor": "memory_limiter",
    "batchprocessor": "batch", "filterprocessor": "filter", "spanmetricsconnector": "spanmetrics",
    "otlpexporter": "otlp_grpc", "otlphttpexporter": "otlp_http",
    "prometheusexporter": "prometheus", "loadbalancingexporter": "loadbalancing",
    "debugexporter": "debug", "fileexporter": "file", "healthcheckextension": "health_check",
}
# Built for debugging a pipeline by hand, named by no shipped configuration.
DEBUGGING_ONLY = {"debug", "file"}


def with_defaults(text: str) -> str:
    """A configuration as it runs with no variable set: `${env:NAME:-default}` -> default."""
    return ENV_REFERENCE.sub(lambda match: match.group(2), text)


def load(name: str) -> Any:
    return yaml.safe_load(with_defaults((COLLECTOR_CONFIG / name).read_text()))


@pytest.fixture(scope="module")
def otelcol() -> dict[str, Any]:
    return load("otelcol.yaml")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load("docker-compose.yaml")


@pytest.fixture(scope="module")
def prometheus() -> dict[str, Any]:
    return load("prometheus.yml")


def pipelines(otelcol: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    return otelcol["service"]["pipelines"]


def ctype(component_id: str) -> str:
    return component_id.split("/", 1)[0]


def port_of(endpoint: str) -> int:
    return int(endpoint.rsplit(":", 1)[1])


def manifest() -> dict[str, Any]:
    return load("builder-config.yaml")


def collector_version() -> str:
    """The Collector release the manifest builds (every component module at that version)."""
    return str(manifest()["dist"]["version"])


def manifest_types() -> dict[str, set[str]]:
    types: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for kind in KINDS:
        for entry in manifest().get(kind, []):
            module, version = entry["gomod"].split()
            assert version == f"v{collector_version()}", f"{module} not at the release: {version}"
            types[kind].add(MODULE_TYPES[module.rsplit("/", 1)[1]])
    return types


def configured_types(configs: list[Path]) -> dict[str, set[str]]:
    types: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for config in configs:
        loaded = load(config.name)
        for kind in KINDS:
            types[kind] |= {ctype(c) for c in loaded.get(kind) or {}}
        # the loadbalancing exporter embeds an OTLP exporter
        if "loadbalancing" in (loaded.get("exporters") or {}):
            types["exporters"].add("otlp_grpc")
    return types


# ---------------------------------------------------------------------------------------------
# otelcol.yaml


def test_every_referenced_component_is_defined_and_every_defined_one_used(otelcol: dict[str, Any]) -> None:
    used: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for name, pipeline in pipelines(otelcol).items():
        assert ctype(name) in ("traces", "metrics", "logs"), name
        assert pipeline.get("receivers") and pipeline.get("exporters"), name
        for kind in ("receivers", "processors", "exporters"):
            for component in pipeline.get(kind, []):
                # a connector appears as an exporter in one pipeline and a receiver in another
                section = "connectors" if component in (otelcol.get("connectors") or {}) else kind
                assert component in (otelcol.get(section) or {}), f"{name}: {component} is not defined"
                used[section].add(component)
    used["extensions"] = set(otelcol["service"].get("extensions", []))
    for component in used["extensions"]:
        assert component in otelcol.get("extensions", {}), component
    for kind in KINDS:
        defined = set(otelcol.get(kind) or {})
        assert defined == used[kind], f"{kind} defined but unused: {sorted(defined - used[kind])}"


def test_manifest_lists_exactly_the_component_types_the_configurations_use() -> None:
    built_types = manifest_types()
    used = configured_types([config for configs in SHIPPED.values() for config in configs])
    for kind in KINDS:
        extra = built_types[kind] - used[kind] - DEBUGGING_ONLY
        assert used[kind] <= built_types[kind], f"{kind} not built: {used[kind] - built_types[kind]}"
        assert not extra, f"{kind} built but used by no shipped configuration: {extra}"


def test_connectors_join_the_right_pipeline_types(otelcol: dict[str, Any]) -> None:
    for connector in otelcol["connectors"]:
        exports_from, receives_into = CONNECTOR_SIGNALS[ctype(connector)]
        as_exporter = [n for n, p in pipelines(otelcol).items() if connector in p["exporters"]]
        as_receiver = [n for n, p in pipelines(otelcol).items() if connector in p["receivers"]]
        assert as_exporter and all(ctype(n) == exports_from for n in as_exporter), as_exporter
        assert as_receiver and all(ctype(n) == receives_into for n in as_receiver), as_receiver


def test_otlp_receiver_grpc_and_http(otelcol: dict[str, Any]) -> None:
    protocols = otelcol["receivers"]["otlp"]["protocols"]
    assert port_of(protocols["grpc"]["endpoint"]) == 4317
    assert port_of(protocols["http"]["endpoint"]) == 4318
    for name, pipeline in pipelines(otelcol).items():
        if ctype(name) == "traces":
            assert "otlp" in pipeline["receivers"], name


def test_memory_limiter_first_and_batch_last(otelcol: dict[str, Any]) -> None:
    assert otelcol["processors"]["memory_limiter"]["check_interval"]
    for name, pipeline in pipelines(otelcol).items():
        processors = pipeline.get("processors", [])
        assert processors and processors[0] == "memory_limiter", name
        if "batch" in processors:
            assert processors[-1] == "batch", name
    # the Jaeger-bound and Prometheus-bound pipelines are batched
    assert "batch" in pipelines(otelcol)["traces"]["processors"]
    assert "batch" in pipelines(otelcol)["metrics"]["processors"]


def test_traces_go_to_jaeger_over_otlp(otelcol: dict[str, Any], compose: dict[str, Any]) -> None:
    exporters = pipelines(otelcol)["traces"]["exporters"]
    assert exporters == ["otlp_grpc/jaeger"]
    jaeger = otelcol["exporters"]["otlp_grpc/jaeger"]
    host, port = jaeger["endpoint"].rsplit(":", 1)
    assert host == "jaeger" and host in compose["services"] and port == "4317"
    # without a container, jaeger.yaml listens on 4327 so as not to clash with the Collector
    jaeger_yaml = load("jaeger.yaml")
    assert port_of(jaeger_yaml["receivers"]["otlp"]["protocols"]["grpc"]["endpoint"]) == 4327
    assert jaeger["tls"]["insecure"] is True  # private compose network only
    # every span of the trace goes to Jaeger: the run-span filter is not in that pipeline
    assert not [p for p in pipelines(otelcol)["traces"]["processors"] if ctype(p) == "filter"]


def test_spanmetrics_dimensions_are_the_plugins_attributes(otelcol: dict[str, Any]) -> None:
    spanmetrics = otelcol["connectors"]["spanmetrics"]
    dimensions = [d["name"] for d in spanmetrics["dimensions"]]
    assert dimensions == [attr.GRADE, attr.BELOW_THRESHOLD, attr.JUDGE_BELOW_THRESHOLD, attr.PROJECT]
    # bounded labels only: never the rate, run ids or claim text
    assert attr.RATE not in dimensions
    # the Prometheus name the alerts and dashboard read: traces_span_metrics_calls_total
    assert spanmetrics["namespace"] == "traces.span.metrics"
    assert spanmetrics["histogram"]["unit"] in ("ms", "s")
    # only enriched run spans reach the connector
    runs = pipelines(otelcol)["traces/runs"]
    assert runs["exporters"] == ["spanmetrics"]
    condition = otelcol["processors"]["filter/run_spans"]["traces"]["span"]
    assert condition == [f'attributes["{attr.GRADE}"] == nil']
    assert "filter/run_spans" in runs["processors"]


def test_metrics_reach_prometheus(otelcol: dict[str, Any], prometheus: dict[str, Any]) -> None:
    metrics = pipelines(otelcol)["metrics"]
    assert set(metrics["receivers"]) == {"otlp", "spanmetrics"}
    assert metrics["exporters"] == ["prometheus"]
    exporter_port = port_of(otelcol["exporters"]["prometheus"]["endpoint"])
    internal = otelcol["service"]["telemetry"]["metrics"]["readers"][0]["pull"]["exporter"]["prometheus"]
    jobs = {job["job_name"]: job for job in prometheus["scrape_configs"]}
    assert jobs["otel-collector"]["static_configs"][0]["targets"] == [f"otel-collector:{exporter_port}"]
    assert jobs["otel-collector-internal"]["static_configs"][0]["targets"] == [
        f"otel-collector:{internal['port']}"]
    # the label renaming that lets one set of rules read spanmetrics and the plugin's metrics
    relabel = jobs["otel-collector"]["metric_relabel_configs"]
    sources = {c["source_labels"][0] for c in relabel if c.get("source_labels")}
    for name in (attr.GRADE, attr.BELOW_THRESHOLD, attr.PROJECT):
        assert name.replace(".", "_") in sources


def test_versions_pinned_and_compose_images_match_the_builds(compose: dict[str, Any]) -> None:
    version = collector_version()
    image = compose["services"]["otel-collector"]["image"]
    assert image == f"otel/opentelemetry-collector-contrib:{version}"
    for name in ("otelcol.yaml", "otelcol-loadbalancing.yaml"):
        assert f"Collector v{version}" in (COLLECTOR_CONFIG / name).read_text(), name
    # the Jaeger image is the release the pinned module's cmd/jaeger reports
    pins = dict(line.split("=", 1) for line in (COLLECTOR_CONFIG / "versions.env").read_text()
                .splitlines() if line and not line.startswith("#"))
    assert pins["OTELCOL_BUILDER_VERSION"] == f"v{version}"
    jaeger_tag = compose["services"]["jaeger"]["image"].rpartition(":")[2]
    assert pins["JAEGER_RELEASE"] == jaeger_tag


# ---------------------------------------------------------------------------------------------
# the real Collector


@pytest.mark.needs_build
@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configuration_validated_by_the_collector(name: str) -> None:
    done = validate(SHIPPED[name])
    assert done.returncode == 0, f"{name}:\n{done.stdout}{done.stderr}"


@pytest.mark.needs_build
def test_a_wrong_key_is_refused_by_validate(tmp_path: Path) -> None:
    """The check above can fail: one misspelt key and the Collector refuses the file."""
    broken = tmp_path / "otelcol.yaml"
    broken.write_text(OTELCOL.read_text().replace("send_batch_size:", "send_batch_sise:"))
    done = validate([broken])
    assert done.returncode != 0
    assert "send_batch_sise" in done.stdout + done.stderr


@pytest.mark.needs_build
@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_configuration_starts_and_stops(name: str, tmp_path: Path) -> None:
    """Started for real on loopback: healthy, serving its metrics, and a clean exit on SIGTERM."""
    collector = start_collector(tmp_path, SHIPPED[name], JAEGER_OTLP_GRPC_ENDPOINT=f"127.0.0.1:{free_port()}",
                                RELAY_1_ENDPOINT=f"127.0.0.1:{free_port()}",
                                RELAY_2_ENDPOINT=f"127.0.0.1:{free_port()}",
                                PHOENIX_OTLP_HTTP_ENDPOINT=f"http://127.0.0.1:{free_port()}")
    try:
        internal = wait_until(lambda: http_get(f"http://{collector.endpoints['telemetry']}/metrics"),
                              timeout=20, what="the Collector's own metrics",
                              diagnostics=collector.diagnostics)
        assert b"otelcol_process_uptime" in internal
    finally:
        collector.process.popen.terminate()
        code = collector.process.popen.wait(timeout=30)
        collector.stop()
    assert code == 0, collector.diagnostics()
    log = collector.process.output(20000)
    assert "Everything is ready" in log and "Shutdown complete" in log, log


@pytest.mark.needs_build
def test_jaeger_configuration_validated_by_jaeger() -> None:
    done = validate([JAEGER_CONFIG], component="jaeger")
    assert done.returncode == 0, done.stdout + done.stderr


# ---------------------------------------------------------------------------------------------
# docker-compose.yaml


def test_compose_services_images_pinned(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == SERVICES
    for name, service in services.items():
        image = service["image"]
        repo, _, tag = image.rpartition(":")
        assert repo and re.fullmatch(r"v?\d+\.\d+\.\d+", tag), f"{name}: image not pinned: {image}"
    assert services["otel-collector"]["image"].startswith("otel/opentelemetry-collector-contrib:")
    assert services["jaeger"]["image"].startswith("jaegertracing/jaeger:2.")  # v2 speaks OTLP
    for name, service in services.items():
        for dependency in service.get("depends_on", []):
            assert dependency in services, (name, dependency)


def _mounts(service: dict[str, Any]) -> dict[str, Path]:
    """container path -> host path, for the bind mounts of local files."""
    mounts = {}
    for volume in service.get("volumes", []):
        source, target, *_ = volume.split(":")
        if source.startswith("."):
            host = (COLLECTOR_CONFIG / source).resolve()
            assert host.exists(), f"mounted file missing: {source}"
            mounts[target] = host
    return mounts


def test_compose_mounts_the_configuration(compose: dict[str, Any], prometheus: dict[str, Any]) -> None:
    services = compose["services"]
    collector = _mounts(services["otel-collector"])
    config_flag = next(a for a in services["otel-collector"]["command"] if a.startswith("--config="))
    assert collector[config_flag.split("=", 1)[1]].name == "otelcol.yaml"

    prom = _mounts(services["prometheus"])
    config_flag = next(a for a in services["prometheus"]["command"] if a.startswith("--config.file="))
    config_path = config_flag.split("=", 1)[1]
    assert prom[config_path].name == "prometheus.yml"
    config_dir = config_path.rsplit("/", 1)[0]
    for rule_file in prometheus["rule_files"]:
        assert f"{config_dir}/{rule_file}" in prom, f"rule file {rule_file} not mounted"
        assert prom[f"{config_dir}/{rule_file}"].name == rule_file

    grafana = _mounts(services["grafana"])
    provisioning = grafana["/etc/grafana/provisioning"]
    assert (provisioning / "datasources").is_dir() and (provisioning / "dashboards").is_dir()
    providers = yaml.safe_load((provisioning / "dashboards" / "dashboards.yaml").read_text())["providers"]
    for provider in providers:
        path = provider["options"]["path"]
        assert path in grafana, f"dashboard provider path {path} is not mounted"
        assert list(grafana[path].glob("*.json")), f"no dashboard JSON under {grafana[path]}"
    home = services["grafana"]["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    home_dir, home_file = home.rsplit("/", 1)
    assert (grafana[home_dir] / home_file).is_file()


def _published(service: dict[str, Any]) -> dict[int, str]:
    """container port -> host interface ("" for all interfaces)."""
    published = {}
    for mapping in service.get("ports", []):
        parts = str(mapping).split(":")
        host_ip = parts[0] if len(parts) == 3 else ""
        published[int(parts[-1])] = host_ip
    return published


def test_compose_ports(compose: dict[str, Any], otelcol: dict[str, Any]) -> None:
    services = compose["services"]
    collector = _published(services["otel-collector"])
    protocols = otelcol["receivers"]["otlp"]["protocols"]
    # apps send OTLP to the Collector
    assert collector[port_of(protocols["grpc"]["endpoint"])] == ""
    assert collector[port_of(protocols["http"]["endpoint"])] == ""
    assert port_of(otelcol["exporters"]["prometheus"]["endpoint"]) in collector
    assert port_of(otelcol["extensions"]["health_check"]["endpoint"]) in collector
    # the UIs, on the loopback interface only
    assert _published(services["jaeger"]) == {16686: "127.0.0.1"}
    assert _published(services["prometheus"]) == {9090: "127.0.0.1"}
    assert _published(services["grafana"]) == {3000: "127.0.0.1"}
    # Jaeger's OTLP port is reached inside the compose network, never published (no clash
    # with the Collector's 4317 on the host)
    assert 4317 not in _published(services["jaeger"])


def test_prometheus_targets_are_compose_services(compose: dict[str, Any], prometheus: dict[str, Any]) -> None:
    for job in prometheus["scrape_configs"]:
        for static in job["static_configs"]:
            for target in static["targets"]:
                host = target.rsplit(":", 1)[0]
                assert host in compose["services"] or host in ("localhost", "host.docker.internal"), (
                    job["job_name"], target)
    extra_hosts = compose["services"]["prometheus"].get("extra_hosts", [])
    assert "host.docker.internal:host-gateway" in extra_hosts


def test_grafana_datasources_point_at_compose_services(compose: dict[str, Any]) -> None:
    path = COLLECTOR_CONFIG / "grafana" / "provisioning" / "datasources" / "datasources.yaml"
    datasources = {d["type"]: d for d in yaml.safe_load(path.read_text())["datasources"]}
    assert set(datasources) == {"prometheus", "jaeger"}
    for kind, container_port in (("prometheus", 9090), ("jaeger", 16686)):
        url = urlparse(datasources[kind]["url"])
        assert url.hostname == kind and url.hostname in compose["services"]
        assert url.port == container_port
    assert datasources["prometheus"]["isDefault"] is True
    prometheus_yml = load("prometheus.yml")
    assert datasources["prometheus"]["jsonData"]["timeInterval"] == prometheus_yml["global"]["scrape_interval"]
    # the dashboard's data source variable defaults to the provisioned uid
    dashboard = json.loads((COLLECTOR_CONFIG / "grafana" / "dashboards" / "otel-grounding.json").read_text())
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["current"]["value"] == datasources["prometheus"]["uid"]
    # the Jaeger links open the UI the compose file publishes
    jaeger_url = urlparse(variables["jaeger_url"]["query"])
    assert jaeger_url.port in _published(compose["services"]["jaeger"])
