"""The relay's shell: a decoded OTLP request in, spans queued (run spans held back) out.

For each accepted request:

- every span's parent link is remembered (a trace's spans arrive in any order, in different
  requests, from different services: an intermediate span may come before any tool span);
- spans of no interest are forwarded at once;
- tool and LLM steps go through the pipeline at once (their outputs wait for their run) and
  are forwarded at once;
- run spans are held `wait_duration` after they arrive, for late evidence, then go through the
  same pipeline as in the SDK shells; the enrichment is written onto the protobuf span (or
  appended to its bytes when it only adds) and the span is queued for export. A run scored
  while declared tool steps are still missing is graded `partial` (`tool-steps-missing`).

Conventions declare marker attribute keys; the request's raw bytes are searched for them
(bytes.find) and only the spans holding one are decoded further. A request without a run span
(and without content to strip) is forwarded as received, byte for byte: no re-encoding.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import operator
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_grounding import attributes as attr
from otel_grounding.conventions import RUN, Convention, NativeConvention, SpanReading
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.relay.otlp import (
    AttributeMap,
    apply_enrichment,
    count_spans,
    enrichment_suffix,
    span_view,
    wrap_spans,
)
from otel_grounding.relay.queue import Chunk, DeliveryQueue
from otel_grounding.relay.telemetry import (
    LABEL_REASON,
    LABEL_TRANSPORT,
    REFUSED_DRAINING,
    REFUSED_QUEUE_FULL,
    REFUSED_TOO_LARGE,
    RelayMetrics,
)
from otel_grounding.spanview import SpanView

logger = logging.getLogger("otel_grounding.relay")

#: Bytes every span a convention can recognise must contain (in its own serialized form).
#: A convention may declare its own as a `markers` attribute; without markers for every
#: configured convention, every span is read (correct, slower).
KNOWN_MARKERS: dict[type, tuple[bytes, ...]] = {NativeConvention: (b"ferrumdeck.",)}


def convention_markers(conventions: Sequence[Convention]) -> tuple[bytes, ...] | None:
    """The byte strings to search a request for: every convention's marker keys, those of
    one namespace merged into their shared prefix (`ferrumdeck.` for the three native keys:
    fewer passes over the bytes, a few more candidates). None when a convention has none."""
    markers: list[bytes] = []
    for convention in conventions:
        own = getattr(convention, "markers", None)
        if own is None:
            own = KNOWN_MARKERS.get(type(convention))
        if own is None:
            return None
        markers.extend(m.encode() if isinstance(m, str) else bytes(m) for m in own)
    by_prefix: dict[bytes, list[bytes]] = {}
    for marker in dict.fromkeys(markers):
        head, dot, _ = marker.partition(b".")
        by_prefix.setdefault(head + dot if dot and len(head) >= 4 else marker, []).append(marker)
    return tuple(prefix if len(group) > 1 else group[0] for prefix, group in by_prefix.items())


@dataclass(frozen=True)
class Verdict:
    """Accepted, or refused with a reason (see telemetry.REFUSED_*) and a message."""

    accepted: bool
    reason: str | None = None
    message: str = ""
    retry_after: float | None = None


ACCEPTED = Verdict(True)


class _Group:
    """The resource and scope a held run span came with (serialized, shared per request)."""

    __slots__ = ("resource", "resource_bytes", "resource_schema", "scope_bytes", "scope_schema")

    def __init__(self, rs: Any, ss: Any) -> None:
        self.resource = _copy(Resource, rs.resource)
        self.resource_bytes = rs.resource.SerializeToString()
        self.resource_schema = rs.schema_url
        self.scope_bytes = ss.scope.SerializeToString()
        self.scope_schema = ss.schema_url

    def key(self) -> tuple[bytes, str, bytes, str]:
        return (self.resource_bytes, self.resource_schema, self.scope_bytes, self.scope_schema)


class _Held:
    """A run span held back for late evidence: its bytes, decoded copy, reading and group."""

    __slots__ = ("deadline", "seq", "data", "span", "reading", "group", "view")

    def __init__(
        self, deadline: float, seq: int, data: bytes, reading: SpanReading, group: _Group
    ) -> None:
        self.deadline = deadline
        self.seq = seq
        self.data = data
        self.span = Span.FromString(data)
        self.reading = reading
        self.group = group
        self.view: SpanView = span_view(self.span, AttributeMap(group.resource.attributes))

    @property
    def size(self) -> int:
        return len(self.data)

    def __lt__(self, other: _Held) -> bool:
        return (self.deadline, self.seq) < (other.deadline, other.seq)


class GroundingRelay:
    """Ingest decoded requests into the delivery queue through the grounding pipeline."""

    def __init__(
        self,
        pipeline: GroundingPipeline,
        queue: DeliveryQueue,
        metrics: RelayMetrics | None = None,
        *,
        wait_duration: float,
        passthrough: bool = False,
        retry_after: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pipeline = pipeline
        self.queue = queue
        self.metrics = metrics
        self.wait_duration = wait_duration
        self.passthrough = passthrough
        self.retry_after = retry_after
        self._clock = clock
        self._markers = convention_markers(pipeline.conventions)
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._heap: list[_Held] = []
        self._flush = False
        self._stopped = False
        self._draining = False
        self._thread = threading.Thread(target=self._hold_loop, name="relay-holder", daemon=True)

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    @property
    def draining(self) -> bool:
        return self._draining

    @property
    def runs_held(self) -> int:
        return len(self._heap)

    def stop_accepting(self) -> None:
        """Refuse every further request (SIGTERM); what was accepted is still delivered."""
        self._draining = True

    def drain(self, timeout: float = 10.0) -> None:
        """Score every held run now (with the evidence that arrived) and queue it."""
        self._draining = True
        with self._cond:
            self._flush = True
            self._stopped = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
        with self._cond:  # anything a request still in flight added, or never started
            due = self._pop_due(flush=True)
        self._release(due)

    # -- intake -----------------------------------------------------------------------------
    def ingest(
        self, request: ExportTraceServiceRequest, raw: bytes | None, transport: str
    ) -> Verdict:
        """Accept a decoded request into the queue, or refuse it; never raises.

        `raw` is the request's protobuf bytes as received (None for JSON): forwarded as is
        when nothing in the request needs changing.
        """
        started = time.perf_counter()
        spans = count_spans(request)
        size = len(raw) if raw is not None else request.ByteSize()
        if self._draining:
            return self._refuse(REFUSED_DRAINING, spans, "the relay is shutting down")
        if spans == 0:
            return ACCEPTED
        if spans > self.queue.max_spans or size > self.queue.max_bytes:
            return self._refuse(
                REFUSED_TOO_LARGE,
                spans,
                f"request of {spans} spans / {size} bytes exceeds the queue capacity "
                f"({self.queue.max_spans} spans / {self.queue.max_bytes} bytes)",
            )
        if not self.queue.reserve(spans, size):
            return self._refuse(
                REFUSED_QUEUE_FULL, spans, "queue full, retry later", retry_after=self.retry_after
            )
        try:
            data, forwarded, held = self._split(request, raw, spans)
        except Exception:  # never lose an accepted span: forward the request unchanged
            logger.exception("relay: a request could not be processed; forwarded unchanged")
            data = raw if raw is not None else request.SerializeToString()
            forwarded, held = spans, []
        held_bytes = sum(h.size for h in held)
        self.queue.adjust(0, (len(data) if forwarded else 0) + held_bytes - size)
        if forwarded:
            self.queue.put(Chunk(data, forwarded))
        if held:
            with self._cond:
                late = self._stopped  # drained already: release now rather than never
                if not late:
                    for item in held:
                        heapq.heappush(self._heap, item)
                    self._cond.notify()
            if late:
                self._release(held)
        if self.metrics is not None:
            self.metrics.spans_received.add(spans, {LABEL_TRANSPORT: transport})
            self.metrics.request_duration.record(time.perf_counter() - started)
        return ACCEPTED

    def _refuse(
        self, reason: str, spans: int, message: str, retry_after: float | None = None
    ) -> Verdict:
        if self.metrics is not None:
            self.metrics.requests_refused.add(1, {LABEL_REASON: reason})
            if spans:
                self.metrics.spans_refused.add(spans, {LABEL_REASON: reason})
        return Verdict(False, reason, message, retry_after)

    def _split(
        self, request: ExportTraceServiceRequest, raw: bytes | None, spans: int
    ) -> tuple[bytes, int, list[_Held]]:
        """(bytes to forward now, their span count, run spans to hold)."""
        if self.passthrough:
            return request.SerializeToString(), spans, []
        if raw is None:  # OTLP/JSON: forwarded as protobuf, so encode it once here
            raw = request.SerializeToString()
        candidates = self._candidates(request, raw)
        if not candidates:  # the common case: nothing to read, forward as received
            return raw, spans, []
        pipeline = self.pipeline
        held: list[_Held] = []
        changed = False
        now = self._clock()
        removals: list[tuple[Any, int]] = []
        resources: dict[int, AttributeMap] = {}
        groups: dict[tuple[int, int], _Group] = {}
        for rs, ss, index, span in candidates:
            resource_map = resources.get(id(rs))
            if resource_map is None:
                resource_map = resources[id(rs)] = AttributeMap(rs.resource.attributes)
            view = span_view(span, resource_map)
            reading = pipeline.read(view)
            if reading is None:
                continue
            if reading.role == RUN:
                if attr.GRADE in view.attributes:
                    continue  # enriched by an earlier hop: forwarded as it is
                group = groups.get((id(rs), id(ss)))
                if group is None:
                    group = groups[(id(rs), id(ss))] = _Group(rs, ss)
                held.append(_Held(now + self.wait_duration, next(self._seq),
                                  span.SerializeToString(), reading, group))
                removals.append((ss, index))
                continue
            enrichment = pipeline.process(view, reading=reading)
            if enrichment is not None:
                apply_enrichment(span, enrichment)
                changed = True
        if removals:
            for ss, index in sorted(removals, key=lambda r: (id(r[0]), -r[1])):
                del ss.spans[index]
            _prune_empty(request)
            changed = True
        if not changed:
            return raw, spans, held
        return request.SerializeToString(), spans - len(held), held

    def _candidates(
        self, request: ExportTraceServiceRequest, raw: bytes
    ) -> list[tuple[Any, Any, int, Span]]:
        """The spans a convention may read; remembers every span's parent link on the way.

        Without markers every span is a candidate. With markers, their occurrences are found
        in the raw bytes (bytes.find, C speed) and each is attributed to the span whose
        encoding precedes it (`0a 10 <trace id> 12 08 <span id>`: every OTLP encoder writes
        fields 1 and 2 first). The attribution is checked: the candidates' own encodings must
        hold every occurrence, else every span's encoding is searched (correct whatever the
        encoder, slower).
        """
        markers = self._markers
        positions = _find_all(raw, markers) if markers is not None else []
        located = _locate(raw, positions) if positions else None
        everything = markers is None
        links: dict[bytes, list[tuple[int, int]]] = {}
        candidates: list[tuple[Any, Any, int, Span]] = []
        for rs in request.resource_spans:
            for ss in rs.scope_spans:
                # Ids are read with C-level map() over the span list (one wrapper per span):
                # measured about 10% cheaper than one Python loop iteration per span.
                spans = list(ss.spans)
                span_ids = list(map(_SPAN_ID, spans))
                if everything or located:
                    candidates.extend(
                        (rs, ss, index, spans[index])
                        for index, span_id in enumerate(span_ids)
                        if everything or span_id in located  # type: ignore[operator]
                    )
                pairs = list(zip(map(_int, span_ids), map(_int, map(_PARENT_ID, spans))))
                start = 0
                for trace_id, run in itertools.groupby(map(_TRACE_ID, spans)):
                    end = start + len(list(run))  # spans of one trace usually come together
                    links.setdefault(trace_id, []).extend(pairs[start:end])
                    start = end
        self.pipeline.assembly.remember_links(
            {_int(trace_id): pairs for trace_id, pairs in links.items()}
        )
        if positions and markers is not None:
            found = sum(_count(c[3].SerializeToString(), markers) for c in candidates)
            if located is None or found != len(positions):  # attribution failed: search all
                candidates = []
                for rs in request.resource_spans:
                    for ss in rs.scope_spans:
                        for index, span in enumerate(ss.spans):
                            data = span.SerializeToString()
                            if any(m in data for m in markers):
                                candidates.append((rs, ss, index, span))
        return candidates

    # -- held runs --------------------------------------------------------------------------
    def _pop_due(self, flush: bool) -> list[_Held]:
        now = self._clock()
        due = []
        while self._heap and (flush or self._heap[0].deadline <= now):
            due.append(heapq.heappop(self._heap))
        return due

    def _hold_loop(self) -> None:
        next_expire = self._clock() + 1.0
        while True:
            with self._cond:
                while not self._flush and not self._stopped:
                    now = self._clock()
                    wake = next_expire
                    if self._heap:
                        wake = min(wake, self._heap[0].deadline)
                    if wake <= now:
                        break
                    self._cond.wait(wake - now)
                due = self._pop_due(self._flush)
                stop = self._stopped
            if due:
                self._release(due)
            if self._clock() >= next_expire:
                next_expire = self._clock() + 1.0
                self.pipeline.expire()
            if stop:
                return

    def _release(self, due: list[_Held]) -> None:
        """Score held runs (inner runs first: in end-time order) and queue them, one chunk per
        resource and scope. An enrichment that only adds is appended to the span's bytes."""
        due.sort(key=lambda h: h.span.end_time_unix_nano)
        chunks: dict[tuple[bytes, str, bytes, str], list[bytes]] = {}
        reserved = 0
        for item in due:
            reserved += item.size
            data = item.data
            try:
                enrichment = self.pipeline.process(item.view, reading=item.reading)
                if enrichment is not None:
                    attributes = item.view.attributes
                    if enrichment.remove or any(k in attributes for k in enrichment.attributes):
                        apply_enrichment(item.span, enrichment)
                        data = item.span.SerializeToString()
                    else:
                        data = data + enrichment_suffix(enrichment, item.span.end_time_unix_nano)
            except Exception:
                logger.exception("relay: a run span could not be enriched; forwarded unchanged")
                data = item.data
            chunks.setdefault(item.group.key(), []).append(data)
        size = 0
        built = []
        for (resource, resource_schema, scope, scope_schema), spans in chunks.items():
            chunk = Chunk(wrap_spans(resource, resource_schema, scope, scope_schema, spans),
                          len(spans))
            size += chunk.size
            built.append(chunk)
        self.queue.adjust(0, size - reserved)
        for chunk in built:
            self.queue.put(chunk)


