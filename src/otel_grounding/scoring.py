"""The claim grounding rate: the lexical contract shared with every other implementation.

docs/contract.md section 1, to the character: claims are the pieces between `.`, `!`, `?` and
newline that hold at least 3 distinct significant tokens (ASCII alphanumeric runs of length >= 3,
lowercased after tokenizing); a claim is grounded when at least half of its distinct tokens occur
in the pooled tokens of the tool outputs. Linear time: one pass over the output, one over the
sources.

The rate path folds each text once (a bytes `translate`: ASCII letters lowercased, digits kept,
everything else a space), takes one token set per claim, and probes the sources for the claims'
tokens only. Per-claim attribution (offsets, excerpt, best source, uncovered tokens) is computed
only when someone reads it (`GroundingResult.claims`, `GroundingResult.ungrounded_claims`), from
the texts the pass kept.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Annotated, Any, NamedTuple, TypedDict

from otel_grounding.anchors import Anchor, AnchorMatcher
from otel_grounding.grade import GradeMeta, coverage_grade
from otel_grounding.options import (
    ConfigError,
    Option,
    check_bool,
    check_int,
    check_str_list,
    check_threshold,
    declared,
)

#: A claim is grounded when covered / distinct >= GROUNDING_OVERLAP.
GROUNDING_OVERLAP = 0.5
#: Candidates with fewer distinct significant tokens are not claims.
MIN_CLAIM_TOKENS = 3
#: Alphanumeric runs shorter than this are not significant tokens.
MIN_TOKEN_CHARS = 3

# --- the scoring options: declared here, beside the scorer; config.py makes them settings ----
DEFAULT_MAX_OUTPUT_CHARS = 200_000
DEFAULT_MAX_CLAIMS = 5_000
DEFAULT_MAX_EVIDENCE_CHARS = 4_000_000


class ScoringSettings(TypedDict, total=False):
    """The scoring options, one row each: `key: Annotated[type, Option(default, check, doc)]`.
    config.py's `SettingOptions` extends this table, so each is also a setting (environment
    variable, settings file, README row) without being declared twice."""

    max_output_chars: Annotated[int, Option(
        DEFAULT_MAX_OUTPUT_CHARS, check_int, "output characters checked")]
    max_claims: Annotated[int, Option(
        DEFAULT_MAX_CLAIMS, check_int, "claims checked (the rate is over checked claims)")]
    max_evidence_chars: Annotated[int, Option(
        DEFAULT_MAX_EVIDENCE_CHARS, check_int, "tool-output characters pooled")]
    full_coverage_target: Annotated[bool, Option(
        False, check_bool,
        "declare that full coverage is wanted: a bound that cuts grades `coverage-capped`")]
    critical_anchors: Annotated[Sequence[str], Option(
        (), check_str_list, "built-in anchor classes to require evidence for")]
    anchor_patterns: Annotated[Sequence[str], Option(
        (), check_str_list, "your own anchor regexes (RE2 syntax)")]


#: Every scoring option, in the table's order.
SCORING_OPTIONS: Mapping[str, Option] = declared(ScoringSettings)


@dataclass(frozen=True)
class ScoringOptions:
    """Bounds, anchors and coverage target for one scoring pass."""

    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS
    max_claims: int = DEFAULT_MAX_CLAIMS
    max_evidence_chars: int = DEFAULT_MAX_EVIDENCE_CHARS
    full_coverage_target: bool = False
    anchors: AnchorMatcher = field(default_factory=AnchorMatcher)

    @classmethod
    def build(cls, **options: Any) -> ScoringOptions:
        """From the scoring options (`max_claims=...`, `critical_anchors=...`), checked."""
        for key in options:
            if key not in SCORING_OPTIONS:
                raise ConfigError(f"{key}: unknown scoring option (value {options[key]!r})")
        checked = {key: SCORING_OPTIONS[key].check(key, value) for key, value in options.items()}
        anchors = AnchorMatcher.build(
            checked.pop("critical_anchors", ()), checked.pop("anchor_patterns", ())
        )
        return cls(anchors=anchors, **checked)


DEFAULT_SCORING = ScoringOptions()

_CLAIM_SEPARATORS = ".!?\n"
_CLAIM_SEPARATOR = re.compile("[" + re.escape(_CLAIM_SEPARATORS) + "]")
_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def _fold_table(separators: str) -> bytes:
    """A byte table: A-Z to a-z, a-z and 0-9 kept, `separators` to newline, all else to space."""
    table = bytearray(b" " * 256)
    for char in _ALNUM + _ALNUM[:26].upper():
        table[ord(char)] = ord(char.lower())
    for char in separators:
        table[ord(char)] = ord("\n")
    return bytes(table)


_TOKEN_FOLD = _fold_table("")
_CLAIM_FOLD = _fold_table(_CLAIM_SEPARATORS)
# Every alphanumeric run too short to count: removed from a claim's token set in one C call.
_SHORT_RUNS = frozenset([*_ALNUM, *(a + b for a in _ALNUM for b in _ALNUM)])


def _folded(text: str, table: bytes) -> str:
    """The text with only lowercased tokens and separators left (ASCII, one byte per byte).

    UTF-8 writes every non-ASCII character (and, with surrogatepass, every lone surrogate) with
    bytes >= 0x80 only, which the table maps to spaces: non-ASCII separates, and ASCII-lowercasing
    after tokenizing is exactly what the byte table does.
    """
    data = text.encode("ascii") if text.isascii() else text.encode("utf-8", "surrogatepass")
    return data.translate(table).decode("ascii")


def significant_tokens(text: str) -> list[str]:
    """The text's significant tokens in order, lowercased; every non-ASCII character separates."""
    return [token for token in _folded(text, _TOKEN_FOLD).split() if len(token) >= MIN_TOKEN_CHARS]


