"""Validated configuration: every setting is declared once, in `SettingOptions`, nowhere else.

Each row of `SettingOptions` is a key, its type and a `Setting` (default, check, one-line doc,
the shells it applies to, whether it is a relay flag). Derived from that table: validation
(`build_settings`), the environment (`OTEL_GROUNDING_<KEY>`, `env_values`), the unknown-key error
with its "did you mean", the relay's and score-traces' flags (`add_setting_flags`,
`flag_overrides`), the shells' typed keyword arguments (`**options: Unpack[SettingOptions]`) and
the README's tables (`settings_markdown`). `GroundingSettings` is the frozen result the rest of
the code reads. Adding a setting is one row here plus its use.

Configuration is checked once, when it is built (constructor, environment, settings file); a bad
value raises `ConfigError` naming the key and the value, never later inside a span's end. A value
of None means "not given" wherever it comes from.

The two timers: `trace_retention` (every live shell: how long an idle trace's state is kept for
its run) and `evidence_wait` (the relay: how long a run span is held for late evidence). The
deprecated `wait_duration` named either, by shell: `build_settings(values, shell=...)` (and
`load_settings(..., shell=...)`) resolve it into the one it meant there unless that one is also
given, with a `DeprecationWarning` and one log line. The fields `settings.trace_retention` and
`settings.evidence_wait` are therefore always the effective values for the shell the settings
were built for (`IN_PROCESS` by default; the relay builds with `shell=RELAY`, where
`trace_retention` defaults to at least twice `evidence_wait`).
"""

from __future__ import annotations

import argparse
import collections.abc
import dataclasses
import difflib
import json
import logging
import math
import os
import typing
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from otel_grounding.internal_error import STRICT_ENV
from otel_grounding.options import (
    ConfigError,
    Option,
    check_bool,
    check_int,
    check_str_list,
    check_threshold,
)
from otel_grounding.reason_kinds import REASON_KINDS
from otel_grounding.scoring import (
    DEFAULT_SCORING,
    SCORING_OPTIONS,
    ScoringOptions,
    ScoringSettings,
)

logger = logging.getLogger("otel_grounding")

# The scoring options (bounds, anchors, coverage target) are declared beside the scorer:
# `scoring.ScoringSettings`, which `SettingOptions` extends.

# --- per-trace buffering (modelled on the Collector's groupbytrace) ---------------------------
#: Every live shell: how long an idle trace's state (tool outputs, parent links) is kept.
DEFAULT_TRACE_RETENTION_S = 300.0
#: The relay: how long a run span is held after it arrives, for late evidence.
DEFAULT_EVIDENCE_WAIT_S = 5.0
#: The relay keeps a trace's state at least this many `evidence_wait`s unless told otherwise.
RELAY_RETENTION_PER_WAIT = 2
DEFAULT_NUM_TRACES = 10_000
DEFAULT_MAX_SPANS_PER_TRACE = 1_000
DEFAULT_MAX_BUFFER_BYTES = 64 * 1024 * 1024
#: No timer a setting takes is longer than a day: beyond is a typo.
MAX_SECONDS = 86_400.0

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

# --- the shells a setting applies to ------------------------------------------------------------
#: The SDK span processor and exporter (in the application's process).
IN_PROCESS = "in-process"
#: `otel-grounding relay`.
RELAY = "relay"
#: `otel-grounding score-traces` (stored traces: no live timers).
SCORE_TRACES = "score-traces"
ALL_SHELLS = frozenset({IN_PROCESS, RELAY, SCORE_TRACES})
LIVE_SHELLS = frozenset({IN_PROCESS, RELAY})

#: Where a setting's checked value goes: `GroundingSettings` itself, or one of its parts.
GROUP_TOP = ""
GROUP_SCORING = "scoring"
GROUP_JUDGE = "judge"


def check_count(key: str, value: Any) -> int:
    """An integer >= 0 (0 turns the thing off)."""
    return check_int(key, value, minimum=0)


