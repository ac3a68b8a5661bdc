"""Every verdict of the `verifier` judge on a fixed corpus, recorded, then compared.

For a change meant to leave the verifier's verdicts as they are (an optimisation): record them
before, check after. The corpus is the committed HaluEval development slice (each answer as the
judge tier sends it: `judge_input` over the lexical scoring), the agent-style cases, the
benchmarks' synthetic runs (`bench_scoring`'s workloads, the typical run under several seeds),
and deterministic variants of the slice and the cases that reach every rule: a negation added,
a name, number or date swapped for another item's, an answer against another item's evidence,
and several tool outputs at once (long evidence, one verdict per source).

    .venv/bin/python benchmarks/verifier_parity.py record /tmp/verifier-verdicts.json
    .venv/bin/python benchmarks/verifier_parity.py check /tmp/verifier-verdicts.json

`check` exits 1 and prints the first differences when a verdict, its reason or its evidence
index moved. Standard library and this package only.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from otel_grounding.config import JudgeSettings  # noqa: E402
from otel_grounding.judge import JudgeRequest  # noqa: E402
from otel_grounding.judges.verifier import VerifierJudge  # noqa: E402
from otel_grounding.judgetier import judge_input  # noqa: E402
from otel_grounding.scoring import score_texts  # noqa: E402

import bench_scoring  # noqa: E402

SLICE = ROOT / "tests" / "fixtures" / "halueval" / "dev_slice.jsonl"
CASES = ROOT / "benchmarks" / "data" / "agent_style_cases.json"
#: The synthetic workloads are long: their first this many characters of output are judged.
SYNTHETIC_OUTPUT_CHARS = 20_000

Run = tuple[str, str, list[str]]  # (name, output, tool outputs)

_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
_NUMBER = re.compile(r"\d+")
_COPULA = re.compile(r"\b(is|was|are|were|has|have|does|did)\b")
_NOT = re.compile(r"\b(is|was|are|were|does|did) not\b|\bn't\b")


def _variants(rng: random.Random, answer: str, names: list[str]) -> Iterator[tuple[str, str]]:
    """Deterministic edits of one answer that reach the rules (names, numbers, polarity)."""
    if _NOT.search(answer):
        yield "unnegated", _NOT.sub(lambda m: m.group(1) or "", answer, count=1)
    elif _COPULA.search(answer):
        yield "negated", _COPULA.sub(lambda m: m.group(1) + " not", answer, count=1)
    found = _NAME.findall(answer)
    if found and names:
        yield "name", answer.replace(rng.choice(found), rng.choice(names), 1)
    if _NUMBER.search(answer):
        yield "number", _NUMBER.sub(lambda m: str(int(m.group()) + rng.randint(1, 9)), answer,
                                    count=1)
    words = answer.split()
    if len(words) > 4:
        rng.shuffle(words)
        yield "shuffled", " ".join(words)
    yield "hedged", "It is about " + answer[:1].lower() + answer[1:]


def runs() -> Iterator[Run]:
    """The corpus: every run whose verdicts are recorded."""
    rng = random.Random(26)
    records = [json.loads(line) for line in SLICE.read_text(encoding="utf-8").splitlines()]
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    names = sorted({n for r in records for n in _NAME.findall(r["evidence"])})
    for i, r in enumerate(records):
        tag = f"slice/{r['task']}/{r['item']}"
        for kind in ("right", "hallucinated"):
            yield f"{tag}/{kind}", r[kind], [r["evidence"]]
            for variant, text in _variants(rng, r[kind], names):
                yield f"{tag}/{kind}/{variant}", text, [r["evidence"]]
        other = records[(i + 1) % len(records)]
        yield f"{tag}/other-evidence", r["hallucinated"], [other["evidence"]]
        yield f"{tag}/two-sources", r["right"] + " " + r["hallucinated"], [
            other["evidence"], r["evidence"],
        ]
    for i, case in enumerate(cases):
        tag = f"cases/{case['id']}"
        for kind in ("grounded", "altered"):
            yield f"{tag}/{kind}", case[kind], [case["tool_output"]]
            for variant, text in _variants(rng, case[kind], names):
                yield f"{tag}/{kind}/{variant}", text, [case["tool_output"]]
        together = [c["tool_output"] for c in cases[i : i + 8]]
        yield f"{tag}/among-others", case["altered"] + " " + case["grounded"], together
    yield "cases/all", " ".join(c["grounded"] for c in cases), [c["tool_output"] for c in cases]
    for seed in (7, 1, 2, 3):
        output, sources = bench_scoring.typical_run(seed)
        yield f"typical/{seed}", output, sources
    for name in ("prose", "vocabulary", "short"):
        output, sources = bench_scoring.WORKLOADS[name]()
        yield f"synthetic/{name}", output[:SYNTHETIC_OUTPUT_CHARS], sources


def verdicts() -> dict[str, list[list[object]]]:
    """Run name -> [claim, verdict, explanation, evidence index] per claim the judge was asked."""
    settings = JudgeSettings()
    judge = VerifierJudge()
    out: dict[str, list[list[object]]] = {}
    for name, output, sources in runs():
        result = score_texts(output, sources)
        built = judge_input(result, output, sources, [None] * len(sources), settings)
        request = JudgeRequest(built.request_claims, built.evidence, settings.timeout)
        out[name] = [
            [claim, v.verdict, v.explanation, v.evidence_index]
            for claim, v in zip(request.claims, judge.judge(request), strict=True)
        ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    found = verdicts()
    claims = sum(len(v) for v in found.values())
    if args.action == "record":
        args.path.write_text(json.dumps(found, indent=0, ensure_ascii=False), encoding="utf-8")
        print(f"recorded {claims} verdicts of {len(found)} runs in {args.path}")
        return 0
    expected = json.loads(args.path.read_text(encoding="utf-8"))
    differences = [
        (name, i, want, got)
        for name in sorted(set(expected) | set(found))
        for i, (want, got) in enumerate(
            zip(expected.get(name, [None]), found.get(name, [None]), strict=False)
        )
        if want != got
    ]
    differences += [
        (name, -1, len(expected.get(name, [])), len(found.get(name, [])))
        for name in sorted(set(expected) | set(found))
        if len(expected.get(name, [])) != len(found.get(name, []))
    ]
    for name, i, want, got in differences[:10]:
        print(f"{name} claim {i}:\n  recorded {want}\n  now      {got}")
    print(f"{claims} verdicts of {len(found)} runs: {len(differences)} differ")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
