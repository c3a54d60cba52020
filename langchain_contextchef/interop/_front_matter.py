"""One kagent-ts memory file: front matter fields, a blank line, the memory text as body.

`render_memory_file` writes an entry; `parse_memory_file` reads a file back, tolerantly (no
YAML library: single-line `key: value` fields, quoted strings, `[a, b]` lists). Fields
kagent-ts does not know (`contextchef_type`, `contextchef_value`, `description_full`) carry
what its format cannot hold, so an export read back here loses nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from langchain_contextchef.entry import MemoryEntry, format_time

__all__ = ["KAGENT_TYPES", "body_form", "parse_memory_file", "render_memory_file"]

KAGENT_TYPES: tuple[str, ...] = ("rule", "project", "preference")
"""The memory types kagent-ts accepts; others are written as `project`."""

_FIELD = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_-]*)\s*:\s?(?P<value>.*)$")
_NEEDS_QUOTES = re.compile(
    r"""^[\s"'\[\]{}#&*!|>%@`-]|[:#]\s|\s#|:$|\s$|[\x00-\x1f\x7f\u2028\u2029]"""
)


def _scalar(value: object) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    if text == "" or _NEEDS_QUOTES.search(text) or text.lower() in ("true", "false", "null"):
        # A JSON string is also a valid YAML double-quoted scalar.
        return json.dumps(text, ensure_ascii=False)
    return text


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            loaded = json.loads(text)
        except ValueError:
            return text[1:-1]
        return loaded if isinstance(loaded, str) else text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text


def _split_list(inner: str) -> list[str]:
    items: list[str] = []
    current: list[str] = []
    quote: str | None = None
    escaped = False
    for char in inner:
        if quote is not None:
            current.append(char)
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
            current.append(char)
        elif char == ",":
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return [_unquote(item) for item in items if item.strip()]


def _parse_value(raw: str) -> str | list[str]:
    text = raw.strip()
    if text.startswith("[") and text.endswith("]"):
        return _split_list(text[1:-1])
    if not text.startswith(("'", '"')) and " #" in text:
        text = text.split(" #", 1)[0].rstrip()  # a trailing YAML comment
    return _unquote(text)


def parse_memory_file(text: str) -> tuple[dict[str, str | list[str]], str] | None:
    r"""Split a memory file into its front matter fields and its body.

    Tolerant: a byte-order mark, `\r\n` line ends, blank or `#` comment lines inside the
    front matter, quoted strings (double or single), `[a, b]` lists and trailing comments are
    understood; lines that are not `key: value` are ignored. No YAML library is needed.

    Args:
        text: The file's contents.

    Returns:
        `(fields, body)` with the body stripped of surrounding whitespace, or `None` when the
        text does not open with a `---` front matter block.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    fields: dict[str, str | list[str]] = {}
    for index in range(1, len(lines)):
        line = lines[index]
        if line.strip() == "---":
            return fields, "\n".join(lines[index + 1 :]).strip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _FIELD.match(line.strip())
        if match is not None:
            fields[match.group("name").lower()] = _parse_value(match.group("value"))
    return None  # no closing fence


def body_form(text: str) -> str:
    r"""The text as a file body holds it: `\n` line ends, no surrounding white space."""
    return text.replace("\r\n", "\n").strip()


def render_memory_file(entry: MemoryEntry, *, supersedes: Sequence[str] = ()) -> str:
    """Render one entry as a kagent-ts memory file (front matter, blank line, body).

    Args:
        entry: The entry to render.
        supersedes: Keys this entry replaced, added to the entry's own `supersedes`.

    Returns:
        The file's text.
    """
    kind = entry.type if entry.type in KAGENT_TYPES else "project"
    fields: list[tuple[str, object]] = [
        ("name", entry.key),
        ("description", " ".join((entry.description or "").split())),
        ("type", kind),
    ]
    if entry.type != kind:
        fields.append(("contextchef_type", entry.type or ""))
    if entry.value != body_form(entry.value):
        # The body cannot carry surrounding whitespace or bare CRs; the exact text rides here.
        fields.append(("contextchef_value", entry.value))
    if entry.description is not None and entry.description != fields[1][1]:
        # The index needs one line; the exact text travels here.
        fields.append(("description_full", entry.description))
    fields += [
        ("created", format_time(entry.created_at)),
        ("updated", format_time(entry.updated_at)),
        ("update_count", entry.update_count),
    ]
    if entry.importance is not None:
        fields.append(("importance", entry.importance))
    if entry.status != "active":
        fields.append(("status", entry.status))
    provenance = entry.provenance
    if provenance is not None:
        fields.append(("written_by", provenance.written_by))
        for name in ("source", "confidence", "sensitivity", "tool_call_id"):
            value = getattr(provenance, name)
            if value is not None:
                fields.append((name, value))
        if provenance.observed_at is not None:
            fields.append(("observed_at", format_time(provenance.observed_at)))
    lines = ["---", *(f"{name}: {_scalar(value)}" for name, value in fields)]
    supersedes = list(dict.fromkeys([*entry.supersedes, *supersedes]))
    if supersedes:
        lines.append(f"supersedes: [{', '.join(_scalar(key) for key in supersedes)}]")
    lines += ["---", "", body_form(entry.value), ""]
    return "\n".join(lines)