def check_seconds(key: str, value: Any) -> float:
    """A finite number of seconds in (0, MAX_SECONDS]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{key}: {value!r} is not a number of seconds > 0")
    number = float(value)
    if not (math.isfinite(number) and 0 < number <= MAX_SECONDS):
        raise ConfigError(f"{key}: {value!r} is not a number of seconds > 0 and <= {MAX_SECONDS:g}")
    return number


def check_str(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{key}: {value!r} is not a non-empty string")
    return value


def check_choice(key: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{key}: {value!r} is not one of {', '.join(choices)}")
    return str(value)


def check_scoring_mode(key: str, value: Any) -> str:
    return check_choice(key, value, SCORING_MODES)


def check_project_settings(key: str, value: Any) -> dict[str, dict[str, float | None]]:
    """{project id: settings document}, every document checked."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key}: {value!r} is not a mapping of project id to settings")
    documents: dict[str, dict[str, float | None]] = {}
    for project, document in value.items():
        if not isinstance(project, str):
            raise ConfigError(f"{key}: project id {project!r} is not a string")
        if not isinstance(document, Mapping):
            raise ConfigError(f"{key}[{project!r}]: {document!r} is not a settings document")
        unknown = set(document) - PROJECT_SETTINGS_KEYS
        if unknown:
            raise ConfigError(f"{key}[{project!r}]: unknown key {sorted(unknown)[0]!r}")
        documents[project] = {
            THRESHOLD_KEY: check_threshold(
                f"{key}[{project!r}].{THRESHOLD_KEY}", document.get(THRESHOLD_KEY)
            )
        }
    return documents


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


def check_reason_kinds(key: str, value: Any) -> tuple[str, ...]:
    """A list of reason kinds (`reason_kinds.REASON_KINDS`), each once."""
    items = check_str_list(key, value)
    for item in items:
        if item not in REASON_KINDS:
            raise ConfigError(
                f"{key}: {item!r} is not a reason kind ({', '.join(REASON_KINDS)})"
                f"{_closest(item, REASON_KINDS)}"
            )
    if len(set(items)) != len(items):
        raise ConfigError(f"{key}: {list(items)!r} names a kind twice")
    return items


