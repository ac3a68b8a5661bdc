"""`otel-grounding score-traces` over files the real OTLP exporters wrote.

The SDK's OTLP/HTTP exporter sends to a loopback receiver that stores each request body as it
arrived (protobuf, gzip when the exporter compresses); the JSON forms are those bodies as
OTLP/JSON lines (the Collector `file` exporter's layout) and as Jaeger's /api/v3 answer. The
command runs as a user runs it, in a subprocess; its scores are compared with what the
in-process `GroundingSpanProcessor` wrote on the same runs.

`check_collector_file_exporter(collector_binary, workdir)` is the same check over files written
by the real Collector's `file` exporter; it needs an `otelcol`/`otelcol-contrib` binary.
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import GroundingSpanProcessor
from otel_grounding import attributes as attr
from otel_grounding.relay.otlp import encode_json, from_any
from otel_grounding.stored import MAX_RECORD_BYTES, read_records

CLI = Path(sys.executable).parent / "otel-grounding"
WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
HALLUCINATED = GROUNDED + " Tomorrow a violent thunderstorm will flood the Louvre museum basement."


class BodyStore(ThreadingHTTPServer):
    """An OTLP/HTTP endpoint on 127.0.0.1 that writes every request body to a file, as sent."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.paths: list[Path] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/traces"

    def keep(self, body: bytes, encoding: str | None) -> None:
        with self.lock:
            suffix = ".pb.gz" if encoding == "gzip" else ".pb"
            path = self.directory / f"request-{len(self.paths):03d}{suffix}"
            path.write_bytes(body)
            self.paths.append(path)


class _Handler(BaseHTTPRequestHandler):
    server: BodyStore

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.keep(body, self.headers.get("Content-Encoding"))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def store(tmp_path: Path) -> Iterator[BodyStore]:
    server = BodyStore(tmp_path)
    server.thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def record_agents(
    endpoint: str,
    answers: Sequence[str],
    *,
    service: str = "weather-svc",
    compression: Compression = Compression.NoCompression,
    threshold: float | None = None,
) -> list[dict[str, Any]]:
    """Run one native-convention agent per answer through a real SDK pipeline exporting OTLP/HTTP.

    The tool spans are flushed in one request and the run spans in a later one: every trace is
    split across files. With `threshold`, the spans are enriched in process first (and the
    in-process results are returned: what score-traces must reproduce).
    """
    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    exporter = OTLPSpanExporter(endpoint=endpoint, compression=compression)
    batch = BatchSpanProcessor(exporter)
    memory = InMemorySpanExporter()
    provider.add_span_processor(
        GroundingSpanProcessor(batch, min_claim_grounding_rate=threshold)
        if threshold is not None else batch
    )
    provider.add_span_processor(
        GroundingSpanProcessor(SimpleSpanProcessor(memory), min_claim_grounding_rate=threshold)
    )
    tracer = provider.get_tracer("agent")
    runs = [tracer.start_span(f"invoke_agent run-{i}") for i in range(len(answers))]
    from opentelemetry import trace

    for run in runs:  # run -> an ordinary step span (no convention reads it) -> the tool span
        with trace.use_span(run, end_on_exit=False):
            with tracer.start_as_current_span("agent step", attributes={"step.number": 1}):
                with tracer.start_as_current_span("execute_tool get_weather", attributes={
                    "ferrumdeck.step.type": "tool", "ferrumdeck.step.output": WEATHER,
                }):
                    pass
    provider.force_flush()
    for run, answer in zip(runs, answers):
        run.set_attribute("ferrumdeck.run.output", answer)
        run.end()
    provider.shutdown()
    return [
        dict(span.attributes or {}) | {"name": span.name}
        for span in memory.get_finished_spans() if attr.GRADE in (span.attributes or {})
    ]


def score_traces(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLI), "score-traces", *args], capture_output=True, text=True,
                          timeout=timeout)


