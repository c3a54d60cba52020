"""Each package's `__init__` docstring opens with a map of its modules, and the map is true.

The map is the indented block after the docstring's first `::` (module names, then what they
own). Every module of the package is on it and nothing else is; where the docstring says its
modules import only those above them, the import graph agrees.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "langchain_contextchef"
PACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
# The maps that promise an order: each module imports only modules on its own line or above.
LAYERED = ("memory", "reflection", "interop")


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _map(package: str) -> list[list[str]]:
    """The module names on each line of the package's map, in order."""
    source = (PACKAGE / package / "__init__.py").read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    head, found, rest = doc.partition("::\n\n")
    assert found, f"{package}/__init__.py has no module map (a `::` block)"
    assert "\nExample" not in head, f"{package}/__init__.py: the map must come before the example"
    lines = []
    for line in rest.split("\n\n", 1)[0].splitlines():
        left = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        lines.append([name.strip() for name in left.split(",")])
    return lines


def _modules(package: str) -> set[str]:
    return {p.stem for p in (PACKAGE / package).glob("*.py")} - {"__init__"}


def test_every_package_is_checked() -> None:
    assert {"memory", "gate", "render", "selectors", "budget", "store", "cli"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_map_names_every_module_and_only_modules(package: str) -> None:
    named = [name for line in _map(package) for name in line]
    assert sorted(named) == sorted(_modules(package))


GRAPH: dict[str, set[str]] = _load_script().import_graph(PACKAGE)


def _upward(package: str, lines: list[list[str]]) -> list[str]:
    """Imports inside the package from a module to one on a later line of `lines`."""
    level = {name: i for i, line in enumerate(lines) for name in line}
    prefix = f"langchain_contextchef.{package}."
    return sorted(
        f"{module} -> {target}"
        for module in _modules(package)
        for target in (t.removeprefix(prefix) for t in GRAPH[prefix + module])
        if target in level and level[target] > level[module]
    )


@pytest.mark.parametrize("package", LAYERED)
def test_a_layered_map_has_no_import_running_up(package: str) -> None:
    assert _upward(package, _map(package)) == []


def test_the_order_check_sees_an_upward_import() -> None:
    # memory.results imports memory._cache: a map that lists results first runs against it.
    moved = [["results"]] + [[n for n in line if n != "results"] for line in _map("memory")]
    assert "results -> _cache" in _upward("memory", moved)
