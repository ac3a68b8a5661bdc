"""`score-traces` over stored OTLP/JSON: CPU time against `json.loads` alone, and peak memory.

    .venv/bin/python benchmarks/bench_score_traces.py [--rounds N] [--old-max-mb M]
        [--compiled] [MB ...]
    (default: 22 MB, 3 rounds; the reader before `jsonspans` measured up to 30 MB)

Writes OTLP/JSON lines as the Collector's file exporter lays them out (one request per line,
hex ids): agent traces of a run span, three tool spans and six ordinary spans, each trace split
over two requests (the tools in one line, the run and the rest in a later one, 50 other traces
between). Then, in interleaved rounds, each in a fresh child process timing its own CPU (imports
excluded) and reporting its own peak RSS:

- `json.loads` of every line, best of three passes: the least any re-scoring tool pays (the
  baseline);
- `score-traces`' reader and pipeline (`rescore`, every run written as a JSON line, as
  `--format jsonl` does);
- the reader it replaced (`json_views=False`: `json_format` into protobuf), on the smaller
  inputs only (it reads a few MB/s), with the same runs asserted;
- with `--compiled`, the same `score-traces` work in the compiled build (README, "The compiled
  build": `scripts/compiled_build.py` builds it, or takes it from its cache), same runs asserted.

The ratio is score-traces' CPU time over `json.loads`' in the same round. With `orjson`
installed (the `fast-json` extra) score-traces parses with it; the first line says whether it is. Memory should not grow
with the input: the traces are held within the budgets, whatever the file's size.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from compiled_build import compiled_build

TOOL = "Paris: 18 degrees Celsius, light rain, wind 12 km/h from the west, humidity 81 percent"
ANSWER = "The weather in Paris is 18 degrees Celsius with light rain. Humidity is 81 percent."
#: Traces between a trace's first and second request.
INTERLEAVE = 50

#: The child: one measurement, its CPU time (imports excluded) and peak RSS as a JSON line.
CHILD = r"""
import hashlib, json, resource, sys, time
mode, path = sys.argv[1], sys.argv[2]
if mode != "json.loads":
    from otel_grounding.config import load_settings
    from otel_grounding.rescore import rescore
started = time.process_time()
result = {}
if mode == "json.loads":  # the best of three passes: the baseline at its cheapest
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        with open(path, "rb") as handle:
            for line in handle:
                json.loads(line)
        best = min(best, time.process_time() - started)
    started = time.process_time() - best
else:
    digest = hashlib.sha256()
    def on_run(run):
        digest.update(json.dumps(run.to_dict()).encode() + b"\n")
    summary = rescore([path], load_settings({}), on_run, lambda bad: None,
                      json_views=(mode == "score-traces"))
    result = {"summary": summary.to_dict(), "runs_sha256": digest.hexdigest()}
result["cpu"] = time.process_time() - started
result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


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


def _fast_parser() -> str:
    """Whether score-traces parses with `orjson` here (its children run this interpreter)."""
    try:
        version = importlib.metadata.version("orjson")
    except importlib.metadata.PackageNotFoundError:
        return "orjson not installed: json.loads parses"
    return f"orjson {version} parses"


def measure(mode: str, path: Path, build: Path | None = None) -> dict:
    """One child's measurement; `build`: the compiled build put first on its path."""
    env = {**os.environ, "PYTHONPATH": str(build)} if build is not None else None
    done = subprocess.run([sys.executable, "-c", CHILD, mode, str(path)],
                          capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[22], metavar="MB")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old-max-mb", type=int, default=30,
                        help="measure the former reader on inputs up to this size")
    parser.add_argument("--compiled", action="store_true",
                        help="measure the compiled build too (built first if not cached)")
    args = parser.parse_args()
    build = compiled_build() if args.compiled else None
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} at the start; "
          f"{_fast_parser()}")
    with tempfile.TemporaryDirectory() as tmp:
        for megabytes in args.sizes:
            path = Path(tmp) / f"traces-{megabytes}.jsonl"
            traces = write_input(path, megabytes)
            size = os.path.getsize(path) / 1e6
            with_old = megabytes <= args.old_max_mb
            ratios, old_ratios, rates, peaks, built_ratios = [], [], [], [], []
            for _ in range(args.rounds):
                base = measure("json.loads", path)
                new = measure("score-traces", path)
                ratios.append(new["cpu"] / base["cpu"])
                rates.append(size / new["cpu"])
                peaks.append(new["peak_mib"])
                line = (f"  json.loads {base['cpu']:6.2f} s ({size / base['cpu']:5.0f} MB/s) | "
                        f"score-traces {new['cpu']:6.2f} s ({size / new['cpu']:5.1f} MB/s, "
                        f"{ratios[-1]:4.1f}x, peak {new['peak_mib']:5.1f} MiB)")
                if build is not None:
                    built = measure("score-traces", path, build)
                    assert built["summary"] == new["summary"], (built["summary"], new["summary"])
                    assert built["runs_sha256"] == new["runs_sha256"], "the runs differ"
                    built_ratios.append(built["cpu"] / base["cpu"])
                    line += (f" | compiled {built['cpu']:6.2f} s "
                             f"({size / built['cpu']:5.1f} MB/s, {built_ratios[-1]:4.1f}x, "
                             f"peak {built['peak_mib']:5.1f} MiB; same runs)")
                if with_old:
                    old = measure("former reader", path)
                    assert old["summary"] == new["summary"], (old["summary"], new["summary"])
                    assert old["runs_sha256"] == new["runs_sha256"], "the runs differ"
                    old_ratios.append(old["cpu"] / base["cpu"])
                    line += (f" | former reader {old['cpu']:6.2f} s "
                             f"({size / old['cpu']:4.1f} MB/s, {old_ratios[-1]:4.1f}x; same runs)")
                print(line, flush=True)
            summary = new["summary"]
            print(
                f"{size:7.1f} MB, {traces} traces ({summary['runs']} runs, grades "
                f"{summary['grades']}, evicted {summary['traces_evicted']}, released early "
                f"{summary['runs_released_early']}): score-traces {min(rates):.1f}-"
                f"{max(rates):.1f} MB/s, {min(ratios):.1f}-{max(ratios):.1f}x json.loads "
                f"(median {statistics.median(ratios):.1f}x)"
                + (f", compiled build {min(built_ratios):.1f}-{max(built_ratios):.1f}x "
                   f"(median {statistics.median(built_ratios):.1f}x)" if built_ratios else "")
                + (f", former reader {min(old_ratios):.1f}-{max(old_ratios):.1f}x"
                   if old_ratios else "")
                + f"; peak RSS {max(peaks):.1f} MiB; load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            path.unlink()


if __name__ == "__main__":
    main()
