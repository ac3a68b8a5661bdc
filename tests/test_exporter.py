"""GroundingSpanExporter and the zero-code route through `opentelemetry-instrument`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import SpanLimits, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import GroundingOTLPSpanExporter, GroundingSpanExporter
from otel_grounding import attributes as A
from otel_grounding.conventions import native

from e2e_support import attributes, otlp_receiver, wait_until
from sdk_harness import GOLDEN_OUTPUT, GOLDEN_SOURCES

ROOT = Path(__file__).resolve().parents[1]


class ThreadRecordingExporter(InMemorySpanExporter):
    def __init__(self) -> None:
        super().__init__()
        self.threads: set[str] = set()

    def export(self, spans):  # type: ignore[no-untyped-def]
        self.threads.add(threading.current_thread().name)
        return super().export(spans)


def test_scoring_runs_on_the_batch_worker_thread() -> None:
    inner = ThreadRecordingExporter()
    provider = TracerProvider()
    provider.add_span_processor(
        BatchSpanProcessor(GroundingSpanExporter(inner, min_claim_grounding_rate=0.7))
    )
    tracer = provider.get_tracer("t")
    with tracer.start_as_current_span("run") as run:
        for source in GOLDEN_SOURCES:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: source}
            ):
                pass
        run.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    provider.shutdown()
    (out,) = [s for s in inner.get_finished_spans() if s.name == "run"]
    assert out.attributes[A.CLAIMS_GROUNDED] == 2
    assert out.attributes[A.BELOW_THRESHOLD] is True
    assert threading.main_thread().name not in inner.threads


def test_export_result_of_the_wrapped_exporter_is_returned() -> None:
    inner = InMemorySpanExporter()
    exporter = GroundingSpanExporter(inner)
    inner.shutdown()
    assert exporter.export([]) is SpanExportResult.FAILURE


def test_entry_point_is_registered() -> None:
    (ep,) = [e for e in entry_points(group="opentelemetry_traces_exporter") if e.name == "grounding"]
    assert ep.load() is GroundingOTLPSpanExporter


@pytest.mark.parametrize(
    ("env", "expected", "named"),
    [
        ({"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "carrier-pigeon"}, "grpc",
         "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL='carrier-pigeon'"),
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "grpcc"}, "grpc", "OTEL_EXPORTER_OTLP_PROTOCOL='grpcc'"),
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, "http/protobuf",
         "OTEL_EXPORTER_OTLP_PROTOCOL=http/json"),
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, "http/protobuf", None),
        ({}, "grpc", None),
    ],
)
def test_an_otlp_protocol_the_exporter_cannot_speak_is_one_line_never_an_exception(
    env: dict[str, str], expected: str, named: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    """A misspelled protocol raised ConfigError from the entry point (tracing off, two
    tracebacks, the message naming the variable not set); `http/json` passed silently."""
    from otel_grounding.exporter import otlp_protocol

    with caplog.at_level("ERROR", logger="otel_grounding"):
        assert otlp_protocol(env) == expected
    lines = [r.getMessage() for r in caplog.records]
    if named is None:
        assert lines == []
    else:
        assert len(lines) == 1 and named in lines[0], lines


def test_zero_code_misspelled_protocol_keeps_tracing_on() -> None:
    done, runs = _zero_code_app("grpcc", OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE="0.7")
    (run,) = runs
    assert attributes(run.attributes)[A.RATE] == 0.5
    lines = [line for line in done.stderr.splitlines() if "otel-grounding" in line]
    assert len(lines) == 1 and "OTEL_EXPORTER_OTLP_PROTOCOL='grpcc'" in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def _zero_code_app(protocol: str, **extra: str) -> tuple[subprocess.CompletedProcess[str], list]:
    """Run examples/zero_code_app.py under opentelemetry-instrument into a local receiver."""
    with otlp_receiver() as sink:
        env = {
            **os.environ,
            "OTEL_TRACES_EXPORTER": "grounding",
            "OTEL_METRICS_EXPORTER": "none",
            "OTEL_LOGS_EXPORTER": "none",
            "OTEL_SERVICE_NAME": "zero-code-agent",
            "OTEL_EXPORTER_OTLP_ENDPOINT": sink.endpoint,
            "OTEL_EXPORTER_OTLP_INSECURE": "true",
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            **extra,
        }
        instrument = Path(sys.executable).parent / "opentelemetry-instrument"
        done = subprocess.run(
            [str(instrument), sys.executable, str(ROOT / "examples" / "zero_code_app.py")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        runs = wait_until(
            lambda: [s for s in sink.spans() if s.name.startswith("invoke_agent")] or None,
            timeout=20,
            what="the run span at the OTLP receiver",
        )
    return done, runs


@pytest.mark.parametrize("protocol", ["grpc"])
def test_zero_code_opentelemetry_instrument(protocol: str) -> None:
    _, runs = _zero_code_app(protocol, OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE="0.7")
    (run,) = runs
    got = attributes(run.attributes)
    assert got[A.CLAIMS_TOTAL] == 2 and got[A.CLAIMS_GROUNDED] == 1
    assert got[A.RATE] == 0.5
    assert got[A.BELOW_THRESHOLD] is True
    assert got[A.THRESHOLD] == 0.7
    assert A.FLAGGED_EVENT in [e.name for e in run.events]


def test_zero_code_bad_setting_keeps_tracing_on_unscored_with_one_log_line() -> None:
    """Under opentelemetry-instrument a ConfigError would turn off every trace of the app."""
    done, runs = _zero_code_app("grpc", OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE="high")
    (run,) = runs
    assert not any(k.startswith(A.PREFIX) for k in attributes(run.attributes))
    lines = [line for line in done.stderr.splitlines() if "otel-grounding" in line]
    assert len(lines) == 1, done.stderr
    assert "min_claim_grounding_rate" in lines[0] and "'high'" in lines[0]
    assert "Traceback" not in done.stderr


def _expensive_run_batch() -> list:
    """Ended spans of one run whose scoring takes a while (a long answer, many tool outputs)."""
    captured = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(captured))
    tracer = provider.get_tracer("t")
    answer = " ".join(f"Claim {i} says quokka{i} lives near lake{i}." for i in range(3000))
    with tracer.start_as_current_span("run") as run:
        for i in range(50):
            with tracer.start_as_current_span("tool", attributes={
                native.STEP_TYPE: "tool",
                native.STEP_OUTPUT: " ".join(
                    f"Claim {j} says quokka{j} lives near lake{j}." for j in range(i * 60, i * 60 + 60)
                ),
            }):
                pass
        run.set_attribute(native.RUN_OUTPUT, answer)
    for i in range(200):
        with tracer.start_as_current_span("db query"):
            pass
    return list(captured.get_finished_spans())


def test_export_hands_runs_to_the_worker_instead_of_scoring_in_the_call() -> None:
    batch = _expensive_run_batch()
    caller = threading.current_thread().name
    for mode in ("inline", "background"):
        inner = ThreadRecordingExporter()
        exporter = GroundingSpanExporter(inner, scoring_mode=mode)
        assert exporter.export(batch) is SpanExportResult.SUCCESS
        if mode == "background":
            # Everything but the run left in the call itself; the run follows from the worker.
            assert len(inner.get_finished_spans()) == len(batch) - 1
            assert exporter.force_flush()
            assert inner.threads - {caller}, inner.threads
        else:  # scored and exported in the call
            assert inner.threads == {caller}
        (run,) = [s for s in inner.get_finished_spans() if s.name == "run"]
        assert run.attributes[A.RATE] > 0.9
        exporter.shutdown()


def test_a_run_ending_after_its_local_root_in_the_same_batch_keeps_its_evidence() -> None:
    captured = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(captured))
    tracer = provider.get_tracer("t")
    root = tracer.start_span("root")
    run = tracer.start_span("run", context=trace.set_span_in_context(root))
    with tracer.start_as_current_span(
        "tool", context=trace.set_span_in_context(run),
        attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: GOLDEN_SOURCES[0]},
    ):
        pass
    root.end()
    run.set_attribute(native.RUN_OUTPUT, "The capital of France is Paris.")
    run.end()
    inner = InMemorySpanExporter()
    exporter = GroundingSpanExporter(inner)
    assert exporter.export(list(captured.get_finished_spans())) is SpanExportResult.SUCCESS
    assert exporter.force_flush()
    (out,) = [s for s in inner.get_finished_spans() if s.name == "run"]
    assert out.attributes[A.RATE] == 1.0 and out.attributes[A.GRADE] == "full"
    assert len(inner.get_finished_spans()) == 3


@pytest.mark.parametrize(
    ("variable", "value"),
    [("OTEL_EXPORTER_OTLP_TIMEOUT", "abc"), ("OTEL_EXPORTER_OTLP_COMPRESSION", "brotli")],
)
def test_an_otlp_variable_the_exporter_refuses_keeps_tracing_on(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The gRPC exporter raised ValueError / InvalidCompressionValueException from the entry
    point: under opentelemetry-instrument, tracing off."""
    monkeypatch.setenv(variable, value)
    with caplog.at_level("ERROR", logger="otel_grounding"):
        exporter = GroundingOTLPSpanExporter()
    try:
        assert exporter.pipeline is not None  # still grading, exporting with defaults
        (line,) = [r.getMessage() for r in caplog.records]
        assert "refused its OTEL_EXPORTER_OTLP_* settings" in line and value in line
    finally:
        exporter.shutdown()


