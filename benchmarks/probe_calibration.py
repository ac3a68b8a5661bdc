"""Would a learned calibration raise the verifier? A probe, not a shipped part.

The agent-style cases come in twins (a grounded paraphrase and the same answer with one change),
so a model fitted on them cannot learn style, only the change. Each claim of each answer is an
example: label 1 for a claim of an altered answer that its grounded twin does not hold word for
word, 0 for every other claim. Its features are read by the verifier's own pieces: the rules'
verdict and reason kinds (`rules`), and what a lexical model could learn past them (`lexical`):
the claim's words the tool output lacks, the nearest evidence clause's words the claim lacks,
those two crossed, negation on either side, how much of the claim the clause shares. A logistic
regression (plain SGD, hashed features, pure Python) is fitted with whole sets left out, five
folds, and a run scores the highest of its claims. Reported beside the recommended file's own
flags, read back from the real processor: the score's AUC, the score alone, the score raising
a flag the rules did not (OR), and the score vetoing the rules' flag (AND).

    .venv/bin/python benchmarks/probe_calibration.py [--features rules lexical] [--epochs 8]
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import random
import sys
import zlib
from array import array
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
from bench_quality import AGENT_CASES, RECOMMENDED, agent_runs  # noqa: E402
from detection_kit import send_runs  # noqa: E402

from otel_grounding.judge import EvidenceText, JudgeRequest  # noqa: E402
from otel_grounding.judges.evidence import EvidenceIndex  # noqa: E402
from otel_grounding.judges.facts import (  # noqa: E402
    read_facts,
    stem,
    word_profile,
    words_of_in_order,
)
from otel_grounding.judges.verifier import VerifierJudge  # noqa: E402
from otel_grounding.sentences import asserts_something, split_sentences  # noqa: E402

FOLDS = 5
DIMENSION = 1 << 20
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
Example = tuple[list[int], int]


def words(text: str) -> list[str]:
    """The verifier's words of a text, lower-cased (numbers are its facts, not words)."""
    return [word.lower() for word in words_of_in_order(text)]


def negates(said: Sequence[str]) -> bool:
    """Whether one of these words negates, as the verifier reads it ("isn't", "banned")."""
    return any(word_profile(word).negation for word in said)


def claim_features(claim: str, verdict: str, kinds: Sequence[str], index: EvidenceIndex,
                   evidence_stems: set[str], families: set[str]) -> list[str]:
    """The named features of one claim (hashed later)."""
    named = ["bias"]
    if "rules" in families:
        named += ["r:" + verdict, *("k:" + kind for kind in kinds)]
    if "lexical" not in families:
        return named
    facts = read_facts(claim, claim=True)
    ranked = index.nearest(facts.content_stems)
    claim_words = words(claim)
    claim_stems = {stem(w) for w in claim_words}
    near = words(index.sentences[ranked[0][1]].clause) if ranked else []
    shared = ranked[0][0] / max(1, len(facts.content_stems)) if ranked else 0.0
    unsupported = [w for w in dict.fromkeys(claim_words)
                   if stem(w) not in evidence_stems and len(w) > 2]
    dropped = [w for w in dict.fromkeys(near) if stem(w) not in claim_stems and len(w) > 1]
    named += [
        f"ov:{min(4, int(shared * 5))}",
        f"neg:{negates(claim_words):d}{negates(near):d}",
        f"nu:{min(3, len(unsupported))}",
        *("u:" + stem(w) for w in unsupported[:8]),
        *("d:" + stem(w) for w in dropped[:10]),
        *(f"p:{stem(a)}|{stem(b)}" for a in unsupported[:5] for b in dropped[:8]),
    ]
    return named