def jsonl_runs(done: subprocess.CompletedProcess[str]) -> tuple[dict[str, dict[str, Any]], dict]:
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    summary = lines[-1]["summary"]
    return {run["name"]: run for run in lines[:-1]}, summary


def test_protobuf_bodies_in_any_order_score_as_the_processor_did(store: BodyStore) -> None:
    live = record_agents(store.endpoint, [GROUNDED, HALLUCINATED], threshold=0.7)
    assert len(store.paths) >= 2  # tools in one request, runs in a later one
    files = [str(p) for p in reversed(store.paths)]  # runs before their evidence
    done = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7", *files)
    assert done.returncode == 1, done.stderr  # a run is flagged: the release gate closes
    runs, summary = jsonl_runs(done)
    for span in live:
        run = runs[span["name"]]
        assert run["rate"] == span[attr.RATE]
        assert run["grade"] == span[attr.GRADE]
        assert run["below_threshold"] == span[attr.BELOW_THRESHOLD]
        assert run["previous"] == {"rate": span[attr.RATE], "grade": span[attr.GRADE]}
    assert runs["invoke_agent run-1"]["ungrounded"][0]["missing_tokens"][:3] == [
        "tomorrow", "violent", "thunderstorm"]
    assert summary["runs"] == 2 and summary["flagged"] == 1 and summary["bad_records"] == 0
    assert summary["files"] == len(files) and summary["grades"] == {"full": 2}


RECOMMENDED = Path(__file__).parents[1] / "examples" / "offline-detection.json"
#: Lexically grounded (every word but the city is the tool's), and the wrong city.
SWAPPED = "The weather in Lyon is 18 degrees Celsius with light rain."


def test_the_recommended_settings_judge_every_stored_run(store: BodyStore) -> None:
    """The judge the settings file names judges stored runs as it would have on their spans:
    the swapped city, which the lexical contract lets through, is flagged with its reason, in
    every output format, and fails the exit status."""
    record_agents(store.endpoint, [GROUNDED, SWAPPED])
    done = score_traces("--format", "jsonl", "--settings-file", str(RECOMMENDED),
                        str(store.directory))
    assert done.returncode == 1, done.stderr
    runs, summary = jsonl_runs(done)
    grounded, swapped = runs["invoke_agent run-0"], runs["invoke_agent run-1"]
    assert grounded["judge"]["outcome"] == "ok" and not grounded["judge"]["below_threshold"]
    assert not swapped["below_threshold"] and swapped["judge"]["below_threshold"]
    assert swapped["judge"]["unsupported_kinds"] == ["name"]
    assert "Lyon" in swapped["judge"]["claims"][0]["explanation"]
    assert summary["flagged"] == 1 and summary["judge_flagged"] == 1
    assert summary["judge_outcomes"] == {"ok": 2}

    table = score_traces("--settings-file", str(RECOMMENDED), str(store.directory))
    row = next(line for line in table.stdout.splitlines() if line.endswith("run-1"))
    assert "YES" in row
    assert "judge 'verifier': rate 0.00, flagged (kinds: name)" in table.stdout
    assert "Lyon" in table.stdout

    written = score_traces("--format", "otlp", "--settings-file", str(RECOMMENDED),
                           str(store.directory))
    spans = {span["name"]: span for line in written.stdout.splitlines()
             for resource in json.loads(line)["resourceSpans"]
             for scope in resource["scopeSpans"] for span in scope["spans"]}
    judged = {kv["key"]: kv["value"] for kv in spans["invoke_agent run-1"]["attributes"]}
    assert judged[attr.JUDGE_BELOW_THRESHOLD] == {"boolValue": True}
    assert judged[attr.JUDGE_NAME] == {"stringValue": "verifier"}