def check_rate_per_minute(key: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ConfigError(f"{key}: {value!r} is not a number of judgements per minute > 0")
    if math.isinf(value):
        return None
    return float(value)


# --- the table ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting(Option):
    """One setting: an `Option` (default, check, one-line doc) with the shells it applies to
    and whether it is a flag. Key and type: its `SettingOptions` row's."""

    group: str = GROUP_TOP
    shells: frozenset[str] = ALL_SHELLS
    #: A `--key-name` flag of the relay (and of score-traces, when it applies there).
    flag: bool = False
    #: The default as the README shows it, when the value's own text would mislead.
    shown: str | None = None
    #: What replaces a deprecated setting (None: not deprecated).
    deprecated: str | None = None
    key: str = ""
    type: Any = None

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.key.upper()

    @property
    def flag_name(self) -> str:
        return "--" + self.key.replace("_", "-")

    @property
    def attr(self) -> str:
        """The field its checked value is stored in (`judge_timeout`: `settings.judge.timeout`)."""
        if self.group == GROUP_JUDGE:
            return "name" if self.key == GROUP_JUDGE else self.key.removeprefix("judge_")
        return self.key

    def parse(self, raw: str) -> Any:
        """A value given as text (environment, flag, `--set`): text settings take it as it is;
        others are JSON when it parses as JSON (numbers, true/false, lists, objects), lists
        also comma-separated, anything else stays text for the check to name."""
        is_list = typing.get_origin(self.type) is collections.abc.Sequence
        if not is_list and (self.type is str or str in typing.get_args(self.type)):
            return raw
        try:
            return json.loads(raw)
        except ValueError:
            if is_list:
                return [part.strip() for part in raw.split(",") if part.strip()]
            return raw

    def parse_flag(self, raw: str) -> Any:
        """A flag's text, parsed and checked (argparse names the flag when it is refused)."""
        value = self.parse(raw)
        try:
            self.check(self.key, value)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return value

    def shown_default(self) -> str:
        if self.shown is not None:
            return self.shown
        value = self.default
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if self.check is check_seconds:
            return f"{value:g} s"
        if isinstance(value, str):
            return f"`{value}`"
        if isinstance(value, (tuple, list)):
            return "`[]`" if not value else f"`{json.dumps(list(value))}`"
        if isinstance(value, Mapping):
            return "`{}`" if not value else f"`{json.dumps(dict(value))}`"
        return f"{value:g}" if isinstance(value, float) else str(value)


class SettingOptions(ScoringSettings, total=False):
    """Every setting, in code, in a settings file or (upper-cased, prefixed) in the environment:
    one row each, `key: Annotated[type, Setting(default, check, doc, ...)]`, after the scoring
    options it extends (`scoring.ScoringSettings`, rows of plain `Option`s: the `scoring`
    group). The shells' keyword arguments are typed by it (`**options: Unpack[SettingOptions]`)."""

    min_claim_grounding_rate: Annotated[float | None, Setting(
        None, check_threshold, "default threshold in [0, 1]; none: never flags", flag=True)]
    project_settings: Annotated[Mapping[str, Mapping[str, float | None]] | None, Setting(
        {}, check_project_settings,
        '`{project: {"min_claim_grounding_rate": 0.9}}`, wins for that project')]
    project_attribute: Annotated[str, Setting(
        DEFAULT_PROJECT_ATTRIBUTE, check_str,
        "where a run's project is read when it has no `ferrumdeck.project.id` (span attribute, "
        "then resource attribute)")]
    trace_retention: Annotated[float, Setting(
        DEFAULT_TRACE_RETENTION_S, check_seconds,
        "how long an idle trace's state (tool outputs, parent links) is kept for a run still "
        "to come", shells=LIVE_SHELLS, flag=True,
        shown=f"{DEFAULT_TRACE_RETENTION_S:g} s (relay: at least "
        f"{RELAY_RETENTION_PER_WAIT} x `evidence_wait`)")]
    evidence_wait: Annotated[float, Setting(
        DEFAULT_EVIDENCE_WAIT_S, check_seconds,
        "relay: how long a run span is held after it arrives, for late evidence (tool spans)",
        shells=frozenset({RELAY}), flag=True)]
    wait_duration: Annotated[float | None, Setting(
        None, check_seconds,
        "deprecated: read as `trace_retention` in-process and as `evidence_wait` in the relay, "
        "unless that key is also given", shells=LIVE_SHELLS, flag=True,
        deprecated="trace_retention (in-process) or evidence_wait (relay)")]
    num_traces: Annotated[int, Setting(
        DEFAULT_NUM_TRACES, check_int, "traces buffered at once (oldest evicted first)",
        flag=True)]
    max_spans_per_trace: Annotated[int, Setting(
        DEFAULT_MAX_SPANS_PER_TRACE, check_int, "spans remembered per trace")]
    max_buffer_bytes: Annotated[int, Setting(
        DEFAULT_MAX_BUFFER_BYTES, check_int, "bytes buffered across traces", flag=True)]
    claim_events: Annotated[bool, Setting(
        True, check_bool, "add a `reliability.ungrounded_claim` event per ungrounded claim")]
    max_claim_events: Annotated[int, Setting(
        DEFAULT_MAX_CLAIM_EVENTS, check_count, "cap on those events per run")]
    strip_content: Annotated[bool, Setting(
        False, check_bool, "remove the raw output / tool-output attributes after reading them")]
    max_project_labels: Annotated[int, Setting(
        DEFAULT_MAX_PROJECT_LABELS, check_int,
        'distinct project/service metric labels before "other"')]
    scoring_mode: Annotated[str, Setting(
        SCORING_BACKGROUND, check_scoring_mode,
        "`background`: runs graded on the scoring worker, large ones scored in a child "
        "interpreter; `thread`: the same, scored on the worker thread itself (no child "
        "process); `inline`: scored in the thread that ends the run span (or inside `export()`)",
        shells=frozenset({IN_PROCESS}))]
    scoring_queue_size: Annotated[int, Setting(
        DEFAULT_SCORING_QUEUE_SIZE, check_int,
        "runs waiting for the scoring worker; beyond it a run is forwarded at once, unscored, "
        "`partial` with `scoring-overload` (counted in `otel_grounding.runs_overloaded`)",
        shells=frozenset({IN_PROCESS}))]
    open_step_wait: Annotated[float, Setting(
        DEFAULT_OPEN_STEP_WAIT_S, check_seconds,
        "how long a run that ended before some of its started steps waits for them; then "
        "`partial` with `tool-steps-missing` if a tool step is still open. A run with no "
        "answer of its own and no LLM step under it yet waits as long for one (some frameworks "
        "end the run span before its last steps start)", shells=frozenset({IN_PROCESS}))]
    # The judge tier (in every shell; `score-traces` waits for room and budget, never declines).
    judge: Annotated[str | object | None, Setting(
        None, check_str,
        "entry-point name (`verifier`, `openai`, `similarity`) or, in code, a judge object",
        group=GROUP_JUDGE)]
    judge_base_url: Annotated[str | None, Setting(
        None, check_str, "the `openai` judge's endpoint", group=GROUP_JUDGE)]
    judge_model: Annotated[str | None, Setting(
        None, check_str, "the `openai` judge's model", group=GROUP_JUDGE)]
    judge_api_key_file: Annotated[str | None, Setting(
        None, check_str, "the `openai` judge's key file (else `OPENAI_API_KEY`)",
        group=GROUP_JUDGE)]
    judge_max_pending: Annotated[int, Setting(
        DEFAULT_JUDGE_MAX_PENDING, check_count,
        "runs waiting for a judge thread; beyond it `judge-queue-full` (`score-traces` waits "
        "for room instead)", group=GROUP_JUDGE)]
    judge_max_concurrency: Annotated[int, Setting(
        DEFAULT_JUDGE_MAX_CONCURRENCY, check_int, "judge calls in flight (judge threads)",
        group=GROUP_JUDGE)]
    judge_rate_per_minute: Annotated[float | None, Setting(
        None, check_rate_per_minute,
        "token bucket (up to one minute's budget saved up); spent: `judge-budget` "
        "(`score-traces` waits for a token instead)",
        group=GROUP_JUDGE, shown="unlimited")]
    judge_sample_rate: Annotated[float, Setting(
        1.0, check_threshold, "share of runs judged, drawn from the trace id",
        group=GROUP_JUDGE, shown="1.0")]
    judge_when: Annotated[str, Setting(
        JUDGE_ALWAYS, check_judge_when,
        "`always`, `flagged` (lexically flagged runs) or `below:<rate>` (lexical rate under it)",
        group=GROUP_JUDGE)]
    judge_timeout: Annotated[float, Setting(
        DEFAULT_JUDGE_TIMEOUT_S, check_seconds, "from admission to settled; then `judge-timeout`",
        group=GROUP_JUDGE)]
    judge_max_claims: Annotated[int, Setting(
        DEFAULT_JUDGE_MAX_CLAIMS, check_int,
        "claims one judgement is given; a cut is reported like every bound",
        group=GROUP_JUDGE)]
    judge_max_evidence_chars: Annotated[int, Setting(
        DEFAULT_JUDGE_MAX_EVIDENCE_CHARS, check_int,
        "evidence characters one judgement is given; a cut is reported like every bound",
        group=GROUP_JUDGE)]
    judge_similarity_threshold: Annotated[float, Setting(
        DEFAULT_JUDGE_SIMILARITY_THRESHOLD, check_threshold,
        "the `similarity` judge's cosine threshold", group=GROUP_JUDGE, shown="0.80")]
    judge_min_rate: Annotated[float | None, Setting(
        None, check_threshold,
        "`judge.below_threshold` when the judge's rate is under it; none: the run's own "
        "threshold (`min_claim_grounding_rate`)", group=GROUP_JUDGE,
        shown="the run's threshold")]
    judge_alert_kinds: Annotated[Sequence[str], Setting(
        (), check_reason_kinds,
        "`judge.below_threshold` only when a claim not supported rests on one of these kinds "
        "(`judge.unsupported_kinds`; a verdict naming no kind always counts); empty: any kind",
        group=GROUP_JUDGE)]


def _declared() -> tuple[Setting, ...]:
    """The table's rows, in order, each with its key and type filled in."""
    rows = []
    for key, hint in typing.get_type_hints(SettingOptions, include_extras=True).items():
        (option,) = (m for m in hint.__metadata__ if isinstance(m, Option))
        if not isinstance(option, Setting):  # a scoring option, declared beside the scorer
            if key not in SCORING_OPTIONS:
                raise TypeError(f"SettingOptions.{key}: declare it with a Setting")
            option = Setting(option.default, option.check, option.doc, group=GROUP_SCORING)
        rows.append(dataclasses.replace(option, key=key, type=hint.__origin__))
    return tuple(rows)


#: Every setting, in the table's order.
SETTINGS: tuple[Setting, ...] = _declared()
SETTINGS_BY_KEY: Mapping[str, Setting] = {s.key: s for s in SETTINGS}
#: Every key a user may set, in code, in a settings file or (upper-cased, prefixed) in the env.
SETTING_KEYS: tuple[str, ...] = tuple(SETTINGS_BY_KEY)


def unknown_setting(key: str, value: Any) -> ConfigError:
    """The error for a key that is not a setting, naming the closest one."""
    return ConfigError(f"{key}: unknown setting (value {value!r}){_closest(key, SETTING_KEYS)}")


def _checked_group(group: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """{field: checked value} for the given settings of one group."""
    return {
        SETTINGS_BY_KEY[key].attr: SETTINGS_BY_KEY[key].check(key, value)
        for key, value in values.items()
        if SETTINGS_BY_KEY[key].group == group
    }


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
    #: The judge's own alerting threshold (None: the run's lexical threshold).
    min_rate: float | None = None
    #: The reason kinds that may raise `judge.below_threshold` (empty: any).
    alert_kinds: tuple[str, ...] = ()

    def selects(self, rate: float, flagged: bool) -> bool:
        """Whether `judge_when` wants a run with this lexical rate and flag judged."""
        if self.when == JUDGE_ALWAYS:
            return True
        if self.when == JUDGE_FLAGGED:
            return flagged
        return rate < float(self.when[len(JUDGE_BELOW_PREFIX) :])


@dataclass(frozen=True)
class GroundingSettings:
    """Everything the processor, the exporter and the relay are configured with, validated."""

    min_claim_grounding_rate: float | None = None
    project_settings: Mapping[str, Mapping[str, float | None]] = field(default_factory=dict)
    scoring: ScoringOptions = DEFAULT_SCORING
    #: Effective for the shell the settings were built for (see the module docstring).
    trace_retention: float = DEFAULT_TRACE_RETENTION_S
    evidence_wait: float = DEFAULT_EVIDENCE_WAIT_S
    #: Deprecated: the effective value of the timer `wait_duration` named in this shell
    #: (`trace_retention` in-process, `evidence_wait` in the relay). Read those instead.
    wait_duration: float | None = None
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
        if project is not None and project in self.project_settings:
            own = self.project_settings[project].get(THRESHOLD_KEY)
            if own is not None:
                return own
        return self.min_claim_grounding_rate


#: The timer the deprecated `wait_duration` named in each shell.
_WAIT_DURATION_MEANT = {IN_PROCESS: "trace_retention", RELAY: "evidence_wait"}
_SHELLS_TEXT = ", ".join(sorted(ALL_SHELLS))


def build_settings(values: Mapping[str, Any], *, shell: str = IN_PROCESS) -> GroundingSettings:
    """Validate a flat mapping of setting keys (unknown keys are an error) into the settings
    the given shell runs with (the timers resolved for it: see the module docstring)."""
    if shell not in ALL_SHELLS:
        raise ValueError(f"shell: {shell!r} is not one of {_SHELLS_TEXT}")
    for key in values:
        if key not in SETTINGS_BY_KEY:
            raise unknown_setting(key, values[key])
    given = {key: value for key, value in values.items() if value is not None}
    top = _checked_group(GROUP_TOP, given)
    legacy = top.pop("wait_duration", None)
    meant = _WAIT_DURATION_MEANT.get(shell)
    if legacy is not None:
        if meant is None:
            reading = "ignored here"
        elif meant in top:
            reading = f"ignored: {meant} is also set"
        else:
            reading = f"read here as {meant} = {legacy:g} s"
        message = (
            "wait_duration is deprecated: set trace_retention (in-process) or evidence_wait "
            f"(relay) instead; {reading}"
        )
        warnings.warn(message, DeprecationWarning, stacklevel=3)
        logger.warning("otel-grounding: %s", message)
        if meant is not None:
            top.setdefault(meant, legacy)
    if shell == RELAY and "trace_retention" not in top:
        wait = top.get("evidence_wait", DEFAULT_EVIDENCE_WAIT_S)
        top["trace_retention"] = max(DEFAULT_TRACE_RETENTION_S, RELAY_RETENTION_PER_WAIT * wait)
    settings = GroundingSettings(
        scoring=ScoringOptions.build(
            **{k: v for k, v in given.items() if SETTINGS_BY_KEY[k].group == GROUP_SCORING}
        ),
        judge=JudgeSettings(**_checked_group(GROUP_JUDGE, given)),
        **top,
    )
    if meant is not None:
        settings = dataclasses.replace(settings, wait_duration=getattr(settings, meant))
    return settings


def env_values(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings given as OTEL_GROUNDING_<KEY> environment variables."""
    environ = os.environ if environ is None else environ
    known = {s.env for s in SETTINGS}
    for name in environ:
        ours = name.startswith(ENV_PREFIX) and not name.startswith(ENV_OTHER_PREFIXES)
        if ours and name not in known:
            raise ConfigError(
                f"{name}: unknown environment variable (value {environ[name]!r})"
                f"{_closest(name, sorted(known | {ENV_SETTINGS_FILE}))}"
            )
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        raw = environ.get(setting.env)
        if raw is not None and raw != "":
            values[setting.key] = setting.parse(raw)
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
    shell: str = IN_PROCESS,
) -> GroundingSettings:
    """Settings from, weakest first: the settings file, the environment, explicit arguments,
    built for `shell` (`IN_PROCESS`, `RELAY` or `SCORE_TRACES`).

    The file is `settings_file` or, when not given, `$OTEL_GROUNDING_SETTINGS_FILE`.
    """
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}  # where a value that is not an argument came from
    path = settings_file if settings_file is not None else env.get(ENV_SETTINGS_FILE) or None
    if path is not None:
        from_file = file_values(path)
        values.update(from_file)
        origin.update(dict.fromkeys(from_file, f"settings file {str(path)!r}"))
    from_env = env_values(env)
    values.update(from_env)
    origin.update({key: SETTINGS_BY_KEY[key].env for key in from_env})
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    values.update(given)
    for key in given:
        origin.pop(key, None)
    try:
        return build_settings(values, shell=shell)
    except ConfigError as exc:
        where = origin.get(_key_of(str(exc)))
        if where is None:
            raise
        raise ConfigError(f"{where}: {exc}") from None


def _key_of(message: str) -> str:
    """The setting key a `ConfigError` message starts with (`key: ...`, `key[...]...`)."""
    end = len(message)
    for mark in (":", "[", "."):
        at = message.find(mark)
        if 0 <= at < end:
            end = at
    return message[:end]


# --- flags -------------------------------------------------------------------------------------
def add_setting_flags(group: Any, shell: str) -> None:
    """`--settings-file`, a `--key-name` flag per flag setting of the shell, and `--set`, on an
    argparse parser or argument group."""
    group.add_argument("--settings-file", default=None,
                       help="JSON settings file (default $" + ENV_SETTINGS_FILE + ")")
    for setting in SETTINGS:
        if setting.flag and shell in setting.shells:
            group.add_argument(
                setting.flag_name, dest=setting.key, type=setting.parse_flag, default=None,
                metavar="VALUE",
                help=f"{setting.doc} (default {setting.shown_default()}; ${setting.env})",
            )
    group.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="any setting, e.g. --set 'project_settings={\"p\": "
                       "{\"min_claim_grounding_rate\": 0.9}}'")


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given by `add_setting_flags`' flags (`--set` first, named flags win)."""
    overrides: dict[str, Any] = {}
    for item in args.set:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"--set: {item!r} is not KEY=VALUE")
        if key not in SETTINGS_BY_KEY:
            raise unknown_setting(key, raw)
        overrides[key] = SETTINGS_BY_KEY[key].parse(raw)
    for setting in SETTINGS:
        value = getattr(args, setting.key, None) if setting.flag else None
        if value is not None:
            overrides[setting.key] = value
    return overrides


# --- docs --------------------------------------------------------------------------------------
def _shells_text(shells: frozenset[str]) -> str:
    return "all" if shells == ALL_SHELLS else ", ".join(sorted(shells))


def settings_markdown(group: str = GROUP_TOP) -> str:
    """The README's table of the settings of one part (`GROUP_JUDGE`, or all the others)."""
    rows = ["| key | environment variable | default | shells | meaning |",
            "|---|---|---|---|---|"]
    for s in SETTINGS:
        if (s.group == GROUP_JUDGE) == (group == GROUP_JUDGE):
            rows.append(f"| `{s.key}` | `{s.env}` | {s.shown_default()} | "
                        f"{_shells_text(s.shells)} | {s.doc} |")
    return "\n".join(rows)


def relay_flags_markdown() -> str:
    """The relay flags table's row for the settings flags (docs/relay.md)."""
    flags = [s.flag_name for s in SETTINGS if s.flag and RELAY in s.shells]
    names = ", ".join(f"`{f}`" for f in ["--settings-file", *flags, "--set KEY=VALUE"])
    return (f"| {names} | `OTEL_GROUNDING_*`, the settings file | the settings (README, "
            "Configuration; `--wait-duration` is deprecated) |")


__all__ = [
    "IN_PROCESS",
    "RELAY",
    "SCORE_TRACES",
    "ConfigError",
    "GroundingSettings",
    "JudgeSettings",
    "ScoringOptions",
    "Setting",
    "SettingOptions",
    "build_settings",
    "load_settings",
]
