"""The package's shape, checked: no import cycles, no upward imports, one door per package.

The import graph comes from `scripts/import_graph.py` (every import counts, including those
under `TYPE_CHECKING` and inside functions). The tiers below are the architecture that
ARCHITECTURE.md draws; a module may import its own tier or a lower one, never a higher one.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
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
            "budget",
            "selectors",
            "render",
            "compaction",
            "store",
            "_format",
            "query",
            "embeddings",
            "consent",
            "retention",
            "audit",
        ),
    ),
    ("plans", ("_sections", "_plan", "encryption")),
    ("memory engine", ("memory",)),
    (
        "layout and tools",
        ("splice", "compile", "tools", "reflection", "interop"),
    ),
    ("facade", ("prompt", "chef")),
    (
        "integrations",
        ("middleware", "evaluation", "demo", "testing", "_fake_chat_model", "cli", "__main__"),
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
    "package",
    [
        "memory",
        "tools",
        "store",
        "evaluation",
        "reflection",
        "interop",
        "gate",
        "render",
        "selectors",
        "budget",
    ],
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


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 600, f"{path.relative_to(ROOT)} has {lines} lines; split it by concept"


def _memory_classes() -> list[type]:
    """`Memory` and every class it inherits from that the memory engine defines (its mixins)."""
    from langchain_contextchef.memory import Memory

    own = "langchain_contextchef.memory."
    return [cls for cls in Memory.__mro__ if cls.__module__.startswith(own)]


def test_memory_is_checked_with_its_mixins() -> None:
    # The check below must see every class that gives `Memory` its methods, not only its body.
    names = {cls.__name__ for cls in _memory_classes()}
    assert {"Memory", "PrivacyMethods", "ReviewMethods"} <= names


@pytest.mark.parametrize("cls", _memory_classes(), ids=lambda c: c.__name__)
def test_memory_holds_public_methods_only(cls: type) -> None:
    path = Path(inspect.getfile(cls))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (body,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
    methods = [n for n in body.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    private = [m.name for m in methods if m.name.startswith("_") and not m.name.startswith("__")]
    assert private == [], f"{cls.__name__} has private methods; make them plans in memory/"
    # Each method is a line or two over a plan: its body after the docstring is short.
    for method in methods:
        if method.name == "__init__":
            continue
        body_statements = method.body[1:] if ast.get_docstring(method) else method.body
        count = len(body_statements)
        assert count <= 2, f"{cls.__name__}.{method.name} has {count} statements; write a plan"


def _named_in_architecture() -> tuple[set[str], dict[str, set[str]]]:
    """What ARCHITECTURE.md names in backticks: overall, and per `## ... (`pkg/`)` section."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    anywhere = set(re.findall(r"`([^`\n]+)`", text))
    by_package: dict[str, set[str]] = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading, _, body = section.partition("\n")
        for package in re.findall(r"`(\w+)/`", heading):
            by_package.setdefault(package, set()).update(re.findall(r"`([^`\n]+)`", body))
    return anywhere, by_package


def _module_names(path: Path) -> set[str]:
    """How ARCHITECTURE.md may name a module: `x` or `x.py` at the top, `pkg/m.py` below."""
    relative = path.relative_to(PACKAGE)
    if len(relative.parts) == 1:
        return {relative.stem, relative.name}
    return {relative.as_posix()}


def test_every_module_has_a_row_in_architecture_md() -> None:
    anywhere, by_package = _named_in_architecture()
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        named = bool(_module_names(path) & anywhere)
        if len(relative.parts) == 2:  # inside `## ... (`pkg/`)`, a bare `m.py` names it too
            named = named or relative.name in by_package.get(relative.parts[0], set())
        if not named:
            missing.append(relative.as_posix())
    assert missing == [], f"ARCHITECTURE.md has no row for {missing}; say what each one owns"


def test_the_architecture_check_sees_a_missing_module() -> None:
    # The check above must fail for a module the page does not name, at either level.
    anywhere, by_package = _named_in_architecture()
    assert "_plan" in anywhere and "_cache.py" in by_package["memory"]
    assert not {"_nowhere", "_nowhere.py"} & anywhere
    assert "_nowhere.py" not in by_package["memory"]
    assert "_cache.py" not in by_package.get("tools", set())