def test_a_judge_that_cannot_be_built_is_a_usage_error_before_anything_is_written(
    store: BodyStore, tmp_path: Path
) -> None:
    record_agents(store.endpoint, [GROUNDED])
    output = tmp_path / "rescored.jsonl"
    done = score_traces("--set", "judge=nope", "--output", str(output), str(store.directory))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "otel-grounding score-traces: judge: 'nope' is not an installed judge (known: openai, "
        "similarity, verifier)"
    ]
    assert not output.exists()


def test_gzip_bodies_and_a_lower_threshold_pass_the_gate(store: BodyStore) -> None:
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED], compression=Compression.Gzip)
    assert all(p.name.endswith(".pb.gz") for p in store.paths)
    done = score_traces("--min-claim-grounding-rate", "0.4", str(store.directory))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "runs 2, flagged 0" in done.stdout
    rows = [line for line in done.stdout.splitlines() if "invoke_agent" in line]
    assert [row.split()[0] for row in rows] == ["1.000", "0.500"]


def test_project_thresholds_from_the_settings_file(store: BodyStore, tmp_path: Path) -> None:
    record_agents(store.endpoint, [HALLUCINATED], service="lenient-svc")
    record_agents(store.endpoint, [HALLUCINATED], service="strict-svc")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({
        "min_claim_grounding_rate": 0.7,
        "project_settings": {"lenient-svc": {"min_claim_grounding_rate": 0.3}},
    }))
    done = score_traces("--format", "jsonl", "--settings-file", str(settings),
                        *map(str, store.paths))
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.splitlines()[:-1]]
    flags = {run["project"]: (run["threshold"], run["below_threshold"]) for run in lines}
    assert flags == {"lenient-svc": (0.3, False), "strict-svc": (0.7, True)}


def _json_lines(paths: Sequence[Path]) -> list[bytes]:
    return [encode_json(_request(path)) for path in paths]


def _request(path: Path) -> ExportTraceServiceRequest:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return ExportTraceServiceRequest.FromString(data)


def test_json_lines_gzip_with_bad_lines_reported_by_number(
    store: BodyStore, tmp_path: Path
) -> None:
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED])
    lines = _json_lines(list(reversed(store.paths)))
    lines.insert(1, b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}')
    lines.insert(1, b"{not json")
    lines.insert(1, b"")
    path = tmp_path / "traces.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n".join(lines) + b"\n"))
    done = score_traces("--min-claim-grounding-rate", "0.7", str(path))
    assert done.returncode == 1, done.stderr
    assert f"{path}:3: not valid JSON" in done.stderr
    assert f"{path}:4: " in done.stderr and "is not a hex id" in done.stderr
    assert "runs 2, flagged 1" in done.stdout and "bad_records 2" in done.stdout
    assert "Traceback" not in done.stderr


