"""The pure core imports alone (issue 22, item 6): `scoring`, `grade` and `anchors` load neither
OpenTelemetry nor argparse nor any other module of the package, and the package's public names
are still all there, loaded on first use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import otel_grounding

#: The pure core, and the package around it (whose names load lazily).
CORE = {
    "otel_grounding",
    "otel_grounding.anchors",
    "otel_grounding.grade",
    "otel_grounding.options",
    "otel_grounding.scoring",
}


def _modules_after(statement: str) -> list[str]:
    """The modules a fresh interpreter holds after `statement`."""
    script = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_the_pure_core_imports_without_opentelemetry_or_argparse() -> None:
    loaded = _modules_after(
        "import otel_grounding.grade, otel_grounding.scoring, otel_grounding.anchors"
    )
    assert [m for m in loaded if m.split(".")[0] == "opentelemetry"] == []
    assert "argparse" not in loaded
    assert {m for m in loaded if m.split(".")[0] == "otel_grounding"} == CORE


def test_the_check_above_sees_what_a_shell_import_loads() -> None:
    # The same probe on a shell: it must see the SDK and the settings machinery come in.
    loaded = _modules_after("from otel_grounding import GroundingSpanProcessor")
    assert "opentelemetry.sdk.trace" in loaded
    assert "argparse" in loaded
    assert "otel_grounding.processor" in loaded


def test_every_public_name_resolves_to_its_modules_object() -> None:
    import importlib

    homes = otel_grounding._HOMES
    assert sorted(otel_grounding.__all__) == sorted(n for names in homes.values() for n in names)
    for module, names in homes.items():
        for name in names:
            assert getattr(otel_grounding, name) is getattr(importlib.import_module(module), name)
    assert set(otel_grounding.__all__) <= set(dir(otel_grounding))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchName"):
        otel_grounding.NoSuchName  # type: ignore[attr-defined]  # noqa: B018
