"""Escaping for the rendered blocks: any stored text, written so it cannot leave its element.

Markup characters are escaped, carriage returns (and, inside attributes, tabs and newlines)
become character references, and the characters XML 1.0 cannot carry at all (most C0
controls, U+FFFE, U+FFFF, lone surrogates) are written as `␛{XXXX}` with four upper-case hex
digits. The marker `␛` (U+241B) is itself written as `␛{241B}`, so the encoding is injective
and `decode` restores the original text exactly. Ordinary text, apostrophes, tabs and
newlines in element text stay readable.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime, timezone

__all__ = [
    "decode",
    "escape_attribute",
    "escape_text",
    "format_millis",
    "format_minute",
    "quote_key",
    "unescape",
]

# The one character whose presence starts an escape sequence; see the module docstring.
_MARK = "\u241b"
# Characters XML 1.0 cannot hold even as character references, plus the marker itself.
_UNREPRESENTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u241b]")
_ESCAPED = re.compile("\u241b\\{([0-9A-F]{4})\\}")
_JSON_ESCAPED = re.compile("[<>\ud800-\udfff]")


def _encode_unrepresentable(text: str) -> str:
    return _UNREPRESENTABLE.sub(lambda m: f"{_MARK}{{{ord(m.group()):04X}}}", text)


def decode(text: str) -> str:
    """Undo the `␛{XXXX}` encoding of an element's text or attribute, once XML has parsed it."""
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def unescape(text: str) -> str:
    r"""Undo what `escape_text` / `escape_attribute` add beyond XML, once XML has parsed it.

    Use it in the reader of a custom format (`parse_memory_block(..., read_entries=...)`) on
    every text and attribute it reads, so stored text comes back exactly.

    Example:
        ```python
        import xml.etree.ElementTree as ET
        from langchain_contextchef.render import escape_text, unescape

        stored = "bell \x07 and </memory>"
        element = ET.fromstring(f"<fact>{escape_text(stored)}</fact>")
        assert unescape(element.text or "") == stored
        ```
    """
    return decode(text)


def escape_text(text: str) -> str:
    """Escape any text for an XML text node, keeping ordinary text readable.

    Use it in a custom entry renderer (`MemoryConfig(memory_format=...)`) for every stored
    field written as element text: the result cannot close the element it is in.

    Example:
        ```python
        from langchain_contextchef.render import escape_text

        assert escape_text("a < b & </memory>") == "a &lt; b &amp; &lt;/memory>"
        ```
    """
    out = _encode_unrepresentable(text).replace("&", "&amp;").replace("<", "&lt;")
    # `]]>` is the only place `>` must be escaped; a raw \r would be normalised to \n.
    return out.replace("]]>", "]]&gt;").replace("\r", "&#13;")


def escape_attribute(text: str) -> str:
    r"""Escape any text for a double-quoted XML attribute (whitespace survives parsing).

    Example:
        ```python
        from langchain_contextchef.render import escape_attribute

        assert escape_attribute('say "hi"\n') == "say &quot;hi&quot;&#10;"
        ```
    """
    out = _encode_unrepresentable(text).replace("&", "&amp;").replace("<", "&lt;")
    out = out.replace('"', "&quot;")
    return out.replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")


def format_millis(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds; a naive datetime is taken as UTC."""
    # A naive datetime is taken as UTC so the output never depends on the machine's zone.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    utc = moment.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def format_minute(moment: datetime) -> str:
    """ISO-8601 UTC to the minute (`2026-05-25T10:00Z`); a naive datetime is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%MZ")


@functools.lru_cache(maxsize=65_536)
def quote_key(key: str) -> str:
    """A key quoted for prose: JSON quoting, with markup and lone surrogates as JSON escapes."""
    # JSON quoting keeps keys with commas, quotes or controls unambiguous in prose. Angle
    # brackets and lone surrogates use JSON escapes too, so no stored text puts markup next
    # to the block and the message still encodes as UTF-8.
    quoted = json.dumps(key, ensure_ascii=False)
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)