def as_text(value: Any) -> str:
    """A value as the contract reads it: strings as they are, None as "", the rest as sorted
    JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    # What JSON cannot encode (unsortable keys, a cycle, an object, nesting deeper than the
    # interpreter's recursion limit) falls back to JSON with str() for objects, then to str(),
    # then, nested too deep even for str(), to no text. A value's own __str__ that raises is
    # not caught: that is the caller's bug, for its error policy.
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return str(value)
    except RecursionError:
        return ""


@dataclass(frozen=True)
class ClaimVerdict:
    """One claim: where it is, how much of it the evidence covers, and which source covers most."""

    index: int
    start: int
    end: int
    text: str
    tokens_distinct: int
    tokens_covered: int
    grounded: bool
    best_source: int | None
    best_source_covered: int
    uncovered_tokens: tuple[str, ...]

    @property
    def covered_fraction(self) -> float:
        return self.tokens_covered / self.tokens_distinct

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "tokens_distinct": self.tokens_distinct,
            "tokens_covered": self.tokens_covered,
            "covered_fraction": self.covered_fraction,
            "grounded": self.grounded,
            "best_source": self.best_source,
            "best_source_covered": self.best_source_covered,
            "uncovered_tokens": list(self.uncovered_tokens),
        }


class Attribution(NamedTuple):
    """What a scoring pass kept to explain its claims later: the texts it read, where its claims
    are. A named tuple: built for every scoring pass (a frozen dataclass costs three times as
    much).

    `pieces[k]` is the candidate index of checked claim k; `ungrounded` lists the checked claims
    that are not grounded. Verdicts are computed from these on request, for the claims asked for.
    """

    output: str
    sources: tuple[str, ...]
    pieces: tuple[int, ...]
    ungrounded: tuple[int, ...]

    def verdicts(self, indexes: Sequence[int]) -> tuple[ClaimVerdict, ...]:
        """The verdicts of the checked claims `indexes`: one pass over the output and the
        sources."""
        if not indexes:
            return ()
        texts = _CLAIM_SEPARATOR.split(self.output)
        starts = [0, *accumulate(len(text) + 1 for text in texts)]
        folded = _folded(self.output, _CLAIM_FOLD).split("\n")
        claims = [
            (
                k,
                tuple(
                    dict.fromkeys(
                        t for t in folded[self.pieces[k]].split() if len(t) >= MIN_TOKEN_CHARS
                    )
                ),
            )
            for k in indexes
        ]
        wanted = {token for _, tokens in claims for token in tokens}
        postings: defaultdict[str, list[int]] = defaultdict(list)
        for source, text in enumerate(self.sources):
            for token in wanted.intersection(_folded(text, _TOKEN_FOLD).split()):
                postings[token].append(source)

        verdicts: list[ClaimVerdict] = []
        for k, tokens in claims:
            covered = [t for t in tokens if t in postings]
            best, best_covered = None, 0
            if covered:
                counts: dict[int, int] = {}
                for token in covered:
                    for source in postings[token]:
                        counts[source] = counts.get(source, 0) + 1
                # the source covering most of the claim's tokens, the first one on a tie
                best_covered = max(counts.values())
                best = min(source for source, count in counts.items() if count == best_covered)
            piece = self.pieces[k]
            start, end = starts[piece], starts[piece] + len(texts[piece])
            verdicts.append(
                ClaimVerdict(
                    index=k,
                    start=start,
                    end=end,
                    text=self.output[start:end].strip(),
                    tokens_distinct=len(tokens),
                    tokens_covered=len(covered),
                    grounded=len(covered) >= GROUNDING_OVERLAP * len(tokens),
                    best_source=best,
                    best_source_covered=best_covered,
                    uncovered_tokens=tuple([t for t in tokens if t not in postings]),
                )
            )
        return tuple(verdicts)


_NO_ATTRIBUTION = Attribution("", (), (), ())


@dataclass(frozen=True)
class GroundingResult:
    """The outcome of one scoring pass: the rate, the grade and (on access) the per-claim
    verdicts."""

    claims_total: int
    claims_grounded: int
    claims_checked: int
    rate: float
    below_threshold: bool
    threshold: float | None
    grade: str
    truncated_by: str | None = None
    evidence_incomplete: bool = False
    coverage_target_declared: bool = False
    anchors_total: int = 0
    uncovered_anchors: tuple[Anchor, ...] = field(default=())
    attribution: Attribution = field(default=_NO_ATTRIBUTION, repr=False, compare=False)

    @property
    def critical_uncovered(self) -> int:
        return len(self.uncovered_anchors)

    @property
    def claims(self) -> tuple[ClaimVerdict, ...]:
        """Every checked claim's verdict, attribution included; computed once, on first access."""
        cached: tuple[ClaimVerdict, ...] | None = self.__dict__.get("_claims")
        if cached is None:
            cached = self.attribution.verdicts(range(len(self.attribution.pieces)))
            object.__setattr__(self, "_claims", cached)  # a cache, not state: eq and hash ignore it
        return cached

    def ungrounded_claims(self, limit: int | None = None) -> tuple[ClaimVerdict, ...]:
        """The verdicts of the ungrounded claims (the first `limit`), attributing only those."""
        cached: tuple[ClaimVerdict, ...] | None = self.__dict__.get("_claims")
        if cached is not None:
            return tuple([c for c in cached if not c.grounded][:limit])
        return self.attribution.verdicts(self.attribution.ungrounded[:limit])

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims_total": self.claims_total,
            "claims_grounded": self.claims_grounded,
            "claims_checked": self.claims_checked,
            "rate": self.rate,
            "below_threshold": self.below_threshold,
            "threshold": self.threshold,
            "grade": self.grade,
            "truncated_by": self.truncated_by,
            "evidence_incomplete": self.evidence_incomplete,
            "coverage_target_declared": self.coverage_target_declared,
            "anchors_total": self.anchors_total,
            "critical_uncovered": self.critical_uncovered,
            "uncovered_anchors": [a.to_dict() for a in self.uncovered_anchors],
            "claims": [c.to_dict() for c in self.claims],
        }


