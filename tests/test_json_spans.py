"""OTLP/JSON read straight into span views (`jsonspans`) gives what the protobuf reader gave.

Two readers of the same files, compared run by run: `score-traces`' reader (`json.loads`,
span views, parent links) and the reader it replaced (`json_format` into protobuf,
`rescore(json_views=False)`). The corpus: every captured framework trace of the test suite
(all the conventions), hand-made native agents and agents recorded by a real SDK and encoded
by its OTLP exporter, written as OTLP/JSON lines with traces split across lines in any order;
then the same lines with upper-case ids, with the forms OTLP/JSON allows besides the canonical
one (enums by name, 64-bit integers as numbers, snake_case keys), gzip, bad lines, Jaeger's
answers with base64 ids, and tight budgets. Then span by span, generated spans: both readers accept the same lines,
read the same values, and a held run's protobuf form is the one `json_format` decodes. With
`orjson` installed (the `fast-json` extra) the new reader parses with it: every line above,
and lines holding integers beyond 64 bits (which it reads as floats), read the same with it
and without it.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import jsonspans
from otel_grounding.config import load_settings
from otel_grounding.conventions import DEFAULT_CONVENTIONS
from otel_grounding.jsonspans import JsonSpan, read_request
from otel_grounding.relay.otlp import (
    AttributeMap,
    InvalidRequest,
    add_attributes,
    encode_json,
    span_view,
)
from otel_grounding.rescore import rescore
from otel_grounding.stored import _thin_json

CAPTURES = Path(__file__).parent / "frameworks" / "captures"
MARKERS = frozenset().union(*(c.markers for c in DEFAULT_CONVENTIONS))
WEATHER = "Paris: 18 degrees Celsius, light rain"
GROUNDED = "The weather in Paris is 18 degrees Celsius with light rain."
HALLUCINATED = GROUNDED + " Tomorrow a violent thunderstorm will flood the Louvre museum basement."


# -- the corpus -----------------------------------------------------------------------------------
def captured_traces() -> Iterator[list[dict[str, Any]]]:
    """Every captured framework trace (span dumps: hex ids, attributes, events, resource)."""
    for path in sorted(CAPTURES.glob("*.json")):
        yield from json.loads(path.read_text()).values()
    for path in sorted((CAPTURES / "real").glob("*.json")):
        yield json.loads(path.read_text())


def native_traces(count: int) -> Iterator[list[dict[str, Any]]]:
    """Native-convention agents: run -> step -> tool, half of them hallucinating."""
    for n in range(count):
        trace = f"{0xABC000 + n:032x}"
        run, step, tool = (f"{0xF00 * (n + 1) + k:016x}" for k in range(3))
        resource = {"service.name": f"svc-{n % 3}"}
        yield [
            {"name": "execute_tool get_weather", "trace_id": trace, "span_id": tool,
             "parent_id": step, "resource": resource, "events": [],
             "attributes": {"ferrumdeck.step.type": "tool", "ferrumdeck.step.output": WEATHER}},
            {"name": "agent step", "trace_id": trace, "span_id": step, "parent_id": run,
             "resource": resource, "events": [], "attributes": {"step.number": n}},
            {"name": f"invoke_agent run-{n}", "trace_id": trace, "span_id": run,
             "parent_id": None, "resource": resource,
             "events": [{"name": "note", "attributes": {"tags": ("a", "b"), "n": 1.5}}],
             "attributes": {"ferrumdeck.run.output": HALLUCINATED if n % 2 else GROUNDED,
                            "ferrumdeck.run.id": f"run-{n}", "retries": n,
                            "flags": [True, False], "blob": b"\x00\xff"}},
        ]


def sdk_requests() -> list[ExportTraceServiceRequest]:
    """Native agents recorded by a real SDK (run -> ordinary step -> tool, an error status, an
    exception event), encoded as its OTLP exporter sends them: tools first, runs later."""
    provider = TracerProvider(resource=Resource.create({"service.name": "sdk-svc"}))
    memory = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("agent", "1.0")
    runs = [tracer.start_span(f"invoke_agent sdk-{n}") for n in range(4)]
    for n, run in enumerate(runs):
        with trace.use_span(run, end_on_exit=False):
            with tracer.start_as_current_span("agent step", attributes={"step.number": n}):
                with tracer.start_as_current_span("execute_tool get_weather", attributes={
                    "ferrumdeck.step.type": "tool", "ferrumdeck.step.output": WEATHER,
                }) as tool:
                    tool.add_event("called", {"attempt": n, "ok": True, "ratio": 0.5})
    tools = list(memory.get_finished_spans())
    memory.clear()
    for n, run in enumerate(runs):
        run.set_attribute("ferrumdeck.run.output", HALLUCINATED if n % 2 else GROUNDED)
        if n == 3:
            run.record_exception(ValueError("boom"))
            run.set_status(trace.StatusCode.ERROR, "boom")
        run.end()
    return [encode_spans(tools), encode_spans(list(memory.get_finished_spans()))]


def request_of(spans: list[dict[str, Any]]) -> ExportTraceServiceRequest:
    """Span dumps as one OTLP request (one ResourceSpans per resource, in order)."""
    request = ExportTraceServiceRequest()
    by_resource: dict[str, Any] = {}
    for n, span in enumerate(spans):
        key = json.dumps(span["resource"], sort_keys=True)
        if key not in by_resource:
            rs = request.resource_spans.add()
            add_attributes(rs.resource.attributes, span["resource"])
            by_resource[key] = rs.scope_spans.add(scope={"name": "captured"})
        out = by_resource[key].spans.add(
            trace_id=bytes.fromhex(span["trace_id"]), span_id=bytes.fromhex(span["span_id"]),
            name=span["name"], kind=n % 6, start_time_unix_nano=1_700_000_000_000_000_000 + n,
            end_time_unix_nano=1_700_000_001_000_000_000 + n,
        )
        if span["parent_id"]:
            out.parent_span_id = bytes.fromhex(span["parent_id"])
        add_attributes(out.attributes, span["attributes"])
        for event in span["events"]:
            add_attributes(out.events.add(name=event["name"]).attributes, event["attributes"])
        if n % 4 == 1:
            out.status.code = 2
            out.status.message = "boom"
    return request


def corpus_lines() -> list[bytes]:
    """OTLP/JSON lines, each trace split in two (its first half after its second), interleaved."""
    traces = [*captured_traces(), *native_traces(12)]
    firsts, seconds = [], []
    for spans in traces:
        half = len(spans) // 2
        firsts.append(encode_json(request_of(spans[:half])))
        seconds.append(encode_json(request_of(spans[half:])))
    lines: list[bytes] = []
    for n in range(len(traces)):  # a trace's second half, then the first half of the one before
        lines.append(seconds[n])
        if n:
            lines.append(firsts[n - 1])
    lines.append(firsts[-1])
    tools, runs = (encode_json(request) for request in sdk_requests())
    return [runs, *lines, tools]  # the SDK's runs first, their tools last


def walk_spans(line: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    data = json.loads(line)
    for rs in data["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for span in ss["spans"]:
                change(span)
    return json.dumps(data).encode()


def upper_ids(span: dict[str, Any]) -> None:
    for key in ("traceId", "spanId", "parentSpanId"):
        if key in span:
            span[key] = span[key].upper()


def other_forms(span: dict[str, Any]) -> None:
    """The forms OTLP/JSON allows besides the canonical one: enums by name, 64-bit integers as
    numbers, doubles as integers, snake_case keys (on some spans), an empty status."""
    kinds = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
             "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"]
    span["kind"] = kinds[span.get("kind", 0)]
    span["startTimeUnixNano"] = int(span["startTimeUnixNano"])
    if "status" in span and span["status"].get("code") == 2:
        span["status"]["code"] = "STATUS_CODE_ERROR"
    else:
        span["status"] = {}
    for kv in span.get("attributes", []):
        value = kv["value"]
        if "intValue" in value:
            value["intValue"] = int(value["intValue"])
        if "doubleValue" in value and float(value["doubleValue"]).is_integer():
            value["doubleValue"] = int(value["doubleValue"])
    if int(span["spanId"], 16) % 3 == 0:
        span["span_id"] = span.pop("spanId")
        if "parentSpanId" in span:
            span["parent_span_id"] = span.pop("parentSpanId")


BAD_LINES = [
    b"{not json",
    b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}',
    b'{"resourceSpans": {"scopeSpans": []}}',
    b'{"resourceSpans": [{"resource": {"attributes": [{"key": "a", "value": {"intValue": "x"}}]}}]}',
    b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "attributes": ['
    b'{"key": "ferrumdeck.step.type", "value": {"stringValue": "tool", "intValue": "1"}}]}]}]}]}',
    b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "endTimeUnixNano": "1.5", '
    b'"attributes": [{"key": "ferrumdeck.step.type", "value": {"stringValue": "tool"}}]}]}]}]}',
    b"[]",
]


def rescored(paths: list[Path], json_views: bool, **options: Any) -> dict[str, Any]:
    runs: list[dict[str, Any]] = []
    bad: list[str] = []
    summary = rescore(
        [str(p) for p in paths], load_settings(options), lambda r: runs.append(r.to_dict()),
        lambda b: bad.append(b.where), json_views=json_views,
    )
    return {"runs": runs, "bad": bad, "summary": summary.to_dict()}


def assert_same_results(paths: list[Path], **options: Any) -> dict[str, Any]:
    new = rescored(paths, True, **options)
    old = rescored(paths, False, **options)
    assert new["summary"] == old["summary"]
    assert new["bad"] == old["bad"]
    assert new["runs"] == old["runs"]
    return new


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    return corpus_lines()


def test_the_corpus_scores_the_same_through_both_readers(
    lines: list[bytes], tmp_path: Path
) -> None:
    path = tmp_path / "traces.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = assert_same_results([path], min_claim_grounding_rate=0.7)
    grades = result["summary"]["grades"]
    assert result["summary"]["runs"] >= 40 and grades.get("full", 0) >= 20, result["summary"]
    assert result["summary"]["flagged"] >= 10  # the hallucinated answers: not vacuous
    assert result["bad"] == []
    spans = [item for line in lines for item in read_request(line, MARKERS).items
             if isinstance(item, JsonSpan)]
    assert len(spans) > 100 and all(span.decoded is None for span in spans)  # no json_format
    native = [run for run in result["runs"] if run["name"].startswith("invoke_agent run-")]
    assert len(native) == 12 and {run["grade"] for run in native} == {"full"}
    sdk = [run for run in result["runs"] if run["name"].startswith("invoke_agent sdk-")]
    assert len(sdk) == 4 and sum(run["below_threshold"] for run in sdk) == 2


def test_other_valid_forms_upper_case_ids_gzip_and_files_in_reverse(
    lines: list[bytes], tmp_path: Path
) -> None:
    forms = [walk_spans(walk_spans(line, upper_ids), other_forms) for line in lines]
    assert any(b'"span_id"' in line for line in forms) and any(b"SPAN_KIND_" in f for f in forms)
    half = len(forms) // 2
    first = tmp_path / "a.jsonl.gz"
    first.write_bytes(gzip.compress(b"\n".join(forms[:half]) + b"\n"))
    second = tmp_path / "b.jsonl"
    second.write_bytes(b"\n".join(forms[half:]) + b"\n")
    result = assert_same_results([second, first], min_claim_grounding_rate=0.7)
    assert result["summary"]["runs"] >= 40


def test_bad_lines_are_reported_alike_by_line_number(lines: list[bytes], tmp_path: Path) -> None:
    mixed = list(lines[:20])
    for n, bad in enumerate(BAD_LINES):
        mixed.insert(2 * n + 1, bad)
    mixed.insert(5, b"")
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(mixed) + b"\n")
    result = assert_same_results([path])
    assert len(result["bad"]) == len(BAD_LINES) and all(
        where.startswith(f"{path}:") for where in result["bad"])


def test_jaeger_answers_with_base64_ids_alike(lines: list[bytes], tmp_path: Path) -> None:
    """Jaeger's `/api/v3` answers: one document, or one answer per line."""
    def base64_ids(span: dict[str, Any]) -> None:
        for key in ("traceId", "spanId", "parentSpanId"):
            if span.get(key):
                span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()

    answers = [json.loads(walk_spans(line, base64_ids)) for line in lines[:30]]
    document = tmp_path / "jaeger.json"
    document.write_text(json.dumps({"result": {"resourceSpans": [
        rs for answer in answers for rs in answer["resourceSpans"]]}}, indent=1))
    per_line = tmp_path / "jaeger-answers.jsonl"
    per_line.write_text("".join(json.dumps({"result": answer}) + "\n" for answer in answers))
    for path in (document, per_line):
        result = assert_same_results([path], min_claim_grounding_rate=0.7)
        assert result["summary"]["runs"] >= 10 and result["bad"] == []


