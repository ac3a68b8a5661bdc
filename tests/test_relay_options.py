"""The relay's flags are declared once (`relay/options.py`): the parser, the typed options and
docs/relay.md's flags table are all derived from the declaration."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from otel_grounding.config import ConfigError
from otel_grounding.relay import options as relay_options
from otel_grounding.relay.cli import build_parser
from otel_grounding.relay.options import FLAGS, RelayOptions

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("settings_docs", ROOT / "scripts" / "settings_docs.py")
assert _spec is not None and _spec.loader is not None
settings_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(settings_docs)

FIX = "run `python scripts/settings_docs.py` to regenerate it from otel_grounding.relay.options"


def test_the_docs_flags_table_is_the_generated_one() -> None:
    text = settings_docs.RELAY_DOC.read_text(encoding="utf-8")
    assert text.count(settings_docs.begin(settings_docs.RELAY_BLOCK)) == 1
    assert settings_docs.relay_block() in text, f"docs/relay.md's flags table is stale: {FIX}"


def test_a_changed_declaration_makes_the_table_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a default changed in the code no longer matches the docs."""
    changed = tuple(
        dataclasses.replace(f, default=8) if f.key == "export_workers" else f for f in FLAGS
    )
    monkeypatch.setattr(relay_options, "FLAGS", changed)
    text = settings_docs.RELAY_DOC.read_text(encoding="utf-8")
    assert "| `--export-workers` | 8 |" in settings_docs.relay_block()
    assert settings_docs.relay_block() not in text


def test_every_flag_is_parsed_documented_and_defaults_to_its_declaration() -> None:
    parser = build_parser()
    defaults = parser.parse_args([])
    table = relay_options.options_markdown()
    flags = {name for action in parser._actions for name in action.option_strings}
    for flag in FLAGS:
        assert flag.flag_name in flags
        assert getattr(defaults, flag.key) == flag.default == getattr(RelayOptions(), flag.key)
        assert table.count(f"| `{flag.flag_name}` |") == 1, flag.flag_name
    assert RelayOptions.from_args(defaults) == RelayOptions()


def test_flags_are_parsed_into_typed_options() -> None:
    args = build_parser().parse_args([
        "--export-workers", "3", "--retry-after", "2.5", "--exporter-insecure", "TRUE",
        "--passthrough", "--exporter-protocol", "http/json",
    ])
    options = RelayOptions.from_args(args)
    assert (options.export_workers, options.retry_after) == (3, 2.5)
    assert options.exporter_insecure is True and options.passthrough is True
    assert options.exporter_protocol == "http/json"


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"export_workers": 65}, "--export-workers: 65 is more than 64"),
        ({"queue_max_spans": 0}, "--queue-max-spans: 0 is not an integer >= 1"),
        ({"drain_timeout": float("inf")}, "--drain-timeout: inf is not a number of seconds"),
        ({"request_timeout": 0}, "--request-timeout: 0 is not a number of seconds > 0"),
        ({"prometheus_port": 70000}, "--prometheus-port: 70000 is not a TCP port"),
        ({"export_workers": "2"}, "--export-workers: '2' is not an integer"),
        ({"exporter_insecure": 1}, "--exporter-insecure: 1 is not true or false"),
        ({"log_level": "loud"}, "--log-level: 'loud' is not one of debug, info"),
    ],
)
def test_options_built_in_code_are_checked_like_flags(given: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace("+", r"\+")):
        RelayOptions(**given)  # type: ignore[arg-type]
