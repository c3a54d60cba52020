"""Every name the package exports has an entry in the API reference (docs/reference).

A page renders a module with `::: module`; with a `members:` list it renders only those. An
exported name has an entry when some page renders a module that holds the name (defined there
or re-exported through its `__all__`) and either lists no members or lists the name.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import langchain_contextchef

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference"
_DIRECTIVE = re.compile(r"^::: (\S+)\n((?:[ \t]+.*\n|\n)*)", re.M)
_MEMBERS = re.compile(r"^\s+members:\s*\n((?:\s+- \S+\n)+)", re.M)


def _entries() -> dict[str, set[str] | None]:
    """Each rendered module, with the members its page lists (None: all public ones)."""
    found: dict[str, set[str] | None] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        for module, options in _DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            listed = _MEMBERS.search(options)
            if "members: false" in options:
                names: set[str] | None = set()
            elif listed:
                names = set(re.findall(r"- (\S+)", listed.group(1)))
            else:
                names = None
            previous = found.get(module, set())
            found[module] = None if names is None or previous is None else previous | names
    return found


def _has_entry(name: str, obj: object, entries: dict[str, set[str] | None]) -> bool:
    for module_name, members in entries.items():
        module = importlib.import_module(module_name)
        if getattr(module, name, None) is not obj:
            continue
        public = (
            name in getattr(module, "__all__", ()) or getattr(obj, "__module__", "") == module_name
        )
        if public and (members is None or name in members):
            return True
    return False


def test_every_exported_name_has_a_reference_entry() -> None:
    entries = _entries()
    missing = [
        name
        for name in langchain_contextchef.__all__
        if not name.startswith("__")
        and not _has_entry(name, getattr(langchain_contextchef, name), entries)
    ]
    assert missing == [], (
        f"no reference entry for {missing}: list each under `members:` of the page of the "
        "module that defines (or re-exports) it in docs/reference/"
    )