def test_tight_budgets_release_and_evict_alike(lines: list[bytes], tmp_path: Path) -> None:
    path = tmp_path / "traces.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    for options in ({"num_traces": 4}, {"max_buffer_bytes": 6000}, {"max_spans_per_trace": 3}):
        result = assert_same_results([path], **options)
        summary = result["summary"]
        assert summary["runs_released_early"] + summary["traces_evicted"] > 0, options


# -- span by span: generated spans --------------------------------------------------------------
def _json_id(size: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.binary(min_size=size, max_size=size).map(bytes.hex),
        st.binary(min_size=size, max_size=size).map(lambda b: b.hex().upper()),
        st.sampled_from(["", "abc", "zz", "0x12", "ab cd", 12, 10**30, None]),
    )


_TEXT = st.one_of(
    st.text(max_size=12), st.sampled_from(["\ud800", "a\udc00b", "\U0001f600", "é"])
)
_INTS = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(min_value=-(2**63), max_value=2**63 - 1).map(str),
    st.sampled_from([2**63, "9223372036854775808", "1e3", "12.0", " 1", "+5", "0x1", 1.0, True,
                     2**64 + 1, -(2**63) - 1, 10**30 + 1]),
)
_DOUBLES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False), st.integers(-(2**60), 2**60),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1.5", "nan", "x", 10**400]),
    # beyond 64 bits: exact for `json.loads`, a float for `orjson`
    st.sampled_from([2**64, -(2**64) - 3, 10**25 + 1, 2**70 + 1]),
)
_BYTES = st.one_of(
    st.binary(max_size=8).map(lambda b: base64.b64encode(b).decode()),
    st.binary(max_size=8).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")),
    st.sampled_from(["%%%", "a", 5]),
)
_SCALARS = st.one_of(
    st.builds(lambda v: {"stringValue": v}, st.one_of(_TEXT, st.sampled_from([1, None]))),
    st.builds(lambda v: {"intValue": v}, _INTS),
    st.builds(lambda v: {"doubleValue": v}, _DOUBLES),
    st.builds(lambda v: {"boolValue": v}, st.sampled_from([True, False, "true", 1])),
    st.builds(lambda v: {"bytesValue": v}, _BYTES),
    st.sampled_from([{}, {"stringValue": "a", "intValue": "1"}, {"stringValue": None},
                     {"stringValueStrindex": 1}, {"unknown": 1}, None, "text"]),
)