def test_jaeger_api_v3_document_with_base64_ids(store: BodyStore, tmp_path: Path) -> None:
    record_agents(store.endpoint, [HALLUCINATED])
    spans = []
    document: dict[str, Any] = {"resourceSpans": []}
    for path in store.paths:
        data = json.loads(encode_json(_request(path)))
        document["resourceSpans"].extend(data["resourceSpans"])
    for rs in document["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for span in ss["spans"]:
                spans.append(span)
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    path = tmp_path / "jaeger-trace.json"
    path.write_text(json.dumps({"result": document}, indent=2))
    done = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7", str(path))
    runs, summary = jsonl_runs(done)
    assert done.returncode == 1, done.stderr
    assert runs["invoke_agent run-0"]["rate"] == 0.5 and summary["spans"] == len(spans) == 3
    # the same answers saved one per line, compact
    lines = tmp_path / "jaeger-answers.jsonl"
    lines.write_text(json.dumps({"result": document}) + "\n" + "{oops\n")
    done = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7", str(lines))
    runs, summary = jsonl_runs(done)
    assert runs["invoke_agent run-0"]["rate"] == 0.5 and summary["bad_records"] == 1
    assert f"{lines}:2: not valid JSON" in done.stderr


def test_length_prefixed_protobuf_and_otlp_written_back(store: BodyStore, tmp_path: Path) -> None:
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED], threshold=0.2)
    framed = tmp_path / "traces.binpb"
    framed.write_bytes(b"".join(
        struct.pack(">I", len(body)) + body
        for body in (_request(p).SerializeToString() for p in store.paths)
    ))
    out = tmp_path / "rescored.jsonl"
    done = score_traces("--format", "otlp", "--output", str(out),
                        "--min-claim-grounding-rate", "0.7", str(framed))
    assert done.returncode == 1, done.stderr
    assert "runs 2, flagged 1" in done.stderr
    spans = [
        span
        for item in read_records(str(out)) if not isinstance(item, Exception)
        for rs in item[1].resource_spans for ss in rs.scope_spans for span in ss.spans
    ]
    assert sorted(s.name for s in spans) == sorted(
        ["invoke_agent run-0", "invoke_agent run-1", "agent step", "agent step",
         "execute_tool get_weather", "execute_tool get_weather"])
    step = next(s for s in spans if s.name == "agent step")
    assert [kv.key for kv in step.attributes] == ["step.number"]  # ordinary spans kept whole
    flagged = next(s for s in spans if s.name == "invoke_agent run-1")
    values = {kv.key: from_any(kv.value) for kv in flagged.attributes}
    assert values[attr.THRESHOLD] == 0.7 and values[attr.BELOW_THRESHOLD] is True
    assert [kv.key for kv in flagged.attributes].count(attr.RATE) == 1
    names = [event.name for event in flagged.events]
    assert names.count(attr.FLAGGED_EVENT) == 1 and names.count(attr.CLAIM_EVENT) == 1
    # the output is itself stored traces: scoring it again gives the same result
    again = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7", str(out))
    runs, _ = jsonl_runs(again)
    assert runs["invoke_agent run-1"]["previous"] == {"rate": 0.5, "grade": "full"}


def test_pydantic_ai_trace_scores_as_in_process(store: BodyStore) -> None:
    """A real framework's spans (pydantic-ai, GenAI conventions) re-scored from stored OTLP."""
    code = f"""
import os
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from otel_grounding import GroundingSpanProcessor
from otel_grounding import demo_frameworks as frameworks
os.environ.update(frameworks.offline_variables())
memory = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint={store.endpoint!r})))
provider.add_span_processor(GroundingSpanProcessor(SimpleSpanProcessor(memory)))
frameworks.start("pydantic-ai", provider)(frameworks.HALLUCINATED)
provider.shutdown()
print([s.attributes.get({attr.RATE!r}) for s in memory.get_finished_spans()
       if {attr.GRADE!r} in s.attributes])
"""
    live = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert live.returncode == 0, live.stderr
    assert live.stdout.strip() == "[0.5]"
    done = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7",
                        *map(str, reversed(store.paths)))
    runs, summary = jsonl_runs(done)
    assert [run["rate"] for run in runs.values()] == [0.5]
    assert summary["flagged"] == 1 and done.returncode == 1


def _requests(path: Path) -> list[Any]:
    return [rs for item in read_records(str(path)) if not isinstance(item, Exception)
            for rs in item[1].resource_spans]


def test_budgets_bound_the_hold_and_say_so(store: BodyStore, tmp_path: Path) -> None:
    record_agents(store.endpoint, [GROUNDED] * 12)
    done = score_traces("--format", "jsonl", "--num-traces", "4", *map(str, store.paths))
    runs, summary = jsonl_runs(done)
    assert summary["runs"] == 12
    assert summary["runs_released_early"] == 12 - 2  # the hold keeps num_traces / 2 runs
    assert summary["traces_evicted"] > 0
    # evidence that was read before its run was scored still counts; a lost trace is partial
    for run in runs.values():
        assert (run["grade"], run["rate"]) in {("full", 1.0), ("partial", None)}
        if run["grade"] == "partial":
            assert run["reasons"] == ["evidence-evicted"]
    assert summary["runs_with_evicted_evidence"] == summary["grades"].get("partial", 0)
    # written back, every span leaves exactly once, whatever the budgets did
    out = tmp_path / "out.jsonl"
    done = score_traces("--format", "otlp", "--output", str(out), "--num-traces", "4",
                        *map(str, store.paths))
    assert done.returncode == 0, done.stderr
    ids = [span.span_id for rs in _requests(out) for ss in rs.scope_spans for span in ss.spans]
    assert len(ids) == len(set(ids)) == summary["spans"] == 12 * 3


