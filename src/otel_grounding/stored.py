"""Stored trace files read as a stream: each request in a file, in file order, bad ones named.

Formats, told apart by their first bytes (gzip is unwrapped first, so `.gz` of any of them):

- OTLP/JSON lines, one `ExportTraceServiceRequest` per line (the Collector's `file` exporter);
- one JSON document: `{"resourceSpans": [...]}`, or Jaeger's `/api/v3` answer
  `{"result": {"resourceSpans": [...]}}` (hex or base64 ids);
- OTLP protobuf: one `ExportTraceServiceRequest` (the body an OTLP/HTTP exporter sends), read
  one `ResourceSpans` at a time; or requests each behind a 4-byte big-endian length (the
  Collector's `file` exporter with `format: proto`).

A file is read one record (line, message, `ResourceSpans`) at a time; a record over
`MAX_RECORD_BYTES` is refused, and a bad record is reported with its line or record number
(FILE:LINE, FILE#RECORD), never raised.
"""

from __future__ import annotations

import base64
import binascii
import functools
import gzip
import json
import struct
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, cast

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans

from otel_grounding.jsonspans import JsonRequest, read_request
from otel_grounding.relay.otlp import InvalidRequest, decode_json, decode_protobuf

#: The largest single record (JSON line, protobuf message, ResourceSpans, JSON document).
MAX_RECORD_BYTES = 64 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"
#: A serialized request's first byte: field 1 (resource_spans), length-delimited.
REQUEST_TAG = 0x0A
_READ_CHUNK = 1 << 20
#: What a JSON file may start with (a length-prefixed protobuf file starts with its length).
JSON_STARTS = frozenset(bytes([c]) for c in b"{[ \t\r\n\xef")


