"""Throughput of the claim grounding scorer against the plain formulation of the contract.

The baseline is what a user would write instead of this package: the contract in a dozen lines,
the way the reference eval plane writes it (`benchmarks/plain_formulation.py`). Both run side by
side in one process on four workloads, interleaved round by round so that both see the same
machine; each round times a batch of calls to each in CPU time of the process (on a shared
machine the wall clock mostly measures the other tenants), and the best batch of each is kept:

- prose:      a 100 KB agent output against 200 tool outputs of ~5 KB (JSON rows and prose)
- vocabulary: a 15k-word output against 5 tool outputs of 30k words each, words drawn from
              30k-word vocabularies that half overlap
- short:      a 20 KB output against 5,000 short tool outputs (40-200 characters each)
- typical:    one typical run: 5 KB output, 10 tool outputs of 5 KB

Before timing, `score_texts`, the plain formulation and the naive character-by-character oracle
(`tests/naive_grounding.py`) must give the same claims_total, claims_grounded, rate and flag on
every workload; the script exits 1 when they differ, and 2 when a run falls under a floor.

    .venv/bin/python benchmarks/bench_scoring.py [--rounds N]

Targets: `score_texts` >= 2x the plain formulation on prose and vocabulary, never under 1.5x in
a run of this script; the typical run in <= 0.6x the plain formulation's time. The per-round
ratios are printed too (their spread is the machine's noise). Standard library only.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from otel_grounding.scoring import score_texts  # noqa: E402

from plain_formulation import plain_score  # noqa: E402

THRESHOLD = 0.7
MIN_BATCH_SECONDS = 0.05  # each timed batch runs at least this long: short runs are repeated
KEYS = ("claims_total", "claims_grounded", "rate", "below_threshold")


def load_naive() -> ModuleType:
    path = ROOT / "tests" / "naive_grounding.py"
    spec = importlib.util.spec_from_file_location("naive_grounding", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- deterministic, realistic workloads -------------------------------------------------------

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

Fact = tuple[str, str, str, str, int]


def _facts(rng: random.Random, count: int) -> list[Fact]:
    return [
        (rng.choice(CITIES), rng.choice(METRICS), rng.choice(VERBS), rng.choice(PERIODS), rng.randint(1, 99_999))
        for _ in range(count)
    ]


def _row(fact: Fact) -> str:
    city, metric, verb, period, value = fact
    return (
        f'{{"office": "{city}", "metric": "{metric}", "trend": "{verb}", '
        f'"period": "{period}", "value": {value}, "note": "{city} {metric} {verb} {period}", '
        f'"origin": "{FILLER[value % len(FILLER)]}"}}, '
    )


def _report(rng: random.Random, facts: list[Fact], chars: int) -> str:
    """An agent's answer: facts restated (grounded), invented sentences, acknowledgements."""
    sentences: list[str] = []
    size = 0
    while size < chars:
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
    return "".join(sentences)


def prose(seed: int = 7) -> tuple[str, list[str]]:
    """~100 KB output, 200 tool outputs of ~5 KB of JSON rows built from the same facts."""
    rng = random.Random(seed)
    facts = _facts(rng, 4_000)
    sources: list[str] = []
    fact_index = 0
    for i in range(200):
        parts: list[str] = [f'{{"tool": "warehouse_query", "call": {i}, "rows": [']
        size = len(parts[0])
        while size < 5_000:
            parts.append(_row(facts[fact_index % len(facts)]))
            fact_index += 1
            size += len(parts[-1])
        parts.append("]}")
        sources.append("".join(parts))
    return _report(rng, facts, 100_000), sources


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 11)))


def _sentences(rng: random.Random, vocabulary: list[str], words: int) -> str:
    out: list[str] = []
    while words > 0:
        length = rng.randint(6, 18)
        out.append(" ".join(rng.choice(vocabulary) for _ in range(length)).capitalize())
        out.append(rng.choice([". ", ". ", "! ", "? ", ".\n", ", and "]))
        words -= length
    return "".join(out)


def vocabulary(seed: int = 11) -> tuple[str, list[str]]:
    """A 15k-word output against 5 x 30k-word sources; the two 30k vocabularies share half."""
    rng = random.Random(seed)
    words = list(dict.fromkeys(_word(rng) for _ in range(50_000)))[:45_000]
    answer_words, source_words = words[:30_000], words[15_000:45_000]
    return _sentences(rng, answer_words, 15_000), [_sentences(rng, source_words, 30_000) for _ in range(5)]


def short(seed: int = 13) -> tuple[str, list[str]]:
    """A 20 KB output against 5,000 small tool results (one record or a status line each)."""
    rng = random.Random(seed)
    facts = _facts(rng, 5_000)
    sources = []
    for i, fact in enumerate(facts):
        if i % 3 == 0:
            sources.append(f"{fact[0]}: {fact[1]} {fact[2]} {fact[3]}")
        else:
            sources.append(_row(fact).rstrip(", ")[: rng.randint(40, 200)])
    return _report(rng, facts, 20_000), sources


def _text(rng: random.Random, words: list[str], chars: int) -> str:
    out, size = [], 0
    while size < chars:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + ". "
        out.append(sentence)
        size += len(sentence)
    return "".join(out)[:chars]


def typical_run(seed: int = 7) -> tuple[str, list[str]]:
    """One typical run: 5 KB output, 10 tool outputs of 5 KB (also `bench_processor.py`'s run)."""
    rng = random.Random(seed)
    words = [f"{w}{i}" for w in ("alpha", "delta", "orbit", "ledger", "vector", "harbor") for i in range(300)]
    tool_outputs = [_text(rng, words, 5_000) for _ in range(10)]
    return _text(rng, words, 5_000), tool_outputs


