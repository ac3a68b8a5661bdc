"""The relay's span representation: decoded OTLP protobuf spans <-> span view and enrichment.

The relay works on the decoded `opentelemetry.proto` messages directly: a span view reads a
protobuf `Span` in place (attribute values are decoded only when a convention asks for them),
and an `Enrichment` is applied back onto the same message (KeyValues appended or replaced,
`Span.Event`s appended with `time_unix_nano = end_time_unix_nano`, content keys removed).
Also here: OTLP/JSON, whose ids are hex strings where proto3 JSON would use base64.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_grounding.enrichment import Enrichment
from otel_grounding.spanview import SpanView

#: Nested arrays / key-value lists deeper than this read as None (hostile input, not a crash).
MAX_VALUE_DEPTH = 32

_EMPTY: Mapping[str, Any] = {}


class InvalidRequest(ValueError):
    """A request body that is not a valid OTLP trace export request; the message says why."""


# -- AnyValue <-> Python ------------------------------------------------------------------------
def from_any(value: AnyValue, depth: int = 0) -> Any:
    """The Python value of an OTLP AnyValue, as the SDK would hold it (arrays as tuples)."""
    kind = value.WhichOneof("value")
    if kind == "string_value":
        return value.string_value
    if kind == "int_value":
        return value.int_value
    if kind == "bool_value":
        return value.bool_value
    if kind == "double_value":
        return value.double_value
    if depth >= MAX_VALUE_DEPTH:
        return None
    if kind == "array_value":
        return tuple(from_any(item, depth + 1) for item in value.array_value.values)
    if kind == "kvlist_value":
        return {kv.key: from_any(kv.value, depth + 1) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        return value.bytes_value
    return None


def set_any(target: AnyValue, value: Any, depth: int = 0) -> None:
    """Write a Python value into an (empty) AnyValue in place (bool before int; sequences as
    arrays, mappings as key-value lists; anything else as its string)."""
    kind = type(value)
    if kind is str:
        target.string_value = value
    elif kind is bool:
        target.bool_value = value
    elif kind is float:
        target.double_value = value
    elif kind is int:
        if -(2**63) <= value < 2**63:
            target.int_value = value
        else:
            target.string_value = str(value)
    elif value is None or depth >= MAX_VALUE_DEPTH:
        return
    elif isinstance(value, (list, tuple)):
        values = target.array_value.values
        if not value:
            target.array_value.SetInParent()
        for item in value:
            set_any(values.add(), item, depth + 1)
    elif isinstance(value, (bytes, bytearray)):
        target.bytes_value = bytes(value)
    elif isinstance(value, Mapping):
        values = target.kvlist_value.values
        if not value:
            target.kvlist_value.SetInParent()
        for key, item in value.items():
            set_any(values.add(key=str(key)).value, item, depth + 1)
    elif isinstance(value, bool):
        target.bool_value = bool(value)
    elif isinstance(value, int):
        set_any(target, int(value), depth)
    elif isinstance(value, float):
        target.double_value = float(value)
    elif isinstance(value, str):
        target.string_value = str(value)
    else:
        target.string_value = str(value)


def to_any(value: Any) -> AnyValue:
    """An OTLP AnyValue for a Python value."""
    result = AnyValue()
    set_any(result, value)
    return result


def add_attributes(target: Any, attributes: Mapping[str, Any]) -> None:
    """Append KeyValues for a mapping to a repeated KeyValue field."""
    for key, value in attributes.items():
        set_any(target.add(key=key).value, value)


class AttributeMap(Mapping[str, Any]):
    """A read-only mapping over a repeated `KeyValue` field, decoded lazily and cached.

    The key index is built on first use; a value is decoded only when asked for. Duplicate
    keys (invalid OTLP) read as the last one, as a map would.
    """

    __slots__ = ("_pb", "_index", "_values")

    def __init__(self, pb: Sequence[KeyValue]) -> None:
        self._pb = pb
        self._index: dict[str, AnyValue] | None = None
        self._values: dict[str, Any] = {}

    def _keys(self) -> dict[str, AnyValue]:
        index = self._index
        if index is None:
            index = self._index = {kv.key: kv.value for kv in self._pb}
        return index

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            pass
        value = from_any(self._keys()[key])
        self._values[key] = value
        return value

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._values:
            return self._values[key]
        if key not in self._keys():
            return default
        return self[key]

    def __contains__(self, key: object) -> bool:
        return key in self._keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


class OtlpEvent:
    """A protobuf span event as adapters read it (a spanview.EventView): a name and an attribute
    mapping."""

    __slots__ = ("name", "attributes")

    def __init__(self, event: Span.Event) -> None:
        self.name = event.name
        self.attributes = AttributeMap(event.attributes)


class EventSeq(Sequence[OtlpEvent]):
    """A span's events, wrapped only when an adapter reads them (run spans)."""

    __slots__ = ("_pb", "_items")

    def __init__(self, pb: Sequence[Span.Event]) -> None:
        self._pb = pb
        self._items: list[OtlpEvent] | None = None

    def _all(self) -> list[OtlpEvent]:
        if self._items is None:
            self._items = [OtlpEvent(event) for event in self._pb]
        return self._items

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._pb)

    def __iter__(self) -> Iterator[OtlpEvent]:
        return iter(self._all())


def span_id_int(raw: bytes) -> int:
    return int.from_bytes(raw, "big")


