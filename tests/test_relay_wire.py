"""The relay's wire-level view of a request, checked against the protobuf library's decoding:
span byte ranges, splicing spans out or in, and parent links lifted from the bytes."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from otel_grounding.relay.wire import InvalidSpan, Layout, LinkRecords, WireError, splice, varint

from relay_kit import attributes_first

TRACE_IDS = [bytes([n]) * 16 for n in (1, 2, 3)]

span_st = st.builds(
    lambda trace, sid, parent, state, name, values: _span(trace, sid, parent, state, name, values),
    st.sampled_from(TRACE_IDS),
    st.binary(min_size=8, max_size=8),
    st.one_of(st.none(), st.binary(min_size=8, max_size=8)),
    st.one_of(st.none(), st.text(min_size=1, max_size=20)),
    st.text(max_size=8),
    st.lists(st.text(max_size=300), max_size=3),  # 1-, 2- and 3-byte length prefixes
)
scope_st = st.tuples(st.text(max_size=5), st.text(max_size=5), st.lists(span_st, max_size=5))
resource_st = st.tuples(st.text(max_size=5), st.lists(scope_st, max_size=3))
request_st = st.lists(resource_st, max_size=3)


def _span(trace: bytes, sid: bytes, parent: bytes | None, state: str | None, name: str,
          values: list[str]) -> Span:
    span = Span(trace_id=trace, span_id=sid, name=name)
    if parent:
        span.parent_span_id = parent
    if state:
        span.trace_state = state
    for n, value in enumerate(values):
        span.attributes.add(key=f"k{n}").value.string_value = value
    return span


def _request(groups: list) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    for service, scopes in groups:
        rs = request.resource_spans.add()
        if service:
            rs.resource.attributes.add(key="service.name").value.string_value = service
        for scope_name, schema, spans in scopes:
            ss = rs.scope_spans.add(schema_url=schema)
            ss.scope.name = scope_name
            ss.spans.extend(spans)
    return request


def _spans(request: ExportTraceServiceRequest) -> list[Span]:
    return [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(request_st)
def test_layout_finds_every_span_in_order(groups):
    request = _request(groups)
    layout = Layout(request.SerializeToString())
    assert [Span.FromString(layout.span(i)) for i in range(layout.span_count)] == _spans(request)
    assert len(layout.scopes) == sum(len(rs.scope_spans) for rs in request.resource_spans)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(request_st, st.randoms(use_true_random=False))
def test_splice_removes_and_replaces_spans_like_editing_the_message(groups, rng):
    request = _request(groups)
    layout = Layout(request.SerializeToString())
    edits: dict[int, bytes | None] = {}
    for index in range(layout.span_count):
        choice = rng.random()
        if choice < 0.35:
            edits[index] = None
        elif choice < 0.5:
            replacement = Span.FromString(layout.span(index))
            replacement.name = "replaced " * rng.randint(1, 40)
            edits[index] = replacement.SerializeToString()
    if not edits:
        return
    expected = ExportTraceServiceRequest()
    index = 0
    for rs in request.resource_spans:
        kept_scopes = []
        for ss in rs.scope_spans:
            kept = []
            for span in ss.spans:
                if index not in edits:
                    kept.append(span)
                elif edits[index] is not None:
                    kept.append(Span.FromString(edits[index]))
                index += 1
            if kept or not ss.spans:  # a group emptied by the edits is dropped
                copy = ScopeSpans()
                copy.CopyFrom(ss)
                del copy.spans[:]
                copy.spans.extend(kept)
                kept_scopes.append(copy)
        if kept_scopes or not rs.scope_spans:
            copy = ResourceSpans()
            copy.CopyFrom(rs)
            del copy.scope_spans[:]
            copy.scope_spans.extend(kept_scopes)
            expected.resource_spans.append(copy)
    assert ExportTraceServiceRequest.FromString(splice(layout, edits)) == expected


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(request_st)
def test_link_records_give_every_span_its_parent(groups):
    request = _request(groups)
    batches = LinkRecords.of(Layout(request.SerializeToString()))
    spans = _spans(request)
    for trace_id in TRACE_IDS:
        key = int.from_bytes(trace_id, "big")
        expected = [
            (int.from_bytes(s.span_id, "big"),
             int.from_bytes(s.parent_span_id, "big") if s.parent_span_id else None)
            for s in spans if s.trace_id == trace_id
        ]
        batch = batches.get(key)
        assert sorted(batch.links() if batch else [], key=repr) == sorted(expected, key=repr)
        assert (batch.count if batch else 0) == len(expected)
    assert set(batches) <= {int.from_bytes(t, "big") for t in TRACE_IDS}


def _records_by_regex_and_sort(layout: Layout) -> dict[int, bytes]:
    """The link records as the relay first grouped them (a record per span, the regex over
    the joined records, a stable sort by trace id): the reference for the column checks."""
    import itertools

    from otel_grounding.relay.wire import _CANONICAL_RECORDS, LINK_RECORD, _record

    raw = layout.raw
    records = [raw[a : min(a + LINK_RECORD, b)] for a, b in zip(layout.starts, layout.ends)]
    if not _CANONICAL_RECORDS.fullmatch(b"".join(records)):
        records = [r for r in (_record(layout, i, r) for i, r in enumerate(records)) if r]
    records.sort(key=lambda r: r[2:18])
    return {int.from_bytes(key, "big"): b"".join(group)
            for key, group in itertools.groupby(records, lambda r: r[2:18])}


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(request_st, st.booleans())
def test_link_records_are_the_regex_and_sort_grouping(groups, without_state):
    """Every trace's records, byte for byte and in the same order (traces by id, each trace's
    spans in request order), as the per-span grouping gives them: interleaved traces, roots,
    trace states (decoded records) and requests whose records are all canonical."""
    request = _request(groups)
    if without_state:
        for span in _spans(request):
            span.ClearField("trace_state")
    layout = Layout(request.SerializeToString())
    batches = LinkRecords.of(layout)
    expected = _records_by_regex_and_sort(layout)
    assert list(batches) == list(expected)
    assert {key: batch.blob for key, batch in batches.items()} == expected


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(TRACE_IDS), st.binary(min_size=8, max_size=8),
                          st.one_of(st.none(), st.binary(min_size=8, max_size=8))),
                min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(min_value=0, max_value=1000), st.binary(min_size=1,
                                                                              max_size=1)),
                max_size=3))
def test_canonical_column_check_is_the_regex(spans, flips):
    """The column-wise check of joined records accepts exactly what the records' regex
    accepts, canonical records with bytes changed anywhere included."""
    from otel_grounding.relay.wire import _CANONICAL_RECORDS, LINK_RECORD, _canonical

    blob = bytearray(b"".join(
        b"\x0a\x10" + trace + b"\x12\x08" + sid + (b"\x22\x08" + parent if parent
                                                  else b"\x00" * 10)
        for trace, sid, parent in spans))
    for at, byte in flips:
        blob[at % len(blob)] = byte[0]
    data = bytes(blob)
    expected = _CANONICAL_RECORDS.fullmatch(data) is not None
    assert _canonical(data, len(data) // LINK_RECORD) == expected


def test_fields_out_of_order_unknown_fields_and_short_spans():
    """A span encoded attributes first, unknown fields in the groups, a span of ids only and a
    span with ids of a length OTLP forbids: ranges, splice and links still match the
    decoding, and the forbidden ids are named."""
    trace, other = TRACE_IDS[0], TRACE_IDS[1]
    parent = b"\x07" * 8
    full = _span(trace, b"\x01" * 8, parent, None, "tool", ["x" * 50])
    scrambled = attributes_first(full)
    assert scrambled != full.SerializeToString()
    tiny = Span(trace_id=other, span_id=b"\x02" * 8)  # 28 bytes: shorter than a link record
    odd = Span(trace_id=b"\x05" * 3, span_id=b"\x03" * 8, name="odd ids")
    unknown_varint = varint(9 << 3) + varint(300)  # field 9, varint: unknown to OTLP
    unknown_len4 = varint(4 << 3 | 2) + varint(8) + b"\x09" * 8  # looks like a parent id
    scope = (b"\x12" + varint(len(scrambled)) + scrambled
             + b"\x12" + varint(len(tiny.SerializeToString())) + tiny.SerializeToString()
             + unknown_len4
             + b"\x12" + varint(len(odd.SerializeToString())) + odd.SerializeToString()
             + unknown_varint)
    resource = b"\x12" + varint(len(scope)) + scope + unknown_varint
    raw = b"\x0a" + varint(len(resource)) + resource
    request = ExportTraceServiceRequest.FromString(raw)  # valid protobuf
    layout = Layout(raw)
    assert [Span.FromString(layout.span(i)) for i in range(3)] == _spans(request)
    with pytest.raises(InvalidSpan, match=r"span 2 .*trace_id is 3 bytes"):
        LinkRecords.of(layout)  # OTLP requires 16: the relay refuses the request
    batches = LinkRecords.of(Layout(splice(layout, {2: None})))
    assert batches[int.from_bytes(trace, "big")].links() == [(int.from_bytes(b"\x01" * 8, "big"),
                                                             int.from_bytes(parent, "big"))]
    assert batches[int.from_bytes(other, "big")].links() == [(int.from_bytes(b"\x02" * 8, "big"),
                                                             None)]
    assert len(batches) == 2
    out = splice(layout, {1: None})
    assert out.count(unknown_len4) == 1 and out.count(unknown_varint) == 2
    assert _spans(ExportTraceServiceRequest.FromString(out)) == [_spans(request)[0],
                                                                 _spans(request)[2]]


@pytest.mark.parametrize("raw", [
    # a scope field repeated in one ScopeSpans (protobuf merges them; the walk refuses)
    b"\x0a\x08\x12\x06\x0a\x00\x0a\x02\x0a\x00",
    b"\x0a\x05\x12\x03\x0b\x00\x0c",  # a group wire type
    b"\x0a\x04\x12\x02\x12\x05",  # a span running past its group
])
def test_encodings_the_walk_does_not_handle_raise_wire_error(raw):
    with pytest.raises(WireError):
        Layout(raw)


def test_a_large_request_round_trips_through_splice():
    rng = random.Random(7)
    spans = [_span(rng.choice(TRACE_IDS), rng.randbytes(8), rng.randbytes(8), None, "s",
                   ["v" * rng.randint(0, 20000)]) for _ in range(200)]
    request = _request([("svc", [("scope", "", spans)])])
    layout = Layout(request.SerializeToString())
    out = ExportTraceServiceRequest.FromString(splice(layout, {0: None, 199: None}))
    assert _spans(out) == spans[1:199]


def _assembly(**budgets):
    from otel_grounding.relay.unordered import UnorderedStore

    options = dict(num_traces=100, max_spans_per_trace=100, max_bytes=10**6, retention=60)
    options.update(budgets)
    return UnorderedStore(**options)


def _view(trace: bytes, span_id: bytes, parent: bytes | None):
    from otel_grounding.spanview import SpanView

    return SpanView(int.from_bytes(trace, "big"), int.from_bytes(span_id, "big"),
                    int.from_bytes(parent, "big") if parent else None, "s", {}, (), {})


def _chain_request(trace: bytes) -> bytes:
    """run <- step <- hop <- tool, with only the two intermediate spans in the request."""
    step = _span(trace, b"\x0b" * 8, b"\x0a" * 8, None, "step", [])
    hop = _span(trace, b"\x0c" * 8, b"\x0b" * 8, None, "hop", [])
    return _request([("svc", [("", "", [step, hop])])]).SerializeToString()


def test_a_run_finds_its_tool_through_links_known_only_from_a_batch():
    """Lazily read link records connect a tool to its run across two intermediate spans."""
    from otel_grounding.conventions.base import RUN, TOOL, SpanReading

    trace = TRACE_IDS[0]
    assembly = _assembly()
    assembly.remember_batches(LinkRecords.of(Layout(_chain_request(trace))))
    assembly.observe(_view(trace, b"\x0d" * 8, b"\x0c" * 8),
                     SpanReading(role=TOOL, convention="native", text="tool output"))
    evidence = assembly.claim_run(_view(trace, b"\x0a" * 8, None), SpanReading(RUN, "native"))
    assert evidence.sources == ("tool output",) and not evidence.lost

    elsewhere = _assembly()  # the same spans without the batch: the tool is not the run's
    elsewhere.observe(_view(trace, b"\x0d" * 8, b"\x0c" * 8),
                      SpanReading(role=TOOL, convention="native", text="tool output"))
    assert elsewhere.claim_run(_view(trace, b"\x0a" * 8, None), SpanReading(RUN, "native")).sources == ()


def test_a_batch_over_the_span_budget_is_counted_and_the_run_told():
    from otel_grounding.conventions.base import RUN, SpanReading

    evicted = []
    assembly = _assembly(max_spans_per_trace=1, on_evict=evicted.append)
    assembly.remember_batches(LinkRecords.of(Layout(_chain_request(TRACE_IDS[0]))))
    assert evicted == ["spans"]
    run = assembly.claim_run(_view(TRACE_IDS[0], b"\x0a" * 8, None), SpanReading(RUN, "native"))
    assert run.lost



def test_each_trace_holds_and_is_charged_only_its_own_links():
    """A request's links are split by trace: a trace's state holds (and is charged for) its
    own records only, so one long-lived trace cannot pin the links of a whole request."""
    from otel_grounding.relay.unordered import BATCH_OVERHEAD
    from otel_grounding.relay.wire import LINK_RECORD

    spans = [_span(TRACE_IDS[n % 2], bytes([n + 1]) * 8, None, None, "s", ["x" * 100])
             for n in range(10)]
    batches = LinkRecords.of(Layout(_request([("svc", [("", "", spans)])]).SerializeToString()))
    assert {b.count for b in batches.values()} == {5}
    assert all(len(b.blob) == 5 * LINK_RECORD for b in batches.values())
    assembly = _assembly()
    assembly.remember_batches(batches)
    assert assembly.buffered_bytes == 2 * (5 * LINK_RECORD + BATCH_OVERHEAD)


def test_bytes_the_walk_refuses_are_walked_in_their_canonical_encoding():
    """A scope group with its scope field twice (protobuf merges them): the relay walks the
    decoded request's canonical re-encoding instead, with every span in it."""
    from otel_grounding.relay.core import _layout

    span = _span(TRACE_IDS[0], b"\x01" * 8, None, None, "s", ["v"])
    encoded = span.SerializeToString()
    scope = b"\x0a\x03\x0a\x01a" + b"\x0a\x03\x12\x011" + b"\x12" + varint(len(encoded)) + encoded
    resource = b"\x12" + varint(len(scope)) + scope
    raw = b"\x0a" + varint(len(resource)) + resource
    request = ExportTraceServiceRequest.FromString(raw)
    assert request.resource_spans[0].scope_spans[0].scope.name == "a"  # merged
    with pytest.raises(WireError):
        Layout(raw)
    layout = _layout(request, raw, 1)
    assert layout.raw == request.SerializeToString() != raw
    assert [Span.FromString(layout.span(0))] == [span]


