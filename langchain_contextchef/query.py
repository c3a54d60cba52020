"""The relevance query of a compile, built from the last turns of the conversation.

A follow-up such as "what time does it start?" names nothing; the turns before it do. A
`conversation_query` takes the last few user turns (and, with less weight, what the assistant
said between them), newest first, each with a weight that halves per turn back. Each part is
scored on its own, keyword and semantic alike (the compile sends one semantic search per part
in one store batch), and the scores are added with the parts' weights (`fuse_part_scores`),
so two unrelated turns cannot drown the question while a follow-up that names nothing still
finds its subject in the turn before. `query_text` joins the parts into one text for callers
that can only embed one.

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

import re
from collections.abc import Mapping, Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

__all__ = [
    "WeightedQuery",
    "conversation_query",
    "fuse_part_scores",
    "query_text",
    "question_facets",
]

WeightedQuery = tuple[tuple[str, float], ...]
"""`(text, weight)` parts, the most important (the last user message) first."""

_CLAUSE = re.compile(r"[,;:?!]+|\s+-+\s+|\s+(?:and|&|plus|as well as)\s+", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")


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


def question_facets(text: str) -> tuple[str, ...]:
    """The parts of a question that asks for several things; `()` when it asks for one.

    A question is cut at commas, colons, semicolons, question marks, dashes and "and"; the
    pieces with at least two words (or one long one) are its facets, when there are two or
    more.

    Example:
        ```python
        from langchain_contextchef.query import question_facets

        assert question_facets("Admission form: home address, GP practice and allergies.") == (
            "Admission form",
            "home address",
            "GP practice",
            "allergies.",
        )
        assert question_facets("When is the dentist appointment?") == ()
        ```
    """
    pieces = [p.strip() for p in _CLAUSE.split(text)]
    kept = [p for p in pieces if len(_WORD.findall(p)) >= 2 or len(p) >= 6]
    return tuple(kept) if len(kept) >= 2 else ()


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


def fuse_part_scores(scored: Sequence[tuple[Mapping[str, float], float]]) -> dict[str, float]:
    """Add each part's similarity scores with the part's weight (a weighted mean).

    Raw similarities are added, not rescaled per part: a part that is close to nothing (a
    bare "and her?") adds about the same to every entry and so does not reorder them, while
    a part with a clear match lifts it. A key a part's search did not return (it was past
    the search's limit) gets that part's lowest returned score.

    Args:
        scored: `(key -> similarity, weight)` per part.

    Returns:
        Key -> fused similarity, for every key some part returned.

    Example:
        ```python
        from langchain_contextchef.query import fuse_part_scores

        fused = fuse_part_scores([({"a": 0.8, "b": 0.2}, 1.0), ({"b": 0.9, "c": 0.1}, 0.5)])
        assert max(fused, key=fused.get) == "a"
        ```
    """
    parts = [(scores, weight) for scores, weight in scored if scores and weight > 0]
    total = sum(weight for _, weight in parts)
    if not total:
        return {}
    floors = [min(scores.values()) for scores, _ in parts]
    keys = {key for scores, _ in parts for key in scores}
    return {
        key: sum(
            weight * scores.get(key, floor)
            for (scores, weight), floor in zip(parts, floors, strict=True)
        )
        / total
        for key in keys
    }