def _key_values(values: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    pair = st.one_of(
        st.fixed_dictionaries({"key": st.sampled_from(["a", "b", "c"]), "value": values}),
        st.fixed_dictionaries({"key": st.sampled_from(["a", "\ud800"])}),
        st.sampled_from([{"value": {"stringValue": "keyless"}}, {"key": 5}, 7]),
    )
    return st.lists(pair, max_size=4)


_ANY = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.builds(lambda v: {"arrayValue": {"values": v}}, st.lists(inner, max_size=3)),
        st.builds(lambda v: {"kvlistValue": {"values": v}}, _key_values(inner)),
        st.sampled_from([{"arrayValue": {}}, {"kvlistValue": {"values": None}},
                         {"arrayValue": {"values": [None]}}, {"arrayValue": []}]),
    ),
    max_leaves=8,
)
_TIME = st.one_of(
    st.integers(0, 2**64 - 1).map(str), st.integers(0, 2**64 - 1),
    st.sampled_from(["-1", "18446744073709551616", "1.5", "", "٣", 1.0, 2**64 + 1]),
)
_ENUM = st.one_of(st.integers(-1, 7), st.sampled_from(
    ["SPAN_KIND_SERVER", "STATUS_CODE_ERROR", "BOGUS", "2", None, True]))
