"""The trace stores compose, they do not inherit (issue 22, item 3): `InProcessStore` and
`UnorderedStore` are a table and an assembly built with an arrival-order policy, and no module
of the stores touches another object's underscore members, so none can reach into a base's
privates again."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from otel_grounding.assembly import ArrivalOrder, TraceAssembly
from otel_grounding.relay.unordered import AnyOrder, UnorderedStore
from otel_grounding.store import AssembledStore, InProcessStore, MostlyInOrder, TraceStore

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "otel_grounding"
STORE_MODULES = (
    "assembly.py",
    "evidence_pool.py",
    "open_spans.py",
    "run_ownership.py",
    "store.py",
    "trace_records.py",
    "trace_table.py",
    "relay/unordered.py",
)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _foreign_private_reads(tree: ast.AST) -> list[str]:
    """`x._name` where `x` is not `self` or `cls`: another object's private member."""
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and _private(node.attr)
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def _inherited_private_reads(tree: ast.AST) -> list[str]:
    """`self._name` in a class that neither assigns nor defines `_name` itself: a private
    member of a base class."""
    found = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        own = {n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        own |= {
            t.attr
            for n in ast.walk(cls)
            if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            and t.value.id == "self"
        }
        own |= {
            t.id
            for n in cls.body
            if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Name)
        }
        found += [
            f"{cls.name}, line {n.lineno}: self.{n.attr}"
            for n in ast.walk(cls)
            if isinstance(n, ast.Attribute) and _private(n.attr)
            and isinstance(n.value, ast.Name) and n.value.id == "self" and n.attr not in own
        ]
    return found


@pytest.mark.parametrize("module", STORE_MODULES)
def test_no_store_module_touches_another_objects_privates(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    assert _foreign_private_reads(tree) == []
    assert _inherited_private_reads(tree) == []


def test_the_privates_check_sees_a_reach_into_a_base() -> None:
    """The checks above can fail: the old shape (a store subclassing the assembly and reading
    its lock and table) is caught by both."""
    old = (
        "class Store(TraceAssembly):\n"
        "    def remember(self, other):\n"
        "        with self._lock:\n"
        "            other._charge(1)\n"
    )
    tree = ast.parse(old)
    assert _foreign_private_reads(tree) == ["line 4: other._charge"]
    assert _inherited_private_reads(tree) == ["Store, line 3: self._lock"]


@pytest.mark.parametrize(("store", "order"), [(InProcessStore, MostlyInOrder), (UnorderedStore, AnyOrder)])
def test_each_store_composes_an_assembly_with_its_arrival_order(
    store: type[InProcessStore | UnorderedStore], order: type[ArrivalOrder]
) -> None:
    # One shared base, which holds no private of its own to inherit (its parts are public).
    assert store.__mro__ == (store, AssembledStore, object)
    built = store(num_traces=2, max_spans_per_trace=10, max_bytes=10_000, retention=60)
    pipeline_store: TraceStore = built  # what the pipeline is built on
    assert pipeline_store.implicit_runs is order().implicit_runs  # the order it composed
    assert not issubclass(order, TraceAssembly)
    assert built.buffered_traces == 0

