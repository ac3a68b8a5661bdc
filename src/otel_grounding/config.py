"""Validated configuration: every knob, its default and its check live here, nowhere else.

Configuration is checked once, when it is built (constructor, environment, settings file); a bad
value raises `ConfigError` naming the key and the value, never later inside a span's end.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from otel_grounding.anchors import AnchorMatcher
from otel_grounding.internal_error import STRICT_ENV

# --- scoring bounds -------------------------------------------------------------------------
DEFAULT_MAX_OUTPUT_CHARS = 200_000
DEFAULT_MAX_CLAIMS = 5_000
DEFAULT_MAX_EVIDENCE_CHARS = 4_000_000

# --- per-trace buffering (modelled on the Collector's groupbytrace) ---------------------------
#: In-process: how long a trace's buffered tool outputs may sit idle waiting for their run.
DEFAULT_PROCESSOR_WAIT_S = 300.0
#: In the relay: how long a run span is held after it arrives, for late tool spans.
DEFAULT_RELAY_WAIT_S = 5.0
#: How long the relay keeps an idle trace's state (its tool outputs) for a run still to come;
#: `num_traces` and `max_buffer_bytes` bound the memory this takes.
DEFAULT_RELAY_TRACE_RETENTION_S = 300.0
#: Every shell: how long an idle trace's state (tool outputs, parent links) is kept for its run.
DEFAULT_TRACE_RETENTION_S = 300.0
#: The relay: how long a run span is held after it arrives, for late evidence.
DEFAULT_EVIDENCE_WAIT_S = 5.0
DEFAULT_NUM_TRACES = 10_000
DEFAULT_MAX_SPANS_PER_TRACE = 1_000
DEFAULT_MAX_BUFFER_BYTES = 64 * 1024 * 1024

# --- where runs are scored -------------------------------------------------------------------
#: On the scoring worker, computed in a child interpreter (the default: the application's GIL is
#: never held by scoring); on the worker thread itself; or in the thread that ends the run.
SCORING_BACKGROUND = "background"
SCORING_THREAD = "thread"
SCORING_INLINE = "inline"
SCORING_MODES = (SCORING_BACKGROUND, SCORING_THREAD, SCORING_INLINE)
#: Runs waiting for (or being scored by) the worker; beyond it a run leaves unscored.
DEFAULT_SCORING_QUEUE_SIZE = 2_048  # as the SDK batch processor's span queue
#: How long a run that ended before some of its started steps waits for them (seconds).
DEFAULT_OPEN_STEP_WAIT_S = 2.0

# --- the judge tier (optional; see judge.py) ---------------------------------------------------
#: Runs waiting for a judge thread; beyond it a run is declined (`judge-queue-full`).
DEFAULT_JUDGE_MAX_PENDING = 64
#: Judge calls in flight at once (one judge thread each).
DEFAULT_JUDGE_MAX_CONCURRENCY = 4
#: How long a run may wait for its judgement, from admission (seconds).
DEFAULT_JUDGE_TIMEOUT_S = 10.0
#: Claims and evidence characters one judgement is given (a cut is reported like any bound).
DEFAULT_JUDGE_MAX_CLAIMS = 50
DEFAULT_JUDGE_MAX_EVIDENCE_CHARS = 32_000
JUDGE_ALWAYS = "always"
JUDGE_FLAGGED = "flagged"
JUDGE_BELOW_PREFIX = "below:"
#: The `similarity` judge's cosine threshold (multilingual-e5-small, "query:"/"passage:").
DEFAULT_JUDGE_SIMILARITY_THRESHOLD = 0.80

# --- span output ------------------------------------------------------------------------------
DEFAULT_MAX_CLAIM_EVENTS = 10
DEFAULT_PROJECT_ATTRIBUTE = "service.name"
DEFAULT_MAX_PROJECT_LABELS = 100

#: The key of a project's settings document, shared with the reference platform.
THRESHOLD_KEY = "min_claim_grounding_rate"
PROJECT_SETTINGS_KEYS = frozenset({THRESHOLD_KEY})

#: Environment variables use the package's own prefix (OTEL_* belongs to the OTel spec).
ENV_PREFIX = "OTEL_GROUNDING_"
ENV_SETTINGS_FILE = ENV_PREFIX + "SETTINGS_FILE"
#: Variables under the prefix that are not settings (the relay's own start from this prefix;
#: strict mode is internal_error's).
ENV_OTHER_PREFIXES = (ENV_SETTINGS_FILE, ENV_PREFIX + "RELAY_", STRICT_ENV)


class ConfigError(ValueError):
    """Invalid configuration; the message names the key and the value."""


def check_threshold(key: str, value: Any) -> float | None:
    """A grounding threshold in [0, 1], or None when none is set."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{key}: {value!r} is not a number in [0, 1]")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise ConfigError(f"{key}: {value!r} is not a number in [0, 1]")
    return number


