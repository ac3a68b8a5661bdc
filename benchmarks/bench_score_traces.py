"""`score-traces` over large stored inputs: throughput and peak memory at growing input sizes.

    .venv/bin/python benchmarks/bench_score_traces.py [MB ...]   (default: 25 100)

Writes OTLP/JSON lines as the Collector's file exporter lays them out (one request per line,
hex ids): agent traces of a run span, three tool spans and six ordinary spans, each trace split
over two requests (the tools in one line, the run and the rest in a later one, other traces
between). Then runs `otel-grounding score-traces --format jsonl` on it in a subprocess and
reports MB/s and the child's peak RSS. Memory should not grow with the input: the traces are
held within the budgets, whatever the file's size. The baseline is the cost of reading the
same file with `json.loads` per line (what any re-scoring tool pays at the least).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = Path(sys.executable).parent / "otel-grounding"
TOOL = "Paris: 18 degrees Celsius, light rain, wind 12 km/h from the west, humidity 81 percent"
ANSWER = "The weather in Paris is 18 degrees Celsius with light rain. Humidity is 81 percent."
#: Traces between a trace's first and second request.
INTERLEAVE = 50


def _kv(key: str, value: str) -> dict[str, object]:
    return {"key": key, "value": {"stringValue": value}}


def _span(trace: str, span: str, parent: str | None, name: str, attrs: list[dict]) -> dict:
    body: dict[str, object] = {
        "traceId": trace, "spanId": span, "name": name, "kind": 1,
        "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000",
        "attributes": attrs, "status": {},
    }
    if parent:
        body["parentSpanId"] = parent
    return body


def _line(spans: list[dict]) -> str:
    return json.dumps({"resourceSpans": [{
        "resource": {"attributes": [_kv("service.name", "bench-agent")]},
        "scopeSpans": [{"scope": {"name": "bench"}, "spans": spans}],
    }]}, separators=(",", ":"))


def write_input(path: Path, megabytes: int) -> int:
    """Write about `megabytes` of traces; return the number of traces."""
    target = megabytes * 1024 * 1024
    written = 0
    pending: list[str] = []
    traces = 0
    with open(path, "w", encoding="utf-8") as out:
        while written < target:
            trace = f"{traces + 1:032x}"
            run = f"{traces * 16 + 1:016x}"
            tools = [
                _span(trace, f"{traces * 16 + 2 + i:016x}", run, "execute_tool get_weather",
                      [_kv("ferrumdeck.step.type", "tool"), _kv("ferrumdeck.step.output", TOOL)])
                for i in range(3)
            ]
            others = [
                _span(trace, f"{traces * 16 + 8 + i:016x}", run, "GET /api",
                      [_kv("http.method", "GET"), _kv("http.route", "/api/weather")])
                for i in range(6)
            ]
            run_span = _span(trace, run, None, "invoke_agent weather",
                             [_kv("ferrumdeck.run.output", ANSWER)])
            first = _line(tools) + "\n"
            out.write(first)
            pending.append(_line([run_span, *others]) + "\n")
            written += len(first)
            if len(pending) > INTERLEAVE:
                second = pending.pop(0)
                out.write(second)
                written += len(second)
            traces += 1
        for second in pending:
            out.write(second)
    return traces


def baseline(path: Path) -> float:
    started = time.perf_counter()
    with open(path, "rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - started


def measure(path: Path) -> tuple[float, int, dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run([str(CLI), "score-traces", "--format", "jsonl", str(path)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    summary = json.loads(done.stdout.splitlines()[-1])["summary"]
    return elapsed, max(peak, before), summary


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for megabytes in sizes:
            path = Path(tmp) / f"traces-{megabytes}.jsonl"
            traces = write_input(path, megabytes)
            size = os.path.getsize(path) / 1024 / 1024
            floor = baseline(path)
            elapsed, peak_kib, summary = measure(path)
            print(
                f"{size:7.1f} MB, {traces} traces: score-traces {elapsed:6.1f} s "
                f"({size / elapsed:5.2f} MB/s), json.loads alone {floor:5.1f} s "
                f"({size / floor:5.1f} MB/s), ratio {elapsed / floor:4.1f}x; "
                f"peak RSS {peak_kib / 1024:6.1f} MiB; runs {summary['runs']}, "
                f"grades {summary['grades']}, evicted {summary['traces_evicted']}, "
                f"released early {summary['runs_released_early']}"
            )
            path.unlink()


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [25, 100])
