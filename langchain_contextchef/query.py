"""The relevance query of a compile, built from the last turns of the conversation.

A follow-up such as "what time does it start?" names nothing; the turns before it do. A
`conversation_query` takes the last few user turns (and, with less weight, what the assistant
said between them), newest first, each with a weight that halves per turn back. Selectors
match keywords against every part with its weight; a store's semantic search embeds one text
(`query_text`), the newest turn first so that truncation cuts the oldest.

Example:
    ```python
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_contextchef.query import conversation_query, query_text

    parts = conversation_query(
        [
            HumanMessage("Let's talk about Lena's swimming lessons."),
            AIMessage("Sure, what would you like to know?"),
            HumanMessage("What time do they start now?"),
        ]
    )
    assert parts[0] == ("What time do they start now?", 1.0)
    assert parts[-1] == ("Let's talk about Lena's swimming lessons.", 0.5)
    assert query_text(parts).startswith("What time do they start now?")
    ```
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

__all__ = ["WeightedQuery", "conversation_query", "query_text"]

WeightedQuery = tuple[tuple[str, float], ...]
"""`(text, weight)` parts, the most important (the last user message) first."""


def _text(message: BaseMessage) -> str:
    return str(message.text).strip()


def conversation_query(
    messages: Sequence[BaseMessage],
    *,
    turns: int = 3,
    decay: float = 0.5,
    assistant_weight: float = 0.0,
) -> WeightedQuery:
    """Build a weighted query from the last `turns` user turns.

    The last user message weighs 1, the user message before it `decay`, the one before that
    `decay**2`, and so on. An assistant message gets `assistant_weight` times the weight of the
    user turn it answered (0 leaves assistant turns out). System and tool messages never count,
    nor do messages without text.

    Args:
        messages: The conversation, oldest first.
        turns: How many user turns to use (1 is the last user message only).
        decay: Weight factor per user turn back, in (0, 1].
        assistant_weight: Weight of an assistant message relative to the user turn before it,
            in [0, 1].

    Returns:
        The parts, newest first; empty when there is no user text.

    Raises:
        ValueError: For `turns` < 1, `decay` outside (0, 1], or `assistant_weight` outside [0, 1].
    """
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        msg = f"turns must be a positive int (1 = the last user message only), got {turns!r}."
        raise ValueError(msg)
    if not 0 < decay <= 1:
        msg = f"decay must be in (0, 1], got {decay!r}."
        raise ValueError(msg)
    if not 0 <= assistant_weight <= 1:
        msg = f"assistant_weight must be in [0, 1], got {assistant_weight!r}."
        raise ValueError(msg)
    parts: list[tuple[str, float]] = []
    pending_assistant: list[str] = []  # assistant text after the user turn being reached
    seen = 0
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            text = _text(message)
            if not text:
                continue
            weight = decay**seen
            parts.append((text, weight))
            if assistant_weight > 0 and seen > 0:
                # Assistant replies to this turn sit between it and the next user turn.
                parts.extend((reply, weight * assistant_weight) for reply in pending_assistant)
            pending_assistant = []
            seen += 1
            if seen >= turns:
                break
        elif isinstance(message, AIMessage):
            text = _text(message)
            if text:
                pending_assistant.append(text)
    parts.sort(key=lambda part: -part[1])  # stable: newest first among equal weights
    return tuple(parts)


def query_text(parts: WeightedQuery, *, max_chars: int = 1_000) -> str:
    r"""The one text to embed for a weighted query: its parts, newest first, cut at `max_chars`.

    Example:
        ```python
        from langchain_contextchef.query import query_text

        assert query_text((("when?", 1.0), ("the dentist", 0.5))) == "when?\nthe dentist"
        ```
    """
    text = "\n".join(part for part, weight in parts if weight > 0 and part)
    return text[:max_chars]