class SuppressionRecordingExporter(InMemorySpanExporter):
    """Records, per export, its thread and whether instrumentation was on there."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, bool]] = []

    def export(self, spans):  # type: ignore[no-untyped-def]
        from opentelemetry.instrumentation.utils import is_instrumentation_enabled

        self.calls.append((threading.current_thread().name, is_instrumentation_enabled()))
        return super().export(spans)


def test_runs_forwarded_from_the_scoring_worker_are_exported_with_instrumentation_suppressed() -> None:
    # The SDK's processors suppress instrumentation around their exports; a run graded on our
    # worker is exported from that thread, which must do the same (an instrumented HTTP client
    # inside the next exporter would otherwise trace the export back into the application).
    inner = SuppressionRecordingExporter()
    exporter = GroundingSpanExporter(inner, scoring_mode="thread")
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("t")
    with tracer.start_as_current_span("run") as run:
        for source in GOLDEN_SOURCES:
            with tracer.start_as_current_span(
                "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: source}
            ):
                pass
        run.set_attribute(native.RUN_OUTPUT, GOLDEN_OUTPUT)
    assert exporter.force_flush()
    provider.shutdown()
    assert [s.name for s in inner.get_finished_spans()].count("run") == 1
    assert any(thread != threading.current_thread().name for thread, _ in inner.calls), inner.calls
    assert [on for _, on in inner.calls] == [False] * len(inner.calls), inner.calls


def test_truncation_is_read_against_the_providers_own_limit() -> None:
    """The exporter never sees a live span: the limit comes from each ended span's attributes,
    as the provider recorded them (not from the `OTEL_*` variables, which set none here)."""
    inner = InMemorySpanExporter()
    provider = TracerProvider(span_limits=SpanLimits(max_span_attribute_length=40))
    provider.add_span_processor(SimpleSpanProcessor(GroundingSpanExporter(inner, scoring_mode="inline")))
    tracer = provider.get_tracer("t")
    with tracer.start_as_current_span("run") as run:
        with tracer.start_as_current_span(
            "tool", attributes={native.STEP_TYPE: "tool", native.STEP_OUTPUT: GOLDEN_SOURCES[0] * 3}
        ):
            pass
        run.set_attribute(native.RUN_OUTPUT, "Paris.")
    provider.shutdown()
    (out,) = [s for s in inner.get_finished_spans() if s.name == "run"]
    assert out.attributes[A.GRADE] == "partial"
    assert A.REASON_EVIDENCE_TRUNCATED in out.attributes[A.COVERAGE_REASON]
