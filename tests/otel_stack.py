"""The real observability stack on loopback: Jaeger v2, the Collector, Prometheus, Phoenix.

Each `start_*` runs the pinned binary (built once by .ci/otel-binaries, cached outside the work
tree) with a configuration from collector-config/, every endpoint on 127.0.0.1, and waits until
it answers. The end-to-end tests start them on free ports; `make stack` (`python
tests/otel_stack.py`) starts them on the usual ports and stops them on Ctrl-C.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from e2e_support import (
    COLLECTOR_CONFIG,
    REPO,
    Process,
    clean_env,
    free_port,
    free_ports,
    http_get,
    require_binary,
    wait_until,
)

OTEL_BINARIES = REPO / ".ci" / "otel-binaries"
OTELCOL = COLLECTOR_CONFIG / "otelcol.yaml"
OTELCOL_LOADBALANCING = COLLECTOR_CONFIG / "otelcol-loadbalancing.yaml"
OTELCOL_PHOENIX = COLLECTOR_CONFIG / "otelcol-phoenix.yaml"
JAEGER_CONFIG = COLLECTOR_CONFIG / "jaeger.yaml"
BUILD_TIMEOUT = 3600.0  # a first build on a busy 2-core machine; afterwards instant
START_TIMEOUT = 60.0
# Phoenix imports a large application and migrates its SQLite database before it answers:
# minutes on a busy 2-core machine the first time.
PHOENIX_START_TIMEOUT = 600.0


def built(component: str) -> str:
    """The pinned binary of `collector`, `jaeger` or `phoenix`, built first if not cached.

    `make test` builds them before pytest starts, so this is normally a cache hit; run alone,
    a test builds what it needs (slow, once) rather than skip.
    """
    done = subprocess.run([str(OTEL_BINARIES), component], capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT, check=False)
    if done.returncode != 0:
        raise AssertionError(f"{OTEL_BINARIES} {component} failed ({done.returncode}):\n"
                             f"{done.stderr[-6000:]}")
    return done.stdout.strip().splitlines()[-1]


# The `${env:...}` listen addresses of collector-config/'s files, by what they serve; each file
# also reads PREFIX_TELEMETRY_HOST / PREFIX_TELEMETRY_PORT for its own metrics.
COLLECTOR_VARIABLES = {
    "otlp_grpc": "OTELCOL_OTLP_GRPC_ENDPOINT",
    "otlp_http": "OTELCOL_OTLP_HTTP_ENDPOINT",
    "prometheus": "OTELCOL_PROMETHEUS_ENDPOINT",
    "health": "OTELCOL_HEALTH_ENDPOINT",
}
JAEGER_VARIABLES = {
    "otlp_grpc": "JAEGER_OTLP_GRPC_LISTEN",
    "otlp_http": "JAEGER_OTLP_HTTP_LISTEN",
    "query_http": "JAEGER_QUERY_HTTP_ENDPOINT",
    "query_grpc": "JAEGER_QUERY_GRPC_ENDPOINT",
    "health": "JAEGER_HEALTH_ENDPOINT",
}


def loopback(port: int) -> str:
    return f"127.0.0.1:{port}"


def endpoint_env(prefix: str, variables: Mapping[str, str], ports: Mapping[str, int],
                 **extra: str) -> dict[str, str]:
    """A clean environment setting every listen address of a configuration to a loopback port."""
    env = {variable: loopback(ports[key]) for key, variable in variables.items()}
    env[f"{prefix}_TELEMETRY_HOST"] = "127.0.0.1"
    env[f"{prefix}_TELEMETRY_PORT"] = str(ports["telemetry"])
    return clean_env(**env, **extra)


@dataclass
class Service:
    """A started component: its process and the addresses it serves."""

    process: Process
    endpoints: dict[str, str] = field(default_factory=dict)

    def diagnostics(self) -> str:
        return f"--- {self.process.name} log:\n{self.process.output(4000)}"

    def stop(self) -> None:
        self.process.stop()


def kept(stop: ExitStack, service: Service) -> Service:
    """`service`, stopped when `stop` closes (fixtures start several, stop all)."""
    stop.callback(service.stop)
    return service


def _wait_http(service: Service, url: str, what: str,
               accept: Callable[[bytes], bool] = lambda body: True,
               timeout: float = START_TIMEOUT) -> None:
    def answered() -> bool:
        service.process.check_running()
        return accept(http_get(url, timeout=2))
    wait_until(answered, timeout=timeout, interval=0.5, what=what, diagnostics=service.diagnostics)


# ---------------------------------------------------------------------------------------------
# Jaeger v2


def start_jaeger(log_dir: Path, *, query_port: int | None = None, name: str = "jaeger") -> Service:
    """Jaeger v2 all-in-one, in-memory, with collector-config/jaeger.yaml."""
    keys = (*JAEGER_VARIABLES, "telemetry")
    ports = dict(zip(keys, free_ports(len(keys)), strict=True))
    ports["query_http"] = query_port or ports["query_http"]
    env = endpoint_env("JAEGER", JAEGER_VARIABLES, ports)
    process = Process(name, [built("jaeger"), "--config", str(JAEGER_CONFIG)], log_dir, env=env)
    service = Service(process, {
        "otlp_grpc": loopback(ports["otlp_grpc"]),
        "query": f"http://{loopback(ports['query_http'])}",
    })
    _wait_http(service, f"{service.endpoints['query']}/api/services", f"{name} query API",
               lambda body: b'"data"' in body)
    return service


def jaeger_api(query: str, path: str, params: Mapping[str, str] | None = None) -> Any:
    """GET Jaeger's query HTTP API (what its UI reads); the decoded JSON."""
    url = f"{query}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    return json.loads(http_get(url, timeout=10))


