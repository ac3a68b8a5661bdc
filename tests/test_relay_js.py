"""A Node.js app on the official OpenTelemetry JS SDK sends OTLP to the relay; the run span
reaches the sink enriched. tests/relay_js/node_modules must be installed (`npm ci --prefix
tests/relay_js`): without it this test fails, it does not skip."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as A
from otel_grounding.conventions import native

from relay_kit import OtlpSink, start_relay

pytestmark = pytest.mark.needs_build  # `make check` leaves it out

APP = Path(__file__).parent / "relay_js"
INSTALL_HINT = "run `npm ci --prefix tests/relay_js` (node >= 18 and npm are needed)"


@pytest.fixture(scope="module")
def node() -> str:
    path = shutil.which("node")
    assert path is not None, f"node is not on PATH: {INSTALL_HINT}"
    for package in ("sdk-trace-base", "exporter-trace-otlp-proto", "exporter-trace-otlp-http",
                    "resources", "api"):
        assert (APP / "node_modules" / "@opentelemetry" / package).is_dir(), (
            f"@opentelemetry/{package} is not installed: {INSTALL_HINT}"
        )
    return path


@pytest.fixture(scope="module")
def relay(sink: OtlpSink) -> Iterator[Any]:
    with start_relay(sink.endpoint, "--wait-duration", "0.5",
                     "--min-claim-grounding-rate", "0.7") as process:
        yield process
        assert process.terminate() == 0


@pytest.mark.parametrize("encoding", ["proto", "json"])
def test_node_sdk_run_is_enriched_at_the_sink(node, sink, relay, encoding):
    result = subprocess.run(
        [node, str(APP / "send_run.js"), f"http://{relay.http}", encoding, f"js-{encoding}"],
        capture_output=True, text=True, timeout=30, cwd=APP,
    )
    assert result.returncode == 0, result.stderr
    sent = json.loads(result.stdout.strip().splitlines()[-1])
    trace_id = bytes.fromhex(sent["traceId"])
    run_span_id = bytes.fromhex(sent["runSpanId"])

    def trace() -> list[Any]:
        return [s for s in sink.spans() if s.span.trace_id == trace_id]

    assert sink.wait_until(lambda: len(trace()) == 4, 10), [s.span.name for s in trace()]
    (run,) = [s for s in trace() if s.span.span_id == run_span_id]
    attrs = run.attributes
    assert run.resource["service.name"] == "js-agent"
    assert attrs[native.RUN_ID] == f"js-{encoding}"
    assert attrs[A.CLAIMS_TOTAL] == 3 and attrs[A.CLAIMS_GROUNDED] == 2
    assert attrs[A.RATE] == pytest.approx(2 / 3)
    assert attrs[A.GRADE] == "full" and attrs[A.EVIDENCE_SOURCES] == 2
    assert attrs[A.BELOW_THRESHOLD] is True and attrs[A.THRESHOLD] == 0.7
    assert attrs[A.PROJECT] == "acme"
    (flagged,) = [e for e in run.events if e[0] == A.FLAGGED_EVENT]
    assert flagged[1][A.FLAGGED_EVENT_PROJECT] == "acme"
    assert flagged[2] == run.span.end_time_unix_nano
    others = [s for s in trace() if s.span.span_id != run_span_id]
    assert all(not any(k.startswith(A.PREFIX) for k in s.attributes) for s in others)
