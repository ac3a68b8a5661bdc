"""A deliberately naive, obviously-correct reading of docs/contract.md §1, character by character.

This is the oracle the real scorer (`otel_grounding.scoring`) is checked against. It shares no
code with `src/` and uses no regular expressions: every rule of the contract is a plain loop
over characters, so that each line can be compared with the sentence of docs/contract.md it implements.
It is slow on purpose; speed is the real scorer's job.
"""

from __future__ import annotations

import json
from typing import Any

# contract §1, "Claims": split the output at every one of these characters (and no other).
CLAIM_SEPARATORS = (".", "!", "?", "\n")

# contract §1, "Tokens": only these 62 characters can be part of a token; everything else separates.
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"

# ASCII lowercasing, written out: 'A' -> 'a', ..., 'Z' -> 'z'. Nothing else is ever mapped.
ASCII_LOWER: dict[str, str] = {}
for _i in range(26):
    ASCII_LOWER[UPPER[_i]] = LOWER[_i]

MIN_TOKEN_LENGTH = 3
MIN_CLAIM_TOKENS = 3


def is_token_char(ch: str) -> bool:
    """True for exactly the characters A-Z, a-z, 0-9."""
    for allowed in UPPER + LOWER + DIGITS:  # noqa: SIM110 - spelled out on purpose
        if ch == allowed:
            return True
    return False


def ascii_lower(ch: str) -> str:
    if ch in ASCII_LOWER:
        return ASCII_LOWER[ch]
    return ch


def tokens(text: str) -> list[str]:
    """Maximal runs of token characters, kept when 3 or more long, lowercased after the split."""
    found: list[str] = []
    run: list[str] = []
    for ch in text:
        if is_token_char(ch):
            run.append(ch)
        else:
            if len(run) >= MIN_TOKEN_LENGTH:
                found.append("".join(ascii_lower(c) for c in run))
            run = []
    if len(run) >= MIN_TOKEN_LENGTH:
        found.append("".join(ascii_lower(c) for c in run))
    return found


def distinct(items: list[str]) -> list[str]:
    """The items without repeats, in first-seen order."""
    seen: list[str] = []
    lookup: set[str] = set()
    for item in items:
        if item not in lookup:
            lookup.add(item)
            seen.append(item)
    return seen


def candidates(text: str) -> list[str]:
    """The pieces between claim separators (including empty ones)."""
    pieces: list[str] = []
    current: list[str] = []
    for ch in text:
        if ch in CLAIM_SEPARATORS:
            pieces.append("".join(current))
            current = []
        else:
            current.append(ch)
    pieces.append("".join(current))
    return pieces


def claims(text: str) -> list[tuple[str, list[str]]]:
    """(piece, distinct tokens) for every candidate with at least 3 distinct tokens."""
    found: list[tuple[str, list[str]]] = []
    for piece in candidates(text):
        piece_tokens = distinct(tokens(piece))
        if len(piece_tokens) >= MIN_CLAIM_TOKENS:
            found.append((piece, piece_tokens))
    return found


def as_text(value: Any) -> str:
    """Contract §1, "Structured values": strings as is, None as "", the rest as sorted JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def naive_score(output: Any, sources: list[Any], threshold: float | None = None) -> dict[str, Any]:
    """The whole contract: counts, rate, flag, and per claim its coverage and best source."""
    output_text = as_text(output)
    source_token_sets: list[set[str]] = [set(tokens(as_text(s))) for s in sources]
    pool: set[str] = set()
    for token_set in source_token_sets:
        for token in token_set:
            pool.add(token)

    per_claim: list[dict[str, Any]] = []
    grounded_count = 0
    for piece, claim_tokens in claims(output_text):
        covered = 0
        uncovered: list[str] = []
        for token in claim_tokens:
            if token in pool:
                covered += 1
            else:
                uncovered.append(token)
        # covered / distinct >= 0.5, in integers: no rounding question at all.
        grounded = 2 * covered >= len(claim_tokens)
        if grounded:
            grounded_count += 1
        best_source = None
        best_covered = 0
        for index, token_set in enumerate(source_token_sets):
            count = 0
            for token in claim_tokens:
                if token in token_set:
                    count += 1
            if count > best_covered:  # strictly more: ties keep the lowest index
                best_source = index
                best_covered = count
        per_claim.append(
            {
                "piece": piece,
                "tokens_distinct": len(claim_tokens),
                "tokens_covered": covered,
                "grounded": grounded,
                "best_source": best_source,
                "best_source_covered": best_covered,
                "uncovered_tokens": uncovered,
            }
        )

    total = len(per_claim)
    rate = 1.0 if total == 0 else grounded_count / total
    below = threshold is not None and total > 0 and rate < threshold
    return {
        "claims_total": total,
        "claims_grounded": grounded_count,
        "rate": rate,
        "below_threshold": below,
        "claims": per_claim,
    }
