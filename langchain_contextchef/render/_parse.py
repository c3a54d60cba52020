"""Reading a rendered `<memory>` block back: both built-in formats, every escape reversed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from langchain_contextchef.render._escape import decode

__all__ = ["ParsedEntry", "parse_memory_block"]


@dataclass(frozen=True)
class ParsedEntry:
    """One entry read back from a rendered `<memory>` block.

    Attributes:
        key: The entry key.
        value: The remembered text.
        description: The description, or `None` when the block had none.
        type: The memory type, or `None` when the block had none.
        version: The `version` attribute (verbose format), else `None`.
        update_count: The `<update_count>` element (verbose format), else `None`.
        updated_at: The `<updated_at>` text as rendered (verbose format), else `None`.
        expires: The `expires` attribute as rendered (compact format), else `None`.
    """

    key: str
    value: str
    description: str | None
    type: str | None
    version: int | None
    update_count: int | None
    updated_at: str | None
    expires: str | None = None


def _find_memory_element(text: str) -> ET.Element:
    start = text.find("<memory>")
    while start != -1:
        end = text.find("</memory>", start)
        if end == -1:
            break
        try:
            root = ET.fromstring(text[start : end + len("</memory>")])
        except ET.ParseError:
            # An earlier `<memory>` in surrounding prose; try the next one.
            start = text.find("<memory>", start + 1)
            continue
        return root
    msg = (
        "No well-formed <memory>...</memory> element found in the text; pass the output of "
        "render_memory_block or a message that contains it."
    )
    raise ValueError(msg)


def _inner_text(text: str) -> str:
    start = text.find("<memory>")
    end = text.find("</memory>", start)
    if start == -1 or end == -1:
        msg = "No <memory>...</memory> block found in the text."
        raise ValueError(msg)
    return text[start + len("<memory>") : end]


def _strip_wrapping(text: str | None, field: str) -> str:
    if text is None or len(text) < 2 or text[0] != "\n" or text[-1] != "\n":
        msg = f"The <{field}> element is not in the layout render_memory_block writes."
        raise ValueError(msg)
    return decode(text[1:-1])


def _required(element: ET.Element, tag: str, key: str) -> ET.Element:
    child = element.find(tag)
    if child is None:
        msg = f"The entry {key!r} has no <{tag}> element; was the block edited by hand?"
        raise ValueError(msg)
    return child


def _attribute(element: ET.Element, name: str) -> str | None:
    raw = element.get(name)
    return None if raw is None else decode(raw)


def _verbose(element: ET.Element, key: str) -> ParsedEntry:
    description = element.find("description")
    return ParsedEntry(
        key=key,
        value=_strip_wrapping(_required(element, "value", key).text, "value"),
        description=None
        if description is None
        else _strip_wrapping(description.text, "description"),
        type=_attribute(element, "type"),
        version=int(element.get("version", "0")),
        update_count=int(_required(element, "update_count", key).text or "0"),
        updated_at=_required(element, "updated_at", key).text or "",
    )


def _compact(element: ET.Element, key: str) -> ParsedEntry:
    if len(element):
        msg = f"The entry {key!r} holds elements, which neither format writes; edited by hand?"
        raise ValueError(msg)
    return ParsedEntry(
        key=key,
        value=decode(element.text or ""),
        description=_attribute(element, "description"),
        type=_attribute(element, "type"),
        version=None,
        update_count=None,
        updated_at=None,
        expires=_attribute(element, "expires"),
    )


def parse_memory_block(
    text: str, *, read_entries: Callable[[str], list[ParsedEntry]] | None = None
) -> list[ParsedEntry]:
    r"""Read entries back from text containing a block written by `render_memory_block`.

    The first well-formed `<memory>` element in `text` is parsed with
    `xml.etree.ElementTree` and every escape is reversed, so keys, values, descriptions and
    types come back exactly as stored, in either format (`compact` or `verbose`; each entry
    is read in the format it was written in).

    A block written by a custom format (`MemoryConfig(memory_format=callable)`) is read by
    that format's own reader: `read_entries` gets the text between `<memory>` and the first
    `</memory>` after it and returns the entries.

    Args:
        text: The block itself, or a whole message that contains it.
        read_entries: The reader of a custom format; `None` for the built-in formats.

    Returns:
        The entries in block order.

    Raises:
        ValueError: If there is no `<memory>` element, an entry lacks a required part, or
            the block holds something other than entries and no `read_entries` was given
            (it was written by a custom format).

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import parse_memory_block, render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entry = MemoryEntry(key="a\tb", value="x\r\ny", created_at=now, updated_at=now)
        for memory_format in ("compact", "verbose"):
            block = render_memory_block([entry], memory_format=memory_format)
            (parsed,) = parse_memory_block("Hi.\n\n" + block)
            assert (parsed.key, parsed.value) == ("a\tb", "x\r\ny")
        ```
    """
    if read_entries is not None:
        return read_entries(_inner_text(text))
    root = _find_memory_element(text)
    if (root.text or "").strip() or any(child.tag != "entry" for child in root):
        msg = (
            "The <memory> block holds something other than <entry> elements, so it was "
            "written by a custom memory_format; pass that format's reader as read_entries."
        )
        raise ValueError(msg)
    parsed: list[ParsedEntry] = []
    for element in root.findall("entry"):
        raw_key = element.get("key")
        if raw_key is None:
            msg = "An <entry> element has no key attribute; was the block edited by hand?"
            raise ValueError(msg)
        key = decode(raw_key)
        is_verbose = element.find("value") is not None
        parsed.append(_verbose(element, key) if is_verbose else _compact(element, key))
    return parsed
