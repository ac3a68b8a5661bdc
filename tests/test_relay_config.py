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
        (("--evidence-wait", "nan"), "--evidence-wait"),
        (("--trace-retention", "1e12"), "--trace-retention"),
        (("--set", "evidence_wai=3"), "did you mean evidence_wait"),
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


def _relay_settings(*argv: str, environ: dict[str, str] | None = None):
    from otel_grounding.config import RELAY, flag_overrides, load_settings
    from otel_grounding.relay.cli import build_parser

    args = build_parser().parse_args(list(argv))
    return load_settings(flag_overrides(args), settings_file=args.settings_file,
                         environ=environ or {}, shell=RELAY)


def test_the_relay_reads_its_timers_from_flags_and_environment():
    settings = _relay_settings("--evidence-wait", "2", "--trace-retention", "30")
    assert (settings.evidence_wait, settings.trace_retention) == (2.0, 30.0)
    settings = _relay_settings(environ={"OTEL_GROUNDING_EVIDENCE_WAIT": "200"})
    assert (settings.evidence_wait, settings.trace_retention) == (200.0, 400.0)
    settings = _relay_settings("--evidence-wait", "3", environ={"OTEL_GROUNDING_EVIDENCE_WAIT": "9"})
    assert settings.evidence_wait == 3.0  # the flag beats the environment


def test_the_deprecated_wait_duration_flag_is_the_relays_evidence_wait():
    with pytest.warns(DeprecationWarning, match="evidence_wait = 4 s"):
        settings = _relay_settings("--wait-duration", "4")
    assert (settings.evidence_wait, settings.trace_retention) == (4.0, 300.0)
    with pytest.warns(DeprecationWarning, match="ignored: evidence_wait is also set"):
        settings = _relay_settings("--wait-duration", "4", "--evidence-wait", "1")
    assert settings.evidence_wait == 1.0


def test_score_traces_has_no_live_timer_flags():
    from otel_grounding.cli import build_parser

    parser = build_parser()
    for flag in ("--trace-retention", "--evidence-wait", "--wait-duration"):
        with pytest.raises(SystemExit):
            parser.parse_args(["score-traces", flag, "3", "x.jsonl"])
    args = parser.parse_args(["score-traces", "--num-traces", "3", "x.jsonl"])
    assert args.num_traces == 3


def _one_line_naming(result: subprocess.CompletedProcess[str], *named: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.startswith("otel-grounding")]
    assert len(lines) == 1, result.stderr[-2000:]
    for name in named:
        assert name in lines[0], lines[0]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--grpc-endpoint", "127.0.0.1:70000"), ("--grpc-endpoint", "70000")),
        (("--http-endpoint", "127.0.0.1:99999"), ("--http-endpoint", "99999")),
        (("--health-endpoint", "127.0.0.1:99999"), ("--health-endpoint", "99999")),
        (("--health-endpoint", "127.0.0.1:abc"), ("--health-endpoint", "abc")),
        (("--exporter-endpoint", "http://127.0.0.1:99999"), ("--exporter-endpoint", "99999")),
        (("--exporter-endpoint", "http://127.0.0.1:abc"), ("--exporter-endpoint", "abc")),
        (("--exporter-endpoint", "127.0.0.1:99999"), ("--exporter-endpoint", "99999")),
    ],
)
def test_an_address_that_is_no_address_is_one_line_naming_the_flag(args, named):
    """A port beyond 65535 was taken modulo 65536 (70000 listened on 4464) or raised
    OverflowError / ValueError with a traceback."""
    _one_line_naming(_start(*args), *named)


def test_an_exporter_variable_with_a_bad_port_is_named():
    command = [sys.executable, "-m", "otel_grounding.relay", "--grpc-endpoint", "127.0.0.1:0",
               "--http-endpoint", "none", "--health-endpoint", "none"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=20,
                            env={**_clean_env(), "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT":
                                 "http://127.0.0.1:99999"}, stdin=subprocess.DEVNULL)
    _one_line_naming(result, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "99999")


@pytest.mark.parametrize("flag", ["--health-endpoint", "--http-endpoint", "--prometheus-port"])
def test_a_port_in_use_is_one_line_naming_the_flag_and_the_address(flag):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        value = str(port) if flag == "--prometheus-port" else f"127.0.0.1:{port}"
        if flag == "--prometheus-port":
            pytest.importorskip("prometheus_client")
        _one_line_naming(_start(flag, value), flag, f"127.0.0.1:{port}")