def jaeger_traces(query: str, service: str, limit: int = 100) -> list[dict[str, Any]]:
    """Every trace of `service` Jaeger holds (the UI's search, the last hour)."""
    data = jaeger_api(query, "/api/traces", {"service": service, "limit": str(limit),
                                             "lookback": "1h"})
    return list(data.get("data") or [])


def tags(item: dict[str, Any]) -> dict[str, Any]:
    """A Jaeger span's `tags` (or a log's `fields`) as a dict."""
    return {tag["key"]: tag["value"] for tag in item.get("tags", item.get("fields", []))}


# ---------------------------------------------------------------------------------------------
# the Collector


def start_collector(log_dir: Path, configs: list[Path], *, name: str = "otelcol",
                    ports: Mapping[str, int] | None = None, **env: str) -> Service:
    """The built Collector with the given configuration files (later ones merge over earlier)."""
    chosen = dict(ports or {})
    keys = (*COLLECTOR_VARIABLES, "telemetry")
    for key, port in zip(keys, free_ports(len(keys)), strict=True):
        chosen.setdefault(key, port)
    argv = [built("collector")] + [f"--config={config}" for config in configs]
    process = Process(name, argv, log_dir,
                      env=endpoint_env("OTELCOL", COLLECTOR_VARIABLES, chosen, **env))
    service = Service(process, {
        "otlp_grpc": f"http://{loopback(chosen['otlp_grpc'])}",
        "otlp_http": f"http://{loopback(chosen['otlp_http'])}",
        "prometheus": loopback(chosen["prometheus"]),
        "telemetry": loopback(chosen["telemetry"]),
    })
    # health_check answers 200 once every pipeline has started
    _wait_http(service, f"http://{loopback(chosen['health'])}/", f"{name} healthy")
    return service


def collector_with_jaeger(stop: ExitStack, log_dir: Path, configs: list[Path], *,
                          name: str = "otelcol", **env: str) -> tuple[Service, Service]:
    """Jaeger, and a Collector with `configs` whose otlp_grpc/jaeger exporter sends to it."""
    jaeger = kept(stop, start_jaeger(log_dir))
    collector = kept(stop, start_collector(
        log_dir, configs, name=name, JAEGER_OTLP_GRPC_ENDPOINT=jaeger.endpoints["otlp_grpc"], **env))
    return jaeger, collector


def validate(configs: list[Path], component: str = "collector") -> subprocess.CompletedProcess[str]:
    """`validate --config ...` by the built Collector (or Jaeger), with the default endpoints."""
    return subprocess.run([built(component), "validate", *[f"--config={c}" for c in configs]],
                          capture_output=True, text=True, timeout=120, check=False,
                          env=clean_env())


# ---------------------------------------------------------------------------------------------
# Prometheus


def shortened_rules(tmp: Path) -> Path:
    """collector-config/alerts.yml with every `for` shortened to 2 s (expressions unchanged)."""
    rules = yaml.safe_load((COLLECTOR_CONFIG / "alerts.yml").read_text())
    shortened = 0
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "for" in rule:
                rule["for"] = "2s"
                shortened += 1
    assert shortened >= 5, "alerts.yml lost its `for` clauses"
    path = tmp / "alerts.yml"
    path.write_text(yaml.safe_dump(rules, sort_keys=False))
    return path


def prometheus_config(tmp: Path, targets: Mapping[str, list[str]], *, interval: str = "1s",
                      rules: Path | None = None) -> Path:
    """collector-config/prometheus.yml with loopback targets per job (other jobs dropped)."""
    config = copy.deepcopy(yaml.safe_load((COLLECTOR_CONFIG / "prometheus.yml").read_text()))
    config["global"]["scrape_interval"] = interval
    config["global"]["scrape_timeout"] = interval
    config["global"]["evaluation_interval"] = interval
    config["rule_files"] = [str(rules or COLLECTOR_CONFIG / "alerts.yml")]
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert set(targets) <= set(jobs), f"prometheus.yml jobs changed: {sorted(jobs)}"
    for job, addresses in targets.items():
        jobs[job]["static_configs"] = [{"targets": addresses}]
    config["scrape_configs"] = [jobs[job] for job in targets]
    path = tmp / "prometheus.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def start_prometheus(log_dir: Path, config: Path, *, port: int | None = None) -> Service:
    """Debian's prometheus with `config`, storage in `log_dir`."""
    port = port or free_port()
    process = Process("prometheus", [
        require_binary("prometheus"), f"--config.file={config}",
        f"--storage.tsdb.path={log_dir / 'prometheus-data'}",
        f"--web.listen-address={loopback(port)}", "--log.level=warn",
    ], log_dir, cwd=log_dir)
    service = Service(process, {"url": f"http://{loopback(port)}"})
    _wait_http(service, f"{service.endpoints['url']}/-/ready", "prometheus ready",
               lambda body: body.startswith(b"Prometheus"))
    return service