def test_bad_files_are_reported_never_a_crash(tmp_path: Path, store: BodyStore) -> None:
    record_agents(store.endpoint, [GROUNDED])
    good = store.paths[0]
    cut = tmp_path / "cut.pb"
    cut.write_bytes(_request(good).SerializeToString()[:-7])
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    badgz = tmp_path / "bad.jsonl.gz"
    badgz.write_bytes(gzip.compress(b'{"resourceSpans": []}\n')[:-9])
    done = score_traces(str(cut), str(noise), str(empty), str(badgz))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"{cut}#1: " in done.stderr
    assert f"{badgz}: unreadable" in done.stderr or f"{badgz}:1" in done.stderr
    assert "runs 0, flagged 0" in done.stdout
    assert "no agent run span in the input (nothing was checked" in done.stderr


def test_oversized_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.pb"
    with open(path, "wb") as handle:  # a ResourceSpans field claiming more than the limit
        handle.write(b"\x0a" + _varint(MAX_RECORD_BYTES + 1) + b"\x00" * 16)
    records = list(read_records(str(path)))
    assert len(records) == 1 and "exceeds" in str(records[0])


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


# -- the real Collector's file exporter ---------------------------------------------------------
COLLECTOR_CONFIG = """
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:{port}
exporters:
  file/json:
    path: {json_path}
  file/proto:
    path: {proto_path}
    format: proto
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file/json, file/proto]
"""


def check_collector_file_exporter(collector_binary: str, workdir: Path) -> None:
    """The agents' traces through a real Collector (OTLP/HTTP in, `file` exporter out in JSON
    lines and in length-prefixed protobuf), then score-traces over both files: the same
    results as the in-process processor. Needs an otelcol / otelcol-contrib binary."""
    from e2e_support import Process, free_port, wait_until

    port = free_port()
    json_path, proto_path = workdir / "traces.jsonl", workdir / "traces.binpb"
    config = workdir / "collector.yaml"
    config.write_text(COLLECTOR_CONFIG.format(port=port, json_path=json_path,
                                              proto_path=proto_path))
    collector = Process("collector", [collector_binary, "--config", str(config)], workdir)
    try:
        wait_until(lambda: _accepts(port), timeout=30, what="the Collector's OTLP receiver",
                   diagnostics=collector.output)
        live = record_agents(f"http://127.0.0.1:{port}/v1/traces", [GROUNDED, HALLUCINATED],
                             threshold=0.7)
        expected = len(live) * 3  # a run, its step and its tool span per agent
        wait_until(lambda: _span_count(json_path) >= expected, timeout=30,
                   what="the file exporter's output", diagnostics=collector.output)
    finally:
        collector.stop()
    for path in (json_path, proto_path):
        done = score_traces("--format", "jsonl", "--min-claim-grounding-rate", "0.7", str(path))
        assert done.returncode == 1, done.stderr
        runs, summary = jsonl_runs(done)
        assert summary["bad_records"] == 0
        for span in live:
            assert runs[span["name"]]["rate"] == span[attr.RATE]
            assert runs[span["name"]]["grade"] == span[attr.GRADE]


