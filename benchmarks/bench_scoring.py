"""Throughput of the claim grounding scorer against the naive character-by-character oracle.

Builds a ~100 KB agent output (realistic sentences, some grounded in the tool outputs and some
not) and ~1 MB of tool outputs (200 outputs of ~5 KB), scores them with
`otel_grounding.scoring.score_texts` and with `tests/naive_grounding.py`, checks that both give
the same claims_total / claims_grounded / rate, and prints MB/s for both (best of N repeats).

    .venv/bin/python benchmarks/bench_scoring.py [--repeats N] [--naive-repeats N]

Target: score_texts at least 1.5x the naive formulation. Standard library timing only.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from otel_grounding.scoring import score_texts  # noqa: E402

TARGET_RATIO = 1.5


def load_naive() -> ModuleType:
    path = ROOT / "tests" / "naive_grounding.py"
    spec = importlib.util.spec_from_file_location("naive_grounding", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- a deterministic, realistic workload -----------------------------------------------------

CITIES = ["Paris", "Berlin", "Madrid", "Lisbon", "Vienna", "Prague", "Warsaw", "Dublin", "Oslo", "Athens"]
METRICS = ["revenue", "latency", "throughput", "error rate", "headcount", "inventory", "churn", "uptime"]
VERBS = ["increased", "decreased", "stayed flat", "doubled", "halved", "recovered", "peaked"]
PERIODS = ["in Q1", "in Q2", "in Q3", "in Q4", "last month", "this week", "year over year"]
FILLER = [
    "according to the quarterly report",
    "as the dashboard shows",
    "based on the tool output",
    "per the incident review",
    "in the latest export",
]
UNGROUNDED = [
    "Bananas are purple and fly to the distant moon",
    "The committee unanimously approved a surprising merger with a lunar bakery",
    "Every engineer received a golden stapler during the winter festival",
    "Quantum pigeons delivered the backup tapes before sunrise",
    "Our competitors abandoned spreadsheets for interpretive dance",
    "The north office relocated to an undersea volcano laboratory",
]


def build_workload(seed: int = 7) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    facts: list[tuple[str, str, str, str, int]] = []
    for _ in range(4_000):
        facts.append((rng.choice(CITIES), rng.choice(METRICS), rng.choice(VERBS), rng.choice(PERIODS), rng.randint(1, 99_999)))

    # ~200 tool outputs of ~5 KB: JSON-ish records and prose, all built from the facts.
    sources: list[str] = []
    fact_index = 0
    for i in range(200):
        parts: list[str] = [f'{{"tool": "warehouse_query", "call": {i}, "rows": [']
        size = len(parts[0])
        while size < 5_000:
            city, metric, verb, period, value = facts[fact_index % len(facts)]
            fact_index += 1
            row = (
                f'{{"office": "{city}", "metric": "{metric}", "trend": "{verb}", '
                f'"period": "{period}", "value": {value}, "note": "{city} {metric} {verb} {period}", '
                f'"origin": "{FILLER[value % len(FILLER)]}"}}, '
            )
            parts.append(row)
            size += len(row)
        parts.append("]}")
        sources.append("".join(parts))

    # ~100 KB output: most sentences restate facts (grounded), some are invented (ungrounded),
    # some are short acknowledgements that are not claims at all.
    sentences: list[str] = []
    size = 0
    while size < 100_000:
        roll = rng.random()
        if roll < 0.65:
            city, metric, verb, period, value = facts[rng.randrange(len(facts))]
            sentence = f"In {city}, {metric} {verb} {period} to {value:,} {rng.choice(FILLER)}."
        elif roll < 0.9:
            sentence = rng.choice(UNGROUNDED) + rng.choice([".", "!", "?"])
        else:
            sentence = rng.choice(["Done.", "OK!", "Next?", "See above.", "Version 3.14 shipped."])
        sentence += rng.choice([" ", " ", "\n"])
        sentences.append(sentence)
        size += len(sentence)
    return "".join(sentences), sources


# --- timing -------------------------------------------------------------------------------------


def best_of(repeats: int, work: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="repeats for score_texts (best kept)")
    parser.add_argument("--naive-repeats", type=int, default=3, help="repeats for the naive oracle")
    args = parser.parse_args(argv)

    naive = load_naive()
    output, sources = build_workload()
    total_bytes = len(output.encode("utf-8")) + sum(len(s.encode("utf-8")) for s in sources)
    megabytes = total_bytes / 1_000_000

    fast_s, fast = best_of(args.repeats, lambda: score_texts(output, sources, threshold=0.7))
    naive_s, slow = best_of(args.naive_repeats, lambda: naive.naive_score(output, sources, 0.7))

    got = (fast.claims_total, fast.claims_grounded, fast.rate, fast.below_threshold)
    want = (slow["claims_total"], slow["claims_grounded"], slow["rate"], slow["below_threshold"])
    assert got == want, f"score_texts {got} != naive {want}"
    assert fast.truncated_by is None, f"a bound cut the benchmark input: {fast.truncated_by}"

    ratio = naive_s / fast_s
    print(
        f"input: output {len(output):,} chars, {len(sources)} tool outputs "
        f"{sum(map(len, sources)):,} chars, {megabytes:.2f} MB in all"
    )
    print(
        f"claims_total {fast.claims_total}, claims_grounded {fast.claims_grounded}, "
        f"rate {fast.rate:.4f} (identical in both)"
    )
    print()
    print(f"{'scorer':<14} {'best s':>9} {'MB/s':>9} {'repeats':>8}")
    print(f"{'score_texts':<14} {fast_s:>9.4f} {megabytes / fast_s:>9.1f} {args.repeats:>8}")
    print(f"{'naive':<14} {naive_s:>9.4f} {megabytes / naive_s:>9.1f} {args.naive_repeats:>8}")
    print()
    verdict = "ok" if ratio >= TARGET_RATIO else "BELOW TARGET"
    print(f"ratio score_texts / naive: {ratio:.1f}x (target >= {TARGET_RATIO}x: {verdict})")
    return 0 if ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
