"""The README's settings tables and the relay flags row are the declaration's, word for word."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from otel_grounding.config import GROUP_JUDGE, SETTINGS, settings_markdown

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("settings_docs", ROOT / "scripts" / "settings_docs.py")
assert _spec is not None and _spec.loader is not None
settings_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(settings_docs)

FIX = "run `python scripts/settings_docs.py` to regenerate it from otel_grounding.config"


@pytest.mark.parametrize("name", sorted(settings_docs.BLOCKS))
def test_readme_table_is_the_generated_one(name: str) -> None:
    readme = settings_docs.README.read_text(encoding="utf-8")
    assert readme.count(settings_docs.begin(name)) == 1, f"README lost its {name} markers"
    assert settings_docs.block(name) in readme, f"README's {name} table is stale: {FIX}"


def test_relay_flags_row_is_the_generated_one() -> None:
    text = settings_docs.RELAY_DOC.read_text(encoding="utf-8")
    assert settings_docs.rewrite_relay_doc(text) == text, f"docs/relay.md's settings row is stale: {FIX}"


def test_every_setting_is_in_exactly_one_readme_table() -> None:
    tables = settings_markdown() + "\n" + settings_markdown(GROUP_JUDGE)
    for setting in SETTINGS:
        assert tables.count(f"| `{setting.key}` |") == 1, setting.key
        assert f"`{setting.env}`" in tables


def test_a_changed_declaration_makes_the_table_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a doc changed in the code no longer matches the README."""
    import dataclasses

    from otel_grounding import config

    changed = tuple(
        dataclasses.replace(s, doc=s.doc + " (changed)") if s.key == "num_traces" else s
        for s in config.SETTINGS
    )
    monkeypatch.setattr(config, "SETTINGS", changed)
    readme = settings_docs.README.read_text(encoding="utf-8")
    assert settings_docs.block("settings") not in readme