def test_the_default_health_port_is_not_the_shipped_collectors():
    """13133 was also the shipped Collector configuration's `health_check` port."""
    from pathlib import Path

    from otel_grounding.relay.cli import DEFAULT_HEALTH_PORT, build_parser

    config = Path(__file__).resolve().parents[1] / "collector-config"
    listened = " ".join(
        line for path in config.glob("*.yaml") for line in path.read_text().splitlines()
        if not line.lstrip().startswith("#")
    )
    default = build_parser().parse_args([]).health_endpoint
    assert default == f"127.0.0.1:{DEFAULT_HEALTH_PORT}"
    assert f":{DEFAULT_HEALTH_PORT}" not in listened


def test_the_shipped_relay_command_uses_current_flags_and_parses():
    """The load-balancing configuration's relay command passed the deprecated
    `--wait-duration` and the health port the Collector itself uses."""
    import shlex
    from pathlib import Path

    from otel_grounding.relay.cli import build_parser

    text = (Path(__file__).resolve().parents[1] / "collector-config"
            / "otelcol-loadbalancing.yaml").read_text().splitlines()
    start = next(i for i, line in enumerate(text) if "#   otel-grounding relay --" in line)
    command: list[str] = []
    for line in text[start:]:
        body = line.lstrip("#").strip()
        command += shlex.split(body.rstrip("\\"))
        if not body.endswith("\\"):
            break
    assert command[:2] == ["otel-grounding", "relay"]
    assert "--wait-duration" not in command
    args = build_parser().parse_args(command[2:])
    assert args.evidence_wait == 5 and args.health_endpoint.endswith(":13135")


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"OTEL_EXPORTER_OTLP_COMPRESSION": "brotli"}, "OTEL_EXPORTER_OTLP_COMPRESSION: 'brotli'"),
        ({"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpcc"},
         "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpcc'"),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://collector:4317"},
         "OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector:4317'"),
    ],
)
def test_a_bad_next_hop_variable_is_named(env, named):
    """The messages said "exporter compression" / "exporter protocol" (no such flag or
    variable); a gRPC endpoint with a scheme that is not http(s) started the relay."""
    command = [sys.executable, "-m", "otel_grounding.relay", "--grpc-endpoint", "127.0.0.1:0",
               "--http-endpoint", "none", "--health-endpoint", "none"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=20,
                            env={**_clean_env(), **env}, stdin=subprocess.DEVNULL)
    _one_line_naming(result, named)


@pytest.mark.parametrize("protocol", ["grpc", "http/protobuf"])
def test_a_next_hop_certificate_that_cannot_be_read_is_named(protocol):
    """The HTTP sender raised FileNotFoundError with a traceback; the gRPC one did not say
    which setting held the path."""
    command = [sys.executable, "-m", "otel_grounding.relay", "--grpc-endpoint", "127.0.0.1:0",
               "--http-endpoint", "none", "--health-endpoint", "none",
               "--exporter-protocol", protocol]
    env = {**_clean_env(), "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.example:4317",
           "OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"}
    result = subprocess.run(command, capture_output=True, text=True, timeout=20, env=env,
                            stdin=subprocess.DEVNULL)
    _one_line_naming(result, "OTEL_EXPORTER_OTLP_CERTIFICATE", "/nonexistent/ca.pem")
    result = subprocess.run([*command, "--exporter-certificate", "/nonexistent/ca.pem"],
                            capture_output=True, text=True, timeout=20, env=env,
                            stdin=subprocess.DEVNULL)
    _one_line_naming(result, "--exporter-certificate", "/nonexistent/ca.pem")


def test_a_tls_pair_that_is_not_pem_is_named_not_blamed_on_the_address(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("garbage\n")
    key.write_text("garbage\n")
    result = _start("--tls-cert", str(cert), "--tls-key", str(key))
    _one_line_naming(result, "--tls-cert", str(cert), "not a PEM certificate")
    assert "--grpc-endpoint" not in result.stderr


def test_an_http_next_hop_without_a_path_is_said_once(caplog):
    """`--exporter-endpoint http://collector:4318` posts to `/`, which OTLP/HTTP receivers
    answer 404: every batch dropped, with nothing said at start."""
    from otel_grounding.relay.forward import next_hop_from_env

    with caplog.at_level("WARNING", logger="otel_grounding.relay"):
        next_hop_from_env({}, endpoint="http://collector:4318", protocol="http/protobuf")
        next_hop_from_env({}, endpoint="http://collector:4318/v1/traces",
                          protocol="http/protobuf")
        next_hop_from_env({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
                          protocol="http/protobuf")  # a base URL: /v1/traces is appended
    (record,) = caplog.records
    assert "no path" in record.getMessage() and record.setting == "--exporter-endpoint"
    caplog.clear()
    with caplog.at_level("WARNING", logger="otel_grounding.relay"):
        next_hop_from_env({}, endpoint="http://collector:4318/v1/traces", protocol="grpc")
    (record,) = caplog.records
    assert "gRPC ignores" in record.getMessage()