_OPTIONAL_FIELDS = {
    "parentSpanId": _json_id(8),
    "traceState": _TEXT,
    "flags": st.one_of(st.integers(0, 2**32), st.sampled_from([-1, "1", True, 2**64 + 1])),
    "name": st.one_of(_TEXT, st.just(3)),
    "kind": _ENUM,
    "startTimeUnixNano": _TIME,
    "endTimeUnixNano": _TIME,
    "droppedAttributesCount": st.one_of(st.integers(0, 2**32), st.just("2")),
    "droppedEventsCount": st.integers(0, 3),
    "events": st.lists(st.fixed_dictionaries({}, optional={
        "name": _TEXT, "timeUnixNano": _TIME, "attributes": _key_values(_ANY),
        "droppedAttributesCount": st.integers(0, 2)}), max_size=2),
    "links": st.lists(st.fixed_dictionaries({}, optional={
        "traceId": _json_id(16), "spanId": _json_id(8), "traceState": _TEXT,
        "attributes": _key_values(_ANY), "flags": st.integers(0, 3)}), max_size=2),
    "status": st.one_of(st.fixed_dictionaries({}, optional={"message": _TEXT, "code": _ENUM}),
                        st.sampled_from([None, "ok", []])),
    "trace_state": _TEXT,
    "span_id": _json_id(8),
    "unknownField": st.one_of(st.integers(), st.just(10**30)),
    "[ext.field]": st.integers(),
}
_SPANS = st.fixed_dictionaries(
    {"traceId": _json_id(16), "spanId": _json_id(8), "attributes": _key_values(_ANY)},
    optional=_OPTIONAL_FIELDS,
)


