"""No two of specdiff's modules import each other, directly or through others, counting every import statement:
inside a function and under TYPE_CHECKING too, and `from package import module` as an import of the package as
well (its `__init__` runs first). import-linter's acyclic_siblings contract (pyproject.toml) looks only between
the modules inside a package, so it misses a package and a module inside it that import each other."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def circles(package: Path) -> list[list[str]]:
    """The sets of modules of a package that import each other in a circle, each sorted."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    graph.add_edges_from((name, imported) for name, path in modules.items()
                         for imported in _imports(name, path, set(modules)))
    return sorted(sorted(circle) for circle in nx.strongly_connected_components(graph) if len(circle) > 1)


def _imports(name: str, path: Path, modules: set[str]) -> Iterator[str]:
    """The package's modules a module imports: each import statement names a module, or a name inside one."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: `from . import x`, `from ..y import z`
                above = package.split(".")[: package.count(".") + 2 - node.level]
                base = ".".join([*above, base] if base else above)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def test_no_modules_of_specdiff_import_each_other_in_a_circle() -> None:
    assert circles(ROOT / "specdiff") == []


def test_an_import_inside_a_function_under_type_checking_or_of_the_package_closes_a_circle(tmp_path: Path) -> None:
    files = {
        "__init__.py": "from pkg.build import build\n",
        "build.py": "def build():\n    from pkg import plain\n",  # `from pkg import` runs pkg/__init__.py
        "plain.py": "",
        "model.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.paths import Holders\n",
        "paths.py": "from .model import Graph\n",
        "records.py": "import pkg.plain as plain\n",  # the module alone: no circle through pkg/__init__.py
        "notation.py": "from pkg.records import Context\n",
    }
    for name, text in files.items():
        (tmp_path / "pkg").mkdir(exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text, encoding="utf-8")
    assert circles(tmp_path / "pkg") == [["pkg", "pkg.build"], ["pkg.model", "pkg.paths"]]
