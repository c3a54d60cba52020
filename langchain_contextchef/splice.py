r"""Splicing rendered memory and task state into a LangChain message list: a pure layout step.

`place` returns the new message list together with what it put where (`Spliced`), so later
steps (the middleware's cache breakpoints) read the layout instead of re-deriving it; `splice`
returns the messages alone. Neither changes the caller's messages or their content lists: a
message that receives text is copied with `model_copy`, so its id, name and extra fields are
kept.

Layout (`S` = leading system messages, `M` = memory instruction message, `D` = dynamic state
system message, `T` = tail text):

* `after_system`: `[S..., M(instruction + block), D?, history...]`, tail without memory;
* `before_history_tail`: `[S..., M(instruction), D?, history...]`, memory block in the tail;
* the tail is appended to the last `HumanMessage`, or sent as a new `HumanMessage` right
  after a trailing `ToolMessage`, or (with no human or tool message at all) inserted after
  the system layer and before any assistant prefill.

`D` only exists with `dynamic_state_placement="system"`; it stays inside the leading system
run because some providers (Anthropic) reject system messages further down.

Example:
    ```python
    from langchain_core.messages import HumanMessage, SystemMessage
    from langchain_contextchef.splice import place

    spliced = place(
        [SystemMessage("You are terse."), HumanMessage("Hi")],
        instruction="Use the memory tools.",
        memory_block="<memory>...</memory>",
        memory_placement="before_history_tail",
    )
    assert spliced.messages[1].content == "Use the memory tools."
    assert spliced.messages[2].content == "Hi\n\n<memory>...</memory>"
    assert (spliced.system_end, spliced.tail.index, spliced.tail.own_message) == (2, 2, False)
    ```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage

from langchain_contextchef._literals import (
    DynamicStatePlacement,
    MemoryPlacement,
    check_literal,
)
from langchain_contextchef.render import ANCHOR_LINE

__all__ = ["SEPARATOR", "Spliced", "Tail", "leading_systems", "place", "splice"]

SEPARATOR = "\n\n"
"""How the parts of the system layer and of the tail are joined."""


@dataclass(frozen=True)
class Tail:
    """The volatile text placed at the end of the conversation, and where it went.

    Attributes:
        index: The position, in `Spliced.messages`, of the message that carries it.
        text: The tail text itself.
        original: The caller's message it was appended to; `None` when the tail is a
            `HumanMessage` of its own.
    """

    index: int
    text: str
    original: BaseMessage | None

    @property
    def own_message(self) -> bool:
        """Whether the tail is a new message of its own (not appended to a user turn)."""
        return self.original is None


@dataclass(frozen=True)
class Spliced:
    """What `place` produced.

    Attributes:
        messages: The new message list.
        system_end: `messages[:system_end]` is the system layer: the caller's leading system
            messages, then the memory and dynamic state system messages.
        tail: The volatile tail, or `None` when nothing was added after the history.
    """

    messages: list[BaseMessage]
    system_end: int
    tail: Tail | None


def leading_systems(messages: Sequence[BaseMessage]) -> int:
    """How many messages at the start of `messages` are `SystemMessage`s."""
    count = 0
    while count < len(messages) and isinstance(messages[count], SystemMessage):
        count += 1
    return count


def _join(*parts: str | None) -> str:
    return SEPARATOR.join(p for p in parts if p)


def _append_to_human(message: BaseMessage, tail: str) -> BaseMessage:
    content = message.content
    if isinstance(content, str):
        new_content: str | list[str | dict[str, object]] = (
            content + SEPARATOR + tail if content else tail
        )
    else:
        # A fresh list: the caller's content list must stay as it was.
        new_content = [*content, {"type": "text", "text": tail}]
    return message.model_copy(update={"content": new_content})


def place(
    messages: Sequence[BaseMessage],
    *,
    instruction: str | None,
    memory_block: str = "",
    dynamic_state: str = "",
    implicit_context: str = "",
    memory_placement: MemoryPlacement = "after_system",
    dynamic_state_placement: DynamicStatePlacement = "last_user",
) -> Spliced:
    r"""Place rendered memory, dynamic state and implicit context into `messages`.

    Tail text is the `"\n\n"`-join of the non-empty parts, in this order: the memory block
    (`before_history_tail` only), dynamic state and implicit context (`last_user` only), and
    `ANCHOR_LINE` when dynamic state or implicit context is in the tail. Memory alone never
    adds the anchor.

    Args:
        messages: The conversation; leading `SystemMessage`s form the system prompt.
        instruction: The memory usage instruction, or `None` when memory is not configured.
            When it is set, a memory system message follows the leading system messages.
        memory_block: The rendered `<memory>` block, `""` when nothing is injected.
        dynamic_state: The rendered `<dynamic_state>` block, or `""`.
        implicit_context: The rendered `<implicit_context>` block, or `""`.
        memory_placement: `after_system` puts the block in the memory system message;
            `before_history_tail` keeps only the instruction there (cache-stable) and appends
            the block to the tail.
        dynamic_state_placement: `last_user` appends state to the tail; `system` puts it in a
            system message right after the memory system message.

    Returns:
        The new list and its layout; unchanged messages are the caller's own objects.

    Raises:
        ValueError: If a placement is not one of the documented values.
    """
    check_literal("memory_placement", memory_placement, MemoryPlacement)
    check_literal("dynamic_state_placement", dynamic_state_placement, DynamicStatePlacement)
    memory_on_top = memory_placement == "after_system"
    state_in_tail = dynamic_state_placement == "last_user"

    system_layer: list[BaseMessage] = []
    top_text = _join(instruction, memory_block if memory_on_top else "")
    if top_text:
        system_layer.append(SystemMessage(top_text))
    if not state_in_tail:
        state_text = _join(dynamic_state, implicit_context)
        if state_text:
            system_layer.append(SystemMessage(state_text))

    lead = leading_systems(messages)
    out: list[BaseMessage] = [*messages[:lead], *system_layer, *messages[lead:]]
    system_end = lead + len(system_layer)

    state_parts = [dynamic_state, implicit_context] if state_in_tail else []
    tail = _join(
        "" if memory_on_top else memory_block,
        *state_parts,
        ANCHOR_LINE if any(state_parts) else "",
    )
    if not tail:
        return Spliced(out, system_end, None)

    for index in range(len(out) - 1, -1, -1):
        message = out[index]
        if isinstance(message, HumanMessage):
            out[index] = _append_to_human(message, tail)
            return Spliced(out, system_end, Tail(index, tail, message))
        if isinstance(message, ToolMessage):
            # Earlier turns stay byte-identical; providers accept user text after a tool result.
            out.insert(index + 1, HumanMessage(tail))
            return Spliced(out, system_end, Tail(index + 1, tail, None))
    # No user or tool turn: open one after the system layer, before any assistant prefill.
    out.insert(system_end, HumanMessage(tail))
    return Spliced(out, system_end, Tail(system_end, tail, None))


def splice(
    messages: Sequence[BaseMessage],
    *,
    instruction: str | None,
    memory_block: str = "",
    dynamic_state: str = "",
    implicit_context: str = "",
    memory_placement: MemoryPlacement = "after_system",
    dynamic_state_placement: DynamicStatePlacement = "last_user",
) -> list[BaseMessage]:
    r"""`place`, returning only the messages.

    Example:
        ```python
        from langchain_core.messages import HumanMessage, SystemMessage
        from langchain_contextchef.render import ANCHOR_LINE
        from langchain_contextchef.splice import splice

        out = splice(
            [SystemMessage("sys"), HumanMessage("do it")],
            instruction="Use memory.",
            memory_block="<memory>...</memory>",
            dynamic_state="<dynamic_state/>",
        )
        assert [m.type for m in out] == ["system", "system", "human"]
        assert out[1].content == "Use memory.\n\n<memory>...</memory>"
        assert out[2].content == "do it\n\n<dynamic_state/>\n\n" + ANCHOR_LINE
        ```
    """
    return place(
        messages,
        instruction=instruction,
        memory_block=memory_block,
        dynamic_state=dynamic_state,
        implicit_context=implicit_context,
        memory_placement=memory_placement,
        dynamic_state_placement=dynamic_state_placement,
    ).messages