# The form the Collector writes (and the other valid forms), for the fast path to be exercised.
_VALID_TEXT = st.text(max_size=12)
_VALID_ANY = st.recursive(
    st.one_of(
        st.builds(lambda v: {"stringValue": v}, _VALID_TEXT),
        st.builds(lambda v: {"intValue": v}, st.one_of(
            st.integers(-(2**63), 2**63 - 1).map(str), st.integers(-(2**63), 2**63 - 1))),
        st.builds(lambda v: {"doubleValue": v}, st.floats(allow_nan=False, allow_infinity=False)),
        st.builds(lambda v: {"boolValue": v}, st.booleans()),
        st.builds(lambda v: {"bytesValue": v}, st.binary(max_size=8).map(
            lambda b: base64.b64encode(b).decode())),
        st.just({}),
    ),
    lambda inner: st.one_of(
        st.builds(lambda v: {"arrayValue": {"values": v}}, st.lists(inner, max_size=3)),
        st.builds(lambda v: {"kvlistValue": {"values": v}}, st.lists(st.fixed_dictionaries(
            {"key": st.sampled_from(["a", "b"]), "value": inner}), max_size=3)),
    ),
    max_leaves=8,
)
_VALID_ATTRIBUTES = st.lists(
    st.fixed_dictionaries({"key": st.sampled_from(["a", "b", "c", "d"]), "value": _VALID_ANY}),
    max_size=4,
)
_VALID_TIME = st.one_of(st.integers(0, 2**64 - 1).map(str), st.integers(0, 2**64 - 1))
_VALID_SPANS = st.fixed_dictionaries(
    {"traceId": _json_id(16).filter(lambda v: isinstance(v, str) and len(v) == 32),
     "spanId": st.binary(min_size=8, max_size=8).map(bytes.hex),
     "attributes": _VALID_ATTRIBUTES},
    optional={
        "parentSpanId": st.binary(min_size=8, max_size=8).map(bytes.hex),
        "traceState": _VALID_TEXT,
        "flags": st.integers(0, 2**32 - 1),
        "name": _VALID_TEXT,
        "kind": st.one_of(st.integers(0, 5), st.sampled_from(["SPAN_KIND_CLIENT", "SPAN_KIND_UNSPECIFIED"])),
        "startTimeUnixNano": _VALID_TIME,
        "endTimeUnixNano": _VALID_TIME,
        "droppedAttributesCount": st.integers(0, 2**32 - 1),
        "droppedLinksCount": st.integers(0, 3),
        "events": st.lists(st.fixed_dictionaries({"name": _VALID_TEXT}, optional={
            "timeUnixNano": _VALID_TIME, "attributes": _VALID_ATTRIBUTES}), max_size=2),
        "links": st.lists(st.fixed_dictionaries({
            "traceId": st.binary(min_size=16, max_size=16).map(bytes.hex),
            "spanId": st.binary(min_size=8, max_size=8).map(bytes.hex)},
            optional={"attributes": _VALID_ATTRIBUTES, "flags": st.integers(0, 3)}), max_size=2),
        "status": st.fixed_dictionaries({}, optional={
            "message": _VALID_TEXT,
            "code": st.one_of(st.integers(0, 2), st.just("STATUS_CODE_OK"))}),
    },
)