def _bounded_sources(sources: Iterable[str], budget: int) -> tuple[list[str], bool]:
    """The sources within the evidence budget (characters), and whether the budget cut any."""
    kept: list[str] = []
    for text in sources:
        if len(text) > budget:
            if budget:
                kept.append(text[:budget])
            return kept, True
        kept.append(text)
        budget -= len(text)
    return kept, False


def score(
    output: str,
    sources: Iterable[str],
    *,
    threshold: float | None = None,
    options: ScoringOptions = DEFAULT_SCORING,
    evidence_incomplete: bool = False,
) -> GroundingResult:
    """Score already-validated inputs; the processor and the relay call this directly."""
    cut: list[str] = []
    if len(output) > options.max_output_chars:
        output = output[: options.max_output_chars]
        cut.append("max_output_chars")
    source_list, evidence_cut = _bounded_sources(sources, options.max_evidence_chars)

    max_claims = options.max_claims
    total = 0
    pieces: list[int] = []
    claims: list[set[str]] = []
    for piece, folded in enumerate(_folded(output, _CLAIM_FOLD).split("\n")):
        tokens = set(folded.split()) - _SHORT_RUNS
        if len(tokens) >= MIN_CLAIM_TOKENS:
            if total < max_claims:
                pieces.append(piece)
                claims.append(tokens)
            total += 1
    checked = len(pieces)
    if checked < total:
        cut.append("max_claims")
    if evidence_cut:
        cut.append("max_evidence_chars")

    # Only the claims' tokens are looked for in the sources: a small set to probe, not a pool of
    # every source token to build; a token once found is not looked for again.
    wanted: set[str] = set().union(*claims)
    found: set[str] = set()
    for text in source_list:
        if not wanted:
            break
        hits = wanted.intersection(_folded(text, _TOKEN_FOLD).split())
        if hits:
            found |= hits
            wanted -= hits

    grounded = 0
    ungrounded: list[int] = []
    for index, tokens in enumerate(claims):
        # covered / distinct >= 0.5, exactly
        if len(tokens & found) >= GROUNDING_OVERLAP * len(tokens):
            grounded += 1
        else:
            ungrounded.append(index)

    anchors = options.anchors
    uncovered: tuple[Anchor, ...] = ()
    anchors_total = 0
    if anchors.enabled:
        in_output = anchors.find(output)
        anchors_total = len(in_output)
        if in_output:
            keys = anchors.source_keys(source_list)
            uncovered = tuple(a for a in in_output if a.key not in keys)

    rate = grounded / checked if checked else 1.0
    truncated_by = ",".join(cut) or None
    # Both records positional (built for every pass): their fields in their order.
    grade = coverage_grade(
        GradeMeta(
            total,  # claims_total
            checked,  # claims_checked
            truncated_by,
            evidence_incomplete,
            options.full_coverage_target,  # coverage_target_declared
            len(uncovered),  # critical_uncovered
        )
    )
    return GroundingResult(
        total,  # claims_total
        grounded,  # claims_grounded
        checked,  # claims_checked
        rate,
        threshold is not None and total > 0 and rate < threshold,  # below_threshold
        threshold,
        grade,
        truncated_by,
        evidence_incomplete,
        options.full_coverage_target,  # coverage_target_declared
        anchors_total,
        uncovered,  # uncovered_anchors
        Attribution(output, tuple(source_list), tuple(pieces), tuple(ungrounded)),  # attribution
    )


