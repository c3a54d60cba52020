"""The wording and the entry formats of the `<memory>` block (pure text, no I/O).

Two built-in entry formats:

* `compact` (the default): one element per entry, `<entry key="k">value</entry>`, with
  `type`, `expires` and `description` attributes only when the entry has them. The key is
  what the model passes to update the entry; nothing else per entry costs tokens.
* `verbose`: ContextChef's layout, with `version`, `<updated_at>` and `<update_count>`, under
  a header line and followed by the key guidance.

Everything stored is escaped (`_escape`), whatever the format.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_contextchef._literals import MemoryFormat
from langchain_contextchef.entry import EntryRenderer, MemoryEntry
from langchain_contextchef.render._escape import (
    escape_attribute,
    escape_text,
    format_millis,
    format_minute,
    quote_key,
)

__all__ = [
    "INSTRUCTIONS",
    "VERBOSE_HEADERS",
    "compact_entry",
    "compact_guidance",
    "entry_text",
    "evicted_line",
    "expiry_text",
    "index_hint",
    "index_row",
    "indexed_guidance",
    "unlisted_line",
    "verbose_entry",
    "verbose_guidance",
]

INSTRUCTIONS: dict[str, str] = {
    "legacy": (
        "Memory persists across conversations; you see it every turn.\n"
        "Save lasting facts with create_memory; edit or delete one with modify_memory, "
        "never as a new key."
    ),
    "unified": (
        "Memory at context://memory/<key> keeps facts across turns and conversations; you "
        "see it every turn.\nSave lasting facts (preferences, conventions, decisions) there "
        "with the context tool, editing an existing key rather than adding one; "
        "context://notes/ is scratch space."
    ),
}
"""The default memory instruction of each tools vocabulary."""

VERBOSE_HEADERS: dict[str, str] = {
    # Said of every entry, whoever wrote it and whenever: seeded by the developer, saved by
    # the model a moment ago, or kept from an earlier conversation.
    "legacy": "Saved memory:",
    "unified": (
        "Saved memory (each entry is stored at context://memory/<key> and can be changed "
        "with the context tool):"
    ),
}
"""The line above `<memory>` in the verbose format."""


# ---- entries ----------------------------------------------------------------------------------


def expiry_text(entry: MemoryEntry, turn: int | None) -> str | None:
    """When the entry expires, in words the model can use; `None` when it never does.

    A turn-based expiry counts the turns after this one that still show the entry (`turn` is
    the clock after this compile); without `turn` it is not shown. A wall-clock expiry is the
    UTC minute, which stays the same from call to call.
    """
    if entry.expires_at_turn is not None and turn is not None:
        left = max(0, entry.expires_at_turn - turn)
        if left == 0:
            return "after this turn"
        return f"after {left} more turn{'' if left == 1 else 's'}"
    if entry.expires_at is not None:
        return format_minute(entry.expires_at)
    return None


def compact_entry(entry: MemoryEntry, turn: int | None = None) -> str:
    """`<entry key="k" [type] [expires] [description]>value</entry>` on one element."""
    opening = f'<entry key="{escape_attribute(entry.key)}"'
    if entry.type is not None:
        opening += f' type="{escape_attribute(entry.type)}"'
    expiry = expiry_text(entry, turn)
    if expiry is not None:
        opening += f' expires="{expiry}"'
    if entry.description is not None:
        opening += f' description="{escape_attribute(entry.description)}"'
    return f"{opening}>{escape_text(entry.value)}</entry>"


def verbose_entry(entry: MemoryEntry) -> str:
    """ContextChef's entry layout: version, description, update time and count, value."""
    opening = f'<entry key="{escape_attribute(entry.key)}" version="{entry.version}"'
    if entry.type is not None:
        opening += f' type="{escape_attribute(entry.type)}"'
    lines = [opening + ">"]
    # Multi-line fields sit on their own lines; the parser strips exactly these newlines.
    if entry.description is not None:
        lines.append(f"<description>\n{escape_text(entry.description)}\n</description>")
    lines.append(f"<updated_at>{format_millis(entry.updated_at)}</updated_at>")
    lines.append(f"<update_count>{entry.update_count}</update_count>")
    lines.append(f"<value>\n{escape_text(entry.value)}\n</value>")
    lines.append("</entry>")
    return "\n".join(lines)


def index_row(entry: MemoryEntry) -> str:
    """One `<memory_index>` row: key and type as attributes, the description as text."""
    # Kept per entry as its text is (see `_render_entry`): a block after a write lists
    # mostly the rows it listed before.
    cached = _RENDERED.get((id(entry), _ROW))
    if cached is not None and cached[0] is entry:
        return cached[1]
    opening = f'<item key="{escape_attribute(entry.key)}"'
    if entry.type is not None:
        opening += f' type="{escape_attribute(entry.type)}"'
    if not entry.description:
        row = opening + "/>"
    else:
        row = f"{opening}>{escape_text(entry.description)}</item>"
    if len(_RENDERED) >= _RENDERED_LIMIT:
        _RENDERED.clear()
    _RENDERED[id(entry), _ROW] = (entry, row)
    return row


_ROW = "index row"
"""The format name under which `_RENDERED` keeps an entry's index row."""