def _old_read(line: bytes) -> Any:
    try:
        request = _thin_json(line, MARKERS)
    except InvalidRequest:
        return None
    rs = request.resource_spans[0]
    return span_view(rs.scope_spans[0].spans[0], AttributeMap(rs.resource.attributes))


def _plain(value: Any) -> Any:
    """A value comparable across readers (NaN equal to NaN, mappings as dicts)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if hasattr(value, "items"):
        return {key: _plain(item) for key, item in value.items()}
    return value


def assert_read_alike(span: dict[str, Any], resource: list[Any]) -> bool:
    """Both readers refuse the line, or read the same span; True when the new reader read it
    without `json_format` (its fast path)."""
    span = copy.deepcopy(span)
    span["attributes"] = [
        {"key": "ferrumdeck.step.type", "value": {"stringValue": "tool"}}, *span["attributes"]
    ]
    line = json.dumps({"resourceSpans": [{"resource": {"attributes": resource},
                                           "scopeSpans": [{"spans": [span]}]}]}).encode()
    old = _old_read(line)
    try:
        request = read_request(line, MARKERS)
    except InvalidRequest:
        assert old is None, "refused by the new reader only"
        return False
    assert old is not None, "refused by the old reader only"
    (item,) = request.items
    assert isinstance(item, JsonSpan)
    new = item.view
    assert (new.trace_id, new.span_id, new.parent_id, new.name) == (
        old.trace_id, old.span_id, old.parent_id, old.name)
    assert _plain(new.attributes) == _plain(old.attributes)
    assert _plain(new.resource) == _plain(old.resource)
    assert [(e.name, _plain(e.attributes)) for e in new.events] == [
        (e.name, _plain(e.attributes)) for e in old.events]
    message = item.message()  # a held run's protobuf form: as json_format decodes it
    decoded = _thin_json(line, MARKERS).resource_spans[0].scope_spans[0].spans[0]
    assert message.SerializeToString(deterministic=True) == decoded.SerializeToString(
        deterministic=True) and message.ByteSize() == decoded.ByteSize()
    return item.decoded is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=_VALID_SPANS, resource=_VALID_ATTRIBUTES)
def test_generated_valid_spans_read_alike_without_json_format(
    span: dict[str, Any], resource: list[Any]
) -> None:
    assert assert_read_alike(span, resource), "a valid span fell back to json_format"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=_SPANS, resource=_key_values(_ANY))
def test_generated_odd_spans_are_refused_or_read_alike(
    span: dict[str, Any], resource: list[Any]
) -> None:
    assert_read_alike(span, resource)


def assert_sized_alike(span: dict[str, Any]) -> bool:
    """A marker span read from JSON: its size and end time, counted from the JSON, are its
    protobuf form's (`ByteSize`, `end_time_unix_nano`); True when counted (not decoded)."""
    span = copy.deepcopy(span)
    span["attributes"] = [
        {"key": "ferrumdeck.step.type", "value": {"stringValue": "tool"}}, *span["attributes"]
    ]
    line = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}).encode()
    try:
        (item,) = read_request(line, MARKERS).items
    except InvalidRequest:
        return False
    assert isinstance(item, JsonSpan)
    message = item.message()
    assert item.byte_size() == message.ByteSize() == len(message.SerializeToString())
    assert item.end_time() == message.end_time_unix_nano
    return item.decoded is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=_VALID_SPANS)
