"""Pure rendering of memory entries and task state into prompt text.

Everything here is a pure function of its arguments: no I/O, no clock, no randomness, so the
same input always gives the same bytes (which is what keeps prompt caches warm).

The `<memory>` block is well-formed XML for any stored text. Markup characters are escaped,
carriage returns and (inside attributes) tabs and newlines become character references, and
the characters XML 1.0 cannot carry at all (most C0 controls, U+FFFE, U+FFFF, lone surrogates)
are written as `␛{XXXX}` with four upper-case hex digits. The marker `␛` (U+241B) is itself
written as `␛{241B}`, so the encoding is injective and `parse_memory_block` restores the
original text exactly. Ordinary text, apostrophes, tabs and newlines in values stay readable.

Example:
    ```python
    from datetime import datetime, timezone
    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.render import parse_memory_block, render_memory_block

    now = datetime(2026, 5, 25, tzinfo=timezone.utc)
    entry = MemoryEntry(key="style", value='functional <b> & "q"', created_at=now, updated_at=now)
    block = render_memory_block([entry])
    assert parse_memory_block(block)[0].value == 'functional <b> & "q"'
    ```
"""

from __future__ import annotations

import functools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeAlias

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError, to_jsonable_python

from langchain_contextchef._literals import ToolVocabulary, check_literal
from langchain_contextchef.entry import MemoryEntry

__all__ = [
    "ANCHOR_LINE",
    "ParsedEntry",
    "Vocabulary",
    "memory_instruction",
    "parse_memory_block",
    "render_dynamic_state",
    "render_implicit_context",
    "render_memory_block",
]

Vocabulary: TypeAlias = ToolVocabulary
"""Which memory tools the model has (an alias of `_literals.ToolVocabulary`)."""

ANCHOR_LINE = "The blocks above show where things stand right now; base your next step on them."
"""Closing line of the last user turn when dynamic state or implicit context is appended."""

_LEGACY_INSTRUCTION = (
    "You can keep facts across conversations with the create_memory and modify_memory tools.\n"
    "Save only what will still matter later: user preferences, project conventions, and "
    "decisions with their reasons.\n"
    "To correct or drop a saved fact, use modify_memory on its key rather than creating a "
    "second entry."
)

_UNIFIED_INSTRUCTION = (
    "The context tool reads and edits persistent content by address.\n"
    "context://memory/<key> holds facts kept across conversations; context://notes/ is "
    "scratch space for the task at hand.\n"
    "Commands: view, create, str_replace, insert, delete, rename, search.\n"
    "Keep memory for what will still matter later: user preferences, project conventions, "
    "and decisions with their reasons. Edit an existing key instead of adding a near-duplicate."
)

_HEADERS: dict[str, str] = {
    "legacy": "Memory you saved in earlier conversations:",
    "unified": (
        "Memory saved in earlier conversations (each entry is stored at "
        "context://memory/<key> and can be changed with the context tool):"
    ),
}

# The one character whose presence starts an escape sequence; see the module docstring.
_MARK = "\u241b"
# Characters XML 1.0 cannot hold even as character references, plus the marker itself.
_UNREPRESENTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u241b]")
_ESCAPED = re.compile("\u241b\\{([0-9A-F]{4})\\}")
_JSON_ESCAPED = re.compile("[<>\ud800-\udfff]")

_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_NOT_NAME_CHAR = re.compile(r"[^A-Za-z0-9_.\-]")


def _encode_unrepresentable(text: str) -> str:
    return _UNREPRESENTABLE.sub(lambda m: f"{_MARK}{{{ord(m.group()):04X}}}", text)


def _decode_unrepresentable(text: str) -> str:
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def _text(text: str) -> str:
    """Escape text for an XML text node, keeping it readable."""
    out = _encode_unrepresentable(text).replace("&", "&amp;").replace("<", "&lt;")
    # `]]>` is the only place `>` must be escaped; a raw \r would be normalised to \n.
    return out.replace("]]>", "]]&gt;").replace("\r", "&#13;")


def _attr(text: str) -> str:
    """Escape text for a double-quoted XML attribute (whitespace survives normalisation)."""
    out = _encode_unrepresentable(text).replace("&", "&amp;").replace("<", "&lt;")
    out = out.replace('"', "&quot;")
    return out.replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")


def _format_millis(moment: datetime) -> str:
    # A naive datetime is taken as UTC so the output never depends on the machine's zone.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    utc = moment.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


@functools.lru_cache(maxsize=65_536)
def _quote_key(key: str) -> str:
    # JSON quoting keeps keys with commas, quotes or controls unambiguous in prose. Angle
    # brackets and lone surrogates use JSON escapes too, so no stored text puts markup next
    # to the block and the message still encodes as UTF-8.
    quoted = json.dumps(key, ensure_ascii=False)
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def _check_vocabulary(vocabulary: str) -> None:
    check_literal("vocabulary", vocabulary, ToolVocabulary)


