"""docs/architecture.md has a paragraph for every module of the package, and none for a module
that is gone (issue 11, item 9): a module added without its paragraph fails here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "otel_grounding"
ARCHITECTURE = REPO / "docs" / "architecture.md"


def test_every_module_has_its_paragraph_and_every_paragraph_its_module() -> None:
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    described = set(re.findall(r"\*\*`([\w/]+\.py)`\*\*", ARCHITECTURE.read_text(encoding="utf-8")))
    assert modules - described == set(), "modules with no paragraph in docs/architecture.md"
    assert described - modules == set(), "paragraphs in docs/architecture.md for no module"


def test_the_readme_layout_points_to_the_architecture() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1]
    assert "docs/architecture.md" in layout