# ---- the lines after the element --------------------------------------------------------------


def verbose_guidance(
    visible_keys: Sequence[str], allowed_keys: Sequence[str] | None, vocabulary: str
) -> str:
    """The verbose format's key guidance: the keys that may be written, or those in use."""
    if allowed_keys is not None:
        if not allowed_keys:
            return _read_only(vocabulary)
        return _writable(allowed_keys, vocabulary)
    listed = ", ".join(quote_key(k) for k in visible_keys)
    if vocabulary == "legacy":
        return (
            f"Keys already in use: {listed}. Update one of these with modify_memory "
            "rather than creating a near-duplicate."
        )
    return (
        f"Keys already in use: {listed}. Edit context://memory/<key> for one of these "
        "rather than creating a near-duplicate."
    )


def compact_guidance(allowed_keys: Sequence[str] | None, vocabulary: str) -> str | None:
    """The compact format's key guidance: only when the model may not write every key."""
    if allowed_keys is None:
        return None  # the keys are on the entries; the instruction says to update by key
    if not allowed_keys:
        return _read_only(vocabulary)
    return _writable(allowed_keys, vocabulary)


def _read_only(vocabulary: str) -> str:
    if vocabulary == "legacy":
        return "No memory key may be written here; treat the entries above as read-only."
    return (
        "No address under context://memory/ may be written here; "
        "treat the entries above as read-only."
    )


def _writable(allowed_keys: Sequence[str], vocabulary: str) -> str:
    listed = ", ".join(quote_key(k) for k in allowed_keys)
    if vocabulary == "legacy":
        return f"Only these memory keys may be written: {listed}. Any other key is refused."
    return (
        f"Only these keys may be written under context://memory/: {listed}. "
        "Any other key is refused."
    )


def indexed_guidance(vocabulary: str) -> str:
    """The verbose format's key guidance when a `<memory_index>` lists more keys."""
    if vocabulary == "legacy":
        return (
            "Keys already in use: those of the entries above and in <memory_index>. Update "
            "one of these with modify_memory rather than creating a near-duplicate."
        )
    return (
        "Keys already in use: those of the entries above and in <memory_index>. Edit "
        "context://memory/<key> for one of these rather than creating a near-duplicate."
    )


def index_hint(vocabulary: str) -> str:
    """How the model reads an entry that `<memory_index>` lists without its value."""
    if vocabulary == "legacy":
        return (
            "Entries in <memory_index> are stored but shown without their value; call "
            "recall_memory with a key to read one in full before relying on it."
        )
    return (
        "Entries in <memory_index> are stored but shown without their value; view "
        "context://memory/<key> with the context tool to read one in full before relying on it."
    )


def unlisted_line(count: int, vocabulary: str) -> str:
    """The line about stored entries neither shown nor indexed.

    Example:
        ```python
        from langchain_contextchef.render import render_memory_block, unlisted_line

        block = render_memory_block((), unlisted=3, vocabulary="legacy")
        assert unlisted_line(3, "legacy") in block.splitlines()
        ```
    """
    noun = "entry is" if count == 1 else "entries are"
    line = f"{count} more stored {noun} not shown here, to keep this block short."
    if vocabulary == "unified":
        line += " Search or list them with the context tool under context://memory/."
    return line


def evicted_line(keys: Sequence[str]) -> str:
    """The one-time line about keys evicted to respect the entry limit."""
    listed = ", ".join(quote_key(k) for k in keys)
    return (
        f"Removed since your last turn to keep memory within its size limit, and no longer "
        f"stored: {listed}."
    )


_RENDERED: dict[tuple[int, str], tuple[MemoryEntry, str]] = {}
_RENDERED_LIMIT = 100_000


def _render_entry(entry: MemoryEntry, memory_format: str, turn: int | None) -> str:
    if memory_format == "compact" and entry.expires_at_turn is not None:
        return compact_entry(entry, turn)  # the turns left change every compile
    # Entries are immutable and reused across compiles (see `MemoryEntry.from_stored`), so
    # the text of an unchanged entry is kept; holding the entry keeps its id from being reused.
    cached = _RENDERED.get((id(entry), memory_format))
    if cached is not None and cached[0] is entry:
        return cached[1]
    text = compact_entry(entry) if memory_format == "compact" else verbose_entry(entry)
    if len(_RENDERED) >= _RENDERED_LIMIT:
        _RENDERED.clear()
    _RENDERED[id(entry), memory_format] = (entry, text)
    return text


def _custom_entry(renderer: EntryRenderer, entry: MemoryEntry) -> str:
    text = renderer(entry)
    if not isinstance(text, str):
        msg = (
            f"The memory_format renderer returned {type(text).__name__} for {entry.key!r}; "
            "it must return the entry's text (a str)."
        )
        raise TypeError(msg)
    return text


def entry_text(
    entry: MemoryEntry,
    memory_format: MemoryFormat | EntryRenderer = "compact",
    turn: int | None = None,
) -> str:
    """The text one entry takes inside `<memory>`, as `render_memory_block` writes it."""
    if callable(memory_format):
        return _custom_entry(memory_format, entry)
    return _render_entry(entry, memory_format, turn)