def test_generated_valid_spans_are_sized_as_protobuf_encodes_them(span: dict[str, Any]) -> None:
    assert assert_sized_alike(span), "a valid span fell back to json_format"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=_SPANS)
def test_generated_odd_spans_are_sized_as_protobuf_encodes_them(span: dict[str, Any]) -> None:
    assert_sized_alike(span)


@settings(max_examples=200, deadline=None)
@given(trace=_json_id(16), span_id=_json_id(8), parent=st.one_of(
    _json_id(8), st.sampled_from([" ", "00", "0a 0b", [], 0, False])))
def test_spans_of_no_interest_become_the_same_parent_links(
    trace: Any, span_id: Any, parent: Any
) -> None:
    span = {"traceId": trace, "spanId": span_id, "parentSpanId": parent, "name": "GET /",
            "attributes": [{"key": "http.method", "value": {"stringValue": "GET"}}]}
    line = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}).encode()
    old = _old_read(line)
    try:
        (link,) = read_request(line, MARKERS).items
    except InvalidRequest as exc:
        assert old is None and "is not a hex id" in str(exc)
        return
    assert old is not None and link == (old.trace_id, old.span_id, old.parent_id)


# -- the fast parser (`orjson`, when installed) ---------------------------------------------------
def _fast_parser_installed() -> None:
    """The `test` extra installs `orjson`: without it these tests would compare the slow path
    with itself, so its absence fails them rather than skipping them."""
    assert jsonspans.fast_loads is not None, "orjson is not installed: pip install -e '.[test]'"


#: Lines `orjson` reads otherwise than `json.loads`: integers beyond 64 bits (floats for it),
#: where the canonical form wants an integer, a double, a hex id, or in fields not read; and
#: what it refuses that `json.loads` reads (NaN, a lone surrogate).
_MARKER = '{"key": "ferrumdeck.step.type", "value": {"stringValue": "tool"}}'
_BIG = "18446744073709551617"  # 2**64 + 1: no float is it
ODD_NUMBER_LINES = [
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"attributes": [%s, {"key": "n", "value": {"intValue": %s}}]}]}]}]}' % (_MARKER, _BIG)),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"attributes": [%s, {"key": "d", "value": {"doubleValue": %s}}]}]}]}]}' % (_MARKER, _BIG)),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"attributes": [%s, {"key": "d", "value": {"doubleValue": -%s3}}]}]}]}]}' % (_MARKER, _BIG)),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"endTimeUnixNano": %s, "attributes": [%s]}]}]}]}' % (_BIG, _MARKER)),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"kind": %s, "attributes": [%s]}]}]}]}' % (_BIG, _MARKER)),
    '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": %s}]}]}]}' % _BIG,
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"kind": %s}]}]}]}' % _BIG),
    ('{"resourceSpans": [{"resource": {"attributes": [{"key": "n", "value": {"intValue": %s}}]}, '
     '"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", "attributes": [%s]}]}]}]}'
     % (_BIG, _MARKER)),
    ('{"resourceSpans": [{"scopeSpans": [{"scope": {"version": %s}, "spans": [{"traceId": "0a", '
     '"spanId": "0b", "attributes": [%s], "status": {"code": NaN}}]}]}]}' % (_BIG, _MARKER)),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0a", "spanId": "0b", '
     '"name": "\\ud800", "attributes": [%s]}]}]}]}' % _MARKER),
]


