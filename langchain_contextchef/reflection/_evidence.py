"""Matching what a candidate claims against what was said: keys and evidence quotes.

`normalise_key` decides when two spellings name the same memory; `find_source` finds the
message an evidence quote was copied from (comparison ignores case and runs of white space);
`source_of` turns that into the `source` a written entry's provenance records.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

__all__ = ["find_source", "normalise_key", "source_of"]

_NON_WORD = re.compile(r"[^0-9a-z]+")
_SPACE = re.compile(r"\s+")
_SOURCE_QUOTE_CHARS = 200


def normalise_key(key: str) -> str:
    """Fold a key for duplicate detection: lower case, runs of other characters become `-`.

    Example:
        ```python
        from langchain_contextchef.reflection import normalise_key

        assert normalise_key("Preferred Language") == normalise_key("preferred_language")
        ```
    """
    return _NON_WORD.sub("-", key.casefold()).strip("-")


def _fold_text(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip()


def find_source(
    evidence: str, messages: Sequence[BaseMessage], roles: Sequence[str]
) -> BaseMessage | None:
    """Return the message holding the evidence (in an allowed role), or None."""
    quote = _fold_text(evidence)
    if not quote:
        return None
    for message in messages:
        if message.type in roles and quote in _fold_text(message.text):
            return message
    return None


def source_of(evidence: str, message: BaseMessage | None) -> str | None:
    """The provenance `source`: the source message's id when it has one, else the quote."""
    if message is not None and message.id:
        return f"message:{message.id}"
    return evidence.strip()[:_SOURCE_QUOTE_CHARS] or None
