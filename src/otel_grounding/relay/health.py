"""The relay's health port: `/healthz` (alive), `/readyz` (accepting: not draining, queue not
full, below the soft memory limit) and `/debug/metrics` (the relay's metrics as JSON), on a
separate local port so that probes never queue behind OTLP traffic."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from otel_grounding.relay.options import DEFAULT_HEALTH_PORT
from otel_grounding.relay.receiver import split_endpoint


class HealthServer:
    """`/healthz` (alive), `/readyz` (accepting: not draining, queue not full) and
    `/debug/metrics` (the relay's metrics as JSON) on a separate local port."""

    def __init__(
        self,
        endpoint: str,
        status: Callable[[], dict[str, Any]],
        metrics: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        host, port = split_endpoint(endpoint, DEFAULT_HEALTH_PORT)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                state = status()
                if path == "/healthz":
                    code, body = 200, {"status": "ok", **state}
                elif path == "/readyz":
                    ready = state.get("ready", False)
                    code, body = (200 if ready else 503), state
                elif path == "/debug/metrics" and metrics is not None:
                    code, body = 200, metrics()
                else:
                    code, body = 404, {"error": "not found"}
                data = json.dumps(body, default=str).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server_class: type[ThreadingHTTPServer] = type(
            "HealthHttpServer", (ThreadingHTTPServer,), {"daemon_threads": True}
        )
        if ":" in host:
            server_class.address_family = socket.AF_INET6
        self._server = server_class((host, port), Handler)
        self.port = self._server.server_address[1]
        self.address = f"{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
            name="relay-health", daemon=True,
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        if self._thread.ident is not None:  # shutdown() waits for a serve loop that started
            self._server.shutdown()
        self._server.server_close()
