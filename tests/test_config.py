"""Configuration: constructor, environment, settings file; bad values fail at construction."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from otel_grounding import ConfigError, GroundingSpanProcessor, load_settings


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
