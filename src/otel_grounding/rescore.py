"""`score-traces`' shell: stored requests, in any order, through the same pipeline as the processor.

Assembly across files in any order, in bounded memory: every span of no interest and every tool
or LLM step goes through the pipeline as it is read (its parent link and output wait in the
pipeline's trace store, within `num_traces`, `max_spans_per_trace` and `max_buffer_bytes`);
run spans are held back until the end of the input, then scored inner runs first (end-time
order), so evidence read after its run (a later file, an earlier line) still counts. The hold
has its own budget (half of `num_traces` runs, half of `max_buffer_bytes`): when it is full, the
run held longest is scored with the evidence read so far, as the relay does after its
`evidence_wait`, and counted as released early.

A trace whose buffered state a budget evicted is remembered in the store's evicted-trace memory
(`evicted.EvictedTraces`, fixed size whatever the input's size), as is a trace whose state went
while spans of it were still to come (seen before, and no longer held: a fixed-size filter of
the traces seen says so): its run gets no rate, grade `partial` (`evidence-evicted`), and is
never flagged. A false positive of either filter can only make a run `partial`, never flag it.

A span read twice (the same trace and span id: the relay and the Collector deliver at least
once, so stored files do hold copies, and the same traces may be given twice) is one span: a
second copy of a step adds nothing to its trace (the store knows its outputs by span id), and a
second copy of a run span is not held, scored or reported again (`duplicate_runs` counts them;
with `--format otlp` it is not written again) while the first is held or among the pipeline's
recently graded runs (`pipeline.RUNS_REMEMBERED`); a copy read after both is graded `partial`
(`evidence-evicted`), never flagged.

With a judge (the settings name one), every run is judged through the judge tier as on a span,
except that admission waits for room and budget instead of declining (no application waits on
a backfill); runs are reported in the order they were scored, from a window no larger than what
the tier admits at once, so memory stays bounded and a hanging judge delays a run by at most
`judge_timeout`.
"""

from __future__ import annotations

import dataclasses
import gzip
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from opentelemetry._logs import NoOpLoggerProvider
from opentelemetry.metrics import NoOpMeterProvider
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, Span

from otel_grounding import attributes as attr
from otel_grounding.config import GroundingSettings
from otel_grounding.conventions import RUN, SpanReading
from otel_grounding.enrichment import Enrichment
from otel_grounding.jsonspans import JsonRequest, JsonSpan
from otel_grounding.judge import Judge, load_judge
from otel_grounding.pipeline import SERVICE_NAME, GroundingPipeline
from otel_grounding.relay.otlp import AttributeMap, apply_enrichment, span_view
from otel_grounding.relay.unordered import UnorderedStore
from otel_grounding.scored import ScoredRun
from otel_grounding.spanview import SpanView
from otel_grounding.stored import (
    GZIP_MAGIC,
    JSON_STARTS,
    REQUEST_TAG,
    BadRecord,
    read_records,
)


class TraceIdFilter:
    """A fixed-size Bloom filter of trace ids: `in` may say yes for an id never added (rarely),
    never no for one that was (it never forgets: when full it says yes more often)."""

    BITS = 1 << 23  # 1 MiB
    #: Odd 64-bit multipliers, one per hash position (three positions, written out: this is
    #: asked once per record read).
    _F1 = 0x9E3779B97F4A7C15
    _F2 = 0xC2B2AE3D27D4EB4F
    _F3 = 0x165667B19E3779F9

    def __init__(self) -> None:
        self._bits = bytearray(self.BITS // 8)

    def _positions(self, trace_id: int) -> tuple[int, int, int]:
        folded = (trace_id ^ (trace_id >> 64)) & _MASK64
        return (
            ((folded * self._F1) & _MASK64) >> _SHIFT,
            ((folded * self._F2) & _MASK64) >> _SHIFT,
            ((folded * self._F3) & _MASK64) >> _SHIFT,
        )

    def add(self, trace_id: int) -> None:
        bits = self._bits
        for position in self._positions(trace_id):
            bits[position >> 3] |= 1 << (position & 7)

    def __contains__(self, trace_id: int) -> bool:
        bits = self._bits
        first, second, third = self._positions(trace_id)
        return bool(
            bits[first >> 3] & (1 << (first & 7))
            and bits[second >> 3] & (1 << (second & 7))
            and bits[third >> 3] & (1 << (third & 7))
        )


_MASK64 = 0xFFFFFFFFFFFFFFFF
#: A 64-bit hash's top 23 bits: a position among `TraceIdFilter.BITS`.
_SHIFT = 64 - 23


@dataclass(frozen=True)
class RescoredRun:
    """A run scored from stored spans: where it was read, its result, and what it had before."""

    source: str
    service: str | None
    run: ScoredRun
    previous_rate: float | None = None
    previous_grade: str | None = None
    released_early: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "source": self.source, "service": self.service, **self.run.to_dict()
        }
        if self.previous_grade is not None:
            data["previous"] = {"rate": self.previous_rate, "grade": self.previous_grade}
        if self.released_early:
            data["released_early"] = True
        return data