def examples(cases: Sequence[dict[str, str]],
             families: set[str]) -> list[tuple[str, bool, list[Example]]]:
    """Per run, in `agent_runs` order: its set, whether it is altered, its claims' examples."""
    judge = VerifierJudge()
    out = []
    for case in cases:
        index = EvidenceIndex([case["tool_output"]])
        evidence_stems = {stem(w) for w in words(case["tool_output"])}
        twin = {s.text for s in split_sentences(case["grounded"])}
        for altered, answer in ((False, case["grounded"]), (True, case["altered"])):
            claims = tuple(s.text for s in split_sentences(answer) if asserts_something(s.text))
            verdicts = judge.judge(JudgeRequest(claims, (EvidenceText(case["tool_output"]),), 5))
            run = []
            for claim, v in zip(claims, verdicts, strict=True):
                named = claim_features(claim, v.verdict, v.kinds, index, evidence_stems, families)
                hashed = sorted({zlib.crc32(n.encode()) % DIMENSION for n in named})
                run.append((hashed, int(altered and claim not in twin)))
            out.append((case["set"], altered, run))
    return out


def fit(data: list[Example], epochs: int, rate: float = 0.1, l2: float = 1e-5) -> array[float]:
    """Logistic regression by SGD over hashed binary features."""
    weights = array("d", bytes(8 * DIMENSION))
    order = list(range(len(data)))
    shuffle = random.Random(0).shuffle
    for _ in range(epochs):
        shuffle(order)
        for at in order:
            features, label = data[at]
            error = _sigmoid(sum(weights[f] for f in features)) - label
            for f in features:
                weights[f] -= rate * (error + l2 * weights[f])
    return weights


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def auc(negatives: list[float], positives: list[float]) -> float:
    """The chance a positive scores above a negative (ties count half)."""
    ranked = sorted(negatives)
    wins = sum(bisect.bisect_left(ranked, p) + (bisect.bisect_right(ranked, p)
               - bisect.bisect_left(ranked, p)) / 2 for p in positives)
    return wins / (len(ranked) * len(positives))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", nargs="+", default=["rules", "lexical"],
                        choices=["rules", "lexical"])
    parser.add_argument("--epochs", type=int, default=8)
    args = parser.parse_args()
    cases = json.loads(AGENT_CASES.read_text(encoding="utf-8"))["cases"]
    runs = examples(cases, set(args.features))
    flags, _ = send_runs(agent_runs(), {"settings_file": str(RECOMMENDED)})
    rules = [f.judge_flag for f in flags]
    scores = [0.0] * len(runs)
    fold_of = {name: zlib.crc32(name.encode()) % FOLDS for name, _, _ in runs}
    for fold in range(FOLDS):
        train = [e for name, _, run in runs if fold_of[name] != fold for e in run]
        weights = fit(train, args.epochs)
        for at, (name, _, run) in enumerate(runs):
            if fold_of[name] == fold:
                scores[at] = max((_sigmoid(sum(weights[f] for f in fs)) for fs, _ in run),
                                 default=0.0)
    pairs = len(runs) // 2
    grounded = [at for at, (_, altered, _) in enumerate(runs) if not altered]
    altered = [at for at, (_, is_altered, _) in enumerate(runs) if is_altered]

    def rates(flagged: Sequence[bool]) -> str:
        fa = sum(flagged[at] for at in grounded) / pairs
        caught = sum(flagged[at] for at in altered) / pairs
        return f"false alarms {fa:6.1%}  caught {caught:6.1%}"

    print(f"{pairs} pairs, {len(set(fold_of))} sets, features {' + '.join(args.features)}, "
          f"{FOLDS} folds by set")
    print(f"the recommended file (rules alone): {rates(rules)}")
    print(f"score AUC (run level): {auc([scores[a] for a in grounded], [scores[a] for a in altered]):.3f}")
    for t in THRESHOLDS:
        alone = [s > t for s in scores]
        either = [r or s > t for r, s in zip(rules, scores, strict=True)]
        print(f"t={t:.2f}  score alone: {rates(alone)} | rules OR score: {rates(either)}")
    for t in (0.1, 0.3, 0.5):
        both = [r and s > t for r, s in zip(rules, scores, strict=True)]
        print(f"t={t:.2f}  rules AND score (a veto): {rates(both)}")


if __name__ == "__main__":
    main()
