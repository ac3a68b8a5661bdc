"""The records the hot paths build positionally keep their arguments in field order.

A run builds its records by position, not keyword (a keyword costs about half again per field:
README, "Re-scoring stored traces"). Reordering a record's fields would then swap same-typed
values silently. So every positional argument of these records in the package must name its
field: by itself (`truncated_by`, `reading.call_id`) or in a comment on its line
(`len(tools),  # tool_steps_found`).
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

import otel_grounding
from otel_grounding.conventions.base import SpanReading
from otel_grounding.enrichment import RunOutcome
from otel_grounding.grade import GradeMeta
from otel_grounding.scored import JudgedClaim, JudgedRun, ScoredRun
from otel_grounding.scoring import GroundingResult
from otel_grounding.trace_records import Evidence, Output

RECORDS: dict[str, tuple[str, ...]] = {
    record.__name__: (
        tuple(f.name for f in fields(record)) if is_dataclass(record) else record._fields  # type: ignore[attr-defined]
    )
    for record in (
        SpanReading, Evidence, Output, GradeMeta, GroundingResult, RunOutcome, ScoredRun,
        JudgedRun, JudgedClaim,
    )
}
PACKAGE = Path(otel_grounding.__file__).parent


def _comments(source: str) -> dict[int, str]:
    """Line number -> the text of the comment on that line."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0]: t.string.lstrip("#").strip() for t in tokens if t.type == tokenize.COMMENT}


def _own_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class _Calls(ast.NodeVisitor):
    """The positional calls of the records (`cls(...)` inside a record's own class too)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, ast.Call]] = []
        self._classes: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._classes.append(node.name)
        self.generic_visit(node)
        self._classes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        name = _own_name(node.func)
        if name == "cls" and self._classes:
            name = self._classes[-1]
        if name in RECORDS and len(node.args) > 1:
            self.found.append((name, node))
        self.generic_visit(node)


def _sites() -> list[tuple[str, str, ast.Call, dict[int, str]]]:
    sites = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        calls = _Calls()
        calls.visit(ast.parse(source))
        comments = _comments(source) if calls.found else {}
        for name, call in calls.found:
            sites.append((f"{path.relative_to(PACKAGE)}:{call.lineno}", name, call, comments))
    return sites


SITES = _sites()


def test_the_hot_paths_positional_builds_are_found() -> None:
    """The guard below guards something: the builds this module is about are still positional."""
    built = {name for _, name, _, _ in SITES}
    assert {"Evidence", "Output", "GradeMeta", "GroundingResult", "RunOutcome", "ScoredRun",
            "SpanReading"} <= built


@pytest.mark.parametrize(("where", "name", "call", "comments"), SITES, ids=[s[0] for s in SITES])
def test_each_positional_argument_names_its_field(
    where: str, name: str, call: ast.Call, comments: dict[int, str]
) -> None:
    order = RECORDS[name]
    assert len(call.args) <= len(order), f"{where}: more arguments than {name} has fields"
    for argument, field_name in zip(call.args, order):
        comment = comments.get(argument.end_lineno or argument.lineno, "")
        said = comment.split()[0].strip("`") if comment else _own_name(argument)
        assert said == field_name, (
            f"{where}: {name}'s argument {ast.unparse(argument)!r} is in the place of "
            f"{field_name!r} but names {said!r} (give it a `# {field_name}` comment, or fix "
            f"the order)"
        )