def span_view(span: Span, resource: Mapping[str, Any] = _EMPTY) -> SpanView:
    """The span view of a protobuf span (read in place; nothing decoded until asked for).

    No `value_limit` and no `local_root`: OTLP carries neither (see `SpanView`)."""
    parent = span.parent_span_id
    return SpanView(
        trace_id=int.from_bytes(span.trace_id, "big"),
        span_id=int.from_bytes(span.span_id, "big"),
        parent_id=int.from_bytes(parent, "big") if parent else None,
        name=span.name,
        attributes=AttributeMap(span.attributes),
        events=EventSeq(span.events),
        resource=resource,
    )


def apply_enrichment(span: Span, enrichment: Enrichment) -> None:
    """Write an enrichment onto a protobuf span in place.

    Content keys in `remove` are dropped; computed attributes replace any value already under
    their key (a span enriched by an earlier hop is not given the same key twice), else are
    appended; events are appended at the span's end time. Nothing else changes.
    """
    values = enrichment.attributes
    if enrichment.remove or any(kv.key in values for kv in span.attributes):
        kept = [
            KeyValue(key=kv.key, value=kv.value)
            for kv in span.attributes
            if kv.key not in enrichment.remove and kv.key not in values
        ]
        del span.attributes[:]
        span.attributes.extend(kept)
    add_attributes(span.attributes, values)
    for spec in enrichment.events:
        event = span.events.add(time_unix_nano=span.end_time_unix_nano, name=spec.name)
        add_attributes(event.attributes, spec.attributes)


# -- request decoding -------------------------------------------------------------------------
def decode_protobuf(body: bytes) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(body)
    except (DecodeError, ValueError, RecursionError) as exc:
        raise InvalidRequest(f"not an OTLP ExportTraceServiceRequest protobuf: {exc}") from None
    return request


_ID_FIELDS = ("traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id")


def _list(node: Mapping[str, Any], camel: str, snake: str, where: str) -> list[Any]:
    value = node.get(camel, node.get(snake))
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidRequest(f"{where}.{camel}: expected a JSON array, got {type(value).__name__}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidRequest(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def _hex_ids_to_base64(node: dict[str, Any], where: str) -> None:
    for key in _ID_FIELDS:
        value = node.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise InvalidRequest(f"{where}.{key}: expected a hex string, got {value!r:.40}")
        try:
            raw = binascii.unhexlify(value)
        except (binascii.Error, ValueError):
            raise InvalidRequest(f"{where}.{key}: {value!r:.40} is not a hex id") from None
        node[key] = base64.b64encode(raw).decode("ascii")


def decode_json(body: bytes) -> ExportTraceServiceRequest:
    """An OTLP/JSON request: lowerCamelCase keys, hex trace/span ids, enums as integers.

    Unknown fields are ignored (as the OTLP specification asks of receivers).
    """
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"not valid JSON: {exc}") from None
    data = _object(data, "request")
    for i, rs in enumerate(_list(data, "resourceSpans", "resource_spans", "request")):
        where = f"resourceSpans[{i}]"
        rs = _object(rs, where)
        for j, ss in enumerate(_list(rs, "scopeSpans", "scope_spans", where)):
            swhere = f"{where}.scopeSpans[{j}]"
            ss = _object(ss, swhere)
            for k, span in enumerate(_list(ss, "spans", "spans", swhere)):
                spwhere = f"{swhere}.spans[{k}]"
                span = _object(span, spwhere)
                _hex_ids_to_base64(span, spwhere)
                for m, link in enumerate(_list(span, "links", "links", spwhere)):
                    _hex_ids_to_base64(_object(link, f"{spwhere}.links[{m}]"), spwhere)
    request = ExportTraceServiceRequest()
    try:
        json_format.ParseDict(data, request, ignore_unknown_fields=True)
    except (json_format.ParseError, ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise InvalidRequest(f"not an OTLP/JSON trace export request: {exc}") from None
    return request


def _base64_ids_to_hex(node: dict[str, Any]) -> None:
    for key in ("traceId", "spanId", "parentSpanId"):
        value = node.get(key)
        if isinstance(value, str):
            node[key] = base64.b64decode(value).hex()


def encode_json(request: ExportTraceServiceRequest) -> bytes:
    """OTLP/JSON bytes of a request (hex ids, integer enums, lowerCamelCase keys)."""
    data = json_format.MessageToDict(request, use_integers_for_enums=True)
    for rs in data.get("resourceSpans", ()):
        for ss in rs.get("scopeSpans", ()):
            for span in ss.get("spans", ()):
                _base64_ids_to_hex(span)
                for link in span.get("links", ()):
                    _base64_ids_to_hex(link)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def response_json(response: ExportTraceServiceResponse) -> bytes:
    return json.dumps(
        json_format.MessageToDict(response), separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def count_spans(request: ExportTraceServiceRequest) -> int:
    return sum(len(ss.spans) for rs in request.resource_spans for ss in rs.scope_spans)


# -- enrichment as bytes ------------------------------------------------------------------
def enrichment_suffix(enrichment: Enrichment, end_time_unix_nano: int) -> bytes:
    """Bytes that, appended to a serialized Span, add the enrichment's attributes and events
    (repeated fields concatenate). Only valid when nothing is removed or replaced."""
    extra = Span()
    add_attributes(extra.attributes, enrichment.attributes)
    for spec in enrichment.events:
        event = extra.events.add(time_unix_nano=end_time_unix_nano, name=spec.name)
        add_attributes(event.attributes, spec.attributes)
    return extra.SerializeToString()
