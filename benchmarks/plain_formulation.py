"""The claim grounding rate written the plain way: the baseline `bench_scoring.py` races against.

This is the contract (docs/contract.md §1) as the reference eval plane writes it, and as a user would
write it in a few lines: split the output with `re.split(r"[.!?\n]")`, take the tokens of each
piece with `re.split(r"[^A-Za-z0-9]+")`, keep those of 3 characters or more, lowercase them
(after tokenizing, as the contract says: a token holds ASCII only, so `str.lower` is ASCII
lowercasing here), one set per claim and one pooled set for the sources. The patterns are
compiled once, the faster spelling of the same calls: the baseline is not slowed on purpose.

It computes the counts and the rate only (no per-claim attribution), which is all the eval plane
reports. Not part of the package; `tests/test_scoring.py` checks it against the naive oracle so
the benchmark never races a baseline that computes something else.
"""

from __future__ import annotations

import re

CLAIM_SPLIT = re.compile(r"[.!?\n]")
TOKEN_SPLIT = re.compile(r"[^A-Za-z0-9]+")


def tokens(text: str) -> set[str]:
    """The distinct significant tokens of a text."""
    return {token.lower() for token in TOKEN_SPLIT.split(text) if len(token) >= 3}


def plain_score(output: str, sources: list[str], threshold: float | None = None) -> dict[str, object]:
    """claims_total, claims_grounded, rate and below_threshold for string inputs."""
    pool: set[str] = set()
    for source in sources:
        pool |= tokens(source)
    total = grounded = 0
    for piece in CLAIM_SPLIT.split(output):
        claim = tokens(piece)
        if len(claim) < 3:
            continue
        total += 1
        if len(claim & pool) / len(claim) >= 0.5:
            grounded += 1
    rate = grounded / total if total else 1.0
    return {
        "claims_total": total,
        "claims_grounded": grounded,
        "rate": rate,
        "below_threshold": threshold is not None and total > 0 and rate < threshold,
    }
