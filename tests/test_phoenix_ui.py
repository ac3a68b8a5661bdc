"""The grade and the rate where an agent developer looks: Arize Phoenix, in a real browser.

    otel-grounding demo --OTLP/gRPC--> otelcol-grounding (otelcol.yaml + otelcol-phoenix.yaml)
                                          |-- otlp_grpc/jaeger --> jaeger
                                          `-- otlp_http/phoenix --> phoenix (SQLite, its own venv)
    node tests/ui/phoenix_run_page.js: Playwright drives Debian's headless /usr/bin/chromium
    to the flagged run's trace page and reads what it renders.

This is the `make stack` topology on free loopback ports. Phoenix's REST API says which trace
holds the flagged run; the browser must then show, on that run span, the coverage grade, the
claim grounding rate and the flag the processor wrote (the same values the scripted run gets in
process), and the audit event. The screenshots stay in tests/artifacts/ (printed below).
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from otel_grounding import attributes as attr
from otel_grounding.conventions import native
from otel_grounding.demo import run_demo

from e2e_support import REPO, clean_env, demo_command, http_get, run, wait_until
from otel_stack import (
    OTELCOL,
    OTELCOL_PHOENIX,
    Service,
    collector_with_jaeger,
    kept,
    start_phoenix,
)

pytestmark = pytest.mark.needs_build  # `make check` leaves it out

UI = REPO / "tests" / "ui"
ARTIFACTS = REPO / "tests" / "artifacts"
PHOENIX_PROJECT = "otel-grounding-demo"
FLAGGED_RUN_ID = "demo-run-2-hallucinated"
RUN_SPAN = "invoke_agent demo-agent"
BROWSER_TIMEOUT = 600.0


@dataclass
class Phoenix:
    service: Service
    collector: Service

    def api(self, path: str) -> Any:
        return json.loads(http_get(f"{self.service.endpoints['url']}{path}", timeout=10))


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    tmp = tmp_path_factory.mktemp("phoenix-ui")
    with ExitStack() as stop:
        service = kept(stop, start_phoenix(tmp))
        _, collector = collector_with_jaeger(stop, tmp, [OTELCOL, OTELCOL_PHOENIX],
                                             PHOENIX_OTLP_HTTP_ENDPOINT=service.endpoints["url"])
        env = clean_env(
            OTEL_EXPORTER_OTLP_ENDPOINT=collector.endpoints["otlp_grpc"],
            OTEL_EXPORTER_OTLP_INSECURE="true",
            # Phoenix files spans under the project their resource names
            OTEL_RESOURCE_ATTRIBUTES=f"openinference.project.name={PHOENIX_PROJECT}",
        )
        done = run(demo_command(), env=env, timeout=120)
        assert done.returncode == 0, f"demo: {done.returncode}\n{done.stdout}\n{done.stderr}"
        yield Phoenix(service, collector)


def flagged_span(phoenix: Phoenix) -> dict[str, Any]:
    """The flagged run span, as Phoenix stored it (its REST API)."""
    def found() -> dict[str, Any] | None:
        spans = phoenix.api(f"/v1/projects/{PHOENIX_PROJECT}/spans?limit=100")["data"]
        return next((s for s in spans if s["attributes"].get(native.RUN_ID) == FLAGGED_RUN_ID
                     and attr.GRADE in s["attributes"]), None)
    return wait_until(found, timeout=60, interval=1.0, what="the flagged run span in Phoenix",
                      diagnostics=lambda: phoenix.service.diagnostics() + phoenix.collector.diagnostics())


def expected_attributes() -> dict[str, Any]:
    local = {str(s.attributes[native.RUN_ID]): s for s in run_demo(out=io.StringIO())}
    return dict(local[FLAGGED_RUN_ID].attributes or {})


def test_phoenix_stored_the_reliability_attributes(phoenix: Phoenix) -> None:
    span = flagged_span(phoenix)
    expected = {k: v for k, v in expected_attributes().items() if k.startswith(attr.PREFIX)}
    stored = {k: v for k, v in span["attributes"].items() if k.startswith(attr.PREFIX)}
    assert stored == expected
    assert attr.FLAGGED_EVENT in [e["name"] for e in span["events"]]


def test_run_page_in_chromium_shows_grade_rate_and_flag(
        phoenix: Phoenix, capsys: pytest.CaptureFixture[str]) -> None:
    node = shutil.which("node")
    assert node, "node is needed (.ci/install-system-deps installs it)"
    assert (UI / "node_modules" / "playwright-core").is_dir(), "run `make ui-deps` (npm ci in tests/ui)"
    span = flagged_span(phoenix)
    project_id = next(p["id"] for p in phoenix.api("/v1/projects")["data"]
                      if p["name"] == PHOENIX_PROJECT)
    url = f"{phoenix.service.endpoints['url']}/projects/{project_id}/spans/{span['context']['trace_id']}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    prefix = ARTIFACTS / "phoenix-run-page"
    done = run([node, str(UI / "phoenix_run_page.js"), url, RUN_SPAN, str(prefix)],
               cwd=UI, timeout=BROWSER_TIMEOUT)
    assert done.returncode == 0, f"browser check failed:\n{done.stdout}\n{done.stderr}"
    page = json.loads(done.stdout.strip().splitlines()[-1])
    with capsys.disabled():
        print(f"\nPhoenix run page screenshots: {', '.join(page['screenshots'])}")

    expected = expected_attributes()
    shown = page["attributes"]
    assert shown[attr.GRADE] == expected[attr.GRADE] == "full", shown
    assert shown[attr.RATE] == repr(expected[attr.RATE]) == "0.5", shown
    assert shown[attr.BELOW_THRESHOLD] == "true", shown
    assert shown[attr.THRESHOLD] == repr(expected[attr.THRESHOLD]), shown
    assert shown[native.RUN_ID] == FLAGGED_RUN_ID
    assert page["events"] == [attr.FLAGGED_EVENT, attr.CLAIM_EVENT]
    for screenshot in page["screenshots"]:
        data = Path(screenshot).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, screenshot
