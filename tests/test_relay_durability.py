"""Durability: with `--queue-dir` an acknowledged span survives SIGKILL (delivered after the
restart); without it, what the relay held in memory is the documented loss window."""

from __future__ import annotations

import os
import threading
import time

import grpc
import pytest

from otel_grounding import attributes as A
from otel_grounding.conventions import native

from relay_kit import (
    EXPORT_METHOD,
    OtlpSink,
    SinkBehaviour,
    make_request,
    make_span,
    start_relay,
)


def _stream_until_killed(relay, seconds: float) -> tuple[set[bytes], set[bytes]]:
    """Send 50-span requests (a held run span in every fifth) as fast as they are acknowledged,
    then SIGKILL the relay mid-stream. Returns the acknowledged span ids and run span ids."""
    acked: set[bytes] = set()
    runs: set[bytes] = set()
    channel = grpc.insecure_channel(relay.grpc_target)
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None, response_deserializer=None)
    deadline = time.monotonic() + seconds
    number = 0
    killer = threading.Timer(seconds, relay.process.kill)
    killer.start()
    try:
        while time.monotonic() < deadline + 1:
            trace_id = os.urandom(16)
            spans = [make_span(trace_id, os.urandom(8), None, f"op{number}-{i}")
                     for i in range(50)]
            if number % 5 == 0:
                spans[0] = make_span(trace_id, os.urandom(8), None, "run", {
                    native.RUN_ID: f"run-{number}", native.RUN_OUTPUT: "It shipped today."})
            try:
                call(make_request(spans).SerializeToString(), timeout=5)
            except grpc.RpcError:
                break  # killed
            acked.update(s.span_id for s in spans)
            if number % 5 == 0:
                runs.add(spans[0].span_id)
            number += 1
    finally:
        killer.join()
        channel.close()
    relay.process.wait(5)
    return acked, runs


@pytest.mark.parametrize("persistent", [True, False], ids=["queue-dir", "memory-only"])
def test_sigkill_mid_stream_then_restart_delivers_every_acknowledged_span(tmp_path, persistent):
    sink = OtlpSink(behaviour=SinkBehaviour(delay=0.2)).start()  # slower than the client
    args = ["--wait-duration", "30", "--export-batch-spans", "500", "--export-workers", "1"]
    if persistent:
        args += ["--queue-dir", str(tmp_path / "queue")]
    try:
        with start_relay(sink.endpoint, *args) as first:
            acked, runs = _stream_until_killed(first, 2.5)
        assert first.process.returncode == -9 and len(acked) > 2_000
        delivered_before = {s.span.span_id for s in sink.spans()}
        assert not runs & delivered_before  # held for 30 s: all in memory at the kill
        sink.behaviour.delay = 0.0
        with start_relay(sink.endpoint, *args, "--drain-timeout", "20") as second:
            if persistent:
                assert sink.wait_until(
                    lambda: acked <= {s.span.span_id for s in sink.spans()}, 60)
                replayed = [e for e in second.logs()
                            if e.get("msg") == "relay: queue directory replayed"]
                assert replayed and replayed[0]["spans"] > 0
            assert second.terminate() == 0  # the drain scores and delivers the replayed runs
        received = {s.span.span_id: s for s in sink.spans()}
        missing = acked - received.keys()
        if not persistent:
            assert missing  # the loss window the docs state: what was held in memory
            return
        assert not missing
        for run_id in runs:  # replayed runs are graded, and say their evidence was lost
            attributes = received[run_id].attributes
            assert attributes[A.GRADE] == "partial"
            assert A.REASON_EVIDENCE_EVICTED in attributes[A.COVERAGE_REASON]
        assert os.listdir(tmp_path / "queue") == []  # everything delivered: nothing kept
    finally:
        sink.stop()