class BadRecord(Exception):
    """A record that could not be read; `where` is FILE:LINE or FILE#RECORD."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


Record = tuple[str, ExportTraceServiceRequest | JsonRequest]


# -- reading files --------------------------------------------------------------------------------
def read_records(
    path: str, markers: frozenset[str] | None = None, *, json_views: bool = True
) -> Iterator[Record | BadRecord]:
    """Every request in a stored trace file, in file order; bad records as `BadRecord`.

    Without `markers`, every request is an `ExportTraceServiceRequest`, every span decoded
    (what `--format otlp` writes back). With `markers` (the conventions' marker keys), an
    OTLP/JSON line is read by `jsonspans.read_request` into a `JsonRequest`: a span holding
    none of them is its parent link only, the others span views, no protobuf decoding (most
    of the cost, for spans mostly of no interest). `json_views=False` reads those lines as
    the reader before it did, into thin protobuf requests (ids and name only for a span of no
    interest, `json_format` for the others): the reference the parity test and the benchmark
    compare against. Other formats are protobuf requests either way.
    """
    try:
        raw: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed below, after the stream
    except OSError as exc:
        yield BadRecord(path, f"cannot read: {exc.strerror}")
        return
    with raw:
        head = raw.read(2)
        raw.seek(0)
        # A GzipFile reads, seeks and reads lines as a binary file does (typeshed: not an IO).
        stream = cast("IO[bytes]", gzip.GzipFile(fileobj=raw)) if head == GZIP_MAGIC else raw
        try:
            first = stream.read(1)
            stream.seek(0)
            if not first:
                return
            if first[0] == REQUEST_TAG:
                yield from _protobuf_request(path, stream)
            elif first in JSON_STARTS:
                yield from _json(path, stream, markers, json_views)
            else:
                yield from _length_prefixed(path, stream)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            yield BadRecord(path, f"unreadable: {exc}")


def _read_exact(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError(f"cut short: {len(data)} of {size} bytes")
    return data


def _varint(stream: IO[bytes]) -> int | None:
    """A protobuf varint from the stream; None at a clean end of the stream."""
    result = 0
    for shift in range(0, 70, 7):
        byte = stream.read(1)
        if not byte:
            if shift == 0:
                return None
            raise EOFError("cut short inside a varint")
        result |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return result
    raise EOFError("a varint longer than 10 bytes")


def _protobuf_request(path: str, stream: IO[bytes]) -> Iterator[Record | BadRecord]:
    """One serialized request, read one top-level `ResourceSpans` at a time."""
    number = 0
    while True:
        tag = _varint(stream)
        if tag is None:
            return
        number += 1
        where = f"{path}#{number}"
        length = _varint(stream) if tag & 7 == 2 else None
        if tag >> 3 != 1 or length is None:
            yield BadRecord(where, f"not an ExportTraceServiceRequest field (tag {tag})")
            return  # the framing is lost: nothing after it can be trusted
        if length > MAX_RECORD_BYTES:
            yield BadRecord(where, f"a ResourceSpans of {length} bytes exceeds {MAX_RECORD_BYTES}")
            stream.seek(length, 1)
            continue
        try:
            data = _read_exact(stream, length)
        except EOFError as exc:
            yield BadRecord(where, str(exc))
            return
        try:
            resource_spans = ResourceSpans.FromString(data)
        except (DecodeError, ValueError, RecursionError) as exc:
            yield BadRecord(where, f"not an OTLP ResourceSpans: {exc}")
            continue
        yield where, ExportTraceServiceRequest(resource_spans=[resource_spans])


def _length_prefixed(path: str, stream: IO[bytes]) -> Iterator[Record | BadRecord]:
    """Requests each behind a 4-byte big-endian length (the Collector's proto file format)."""
    number = 0
    while True:
        prefix = stream.read(4)
        if not prefix:
            return
        number += 1
        where = f"{path}#{number}"
        if len(prefix) < 4:
            yield BadRecord(where, "cut short inside a length prefix")
            return
        (length,) = struct.unpack(">I", prefix)
        if length > MAX_RECORD_BYTES:
            yield BadRecord(where, f"a message of {length} bytes exceeds {MAX_RECORD_BYTES}")
            stream.seek(length, 1)
            continue
        try:
            request = decode_protobuf(_read_exact(stream, length))
        except EOFError as exc:
            yield BadRecord(where, str(exc))
            return
        except InvalidRequest as exc:
            yield BadRecord(where, str(exc))
            continue
        yield where, request


def _json(
    path: str, stream: IO[bytes], markers: frozenset[str] | None, json_views: bool
) -> Iterator[Record | BadRecord]:
    """JSON lines; or, when the first line is not a JSON value on its own, one document."""
    first = stream.readline(MAX_RECORD_BYTES + 1)
    wrapped = False  # lines holding Jaeger answers, {"result": request}, one per line
    try:
        head = json.loads(first)
        wrapped = isinstance(head, dict) and "result" in head and "resourceSpans" not in head
    except (ValueError, RecursionError):
        stream.seek(0)
        whole = stream.read(MAX_RECORD_BYTES + 1)
        if len(whole) <= MAX_RECORD_BYTES:
            try:
                document = json.loads(whole)
            except (ValueError, RecursionError):
                pass  # neither a document nor JSON lines: read line by line, report each
            else:
                yield _document(path, document)
                return
    stream.seek(0)
    line_number = 0
    while True:
        line = stream.readline(MAX_RECORD_BYTES + 1)
        if not line:
            return
        line_number += 1
        where = f"{path}:{line_number}"
        if len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
            yield BadRecord(where, f"a line longer than {MAX_RECORD_BYTES} bytes")
            while line and not line.endswith(b"\n"):
                line = stream.readline(_READ_CHUNK)
            continue
        if line.isspace():  # (never empty here): a blank line, without copying it stripped
            continue
        if wrapped:
            try:
                yield _document(where, json.loads(line))
            except (ValueError, RecursionError) as exc:
                yield BadRecord(where, f"not valid JSON: {exc}")
            continue
        try:
            request: ExportTraceServiceRequest | JsonRequest
            if markers is None:
                request = decode_json(line)
            elif json_views:
                request = read_request(line, markers)
            else:
                request = _thin_json(line, markers)
        except InvalidRequest as exc:
            yield BadRecord(where, str(exc))
            continue
        yield where, request


def _thin_json(line: bytes, markers: frozenset[str]) -> ExportTraceServiceRequest:
    """A JSON request whose spans without a marker key keep only their ids and name; the
    others (and resources) are decoded in full by `decode_json`, one span at a time (the
    reference reader: see `read_records`)."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"not valid JSON: {exc}") from None
    request = ExportTraceServiceRequest()
    for rs in _listed(data, "resourceSpans", "request"):
        out = request.resource_spans.add()
        resource = rs.get("resource")
        if resource is not None:
            out.resource.CopyFrom(_resource(json.dumps(resource, sort_keys=True)))
        for ss in _listed(rs, "scopeSpans", "resourceSpans[]"):
            scope = out.scope_spans.add()
            for span in _listed(ss, "spans", "scopeSpans[]"):
                keys = span.get("attributes")
                if isinstance(keys, list) and any(
                    isinstance(kv, dict) and kv.get("key") in markers for kv in keys
                ):
                    wrapped = {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}
                    full = decode_json(json.dumps(wrapped).encode())
                    scope.spans.append(full.resource_spans[0].scope_spans[0].spans[0])
                else:
                    _thin_span(scope.spans.add(), span)
    return request


@functools.lru_cache(maxsize=64)
def _resource(text: str) -> Resource:
    """A JSON resource decoded once: a file's lines mostly repeat a few resources."""
    request = decode_json(('{"resourceSpans": [{"resource": ' + text + "}]}").encode())
    return request.resource_spans[0].resource


def _listed(node: Any, key: str, where: str) -> list[dict[str, Any]]:
    if not isinstance(node, dict):
        raise InvalidRequest(f"{where}: expected a JSON object, got {type(node).__name__}")
    value = node.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InvalidRequest(f"{where}.{key}: expected a JSON array of objects")
    return value


def _thin_span(out: Any, span: dict[str, Any]) -> None:
    for key, field_name in (("traceId", "trace_id"), ("spanId", "span_id"),
                            ("parentSpanId", "parent_span_id")):
        value = span.get(key)
        if not value:
            continue
        try:
            setattr(out, field_name, bytes.fromhex(value))
        except (TypeError, ValueError):
            raise InvalidRequest(f"span.{key}: {value!r:.40} is not a hex id") from None
    name = span.get("name")
    if isinstance(name, str):
        out.name = name


def _document(path: str, document: Any) -> Record | BadRecord:
    """One JSON document: a request, or Jaeger's `{"result": request}`, ids hex or base64."""
    if isinstance(document, dict) and isinstance(document.get("result"), dict):
        document = document["result"]
    if not isinstance(document, dict) or not (
        "resourceSpans" in document or "resource_spans" in document
    ):
        return BadRecord(path, "a JSON document without resourceSpans")
    try:
        _hex_ids(document)
        return path, decode_json(json.dumps(document).encode("utf-8"))
    except InvalidRequest as exc:
        return BadRecord(path, str(exc))


_ID_BYTES = {"traceId": 16, "spanId": 8, "parentSpanId": 8}


def _hex_ids(document: dict[str, Any]) -> None:
    """Rewrite base64 ids (proto3 JSON, as some backends answer) as the hex OTLP/JSON uses."""
    for resource_spans in _items(document, "resourceSpans"):
        for scope_spans in _items(resource_spans, "scopeSpans"):
            for span in _items(scope_spans, "spans"):
                for node in (span, *_items(span, "links")):
                    for key, size in _ID_BYTES.items():
                        value = node.get(key) if isinstance(node, dict) else None
                        if isinstance(value, str) and value and not _is_hex(value, size):
                            try:
                                raw = base64.b64decode(value, validate=True)
                            except (binascii.Error, ValueError):
                                continue  # decode_json reports it
                            if len(raw) == size:
                                node[key] = raw.hex()


def _items(node: Any, key: str) -> list[Any]:
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, list) else []


def _is_hex(value: str, size: int) -> bool:
    if len(value) != 2 * size:
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def expand_paths(paths: Sequence[str]) -> list[str]:
    """Files as given; a directory stands for the files in it (sorted, not recursive)."""
    files: list[str] = []
    for path in paths:
        given = Path(path)
        if given.is_dir():
            files.extend(str(p) for p in sorted(given.iterdir()) if p.is_file())
        else:
            files.append(path)
    return files


__all__ = ["MAX_RECORD_BYTES", "BadRecord", "expand_paths", "read_records"]
