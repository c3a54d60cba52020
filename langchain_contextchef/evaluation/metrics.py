r"""Pure metric functions: what a compile injected, how big it is, and how it scores.

Everything here reads the prompt text, not `CompileMeta`: a chef that reports the right keys
but renders someone else's values is still caught. No I/O, no clock.

Example:
    ```python
    from langchain_core.messages import HumanMessage, SystemMessage
    from langchain_contextchef.evaluation.metrics import (
        find_leaks,
        injected_text,
        memory_part,
        relevance,
    )

    before = [HumanMessage("Hi")]
    block = '<memory>\n<entry key="city" version="1">\n<updated_at>x</updated_at>\n'
    block += "<update_count>1</update_count>\n<value>\nLisbon\n</value>\n</entry>\n</memory>"
    after = [SystemMessage("Memory:\n" + block), before[0]]
    added = injected_text(before, after)
    assert memory_part(added) == block
    assert find_leaks(added, ["Lisbon", "Denver"]) == ["Lisbon"]
    score = relevance({"city": "Lisbon"}, {"city": "Lisbon", "lang": None})
    assert (score.precision, score.recall) == (1.0, 0.5)
    ```
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.messages.utils import count_tokens_approximately

from langchain_contextchef.render import parse_memory_block

__all__ = [
    "Relevance",
    "find_leaks",
    "injected_entries",
    "injected_text",
    "memory_part",
    "memory_tokens",
    "ratio",
    "relevance",
]

_OPEN = "<memory>"
_CLOSE = "</memory>"


def injected_text(before: Sequence[BaseMessage], after: Sequence[BaseMessage]) -> str:
    """Return the text a compile added to the caller's messages.

    `ContextChef.compile` keeps unchanged messages as the caller's own objects, inserts new
    messages (the memory system message, a new user turn after a tool result) and appends to
    the last user turn. New messages count whole; an extended message counts from the end of
    its original text. The caller's own conversation is therefore never mistaken for
    injected memory, even when it quotes a secret.

    Args:
        before: The messages given to the compile.
        after: The compiled messages.

    Returns:
        The added parts, joined with blank lines, in prompt order.
    """
    kept = {id(m) for m in after}
    changed = [m for m in before if id(m) not in kept]
    originals = {id(m) for m in before}
    parts: list[str] = []
    for message in after:
        if id(message) in originals:
            continue
        text = str(message.text)
        for original in changed:
            if type(original) is type(message) and text.startswith(original.text):
                changed.remove(original)
                text = text[len(original.text) :]
                break
        if text.strip():
            parts.append(text.strip())
    return "\n\n".join(parts)


def memory_part(text: str) -> str:
    """Return the `<memory>...</memory>` element inside `text`, or `""` when there is none.

    Rendered values escape `<`, so the first opening and the first closing tag after it
    bound the block.

    Args:
        text: Usually the output of `injected_text`.
    """
    start = text.find(_OPEN)
    if start == -1:
        return ""
    end = text.find(_CLOSE, start)
    if end == -1:
        return ""
    return text[start : end + len(_CLOSE)]


def memory_tokens(part: str) -> int:
    """Approximate tokens of a memory part, with LangChain's `count_tokens_approximately`.

    The text is counted as one message without the per-message overhead, so an empty part
    counts as 0.

    Args:
        part: A memory block (see `memory_part`).
    """
    if not part:
        return 0
    return count_tokens_approximately(
        [HumanMessage(part)], extra_tokens_per_message=0, count_name=False
    )


def injected_entries(part: str) -> dict[str, str]:
    """Parse a memory part into `{key: value}`, in block order; `{}` for an empty part.

    Args:
        part: A memory block (see `memory_part`).

    Raises:
        ValueError: If the block is present but malformed.
    """
    if not part:
        return {}
    return {entry.key: entry.value for entry in parse_memory_block(part)}


def find_leaks(text: str, never: Iterable[str], values: Iterable[str] = ()) -> list[str]:
    """Return the labelled strings found in injected text or in parsed memory values.

    Raw text catches leaks outside the memory block (dynamic state, retrieved context);
    parsed values catch strings whose markup characters the renderer escaped.

    Args:
        text: Injected text (see `injected_text`).
        never: Strings that must not appear for this principal.
        values: Values parsed from the memory block (see `injected_entries`).

    Returns:
        The labelled strings that appear, in label order, without duplicates.
    """
    decoded = list(values)
    found: list[str] = []
    for label in never:
        if label in found:
            continue
        if label in text or any(label in value for value in decoded):
            found.append(label)
    return found


@dataclass(frozen=True)
class Relevance:
    """How injected entries match one turn's labels (or a sum of turns).

    Attributes:
        true_positives: Injected entries that were expected (key, and value when labelled).
        injected: How many entries were injected.
        expected: How many entries the labels asked for.
    """

    true_positives: int = 0
    injected: int = 0
    expected: int = 0

    @property
    def precision(self) -> float | None:
        """Share of injected entries that were expected; `None` when nothing was injected."""
        return ratio(self.true_positives, self.injected)

    @property
    def recall(self) -> float | None:
        """Share of expected entries that were injected; `None` when nothing was expected."""
        return ratio(self.true_positives, self.expected)

    def __add__(self, other: Relevance) -> Relevance:
        return Relevance(
            self.true_positives + other.true_positives,
            self.injected + other.injected,
            self.expected + other.expected,
        )


def relevance(injected: Mapping[str, str], expected: Mapping[str, str | None]) -> Relevance:
    """Score injected entries against relevance labels.

    An injected entry is a true positive when its key is labelled and the label is `None`
    (any value) or equal to the injected value. A stale value therefore costs both precision
    (it was injected) and recall (the current value was not).

    Args:
        injected: `{key: value}` read back from the prompt.
        expected: `{key: value or None}` from the turn's labels.

    Example:
        ```python
        from langchain_contextchef.evaluation.metrics import relevance

        stale = relevance({"city": "Brisbane"}, {"city": "Sydney"})
        assert (stale.precision, stale.recall) == (0.0, 0.0)
        ```
    """
    hits = sum(
        1 for key, value in injected.items() if key in expected and expected[key] in (None, value)
    )
    return Relevance(hits, len(injected), len(expected))


def ratio(numerator: int, denominator: int) -> float | None:
    """`numerator / denominator`, or `None` when the denominator is 0 (nothing to measure)."""
    return numerator / denominator if denominator else None
