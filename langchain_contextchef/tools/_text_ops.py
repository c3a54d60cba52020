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
LIST_PAGE = 100
"""Rows of one folder listing; the rest are a call away (`offset`), or narrowed by a folder."""
SEARCH_PAGE = 50
"""Hits of one search result."""


def _page_note(shown_end: int, total: int, narrow: str) -> str:
    """The line after a cut page: how many are left, and how to get them."""
    left = total - shown_end
    return f"... {left} more not shown. Pass offset={shown_end} for the next page, or {narrow}."


def plural(count: int, one: str, many: str) -> str:
    """`1 entry`, `2 entries`, `100,000 entries`."""
    return f"{count:,} {one if count == 1 else many}"


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


def search_text(
    root: str, query: str, hits: list[tuple[str, str]], offset: int = 0, page: int = SEARCH_PAGE
) -> str:
    """The result of a search: one line per hit with its snippet, one page of them.

    The first line gives the total; a cut page ends with the `offset` of the next one.
    """
    if not hits:
        return f'No matches for "{query}" under {root}.'
    head = f'{plural(len(hits), "match", "matches")} for "{query}" under {root}'
    shown = hits[offset : offset + page]
    if not shown:
        return f"{head}; offset={offset} is past the last one. Use an offset below {len(hits)}."
    end = offset + len(shown)
    if len(shown) < len(hits):
        head += f" (showing {offset + 1} to {end})"
    out = [head + ":", *(f"- {uri}: {found}" for uri, found in shown)]
    if end < len(hits):
        out.append(_page_note(end, len(hits), "search with a longer query or in a folder"))
    return "\n".join(out)


def listing(
    where: ContextPath,
    rows: Iterable[tuple[str, str | None]],
    offset: int = 0,
    page: int = LIST_PAGE,
) -> str:
    """The result of viewing `where` as a directory: one line per path under it, with its note.

    `rows` are every readable `(path, note)` of the namespace; a path that is not a directory
    and has nothing under it gets the nothing-stored error. One page of `page` rows from
    `offset` is shown, headed by the total; a cut page ends with how to get the next one or
    narrow the listing (a folder is any key prefix ending in "/", or search).
    """
    prefix = where.path if where.is_dir else where.path + "/"
    folder = ContextPath(where.namespace, prefix, is_dir=True)
    under = sorted(
        ((path, note) for path, note in rows if path.startswith(prefix)),
        key=lambda row: (row[0].casefold(), row[0]),
    )
    if not under:
        return f"{folder.uri} is empty." if where.is_dir else nothing_at(where.uri)
    total = plural(len(under), "entry", "entries")
    shown = under[offset : offset + page]
    if not shown:
        return f"{folder.uri} ({total}): offset={offset} is past the end. Use an offset below {len(under)}."
    end = offset + len(shown)
    cut = f"; showing {offset + 1} to {end}" if len(shown) < len(under) else ""
    out = [f"{folder.uri} ({total}{cut}):"]
    for path, note in shown:
        uri = f"{folder.root}{path}"
        out.append(f"- {uri} — {note}" if note else f"- {uri}")
    if end < len(under):
        out.append(
            _page_note(end, len(under), f"view a narrower folder ({folder.uri}<prefix>/) or search")
        )
    return "\n".join(out)