def check_int(key: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{key}: {value!r} is not an integer >= {minimum}")
    return value


def check_seconds(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{key}: {value!r} is not a number of seconds > 0")
    number = float(value)
    if math.isnan(number) or math.isinf(number) or number <= 0:
        raise ConfigError(f"{key}: {value!r} is not a number of seconds > 0")
    return number


def check_bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{key}: {value!r} is not true or false")
    return value


def check_str(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{key}: {value!r} is not a non-empty string")
    return value


def check_choice(key: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{key}: {value!r} is not one of {', '.join(choices)}")
    return str(value)


def check_str_list(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ConfigError(f"{key}: {value!r} is not a list of strings")
    items = tuple(value)
    for item in items:
        if not isinstance(item, str):
            raise ConfigError(f"{key}: {item!r} is not a string")
    return items


def check_project_settings(key: str, value: Any) -> dict[str, float | None]:
    """{project id: settings document} -> {project id: threshold}; every document is checked."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key}: {value!r} is not a mapping of project id to settings")
    thresholds: dict[str, float | None] = {}
    for project, document in value.items():
        if not isinstance(project, str):
            raise ConfigError(f"{key}: project id {project!r} is not a string")
        if not isinstance(document, Mapping):
            raise ConfigError(f"{key}[{project!r}]: {document!r} is not a settings document")
        unknown = set(document) - PROJECT_SETTINGS_KEYS
        if unknown:
            raise ConfigError(f"{key}[{project!r}]: unknown key {sorted(unknown)[0]!r}")
        thresholds[project] = check_threshold(
            f"{key}[{project!r}].{THRESHOLD_KEY}", document.get(THRESHOLD_KEY)
        )
    return thresholds


@dataclass(frozen=True)
class ScoringOptions:
    """Bounds, anchors and coverage target for one scoring pass."""

    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS
    max_claims: int = DEFAULT_MAX_CLAIMS
    max_evidence_chars: int = DEFAULT_MAX_EVIDENCE_CHARS
    full_coverage_target: bool = False
    anchors: AnchorMatcher = field(default_factory=AnchorMatcher)

    @classmethod
    def build(
        cls,
        *,
        max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
        max_claims: int = DEFAULT_MAX_CLAIMS,
        max_evidence_chars: int = DEFAULT_MAX_EVIDENCE_CHARS,
        full_coverage_target: bool = False,
        critical_anchors: Iterable[str] = (),
        anchor_patterns: Iterable[str] = (),
        **unknown: Any,
    ) -> ScoringOptions:
        if unknown:
            key = sorted(unknown)[0]
            raise ConfigError(f"{key}: unknown scoring option (value {unknown[key]!r})")
        try:
            anchors = AnchorMatcher.build(
                check_str_list("critical_anchors", critical_anchors),
                check_str_list("anchor_patterns", anchor_patterns),
            )
        except ConfigError:
            raise
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return cls(
            max_output_chars=check_int("max_output_chars", max_output_chars),
            max_claims=check_int("max_claims", max_claims),
            max_evidence_chars=check_int("max_evidence_chars", max_evidence_chars),
            full_coverage_target=check_bool("full_coverage_target", full_coverage_target),
            anchors=anchors,
        )


DEFAULT_SCORING = ScoringOptions()


def check_judge_when(key: str, value: Any) -> str:
    """`always`, `flagged` or `below:<rate>` with a rate in [0, 1]."""
    if value in (JUDGE_ALWAYS, JUDGE_FLAGGED):
        return str(value)
    if isinstance(value, str) and value.startswith(JUDGE_BELOW_PREFIX):
        try:
            rate = float(value[len(JUDGE_BELOW_PREFIX) :])
        except ValueError:
            rate = math.nan
        if 0.0 <= rate <= 1.0:
            return value
    raise ConfigError(f"{key}: {value!r} is not always, flagged or below:<rate in [0, 1]>")


def check_rate_per_minute(key: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ConfigError(f"{key}: {value!r} is not a number of judgements per minute > 0")
    if math.isinf(value):
        return None
    return float(value)


@dataclass(frozen=True)
class JudgeSettings:
    """The judge tier: which judge, how to reach it, and its admission control."""

    name: str | None = None  # None: no judge (unless one is passed as an object in code)
    base_url: str | None = None
    model: str | None = None
    api_key_file: str | None = None
    max_pending: int = DEFAULT_JUDGE_MAX_PENDING
    max_concurrency: int = DEFAULT_JUDGE_MAX_CONCURRENCY
    rate_per_minute: float | None = None  # None: unlimited
    sample_rate: float = 1.0
    when: str = JUDGE_ALWAYS
    timeout: float = DEFAULT_JUDGE_TIMEOUT_S
    max_claims: int = DEFAULT_JUDGE_MAX_CLAIMS
    max_evidence_chars: int = DEFAULT_JUDGE_MAX_EVIDENCE_CHARS
    similarity_threshold: float = DEFAULT_JUDGE_SIMILARITY_THRESHOLD

    def selects(self, rate: float, flagged: bool) -> bool:
        """Whether `judge_when` wants a run with this lexical rate and flag judged."""
        if self.when == JUDGE_ALWAYS:
            return True
        if self.when == JUDGE_FLAGGED:
            return flagged
        return rate < float(self.when[len(JUDGE_BELOW_PREFIX) :])


#: Setting key -> (JudgeSettings field, check). The keys are `judge_<field>` except `judge`.
JUDGE_SETTINGS: dict[str, tuple[str, Any]] = {
    "judge": ("name", check_str),
    "judge_base_url": ("base_url", check_str),
    "judge_model": ("model", check_str),
    "judge_api_key_file": ("api_key_file", check_str),
    "judge_max_pending": ("max_pending", lambda k, v: check_int(k, v, minimum=0)),
    "judge_max_concurrency": ("max_concurrency", check_int),
    "judge_rate_per_minute": ("rate_per_minute", check_rate_per_minute),
    "judge_sample_rate": ("sample_rate", check_threshold),
    "judge_when": ("when", check_judge_when),
    "judge_timeout": ("timeout", check_seconds),
    "judge_max_claims": ("max_claims", check_int),
    "judge_max_evidence_chars": ("max_evidence_chars", check_int),
    "judge_similarity_threshold": ("similarity_threshold", check_threshold),
}
#: Judge settings read from the environment as plain text (never as JSON).
_JUDGE_TEXT_KEYS = ("judge", "judge_base_url", "judge_model", "judge_api_key_file", "judge_when")


@dataclass(frozen=True)
class GroundingSettings:
    """Everything the processor, the exporter and the relay are configured with, validated."""

    min_claim_grounding_rate: float | None = None
    project_thresholds: Mapping[str, float | None] = field(default_factory=dict)
    scoring: ScoringOptions = DEFAULT_SCORING
    wait_duration: float | None = None  # deprecated: trace_retention / evidence_wait
    trace_retention: float = DEFAULT_TRACE_RETENTION_S
    evidence_wait: float = DEFAULT_EVIDENCE_WAIT_S
    num_traces: int = DEFAULT_NUM_TRACES
    max_spans_per_trace: int = DEFAULT_MAX_SPANS_PER_TRACE
    max_buffer_bytes: int = DEFAULT_MAX_BUFFER_BYTES
    claim_events: bool = True
    max_claim_events: int = DEFAULT_MAX_CLAIM_EVENTS
    strip_content: bool = False
    project_attribute: str = DEFAULT_PROJECT_ATTRIBUTE
    max_project_labels: int = DEFAULT_MAX_PROJECT_LABELS
    scoring_mode: str = SCORING_BACKGROUND
    scoring_queue_size: int = DEFAULT_SCORING_QUEUE_SIZE
    open_step_wait: float = DEFAULT_OPEN_STEP_WAIT_S
    judge: JudgeSettings = JudgeSettings()

    def threshold_for(self, project: str | None) -> float | None:
        """The project's own threshold when its settings document has one, else the default."""
        if project is not None and project in self.project_thresholds:
            own = self.project_thresholds[project]
            if own is not None:
                return own
        return self.min_claim_grounding_rate


#: Every key a user may set, in code, in a settings file or (upper-cased, prefixed) in the env.
SETTING_KEYS: tuple[str, ...] = (
    "min_claim_grounding_rate",
    "project_settings",
    "max_output_chars",
    "max_claims",
    "max_evidence_chars",
    "full_coverage_target",
    "critical_anchors",
    "anchor_patterns",
    "wait_duration",
    "trace_retention",
    "evidence_wait",
    "num_traces",
    "max_spans_per_trace",
    "max_buffer_bytes",
    "claim_events",
    "max_claim_events",
    "strip_content",
    "project_attribute",
    "max_project_labels",
    "scoring_mode",
    "scoring_queue_size",
    "open_step_wait",
    *JUDGE_SETTINGS,
)
_SCORING_KEYS = (
    "max_output_chars",
    "max_claims",
    "max_evidence_chars",
    "full_coverage_target",
    "critical_anchors",
    "anchor_patterns",
)


def build_settings(values: Mapping[str, Any]) -> GroundingSettings:
    """Validate a flat mapping of setting keys (unknown keys are an error) into settings."""
    unknown = set(values) - set(SETTING_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise ConfigError(
            f"{key}: unknown setting (value {values[key]!r}){_closest(key, SETTING_KEYS)}"
        )
    scoring = ScoringOptions.build(**{k: values[k] for k in _SCORING_KEYS if k in values})
    checks: dict[str, Any] = {
        "min_claim_grounding_rate": check_threshold,
        "wait_duration": check_seconds,
        "trace_retention": check_seconds,
        "evidence_wait": check_seconds,
        "num_traces": check_int,
        "max_spans_per_trace": check_int,
        "max_buffer_bytes": check_int,
        "claim_events": check_bool,
        "max_claim_events": lambda k, v: check_int(k, v, minimum=0),
        "strip_content": check_bool,
        "project_attribute": check_str,
        "max_project_labels": check_int,
        "scoring_mode": lambda k, v: check_choice(k, v, SCORING_MODES),
        "scoring_queue_size": check_int,
        "open_step_wait": check_seconds,
    }
    kwargs = {k: check(k, values[k]) for k, check in checks.items() if k in values}
    judge = {
        name: check(key, values[key])
        for key, (name, check) in JUDGE_SETTINGS.items()
        if key in values and values[key] is not None
    }
    return GroundingSettings(
        judge=JudgeSettings(**judge),
        project_thresholds=check_project_settings(
            "project_settings", values.get("project_settings")
        ),
        scoring=scoring,
        **kwargs,
    )


def _parse_env_value(key: str, raw: str) -> Any:
    """Env values are JSON when they parse as JSON (numbers, true/false, lists), else text."""
    if key in ("project_attribute", "scoring_mode", *_JUDGE_TEXT_KEYS):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        if key in ("critical_anchors", "anchor_patterns"):
            return [part.strip() for part in raw.split(",") if part.strip()]
        return raw


def env_values(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings given as OTEL_GROUNDING_<KEY> environment variables."""
    environ = os.environ if environ is None else environ
    known = {ENV_PREFIX + key.upper() for key in SETTING_KEYS}
    for name in environ:
        if name.startswith(ENV_PREFIX) and name not in known and not name.startswith(ENV_OTHER_PREFIXES):
            raise ConfigError(
                f"{name}: unknown environment variable (value {environ[name]!r})"
                f"{_closest(name, sorted(known | {ENV_SETTINGS_FILE}))}"
            )
    values: dict[str, Any] = {}
    for key in SETTING_KEYS:
        raw = environ.get(ENV_PREFIX + key.upper())
        if raw is not None and raw != "":
            values[key] = _parse_env_value(key, raw)
    return values


def _closest(name: str, known: Iterable[str]) -> str:
    """`; did you mean X?` for the closest known name, or nothing when none is close."""
    match = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {match[0]}?" if match else ""


def file_values(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings held in a JSON settings file (a flat object of setting keys)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"settings file: cannot read {str(path)!r}: {exc.strerror}") from None
    except ValueError as exc:
        raise ConfigError(f"settings file: {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"settings file: {str(path)!r} does not hold a JSON object")
    return data


def load_settings(
    overrides: Mapping[str, Any] | None = None,
    *,
    settings_file: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> GroundingSettings:
    """Settings from, weakest first: the settings file, the environment, explicit arguments.

    The file is `settings_file` or, when not given, `$OTEL_GROUNDING_SETTINGS_FILE`.
    """
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    path = settings_file if settings_file is not None else env.get(ENV_SETTINGS_FILE) or None
    if path is not None:
        values.update(file_values(path))
    values.update(env_values(env))
    values.update({k: v for k, v in (overrides or {}).items()})
    return build_settings(values)


__all__ = [
    "ConfigError",
    "GroundingSettings",
    "JudgeSettings",
    "ScoringOptions",
    "build_settings",
    "load_settings",
]
