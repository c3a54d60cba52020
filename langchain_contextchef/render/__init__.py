r"""Pure rendering of memory entries and task state into prompt text.

The package (this face holds `render_memory_block` and `memory_instruction`)::

    _escape          escaping, so no stored text can close its element, and its reverse
    _memory          the `<memory>` formats (compact, verbose), their wording, `entry_text`
    _parse           `parse_memory_block`: a rendered block read back
    _state           `<dynamic_state>` and `<implicit_context>`
    _entry_tokens    each entry's token count, once per version, kept in the scope's cache

Everything here is a pure function of its arguments: no I/O, no clock, no randomness, so the
same input always gives the same bytes (which is what keeps prompt caches warm).

The `<memory>` block is well-formed XML for any stored text, in every format: markup
characters are escaped, and the characters XML cannot carry are written as `␛{XXXX}` (see
`escape_text`), so no stored text can close the element it is in and `parse_memory_block`
restores the original exactly. Ordinary text, apostrophes, tabs and newlines in values stay
readable.

Two formats (`MemoryConfig(memory_format=...)`):

* `compact` (default): `<entry key="lang">Python</entry>`, plus `type`, `expires` and
  `description` attributes only on the entries that have them;
* `verbose`: ContextChef's layout (version, update time and count, a header and a key
  guidance line), about four times the tokens per short entry.

A callable `entry -> str` is a custom format: it writes each entry inside `<memory>`, and
must escape what it writes with `escape_text` / `escape_attribute`.

Example:
    ```python
    from datetime import datetime, timezone
    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.render import parse_memory_block, render_memory_block

    now = datetime(2026, 5, 25, tzinfo=timezone.utc)
    entry = MemoryEntry(key="style", value='functional <b> & "q"', created_at=now, updated_at=now)
    block = render_memory_block([entry])
    assert block == '<memory>\n<entry key="style">functional &lt;b> &amp; "q"</entry>\n</memory>'
    assert parse_memory_block(block)[0].value == 'functional <b> & "q"'
    ```
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_contextchef._literals import MemoryFormat, ToolVocabulary, check_literal
from langchain_contextchef.entry import EntryRenderer, MemoryEntry
from langchain_contextchef.render._entry_tokens import PerEntry, entry_counters
from langchain_contextchef.render._escape import escape_attribute, escape_text, unescape
from langchain_contextchef.render._memory import (
    INSTRUCTIONS,
    VERBOSE_HEADERS,
    compact_guidance,
    entry_text,
    evicted_line,
    index_hint,
    index_row,
    indexed_guidance,
    unlisted_line,
    verbose_guidance,
)
from langchain_contextchef.render._parse import ParsedEntry, parse_memory_block
from langchain_contextchef.render._state import render_dynamic_state, render_implicit_context

__all__ = [
    "ANCHOR_LINE",
    "EntryRenderer",
    "ParsedEntry",
    "PerEntry",
    "entry_counters",
    "entry_text",
    "escape_attribute",
    "escape_text",
    "memory_instruction",
    "parse_memory_block",
    "render_dynamic_state",
    "render_implicit_context",
    "render_memory_block",
    "unescape",
    "unlisted_line",
]


ANCHOR_LINE = "The blocks above show where things stand right now; base your next step on them."
"""Closing line of the last user turn when dynamic state or implicit context is appended."""


def _check_vocabulary(vocabulary: str) -> None:
    check_literal("vocabulary", vocabulary, ToolVocabulary)


def memory_instruction(vocabulary: ToolVocabulary = "legacy") -> str:
    """Return the default memory instruction for a tool vocabulary.

    The text says what `<memory>` is and names the memory tools once; it never contains
    stored data, so it can sit in a cached system prompt. `MemoryConfig(instruction=...)`
    replaces it.

    Args:
        vocabulary: `legacy` for `create_memory`/`modify_memory`, `unified` for the
            `context` tool.

    Returns:
        Two lines of instruction, without a trailing newline.

    Raises:
        ValueError: If `vocabulary` is not `legacy` or `unified`.

    Example:
        ```python
        from langchain_contextchef.render import memory_instruction

        assert "create_memory" in memory_instruction()
        assert "context://memory/" in memory_instruction("unified")
        ```
    """
    _check_vocabulary(vocabulary)
    return INSTRUCTIONS[vocabulary]


def render_memory_block(
    entries: Sequence[MemoryEntry],
    *,
    allowed_keys: Sequence[str] | None = None,
    vocabulary: ToolVocabulary = "legacy",
    index: Sequence[MemoryEntry] = (),
    unlisted: int = 0,
    evicted_keys: Sequence[str] = (),
    memory_format: MemoryFormat | EntryRenderer = "compact",
    turn: int | None = None,
) -> str:
    r"""Render entries as the `<memory>` data block, with its notices and key guidance.

    Entries appear in the given order. In the compact format (and with a custom renderer)
    a key-guidance line follows only when `allowed_keys` limits what the model may write;
    the verbose format starts with a header line and always ends with key guidance (the
    allowed keys, or the keys of the rendered entries).

    Recall mode adds a `<memory_index>` element after `<memory>`: one `<item>` per entry
    that is stored but not shown in full (key and type as attributes, the description as
    text, escaped like the block), and a line telling the model how to read one. Then come
    one line for `unlisted` entries and one for keys evicted since the last turn.

    Args:
        entries: The selected entries, in injection order.
        allowed_keys: The keys the model may write, or `None` when any key is allowed.
        vocabulary: Which tool names the header and guidance mention.
        index: Entries to list in `<memory_index>` without their value.
        unlisted: How many more stored entries are neither shown nor indexed.
        evicted_keys: Keys removed since the last turn to respect the entry limit.
        memory_format: `compact`, `verbose`, or a callable writing one entry.
        turn: The turn clock after this compile; the compact format then shows how many more
            turns an entry with a turn-based TTL stays (`expires="after 2 more turns"`).

    Returns:
        The block, or `""` when there is nothing to show.

    Raises:
        ValueError: If `vocabulary` or `memory_format` is not one of the documented values.
        TypeError: If a custom renderer does not return a str.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        lang = MemoryEntry(key="lang", value="Python", created_at=now, updated_at=now)
        assert (
            render_memory_block([lang]) == '<memory>\n<entry key="lang">Python</entry>\n</memory>'
        )
        verbose = render_memory_block([lang], memory_format="verbose")
        assert '<entry key="lang" version="1">' in verbose
        assert render_memory_block([]) == ""
        pets = lang.evolve(key="pets", type="fact", description="Names of the pets")
        indexed = render_memory_block([lang], index=[pets])
        assert '<item key="pets" type="fact">Names of the pets</item>' in indexed
        ```
    """
    _check_vocabulary(vocabulary)
    if not callable(memory_format):
        check_literal("memory_format", memory_format, MemoryFormat)
    if not entries and not index and not unlisted and not evicted_keys:
        return ""
    verbose = memory_format == "verbose"
    rendered = [entry_text(entry, memory_format, turn) for entry in entries]
    body = ("\n\n" if verbose else "\n").join(rendered)
    element = f"<memory>\n{body}\n</memory>" if body else "<memory>\n</memory>"
    parts = [f"{VERBOSE_HEADERS[vocabulary]}\n{element}" if verbose else element]
    if index:
        rows = "\n".join(index_row(entry) for entry in index)
        parts[0] += f"\n<memory_index>\n{rows}\n</memory_index>"
        parts.append(index_hint(vocabulary))
    if unlisted:
        parts.append(unlisted_line(unlisted, vocabulary))
    if evicted_keys:
        parts.append(evicted_line(evicted_keys))
    if not verbose:
        guidance = compact_guidance(allowed_keys, vocabulary)
        if guidance is not None:
            parts.append(guidance)
    elif index and allowed_keys is None:
        parts.append(indexed_guidance(vocabulary))
    elif entries or allowed_keys is not None:
        # With no key shown and any key allowed, there is nothing to guide (no empty list).
        parts.append(verbose_guidance([e.key for e in entries], allowed_keys, vocabulary))
    return "\n\n".join(parts)
