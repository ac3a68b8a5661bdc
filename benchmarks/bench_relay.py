"""The OTLP relay's cost, measured side by side in one run (a script, not a test).

1. Throughput: 1,000 requests of 500 spans (4 in flight) through the relay (grounding on,
   1% run spans), through the same relay in `--passthrough` mode (decode and re-encode only:
   the floor any Python relay pays) and through the real OpenTelemetry Collector (the
   project's pinned build, `make collector`, running otlp -> batch -> otlp), all three
   forwarding to the same in-process OTLP/gRPC sink, in alternated rounds; the ratios relay /
   pass-through and relay / Collector. Wall-clock spans/s (reaching the sink while the client
   sends) and spans per CPU-second of the forwarding process (all its work, read from
   /proc/PID/stat: robust to the client and the sink sharing the cores). In a full run, also
   gRPC alone: a grpcio server (thread-pool and asyncio) that acknowledges the same requests
   and does nothing else, the floor under any Python relay's receiving side.
2. Latency added per request: the acknowledgement time of one 100-span request (sequential),
   relay vs pass-through vs the sink itself, p50/p99.
3. Memory under a flood of 100,000 traces whose runs never arrive (tool outputs buffered):
   peak RSS of the relay process, traces buffered and evicted (budgets: num_traces, bytes).
4. Memory under attack, with `--memory-limit-mib 256`: bombs of empty spans (gzip over HTTP,
   gzip over gRPC, 8 at once), a burst of 32 clients sending 1.7 MB requests, held runs filling
   the queue: peak RSS after each, and how the requests were answered.

    .venv/bin/python benchmarks/bench_relay.py [--requests 1000] [--rounds 2] [--seconds 8] [--quick]
        [--throughput-only] [--no-collector] [--compiled]

With `--compiled`, part 1 also runs the grounding relay from the compiled build (README, "The
compiled build": `scripts/compiled_build.py` builds it, or takes it from its cache) in the
same alternated rounds.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from compiled_build import compiled_build

from otel_grounding.conventions import native

from e2e_support import free_ports
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
REQUESTS = 1000  # per throughput round
IN_FLIGHT = 4  # export calls in flight at once: 4 clients
REPO = Path(__file__).resolve().parent.parent
OTEL_BINARIES = REPO / ".ci" / "otel-binaries"
#: The Collector baseline: otlp -> batch -> otlp, both ends OTLP/gRPC on loopback. The batch
#: processor with its defaults; the exporter without compression (the relay's default; the
#: otlp exporter's own default is gzip) and with its default sending queue; its own telemetry
#: at the default level on a free port.
COLLECTOR_CONFIG = """\
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:{receiver}
        max_recv_msg_size_mib: 64
processors:
  batch: {{}}
exporters:
  otlp_grpc:
    endpoint: 127.0.0.1:{sink}
    compression: none
    tls:
      insecure: true
extensions:
  health_check:
    endpoint: 127.0.0.1:{health}
