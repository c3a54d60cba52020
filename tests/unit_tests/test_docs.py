"""The API reference: a few pages by what a user builds, covering every public module.

The build itself (mkdocstrings renders each `::: module` directive, warnings are errors) runs in
`make docs`; these checks keep the pages, the navigation and the package in step.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import langchain_contextchef

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"
MAX_PAGES = 15


def _public_modules() -> set[str]:
    names = {"langchain_contextchef"}
    for info in pkgutil.walk_packages(langchain_contextchef.__path__, "langchain_contextchef."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.add(info.name)
    return names


def _rendered() -> dict[str, list[str]]:
    """Each module a `::: module` directive renders, and the pages that render it."""
    found: dict[str, list[str]] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        for module in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), re.M):
            found.setdefault(module, []).append(page.name)
    return found


def test_the_reference_has_few_pages() -> None:
    assert 0 < len(list(REFERENCE.glob("*.md"))) <= MAX_PAGES


def test_every_public_module_is_rendered_on_exactly_one_page() -> None:
    rendered = _rendered()
    missing = sorted(_public_modules() - set(rendered))
    assert not missing, f"render these modules on a page under docs/reference/: {missing}"
    twice = {module: pages for module, pages in rendered.items() if len(pages) > 1}
    assert twice == {}


def test_no_page_renders_a_module_that_is_gone() -> None:
    assert sorted(set(_rendered()) - _public_modules()) == []


def test_every_reference_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in REFERENCE.glob("*.md"))
    assert [p for p in pages if f": {p}\n" not in nav] == []


def _listed_members() -> dict[str, list[str] | None]:
    """Per rendered module, the `members:` list its directive gives (None: all public ones)."""
    listed: dict[str, list[str] | None] = {}
    for page in REFERENCE.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        for block in re.split(r"^(?=::: )", text, flags=re.M)[1:]:
            module = block.split()[1]
            members = re.search(r"members:\n((?:\s+- \w+\n?)+)", block)
            if re.search(r"members: false", block):
                listed[module] = []
            elif members:
                listed[module] = re.findall(r"- (\w+)", members.group(1))
            else:
                listed[module] = None
    return listed


def test_every_name_the_package_exports_has_an_entry() -> None:
    # A name of the package face is documented where it is defined; that module's directive
    # must show it (all its public names, or a `members:` list that names it).
    listed = _listed_members()
    undocumented = []
    for name in langchain_contextchef.__all__:
        if name.startswith("__"):
            continue
        obj = getattr(langchain_contextchef, name)
        home = getattr(obj, "__module__", "")
        while home not in listed and "." in home:
            home = home.rsplit(".", 1)[0]
        members = listed.get(home, [])
        shown = members is None or name in members
        if not shown:
            undocumented.append(f"{name} ({getattr(obj, '__module__', '?')})")
    assert undocumented == []


def test_listed_members_exist() -> None:
    for module, members in _listed_members().items():
        imported = importlib.import_module(module)
        assert [m for m in members or [] if not hasattr(imported, m)] == [], module