WORKLOADS: dict[str, Callable[[], tuple[str, list[str]]]] = {
    "prose": prose,
    "vocabulary": vocabulary,
    "short": short,
    "typical": typical_run,
}
#: Ratio plain time / score_texts time (best batch against best batch): the aim, and the floor
#: under which a run of this script fails.
TARGETS: dict[str, tuple[float, float]] = {
    "prose": (2.0, 1.5),
    "vocabulary": (2.0, 1.5),
    "typical": (1 / 0.6, 1 / 0.6),
}


# --- measurement --------------------------------------------------------------------------------


@dataclass
class Measured:
    name: str
    megabytes: float
    batch: int
    plain: list[float]
    fast: list[float]

    def per_call(self, samples: list[float]) -> float:
        return min(samples) / self.batch

    @property
    def ratio(self) -> float:
        return self.per_call(self.plain) / self.per_call(self.fast)

    @property
    def round_ratios(self) -> list[float]:
        return [p / f for p, f in zip(self.plain, self.fast, strict=True)]


def _seconds(batch: int, work: Callable[[], Any]) -> float:
    """CPU seconds for `batch` calls."""
    start = time.process_time()
    for _ in range(batch):
        work()
    return time.process_time() - start


def check(name: str, output: str, sources: list[str], naive: ModuleType) -> tuple[list[str], float]:
    """Differences between score_texts, the plain formulation and the oracle; the oracle's seconds."""
    fast = score_texts(output, sources, threshold=THRESHOLD)
    plain = plain_score(output, sources, THRESHOLD)
    start = time.process_time()
    oracle = naive.naive_score(output, sources, THRESHOLD)
    oracle_s = time.process_time() - start
    problems = []
    for key in KEYS:
        got, base, want = getattr(fast, key), plain[key], oracle[key]
        if not got == base == want:
            problems.append(f"{name}: {key} score_texts {got!r}, plain {base!r}, oracle {want!r}")
    if fast.truncated_by is not None:
        problems.append(f"{name}: a bound cut the benchmark input: {fast.truncated_by}")
    return problems, oracle_s


def measure(name: str, output: str, sources: list[str], rounds: int) -> Measured:
    def run_plain() -> Any:
        return plain_score(output, sources, THRESHOLD)

    def run_fast() -> Any:
        return score_texts(output, sources, threshold=THRESHOLD)

    single = _seconds(1, run_plain)
    batch = max(1, round(MIN_BATCH_SECONDS / max(single, 1e-6)))
    size = len(output.encode("utf-8")) + sum(len(s.encode("utf-8")) for s in sources)
    measured = Measured(name, size / 1e6, batch, [], [])
    for i in range(rounds):
        order = (run_plain, run_fast) if i % 2 == 0 else (run_fast, run_plain)
        for work in order:
            seconds = _seconds(batch, work)
            (measured.plain if work is run_plain else measured.fast).append(seconds)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per workload")
    args = parser.parse_args(argv)

    naive = load_naive()
    problems: list[str] = []
    missed: list[str] = []
    results: list[tuple[Measured, float]] = []
    for name, build in WORKLOADS.items():
        output, sources = build()
        found, oracle_s = check(name, output, sources, naive)
        problems += found
        if found:
            continue
        measured = measure(name, output, sources, args.rounds)
        results.append((measured, oracle_s))
        fast = score_texts(output, sources, threshold=THRESHOLD)
        print(
            f"{name:<11} output {len(output):>7,} chars, {len(sources):>5,} tool outputs "
            f"{sum(map(len, sources)):>9,} chars; claims {fast.claims_total:,}, grounded "
            f"{fast.claims_grounded:,}, rate {fast.rate:.4f} (identical in all three)"
        )

    if results:
        print()
        print(f"CPU time, best batch of {args.rounds} interleaved rounds each")
        print(f"{'workload':<11} {'plain MB/s':>10} {'ours MB/s':>10} {'plain ms':>9} {'ours ms':>8} "
              f"{'ratio':>6}  {'rounds: min median max':<23} target")
        for m, _ in results:
            plain_s, fast_s = m.per_call(m.plain), m.per_call(m.fast)
            rounds = sorted(m.round_ratios)
            spread = f"{rounds[0]:.2f} {rounds[len(rounds) // 2]:.2f} {rounds[-1]:.2f}"
            target = TARGETS.get(m.name)
            verdict = "-"
            if target is not None:
                aim, floor = target
                verdict = f"aim >= {aim:.2f}x {'met' if m.ratio >= aim else 'NOT MET'}"
                if m.ratio < floor:
                    verdict += f", under the {floor:.2f}x floor: FAILED"
                    missed.append(m.name)
            print(
                f"{m.name:<11} {m.megabytes / plain_s:>10.1f} {m.megabytes / fast_s:>10.1f} "
                f"{plain_s * 1e3:>9.2f} {fast_s * 1e3:>8.2f} {m.ratio:>5.2f}x  {spread:<23} {verdict}"
            )
        typical = next((m for m, _ in results if m.name == "typical"), None)
        if typical is not None:
            print(f"typical run: score_texts takes {1 / typical.ratio:.2f}x the plain formulation's time (target <= 0.60)")
        print()
        print("for reference, the naive character-by-character oracle (tests/naive_grounding.py), one call:")
        for m, oracle_s in results:
            print(f"  {m.name:<11} {m.megabytes / oracle_s:6.2f} MB/s, score_texts {oracle_s / m.per_call(m.fast):5.1f}x faster")

    for problem in problems:
        print("RESULTS DIFFER:", problem, file=sys.stderr)
    if problems:
        return 1
    return 2 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