def _accepts(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _span_count(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(
        len(ss.spans)
        for item in read_records(str(path)) if not isinstance(item, Exception)
        for rs in item[1].resource_spans for ss in rs.scope_spans
    )


@pytest.mark.needs_build
def test_files_written_by_the_real_collector_are_rescored(tmp_path: Path) -> None:
    """The pinned Collector (built by `make test`) writes the files; score-traces reads them."""
    from otel_stack import built

    check_collector_file_exporter(built("collector"), tmp_path)


def test_a_trace_read_twice_is_scored_once(store: BodyStore, tmp_path: Path) -> None:
    """The same traces twice (a file concatenated to itself, the same requests as JSON lines and
    as protobuf, a length-prefixed file with a request twice): each span is one span, each run
    scored and reported once, as it is from one copy (the second copy was graded `partial`,
    `evidence-evicted`, though nothing was evicted)."""
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED])
    lines = b"\n".join(_json_lines(store.paths)) + b"\n"
    once = tmp_path / "once.jsonl"
    once.write_bytes(lines)
    twice = tmp_path / "twice.jsonl"
    twice.write_bytes(lines + lines)
    prefixed = tmp_path / "twice.binpb"
    with open(prefixed, "wb") as handle:
        for path in [*store.paths, *store.paths]:
            body = _request(path).SerializeToString()
            handle.write(struct.pack(">I", len(body)) + body)
    expected, _ = jsonl_runs(score_traces("--format", "jsonl", str(once)))
    for files in ([twice], [once, *store.paths], [prefixed]):
        done = score_traces("--format", "jsonl", *map(str, files))
        runs, summary = jsonl_runs(done)
        assert {name: (r["rate"], r["grade"]) for name, r in runs.items()} == {
            name: (r["rate"], r["grade"]) for name, r in expected.items()
        }, files
        assert summary["runs"] == 2 and summary["grades"] == {"full": 2}
        assert summary["runs_with_evicted_evidence"] == 0
        assert summary["duplicate_runs"] == 2
    out = tmp_path / "out.jsonl"
    done = score_traces("--format", "otlp", "--output", str(out), str(twice))
    ids = [span.span_id for rs in _requests(out) for ss in rs.scope_spans for span in ss.spans
           if any(kv.key == attr.GRADE for kv in span.attributes)]
    assert len(ids) == len(set(ids)) == 2


def test_input_that_checks_nothing_is_never_a_pass(tmp_path: Path) -> None:
    """An empty file, a folder with no run: a release gate over nothing exited 0."""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    for given in (empty, tmp_path):
        done = score_traces(str(given))
        assert done.returncode == 4, done.stderr
        assert "no agent run span in the input (nothing was checked; exit status 4)" in (
            done.stderr)


def test_a_missing_file_is_named_as_a_usage_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    done = score_traces(str(missing))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"otel-grounding score-traces: {missing}: no such file or directory")


def test_standard_input_is_read_for_a_dash(store: BodyStore, tmp_path: Path) -> None:
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED])
    lines = b"\n".join(_json_lines(store.paths)) + b"\n"
    done = subprocess.run([str(CLI), "score-traces", "--format", "jsonl", "-"], input=lines,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    runs = [json.loads(line) for line in done.stdout.decode().splitlines()[:-1]]
    assert sorted(run["grade"] for run in runs) == ["full", "full"]
    assert {run["source"].split(":")[0] for run in runs} == {"<stdin>"}


def test_a_file_that_is_no_trace_file_is_one_line_saying_so(tmp_path: Path) -> None:
    """Random bytes were reported as "a message of 3321106090 bytes exceeds 67108864"; the
    ConsoleSpanExporter's print as one "not valid JSON" line per line of it."""
    noise = tmp_path / "noise.bin"
    noise.write_bytes(b"\xc5\xf3" + bytes(range(256)) * 16)
    console = tmp_path / "console.json"
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter

    with open(console, "w") as out:
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=out)))
        tracer = provider.get_tracer("t")
        with tracer.start_as_current_span("run"):
            for _ in range(3):
                with tracer.start_as_current_span("tool", attributes={"k": "v"}):
                    pass
        provider.shutdown()
    for path, expected in ((noise, "not a trace file"), (console, "ConsoleSpanExporter")):
        done = score_traces(str(path))
        assert done.returncode == 3
        lines = [line for line in done.stderr.splitlines() if str(path) in line]
        assert len(lines) == 1 and expected in lines[0], done.stderr
        assert "exceeds" not in done.stderr and "Traceback" not in done.stderr