service:
  extensions: [health_check]
  telemetry:
    metrics:
      readers:
        - pull:
            exporter:
              prometheus:
                host: 127.0.0.1
                port: {telemetry}
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [otlp_grpc]
"""


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


class Hop:
    """A forwarding process under test: its pid, the gRPC target it listens on, its stop."""

    def __init__(self, name: str, pid: int, target: str, stop: Any) -> None:
        self.name = name
        self.pid = pid
        self.target = target
        self.stop = stop


def relay_hop(sink: OtlpSink, passthrough: bool, build: Path | None = None) -> Hop:
    """A relay process forwarding to the sink; `build`: the compiled build first on its path."""
    args = ["--wait-duration", "1", "--queue-max-spans", "200000", "--queue-max-bytes",
            str(256 * 1024 * 1024), "--min-claim-grounding-rate", "0.7"]
    if passthrough:
        args.append("--passthrough")
    env = {"PYTHONPATH": str(build)} if build is not None else None
    relay = start_relay(sink.endpoint, *args, env=env)

    def stop() -> None:
        relay.terminate()
        relay.close()

    return Hop("passthrough" if passthrough else "grounding", relay.process.pid,
               relay.grpc_target, stop)


def collector_binary() -> str | None:
    """The pinned Collector where `make collector` caches it (the path the tests use), or
    None when it is not built."""
    done = subprocess.run([str(OTEL_BINARIES), "path", "collector"], capture_output=True,
                          text=True, check=True)
    path = done.stdout.strip()
    return path if os.access(path, os.X_OK) else None


def collector_hop(sink: OtlpSink, binary: str) -> Hop:
    """The Collector running COLLECTOR_CONFIG towards the sink, once its health check answers."""
    import urllib.request

    receiver, health, telemetry = free_ports(3)
    workdir = tempfile.mkdtemp(prefix="bench-otelcol-")
    config = Path(workdir) / "otelcol.yaml"
    config.write_text(COLLECTOR_CONFIG.format(receiver=receiver, sink=sink.port, health=health,
                                              telemetry=telemetry))
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    with open(Path(workdir) / "otelcol.log", "wb") as log:
        process = subprocess.Popen([binary, f"--config={config}"], stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)

    def stop() -> None:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        shutil.rmtree(workdir, ignore_errors=True)

    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            output = (Path(workdir) / "otelcol.log").read_text()[-3000:]
            stop()
            raise RuntimeError(f"the Collector exited: {output}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{health}/", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop()
            raise RuntimeError("the Collector did not become healthy within 60 s")
        time.sleep(0.2)
    return Hop("collector", process.pid, f"127.0.0.1:{receiver}", stop)


def send(call: Any, requests: int, payload: Callable[[int], bytes]) -> int:
    """Sends `requests` requests (`payload(i)` the i-th), IN_FLIGHT at a time, each waited
    for; returns how many the hop refused (UNAVAILABLE: its admission said no)."""
    refused = issued = 0
    in_flight: deque[Any] = deque()
    while issued < requests or in_flight:
        while issued < requests and len(in_flight) < IN_FLIGHT:
            in_flight.append(call.future(payload(issued), timeout=30))
            issued += 1
        try:
            in_flight.popleft().result()
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            refused += 1
            time.sleep(0.01)
    return refused


def throughput(sink: OtlpSink, hop: Hop, requests: int, template: bytes) -> dict[str, float]:
    """`requests` requests of the template (new trace ids each), IN_FLIGHT at a time, through
    `hop` to the sink: wall spans/s while sending, spans per CPU-second of the hop."""
    spans_per_request = SPANS_PER_TRACE * TRACES_PER_REQUEST
    payloads = deque(fresh(template) for _ in range(64))
    stop = threading.Event()
    refill = threading.Thread(target=lambda: [
        payloads.append(fresh(template)) if len(payloads) < 256 else time.sleep(0.001)
        for _ in iter(stop.is_set, True)], daemon=True)
    refill.start()
    channel = grpc.insecure_channel(hop.target, options=[
        ("grpc.max_send_message_length", -1)])
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None,
                               response_deserializer=None)
    try:
        before = sink.span_count
        for _ in range(10):  # warm up
            call(fresh(template), timeout=30)
        if not sink.wait_for_spans(before + 10 * spans_per_request, timeout=30):
            raise RuntimeError(f"{hop.name}: the warm-up spans never arrived")
        base = sink.span_count
        load = os.getloadavg()[0]
        cpu0, started = cpu_seconds(hop.pid), time.perf_counter()
        refused = send(call, requests, lambda _: payloads.popleft() if payloads else fresh(template))
        sent = (requests - refused) * spans_per_request
        # Wall rate: what reached the sink while the client was sending (steady state), not
        # counting the tail in which the grounding relay still holds its last runs for
        # `wait_duration` (and the Collector its last batch) after the client stopped.
        window = time.perf_counter() - started
        delivered_in_window = sink.span_count - base
        if not sink.wait_for_spans(base + sent, timeout=60):
            raise RuntimeError(f"{hop.name}: {base + sent - sink.span_count} accepted spans "
                               "never arrived")
        cpu = cpu_seconds(hop.pid) - cpu0  # all the work, the tail included
        delivered = sink.span_count - base
    finally:
        stop.set()
        channel.close()
    return {"spans": delivered, "spans_in_window": delivered_in_window, "seconds": window,
            "spans_per_s": delivered_in_window / window, "cpu_s": cpu,
            "spans_per_cpu_s": delivered / cpu if cpu else float("nan"),
            "refused_requests": refused, "load": load}


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


#: A grpcio server that acknowledges every export and does nothing else (argv: the method, then
#: "threads" for grpcio's thread-pool server or "asyncio" for `grpc.aio`); prints its port.
ACKNOWLEDGER = """
import asyncio, sys
from concurrent import futures
import grpc

METHOD, KIND = sys.argv[1], sys.argv[2]
OPTIONS = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]


