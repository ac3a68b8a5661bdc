"""The `Judge` interface: an optional semantic check of a run's claims against its evidence.

A judge is given the run's checked claims and its evidence texts (each with the span id of the
tool step it came from) and returns one `JudgeVerdict` per claim, in order: `supported`,
`unsupported` or `contradicted`, an optional short explanation, the index of the evidence it
relied on and, optionally, the kinds of reason a verdict that is not `supported` rests on
(`reason_kinds`: what `judge_alert_kinds` routes the flag by). It runs on the judge tier's own
threads (never the application's), within `request.timeout` seconds; whatever it raises
becomes a `judge-failed` grade, never an error in the application. Raise `JudgeTimeout` (any
`TimeoutError`) when the backend did not answer in time (`judge-timeout`), `JudgeBadResponse`
for output that cannot be read as one verdict per claim (graded `judge-bad-response`); any
other exception is graded `judge-error`.

Judges are chosen by name from the entry-point group `otel_grounding.judges` (the built-ins
`openai` and `similarity` are registered there; a third party adds its own the same way), or
passed as an object in code. An entry point names a callable taking the `JudgeSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from otel_grounding.config import ConfigError, JudgeSettings
from otel_grounding.reason_kinds import REASON_KINDS

ENTRY_POINT_GROUP = "otel_grounding.judges"

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"
CONTRADICTED = "contradicted"
VERDICTS: tuple[str, ...] = (SUPPORTED, UNSUPPORTED, CONTRADICTED)
_KNOWN_KINDS = frozenset(REASON_KINDS)

#: A judge's explanation is cut to this many characters before it is written anywhere.
MAX_EXPLANATION_CHARS = 300


@dataclass(frozen=True)
class EvidenceText:
    """One tool output as the judge sees it (already cut to the judge's evidence bound)."""

    text: str
    span_id: int | None = None


@dataclass(frozen=True)
class JudgeRequest:
    """What a judge is asked: claims (in order) and the evidence, within `timeout` seconds."""

    claims: tuple[str, ...]
    evidence: tuple[EvidenceText, ...]
    timeout: float


@dataclass(frozen=True)
class JudgeVerdict:
    """A judge's verdict on one claim."""

    verdict: str
    explanation: str | None = None
    evidence_index: int | None = None
    #: What a verdict that is not `supported` rests on (`reason_kinds.REASON_KINDS`); empty when
    #: the judge does not say (such a verdict counts for every `judge_alert_kinds`).
    kinds: tuple[str, ...] = ()


class JudgeBadResponse(Exception):
    """The judge's output was not one well-formed verdict per claim."""


class JudgeTimeout(TimeoutError):
    """The judge's backend did not answer within the request's timeout (`judge-timeout`)."""


@runtime_checkable
class Judge(Protocol):
    """Anything with a `name`, a `model` (or None) and `judge(request)` is a judge."""

    name: str
    model: str | None

    def judge(self, request: JudgeRequest) -> Sequence[JudgeVerdict]: ...


def parse_verdicts(data: Any, claims: int, evidence: int) -> tuple[JudgeVerdict, ...]:
    """Validate decoded JSON `{"verdicts": [{"claim", "verdict", "explanation"?, "evidence"?}]}`.

    Exactly one verdict per claim index 0..claims-1 (any order), a verdict from `VERDICTS`, an
    evidence index in range or null; anything else raises `JudgeBadResponse`.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("verdicts"), list):
        raise JudgeBadResponse("no 'verdicts' list")
    found: dict[int, JudgeVerdict] = {}
    for item in data["verdicts"]:
        if not isinstance(item, Mapping):
            raise JudgeBadResponse("a verdict is not an object")
        index = item.get("claim")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < claims:
            raise JudgeBadResponse(f"claim index {index!r} out of range")
        if index in found:
            raise JudgeBadResponse(f"claim {index} judged twice")
        verdict = item.get("verdict")
        if verdict not in VERDICTS:
            raise JudgeBadResponse(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
        source = item.get("evidence")
        if source is not None and (
            isinstance(source, bool) or not isinstance(source, int) or not 0 <= source < evidence
        ):
            raise JudgeBadResponse(f"evidence index {source!r} out of range")
        explanation = item.get("explanation")
        if explanation is not None and not isinstance(explanation, str):
            raise JudgeBadResponse("explanation is not a string")
        found[index] = JudgeVerdict(
            verdict, explanation[:MAX_EXPLANATION_CHARS] if explanation else None, source
        )
    if len(found) != claims:
        raise JudgeBadResponse(f"{len(found)} verdicts for {claims} claims")
    return tuple(found[i] for i in range(claims))


def check_verdicts(verdicts: Any, claims: int, evidence: int) -> tuple[JudgeVerdict, ...]:
    """What a judge returned, checked: one `JudgeVerdict` per claim (else `JudgeBadResponse`)."""
    try:
        items = tuple(verdicts)
    except TypeError:
        raise JudgeBadResponse("the judge returned no sequence of verdicts") from None
    if len(items) != claims:
        raise JudgeBadResponse(f"{len(items)} verdicts for {claims} claims")
    for item in items:
        if not isinstance(item, JudgeVerdict) or item.verdict not in VERDICTS:
            raise JudgeBadResponse(f"{item!r} is not a verdict")
        index = item.evidence_index
        if index is not None and not 0 <= index < evidence:
            raise JudgeBadResponse(f"evidence index {index!r} out of range")
        if not isinstance(item.kinds, tuple) or not _KNOWN_KINDS.issuperset(item.kinds):
            raise JudgeBadResponse(
                f"kinds {item.kinds!r} are not a tuple of {', '.join(REASON_KINDS)}"
            )
    return items


#: The JSON schema of a judge's answer, for endpoints that accept `response_format` schemas.
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdicts"],
    "properties": {
        "verdicts": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["claim", "verdict", "explanation", "evidence"],
                "properties": {
                    "claim": {"type": "integer"},
                    "verdict": {"type": "string", "enum": list(VERDICTS)},
                    "explanation": {"type": ["string", "null"]},
                    "evidence": {"type": ["integer", "null"]},
                },
            },
        }
    },
}


def load_judge(judge: str | Judge, settings: JudgeSettings) -> Judge:
    """The judge object: given as one, or built from the named `otel_grounding.judges` entry."""
    if not isinstance(judge, str):
        if not isinstance(judge, Judge):
            raise ConfigError(f"judge: {judge!r} has no name, model and judge(request)")
        return judge
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == judge]
    if not found:
        known = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
        raise ConfigError(f"judge: {judge!r} is not an installed judge (known: {', '.join(known)})")
    try:
        factory = found[0].load()
    except ImportError as exc:
        raise ConfigError(
            f"judge: {judge!r} needs an optional dependency: pip install 'otel-grounding[{judge}]'"
            f" ({exc})"
        ) from None
    try:
        built = factory(settings)
    except ConfigError:
        raise
    except Exception as exc:  # a judge that cannot be built is a configuration error
        raise ConfigError(
            f"judge: building {judge!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(built, Judge):
        raise ConfigError(f"judge: the {judge!r} entry point built {built!r}, not a judge")
    return built


def judge_rate(verdicts: Sequence[JudgeVerdict]) -> float:
    """Supported / judged (1.0 over no claim, as the lexical contract does)."""
    if not verdicts:
        return 1.0
    return sum(1 for v in verdicts if v.verdict == SUPPORTED) / len(verdicts)
