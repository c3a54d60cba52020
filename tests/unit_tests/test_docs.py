"""The API reference covers every public module (the build itself runs in `make docs`)."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import langchain_contextchef

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"


def _public_modules() -> set[str]:
    names = {"langchain_contextchef"}
    for info in pkgutil.walk_packages(langchain_contextchef.__path__, "langchain_contextchef."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.add(info.name)
    return names


def _page(module: str) -> Path:
    short = module.removeprefix("langchain_contextchef").removeprefix(".")
    return REFERENCE / f"{short or 'index'}.md"


def test_every_public_module_has_a_reference_page() -> None:
    missing = sorted(m for m in _public_modules() if not _page(m).is_file())
    assert not missing, f"add a page under docs/reference/ (and to mkdocs.yml's nav) for {missing}"


def test_each_page_renders_its_own_module() -> None:
    for module in _public_modules():
        text = _page(module).read_text(encoding="utf-8")
        assert re.search(rf"^::: {re.escape(module)}$", text, re.M), _page(module)


def test_every_reference_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in REFERENCE.glob("*.md"))
    assert pages
    assert [p for p in pages if f": {p}\n" not in nav] == []


def test_no_page_for_a_module_that_is_gone() -> None:
    expected = {_page(m) for m in _public_modules()}
    stale = sorted(p.name for p in REFERENCE.glob("*.md") if p not in expected)
    assert stale == [], "these pages document modules that no longer exist"
