"""The OTLP relay's cost, measured side by side in one run (a script, not a test).

1. Throughput: spans/s through the relay (grounding on, 1% run spans) and through the same
   relay in `--passthrough` mode (decode and re-encode only: the floor any Python relay pays),
   both forwarding to the same in-process OTLP/gRPC sink; the ratio grounding / pass-through.
   Wall-clock spans/s (reaching the sink while the client sends) and spans per CPU-second of
   the relay process (all its work, robust to the client and the sink sharing the cores).
2. Latency added per request: the acknowledgement time of one 100-span request (sequential),
   relay vs pass-through vs the sink itself, p50/p99.
3. Memory under a flood of 100,000 traces whose runs never arrive (tool outputs buffered):
   peak RSS of the relay process, traces buffered and evicted (budgets: num_traces, bytes).
4. Memory under attack, with `--memory-limit-mib 256`: bombs of empty spans (gzip over HTTP,
   gzip over gRPC, 8 at once), a burst of 32 clients sending 1.7 MB requests, held runs filling
   the queue: peak RSS after each, and how the requests were answered.

    .venv/bin/python benchmarks/bench_relay.py [--seconds 8] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from otel_grounding.conventions import native

from relay_kit import (
    EXPORT_METHOD,
    OtlpSink,
    SinkBehaviour,
    empty_spans_request,
    make_request,
    make_span,
    process_memory,
    start_relay,
)

SPANS_PER_TRACE = 100  # 1 run span per trace: 1% run spans
TRACES_PER_REQUEST = 5  # 500 spans per request, like an SDK batch


# -- workload ---------------------------------------------------------------------------------
def placeholder(i: int) -> bytes:
    return b"\xa5\x5a" * 7 + bytes([0xC3, i])


def trace_spans(trace_id: bytes, rng: random.Random, agent: bool = True) -> list[Any]:
    """One agent trace: run (root), LLM step, 2 tool steps and 96 web/db-like spans
    (`agent=False`: 100 web/db-like spans, nothing for the conventions to read)."""
    ids = [rng.randbytes(8) for _ in range(SPANS_PER_TRACE)]
    run_id, step_id = ids[0], ids[1]
    if not agent:
        return [make_span(trace_id, ids[n], ids[rng.randrange(0, n)] if n else None,
                          "GET /api/orders/{id}", {
                              "http.request.method": "GET",
                              "url.full": f"https://orders.internal/api/orders/{n}",
                              "http.response.status_code": 200,
                              "server.address": "orders.internal", "server.port": 443,
                              "network.protocol.version": "1.1",
                              "user_agent.original": "agent/1.0",
                              "http.route": "/api/orders/{id}"})
                for n in range(SPANS_PER_TRACE)]
    spans = [
        make_span(trace_id, run_id, None, "invoke_agent support-agent", {
            native.RUN_ID: "run-" + ids[0].hex(), native.PROJECT_ID: "bench",
            native.RUN_TOOL_STEPS: 2,
            native.RUN_OUTPUT: "Order 4411 shipped on 12 March from the Lyon warehouse. "
            "The customer was refunded 25 euros for the delay. The carrier is DHL and the "
            "tracking number was sent by email. Delivery is expected within three days.",
        }),
        make_span(trace_id, step_id, run_id, "chat model", {native.STEP_TYPE: "llm",
                                                           "gen.model": "scripted"}),
        make_span(trace_id, ids[2], run_id, "execute_tool orders", {
            native.STEP_TYPE: "tool",
            native.STEP_OUTPUT: '{"order": 4411, "status": "shipped", "date": "12 March", '
            '"warehouse": "Lyon", "carrier": "DHL", "tracking": "sent by email"}'}),
        make_span(trace_id, ids[3], run_id, "execute_tool refunds", {
            native.STEP_TYPE: "tool",
            native.STEP_OUTPUT: "Refund of 25 euros issued to the customer for the delay."}),
    ]
    for n in range(4, SPANS_PER_TRACE):
        parent = ids[rng.randrange(0, n)] if n > 4 else run_id
        spans.append(make_span(trace_id, ids[n], parent, "GET /api/orders/{id}", {
            "http.request.method": "GET", "url.full": f"https://orders.internal/api/orders/{n}",
            "http.response.status_code": 200, "server.address": "orders.internal",
            "server.port": 443, "network.protocol.version": "1.1",
            "user_agent.original": "agent/1.0", "http.route": "/api/orders/{id}"}))
    return spans


def request_template(seed: int = 1, agent: bool = True) -> bytes:
    rng = random.Random(seed)
    spans = []
    for i in range(TRACES_PER_REQUEST):
        spans.extend(trace_spans(placeholder(i), rng, agent))
    data = make_request(spans, service="bench-agent").SerializeToString()
    for i in range(TRACES_PER_REQUEST):
        assert data.count(placeholder(i)) == SPANS_PER_TRACE
    return data


def fresh(template: bytes) -> bytes:
    """The template with new trace ids (every request carries new traces)."""
    data = template
    for i in range(TRACES_PER_REQUEST):
        data = data.replace(placeholder(i), os.urandom(16))
    return data


# -- measurement helpers ----------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int, key: str = "VmRSS") -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def throughput(
    sink: OtlpSink, passthrough: bool, seconds: float, template: bytes
) -> dict[str, float]:
    args = ["--wait-duration", "1", "--queue-max-spans", "200000", "--queue-max-bytes",
            str(256 * 1024 * 1024), "--min-claim-grounding-rate", "0.7"]
    if passthrough:
        args.append("--passthrough")
    relay = start_relay(sink.endpoint, *args)
    spans_per_request = SPANS_PER_TRACE * TRACES_PER_REQUEST
    payloads = deque(fresh(template) for _ in range(64))
    stop = threading.Event()
    refill = threading.Thread(target=lambda: [
        payloads.append(fresh(template)) if len(payloads) < 256 else time.sleep(0.001)
        for _ in iter(stop.is_set, True)], daemon=True)
    refill.start()
    channel = grpc.insecure_channel(relay.grpc_target, options=[
        ("grpc.max_send_message_length", -1)])
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None,
                               response_deserializer=None)
    sent = refused = 0
    try:
        before = sink.span_count
        for _ in range(10):  # warm up
            call(fresh(template), timeout=30)
        sink.wait_for_spans(before + 10 * spans_per_request, timeout=30)
        base = sink.span_count
        cpu0, started = cpu_seconds(relay.process.pid), time.perf_counter()
        in_flight: deque[Any] = deque()
        while time.perf_counter() - started < seconds:
            while len(in_flight) < 4:
                data = payloads.popleft() if payloads else fresh(template)
                in_flight.append(call.future(data, timeout=30))
            future = in_flight.popleft()
            try:
                future.result()
                sent += spans_per_request
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
                refused += 1
                time.sleep(0.01)
        # Wall rate: what reached the sink while the client was sending (steady state), not
        # counting the tail in which the grounding relay still holds its last runs for
        # `wait_duration` after the client stopped.
        window = time.perf_counter() - started
        delivered_in_window = sink.span_count - base
        for future in in_flight:
            try:
                future.result()
                sent += spans_per_request
            except grpc.RpcError:
                refused += 1
        if not sink.wait_for_spans(base + sent, timeout=60):
            raise RuntimeError(f"{base + sent - sink.span_count} accepted spans never arrived")
        cpu = cpu_seconds(relay.process.pid) - cpu0  # all the work, the tail included
        delivered = sink.span_count - base
    finally:
        stop.set()
        channel.close()
        relay.terminate()
        relay.close()
    return {"spans": delivered, "spans_in_window": delivered_in_window, "seconds": window,
            "spans_per_s": delivered_in_window / window, "relay_cpu_s": cpu,
            "spans_per_cpu_s": delivered / cpu if cpu else float("nan"),
            "refused_requests": refused}


def latency(target: str, requests: int, template: bytes) -> list[float]:
    channel = grpc.insecure_channel(target)
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None, response_deserializer=None)
    timings = []
    try:
        for _ in range(20):
            call(fresh(template), timeout=10)
        for _ in range(requests):
            data = fresh(template)
            started = time.perf_counter()
            call(data, timeout=10)
            timings.append((time.perf_counter() - started) * 1000)
    finally:
        channel.close()
    return timings


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def flood(sink: OtlpSink, traces: int) -> dict[str, float]:
    """`traces` distinct traces of 4 spans (a tool output + 3 plain spans), no run ever."""
    relay = start_relay(sink.endpoint, "--queue-max-spans", "200000")
    rng = random.Random(3)
    tool_text = "Order 4411 shipped on 12 March from the Lyon warehouse; refund of 25 euros. " * 4
    per_request = 125  # 500 spans
    channel = grpc.insecure_channel(relay.grpc_target)
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None, response_deserializer=None)
    base_rss = rss_kib(relay.process.pid)
    try:
        sent = 0
        while sent < traces:
            spans = []
            for _ in range(min(per_request, traces - sent)):
                trace_id = os.urandom(16)
                root = rng.randbytes(8)
                spans.append(make_span(trace_id, root, None, "POST /chat"))
                spans.append(make_span(trace_id, rng.randbytes(8), root, "agent step"))
                spans.append(make_span(trace_id, rng.randbytes(8), root, "execute_tool",
                                       {native.STEP_TYPE: "tool", native.STEP_OUTPUT: tool_text}))
                spans.append(make_span(trace_id, rng.randbytes(8), root, "SELECT"))
                sent += 1
            data = make_request(spans).SerializeToString()
            while True:
                try:
                    call(data, timeout=30)
                    break
                except grpc.RpcError as error:
                    if error.code() != grpc.StatusCode.UNAVAILABLE:
                        raise
                    time.sleep(0.05)
        time.sleep(1.0)
        _, health = relay.health_get("/healthz")
        evicted = relay.metric("otel_grounding.traces_evicted")
        peak = rss_kib(relay.process.pid, "VmHWM")
        now = rss_kib(relay.process.pid)
    finally:
        channel.close()
        relay.terminate()
        relay.close()
    return {"traces": traces, "base_rss_mib": base_rss / 1024, "peak_rss_mib": peak / 1024,
            "rss_after_mib": now / 1024, "traces_buffered": health["traces_buffered"],
            "traces_evicted": evicted}


def attacks(sink: OtlpSink, seconds: float) -> list[tuple[str, float, dict[str, int]]]:
    """Peak RSS (MiB) of a relay with a 256 MiB memory limit after each attack, and the
    answers its requests got."""
    import gzip
    import http.client
    from collections import Counter

    relay = start_relay(sink.endpoint, "--memory-limit-mib", "256", "--queue-max-bytes",
                        str(32 << 20), "--wait-duration", "60", "--queue-max-spans", "1000000")
    port = int(str(relay.http).rsplit(":", 1)[1])
    pid = relay.process.pid

    def post(body: bytes, headers: dict[str, str]) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request("POST", "/v1/traces", body=body, headers={
                "Content-Type": "application/x-protobuf", **headers})
            response = connection.getresponse()
            response.read()
            return f"http {response.status}"
        finally:
            connection.close()

    def export(call: Any, body: bytes, compression: Any = None) -> str:
        try:
            call(body, timeout=60, compression=compression)
            return "grpc OK"
        except grpc.RpcError as error:
            return f"grpc {error.code().name}"

    def in_parallel(jobs: list[Any]) -> Counter[str]:
        answers: Counter[str] = Counter()
        lock = threading.Lock()

        def run(job: Any) -> None:
            for answer in job():
                with lock:
                    answers[answer] += 1

        threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return answers

    channel = grpc.insecure_channel(relay.grpc_target)
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None, response_deserializer=None)
    rows = []
    try:
        time.sleep(0.5)
        rows.append(("idle", process_memory(pid) / 2**20, {}))
        raw = empty_spans_request(7_000_000)
        bomb = gzip.compress(raw, compresslevel=9)
        answers = in_parallel(
            [lambda: [post(bomb, {"Content-Encoding": "gzip"})]] * 4
            + [lambda: [export(call, raw, grpc.Compression.Gzip)]] * 4)
        rows.append((f"8 bombs of 7M empty spans ({len(bomb) // 1024} KiB gzip each)",
                     process_memory(pid, "VmHWM") / 2**20, dict(answers)))
        body = make_request([make_span(os.urandom(16), os.urandom(8), os.urandom(8), "GET", {
            f"http.attr{k}": "value " * 6 for k in range(8)}) for _ in range(4000)])
        data = body.SerializeToString()
        deadline = time.monotonic() + seconds

        def sender(grpc_client: bool) -> list[str]:
            out = []
            while time.monotonic() < deadline:
                out.append(export(call, data) if grpc_client else post(data, {}))
            return out

        answers = in_parallel([lambda: sender(False)] * 16 + [lambda: sender(True)] * 16)
        rows.append((f"burst: 32 clients x {len(data) / 1e6:.1f} MB requests for {seconds:.0f} s",
                     process_memory(pid, "VmHWM") / 2**20, dict(answers)))
        for waited in range(1, 21):  # the limiter gives freed heap back: RSS comes down
            time.sleep(0.5)
            if process_memory(pid) < 0.8 * 256 * 2**20 * 0.75:
                break
        state = relay.health_get("/healthz")[1]
        rows.append((f"resident {waited / 2:.1f} s after the burst", process_memory(pid) / 2**20,
                     {"intake_reserved_bytes": state["intake_reserved_bytes"],
                      "queue_bytes": state["queue_bytes"]}))
        output = "The order shipped today from the Paris warehouse. " * 400
        held: Counter[str] = Counter()
        while held["http 503"] < 3 and held["http 200"] < 2000:
            runs = make_request([make_span(os.urandom(16), os.urandom(8), None, "invoke_agent", {
                native.RUN_ID: os.urandom(4).hex(), native.RUN_OUTPUT: output})
                for _ in range(20)])
            held[post(runs.SerializeToString(), {})] += 1
        rows.append(("held runs (20 KB output each) until the 32 MiB queue is full",
                     process_memory(pid, "VmHWM") / 2**20, dict(held)))
    finally:
        channel.close()
        relay.kill()
        relay.close()
    return rows


def stages(template: bytes, repeats: int = 5) -> dict[str, float]:
    """Where a grounding relay's time goes, in-process, best of `repeats` (us per span)."""
    from otel_grounding.config import load_settings
    from otel_grounding.pipeline import GroundingPipeline
    from otel_grounding.relay.core import GroundingRelay, _find_all
    from otel_grounding.relay.otlp import decode_protobuf
    from otel_grounding.relay.queue import DeliveryQueue
    from otel_grounding.relay.unordered import UnorderedStore
    from otel_grounding.relay.wire import Layout, LinkRecords

    def relay() -> GroundingRelay:
        settings = load_settings({"wait_duration": 1.0, "min_claim_grounding_rate": 0.7})
        store = UnorderedStore.from_settings(settings, 2.0)
        pipeline = GroundingPipeline(settings, store=store)
        return GroundingRelay(pipeline, DeliveryQueue(10**9, 10**12), trace_store=store,
                              evidence_wait=1.0)

    spans_per_request = SPANS_PER_TRACE * TRACES_PER_REQUEST
    out: dict[str, float] = {}

    def measure(name: str, step: Any) -> None:
        best = float("inf")
        for _ in range(repeats):
            r = relay()
            datas = [fresh(template) for _ in range(100)]
            requests = [decode_protobuf(d) for d in datas]
            started = time.perf_counter()
            for data, request in zip(datas, requests):
                step(r, data, request)
            best = min(best, (time.perf_counter() - started) / len(datas) / spans_per_request)
        out[name] = best * 1e6

    measure("decode (both)", lambda r, d, q: decode_protobuf(d))
    measure("re-encode (pass-through)", lambda r, d, q: q.SerializeToString())
    measure("marker search", lambda r, d, q: _find_all(d, r._markers))
    measure("span layout (wire walk)", lambda r, d, q: Layout(d))
    measure("layout + parent links", lambda r, d, q: LinkRecords.of(Layout(d)))
    def intake(r: GroundingRelay, data: bytes, request: Any) -> None:
        layout = Layout(data)
        r._split(layout, LinkRecords.of(layout), spans_per_request)

    measure("all intake work", intake)
    best = float("inf")
    for _ in range(3):
        r = relay()
        for data in [fresh(template) for _ in range(100)]:
            r.ingest(decode_protobuf(data), data, "bench")
        held = list(r._heap)
        r._heap.clear()
        started = time.perf_counter()
        r._release(held)
        best = min(best, (time.perf_counter() - started) / len(held))
    out["scoring + enrichment, per run"] = best * 1e6
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--quick", action="store_true", help="short run (smoke test)")
    parser.add_argument("--attacks-only", action="store_true", help="only part 4")
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else args.seconds
    flood_traces = 10_000 if args.quick else 100_000

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.attacks_only:
        with OtlpSink(behaviour=SinkBehaviour(count_only=True)) as sink:
            for name, peak, answers in attacks(sink, seconds):
                shown = ", ".join(f"{k}: {v}" for k, v in sorted(answers.items()))
                print(f"   {name:62} {peak:6.0f} MiB  {shown}")
        return 0
    template = request_template()
    print(f"workload: {SPANS_PER_TRACE * TRACES_PER_REQUEST} spans/request "
          f"({len(template)} bytes), {TRACES_PER_REQUEST} traces/request, 1% run spans, "
          f"2% tool spans, 1% LLM spans\n")
    with OtlpSink(behaviour=SinkBehaviour(count_only=True)) as sink:
        results = {}
        for mode in ("passthrough", "grounding", "passthrough", "grounding"):
            result = throughput(sink, mode == "passthrough", seconds, template)
            results.setdefault(mode, []).append(result)
        best = {mode: max(runs, key=lambda r: r["spans_per_s"]) for mode, runs in results.items()}
        print("1. throughput (best of 2 runs each, interleaved)")
        for mode in ("passthrough", "grounding"):
            r = best[mode]
            print(f"   {mode:12} {r['spans_per_s']:>9,.0f} spans/s wall   "
                  f"{r['spans_per_cpu_s']:>9,.0f} spans per relay CPU-second   "
                  f"({r['spans_in_window']:,.0f} spans in {r['seconds']:.1f} s, "
                  f"{r['refused_requests']} refused)")
        wall = best["grounding"]["spans_per_s"] / best["passthrough"]["spans_per_s"]
        cpu = best["grounding"]["spans_per_cpu_s"] / best["passthrough"]["spans_per_cpu_s"]
        print(f"   ratio grounding / pass-through: {wall:.2f} wall, {cpu:.2f} per CPU-second "
              f"(target >= 0.5)")
        plain = throughput(sink, False, seconds, request_template(agent=False))
        print(f"   grounding relay, traffic with no agent span: {plain['spans_per_s']:,.0f} "
              f"spans/s wall, {plain['spans_per_cpu_s']:,.0f} per relay CPU-second "
              f"(ratio {plain['spans_per_cpu_s'] / best['passthrough']['spans_per_cpu_s']:.2f}"
              f" per CPU-second)\n")
        cost = stages(template)
        print("   where the time goes (in-process, best of 5, microseconds per span):")
        for name, value in cost.items():
            if name.endswith("per run"):
                print(f"     {name:34} {value:8.1f} us  = {value / SPANS_PER_TRACE:.2f} us/span "
                      f"at 1% run spans")
            else:
                print(f"     {name:34} {value:8.2f}")
        print()

        small = make_request(trace_spans(placeholder(0), random.Random(5))).SerializeToString()
        requests = 100 if args.quick else 400
        rows = {}
        for mode, extra in (("sink directly", None), ("pass-through", ["--passthrough"]),
                            ("grounding", [])):
            if extra is None:
                rows[mode] = latency(f"127.0.0.1:{sink.port}", requests, small)
                continue
            relay = start_relay(sink.endpoint, "--wait-duration", "1", *extra)
            try:
                rows[mode] = latency(relay.grpc_target, requests, small)
            finally:
                relay.terminate()
                relay.close()
        print(f"2. acknowledgement latency, one 100-span request at a time ({requests} requests)")
        for mode, timings in rows.items():
            print(f"   {mode:14} p50 {pct(timings, 50):6.2f} ms   p99 {pct(timings, 99):6.2f} ms")
        added50 = pct(rows["grounding"], 50) - pct(rows["sink directly"], 50)
        added99 = pct(rows["grounding"], 99) - pct(rows["sink directly"], 99)
        print(f"   added by the relay vs the sink directly: p50 {added50:+.2f} ms, "
              f"p99 {added99:+.2f} ms\n")

        print(f"3. memory: flood of {flood_traces:,} traces (4 spans each, a tool output "
              f"buffered per trace, runs never arrive; default budgets num_traces=10,000, "
              f"64 MiB)")
        for count in sorted({flood_traces // 10, flood_traces}):
            f = flood(sink, count)
            print(f"   {f['traces']:>7,} traces: peak RSS {f['peak_rss_mib']:.0f} MiB "
                  f"(idle {f['base_rss_mib']:.0f} MiB, after {f['rss_after_mib']:.0f} MiB), "
                  f"traces buffered {f['traces_buffered']:,}, evicted {f['traces_evicted']:,.0f}")
        print("\n4. memory under attack, --memory-limit-mib 256 (peak RSS so far; answers)")
        for name, peak, answers in attacks(sink, seconds):
            shown = ", ".join(f"{k}: {v}" for k, v in sorted(answers.items()))
            print(f"   {name:62} {peak:6.0f} MiB  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
