"""Configuration: constructor, environment, settings file; bad values fail at construction."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import inspect
import json
import logging
import math
import os
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import ConfigError, GroundingSpanExporter, GroundingSpanProcessor, load_settings
from otel_grounding.config import (
    ALL_SHELLS,
    IN_PROCESS,
    RELAY,
    SCORE_TRACES,
    SETTINGS,
    SETTINGS_BY_KEY,
    GroundingSettings,
    SettingOptions,
    add_setting_flags,
    build_settings,
    env_values,
    flag_overrides,
)
from otel_grounding.shell_options import ShellOptions


def _processor(**kwargs):
    return GroundingSpanProcessor(SimpleSpanProcessor(InMemorySpanExporter()), **kwargs)


@pytest.mark.parametrize(
    "kwargs, key, shown",
    [
        ({"min_claim_grounding_rate": math.nan}, "min_claim_grounding_rate", "nan"),
        ({"min_claim_grounding_rate": -0.1}, "min_claim_grounding_rate", "-0.1"),
        ({"min_claim_grounding_rate": 1.5}, "min_claim_grounding_rate", "1.5"),
        ({"min_claim_grounding_rate": "0.7"}, "min_claim_grounding_rate", "'0.7'"),
        ({"min_claim_grounding_rate": True}, "min_claim_grounding_rate", "True"),
        ({"project_settings": {"p": {"min_claim_grounding_rate": math.nan}}}, "min_claim_grounding_rate", "nan"),
        ({"project_settings": {"p": {"min_claim_grounding_rate": 2}}}, "'p'", "2"),
        ({"project_settings": {"p": {"threshold": 0.5}}}, "threshold", "'threshold'"),
        ({"project_settings": {"p": 0.5}}, "project_settings", "0.5"),
        ({"project_settings": [1]}, "project_settings", "[1]"),
        ({"max_claims": 0}, "max_claims", "0"),
        ({"max_output_chars": 1.5}, "max_output_chars", "1.5"),
        ({"wait_duration": -1}, "wait_duration", "-1"),
        ({"num_traces": "many"}, "num_traces", "'many'"),
        ({"claim_events": "yes"}, "claim_events", "'yes'"),
        ({"critical_anchors": ["phone"]}, "critical_anchors", "'phone'"),
        ({"anchor_patterns": ["(unclosed"]}, "anchor_patterns", "'(unclosed'"),
        ({"unknown_knob": 3}, "unknown_knob", "3"),
    ],
)
def test_invalid_configuration_fails_at_construction(kwargs, key, shown) -> None:
    with pytest.raises(ConfigError) as info:
        _processor(**kwargs)
    assert key in str(info.value) and shown in str(info.value)


def test_environment_variables_use_the_package_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE", "0.8")
    monkeypatch.setenv("OTEL_GROUNDING_MAX_CLAIMS", "50")
    monkeypatch.setenv("OTEL_GROUNDING_CRITICAL_ANCHORS", "number,url")
    monkeypatch.setenv("OTEL_GROUNDING_PROJECT_SETTINGS", '{"p": {"min_claim_grounding_rate": 0.2}}')
    monkeypatch.setenv("OTEL_MIN_CLAIM_GROUNDING_RATE", "0.1")  # not ours: ignored
    settings = load_settings()
    assert settings.min_claim_grounding_rate == 0.8
    assert settings.scoring.max_claims == 50
    assert settings.scoring.anchors.classes == ("number", "url")
    assert settings.threshold_for("p") == 0.2 and settings.threshold_for("q") == 0.8


def test_bad_environment_value_names_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE", "high")
    with pytest.raises(ConfigError, match="min_claim_grounding_rate: 'high'"):
        _processor()


def test_settings_file_and_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "grounding.json"
    path.write_text(
        json.dumps(
            {
                "min_claim_grounding_rate": 0.6,
                "max_claims": 10,
                "project_settings": {"acme": {"min_claim_grounding_rate": 0.9}},
            }
        )
    )
    from_file = load_settings(settings_file=path)
    assert from_file.min_claim_grounding_rate == 0.6
    assert from_file.threshold_for("acme") == 0.9
    monkeypatch.setenv("OTEL_GROUNDING_SETTINGS_FILE", str(path))
    monkeypatch.setenv("OTEL_GROUNDING_MAX_CLAIMS", "20")
    processor = _processor(min_claim_grounding_rate=0.3)
    settings = processor.pipeline.settings
    assert settings.min_claim_grounding_rate == 0.3  # argument beats env and file
    assert settings.scoring.max_claims == 20  # env beats file
    assert settings.threshold_for("acme") == 0.9


@pytest.mark.parametrize("content, fragment", [("{nope", "not valid JSON"), ("[1]", "JSON object")])
def test_bad_settings_file(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=fragment):
        load_settings(settings_file=path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_settings(settings_file=tmp_path / "missing.json")


@pytest.mark.parametrize(
    "name, closest",
    [
        ("OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RAT", "OTEL_GROUNDING_MIN_CLAIM_GROUNDING_RATE"),
        ("OTEL_GROUNDING_MAX_CLAIM", "OTEL_GROUNDING_MAX_CLAIMS"),
        ("OTEL_GROUNDING_SETTINGS_FIEL", "OTEL_GROUNDING_SETTINGS_FILE"),
    ],
)
def test_misspelt_environment_variable_names_the_closest_key(
    name: str, closest: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, "0.7")
    with pytest.raises(ConfigError) as info:
        _processor()
    message = str(info.value)
    assert message.startswith(f"{name}: unknown") and f"did you mean {closest}?" in message


def test_unknown_environment_variable_with_nothing_close_is_still_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTEL_GROUNDING_ZZZ", "1")
    with pytest.raises(ConfigError, match="OTEL_GROUNDING_ZZZ: unknown environment variable"):
        load_settings()
    monkeypatch.delenv("OTEL_GROUNDING_ZZZ")
    monkeypatch.setenv("OTEL_GROUNDING_RELAY_TOKEN", "secret")  # the relay's own: not a setting
    assert load_settings().min_claim_grounding_rate is None


def test_misspelt_key_in_a_settings_file_names_the_closest_key(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"min_claim_grounding_rat": 0.7}))
    with pytest.raises(ConfigError, match="did you mean min_claim_grounding_rate"):
        load_settings(settings_file=path)


# --- the table: one declaration, everything derived ---------------------------------------------


class _NamedJudge:
    """The least a judge object is (never asked: no run is ended in these tests)."""

    name = "named"
    model = None

    def judge(self, request):  # pragma: no cover - not called
        raise AssertionError("not judged here")


#: A valid value other than the default for every setting, and where it must be read back.
_GIVEN = {
    "min_claim_grounding_rate": (0.4, lambda s: s.min_claim_grounding_rate == 0.4),
    "project_settings": ({"p": {"min_claim_grounding_rate": 0.9}}, lambda s: s.threshold_for("p") == 0.9),
    "project_attribute": ("team", lambda s: s.project_attribute == "team"),
    "max_output_chars": (11, lambda s: s.scoring.max_output_chars == 11),
    "max_claims": (12, lambda s: s.scoring.max_claims == 12),
    "max_evidence_chars": (13, lambda s: s.scoring.max_evidence_chars == 13),
    "full_coverage_target": (True, lambda s: s.scoring.full_coverage_target),
    "critical_anchors": (["number"], lambda s: s.scoring.anchors.classes == ("number",)),
    "anchor_patterns": ([r"INV-\d+"], lambda s: s.scoring.anchors.patterns == (r"INV-\d+",)),
    "trace_retention": (14.0, lambda s: s.trace_retention == 14.0),
    "evidence_wait": (15.0, lambda s: s.evidence_wait == 15.0),
    "wait_duration": (16.0, lambda s: s.trace_retention == 16.0),
    "num_traces": (17, lambda s: s.num_traces == 17),
    "max_spans_per_trace": (18, lambda s: s.max_spans_per_trace == 18),
    "max_buffer_bytes": (19, lambda s: s.max_buffer_bytes == 19),
    "claim_events": (False, lambda s: s.claim_events is False),
    "max_claim_events": (0, lambda s: s.max_claim_events == 0),
    "strip_content": (True, lambda s: s.strip_content),
    "max_project_labels": (20, lambda s: s.max_project_labels == 20),
    "scoring_mode": ("thread", lambda s: s.scoring_mode == "thread"),
    "scoring_queue_size": (21, lambda s: s.scoring_queue_size == 21),
    "open_step_wait": (0.5, lambda s: s.open_step_wait == 0.5),
    "judge": (_NamedJudge(), lambda s: True),  # an object: the pipeline's judge, not a setting
    "judge_base_url": ("http://127.0.0.1:9/v1", lambda s: s.judge.base_url == "http://127.0.0.1:9/v1"),
    "judge_model": ("m", lambda s: s.judge.model == "m"),
    "judge_api_key_file": ("/k", lambda s: s.judge.api_key_file == "/k"),
    "judge_max_pending": (0, lambda s: s.judge.max_pending == 0),
    "judge_max_concurrency": (2, lambda s: s.judge.max_concurrency == 2),
    "judge_rate_per_minute": (30, lambda s: s.judge.rate_per_minute == 30.0),
    "judge_sample_rate": (0.5, lambda s: s.judge.sample_rate == 0.5),
    "judge_when": ("below:0.5", lambda s: s.judge.when == "below:0.5"),
    "judge_timeout": (3, lambda s: s.judge.timeout == 3.0),
    "judge_max_claims": (5, lambda s: s.judge.max_claims == 5),
    "judge_max_evidence_chars": (6, lambda s: s.judge.max_evidence_chars == 6),
    "judge_similarity_threshold": (0.7, lambda s: s.judge.similarity_threshold == 0.7),
    "judge_min_rate": (1.0, lambda s: s.judge.min_rate == 1.0),
    "judge_alert_kinds": (["number", "date"], lambda s: s.judge.alert_kinds == ("number", "date")),
}


def test_every_setting_has_a_sample_here() -> None:
    assert set(_GIVEN) == set(SETTINGS_BY_KEY)


@pytest.mark.parametrize("shell_class", [GroundingSpanProcessor, GroundingSpanExporter])
@pytest.mark.parametrize("key", sorted(_GIVEN))
def test_every_setting_is_a_keyword_of_both_shells(shell_class, key, monkeypatch) -> None:
    for name in [n for n in os.environ if n.startswith("OTEL_GROUNDING_")]:
        monkeypatch.delenv(name)
    value, read_back = _GIVEN[key]
    inner = (
        SimpleSpanProcessor(InMemorySpanExporter())
        if shell_class is GroundingSpanProcessor
        else InMemorySpanExporter()
    )
    warns = pytest.warns(DeprecationWarning) if key == "wait_duration" else contextlib.nullcontext()
    with warns:
        shell = shell_class(inner, **{key: value})
    try:
        assert read_back(shell.pipeline.settings), (key, shell.pipeline.settings)
        if key == "judge":
            assert shell.pipeline.judges is not None
    finally:
        shell.shutdown()


def test_the_shells_take_only_the_next_hop_and_typed_keywords() -> None:
    for shell_class in (GroundingSpanProcessor, GroundingSpanExporter):
        parameters = list(inspect.signature(shell_class.__init__).parameters.values())
        assert [p.kind for p in parameters[1:]] == [
            inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.VAR_KEYWORD
        ]
        assert parameters[-1].annotation == "Unpack[ShellOptions]"
    assert set(SETTINGS_BY_KEY) <= ShellOptions.__optional_keys__
    assert set(SettingOptions.__optional_keys__) == set(SETTINGS_BY_KEY)


def test_defaults_of_the_table_are_the_settings_defaults() -> None:
    built = build_settings({})
    assert dataclasses.replace(built, wait_duration=None) == GroundingSettings()
    for setting in SETTINGS:
        if setting.default is not None:
            setting.check(setting.key, setting.default)  # every default passes its own check
        assert setting.shells and setting.shells <= ALL_SHELLS
        assert setting.doc and "\n" not in setting.doc


def test_none_means_not_given() -> None:
    assert build_settings({"num_traces": None, "judge_timeout": None}) == build_settings({})


@pytest.mark.parametrize(
    "key, raw, parsed",
    [
        ("project_attribute", "123", "123"),  # text settings stay text
        ("scoring_mode", "inline", "inline"),
        ("judge_when", "below:0.5", "below:0.5"),
        ("judge_model", "true", "true"),
        ("num_traces", "12", 12),  # others are JSON
        ("claim_events", "false", False),
        ("min_claim_grounding_rate", "high", "high"),  # not JSON: left as text for the check
        ("critical_anchors", '["url"]', ["url"]),  # lists: JSON or comma-separated
        ("critical_anchors", "number, url", ["number", "url"]),
        ("project_settings", '{"p": {}}', {"p": {}}),
    ],
)
def test_environment_values_are_parsed_by_the_settings_type(key, raw, parsed) -> None:
    assert env_values({SETTINGS_BY_KEY[key].env: raw}) == {key: parsed}


@pytest.mark.parametrize(
    "values, key",
    [
        ({"trace_retention": 0}, "trace_retention"),
        ({"evidence_wait": math.inf}, "evidence_wait"),
        ({"evidence_wait": 86_401}, "evidence_wait"),
        ({"trace_retention": "5"}, "trace_retention"),
        ({"scoring_mode": "eager"}, "scoring_mode"),
        ({"judge_max_pending": -1}, "judge_max_pending"),
    ],
)
def test_bad_timer_and_other_values_name_their_key(values, key) -> None:
    with pytest.raises(ConfigError, match=key):
        build_settings(values)


def test_unknown_key_names_the_closest_known_key() -> None:
    with pytest.raises(ConfigError, match=r"evidence_wai: unknown setting .*did you mean evidence_wait"):
        build_settings({"evidence_wai": 3})


# --- the two timers and the deprecated wait_duration ---------------------------------------------
def test_wait_duration_is_trace_retention_in_process(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "otel_grounding"), pytest.warns(
        DeprecationWarning, match="wait_duration is deprecated.*trace_retention = 30 s"
    ):
        settings = build_settings({"wait_duration": 30})
    assert (settings.trace_retention, settings.evidence_wait) == (30.0, 5.0)
    logged = [r.getMessage() for r in caplog.records if "wait_duration" in r.getMessage()]
    assert len(logged) == 1 and "deprecated" in logged[0]


def test_wait_duration_is_evidence_wait_in_the_relay() -> None:
    with pytest.warns(DeprecationWarning, match="evidence_wait = 8 s"):
        settings = build_settings({"wait_duration": 8}, shell=RELAY)
    assert (settings.evidence_wait, settings.trace_retention) == (8.0, 300.0)


@pytest.mark.parametrize(
    "shell, values, retention, wait",
    [
        (IN_PROCESS, {"wait_duration": 30, "trace_retention": 40}, 40.0, 5.0),
        (RELAY, {"wait_duration": 8, "evidence_wait": 2}, 300.0, 2.0),
        (RELAY, {"wait_duration": 8, "trace_retention": 9}, 9.0, 8.0),
        (SCORE_TRACES, {"wait_duration": 8}, 300.0, 5.0),
    ],
)
def test_the_new_key_wins_over_wait_duration(shell, values, retention, wait) -> None:
    with pytest.warns(DeprecationWarning):
        settings = build_settings(values, shell=shell)
    assert (settings.trace_retention, settings.evidence_wait) == (retention, wait)


def test_new_timers_alone_warn_nothing(recwarn: pytest.WarningsRecorder) -> None:
    settings = build_settings({"trace_retention": 60, "evidence_wait": 1})
    assert (settings.trace_retention, settings.evidence_wait) == (60.0, 1.0)
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_the_relay_keeps_a_trace_at_least_twice_the_evidence_wait() -> None:
    assert build_settings({"evidence_wait": 200}, shell=RELAY).trace_retention == 400.0
    assert build_settings({"evidence_wait": 200}).trace_retention == 300.0  # in-process: as given
    assert build_settings({"evidence_wait": 200, "trace_retention": 50}, shell=RELAY).trace_retention == 50.0


def test_wait_duration_from_the_environment_reaches_the_processor(monkeypatch) -> None:
    monkeypatch.setenv("OTEL_GROUNDING_WAIT_DURATION", "42")
    with pytest.warns(DeprecationWarning):
        processor = _processor()
    try:
        assert processor.pipeline.settings.trace_retention == 42.0
    finally:
        processor.shutdown()


def test_an_unknown_shell_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="shell"):
        build_settings({}, shell="browser")


# --- flags derived from the table ----------------------------------------------------------------
def _flags(shell: str, *argv: str) -> dict:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_setting_flags(parser, shell)
    return flag_overrides(parser.parse_args(argv))


def test_flags_are_the_flag_settings_of_the_shell() -> None:
    for shell in (RELAY, SCORE_TRACES):
        parser = argparse.ArgumentParser()
        add_setting_flags(parser, shell)
        flags = {a.option_strings[0] for a in parser._actions if a.option_strings}
        expected = {s.flag_name for s in SETTINGS if s.flag and shell in s.shells}
        assert flags - {"-h", "--settings-file", "--set"} == expected
    assert "--evidence-wait" in _flag_names(RELAY) and "--evidence-wait" not in _flag_names(SCORE_TRACES)


def _flag_names(shell: str) -> set[str]:
    parser = argparse.ArgumentParser()
    add_setting_flags(parser, shell)
    return {a.option_strings[0] for a in parser._actions if a.option_strings}


def test_flags_and_set_are_parsed_like_the_environment() -> None:
    assert _flags(RELAY, "--evidence-wait", "2", "--set", "project_attribute=123",
                  "--set", "critical_anchors=number,url", "--num-traces", "7") == {
        "evidence_wait": 2, "project_attribute": "123", "critical_anchors": ["number", "url"],
        "num_traces": 7,
    }


def test_a_named_flag_beats_set() -> None:
    assert _flags(RELAY, "--set", "num_traces=3", "--num-traces", "7") == {"num_traces": 7}


def test_a_bad_flag_value_is_refused_naming_the_flag_and_key() -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_setting_flags(parser, RELAY)
    with pytest.raises(argparse.ArgumentError, match=r"--evidence-wait.*evidence_wait"):
        parser.parse_args(["--evidence-wait", "nan"])


def test_set_with_an_unknown_key_names_the_closest_key() -> None:
    with pytest.raises(ConfigError, match="did you mean num_traces"):
        _flags(RELAY, "--set", "num_trace=3")


def test_a_bad_value_names_the_variable_or_the_file_it_came_from(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """The message named the key only: a value set in the environment or a settings file
    was looked for in the code."""
    monkeypatch.setenv("OTEL_GROUNDING_NUM_TRACES", "abc")
    with pytest.raises(ConfigError, match=r"^OTEL_GROUNDING_NUM_TRACES: num_traces: 'abc'"):
        load_settings()
    monkeypatch.delenv("OTEL_GROUNDING_NUM_TRACES")
    path = tmp_path / "settings.json"
    path.write_text('{"max_claims": -3}')
    with pytest.raises(ConfigError, match=r"^settings file '.*settings.json': max_claims: -3"):
        load_settings(settings_file=path)
    with pytest.raises(ConfigError, match=r"^max_claims: -4"):  # an argument: named as is
        load_settings({"max_claims": -4}, settings_file=path)