def memory_instruction(vocabulary: Vocabulary = "legacy") -> str:
    """Return the stable memory usage instruction for a tool vocabulary.

    The text names the memory tools and never contains stored data, so it can sit in a
    cached system prompt.

    Args:
        vocabulary: `legacy` for `create_memory`/`modify_memory`, `unified` for the
            `context` tool.

    Returns:
        A few lines of instruction, without a trailing newline.

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
    return _LEGACY_INSTRUCTION if vocabulary == "legacy" else _UNIFIED_INSTRUCTION


def _key_guidance(
    visible_keys: Sequence[str], allowed_keys: Sequence[str] | None, vocabulary: str
) -> str:
    if allowed_keys is not None:
        if not allowed_keys:
            if vocabulary == "legacy":
                return "No memory key may be written here; treat the entries above as read-only."
            return (
                "No address under context://memory/ may be written here; "
                "treat the entries above as read-only."
            )
        listed = ", ".join(_quote_key(k) for k in allowed_keys)
        if vocabulary == "legacy":
            return f"Only these memory keys may be written: {listed}. Any other key is refused."
        return (
            f"Only these keys may be written under context://memory/: {listed}. "
            "Any other key is refused."
        )
    listed = ", ".join(_quote_key(k) for k in visible_keys)
    if vocabulary == "legacy":
        return (
            f"Keys already in use: {listed}. Update one of these with modify_memory "
            "rather than creating a near-duplicate."
        )
    return (
        f"Keys already in use: {listed}. Edit context://memory/<key> for one of these "
        "rather than creating a near-duplicate."
    )


_RENDERED: dict[int, tuple[MemoryEntry, str]] = {}
_RENDERED_LIMIT = 100_000


def _render_entry(entry: MemoryEntry) -> str:
    # Entries are immutable and reused across compiles (see `MemoryEntry.from_stored`), so
    # the text of an unchanged entry is kept; holding the entry keeps its id from being reused.
    cached = _RENDERED.get(id(entry))
    if cached is not None and cached[0] is entry:
        return cached[1]
    text = _format_entry(entry)
    if len(_RENDERED) >= _RENDERED_LIMIT:
        _RENDERED.clear()
    _RENDERED[id(entry)] = (entry, text)
    return text


def _format_entry(entry: MemoryEntry) -> str:
    opening = f'<entry key="{_attr(entry.key)}" version="{entry.version}"'
    if entry.type is not None:
        opening += f' type="{_attr(entry.type)}"'
    lines = [opening + ">"]
    # Multi-line fields sit on their own lines; the parser strips exactly these newlines.
    if entry.description is not None:
        lines.append(f"<description>\n{_text(entry.description)}\n</description>")
    lines.append(f"<updated_at>{_format_millis(entry.updated_at)}</updated_at>")
    lines.append(f"<update_count>{entry.update_count}</update_count>")
    lines.append(f"<value>\n{_text(entry.value)}\n</value>")
    lines.append("</entry>")
    return "\n".join(lines)


def _index_hint(vocabulary: str) -> str:
    if vocabulary == "legacy":
        return (
            "Entries in <memory_index> are stored but shown without their value; call "
            "recall_memory with a key to read one in full before relying on it."
        )
    return (
        "Entries in <memory_index> are stored but shown without their value; view "
        "context://memory/<key> with the context tool to read one in full before relying on it."
    )


def _unlisted_line(count: int, vocabulary: str) -> str:
    noun = "entry is" if count == 1 else "entries are"
    line = f"{count} more stored {noun} not shown here, to keep this block short."
    if vocabulary == "unified":
        line += " Search or list them with the context tool under context://memory/."
    return line


def _evicted_line(keys: Sequence[str]) -> str:
    listed = ", ".join(_quote_key(k) for k in keys)
    return (
        f"Removed since your last turn to keep memory within its size limit, and no longer "
        f"stored: {listed}."
    )


def _indexed_guidance(vocabulary: str) -> str:
    if vocabulary == "legacy":
        return (
            "Keys already in use: those of the entries above and in <memory_index>. Update "
            "one of these with modify_memory rather than creating a near-duplicate."
        )
    return (
        "Keys already in use: those of the entries above and in <memory_index>. Edit "
        "context://memory/<key> for one of these rather than creating a near-duplicate."
    )


def _render_index_row(entry: MemoryEntry) -> str:
    opening = f'<item key="{_attr(entry.key)}"'
    if entry.type is not None:
        opening += f' type="{_attr(entry.type)}"'
    if not entry.description:
        return opening + "/>"
    return f"{opening}>{_text(entry.description)}</item>"


def render_memory_block(
    entries: Sequence[MemoryEntry],
    *,
    allowed_keys: Sequence[str] | None = None,
    vocabulary: Vocabulary = "legacy",
    index: Sequence[MemoryEntry] = (),
    unlisted: int = 0,
    evicted_keys: Sequence[str] = (),
) -> str:
    """Render entries as the `<memory>` data block: header, XML, notices, key guidance.

    Entries appear in the given order. The key-guidance line lists `allowed_keys` when it is
    not `None` (an empty list says nothing may be written), else the keys of the rendered
    entries (and is left out when no entry is rendered).

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

    Returns:
        The block, or `""` when there is nothing to show.

    Raises:
        ValueError: If `vocabulary` is not `legacy` or `unified`.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        lang = MemoryEntry(key="lang", value="Python", created_at=now, updated_at=now)
        block = render_memory_block([lang])
        assert '<entry key="lang" version="1">' in block
        assert render_memory_block([]) == ""
        pets = lang.evolve(key="pets", type="fact", description="Names of the pets")
        indexed = render_memory_block([lang], index=[pets])
        assert '<item key="pets" type="fact">Names of the pets</item>' in indexed
        ```
    """
    _check_vocabulary(vocabulary)
    if not entries and not index and not unlisted and not evicted_keys:
        return ""
    body = "\n\n".join(_render_entry(entry) for entry in entries)
    element = f"<memory>\n{body}\n</memory>" if body else "<memory>\n</memory>"
    parts = [f"{_HEADERS[vocabulary]}\n{element}"]
    if index:
        rows = "\n".join(_render_index_row(entry) for entry in index)
        parts[0] += f"\n<memory_index>\n{rows}\n</memory_index>"
        parts.append(_index_hint(vocabulary))
    if unlisted:
        parts.append(_unlisted_line(unlisted, vocabulary))
    if evicted_keys:
        parts.append(_evicted_line(evicted_keys))
    if index and allowed_keys is None:
        parts.append(_indexed_guidance(vocabulary))
    elif entries or allowed_keys is not None:
        # With no key shown and any key allowed, there is nothing to guide (no empty list).
        parts.append(_key_guidance([e.key for e in entries], allowed_keys, vocabulary))
    return "\n\n".join(parts)


@dataclass(frozen=True)
class ParsedEntry:
    """One entry read back from a rendered `<memory>` block.

    Attributes:
        key: The entry key.
        value: The remembered text.
        description: The description, or `None` when the block had none.
        type: The memory type, or `None` when the block had none.
        version: The `version` attribute.
        update_count: The `<update_count>` element.
        updated_at: The `<updated_at>` text as rendered (ISO-8601 UTC, milliseconds).
    """

    key: str
    value: str
    description: str | None
    type: str | None
    version: int
    update_count: int
    updated_at: str


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


def _strip_wrapping(text: str | None, field: str) -> str:
    if text is None or len(text) < 2 or text[0] != "\n" or text[-1] != "\n":
        msg = f"The <{field}> element is not in the layout render_memory_block writes."
        raise ValueError(msg)
    return _decode_unrepresentable(text[1:-1])


def _required(element: ET.Element, tag: str, key: str) -> ET.Element:
    child = element.find(tag)
    if child is None:
        msg = f"The entry {key!r} has no <{tag}> element; was the block edited by hand?"
        raise ValueError(msg)
    return child


def parse_memory_block(text: str) -> list[ParsedEntry]:
    r"""Read entries back from text containing a block written by `render_memory_block`.

    The first well-formed `<memory>` element in `text` is parsed with
    `xml.etree.ElementTree` and every escape is reversed, so keys, values and descriptions
    come back exactly as stored.

    Args:
        text: The block itself, or a whole message that contains it.

    Returns:
        The entries in block order.

    Raises:
        ValueError: If there is no `<memory>` element, or an entry lacks a required part.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import parse_memory_block, render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entry = MemoryEntry(key="a\tb", value="x\r\ny", created_at=now, updated_at=now)
        (parsed,) = parse_memory_block("Hi.\n\n" + render_memory_block([entry]))
        assert (parsed.key, parsed.value) == ("a\tb", "x\r\ny")
        ```
    """
    root = _find_memory_element(text)
    parsed: list[ParsedEntry] = []
    for element in root.findall("entry"):
        raw_key = element.get("key")
        if raw_key is None:
            msg = "An <entry> element has no key attribute; was the block edited by hand?"
            raise ValueError(msg)
        key = _decode_unrepresentable(raw_key)
        description_el = element.find("description")
        raw_type = element.get("type")
        parsed.append(
            ParsedEntry(
                key=key,
                value=_strip_wrapping(_required(element, "value", key).text, "value"),
                description=(
                    None
                    if description_el is None
                    else _strip_wrapping(description_el.text, "description")
                ),
                type=None if raw_type is None else _decode_unrepresentable(raw_type),
                version=int(element.get("version", "0")),
                update_count=int(_required(element, "update_count", key).text or "0"),
                updated_at=_required(element, "updated_at", key).text or "",
            )
        )
    return parsed


def _tag(name: str) -> tuple[str, str]:
    """Return a valid XML tag for `name` and the attribute text that keeps the original."""
    if _XML_NAME.fullmatch(name):
        return name, ""
    tag = _NOT_NAME_CHAR.sub("_", name)
    if not tag or not (tag[0].isascii() and (tag[0].isalpha() or tag[0] == "_")):
        tag = "_" + tag
    return tag, f' key="{_attr(name)}"'


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _text(value)
    # Numbers and booleans in JSON spelling (`true`, `1.5`), matching model_dump(mode="json").
    return _text(json.dumps(value))


def _render_node(name: str, value: Any, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    tag, attr = _tag(name)
    if value is None:
        lines.append(f"{pad}<{tag}{attr}/>")
        return
    if isinstance(value, Mapping):
        children: list[tuple[str, Any]] = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        children = [("item", v) for v in value]
    else:
        lines.append(f"{pad}<{tag}{attr}>{_scalar(value)}</{tag}>")
        return
    if not children:
        lines.append(f"{pad}<{tag}{attr}/>")
        return
    lines.append(f"{pad}<{tag}{attr}>")
    for child_name, child_value in children:
        _render_node(child_name, child_value, depth + 1, lines)
    lines.append(f"{pad}</{tag}>")


def render_dynamic_state(
    state: BaseModel | Mapping[str, Any],
    *,
    schema: type[BaseModel] | None = None,
) -> str:
    r"""Render task state as a `<dynamic_state>` XML block.

    Layout rules:

    * a mapping or model becomes one child element per field, in field order;
    * a list becomes one `<item>` child per element;
    * `None`, an empty list and an empty mapping become an empty element (`<name/>`), so the
      model still sees that the field exists;
    * numbers and booleans use their JSON spelling (`true`, `1.5`); text is escaped;
    * a name that is not a valid XML name has its invalid characters replaced by `_` (and
      `_` prepended when it does not start with a letter or `_`); the original name is then
      kept in a `key` attribute, so distinct names stay distinct;
    * nesting is indented two spaces per level.

    Args:
        state: A pydantic model instance or a mapping. Values that are not JSON types
            (datetimes, enums, sets, nested models) are converted as pydantic's JSON mode does.
        schema: When given, `state` is first validated with `schema.model_validate`.

    Returns:
        The block, without a trailing newline.

    Raises:
        pydantic.ValidationError: If `schema` is given and `state` does not match it.
        TypeError: If the state (or a value in it) cannot be converted to JSON types.

    Example:
        ```python
        from langchain_contextchef.render import render_dynamic_state

        xml = render_dynamic_state({"active_file": "auth.py", "todo": ["x", "y"]})
        assert xml == (
            "<dynamic_state>\n"
            "  <active_file>auth.py</active_file>\n"
            "  <todo>\n"
            "    <item>x</item>\n"
            "    <item>y</item>\n"
            "  </todo>\n"
            "</dynamic_state>"
        )
        ```
    """
    if schema is not None:
        state = schema.model_validate(state)
    if isinstance(state, BaseModel):
        data: Any = state.model_dump(mode="json")
    else:
        try:
            data = to_jsonable_python(state)
        except PydanticSerializationError as exc:
            msg = (
                f"The dynamic state cannot be rendered: {exc}. Use JSON-compatible values, "
                "or pass a pydantic model (or schema=) that knows how to serialise them."
            )
            raise TypeError(msg) from exc
    if not isinstance(data, Mapping):
        msg = (
            f"The dynamic state must be a mapping or a pydantic model, got "
            f"{type(state).__name__}; wrap the value in a dict such as {{'state': value}}."
        )
        raise TypeError(msg)
    lines: list[str] = []
    _render_node("dynamic_state", data, 0, lines)
    if len(lines) == 1:  # an empty mapping still gets an open and a close tag
        return "<dynamic_state>\n</dynamic_state>"
    return "\n".join(lines)


def render_implicit_context(text: str) -> str:
    r"""Wrap retrieved or derived context in an `<implicit_context>` block.

    Args:
        text: Free text; markup characters are escaped so it cannot close the block.

    Returns:
        The block, or `""` when `text` is empty.

    Example:
        ```python
        from langchain_contextchef.render import render_implicit_context

        assert (
            render_implicit_context("a < b") == "<implicit_context>\na &lt; b\n</implicit_context>"
        )
        ```
    """
    if not text:
        return ""
    return f"<implicit_context>\n{_text(text)}\n</implicit_context>"
