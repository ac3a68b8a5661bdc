"""Shared helpers for the end-to-end tests: ports, child processes, HTTP polling, OTLP receiver.

Everything listens on 127.0.0.1 on a port chosen at run time, is started by the test that needs
it and is stopped by it, with bounded waits. A tool that is missing fails the test with a
message saying how to install it: CI installs it first (.ci/install-system-deps).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import Metric
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, Span

from otel_grounding.internal_error import STRICT_ENV

REPO = Path(__file__).resolve().parent.parent
COLLECTOR_CONFIG = REPO / "collector-config"
INSTALL_HINT = (
    "run .ci/install-system-deps (as root on Debian/Ubuntu: apt-get install prometheus), "
    "which provides /usr/bin/prometheus and /usr/bin/promtool"
)

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------
# binaries, ports, processes


def require_binary(name: str) -> str:
    """The path of a required tool; a missing tool FAILS (never skips) with the install hint."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"`{name}` is not on PATH; the end-to-end tests need it: {INSTALL_HINT}")
    return path


def free_port() -> int:
    """A TCP port that was free on 127.0.0.1 a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> list[int]:
    """`count` distinct TCP ports that were free on 127.0.0.1 a moment ago (all held open while
    choosing, so no two are the same)."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def demo_command(*args: str) -> list[str]:
    """`otel-grounding demo ARGS` with the interpreter running the tests (the repo's venv)."""
    script = Path(sys.executable).with_name("otel-grounding")
    if script.exists():
        return [str(script), "demo", *args]
    return [sys.executable, "-c", "import sys; from otel_grounding.cli import main; sys.exit(main())",
            "demo", *args]


def clean_env(**extra: str) -> dict[str, str]:
    """The test's environment without any OTEL_* / OTEL_GROUNDING_* setting (but the suite's
    strict mode, tests/conftest.py), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_") or k == STRICT_ENV}
    env.update(extra)
    return env


class Process:
    """A child process whose output goes to a file (read back for failure messages)."""

    def __init__(self, name: str, argv: Sequence[str], log_dir: Path,
                 env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.name = name
        self.argv = list(argv)
        self.log_path = log_dir / f"{name}.log"
        self._log = open(self.log_path, "wb")
        self.popen = subprocess.Popen(
            self.argv, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=env, cwd=cwd,
        )

    def output(self, limit: int = 6000) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return text[-limit:]

    def check_running(self) -> None:
        code = self.popen.poll()
        if code is not None:
            raise AssertionError(
                f"{self.name} exited early with status {code}: {' '.join(self.argv)}\n{self.output()}"
            )

    def stop(self, timeout: float = 10.0) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=timeout)
        self._log.close()


def run(argv: Sequence[str], *, cwd: Path | None = None, timeout: float = 60.0,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command to completion (bounded), capturing its output."""
    return subprocess.run(list(argv), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def wait_until(probe: Callable[[], T | None], *, timeout: float, what: str,
               interval: float = 0.25, diagnostics: Callable[[], str] = lambda: "") -> T:
    """Call `probe` until it returns something truthy; fail with `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    last_error: BaseException | None = None
    while True:
        try:
            value = probe()
            if value:
                return value
        except AssertionError:
            raise
        except Exception as exc:  # a probe may fail until the server is up
            last_error = exc
        if time.monotonic() >= deadline:
            detail = f" (last error: {last_error!r})" if last_error else ""
            raise AssertionError(f"timed out after {timeout:g}s waiting for {what}{detail}\n"
                                 f"{diagnostics()}")
        time.sleep(interval)


# ---------------------------------------------------------------------------------------------
# HTTP


def http_get(url: str, timeout: float = 5.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return bytes(response.read())


def prometheus_api(base: str, path: str, params: dict[str, str] | list[tuple[str, str]],
                   timeout: float = 10.0) -> Any:
    """GET a Prometheus HTTP API endpoint; return `data`, or raise with Prometheus's error text."""
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    try:
        body = http_get(url, timeout=timeout)
    except urllib.error.HTTPError as exc:
        body = exc.read()
        payload = json.loads(body) if body.startswith(b"{") else {"error": body.decode()}
        raise PrometheusError(f"{path} {params}: HTTP {exc.code}: {payload.get('errorType', '')} "
                              f"{payload.get('error', '')}") from None
    payload = json.loads(body)
    if payload.get("status") != "success":
        raise PrometheusError(f"{path} {params}: {payload.get('errorType')} {payload.get('error')}")
    return payload["data"]


class PrometheusError(AssertionError):
    """Prometheus answered a query with an error."""


# ---------------------------------------------------------------------------------------------
# OTLP/gRPC receiver


class OTLPReceiver(trace_service_pb2_grpc.TraceServiceServicer,
                   metrics_service_pb2_grpc.MetricsServiceServicer):
    """A real OTLP/gRPC server (traces and metrics) on 127.0.0.1 keeping every request."""

    def __init__(self) -> None:
        self.trace_requests: list[trace_service_pb2.ExportTraceServiceRequest] = []
        self.metric_requests: list[metrics_service_pb2.ExportMetricsServiceRequest] = []
        self._lock = threading.Lock()
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self, self._server)
        metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(self, self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self.endpoint = f"http://127.0.0.1:{self.port}"

    # The generated servicers share the method name Export; dispatch on the request type.
    def Export(self, request: Any, context: Any) -> Any:
        with self._lock:
            if isinstance(request, trace_service_pb2.ExportTraceServiceRequest):
                self.trace_requests.append(request)
                return trace_service_pb2.ExportTraceServiceResponse()
            self.metric_requests.append(request)
            return metrics_service_pb2.ExportMetricsServiceResponse()

    def start(self) -> OTLPReceiver:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop(grace=1.0).wait(5.0)

    def resource_spans(self) -> list[ResourceSpans]:
        with self._lock:
            return [rs for request in self.trace_requests for rs in request.resource_spans]

    def spans(self) -> list[Span]:
        return [span for rs in self.resource_spans() for ss in rs.scope_spans for span in ss.spans]

    def metrics(self) -> list[Metric]:
        with self._lock:
            return [
                metric
                for request in self.metric_requests
                for rm in request.resource_metrics
                for sm in rm.scope_metrics
                for metric in sm.metrics
            ]


@contextmanager
def otlp_receiver() -> Iterator[OTLPReceiver]:
    receiver = OTLPReceiver().start()
    try:
        yield receiver
    finally:
        receiver.stop()


def any_value(value: AnyValue) -> Any:
    """An OTLP AnyValue as a Python value (scalars and arrays, as the SDK sends them)."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in value.kvlist_value.values}
    return getattr(value, kind)


def attributes(kvs: Sequence[KeyValue]) -> dict[str, Any]:
    return {kv.key: any_value(kv.value) for kv in kvs}


def attribute_kinds(kvs: Sequence[KeyValue]) -> dict[str, str | None]:
    """Which AnyValue field each attribute travelled in (string_value, double_value, ...)."""
    return {kv.key: kv.value.WhichOneof("value") for kv in kvs}