def _relay():
    from otel_grounding.config import load_settings
    from otel_grounding.pipeline import GroundingPipeline
    from otel_grounding.relay.core import GroundingRelay
    from otel_grounding.relay.queue import DeliveryQueue
    from otel_grounding.relay.unordered import UnorderedStore

    settings = load_settings({"evidence_wait": 60.0})
    store = UnorderedStore.from_settings(settings, 60.0)
    pipeline = GroundingPipeline(settings, store=store)
    return GroundingRelay(pipeline, DeliveryQueue(10**6, 10**9), trace_store=store,
                          evidence_wait=60.0)


def _agent_request(rng: random.Random) -> ExportTraceServiceRequest:
    from otel_grounding.conventions import native

    spans = []
    for trace in TRACE_IDS:
        run = _span(trace, rng.randbytes(8), None, None, "run", [])
        run.attributes.add(key=native.RUN_OUTPUT).value.string_value = "The order shipped today."
        tool = _span(trace, rng.randbytes(8), run.span_id, None, "tool", ["x"])
        tool.attributes.add(key=native.STEP_TYPE).value.string_value = "tool"
        tool.attributes.add(key=native.STEP_OUTPUT).value.string_value = "order shipped today"
        spans += [run, tool, _span(trace, rng.randbytes(8), tool.span_id, "k=v", "http", ["y"])]
    return _request([("svc", [("scope", "", spans[:5]), ("other", "s", spans[5:])])])


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=3))
def test_mutated_requests_the_decoder_accepts_never_lose_or_corrupt_spans(rng, flips):
    """Bytes flipped in a valid agent request: whatever the protobuf decoder still accepts is
    taken whole: every span is either forwarded, in bytes that decode, or held as a run."""
    from google.protobuf.message import DecodeError

    from otel_grounding.relay.core import _layout
    from otel_grounding.relay.otlp import count_spans

    raw = bytearray(_agent_request(random.Random(rng.random())).SerializeToString())
    for _ in range(flips):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    raw = bytes(raw)
    try:
        request = ExportTraceServiceRequest.FromString(raw)
    except DecodeError:
        event("refused by the decoder")
        return
    spans = count_spans(request)
    event("decoded")
    # the relay's intake itself: `ingest` would mask a failure by forwarding unchanged
    layout = _layout(request, raw, spans)
    try:
        links = LinkRecords.of(layout)
    except InvalidSpan:
        assert any(len(s.trace_id) != 16 or len(s.span_id) != 8
                   or len(s.parent_span_id) not in (0, 8) for s in _spans(request))
        event("refused: ids OTLP forbids")
        return
    data, forwarded, held = _relay()._split(layout, links, spans)
    assert forwarded + len(held) == spans
    assert count_spans(ExportTraceServiceRequest.FromString(data)) == forwarded
    received = _spans(request)
    assert all(Span.FromString(item.data) in received for item in held)
