"""Cost of the `verifier` judge per run, side by side with the lexical scoring of the same run.

The baseline is what every run already pays: `score_texts`, the contract. The verifier is timed
on the request the judge tier builds for the run (`judge_input` with the default bounds: at most
50 sentences, 32,000 characters of evidence), interleaved round by round with the scoring, in
CPU time of the process (on a shared machine the wall clock mostly measures the other tenants):

- typical:  the Benchmarks table's typical run (`bench_scoring.typical_run`: 5 KB output, 10 tool
            outputs of 5 KB, every word holding a number), cut by the judge tier to 32,000
            characters of evidence
- qa:       HaluEval QA answers against their knowledge passage (a few hundred characters), the
            first items of the development split (`tests/fixtures/halueval/dev_slice.jsonl`)
- article:  HaluEval summaries against their 4-7 KB news article, from the same slice

    .venv/bin/python benchmarks/bench_verifier.py [--rounds N]

Target: the verifier's median on the typical run at most `TARGET_MS` (so that it can judge every
run). The script prints whether it is met; it does not fail on it (the figure depends on the
machine). A change made for speed must leave every verdict as it was: record them before with
`benchmarks/verifier_parity.py record FILE`, check after with `... check FILE`. Standard library
and this package only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from otel_grounding.config import JudgeSettings  # noqa: E402
from otel_grounding.judge import JudgeRequest  # noqa: E402
from otel_grounding.judges.verifier import VerifierJudge  # noqa: E402
from otel_grounding.judgetier import judge_input  # noqa: E402
from otel_grounding.scoring import score_texts  # noqa: E402

from bench_scoring import typical_run  # noqa: E402

#: The issue's target for the typical run: the verifier's median, in milliseconds.
TARGET_MS = 5.0
SLICE = ROOT / "tests" / "fixtures" / "halueval" / "dev_slice.jsonl"
#: Runs of the QA and article workloads (answers of the slice's first items, right and
#: hallucinated alternately).
SLICE_RUNS = 40
MIN_BATCH_SECONDS = 0.02  # each timed batch runs at least this long: short runs are repeated

Run = tuple[str, list[str]]


def slice_runs(task: str) -> list[Run]:
    """Answers of one HaluEval task from the committed development slice, with their evidence."""
    runs: list[Run] = []
    for line in SLICE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["task"] == task:
            runs.append((record["right"], [record["evidence"]]))
            runs.append((record["hallucinated"], [record["evidence"]]))
    return runs[:SLICE_RUNS]


WORKLOADS: dict[str, Callable[[], list[Run]]] = {
    "typical": lambda: [typical_run()],
    "qa": lambda: slice_runs("qa"),
    "article": lambda: slice_runs("summarization"),
}


@dataclass
class Measured:
    """Per-run CPU milliseconds of each round, for the scoring and the verifier."""

    name: str
    runs: int
    sentences: int
    evidence_chars: int
    scoring: list[float]
    verifier: list[float]


def _ms_per_run(batch: int, runs: int, work: Callable[[], Any]) -> float:
    start = time.process_time()
    for _ in range(batch):
        work()
    return (time.process_time() - start) * 1000 / (batch * runs)


def measure(name: str, runs: list[Run], rounds: int) -> Measured:
    """Interleaved rounds of the lexical scoring and the verifier over the same runs."""
    settings = JudgeSettings()
    judge = VerifierJudge()
    requests = []
    for output, sources in runs:
        result = score_texts(output, sources)
        built = judge_input(result, output, sources, [None] * len(sources), settings)
        requests.append(JudgeRequest(built.request_claims, built.evidence, settings.timeout))

    def scoring() -> None:
        for output, sources in runs:
            score_texts(output, sources)

    def verifier() -> None:
        for request in requests:
            judge.judge(request)

    single = _ms_per_run(1, 1, verifier) / 1000
    batch = max(1, round(MIN_BATCH_SECONDS / max(single, 1e-6)))
    measured = Measured(
        name, len(runs), sum(len(r.claims) for r in requests),
        sum(len(e.text) for r in requests for e in r.evidence), [], [],
    )
    for i in range(rounds):
        order = (scoring, verifier) if i % 2 == 0 else (verifier, scoring)
        for work in order:
            ms = _ms_per_run(batch, len(runs), work)
            (measured.scoring if work is scoring else measured.verifier).append(ms)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per workload")
    args = parser.parse_args(argv)
    print(f"CPU ms per run, {args.rounds} interleaved rounds: median (best)")
    print(f"{'workload':<9} {'runs':>5} {'sentences':>9} {'evidence':>9} "
          f"{'score_texts':>16} {'verifier':>16} {'ratio':>6}")
    typical_ms = None
    for name, build in WORKLOADS.items():
        m = measure(name, build(), args.rounds)
        scoring, verifier = statistics.median(m.scoring), statistics.median(m.verifier)
        if name == "typical":
            typical_ms = verifier
        print(f"{name:<9} {m.runs:>5} {m.sentences // m.runs:>9} {m.evidence_chars // m.runs:>9,} "
              f"{scoring:>8.2f} ({min(m.scoring):>5.2f}) {verifier:>8.2f} ({min(m.verifier):>5.2f}) "
              f"{verifier / scoring:>5.1f}x")
    if typical_ms is not None:
        met = "met" if typical_ms <= TARGET_MS else "not met"
        print(f"typical run: verifier median {typical_ms:.2f} ms (target <= {TARGET_MS:g} ms: {met})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
