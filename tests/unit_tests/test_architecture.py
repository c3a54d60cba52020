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
            "profiles",
        ),
    ),
    ("plans", ("_sections", "_plan", "_stored_vectors", "encryption")),
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


# The named internal doors: a private module that the listed packages (and only they) may
# import from outside its own package. `memory._plans` holds the plans the tools, the compile,
# reflection and interop compose; `memory._texts` words the outcomes those layers report.
INTERNAL_DOORS: dict[str, tuple[str, ...]] = {
    "memory._plans": ("tools", "compile", "reflection", "interop"),
    "memory._texts": ("tools", "compile", "reflection", "interop"),
}


def _through_a_door(importer: str, target: str) -> bool:
    users = INTERNAL_DOORS.get(_short(target), ())
    top = _short(importer).split(".")[0]
    return top in users


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
        if b.startswith(private) and not _through_a_door(a, b)
    ]
    assert offenders == []


def test_the_internal_doors_exist_and_are_used() -> None:
    for door, users in INTERNAL_DOORS.items():
        assert (PACKAGE / (door.replace(".", "/") + ".py")).is_file(), door
        importers = {
            _short(a).split(".")[0]
            for a, targets in GRAPH.items()
            if f"langchain_contextchef.{door}" in targets
        }
        assert set(users) & importers, f"nothing outside uses {door}; drop it from INTERNAL_DOORS"


def test_no_group_of_top_level_modules_shares_a_prefix() -> None:
    # A prefix shared by several top-level modules (`_gate_*`, `_render_*`) is a package that
    # does not exist yet: it does not fold in a listing and its privacy cannot be guarded.
    stems = [
        p.stem.lstrip("_") for p in PACKAGE.glob("*.py") if p.stem not in {"__init__", "__main__"}
    ]
    prefixes: dict[str, list[str]] = {}
    for stem in stems:
        if "_" in stem:
            prefixes.setdefault(stem.split("_")[0], []).append(stem)
    groups = {prefix: names for prefix, names in prefixes.items() if len(names) >= 3}
    assert groups == {}, f"make a package of each group: {groups}"


def test_the_top_level_stays_small() -> None:
    modules = list(PACKAGE.glob("*.py"))
    assert len(modules) <= 30, f"{len(modules)} modules directly in the package; group them"


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


def _code_lines(source: str) -> int:
    """Lines that hold code: docstrings, comments and blank lines are not counted."""
    docstring_lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstring_lines.update(range(body[0].lineno, (body[0].end_lineno or 0) + 1))
    count = 0
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and number not in docstring_lines:
            count += 1
    return count


CODE_LINE_CAP = 450


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_is_over_the_code_line_cap(path: Path) -> None:
    lines = _code_lines(path.read_text(encoding="utf-8"))
    assert lines <= CODE_LINE_CAP, (
        f"{path.relative_to(ROOT)} has {lines} code lines; split it by concept"
    )


def test_the_code_line_count_skips_docs_comments_and_blanks() -> None:
    source = 'def f():\n    """Doc.\n\n    More.\n    """\n    # why\n\n    return 1\n'
    assert _code_lines(source) == 2


def test_memory_holds_public_methods_only() -> None:
    from langchain_contextchef.memory import Memory

    cls = Memory
    own = [c for c in Memory.__mro__ if c.__module__.startswith("langchain_contextchef")]
    assert own == [Memory], "Memory is one class in one file; no mixins"
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
