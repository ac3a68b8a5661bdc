"""The relay's shell: a decoded OTLP request in, spans queued (run spans held back) out.

For each accepted request:

- spans of no interest are forwarded at once; their parent links are remembered (the trace's
  spans arrive in any order, in different requests, from different services);
- tool and LLM steps go through the pipeline at once (their outputs wait for their run) and
  are forwarded at once;
- run spans are held `wait_duration` after they arrive, for late evidence, then go through the
  same pipeline as in the SDK shells; the enrichment is applied onto the protobuf span and the
  span is queued for export. A run scored while declared tool steps are still missing is
  graded `partial` by the pipeline (`tool-steps-missing`).

A request whose serialized bytes contain no convention marker (`ferrumdeck.` for the native
convention) is forwarded as received, byte for byte, after its links are remembered: most
requests never pay for attribute decoding or re-encoding.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_grounding import attributes as attr
from otel_grounding.conventions import RUN, Convention, NativeConvention, SpanReading
from otel_grounding.pipeline import GroundingPipeline
from otel_grounding.relay.otlp import AttributeMap, apply_enrichment, count_spans, span_view
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
    markers: list[bytes] = []
    for convention in conventions:
        own = getattr(convention, "markers", None)
        if own is None:
            own = KNOWN_MARKERS.get(type(convention))
        if own is None:
            return None
        markers.extend(m.encode() if isinstance(m, str) else m for m in own)
    return tuple(markers)


@dataclass(frozen=True)
class Verdict:
    """Accepted, or refused with a reason (see telemetry.REFUSED_*) and a message."""

    accepted: bool
    reason: str | None = None
    message: str = ""
    retry_after: float | None = None


ACCEPTED = Verdict(True)


class _Held:
    """A run span held back for late evidence, with copies of its resource and scope."""

    __slots__ = ("deadline", "seq", "span", "reading", "resource", "resource_schema", "scope",
                 "scope_schema", "size", "view")

    def __init__(
        self,
        deadline: float,
        seq: int,
        span: Span,
        reading: SpanReading,
        resource: tuple[Resource, str],
        scope: tuple[InstrumentationScope, str],
    ) -> None:
        self.deadline = deadline
        self.seq = seq
        self.span = span
        self.reading = reading
        self.resource, self.resource_schema = resource
        self.scope, self.scope_schema = scope
        self.size = span.ByteSize()
        self.view: SpanView = span_view(span, AttributeMap(self.resource.attributes))

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
        markers = self._markers
        links: dict[int, list[tuple[int, int | None]]] = {}
        if raw is not None and markers is not None and not any(m in raw for m in markers):
            self._remember_links(request, links)
            return raw, spans, []
        pipeline = self.pipeline
        held: list[_Held] = []
        changed = False
        now = self._clock()
        for rs in request.resource_spans:
            resource_map: AttributeMap | None = None
            resource_copy: tuple[Resource, str] | None = None
            for ss in rs.scope_spans:
                removals: list[int] = []
                scope_copy: tuple[InstrumentationScope, str] | None = None
                for index, span in enumerate(ss.spans):
                    if markers is not None:
                        serialized = span.SerializeToString()
                        if not any(m in serialized for m in markers):
                            _link(links, span)
                            continue
                    if resource_map is None:
                        resource_map = AttributeMap(rs.resource.attributes)
                    view = span_view(span, resource_map)
                    reading = pipeline.read(view)
                    if reading is None:
                        links.setdefault(view.trace_id, []).append((view.span_id, view.parent_id))
                        continue
                    if reading.role == RUN:
                        links.setdefault(view.trace_id, []).append((view.span_id, view.parent_id))
                        if attr.GRADE in view.attributes:
                            continue  # enriched by an earlier hop: forwarded as it is
                        if resource_copy is None:
                            resource_copy = (_copy(Resource, rs.resource), rs.schema_url)
                        if scope_copy is None:
                            scope_copy = (_copy(InstrumentationScope, ss.scope), ss.schema_url)
                        held.append(
                            _Held(
                                now + self.wait_duration,
                                next(self._seq),
                                _copy(Span, span),
                                reading,
                                resource_copy,
                                scope_copy,
                            )
                        )
                        removals.append(index)
                        continue
                    enrichment = pipeline.process(view, reading=reading)
                    if enrichment is not None:
                        apply_enrichment(span, enrichment)
                        changed = True
                for index in reversed(removals):
                    del ss.spans[index]
                changed = changed or bool(removals)
        if links:
            pipeline.assembly.remember_links(links)
        if held:
            _prune_empty(request)
        if not changed and raw is not None:
            return raw, spans, held
        return request.SerializeToString(), spans - len(held), held

    def _remember_links(
        self, request: ExportTraceServiceRequest, links: dict[int, list[tuple[int, int | None]]]
    ) -> None:
        for rs in request.resource_spans:
            for ss in rs.scope_spans:
                for span in ss.spans:
                    _link(links, span)
        if links:
            self.pipeline.assembly.remember_links(links)

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
        """Score held runs (inner runs first: in end-time order) and queue them."""
        due.sort(key=lambda h: h.span.end_time_unix_nano)
        for item in due:
            try:
                enrichment = self.pipeline.process(item.view, reading=item.reading)
                if enrichment is not None:
                    apply_enrichment(item.span, enrichment)
            except Exception:
                logger.exception("relay: a run span could not be enriched; forwarded unchanged")
            request = ExportTraceServiceRequest()
            rs = request.resource_spans.add(schema_url=item.resource_schema)
            rs.resource.CopyFrom(item.resource)
            ss = rs.scope_spans.add(schema_url=item.scope_schema)
            ss.scope.CopyFrom(item.scope)
            ss.spans.append(item.span)
            data = request.SerializeToString()
            self.queue.adjust(0, len(data) - item.size)
            self.queue.put(Chunk(data, 1))


def _link(links: dict[int, list[tuple[int, int | None]]], span: Span) -> None:
    parent = span.parent_span_id
    links.setdefault(int.from_bytes(span.trace_id, "big"), []).append(
        (int.from_bytes(span.span_id, "big"), int.from_bytes(parent, "big") if parent else None)
    )


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