def score_texts(
    output: str,
    sources: Iterable[str],
    *,
    threshold: float | None = None,
    evidence_incomplete: bool = False,
    **options: Any,
) -> GroundingResult:
    """Score an output against tool-output texts.

    Keyword options (validated here, `ConfigError` when bad): `max_output_chars`, `max_claims`,
    `max_evidence_chars`, `full_coverage_target`, `critical_anchors`, `anchor_patterns`.
    """
    opts = ScoringOptions.build(**options) if options else DEFAULT_SCORING
    return score(
        as_text(output),
        (as_text(s) for s in sources),
        threshold=check_threshold("threshold", threshold),
        options=opts,
        evidence_incomplete=evidence_incomplete,
    )


TOOL_STEP_TYPE = "tool"


def tool_outputs(steps: Iterable[Any]) -> list[str]:
    """The texts of the tool steps of a ferrumdeck-style step list (other steps never count)."""
    return [
        as_text(step["output"])
        for step in steps
        if isinstance(step, Mapping)
        and step.get("step_type") == TOOL_STEP_TYPE
        and "output" in step
    ]


def score_run(
    output: Any,
    steps: Iterable[Mapping[str, Any]],
    *,
    threshold: float | None = None,
    **options: Any,
) -> GroundingResult:
    """Score a run: its final output against the outputs of its `step_type == "tool"` steps."""
    return score_texts(as_text(output), tool_outputs(steps), threshold=threshold, **options)