#: bytes -> int, big-endian (the default byte order from Python 3.11 on: no partial needed).
_int = int.from_bytes if sys.version_info >= (3, 11) else functools.partial(
    int.from_bytes, byteorder="big"
)

_TRACE_ID = operator.attrgetter("trace_id")
_SPAN_ID = operator.attrgetter("span_id")
_PARENT_ID = operator.attrgetter("parent_span_id")


def _find_all(raw: bytes, markers: tuple[bytes, ...]) -> list[int]:
    """Offsets of every (non-overlapping) occurrence of each marker; bytes.find per marker is
    tens of times faster than one regex alternation."""
    positions = []
    for marker in markers:
        at = raw.find(marker)
        while at >= 0:
            positions.append(at)
            at = raw.find(marker, at + len(marker))
    return positions


def _count(data: bytes, markers: tuple[bytes, ...]) -> int:
    return sum(data.count(marker) for marker in markers)


#: A span's encoding starts with its trace id then its span id (fields 1 and 2).
_SPAN_HEAD = b"\x0a\x10"


def _locate(raw: bytes, positions: list[int]) -> dict[bytes, bytes] | None:
    """{span id: trace id} of the spans whose encodings precede the given offsets; None when
    an offset cannot be attributed (then every span is searched instead)."""
    located: dict[bytes, bytes] = {}
    for position in positions:
        head = position
        while True:
            head = raw.rfind(_SPAN_HEAD, 0, head)
            if head < 0:
                return None
            if raw[head + 18 : head + 20] == b"\x12\x08":
                break
        located[raw[head + 20 : head + 28]] = raw[head + 2 : head + 18]
    return located


def _copy(cls: type, message: object) -> object:
    copy = cls()
    copy.CopyFrom(message)
    return copy


def _prune_empty(request: ExportTraceServiceRequest) -> None:
    """Drop scope and resource groups left without spans once run spans were held back."""
    for rs in request.resource_spans:
        for j in reversed(range(len(rs.scope_spans))):
            if not rs.scope_spans[j].spans:
                del rs.scope_spans[j]
    for i in reversed(range(len(request.resource_spans))):
        if not request.resource_spans[i].scope_spans:
            del request.resource_spans[i]
