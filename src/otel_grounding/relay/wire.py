"""OTLP trace requests at the protobuf wire level: where each span's bytes lie, and edits.

The relay decodes every request once (that is its validation), but reads and rewrites only
the few spans a convention cares about. `Layout` walks a serialized
`ExportTraceServiceRequest` down to its spans' byte ranges, without decoding any span;
`splice` removes or replaces spans in the raw bytes, fixing the length prefixes of the groups
around them; `LinkRecords` lifts every span's (trace id, span id, parent id) straight from
its first bytes. An encoding the walk does not expect raises `WireError`: the caller then
walks the canonical re-encoding instead.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from opentelemetry.proto.trace.v1.trace_pb2 import Span

#: A span's first bytes as every OTLP encoder writes them, fields in number order:
#: `0a 10 <trace id> 12 08 <span id>` then `22 08 <parent id>` when it has a parent.
LINK_RECORD = 38
_ROOT_FILL = b"\x00" * 10
_TRACE_ID = operator.itemgetter(slice(2, 18))
_CANONICAL_RECORDS = re.compile(
    rb"(?:\x0a\x10.{16}\x12\x08.{8}(?:\x22\x08.{8}|[^\x1a\x22].{9}))*", re.DOTALL
)

_LEN = 2  # wire type of length-delimited fields
_SPANS_TAG = 0x12  # ScopeSpans.spans: field 2, length-delimited


class WireError(ValueError):
    """Bytes the walk does not handle (a group wire type, a repeated singular field...)."""


class InvalidSpan(ValueError):
    """A span OTLP does not allow (an id of the wrong length); the message names it."""


@dataclass
class ScopeGroup:
    """One ScopeSpans: its field's byte range, its scope and schema_url, its spans' indexes."""

    resource: int
    field_start: int
    content_start: int
    end: int
    scope: tuple[int, int] | None = None
    schema_url: tuple[int, int] | None = None
    first_span: int = 0
    spans: int = 0


@dataclass
class ResourceGroup:
    """One ResourceSpans: its field's byte range, its resource and schema_url, its scopes."""

    field_start: int
    content_start: int
    end: int
    resource: tuple[int, int] | None = None
    schema_url: tuple[int, int] | None = None
    scopes: list[int] = field(default_factory=list)


class Layout:
    """The byte ranges of a serialized request's resource groups, scope groups and spans.

    Spans are numbered in request order; `starts[i]:ends[i]` is span i's encoding (a `Span`
    message), `tags[i]` where its field (tag and length) begins, `scope_of[i]` its group.
    """

    __slots__ = ("raw", "resources", "scopes", "starts", "ends", "tags", "scope_of")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.resources: list[ResourceGroup] = []
        self.scopes: list[ScopeGroup] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.tags: list[int] = []
        self.scope_of: list[int] = []
        try:
            for number, start, end, tag in _fields(raw, 0, len(raw)):
                if number == 1:
                    self._resource(tag, start, end)
        except IndexError:
            raise WireError("truncated field") from None

    def _resource(self, tag: int, start: int, end: int) -> None:
        group = ResourceGroup(tag, start, end)
        index = len(self.resources)
        self.resources.append(group)
        for number, a, b, field_start in _fields(self.raw, start, end):
            if number == 1:
                group.resource = _once(group.resource, a, b)
            elif number == 2:
                group.scopes.append(self._scope(index, field_start, a, b))
            elif number == 3:
                group.schema_url = _once(group.schema_url, a, b)

    def _scope(self, resource: int, tag: int, start: int, end: int) -> int:
        group = ScopeGroup(resource, tag, start, end, first_span=len(self.starts))
        index = len(self.scopes)
        self.scopes.append(group)
        raw, starts, ends, tags = self.raw, self.starts, self.ends, self.tags
        pos = start
        while pos < end:
            if raw[pos] == _SPANS_TAG:  # the hot loop: one span per turn
                size = raw[pos + 1]
                if size < 0x80:
                    content = pos + 2
                elif raw[pos + 2] < 0x80:
                    size = (size & 0x7F) | raw[pos + 2] << 7
                    content = pos + 3
                else:
                    size, content = _varint(raw, pos + 1)
                tags.append(pos)
                starts.append(content)
                pos = content + size
                ends.append(pos)
                continue
            for number, a, b, _ in _fields(raw, pos, end, limit=1):
                if number == 1:
                    group.scope = _once(group.scope, a, b)
                elif number == 3:
                    group.schema_url = _once(group.schema_url, a, b)
                pos = b
        if pos != end:
            raise WireError("a span runs past its group")
        group.spans = len(starts) - group.first_span
        self.scope_of.extend([index] * group.spans)
        return index

    @property
    def span_count(self) -> int:
        return len(self.starts)

    def span(self, index: int) -> bytes:
        return self.raw[self.starts[index] : self.ends[index]]

    def slice(self, bounds: tuple[int, int] | None) -> bytes:
        return self.raw[bounds[0] : bounds[1]] if bounds else b""


