"""Text operations the `context` tool shares between memory values and notes.

Editing (`replace_once`, `insert_at`), searching (`snippet`, `search_text`) and listing a
directory (`listing`). Mistakes refuse the call with the model-facing text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from langchain_contextchef._context_paths import ContextPath
from langchain_contextchef.memory._texts import nothing_at
from langchain_contextchef.tools._args import integer, optional_text, refuse, text

__all__ = [
    "insert_at",
    "insert_edit",
    "lines",
    "listing",
    "plural",
    "replace_edit",
    "replace_once",
    "search_text",
    "snippet",
]

_SNIPPET_RADIUS = 40


def plural(count: int, one: str, many: str) -> str:
    """`1 entry`, `2 entries`."""
    return f"{count} {one if count == 1 else many}"


def lines(text: str) -> list[str]:
    """The lines of `text`, without the empty one a final newline would add."""
    if not text:
        return []
    parts = text.split("\n")
    return parts[:-1] if text.endswith("\n") else parts


def replace_once(text: str, old: str, new: str, uri: str) -> str:
    """Replace the one occurrence of `old`; refuse when it is missing or not unique."""
    count = text.count(old)
    if count == 0:
        refuse(
            f"Error: old_str was not found in {uri}. "
            "It has to match the stored text exactly, including whitespace."
        )
    if count > 1:
        refuse(
            f"Error: old_str appears more than once in {uri}. "
            "Include enough surrounding text for it to match exactly one place."
        )
    return text.replace(old, new, 1)


def insert_at(text: str, line: int, insert: str, uri: str) -> str:
    """Insert `insert` after line `line` (0: at the top); refuse an out-of-range line."""
    current = lines(text)
    if not 0 <= line <= len(current):
        total = plural(len(current), "line", "lines")
        refuse(
            f"Error: insert_line {line} is out of range for {uri}, which has {total}. "
            f"Use 0 to {len(current)}."
        )
    joined = "\n".join(current[:line] + lines(insert) + current[line:])
    # Keep the text's own final-newline convention; the inserted block adds no extra one.
    return joined + "\n" if text.endswith("\n") else joined


def replace_edit(args: Mapping[str, Any], uri: str) -> Callable[[str], str]:
    """The `str_replace` command as an edit of a stored text; its arguments are checked now."""
    old = text(args, "old_str")
    new = optional_text(args, "new_str") or ""
    return lambda stored: replace_once(stored, old, new, uri)


def insert_edit(args: Mapping[str, Any], uri: str) -> Callable[[str], str]:
    """The `insert` command as an edit of a stored text; its arguments are checked now."""
    line = integer(args, "insert_line")
    insert = text(args, "insert_text")
    return lambda stored: insert_at(stored, line, insert, uri)


def snippet(haystack: str, query: str) -> str | None:
    """The first case-insensitive match of `query` with some context, or `None`."""
    match = re.search(re.escape(query), haystack, re.IGNORECASE)
    if match is None:
        return None
    start = max(0, match.start() - _SNIPPET_RADIUS)
    end = min(len(haystack), match.end() + _SNIPPET_RADIUS)
    body = " ".join(haystack[start:end].split())
    return ("…" if start > 0 else "") + body + ("…" if end < len(haystack) else "")


def search_text(root: str, query: str, hits: list[tuple[str, str]]) -> str:
    """The result of a search: one line per hit with its snippet."""
    if not hits:
        return f'No matches for "{query}" under {root}.'
    head = f'{plural(len(hits), "match", "matches")} for "{query}" under {root}:'
    return "\n".join([head, *(f"- {uri}: {found}" for uri, found in hits)])


def listing(where: ContextPath, rows: Iterable[tuple[str, str | None]]) -> str:
    """The result of viewing `where` as a directory: one line per path under it, with its note.

    `rows` are every readable `(path, note)` of the namespace; a path that is not a directory
    and has nothing under it gets the nothing-stored error.
    """
    prefix = where.path if where.is_dir else where.path + "/"
    folder = ContextPath(where.namespace, prefix, is_dir=True)
    under = sorted(
        ((path, note) for path, note in rows if path.startswith(prefix)),
        key=lambda row: (row[0].casefold(), row[0]),
    )
    if not under:
        return f"{folder.uri} is empty." if where.is_dir else nothing_at(where.uri)
    out = [f"{folder.uri} ({plural(len(under), 'entry', 'entries')}):"]
    for path, note in under:
        uri = f"{folder.root}{path}"
        out.append(f"- {uri} — {note}" if note else f"- {uri}")
    return "\n".join(out)
