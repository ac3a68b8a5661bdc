"""The quality benchmark reads HaluEval items 0-4999 only, of every task it knows: items
5000-9999 are the acceptance check's, never read (benchmarks/bench_quality.py, README)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_quality


@pytest.mark.parametrize("task", list(bench_quality.TASKS))
def test_read_dev_never_reads_held_out_items(tmp_path: Path, task: str) -> None:
    evidence, right, wrong = bench_quality.TASKS[task]
    with open(tmp_path / f"dataset_halueval_{task}.jsonl", "w", encoding="utf-8") as f:
        for number in range(10_000):
            f.write(json.dumps({evidence: f"e{number}", right: f"r{number}",
                                wrong: f"w{number}"}) + "\n")
    items = bench_quality.read_dev(tmp_path, task, 0, 10_000)
    assert len(items) == bench_quality.DEV_ITEMS == 5000
    assert items[-1][right] == "r4999"
    assert bench_quality.read_dev(tmp_path, task, 4990, 6000)[-1][right] == "r4999"
    runs = bench_quality.labelled(task, items[:2])
    assert [(r.answer, r.evidence, r.hallucinated) for r in runs] == [
        ("r0", "e0", False), ("w0", "e0", True), ("r1", "e1", False), ("w1", "e1", True)]