def test_the_table_says_a_list_was_cut_and_why_a_run_was_cut(tmp_path: Path) -> None:
    from otel_grounding.cli import format_run_row
    from otel_grounding.rescore import RescoredRun
    from otel_grounding.scored import ScoredRun, UngroundedClaim

    tokens = tuple(f"token{n}" for n in range(12))
    scored = ScoredRun(
        name="run", trace_id="0" * 32, span_id="0" * 16, rate=0.0, grade="coverage-capped",
        below_threshold=True, threshold=0.7, claims_total=9, claims_grounded=0,
        claims_checked=1, reasons=(), truncated_by="max_claims", convention="native",
        project=None, ungrounded=(UngroundedClaim(1, "claim", 0.0, tokens),),
    )
    row, claim = format_run_row(RescoredRun("f", None, scored)).splitlines()
    assert "cut by max_claims" in row
    assert claim.endswith("token7, …]")


def test_json_that_is_not_otlp_is_named_not_read_as_no_span(tmp_path: Path) -> None:
    """Jaeger's own /api/traces JSON, or a run written for `otel-grounding score`, parsed as
    requests without a span: "no agent run span in the input", with no word of why."""
    jaeger = tmp_path / "jaeger.json"
    jaeger.write_text(json.dumps({"data": [{"traceID": "ab", "spans": [
        {"traceID": "ab", "spanID": "01", "operationName": "invoke_agent"}]}]}))
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"output": "x", "steps": []}))
    for path, expected in ((jaeger, "/api/v3/traces"), (run, "otel-grounding score")):
        done = score_traces(str(path))
        assert done.returncode == 3, done.stderr
        lines = [line for line in done.stderr.splitlines() if str(path) in line]
        assert len(lines) == 1 and expected in lines[0], done.stderr


def test_an_output_that_is_an_input_is_refused_before_it_is_emptied(tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(b'{"resourceSpans": []}\n')
    done = score_traces("--format", "otlp", "--output", str(traces), str(tmp_path))
    assert done.returncode == 2
    assert "is also an input file" in done.stderr
    assert traces.read_bytes() == b'{"resourceSpans": []}\n'


def test_rescoring_rescored_traces_changes_nothing(store: BodyStore, tmp_path: Path) -> None:
    """Idempotent: the OTLP a re-scoring writes, re-scored, gives the same runs and the same
    spans (the earlier enrichment replaced, never doubled)."""
    record_agents(store.endpoint, [GROUNDED, HALLUCINATED], threshold=0.7)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    args = ("--min-claim-grounding-rate", "0.7")
    score_traces("--format", "otlp", "--output", str(first), *args, *map(str, store.paths))
    score_traces("--format", "otlp", "--output", str(second), *args, str(first))

    def spans(path: Path) -> dict[bytes, tuple[list[tuple[str, str]], list[str]]]:
        return {
            span.span_id: (sorted((kv.key, str(kv.value)) for kv in span.attributes),
                           sorted(event.name for event in span.events))
            for rs in _requests(path) for ss in rs.scope_spans for span in ss.spans
        }

    assert spans(first) == spans(second)
    original, _ = jsonl_runs(score_traces("--format", "jsonl", *args, *map(str, store.paths)))
    again, _ = jsonl_runs(score_traces("--format", "jsonl", *args, str(second)))
    assert {n: (r["rate"], r["grade"], r["below_threshold"]) for n, r in original.items()} == {
        n: (r["rate"], r["grade"], r["below_threshold"]) for n, r in again.items()}
