"""The package's shape, checked: no import cycles, no upward imports, one door per package.

The import graph comes from `scripts/import_graph.py` (every import counts, including those
under `TYPE_CHECKING` and inside functions). The tiers below are the architecture that
ARCHITECTURE.md draws; a module may import its own tier or a lower one, never a higher one.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "langchain_contextchef"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _load_script()
GRAPH: dict[str, set[str]] = SCRIPT.import_graph(PACKAGE)

# Lowest first. A module belongs to the first tier whose prefixes match it.
TIERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "leaves",
        (
            "_version",
            "_literals",
            "_context_paths",
            "_runtime",
            "errors",
            "_chat_models",
            "ttl",
            "entry",
            "scope",
            "gate",
            "_gate",
            "budget",
            "_fit",
            "selectors",
            "render",
            "_render",
            "compaction",
            "store",
            "_format",
            "query",
            "embeddings",
            "_bm25",
            "_relevance",
            "_selection",
            "_text_features",
            "consent",
            "retention",
            "audit",
        ),
    ),
    ("plans", ("_locks", "_plan", "encryption")),
    ("memory engine", ("memory",)),
    (
        "layout and tools",
        ("splice", "compile", "_entry_tokens", "tools", "reflection", "interop"),
    ),
    ("facade", ("prompt", "chef")),
    (
        "integrations",
        ("middleware", "evaluation", "demo", "testing", "_snapshot_import", "cli", "__main__"),
    ),
]


def _short(module: str) -> str:
    return module.removeprefix("langchain_contextchef").lstrip(".")


def _tier(module: str) -> int:
    name = _short(module)
    if not name:  # the package face imports everything it re-exports
        return len(TIERS)
    for level, (_, prefixes) in enumerate(TIERS):
        if any(name == p or name.startswith(p + ".") or name.startswith(p + "_") for p in prefixes):
            return level
    raise AssertionError(f"{name} has no tier in test_architecture.TIERS; add it where it belongs")


def test_the_import_graph_has_no_cycles() -> None:
    assert SCRIPT.find_cycles(GRAPH) == []


def test_every_module_has_a_tier() -> None:
    for module in GRAPH:
        _tier(module)


def test_no_module_imports_a_higher_tier() -> None:
    upward = [
        f"{_short(a)} ({TIERS[_tier(a)][0]}) -> {_short(b)} ({TIERS[_tier(b)][0]})"
        for a, targets in GRAPH.items()
        if a != "langchain_contextchef"
        for b in targets
        if _tier(b) > _tier(a)
    ]
    assert upward == []


def test_the_memory_engine_knows_nothing_of_presentation() -> None:
    # Rendering and splicing happen above memory: data flows store -> memory -> render -> splice.
    for module, targets in GRAPH.items():
        if _short(module).startswith("memory"):
            assert not {_short(t) for t in targets} & {"render", "splice", "compile", "prompt"}


@pytest.mark.parametrize(
    "package", ["memory", "tools", "store", "evaluation", "reflection", "interop"]
)
def test_private_modules_are_used_only_inside_their_package(package: str) -> None:
    private = f"langchain_contextchef.{package}._"
    offenders = [
        f"{_short(a)} -> {_short(b)}"
        for a, targets in GRAPH.items()
        if not a.startswith(f"langchain_contextchef.{package}")
        for b in targets
        if b.startswith(private)
    ]
    assert offenders == []


def test_no_module_imports_an_underscore_name_from_another_package() -> None:
    offenders: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = path.relative_to(PACKAGE).parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE.name):
                source = (node.module or "").split(".")
                home = source[1] if len(source) > 1 else ""
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private and home != own.removesuffix(".py"):
                        offenders.append(f"{path.relative_to(ROOT)}: {node.module}.{alias.name}")
    assert offenders == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 650, f"{path.relative_to(ROOT)} has {lines} lines; split it by concept"


def test_memory_holds_public_methods_only() -> None:
    tree = ast.parse((PACKAGE / "memory/_memory.py").read_text(encoding="utf-8"))
    (memory,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Memory"]
    methods = [n for n in memory.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    private = [m.name for m in methods if m.name.startswith("_") and not m.name.startswith("__")]
    assert private == []
    # Each method is a line or two over a plan: its body after the docstring is short.
    for method in methods:
        body = method.body[1:] if ast.get_docstring(method) else method.body
        statements = sum(1 for _ in body)
        assert statements <= 6, f"Memory.{method.name} has {statements} statements"