class Acknowledge(grpc.GenericRpcHandler):
    def __init__(self, behaviour):
        self.handler = grpc.unary_unary_rpc_method_handler(behaviour)

    def service(self, details):
        return self.handler if details.method == METHOD else None


async def serve_async():
    async def acknowledge(request, context):
        return b""
    server = grpc.aio.server(options=OPTIONS)
    server.add_generic_rpc_handlers([Acknowledge(acknowledge)])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


if KIND == "threads":
    server = grpc.server(futures.ThreadPoolExecutor(4), options=OPTIONS)
    server.add_generic_rpc_handlers([Acknowledge(lambda request, context: b"")])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    server.wait_for_termination()
else:
    asyncio.run(serve_async())
"""


def grpc_alone(kind: str, requests: int, template: bytes) -> float:
    """Spans per CPU-second of a grpcio server (`kind`: threads or asyncio) that only
    acknowledges the requests, IN_FLIGHT at a time: what receiving costs in Python, before any
    work (the floor under any Python relay's receiving side)."""
    process = subprocess.Popen([sys.executable, "-c", ACKNOWLEDGER, EXPORT_METHOD, kind],
                               stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    channel = grpc.insecure_channel(f"127.0.0.1:{process.stdout.readline().strip()}",
                                    options=[("grpc.max_send_message_length", -1)])
    call = channel.unary_unary(EXPORT_METHOD, request_serializer=None,
                               response_deserializer=None)
    try:
        payloads = [fresh(template) for _ in range(64)]
        for data in payloads[:10]:  # warm up
            call(data, timeout=30)
        cpu0 = cpu_seconds(process.pid)
        if send(call, requests, lambda issued: payloads[issued % len(payloads)]):
            raise RuntimeError("gRPC alone: a request was refused")
        cpu = cpu_seconds(process.pid) - cpu0
    finally:
        channel.close()
        process.kill()
        process.wait(10)
    return requests * SPANS_PER_TRACE * TRACES_PER_REQUEST / cpu


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
        settings = load_settings({"trace_retention": 1.0, "min_claim_grounding_rate": 0.7})
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


def part_throughput(
    sink: OtlpSink, template: bytes, requests: int, rounds: int, collector: str | None,
    build: Path | None = None,
) -> float:
    """Part 1's alternated rounds (the order reversed every other round); prints each round
    and the ranges; returns the best pass-through spans per CPU-second. `build`: the compiled
    build's grounding relay runs too."""
    modes = (["passthrough", "grounding"] + (["compiled"] if build else [])
             + (["collector"] if collector else []))
    results: dict[str, list[dict[str, float]]] = {mode: [] for mode in modes}
    print(f"1. throughput: {requests:,} requests of {SPANS_PER_TRACE * TRACES_PER_REQUEST} "
          f"spans, {IN_FLIGHT} in flight, {rounds} alternated rounds")
    for number in range(rounds):
        for mode in modes if number % 2 == 0 else modes[::-1]:
            if mode == "collector":
                assert collector is not None
                hop = collector_hop(sink, collector)
            else:
                hop = relay_hop(sink, mode == "passthrough", build if mode == "compiled" else None)
            try:
                r = throughput(sink, hop, requests, template)
            finally:
                hop.stop()
            results[mode].append(r)
            print(f"   round {number + 1} {mode:12} {r['spans_per_s']:>9,.0f} spans/s wall "
                  f"{r['spans_per_cpu_s']:>9,.0f} spans per CPU-second ({r['cpu_s']:.2f} CPU-s, "
                  f"{r['refused_requests']} refused, load {r['load']:.1f})", flush=True)

    def span(mode: str, key: str) -> str:
        values = [r[key] for r in results[mode]]
        return f"{min(values):,.0f}-{max(values):,.0f}"

    def ratios(mode: str, base: str, key: str) -> str:
        values = [a[key] / b[key] for a, b in zip(results[mode], results[base], strict=True)]
        return f"{min(values):.2f}-{max(values):.2f}"

    print("   ranges over the rounds:")
    names = {"passthrough": "pass-through (decode + re-encode)",
             "grounding": "grounding relay, 1% run spans",
             "compiled": "grounding relay, compiled build",
             "collector": "Collector (otlp -> batch -> otlp)"}
    for mode in modes:
        print(f"     {names[mode]:36} {span(mode, 'spans_per_s'):>17} spans/s wall   "
              f"{span(mode, 'spans_per_cpu_s'):>17} spans per CPU-second")
    print(f"   grounding / pass-through, per round: {ratios('grounding', 'passthrough', 'spans_per_cpu_s')}"
          f" per CPU-second, {ratios('grounding', 'passthrough', 'spans_per_s')} wall")
    if collector:
        per_cpu = [a["spans_per_cpu_s"] / b["spans_per_cpu_s"]
                   for a, b in zip(results["grounding"], results["collector"], strict=True)]
        met = "met" if min(per_cpu) >= 1.0 else "not met"
        print(f"   grounding / Collector, per round: {min(per_cpu):.2f}-{max(per_cpu):.2f} per "
              f"CPU-second (target >= 1.0: {met}), "
              f"{ratios('grounding', 'collector', 'spans_per_s')} wall")
        print(f"   pass-through / Collector, per round: "
              f"{ratios('passthrough', 'collector', 'spans_per_cpu_s')} per CPU-second")
        if build:
            print(f"   compiled build / Collector, per round: "
                  f"{ratios('compiled', 'collector', 'spans_per_cpu_s')} per CPU-second")
    if build:
        print(f"   compiled build / grounding relay, per round: "
              f"{ratios('compiled', 'grounding', 'spans_per_cpu_s')} per CPU-second")
    loads = [r["load"] for runs in results.values() for r in runs]
    print(f"   load average (1 min) at the rounds' starts: {min(loads):.1f}-{max(loads):.1f}")
    return max(r["spans_per_cpu_s"] for r in results["passthrough"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--quick", action="store_true", help="short run (smoke test)")
    parser.add_argument("--attacks-only", action="store_true", help="only part 4")
    parser.add_argument("--throughput-only", action="store_true", help="only part 1's rounds")
    parser.add_argument("--requests", type=int, default=REQUESTS,
                        help="requests of 500 spans per throughput round")
    parser.add_argument("--rounds", type=int, default=2, help="alternated throughput rounds")
    parser.add_argument("--no-collector", action="store_true",
                        help="without the Collector baseline (when it is not built)")
    parser.add_argument("--compiled", action="store_true",
                        help="part 1 with the compiled build's relay too (built if not cached)")
    args = parser.parse_args(argv)
    build = compiled_build() if args.compiled else None
    if args.quick:
        args.requests = min(args.requests, 200)
    seconds = 2.0 if args.quick else args.seconds
    flood_traces = 10_000 if args.quick else 100_000

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.attacks_only:
        with OtlpSink(behaviour=SinkBehaviour(count_only=True)) as sink:
            for name, peak, answers in attacks(sink, seconds):
                shown = ", ".join(f"{k}: {v}" for k, v in sorted(answers.items()))
                print(f"   {name:62} {peak:6.0f} MiB  {shown}")
        return 0
    collector = None if args.no_collector else collector_binary()
    if collector is None and not args.no_collector:
        print("The Collector baseline needs the project's pinned Collector, which is not built "
              f"on this machine ({OTEL_BINARIES} path collector). Build it once with `make "
              "collector` (the Go toolchain; it is cached under ~/.cache/otel-grounding/), or "
              "run with --no-collector.", file=sys.stderr)
        return 2
    template = request_template()
    print(f"workload: {SPANS_PER_TRACE * TRACES_PER_REQUEST} spans/request "
          f"({len(template)} bytes), {TRACES_PER_REQUEST} traces/request, 1% run spans, "
          f"2% tool spans, 1% LLM spans\n")
    with OtlpSink(behaviour=SinkBehaviour(count_only=True)) as sink:
        passthrough = part_throughput(sink, template, args.requests, args.rounds, collector, build)
        if args.throughput_only:
            return 0
        hop = relay_hop(sink, False)
        try:
            plain = throughput(sink, hop, args.requests, request_template(agent=False))
        finally:
            hop.stop()
        print(f"   grounding relay, traffic with no agent span: {plain['spans_per_s']:,.0f} "
              f"spans/s wall, {plain['spans_per_cpu_s']:,.0f} per relay CPU-second "
              f"(ratio {plain['spans_per_cpu_s'] / passthrough:.2f} to the best pass-through "
              f"per CPU-second)")
        for kind in ("threads", "asyncio"):
            alone = grpc_alone(kind, args.requests, template)
            print(f"   gRPC alone ({kind} server acknowledging the same requests, nothing else): "
                  f"{alone:,.0f} spans per CPU-second ({1e6 / alone:.2f} us/span)")
        print()
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
