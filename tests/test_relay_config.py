"""Relay flags and variables that cannot work are refused at start, with a clear message."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _start(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "otel_grounding.relay", "--grpc-endpoint", "127.0.0.1:0",
               "--http-endpoint", "none", "--health-endpoint", "none",
               "--exporter-endpoint", "http://127.0.0.1:9", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=20,
                          env={**_clean_env(), **(env or {})}, stdin=subprocess.DEVNULL)


def _clean_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items()
            if not k.startswith(("OTEL_EXPORTER_OTLP", "OTEL_GROUNDING_"))}


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--exporter-timeout", "inf"), "--exporter-timeout"),
        (("--exporter-timeout", "nan"), "--exporter-timeout"),
        (("--exporter-timeout", "1e12"), "--exporter-timeout"),
        (("--drain-timeout", "inf"), "--drain-timeout"),
        (("--retry-max-elapsed", "nan"), "--retry-max-elapsed"),
        (("--retry-initial", "-1"), "--retry-initial"),
        (("--retry-after", "1e300"), "--retry-after"),
        (("--trace-retention", "inf"), "--trace-retention"),
        (("--wait-duration", "inf"), "wait_duration"),
        (("--export-workers", "100000"), "--export-workers"),
        (("--queue-max-spans", "0"), "--queue-max-spans"),
        (("--prometheus-port", "70000"), "--prometheus-port"),
    ],
)
def test_non_finite_and_absurd_values_are_refused_at_start(args, named):
    result = _start(*args)
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert named in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["inf", "nan", "-5", "1e15"])
def test_the_standard_timeout_variable_is_checked_too(value):
    result = _start(env={"OTEL_EXPORTER_OTLP_TIMEOUT": value})
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "OTEL_EXPORTER_OTLP_TIMEOUT" in result.stderr
    assert "Traceback" not in result.stderr
