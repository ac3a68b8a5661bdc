"""OTLP/JSON requests read with the standard library's parser straight into span views.

`score-traces` reads most stored traces as OTLP/JSON lines. Decoding them into protobuf
messages (`json_format`, pure Python) costs tens of times the parse itself, for spans that are
mostly of no interest. Here a line is parsed with `json.loads` once and walked as it is:

- a span holding none of the conventions' marker keys becomes its parent link only,
  `(trace_id, span_id, parent_id)`: all the pipeline needs of it;
- a span holding a marker key (a run or a step) becomes a `SpanView` over its decoded
  attributes and events; a run span is also turned into its protobuf `Span` when it is held
  (its size is the hold's budget unit), straight from the JSON.

What a span may hold is what `json_format` accepts for the `Span` message: hex ids,
enums as numbers or names, 64-bit integers as strings or numbers, every `AnyValue` form
(`bytesValue` in base64). The walk handles the form the Collector's `file` exporter writes
(lowerCamelCase keys, canonical values); a span in any other form (snake_case keys, nulls,
numbers as exotic strings, values nested deeper than `MAX_VALUE_DEPTH`, ...) is decoded by
`json_format` as before, one span at a time, so the result is the same either way and a
span `json_format` refuses makes its line a bad record. The checks follow the reader this
replaces (`stored.py` before it): spans of no interest are checked for their ids only.

With `orjson` installed (the `fast-json` extra), a line starting with `{` is parsed by it
instead (about half the parse's time) and walked in the canonical form only: a line it refuses,
one holding anything not in that form (where a span or resource would go to `json_format`) and
one the walk refuses are read again with `json.loads`, so that every line reads as it does
without it. `orjson` differs from `json.loads` in what it accepts only where that path takes
over: it refuses `NaN`, `Infinity`, lone surrogates, numbers beyond a double's range and
nesting over 1,024 levels, and reads an integer beyond 64 bits as a float (`json.loads` keeps
it exact). Such an integer is no integer field's value in the canonical form (those are
checked for `int`), so it sends its line to `json.loads`; as a `doubleValue` its float is the
one `json_format` makes of the exact integer (`float(n)`, correctly rounded, as `orjson` is);
where the walk reads no value (a span of no interest's fields, the scope), no value is taken
from it either way. One difference is left: a line nested deeper than `json.loads` can
recurse (about 1,000 levels, less the caller's stack) but within `orjson`'s 1,024 is read
rather than refused, when the deep part is in a field the walk does not read.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import operator
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_grounding.relay.otlp import (
    MAX_VALUE_DEPTH,
    AttributeMap,
    InvalidRequest,
    decode_json,
    span_view,
)
from otel_grounding.spanview import SpanView


def _fast_parser() -> Callable[[bytes], Any] | None:
    """`orjson.loads`, the optional accelerator (`pip install 'otel-grounding[fast-json]'`),
    or None when it is not installed."""
    try:
        from orjson import loads
    except ImportError:
        return None
    return loads


#: The parser of a line read in the canonical form only (None: `json.loads` for every line;
#: a test sets it to None to read as without `orjson`).
fast_loads = _fast_parser()

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1
_UINT32_END = 2**32
_UINT64_END = 2**64
#: What `json_format` refuses in a string (a lone surrogate, from a `\\ud800` escape).
_UNPAIRED_SURROGATE = re.compile(
    r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
_DECIMAL = re.compile(r"-?[0-9]+")
_SPAN_KINDS = {name: number for number, name in enumerate(
    ("SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT",
     "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"))}
_STATUS_CODES = {name: number for number, name in enumerate(
    ("STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"))}
_EMPTY: Mapping[str, Any] = {}
_OBJECT_TYPE = {dict}
#: A KeyValue's key (`KeyError` when it has none, `TypeError` when it is not an object).
_KEY = operator.itemgetter("key")


class _Unusual(Exception):
    """A value not in the canonical form: the span is decoded by `json_format` instead."""


class JsonEvent(NamedTuple):
    """A span event as adapters read it (a `spanview.EventView`)."""

    name: str
    attributes: Mapping[str, Any]


#: A span of no interest, as the pipeline needs it: (trace id, span id, parent id or None).
Link = tuple[int, int, int | None]


class JsonSpan(NamedTuple):
    """A span holding a marker key: its view, and what it came from (for its protobuf form).
    A named tuple (immutable, and built for thousands of spans a second)."""

    view: SpanView
    source: dict[str, Any]
    #: Already decoded by `json_format` (a span not in the canonical form).
    decoded: Span | None = None

    def message(self) -> Span:
        """The protobuf `Span`, as `json_format` would decode it (built from the JSON)."""
        if self.decoded is not None:
            return self.decoded
        return span_message(self.source)

    def byte_size(self) -> int:
        """`message().ByteSize()`, counted from the JSON (no message built: a held run's
        budget unit, asked once per run)."""
        if self.decoded is not None:
            return self.decoded.ByteSize()
        return span_size(self.source)

    def end_time(self) -> int:
        """`message().end_time_unix_nano`, read from the JSON."""
        if self.decoded is not None:
            return self.decoded.end_time_unix_nano
        return _fixed64(self.source.get("endTimeUnixNano", 0))


class JsonRequest(NamedTuple):
    """One OTLP/JSON request line: its spans in file order, as links or marker spans, and how
    many it holds. A named tuple: built for every line read."""

    items: list[Link | JsonSpan]
    spans: int


# -- the request ----------------------------------------------------------------------------------
def read_request(line: bytes, markers: frozenset[str]) -> JsonRequest:
    """A JSON request line read for `score-traces`; `InvalidRequest` says why it is not one."""
    fast = fast_loads
    if fast is not None and line[:1] == b"{":
        try:
            return _walk(fast(line), markers, canonical=True)
        except (ValueError, InvalidRequest, _Unusual):
            pass  # not read in the canonical form: read below as without the fast parser
    try:
        # A line starting with `{` is UTF-8 (what `json.loads` would detect): decoded here,
        # as it would decode it, without its detection's Python steps.
        data = json.loads(
            line.decode("utf-8", "surrogatepass")
            if line[:1] == b"{" and line[1:2] != b"\x00" else line
        )
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"not valid JSON: {exc}") from None
    return _walk(data, markers, canonical=False)


def _walk(data: Any, markers: frozenset[str], *, canonical: bool) -> JsonRequest:
    """The request's spans as links and marker spans. `canonical`: a span or resource not in
    the canonical form raises `_Unusual` instead of going to `json_format` (the fast parser's
    tree: read again from `json.loads`' tree, whose values `json_format` is given)."""
    items: list[Link | JsonSpan] = []
    append = items.append
    fromhex, from_bytes = bytes.fromhex, int.from_bytes
    count = 0
    for rs in _listed(data, "resourceSpans", "request"):
        resource: Mapping[str, Any] = _EMPTY
        resource_json = rs.get("resource")
        if resource_json is not None:
            resource = _resource(resource_json, canonical)
        for ss in _listed(rs, "scopeSpans", "resourceSpans[]"):
            spans = ss.get("spans", [])
            if type(spans) is not list:
                raise InvalidRequest("scopeSpans[].spans: expected a JSON array of objects")
            count += len(spans)
            for span in spans:
                if type(span) is not dict:
                    raise InvalidRequest("scopeSpans[].spans: expected a JSON array of objects")
                get = span.get
                keys = get("attributes")
                if type(keys) is list:
                    try:  # the keys of the attributes, against the markers, in C calls
                        marked = not markers.isdisjoint(map(_KEY, keys))
                    except (KeyError, TypeError):  # an item not an object, no key, a key a list
                        marked = any(
                            type(kv) is dict and type(kv.get("key")) is str and kv["key"] in markers
                            for kv in keys
                        )
                    if marked:
                        append(_marker_span(span, resource, canonical))
                        continue
                # A span of no interest (most spans): its parent link, all the pipeline reads.
                trace, own, parent = get("traceId"), get("spanId"), get("parentSpanId")
                try:
                    parent_bytes = fromhex(parent) if parent else b""  # " " reads as no parent
                    append((
                        from_bytes(fromhex(trace), "big") if trace else 0,
                        from_bytes(fromhex(own), "big") if own else 0,
                        from_bytes(parent_bytes, "big") if parent_bytes else None,
                    ))
                except (TypeError, ValueError):
                    raise _not_hex(span) from None
    return JsonRequest(items, count)


def _listed(node: Any, key: str, where: str) -> list[dict[str, Any]]:
    if type(node) is not dict:
        raise InvalidRequest(f"{where}: expected a JSON object, got {type(node).__name__}")
    value = node.get(key, [])
    if type(value) is not list or not {*map(type, value)} <= _OBJECT_TYPE:
        raise InvalidRequest(f"{where}.{key}: expected a JSON array of objects")
    return value


def _not_hex(span: dict[str, Any]) -> InvalidRequest:
    """What is wrong with a span of no interest whose ids did not decode: the first id that
    is not hex (a falsy id reads as none, as a blank parent does)."""
    for key in ("traceId", "spanId", "parentSpanId"):
        value = span.get(key)
        try:
            if value:
                bytes.fromhex(value)
        except (TypeError, ValueError):
            return InvalidRequest(f"span.{key}: {value!r:.40} is not a hex id")
    return InvalidRequest("span: an id is not hex")


def _resource(value: Any, canonical: bool) -> Mapping[str, Any]:
    """A resource's attributes (decoded by `json_format` when not in the canonical form,
    unless `canonical`: `_Unusual` then)."""
    try:
        if type(value) is not dict or not _RESOURCE_KEYS.issuperset(value):
            raise _Unusual
        _count(value.get("droppedAttributesCount", 0))
        return _attributes(value.get("attributes", []), 0)
    except _Unusual:
        if canonical:
            raise
        return AttributeMap(_decoded_resource(json.dumps(value, sort_keys=True)).attributes)


_RESOURCE_KEYS = frozenset({"attributes", "droppedAttributesCount"})


@functools.lru_cache(maxsize=64)
def _decoded_resource(text: str) -> Resource:
    """A resource `json_format` decodes (a file's lines mostly repeat a few resources)."""
    request = decode_json(('{"resourceSpans": [{"resource": ' + text + "}]}").encode())
    return request.resource_spans[0].resource


# -- a marker span ---------------------------------------------------------------------------
_EVENT_KEYS = frozenset({"timeUnixNano", "name", "attributes", "droppedAttributesCount"})
_LINK_KEYS = frozenset({
    "traceId", "spanId", "traceState", "attributes", "droppedAttributesCount", "flags"
})
_STATUS_KEYS = frozenset({"message", "code"})


def _marker_span(span: dict[str, Any], resource: Mapping[str, Any], canonical: bool) -> JsonSpan:
    """The span's view; not in the canonical form, decoded by `json_format` (unless
    `canonical`: `_Unusual` then)."""
    try:
        return JsonSpan(_view(span, resource), span)
    except _Unusual:
        if canonical:
            raise
    wrapped = {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}
    decoded = decode_json(json.dumps(wrapped).encode()).resource_spans[0].scope_spans[0].spans[0]
    return JsonSpan(span_view(decoded, resource), span, decoded)


def _view(span: dict[str, Any], resource: Mapping[str, Any]) -> SpanView:
    """The view of a span in the canonical form; `_Unusual` for anything else. Every field is
    checked as `json_format` would check it, read or not (one pass over the fields given)."""
    trace_id = span_id = parent = b""
    name = ""
    attributes: dict[str, Any] = {}
    events: list[JsonEvent] = []
    for key, value in span.items():
        if key == "traceId":
            trace_id = _id(value)
        elif key == "spanId":
            span_id = _id(value)
        elif key == "parentSpanId":
            parent = _id(value)
        elif key == "name":
            name = _string(value)
        elif key == "attributes":
            attributes = _attributes(value, 0)
        elif key == "startTimeUnixNano" or key == "endTimeUnixNano":
            # `_fixed64` inline for the usual form (a short decimal string, always in range)
            if not (type(value) is str and len(value) < 20 and value.isdigit() and value.isascii()):
                _fixed64(value)
        elif key == "kind":
            if not (value in _SPAN_KINDS if type(value) is str else _enum(value, 5)):
                raise _Unusual
        elif key == "status":
            if type(value) is not dict or value:  # `{}` is the usual one
                _status(value)
        elif key == "events":
            events = [_event(event) for event in _objects(value)]
        elif key == "links":
            for link in _objects(value):
                _link_fields(link)
        elif key == "traceState":
            _string(value)
        elif key in _COUNTS:  # flags (fixed32) and the dropped counts (uint32)
            _count(value)
        else:
            raise _Unusual
    return SpanView(  # trace id, span id, parent id, name, attributes, events, resource
        int.from_bytes(trace_id, "big"),
        int.from_bytes(span_id, "big"),
        int.from_bytes(parent, "big") if parent else None,
        name,
        attributes,
        events,
        resource,
    )


_COUNTS = frozenset({
    "flags", "droppedAttributesCount", "droppedEventsCount", "droppedLinksCount"
})


def _event(event: dict[str, Any]) -> JsonEvent:
    if not _EVENT_KEYS.issuperset(event):
        raise _Unusual
    _fixed64(event.get("timeUnixNano", 0))
    _count(event.get("droppedAttributesCount", 0))
    return JsonEvent(_string(event.get("name", "")), _attributes(event.get("attributes", []), 0))


def _link_fields(link: dict[str, Any]) -> None:
    if not _LINK_KEYS.issuperset(link):
        raise _Unusual
    _id(link.get("traceId", ""))
    _id(link.get("spanId", ""))
    _string(link.get("traceState", ""))
    _count(link.get("flags", 0))
    _count(link.get("droppedAttributesCount", 0))
    _attributes(link.get("attributes", []), 0)


def _status(status: Any) -> None:
    if type(status) is not dict or not _STATUS_KEYS.issuperset(status):
        raise _Unusual
    _string(status.get("message", ""))
    code = status.get("code", 0)
    if not (code in _STATUS_CODES if type(code) is str else _enum(code, 2)):
        raise _Unusual


def _objects(value: Any) -> list[dict[str, Any]]:
    if type(value) is not list or not all(type(item) is dict for item in value):
        raise _Unusual
    return value


def _id(value: Any) -> bytes:
    if type(value) is not str:
        raise _Unusual
    try:
        return binascii.unhexlify(value)
    except (binascii.Error, ValueError):
        raise _Unusual from None


def _string(value: Any) -> str:
    if type(value) is not str or not (value.isascii() or not _UNPAIRED_SURROGATE.search(value)):
        raise _Unusual
    return value


def _enum(value: Any, last: int) -> bool:
    return type(value) is int and 0 <= value <= last


def _count(value: Any) -> int:
    """A uint32 (dropped counts) given as a JSON number."""
    if type(value) is not int or not 0 <= value < _UINT32_END:
        raise _Unusual
    return value


def _fixed64(value: Any) -> int:
    """A fixed64 (times): a decimal string, as OTLP/JSON writes them, or a JSON number."""
    if type(value) is str:
        if not (value.isascii() and value.isdigit()) or len(value) > 20:
            raise _Unusual
        value = int(value)
    elif type(value) is not int:
        raise _Unusual
    if not 0 <= value < _UINT64_END:
        raise _Unusual
    return value


# -- attributes ---------------------------------------------------------------------------------
def _attributes(items: Any, depth: int) -> dict[str, Any]:
    """A KeyValue list as the mapping `AttributeMap` reads (a repeated key: the last one)."""
    if type(items) is not list:
        raise _Unusual
    values: dict[str, Any] = {}
    for kv in items:
        if type(kv) is not dict:
            raise _Unusual
        if len(kv) == 2:  # the common case, an ASCII key and a string value, inline
            key, value = kv.get("key"), kv.get("value")
            if type(key) is str and type(value) is dict and len(value) == 1 and key.isascii():
                text = value.get("stringValue")
                if type(text) is str and (text.isascii() or not _UNPAIRED_SURROGATE.search(text)):
                    values[key] = text
                    continue
        key = kv.get("key", "")
        value = kv.get("value", _ABSENT)
        if len(kv) != ("key" in kv) + (value is not _ABSENT) or type(key) is not str or not (
            key.isascii() or not _UNPAIRED_SURROGATE.search(key)
        ):
            raise _Unusual
        values[key] = None if value is _ABSENT else _any(value, depth)
    return values


#: A KeyValue without a value (its value reads as None, as an unset AnyValue does).
_ABSENT: Any = object()


def _any(value: Any, depth: int) -> Any:
    """An AnyValue's Python value, as `relay.otlp.from_any` gives it (arrays as tuples)."""
    if type(value) is not dict or len(value) > 1 or depth >= MAX_VALUE_DEPTH:
        raise _Unusual
    if not value:
        return None
    ((kind, item),) = value.items()
    if kind == "stringValue":
        return _string(item)
    if kind == "intValue":
        if type(item) is str:
            if not (item.isascii() and _DECIMAL.fullmatch(item)):
                raise _Unusual
            item = int(item)
        elif type(item) is not int:
            raise _Unusual
        if not _INT64_MIN <= item <= _INT64_MAX:
            raise _Unusual
        return item
    if kind == "boolValue":
        if type(item) is not bool:
            raise _Unusual
        return item
    if kind == "doubleValue":
        if type(item) is float:
            if not math.isfinite(item):
                raise _Unusual
            return item
        if type(item) is int and -(2**53) <= item <= 2**53:
            return float(item)
        raise _Unusual
    if kind == "arrayValue":
        return tuple(_any(element, depth + 1) for element in _objects(_values(item)))
    if kind == "kvlistValue":
        return _attributes(_values(item), depth + 1)
    if kind == "bytesValue":
        return _bytes(item)
    raise _Unusual


def _values(value: Any) -> Any:
    """The `values` of an ArrayValue or KeyValueList object."""
    if type(value) is not dict or (value and value.keys() != {"values"}):
        raise _Unusual
    return value.get("values", [])


def _bytes(value: Any) -> bytes:
    """Base64 as `json_format` reads it (URL-safe or not, padding optional)."""
    if type(value) is not str:
        raise _Unusual
    encoded = value.encode("utf-8")
    try:
        return base64.urlsafe_b64decode(encoded + b"=" * (4 - len(encoded) % 4))
    except (binascii.Error, ValueError):
        raise _Unusual from None


# -- the protobuf form of a span in the canonical form (run spans, when held) ---------------
def span_message(span: dict[str, Any]) -> Span:
    """The protobuf `Span` of a span `_view` accepted, field for field as `json_format` would
    decode it (repeated keys kept, every field set)."""
    get = span.get
    message = Span(
        trace_id=_id(get("traceId", "")),
        span_id=_id(get("spanId", "")),
        trace_state=get("traceState", ""),
        parent_span_id=_id(get("parentSpanId", "")),
        flags=get("flags", 0),
        name=get("name", ""),
        kind=_kind(get("kind", 0), _SPAN_KINDS),
        start_time_unix_nano=_fixed64(get("startTimeUnixNano", 0)),
        end_time_unix_nano=_fixed64(get("endTimeUnixNano", 0)),
        dropped_attributes_count=get("droppedAttributesCount", 0),
        dropped_events_count=get("droppedEventsCount", 0),
        dropped_links_count=get("droppedLinksCount", 0),
    )
    _add_attributes(message.attributes, get("attributes", []))
    for event in get("events", []):
        out = message.events.add(
            time_unix_nano=_fixed64(event.get("timeUnixNano", 0)),
            name=event.get("name", ""),
            dropped_attributes_count=event.get("droppedAttributesCount", 0),
        )
        _add_attributes(out.attributes, event.get("attributes", []))
    for link in get("links", []):
        out_link = message.links.add(
            trace_id=_id(link.get("traceId", "")),
            span_id=_id(link.get("spanId", "")),
            trace_state=link.get("traceState", ""),
            flags=link.get("flags", 0),
            dropped_attributes_count=link.get("droppedAttributesCount", 0),
        )
        _add_attributes(out_link.attributes, link.get("attributes", []))
    if "status" in span:
        status = span["status"]
        message.status.SetInParent()
        message.status.message = status.get("message", "")
        message.status.code = _kind(status.get("code", 0), _STATUS_CODES)
    return message


# -- its size, as protobuf encodes it (the hold's budget unit), without building it ------------
def span_size(span: dict[str, Any]) -> int:
    """`span_message(span).ByteSize()` for a span `_view` accepted, counted field by field
    from the JSON (proto3: a scalar at its default is not written; a message set, even
    empty, and an `AnyValue`'s one field, even at its default, are)."""
    get = span.get
    size = (
        _id_field(get("traceId", ""))
        + _id_field(get("spanId", ""))
        + _string_field(get("traceState", ""))
        + _id_field(get("parentSpanId", ""))
        + _string_field(get("name", ""))
        + _varint_field(_kind(get("kind", 0), _SPAN_KINDS))
        + (9 if _fixed64(get("startTimeUnixNano", 0)) else 0)
        + (9 if _fixed64(get("endTimeUnixNano", 0)) else 0)
        + _key_values_size(get("attributes", []))
        + _varint_field(get("droppedAttributesCount", 0))
        + _varint_field(get("droppedEventsCount", 0))
        + _varint_field(get("droppedLinksCount", 0))
        + (6 if get("flags", 0) else 0)  # fixed32, field 16: a two-byte tag
    )
    for event in get("events", []):
        event_get = event.get
        size += _message_field(
            (9 if _fixed64(event_get("timeUnixNano", 0)) else 0)
            + _string_field(event_get("name", ""))
            + _key_values_size(event_get("attributes", []))
            + _varint_field(event_get("droppedAttributesCount", 0))
        )
    for link in get("links", []):
        link_get = link.get
        size += _message_field(
            _id_field(link_get("traceId", ""))
            + _id_field(link_get("spanId", ""))
            + _string_field(link_get("traceState", ""))
            + _key_values_size(link_get("attributes", []))
            + _varint_field(link_get("droppedAttributesCount", 0))
            + (5 if link_get("flags", 0) else 0)
        )
    if "status" in span:
        status = span["status"]
        size += _message_field(
            _string_field(status.get("message", ""))
            + _varint_field(_kind(status.get("code", 0), _STATUS_CODES))
        )
    return size


def _varint_size(value: int) -> int:
    """The bytes of a varint (a negative int64 takes ten)."""
    if value < 0:
        return 10
    return (value.bit_length() + 6) // 7 or 1


def _varint_field(value: int) -> int:
    """A varint field (tag of one byte) at its value; nothing at zero."""
    return 1 + _varint_size(value) if value else 0


def _length_delimited(length: int) -> int:
    """A length-delimited field (tag of one byte) whose payload is `length` bytes, written."""
    return length + 2 if length < 128 else 1 + _varint_size(length) + length


def _id_field(value: str) -> int:
    """An id field from its hex (which `_view` checked: two digits a byte)."""
    return _length_delimited(len(value) // 2) if value else 0


def _string_field(value: str) -> int:
    return _length_delimited(_utf8_length(value)) if value else 0


def _message_field(length: int) -> int:
    return _length_delimited(length)


def _utf8_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _key_values_size(items: list[dict[str, Any]]) -> int:
    """Repeated `KeyValue` messages (a value given, even `{}`, is a message set)."""
    size = 0
    for kv in items:
        body = _string_field(kv.get("key", ""))
        if "value" in kv:
            body += _message_field(_any_size(kv["value"]))
        size += _message_field(body)
    return size


def _any_size(value: dict[str, Any]) -> int:
    """An `AnyValue`'s body: its one field, written whatever its value."""
    if not value:
        return 0
    ((kind, item),) = value.items()
    if kind == "stringValue":
        return _length_delimited(_utf8_length(item))
    if kind == "intValue":
        return 1 + _varint_size(int(item))
    if kind == "boolValue":
        return 2
    if kind == "doubleValue":
        return 9
    if kind == "arrayValue":
        return _message_field(
            sum(_message_field(_any_size(element)) for element in item.get("values", []))
        )
    if kind == "kvlistValue":
        return _message_field(_key_values_size(item.get("values", [])))
    return _length_delimited(len(_bytes(item)))  # bytesValue


def _kind(value: int | str, names: Mapping[str, int]) -> Any:
    return names[value] if type(value) is str else int(value)


def _add_attributes(target: Any, items: list[dict[str, Any]]) -> None:
    for kv in items:
        out = target.add(key=kv.get("key", ""))
        if "value" in kv:
            out.value.SetInParent()
            _set_any(out.value, kv["value"])


def _set_any(target: AnyValue, value: dict[str, Any]) -> None:
    if not value:
        return
    ((kind, item),) = value.items()
    if kind == "stringValue":
        target.string_value = item
    elif kind == "intValue":
        target.int_value = int(item)
    elif kind == "boolValue":
        target.bool_value = item
    elif kind == "doubleValue":
        target.double_value = float(item)
    elif kind == "arrayValue":
        target.array_value.SetInParent()
        for element in item.get("values", []):
            _set_any(target.array_value.values.add(), element)
    elif kind == "kvlistValue":
        target.kvlist_value.SetInParent()
        _add_attributes(target.kvlist_value.values, item.get("values", []))
    elif kind == "bytesValue":
        target.bytes_value = _bytes(item)


__all__ = [
    "JsonEvent", "JsonRequest", "JsonSpan", "Link", "read_request", "span_message", "span_size"
]
