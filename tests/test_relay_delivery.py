"""What the relay accepts is delivered or counted: poison spans refused at intake, a batch the
next hop refuses narrowed to the request that caused it, and an exit status that tells."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request

import grpc
import pytest
from google.rpc import status_pb2

from otel_grounding.relay.forward import Forwarder, GrpcSender, RetryPolicy, next_hop_from_env
from otel_grounding.relay.otlp import encode_json
from otel_grounding.relay.queue import Chunk, DeliveryQueue

from relay_kit import (
    OtlpSink,
    SinkBehaviour,
    grpc_export,
    make_request,
    make_span,
    start_relay,
)


def post(url: str, body: bytes, content_type: str = "application/x-protobuf"):
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def relay(sink):
    with start_relay(sink.endpoint, "--wait-duration", "0.3") as process:
        yield process
        assert process.terminate() == 0


@pytest.mark.parametrize(
    ("trace_id", "span_id", "parent", "named"),
    [
        (os.urandom(15), os.urandom(8), None, "trace_id"),
        (b"", os.urandom(8), None, "trace_id"),
        (os.urandom(16), os.urandom(7), None, "span_id"),
        (os.urandom(16), os.urandom(16), None, "span_id"),
        (os.urandom(16), os.urandom(8), os.urandom(4), "parent_span_id"),
    ],
    ids=["trace-15", "trace-empty", "span-7", "span-16", "parent-4"],
)
def test_spans_with_ids_otlp_forbids_are_refused_naming_the_problem(
    relay, sink, trace_id, span_id, parent, named
):
    good = make_span(os.urandom(16), os.urandom(8), None, "good")
    bad = make_span(trace_id, span_id, parent, "bad")
    data = make_request([good, bad]).SerializeToString()
    status, body = post(relay.http_url, data)
    assert status == 400
    message = status_pb2.Status.FromString(body).message
    assert named in message and "span 1" in message, message
    status, body = post(relay.http_url, encode_json(make_request([good, bad])), "application/json")
    assert status == 400 and named in json.loads(body)["message"]
    with pytest.raises(grpc.RpcError) as info:
        grpc_export(relay.grpc_target, data)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert named in info.value.details()
    # nothing of a refused request was accepted; a valid one still is
    ok = make_span(os.urandom(16), os.urandom(8), os.urandom(8), "ok")
    assert post(relay.http_url, make_request([ok]).SerializeToString())[0] == 200
    assert sink.wait_until(lambda: any(s.span.span_id == ok.span_id for s in sink.spans()), 5)
    assert not any(s.span.span_id in (good.span_id, bad.span_id) for s in sink.spans())


def test_a_merged_batch_the_next_hop_refuses_drops_only_the_offending_request():
    """Two clients' requests merged into one export; the next hop refuses the export for one
    span permanently. The other client's 800 spans are delivered; the one poison request is
    dropped, counted."""
    behaviour = SinkBehaviour(refuse_name="poison")
    with OtlpSink(behaviour=behaviour) as sink:
        queue = DeliveryQueue(10_000, 64 << 20)
        good_trace = os.urandom(16)
        good = make_request([make_span(good_trace, os.urandom(8), None, f"ok{i}")
                             for i in range(800)]).SerializeToString()
        poison = make_request([make_span(os.urandom(16), os.urandom(8), None, "poison"),
                               make_span(os.urandom(16), os.urandom(8), None, "bystander")])
        first = make_request([make_span(good_trace, os.urandom(8), None, "first")])
        chunks = [Chunk(first.SerializeToString(), 1), Chunk(poison.SerializeToString(), 2),
                  Chunk(good, 800)]
        for chunk in chunks:
            assert queue.reserve(chunk.spans, chunk.size)
            queue.put(chunk)
        sender = GrpcSender(next_hop_from_env({}, endpoint=sink.endpoint, insecure=True))
        forwarder = Forwarder(queue, sender, workers=1, retry=RetryPolicy(initial=0.05))
        forwarder.start()
        assert queue.wait_empty(time.monotonic() + 10)
        forwarder.drain(time.monotonic() + 2)
        assert sink.span_count == 801
        assert {s.span.name for s in sink.spans()} >= {"first", "ok0", "ok799"}
        assert forwarder.stats.dropped == 2 and forwarder.stats.exported == 801


def test_an_export_worker_lingers_for_a_fuller_batch_but_not_past_a_full_one_or_close():
    """`take` with a linger: a chunk put while the worker lingers joins its batch; a batch
    already full, or a closed queue, ends the linger at once (a linger of an hour would
    otherwise hold the test)."""
    import threading

    queue = DeliveryQueue(10_000, 64 << 20)
    first, second = Chunk(b"a" * 10, 1), Chunk(b"b" * 10, 1)
    queue.put(first)
    lingering = threading.Event()

    def put_later() -> None:
        lingering.wait(10)
        queue.put(second)

    feeder = threading.Thread(target=put_later)
    feeder.start()
    original = queue._ready_cond.wait

    def wait(timeout: float | None = None) -> bool:
        lingering.set()  # the worker waits for more: the second chunk comes now
        return original(timeout)

    queue._ready_cond.wait = wait  # type: ignore[method-assign]
    assert queue.take(2, 1 << 20, timeout=1, linger=30) == [first, second]
    feeder.join()
    queue._ready_cond.wait = original  # type: ignore[method-assign]
    full = [Chunk(b"c" * 10, 2), Chunk(b"d" * 10, 2)]
    for chunk in full:
        queue.put(chunk)
    assert queue.take(4, 1 << 20, timeout=1, linger=3600) == full
    queue.put(first)
    queue.close()
    assert queue.take(4, 1 << 20, timeout=1, linger=3600) == [first]
    assert queue.ready_spans == 0


def test_every_drop_over_the_process_life_is_counted_in_the_exit_status():
    """A batch dropped long before SIGTERM (the next hop refused it permanently) still makes
    the exit status non-zero, and the final log gives the real count."""
    behaviour = SinkBehaviour(fail_first=1, fail_code=grpc.StatusCode.INVALID_ARGUMENT)
    with OtlpSink(behaviour=behaviour) as sink, start_relay(sink.endpoint) as relay:
        trace_id = os.urandom(16)
        data = make_request([make_span(trace_id, os.urandom(8), None, f"op{i}")
                             for i in range(3)]).SerializeToString()
        grpc_export(relay.grpc_target, data)
        assert sink.wait_until(lambda: relay.metric("otel_grounding.relay.spans_dropped") == 3, 5)
        later = make_request([make_span(trace_id, os.urandom(8), None, "later")])
        grpc_export(relay.grpc_target, later.SerializeToString())
        assert sink.wait_for_spans(1, timeout=5)
        assert relay.terminate() == 1
        (stopped,) = [e for e in relay.logs() if e.get("msg") == "relay: stopped"]
        assert stopped["dropped"] == 3 and stopped["exported"] == 1
        assert stopped["undelivered"] == 3


def test_the_relays_own_exports_run_with_instrumentation_suppressed():
    """The relay's requests to the next hop are its own work: an instrumented gRPC or HTTP
    client (a relay run under zero-code instrumentation) must not trace them, as the SDK's
    exporters suppress theirs."""
    from opentelemetry.instrumentation.utils import is_instrumentation_enabled

    from otel_grounding.relay.forward import SendResult

    class Recording:
        def __init__(self) -> None:
            self.instrumented: list[bool] = []

        def send(self, data: bytes) -> SendResult:
            self.instrumented.append(is_instrumentation_enabled())
            return SendResult(True)

        def close(self) -> None:
            pass

    queue = DeliveryQueue(100, 1 << 20)
    request = make_request([make_span(os.urandom(16), os.urandom(8), None, "s")])
    chunk = Chunk(request.SerializeToString(), 1)
    assert queue.reserve(chunk.spans, chunk.size)
    queue.put(chunk)
    sender = Recording()
    forwarder = Forwarder(queue, sender, workers=1)  # type: ignore[arg-type]
    forwarder.start()
    assert queue.wait_empty(time.monotonic() + 10)
    forwarder.drain(time.monotonic() + 2)
    assert sender.instrumented == [False]


class _BrokenOnce:
    """A sender with a bug on its first call (it raises instead of returning a failed send)."""

    def __init__(self, real: GrpcSender) -> None:
        self.real, self.calls = real, 0

    def send(self, data: bytes):
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("a bug in the sender")
        return self.real.send(data)

    def close(self) -> None:
        self.real.close()


@pytest.mark.internal_errors
def test_a_sender_bug_is_an_internal_error_and_the_worker_goes_on(sink):
    """A sender that raises was read as a failed send, uncounted as an error; now it is counted
    and logged as an internal error (never re-raised: nobody can take it on a worker thread),
    its batch is dropped and counted, and the worker delivers the next one."""
    from otel_grounding.internal_error import internal_errors

    before = internal_errors().get("relay.export", 0)
    queue = DeliveryQueue(100, 1 << 20)
    sender = _BrokenOnce(GrpcSender(next_hop_from_env({}, endpoint=sink.endpoint, insecure=True)))
    forwarder = Forwarder(queue, sender, workers=1)  # type: ignore[arg-type]
    forwarder.start()
    for name in ("lost", "delivered"):
        chunk = Chunk(make_request([make_span(os.urandom(16), os.urandom(8), None, name)])
                      .SerializeToString(), 1)
        assert queue.reserve(chunk.spans, chunk.size)
        queue.put(chunk)
        assert queue.wait_empty(time.monotonic() + 10)
    forwarder.drain(time.monotonic() + 2)
    assert internal_errors().get("relay.export", 0) == before + 1
    assert (forwarder.stats.dropped, forwarder.stats.exported) == (1, 1)
    assert any(s.span.name == "delivered" for s in sink.spans())


def test_a_next_hops_unreadable_answers_are_read_as_empty_never_raised():
    from otel_grounding.relay.forward import _decode_response, _retry_info_delay, _status_message

    for payload, kind in ((b"{bad", "application/json"), (b"\xff", "application/json"),
                          (b'{"partialSuccess": 5}', "application/json"),
                          (b"\x0a\xff\xff", "application/x-protobuf")):
        assert _decode_response(payload, kind).partial_success.rejected_spans == 0
    assert _status_message(b"[1]", "application/json") == "[1]"
    assert _status_message(b'{"message": "no"}', "application/json") == "no"
    assert _status_message(b"\x0a\xff\xff", "application/x-protobuf").startswith("\n")
    assert _retry_info_delay(b"\xff") is None