@dataclass
class Summary:
    """What one re-scoring pass read, scored and could not read."""

    files: int = 0
    records: int = 0
    spans: int = 0
    runs: int = 0
    flagged: int = 0
    grades: dict[str, int] = field(default_factory=dict)
    bad_records: int = 0
    runs_released_early: int = 0
    traces_evicted: int = 0
    runs_with_evicted_evidence: int = 0
    #: Run spans read again (same trace and span id), scored and reported once.
    duplicate_runs: int = 0
    #: With a judge: the runs it flagged (counted in `flagged` too), and its outcomes.
    judge_flagged: int = 0
    judge_outcomes: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Every count; the judge's two only when a judge ran."""
        data = dataclasses.asdict(self)
        if not self.judge_outcomes:
            del data["judge_flagged"], data["judge_outcomes"]
        return data


@dataclass
class _Held:
    source: str
    #: None for a run read from OTLP/JSON: only its size and end time are kept (it is never
    #: written: `--format otlp`, which writes spans back, reads every record into protobuf).
    span: Span | None
    end_time: int
    view: SpanView
    reading: SpanReading
    resource: Resource
    resource_schema: str
    scope: InstrumentationScope
    scope_schema: str
    size: int


class _Judged:
    """A run handed to the judge tier: its enrichment once settled (from a judge thread)."""

    __slots__ = ("held", "released_early", "enrichment", "settled")

    def __init__(self, held: _Held, released_early: bool) -> None:
        self.held = held
        self.released_early = released_early
        self.enrichment: Enrichment | None = None
        self.settled = threading.Event()

    def deliver(self, enrichment: Enrichment | None) -> None:
        self.enrichment = enrichment
        self.settled.set()


SpanSink = Callable[[ExportTraceServiceRequest], None]
_NO_ATTRIBUTES: dict[str, Any] = {}
#: The resource and scope of a run read from OTLP/JSON (`--format otlp` reads protobuf).
_UNWRITTEN_RESOURCE = Resource()
_UNWRITTEN_SCOPE = InstrumentationScope()


