"""What docs/architecture.md says about the code, checked from the code's imports and names
(issue 22, item 9): its layers (who may import whom, no cycle), who calls `internal_error`,
who imports `attributes.py`, and the pipeline's public surface the shells use. A change that
makes one of these claims false fails here, with the claim to fix or the code to fix."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "otel_grounding"
ARCHITECTURE = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
#: A module of the package named in the doc (test files are named too, never as modules).
MODULE = re.compile(r"`(?!tests/)([\w/*]+\.py)`")


def modules() -> dict[str, ast.Module]:
    """Every module of the package by its path under the package ("relay/core.py")."""
    return {
        p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


MODULES = modules()


def _path_of(dotted: str) -> str | None:
    """The package path of a dotted module name, or None when it is not one of ours."""
    if dotted != "otel_grounding" and not dotted.startswith("otel_grounding."):
        return None
    parts = dotted.split(".")[1:]
    for candidate in ("/".join(parts) + ".py", "/".join([*parts, "__init__.py"])):
        if candidate in MODULES:
            return candidate
    return None


def _runtime_nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node but those under `if TYPE_CHECKING:` (annotations only, never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    return (node for node in ast.walk(tree) if id(node) not in skipped)


def imports_of(path: str) -> set[str]:
    """The package modules one module imports at run time (at its top or inside a function)."""
    package = path.split("/")[:-1]
    found: set[str] = set()
    for node in _runtime_nodes(MODULES[path]):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["otel_grounding", *package[: len(package) - node.level + 1]]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # "from otel_grounding import attributes" imports a module; "from x import f" x.
            names = [f"{module}.{a.name}" if _path_of(f"{module}.{a.name}") else module
                     for a in node.names]
        found.update(p for p in map(_path_of, names) if p is not None and p != path)
    return found


GRAPH = {path: imports_of(path) for path in MODULES}


def _section(title: str) -> str:
    """The text of one `## ` section of docs/architecture.md."""
    start = ARCHITECTURE.index(f"\n## {title}")
    end = ARCHITECTURE.find("\n## ", start + 1)
    return ARCHITECTURE[start: end if end >= 0 else None]


def layers() -> list[set[str]]:
    """The numbered layers of the "Layers" section, in order: the modules each names
    (`relay/*.py` names every module of a folder)."""
    items = re.findall(r"^\d+\. .*(?:\n {3}.*)*", _section("Layers"), flags=re.MULTILINE)
    found = []
    for item in items:
        named: set[str] = set()
        for name in MODULE.findall(item):
            if name.endswith("/*.py"):
                folder = name[: -len("*.py")]
                named.update(p for p in MODULES if p.startswith(folder))
            else:
                named.add(name)
        found.append(named)
    return found


def test_every_module_is_in_one_layer() -> None:
    named = [m for layer in layers() for m in layer]
    assert sorted(set(MODULES) - set(named)) == [], "modules in no layer of docs/architecture.md"
    assert sorted(set(named) - set(MODULES)) == [], "layers naming no module"
    assert len(named) == len(set(named)), "a module in two layers"


def test_no_import_runs_back_up_a_layer() -> None:
    rank = {m: i for i, layer in enumerate(layers()) for m in layer}
    upward = sorted(
        f"{m} (layer {rank[m] + 1}) imports {i} (layer {rank[i] + 1})"
        for m, imported in GRAPH.items()
        for i in imported
        if rank[i] > rank[m]
    )
    assert upward == []


def test_the_import_graph_has_no_cycle() -> None:
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in path:
            pytest.fail("import cycle: " + " -> ".join((*path[path.index(module):], module)))
        if module in done:
            return
        for imported in sorted(GRAPH[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(GRAPH):
        visit(module, ())


def _paragraph(opening: str) -> str:
    """The list item of docs/architecture.md that opens with this module's name."""
    start = ARCHITECTURE.index(f"- **`{opening}`**")
    end = ARCHITECTURE.find("\n- **", start + 1)
    return ARCHITECTURE[start:end]


def _callers(function_names: set[str]) -> set[str]:
    return {
        path
        for path, tree in MODULES.items()
        for node in _runtime_nodes(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in function_names
    }


def test_internal_error_is_called_where_the_doc_says() -> None:
    said = _paragraph("internal_error.py").split("Called", 1)[1]
    callers = _callers({"internal_error", "background_error"}) - {"internal_error.py"}
    assert set(MODULE.findall(said)) == callers


def test_attribute_names_are_imported_where_the_doc_says() -> None:
    said = _paragraph("attributes.py").split("Imported", 1)[1]
    importers = {m for m, imported in GRAPH.items() if "attributes.py" in imported}
    assert set(MODULE.findall(said)) == importers


#: demo.py's `pipeline` is its own SDK tracer pipeline, not a GroundingPipeline.
NOT_THE_PIPELINE = {"demo.py"}


def test_shells_use_only_the_pipelines_documented_surface() -> None:
    pipeline = MODULES["pipeline.py"]
    documented = set(re.findall(r"`(\w+)(?:\(|`)", ast.get_docstring(pipeline) or ""))
    (cls,) = [n for n in pipeline.body if isinstance(n, ast.ClassDef)
              and n.name == "GroundingPipeline"]
    defined = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    defined |= {t.attr for n in ast.walk(cls) if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Attribute)}
    used: dict[str, set[str]] = {}
    for path, tree in MODULES.items():
        if path == "pipeline.py" or path in NOT_THE_PIPELINE:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                base = node.value
                name = (base.attr if isinstance(base, ast.Attribute)
                        else base.id if isinstance(base, ast.Name) else None)
                if name == "pipeline":
                    used.setdefault(node.attr, set()).add(path)
    undocumented = {name: sorted(where) for name, where in used.items() if name not in documented}
    assert undocumented == {}, "used by a shell, not in pipeline.py's list of its surface"
    assert sorted(n for n in used if n not in defined) == []