def _once(seen: tuple[int, int] | None, start: int, end: int) -> tuple[int, int]:
    if seen is not None:  # protobuf would merge the two; the canonical re-encoding has one
        raise WireError("a singular field appears twice")
    return (start, end)


def _varint(raw: bytes, pos: int) -> tuple[int, int]:
    """(value, position after it)."""
    value = shift = 0
    while True:
        byte = raw[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise WireError("varint too long")


def _fields(raw: bytes, pos: int, end: int, limit: int = -1) -> list[tuple[int, int, int, int]]:
    """(field number, content start, content end, field start) of the next `limit` fields in
    raw[pos:end] (all of them by default); fields that are not length-delimited are skipped
    (reported with an empty range)."""
    found = []
    while pos < end and limit != 0:
        limit -= 1
        field_start = pos
        tag, pos = _varint(raw, pos)
        wire_type = tag & 7
        if wire_type == _LEN:
            size, pos = _varint(raw, pos)
            found.append((tag >> 3, pos, pos + size, field_start))
            pos += size
        elif wire_type == 0:
            pos = _varint(raw, pos)[1]
            found.append((0, pos, pos, field_start))
        elif wire_type == 1:
            pos += 8
            found.append((0, pos, pos, field_start))
        elif wire_type == 5:
            pos += 4
            found.append((0, pos, pos, field_start))
        else:
            raise WireError(f"wire type {wire_type} not handled")
    if pos > end:
        raise WireError("a field runs past its message")
    return found


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def length_delimited(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field: tag, length, payload."""
    return _header(number, len(payload)) + payload


def _header(number: int, size: int) -> bytes:
    return varint(number << 3 | _LEN) + varint(size)


def splice(layout: Layout, edits: Mapping[int, bytes | None]) -> bytes:
    """The request with span i replaced by `edits[i]` (a serialized Span), or removed when it
    is None. Scope and resource groups left without spans are dropped; every other byte is
    copied as it was, once (the pieces are views into the received bytes)."""
    raw = memoryview(layout.raw)
    by_scope: dict[int, list[int]] = {}
    for index in sorted(edits):
        by_scope.setdefault(layout.scope_of[index], []).append(index)
    by_resource: dict[int, dict[int, list[bytes | memoryview] | None]] = {}
    for scope_index, indexes in by_scope.items():
        scope = layout.scopes[scope_index]
        by_resource.setdefault(scope.resource, {})[scope_index] = _scope_parts(
            layout, raw, scope, indexes, edits
        )
    out: list[bytes | memoryview] = []
    pos = 0
    for resource_index, scopes in sorted(by_resource.items()):
        resource = layout.resources[resource_index]
        out.append(raw[pos : resource.field_start])
        kept = len(scopes) < len(resource.scopes)
        parts: list[bytes | memoryview] = []
        at = resource.content_start
        for scope_index, scope_parts in sorted(scopes.items()):
            scope = layout.scopes[scope_index]
            parts.append(raw[at : scope.field_start])
            if scope_parts is not None:
                kept = True
                parts.append(_header(2, sum(map(len, scope_parts))))
                parts.extend(scope_parts)
            at = scope.end
        parts.append(raw[at : resource.end])
        if kept:
            out.append(_header(1, sum(map(len, parts))))
            out.extend(parts)
        pos = resource.end
    out.append(raw[pos:])
    return b"".join(out)


def _scope_parts(
    layout: Layout,
    raw: memoryview,
    scope: ScopeGroup,
    indexes: Sequence[int],
    edits: Mapping[int, bytes | None],
) -> list[bytes | memoryview] | None:
    """The new content of a scope group, in pieces; None when no span is left in it."""
    if sum(1 for i in indexes if edits[i] is None) == scope.spans:
        return None
    parts: list[bytes | memoryview] = []
    at = scope.content_start
    for index in indexes:
        parts.append(raw[at : layout.tags[index]])
        replacement = edits[index]
        if replacement is not None:
            parts.append(_header(2, len(replacement)))
            parts.append(replacement)
        at = layout.ends[index]
    parts.append(raw[at : scope.end])
    return parts


def wrap_spans(
    resource: bytes, resource_schema: bytes, scope: bytes, scope_schema: bytes,
    spans: Sequence[bytes],
) -> bytes:
    """The bytes of an ExportTraceServiceRequest holding `spans` (each a serialized Span)
    under one resource and scope (given serialized): built without decoding anything."""
    group = (length_delimited(1, scope) if scope else b"") + b"".join(
        length_delimited(2, s) for s in spans
    )
    if scope_schema:
        group += length_delimited(3, scope_schema)
    resource_group = (length_delimited(1, resource) if resource else b"") + length_delimited(
        2, group
    )
    if resource_schema:
        resource_group += length_delimited(3, resource_schema)
    return length_delimited(1, resource_group)


# -- parent links ---------------------------------------------------------------------------
class LinkRecords:
    """One trace's parent links from one request, as bytes: one `LINK_RECORD`-byte record per
    span, `0a 10 <trace id> 12 08 <span id>` then `22 08 <parent id>` (10 zero bytes for a
    root). Decoded only when a run's subtree needs them (see unordered.LinkBatch)."""

    __slots__ = ("blob",)

    def __init__(self, blob: bytes) -> None:
        self.blob = blob

    @classmethod
    def of(cls, layout: Layout) -> dict[int, LinkRecords]:
        """The records of a request's spans, by trace id (in trace id order; each trace's
        records in request order). Lifted from each span's first bytes; a span encoded
        otherwise (fields out of order, a trace_state before the parent) is decoded for its
        record. Raises InvalidSpan when a span's ids are not of the lengths OTLP requires
        (canonical first bytes have those lengths by construction)."""
        raw, starts, ends = layout.raw, layout.starts, layout.ends
        if not starts:
            return {}
        if min(map(operator.sub, ends, starts)) >= LINK_RECORD:
            # every record is the span's first LINK_RECORD bytes
            blob = b"".join([raw[start : start + LINK_RECORD] for start in starts])
            if _canonical(blob, len(starts)):
                return cls._runs(blob, len(starts))
            records = [blob[at : at + LINK_RECORD] for at in range(0, len(blob), LINK_RECORD)]
        else:  # a record never reads past its own span
            records = [raw[a : min(a + LINK_RECORD, b)] for a, b in zip(starts, ends, strict=True)]
        records = [r for r in (_record(layout, i, r) for i, r in enumerate(records)) if r]
        records.sort(key=_TRACE_ID)
        return {
            int.from_bytes(trace_id, "big"): cls(b"".join(group))
            for trace_id, group in itertools.groupby(records, _TRACE_ID)
        }

    @classmethod
    def _runs(cls, blob: bytes, count: int) -> dict[int, LinkRecords]:
        """Canonical records grouped by trace id without a Python step per span: the places
        where the trace id changes from one record to the next are found with whole-blob
        integer operations (a request holds a few runs of records, one per trace, usually)."""
        changes: list[int] = []
        if count > 1:
            changed = 0  # byte i not zero: records i and i + 1 differ in their trace id
            for offset in range(2, 18):  # the trace id's bytes, a column at a time
                column = blob[offset::LINK_RECORD]
                changed |= int.from_bytes(column[1:], "big") ^ int.from_bytes(column[:-1], "big")
            flags = changed.to_bytes(count - 1, "big").translate(_NONZERO)
            at = flags.find(1)
            while at >= 0:
                changes.append(at + 1)
                at = flags.find(1, at + 1)
        runs: dict[int, list[bytes]] = {}
        first = 0
        for end in (*changes, count):
            at = first * LINK_RECORD
            trace_id = int.from_bytes(blob[at + 2 : at + 18], "big")
            runs.setdefault(trace_id, []).append(blob[at : end * LINK_RECORD])
            first = end
        return {
            trace_id: cls(parts[0] if len(parts) == 1 else b"".join(parts))
            for trace_id, parts in sorted(runs.items())
        }

    @property
    def count(self) -> int:
        return len(self.blob) // LINK_RECORD

    @property
    def size(self) -> int:
        return len(self.blob)

    def links(self) -> list[tuple[int, int | None]]:
        """(span id, parent id or None) of every record."""
        blob = self.blob
        return [
            (
                int.from_bytes(blob[at + 20 : at + 28], "big"),
                int.from_bytes(blob[at + 30 : at + 38], "big")
                if blob[at + 28 : at + 30] == b"\x22\x08"
                else None,
            )
            for at in range(0, len(blob), LINK_RECORD)
        ]


_NONZERO = bytes([0] + [1] * 255)
_IS_PARENT_TAG = bytes(1 if b == 0x22 else 0 for b in range(256))
_IS_ID_LENGTH = bytes(1 if b == 0x08 else 0 for b in range(256))


def _canonical(blob: bytes, count: int) -> bool:
    """Whether `blob` is `count` canonical link records (what `_CANONICAL_RECORDS` matches),
    checked a column of bytes at a time: the fixed tags and lengths, and after the span id
    either the parent's `22 08` or a byte that starts neither a trace_state nor a parent."""
    step = LINK_RECORD
    if len(blob) != count * step:
        return False
    for offset, byte in ((0, b"\x0a"), (1, b"\x10"), (18, b"\x12"), (19, b"\x08")):
        if blob[offset::step] != byte * count:
            return False
    after = blob[28::step]
    if b"\x1a" in after:
        return False
    if b"\x22" not in after:
        return True
    parent = int.from_bytes(after.translate(_IS_PARENT_TAG), "big")
    length = int.from_bytes(blob[29::step].translate(_IS_ID_LENGTH), "big")
    return parent & ~length == 0


def _record(layout: Layout, index: int, record: bytes) -> bytes:
    if len(record) == LINK_RECORD and _CANONICAL_RECORDS.fullmatch(record):
        return record
    span = Span.FromString(layout.span(index))
    check_ids(span, index)
    head = b"\x0a\x10" + span.trace_id + b"\x12\x08" + span.span_id
    if span.parent_span_id:
        return head + b"\x22\x08" + span.parent_span_id
    return head + _ROOT_FILL


#: The id lengths OTLP requires: (field, allowed lengths).
ID_LENGTHS = (("trace_id", (16,)), ("span_id", (8,)), ("parent_span_id", (0, 8)))


def check_ids(span: Span, index: int) -> None:
    """Raise InvalidSpan when an id of the span is not of a length OTLP allows (a next hop
    would refuse the whole export that carries it)."""
    for name, lengths in ID_LENGTHS:
        size = len(getattr(span, name))
        if size not in lengths:
            allowed = " or ".join(str(n) for n in lengths)
            raise InvalidSpan(
                f"span {index} (counted from 0 in request order, name {span.name[:80]!r}): "
                f"{name} is {size} bytes; OTLP requires {allowed}"
            )