class StoredTraces:
    """Feed stored requests in any order; runs are scored at `finish()` (or when the hold is full).

    `on_run` receives each scored run; `on_spans`, when given, every span once, enriched
    (requests without their run spans as they are read, run spans when scored).
    """

    def __init__(
        self,
        pipeline: GroundingPipeline,
        store: UnorderedStore,
        on_run: Callable[[RescoredRun], None],
        on_spans: SpanSink | None = None,
    ) -> None:
        """`store` is the pipeline's store (asked which traces lost their state)."""
        self.pipeline = pipeline
        self._store = store
        self.summary = Summary()
        self._on_run = on_run
        self._on_spans = on_spans
        settings = pipeline.settings
        self.max_held_runs = max(settings.num_traces // 2, 1)
        self.max_held_bytes = max(settings.max_buffer_bytes // 2, 1)
        self._held: OrderedDict[int, _Held] = OrderedDict()
        self._held_keys: set[tuple[int, int]] = set()  # (trace id, span id) of the held runs
        self._held_bytes = 0
        self._next = 0
        self.markers: frozenset[str] = frozenset().union(*(c.markers for c in pipeline.conventions))
        self._seen = TraceIdFilter()  # traces with a span in the pipeline
        # The store's evicted-trace memory and its `holds`, fixed for its life: asked per trace.
        self._evicted = store.evicted
        self._holds = store.holds
        # With a judge: the runs handed to its tier, in scoring order, at most as many as it
        # admits at once (so the tier's own wait, not this queue, holds the reading back).
        tier = pipeline.judges
        self._judging: deque[_Judged] | None = None if tier is None else deque()
        self._window = (
            0 if tier is None else tier.settings.max_concurrency + tier.settings.max_pending
        )

    def feed(self, source: str, request: ExportTraceServiceRequest | JsonRequest) -> None:
        """Read one stored request: evidence into the pipeline now, run spans held."""
        if isinstance(request, JsonRequest):
            self._feed_json(source, request)
            return
        self.summary.records += 1
        pipeline = self.pipeline
        for resource_spans in request.resource_spans:
            resource = AttributeMap(resource_spans.resource.attributes)
            owned: Resource | None = None  # the held runs' own copy, shared by them
            for scope_spans in resource_spans.scope_spans:
                held: list[int] = []
                for index, span in enumerate(scope_spans.spans):
                    self.summary.spans += 1
                    view = span_view(span, resource)
                    self._check_evicted(view.trace_id)
                    if self.markers.isdisjoint(view.attributes):
                        pipeline.observe(view, None)  # its parent link only
                        self._seen.add(view.trace_id)
                        continue
                    reading = pipeline.read(view)
                    if reading is not None and reading.role == RUN:
                        held.append(index)
                        if self._duplicate(view):
                            self.summary.duplicate_runs += 1
                            continue
                        if owned is None:
                            owned = Resource()
                            owned.CopyFrom(resource_spans.resource)
                        self._hold(source, span, reading, owned, resource_spans, scope_spans)
                        continue
                    enrichment = pipeline.observe(view, reading)
                    self._seen.add(view.trace_id)
                    if enrichment is not None and self._on_spans is not None:
                        apply_enrichment(span, enrichment)
                if self._on_spans is not None:
                    for index in reversed(held):
                        del scope_spans.spans[index]
        if self._on_spans is not None:
            self._on_spans(request)

    def _duplicate(self, view: SpanView) -> bool:
        """Whether this run span was read already (held now, or recently graded)."""
        return (view.trace_id, view.span_id) in self._held_keys or self.pipeline.graded_before(
            view
        )

    def _feed_json(self, source: str, request: JsonRequest) -> None:
        """`feed` for a request read from OTLP/JSON (`jsonspans`): the same calls, in the same
        order, on its links and span views, but the parent links of consecutive spans of no
        interest of one trace go to the store in one call (`UnorderedStore.link`), without
        the pipeline: nothing of them is read but their ids. A trace's eviction check and its
        mark as seen are not repeated for the next spans of the same trace: nothing between
        them can change the answer (the trace just observed is the store's newest, never the
        one evicted), unless a run held released another one early (scoring it may free
        state)."""
        summary = self.summary
        summary.records += 1
        summary.spans += request.spans
        pipeline = self.pipeline
        link = self._store.link
        seen_filter = self._seen
        checked = seen = None  # the trace checked for eviction, the trace marked as seen
        linking = -1  # the trace whose links wait in `links` (no trace id is negative)
        links: list[tuple[int, int | None]] = []
        for item in request.items:
            if not isinstance(item, JsonSpan):  # a span of no interest: its parent link
                trace_id, span_id, parent_id = item
                if trace_id != linking:
                    if links:
                        link(linking, links)
                        links = []
                    linking = trace_id
                    if trace_id != checked:
                        self._check_evicted(trace_id)
                        checked = trace_id
                links.append((span_id, parent_id))
            else:
                if links:
                    link(linking, links)
                    links = []
                linking = -1
                view = item.view
                trace_id = view.trace_id
                if trace_id != checked:
                    self._check_evicted(trace_id)
                    checked = trace_id
                reading = pipeline.read(view)
                if reading is not None and reading.role == RUN:
                    if self._duplicate(view):
                        summary.duplicate_runs += 1
                        continue
                    released = summary.runs_released_early
                    self._keep(_Held(
                        source, None, item.end_time(),
                        view._replace(local_root=view.parent_id is None), reading,
                        _UNWRITTEN_RESOURCE, "", _UNWRITTEN_SCOPE, "", item.byte_size(),
                    ))
                    if summary.runs_released_early != released:
                        checked = seen = None
                    continue
                pipeline.observe(view, reading)
            if trace_id != seen:
                seen_filter.add(trace_id)
                seen = trace_id
        if links:
            link(linking, links)

    def _check_evicted(self, trace_id: int) -> bool:
        """Whether this trace's state was evicted (it went into the pipeline and is gone)."""
        if trace_id in self._evicted:
            return True
        if not self._holds(trace_id) and trace_id in self._seen:
            self._store.mark_lost((trace_id,))
            return True
        return False

    def _hold(
        self, source: str, span: Span, reading: SpanReading, resource: Resource,
        resource_spans: ResourceSpans, scope_spans: Any,
    ) -> None:
        """Keep a run span (copied: the request it came in is not kept) until it is scored."""
        own = Span()
        own.CopyFrom(span)
        scope = InstrumentationScope()
        scope.CopyFrom(scope_spans.scope)
        # A root run ends its trace: once scored, the trace's state is released (not evicted).
        view = span_view(own, AttributeMap(resource.attributes))
        view = view._replace(local_root=view.parent_id is None)
        held = _Held(
            source, own, own.end_time_unix_nano, view, reading, resource,
            resource_spans.schema_url, scope, scope_spans.schema_url, own.ByteSize(),
        )
        self._keep(held)

    def _keep(self, held: _Held) -> None:
        """Hold a run until the end; over the hold's budget, score the one held longest."""
        self._held[self._next] = held
        self._held_keys.add((held.view.trace_id, held.view.span_id))
        self._next += 1
        self._held_bytes += held.size
        while len(self._held) > self.max_held_runs or (
            self._held_bytes > self.max_held_bytes and len(self._held) > 1
        ):
            _, oldest = self._held.popitem(last=False)
            self._held_keys.discard((oldest.view.trace_id, oldest.view.span_id))
            self._held_bytes -= oldest.size
            self.summary.runs_released_early += 1
            self._score(oldest, released_early=True)

    def finish(self) -> Summary:
        """Score every held run (inner runs first) and report the last judged ones."""
        held = sorted(self._held.values(), key=lambda h: h.end_time)
        self._held.clear()
        self._held_keys.clear()
        self._held_bytes = 0
        for item in held:
            self._score(item, released_early=False)
        if self._judging is not None:
            self._drain(0)
        return self.summary

    def _score(self, held: _Held, *, released_early: bool) -> None:
        view, reading, pipeline = held.view, held.reading, self.pipeline
        evicted = self._check_evicted(view.trace_id)  # no rate, `partial`, never flagged
        if self._judging is None:
            self._report(held, released_early, (
                pipeline.refuse_run(view, reading, attr.REASON_EVIDENCE_EVICTED) if evicted
                else pipeline.grade_run(view, reading)
            ))
            return
        slot = self._enqueue(held, released_early)
        if evicted:
            slot.deliver(pipeline.refuse_run(view, reading, attr.REASON_EVIDENCE_EVICTED))
        else:
            pipeline.begin_run(view, reading)
            pipeline.finish_run_later(view, reading, slot.deliver, wait=True)
        self._drain(self._window)

    def _enqueue(self, held: _Held, released_early: bool) -> _Judged:
        """A run handed to the judge tier takes its place in the order runs are reported in
        (and counts as held until reported: a copy of it read meanwhile is a duplicate)."""
        assert self._judging is not None
        slot = _Judged(held, released_early)
        self._judging.append(slot)
        self._held_keys.add((held.view.trace_id, held.view.span_id))
        return slot

    def _drain(self, keep: int) -> None:
        """Report the judged runs in the order they were scored: every settled one at the
        head, and wait for the head while more than `keep` are in flight (the tier settles
        every run within `judge_timeout`, so this wait is bounded)."""
        judging = self._judging
        assert judging is not None
        while judging and (judging[0].settled.is_set() or len(judging) > keep):
            slot = judging.popleft()
            slot.settled.wait()
            self._held_keys.discard((slot.held.view.trace_id, slot.held.view.span_id))
            self._report(slot.held, slot.released_early, slot.enrichment)

    def _report(
        self, held: _Held, released_early: bool, enrichment: Enrichment | None
    ) -> None:
        """A graded run: written back (`--format otlp`), counted, and handed to `on_run`."""
        view = held.view
        previous_rate = view.attributes.get(attr.RATE)
        previous_grade = view.attributes.get(attr.GRADE)
        if self._on_spans is not None:  # every run span leaves once, enriched or not
            self._write_run(held, enrichment)
        if enrichment is None:  # an inner run of the same agent was graded: this one is not
            return
        events = enrichment.events
        run = ScoredRun.read(
            view.name, view.trace_id, view.span_id, enrichment.attributes,
            [(event.name, event.attributes) for event in events] if events else (),
        )
        if run is None:
            return
        summary = self.summary
        summary.runs += 1
        summary.flagged += run.flagged
        if run.judge is not None:
            summary.judge_flagged += run.judge_flagged
            outcomes = summary.judge_outcomes
            outcomes[run.judge.outcome] = outcomes.get(run.judge.outcome, 0) + 1
        summary.grades[run.grade] = summary.grades.get(run.grade, 0) + 1
        summary.runs_with_evicted_evidence += attr.REASON_EVIDENCE_EVICTED in run.reasons
        service = _str(view.resource.get(SERVICE_NAME))
        self._on_run(
            RescoredRun(
                held.source,
                service,
                run,
                previous_rate=float(previous_rate) if isinstance(previous_rate, (int, float))
                else None,
                previous_grade=previous_grade if isinstance(previous_grade, str) else None,
                released_early=released_early,
            )
        )

    def _write_run(self, held: _Held, enrichment: Enrichment | None) -> None:
        span = held.span
        assert span is not None, "a run read from OTLP/JSON is never written"
        if enrichment is not None:
            _forget_previous(span)
            apply_enrichment(span, enrichment)
        request = ExportTraceServiceRequest()
        resource_spans = request.resource_spans.add(schema_url=held.resource_schema)
        resource_spans.resource.CopyFrom(held.resource)
        scope_spans = resource_spans.scope_spans.add(schema_url=held.scope_schema)
        scope_spans.scope.CopyFrom(held.scope)
        scope_spans.spans.append(span)
        assert self._on_spans is not None
        self._on_spans(request)


#: How much of a file's beginning is read to tell what it is when its first record is bad.
SNIFF_BYTES = 64 * 1024
#: What the SDK's `ConsoleSpanExporter` prints for each span (indented JSON, ids as 0x hex):
#: often taken for "the SDK's JSON", it is a debugging print, not OTLP.
_CONSOLE_EXPORTER_MARKS = (b'"context": {', b'"trace_id": "0x', b'"span_id": "0x')
READABLE_FORMATS = (
    "OTLP/JSON lines (the Collector's file exporter), an OTLP/JSON document, Jaeger's "
    "/api/v3 JSON, OTLP protobuf (one request, or length-prefixed), or gzip of any"
)


def _head(path: str) -> bytes | None:
    """The first `SNIFF_BYTES` of a file (unzipped when gzip), or None when it cannot be read."""
    try:
        with open(path, "rb") as raw:
            head = raw.read(SNIFF_BYTES)
        if head[:2] == GZIP_MAGIC:
            with gzip.open(path, "rb") as unzipped:
                head = unzipped.read(SNIFF_BYTES)
    except (OSError, EOFError):
        return None
    return head


def not_a_trace_file(path: str) -> str | None:
    """What a file whose first record cannot be read is, when it is plainly not a trace file
    (said once, instead of one message per record), or None (report its records one by one).

    The `ConsoleSpanExporter`'s output is named with what to use instead; a file that is not
    JSON and whose first record is not OTLP protobuf is not a trace file (its bytes read as a
    protobuf framing give nonsense, such as a message of billions of bytes).
    """
    head = _head(path)
    if head is None:
        return None
    if all(mark in head for mark in _CONSOLE_EXPORTER_MARKS):
        return (
            "this is the SDK's ConsoleSpanExporter output (a debugging print, not OTLP): "
            "store traces with an OTLP exporter instead, e.g. the Collector's file exporter "
            "(OTLP/JSON lines) or OTLPSpanExporter's request bodies"
        )
    if head[:1] and head[:1] not in JSON_STARTS and head[:1] != bytes([REQUEST_TAG]):
        return f"not a trace file: score-traces reads {READABLE_FORMATS}"
    return None


#: What a JSON file that is no OTLP holds, told by the keys it starts with.
_JAEGER_V1_MARKS = (b'"traceID"', b'"operationName"')
_RUN_FILE_MARKS = (b'"output"',)
_OTLP_MARKS = (b'"resourceSpans"', b'"resource_spans"')


def json_without_spans(path: str) -> str | None:
    """What a file that was read as JSON without a single span is, when it is plainly not
    OTLP (its records parse, but hold no `resourceSpans`), or None."""
    head = _head(path)
    if head is None:
        return None
    if any(mark in head for mark in _OTLP_MARKS):
        return None
    if all(mark in head for mark in _JAEGER_V1_MARKS):
        return (
            "Jaeger's /api/traces JSON (its own model, not OTLP): fetch the traces from "
            "Jaeger's /api/v3/traces/{trace_id} instead, which answers OTLP/JSON"
        )
    if all(mark in head for mark in _RUN_FILE_MARKS):
        return "JSON without resourceSpans (a run as `otel-grounding score` reads it?)"
    return f"JSON without resourceSpans: not a trace file; score-traces reads {READABLE_FORMATS}"


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


_PREVIOUS_EVENTS = frozenset({attr.FLAGGED_EVENT, attr.CLAIM_EVENT})


def _forget_previous(span: Span) -> None:
    """Drop an earlier scoring's attributes and events: the new enrichment replaces them all."""
    kept: list[KeyValue] = [kv for kv in span.attributes if not kv.key.startswith(attr.PREFIX)]
    if len(kept) != len(span.attributes):
        del span.attributes[:]
        span.attributes.extend(kept)
    events = [event for event in span.events if event.name not in _PREVIOUS_EVENTS]
    if len(events) != len(span.events):
        del span.events[:]
        span.events.extend(events)


#: Stored traces do not age: their state is kept until scored or evicted by a budget.
NO_RETENTION_LIMIT_S = 10.0 * 365 * 24 * 3600


def rescore(
    paths: Sequence[str],
    settings: GroundingSettings,
    on_run: Callable[[RescoredRun], None],
    on_bad: Callable[[BadRecord], None],
    on_spans: SpanSink | None = None,
    *,
    json_views: bool = True,
    judge: Judge | None = None,
) -> Summary:
    """Re-score every trace in these files (any order) with these settings; the summary.

    The judge the settings name (or `judge`, an object) judges every run through the judge
    tier as on a span, with its admission waiting for room instead of declining; runs are
    reported in the order they were scored.

    `json_views=False` reads OTLP/JSON through protobuf, as before `jsonspans` (the reference
    the parity test and the benchmark compare against).

    The results are the runs and the summary: no metrics are exported and no evaluation
    events emitted (the SDK's per-run recordings would cost more than the reading); the
    evictions the summary reports are the pipeline's own in-process count."""
    if judge is None and settings.judge.name is not None:
        judge = load_judge(settings.judge.name, settings.judge)
    store = UnorderedStore.from_settings(settings, NO_RETENTION_LIMIT_S)
    pipeline = GroundingPipeline(
        settings, meter_provider=NoOpMeterProvider(), logger_provider=NoOpLoggerProvider(),
        store=store, judge=judge,
    )
    traces = StoredTraces(pipeline, store, on_run, on_spans)
    try:
        for path in paths:
            traces.summary.files += 1
            read_any = False
            spans_before = traces.summary.spans
            markers = None if on_spans else traces.markers
            for item in read_records(path, markers, json_views=json_views):
                if isinstance(item, BadRecord):
                    traces.summary.bad_records += 1
                    diagnosis = None if read_any else not_a_trace_file(path)
                    on_bad(item if diagnosis is None else BadRecord(path, diagnosis))
                    if diagnosis is not None:
                        break  # one line for the file, not one per record
                else:
                    read_any = True
                    traces.feed(*item)
            if read_any and traces.summary.spans == spans_before:
                spanless = json_without_spans(path)
                if spanless is not None:
                    traces.summary.bad_records += 1
                    on_bad(BadRecord(path, spanless))
        summary = traces.finish()
        summary.traces_evicted = pipeline.metrics.traces_evicted.total()
        return summary
    finally:
        pipeline.shutdown_judges(settings.judge.timeout)
        pipeline.close()