# ---------------------------------------------------------------------------------------------
# Phoenix


def start_phoenix(log_dir: Path, *, port: int | None = None) -> Service:
    """Arize Phoenix (UI and OTLP/HTTP on one port, SQLite in `log_dir`)."""
    port = port or free_port()
    env = clean_env(
        PHOENIX_HOST="127.0.0.1",
        PHOENIX_PORT=str(port),
        PHOENIX_GRPC_PORT=str(free_port()),
        PHOENIX_WORKING_DIR=str(log_dir / "phoenix"),
        PHOENIX_TELEMETRY_ENABLED="false",
        DO_NOT_TRACK="1",
    )
    process = Process("phoenix", [built("phoenix"), "serve"], log_dir, env=env)
    service = Service(process, {
        "url": f"http://{loopback(port)}",
        "otlp_http": f"http://{loopback(port)}/v1/traces",
    })
    _wait_http(service, f"{service.endpoints['url']}/healthz", "phoenix ready",
               timeout=PHOENIX_START_TIMEOUT)
    return service


# ---------------------------------------------------------------------------------------------
# `make stack`


@contextmanager
def stack(log_dir: Path) -> Iterator[dict[str, Service]]:
    """Jaeger, Phoenix, the Collector (otelcol.yaml + otelcol-phoenix.yaml) and Prometheus on
    the ports the README and the compose file use, all on 127.0.0.1."""
    with ExitStack() as stop:
        jaeger = kept(stop, start_jaeger(log_dir, query_port=16686))
        phoenix = kept(stop, start_phoenix(log_dir, port=6006))
        ports = {"otlp_grpc": 4317, "otlp_http": 4318, "prometheus": 9464, "health": 13133,
                 "telemetry": 8888}
        collector = kept(stop, start_collector(
            log_dir, [OTELCOL, OTELCOL_PHOENIX], ports=ports,
            JAEGER_OTLP_GRPC_ENDPOINT=jaeger.endpoints["otlp_grpc"],
            PHOENIX_OTLP_HTTP_ENDPOINT=phoenix.endpoints["url"]))
        config = prometheus_config(log_dir, {
            "prometheus": [loopback(9090)],
            "otel-grounding-app": [loopback(9465)],
            "otel-collector": [loopback(ports["prometheus"])],
            "otel-collector-internal": [loopback(ports["telemetry"])],
        }, interval="5s")
        prometheus = kept(stop, start_prometheus(log_dir, config, port=9090))
        services = {"jaeger": jaeger, "phoenix": phoenix, "collector": collector,
                    "prometheus": prometheus}
        yield services


def main() -> int:
    log_dir = Path(tempfile.mkdtemp(prefix="otel-grounding-stack-"))
    with stack(log_dir) as services:
        print(f"""
otel-grounding stack on loopback (logs in {log_dir}):
  Collector OTLP   grpc http://127.0.0.1:4317   http http://127.0.0.1:4318
  Jaeger           query API {services['jaeger'].endpoints['query']}/api/traces?service=otel-grounding-demo
  Phoenix          UI {services['phoenix'].endpoints['url']}
  Prometheus       UI {services['prometheus'].endpoints['url']}  (alerts: /alerts)
  Collector        metrics http://127.0.0.1:9464/metrics   own metrics http://127.0.0.1:8888/metrics

Send the demo's runs (Phoenix files them under the project `default` unless the resource
names one, e.g. OTEL_RESOURCE_ATTRIBUTES=openinference.project.name=otel-grounding-demo):
  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4317 .venv/bin/otel-grounding demo

Ctrl-C stops everything.""", flush=True)
        stopping = False

        def interrupted(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True
        signal.signal(signal.SIGINT, interrupted)
        signal.signal(signal.SIGTERM, interrupted)
        while not stopping:
            for name, service in services.items():
                if service.process.popen.poll() is not None:
                    print(f"{name} exited:\n{service.diagnostics()}", file=sys.stderr)
                    stopping = True
            time.sleep(0.5)
        print("stopping...", flush=True)
    print("stopped.")
    return 0


if __name__ == "__main__":
    os.chdir(REPO)
    sys.exit(main())