def _read_outcome(line: bytes) -> Any:
    """What `read_request` makes of a line, comparable across parsers: the refusal's message,
    or each item (a marker span's view, size and end time; a link as it is)."""
    try:
        request = read_request(line, MARKERS)
    except InvalidRequest as exc:
        return str(exc)
    return request.spans, [
        (_view_values(item.view), item.byte_size(), item.end_time())
        if isinstance(item, JsonSpan) else item
        for item in request.items
    ]


def _view_values(view: Any) -> tuple[Any, ...]:
    return (
        view.trace_id, view.span_id, view.parent_id, view.name, _plain(view.attributes),
        [(event.name, _plain(event.attributes)) for event in view.events], _plain(view.resource),
    )


def test_lines_read_the_same_with_the_fast_parser_and_without(
    lines: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    _fast_parser_installed()
    every = [
        *lines, *(walk_spans(line, other_forms) for line in lines), *BAD_LINES,
        *(line.encode() for line in ODD_NUMBER_LINES),
    ]
    fast = [_read_outcome(line) for line in every]
    monkeypatch.setattr(jsonspans, "fast_loads", None)
    assert [_read_outcome(line) for line in every] == fast


def test_the_fast_parser_reads_canonical_lines_alone_and_hands_the_rest_to_json_loads(
    lines: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    _fast_parser_installed()
    walks: list[bool] = []  # each walk of a parsed line: whether of the fast parser's tree
    walk = jsonspans._walk

    def spy(data: Any, markers: frozenset[str], *, canonical: bool) -> Any:
        walks.append(canonical)
        return walk(data, markers, canonical=canonical)

    monkeypatch.setattr(jsonspans, "_walk", spy)
    for line in lines:
        _read_outcome(line)
    assert walks == [True] * len(lines)  # the corpus, in the canonical form: the fast parser's
    read = []
    for text in ODD_NUMBER_LINES:
        walks.clear()
        _read_outcome(text.encode())
        read.append(tuple(walks))
    # Read again from `json.loads` (False after True): a big integer where an integer or an id
    # is due; not the big doubles (their floats are `json_format`'s own), nor a big `kind` of
    # a span of no interest (not read). NaN and the lone surrogate: refused by the fast
    # parser itself (no walk of its tree).
    assert read == [
        (True, False), (True,), (True,), (True, False), (True, False), (True, False), (True,),
        (True, False), (False,), (False,),
    ]


def test_an_integer_beyond_64_bits_reads_as_json_format_reads_it() -> None:
    """The lines above, against the reader before `jsonspans` (`json_format`): refused alike
    (with the integer's own digits in the message), or read to the same values."""
    for text in ODD_NUMBER_LINES:
        line = text.encode()
        outcome = _read_outcome(line)
        old = _old_read(line)
        if isinstance(outcome, str):
            assert old is None, text
            if "spanId" in text and '"spanId": "0b"' not in text:
                assert _BIG in outcome  # the id as written, not a float
            continue
        assert old is not None, text
        (item,) = read_request(line, MARKERS).items
        if isinstance(item, JsonSpan):
            assert _plain(item.view.attributes) == _plain(old.attributes), text
        else:
            assert item == (old.trace_id, old.span_id, old.parent_id), text
