"""Reading an HTTP request's body within its bounds: `Content-Length` or chunked framing,
capped on the wire (`max_request_bytes`) and while inflating (`max_decompressed_bytes`: a gzip
bomb is refused after at most that many bytes were produced), every piece reserved from the
intake budget (`memory`) before it is read or produced.

A refused reservation still reads the body (discarded), so that the client gets the answer
rather than a reset. `TooLarge` is a body over its cap; `InvalidRequest` a body that is not what
its headers say; `LostFraming` (an `InvalidRequest`) one after which nothing more on the
connection can be read.
"""

from __future__ import annotations

import zlib
from email.message import Message
from io import BufferedIOBase

from otel_grounding.relay.memory import Refusal, Reservation
from otel_grounding.relay.otlp import InvalidRequest

#: Bodies are read in pieces of at most this many bytes.
READ_PIECE = 64 * 1024
#: Bodies are inflated in pieces of at most this many bytes, each reserved first.
INFLATE_PIECE = 1024 * 1024
#: A refused request's body is read and discarded when at most this long, else the connection
#: is closed after the answer.
DISCARD_BYTES = 64 * 1024
HEX_DIGITS = b"0123456789abcdefABCDEF"


class TooLarge(Exception):
    """A body over its cap, on the wire or once inflated."""


class LostFraming(InvalidRequest):
    """A chunked body whose framing is broken: the connection must be closed."""


def read_body(
    rfile: BufferedIOBase,
    headers: Message,
    limit: int,
    keep: bool = True,
    reservation: Reservation | None = None,
) -> bytes:
    """The body (at most `limit` bytes on the wire, else TooLarge), reserved before it is
    read; with `keep` False it is read and discarded in pieces (a refused request costs no
    memory). When the reservation is refused the body is still read (discarded)."""
    if "chunked" in (headers.get("Transfer-Encoding") or "").lower():
        return _read_chunked(rfile, limit, keep, reservation)
    length_header = headers.get("Content-Length")
    if length_header is None:
        raise InvalidRequest("Content-Length or chunked Transfer-Encoding required")
    if not length_header.strip().isdigit():
        raise InvalidRequest(f"bad Content-Length {length_header!r}")
    length = int(length_header)
    if length > limit:
        raise TooLarge(f"request body of {length} bytes exceeds {limit} bytes")
    if reservation is not None:
        try:
            reservation.add(length)
        except Refusal:
            _read_exactly(rfile, length, keep=False)
            raise
    return _read_exactly(rfile, length, keep)


def _read_exactly(rfile: BufferedIOBase, length: int, keep: bool) -> bytes:
    parts: list[bytes] = []
    left = length
    while left > 0:
        part = rfile.read(min(left, READ_PIECE))
        if not part:
            raise InvalidRequest("request body shorter than its Content-Length")
        left -= len(part)
        if keep:
            parts.append(part)
    return b"".join(parts)


def _read_chunked(
    rfile: BufferedIOBase, limit: int, keep: bool, reservation: Reservation | None
) -> bytes:
    parts: list[bytes] = []
    total = 0
    refused: Refusal | None = None
    while True:
        line = rfile.readline(1024)
        token = line.split(b";")[0].strip()
        if not token or len(token) > 16 or token.strip(HEX_DIGITS):
            # the framing is lost: nothing after it is read; no sign, no 0x: hex only
            raise LostFraming("bad chunk size in chunked body")
        size = int(token, 16)
        if size == 0:
            while rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                pass
            if refused is not None:
                raise refused
            return b"".join(parts)
        total += size
        if total > limit:
            raise TooLarge(f"request body exceeds {limit} bytes")
        if reservation is not None and refused is None:
            try:
                reservation.add(size)
            except Refusal as refusal:  # read the rest, discarded, then answer
                refused, keep, parts = refusal, False, []
        part = _read_exactly(rfile, size, keep)
        if keep:
            parts.append(part)
        if rfile.readline(8) not in (b"\r\n", b"\n"):
            raise LostFraming("chunk not followed by CRLF in chunked body")


def discard_small_body(rfile: BufferedIOBase, headers: Message) -> bool:
    """Skip a refused request's body when it is small and framed by its length; False when
    it was not read (the connection must then close after the answer)."""
    try:
        length = int(headers.get("Content-Length") or "0")
    except ValueError:
        length = -1
    chunked = "chunked" in (headers.get("Transfer-Encoding") or "").lower()
    if 0 <= length <= DISCARD_BYTES and not chunked:
        rfile.read(length)
        return True
    return False


def inflate(body: bytes, encoding: str, limit: int, reservation: Reservation) -> bytes:
    """Decompress, producing at most `limit` bytes: beyond that raises TooLarge without
    inflating further (a gzip bomb costs at most `limit` bytes), each piece reserved before it
    is produced. Concatenated gzip members are read in turn; bad data raises InvalidRequest."""
    wbits = 16 + zlib.MAX_WBITS if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
    out: list[bytes] = []
    produced = 0
    data = body
    try:
        while True:
            inflater = zlib.decompressobj(wbits)
            pending = data
            while True:
                want = min(INFLATE_PIECE, limit - produced + 1)
                reservation.add(want)
                chunk = inflater.decompress(pending, want)
                reservation.release(want - len(chunk))
                produced += len(chunk)
                out.append(chunk)
                if produced > limit:
                    raise TooLarge(f"decompressed body exceeds {limit} bytes")
                pending = inflater.unconsumed_tail
                if inflater.eof or (not pending and len(chunk) < want):
                    break
            if not inflater.eof:
                raise InvalidRequest(f"body is truncated {encoding} data")
            data = inflater.unused_data
            if not data or wbits == zlib.MAX_WBITS:
                break
    except zlib.error as exc:
        raise InvalidRequest(f"body is not valid {encoding} data: {exc}") from None
    reservation.add(produced)  # the pieces and their join, for a moment
    joined = b"".join(out)
    del out
    reservation.release(produced)
    return joined
