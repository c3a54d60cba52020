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
* the tail is a content block of its own at the end of the last `HumanMessage` (the user's
  own content stays in the blocks before it, so a cache breakpoint can sit on them), or a
  new `HumanMessage` right after a trailing `ToolMessage`, or (with no human or tool message
  at all) a new `HumanMessage` after the system layer and before any assistant prefill.

`D` only exists with `dynamic_state_placement="system"`; it stays inside the leading system
run because some providers (Anthropic) reject system messages further down. With
`system_layout="merged"` the whole system layer is one message: the developer's first system
message with `M` and `D` joined to it (text joined with a blank line when every part is a
string, content blocks otherwise), for chat templates that accept a single system message.

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
    assert spliced.messages[2].content == [
        {"type": "text", "text": "Hi"},
        {"type": "text", "text": "<memory>...</memory>"},
    ]
    assert (spliced.system_end, spliced.tail.index, spliced.tail.block) == (2, 2, 1)
    assert spliced.tail.stable_block == 0  # the user's own "Hi"
    ```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage

from langchain_contextchef._literals import (
    DynamicStatePlacement,
    MemoryPlacement,
    SystemLayout,
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
        block: Where the tail is in the content blocks of `messages[index]` when it was
            appended to a user message (always the last block); `None` when the tail is a
            message of its own.
    """

    index: int
    text: str
    original: BaseMessage | None
    block: int | None = None

    @property
    def own_message(self) -> bool:
        """Whether the tail is a new message of its own (not appended to a user turn)."""
        return self.original is None

    @property
    def stable_block(self) -> int | None:
        """The user's own content block just before the tail, where a breakpoint can sit.

        `None` when the tail is a message of its own or the user's content was empty.
        """
        if self.block is None or self.block == 0:
            return None
        return self.block - 1


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


def _blocks(content: str | list[str | dict[str, Any]]) -> list[str | dict[str, Any]]:
    # Always a fresh list: the caller's content list must stay as it was.
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content)


def _append_to_human(message: BaseMessage, tail: str) -> tuple[BaseMessage, int]:
    # The tail is a block of its own, never concatenated into the user's text: the user's
    # blocks then end where the volatile part starts, which is where a breakpoint can sit.
    blocks = _blocks(message.content)
    blocks.append({"type": "text", "text": tail})
    return message.model_copy(update={"content": blocks}), len(blocks) - 1


def _merge(run: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The system layer as one message: the first's id and fields, every part's content."""
    if len(run) < 2:
        return list(run)
    contents = [m.content for m in run]
    if all(isinstance(c, str) for c in contents):
        merged: str | list[str | dict[str, Any]] = SEPARATOR.join(str(c) for c in contents if c)
    else:
        merged = [block for content in contents for block in _blocks(content)]
    return [run[0].model_copy(update={"content": merged})]


def place(
    messages: Sequence[BaseMessage],
    *,
    instruction: str | None,
    memory_block: str = "",
    dynamic_state: str = "",
    implicit_context: str = "",
    memory_placement: MemoryPlacement = "after_system",
    dynamic_state_placement: DynamicStatePlacement = "last_user",
    system_layout: SystemLayout = "separate",
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
        system_layout: `separate` keeps the memory (and state) system messages apart from
            the developer's; `merged` joins the whole system layer into one message.

    Returns:
        The new list and its layout; unchanged messages are the caller's own objects.

    Raises:
        ValueError: If a placement is not one of the documented values.
    """
    check_literal("memory_placement", memory_placement, MemoryPlacement)
    check_literal("dynamic_state_placement", dynamic_state_placement, DynamicStatePlacement)
    check_literal("system_layout", system_layout, SystemLayout)
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
    system_run = [*messages[:lead], *system_layer]
    if system_layout == "merged" and system_layer:
        system_run = _merge(system_run)
    out: list[BaseMessage] = [*system_run, *messages[lead:]]
    system_end = len(system_run)

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
            out[index], block = _append_to_human(message, tail)
            return Spliced(out, system_end, Tail(index, tail, message, block))
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
    system_layout: SystemLayout = "separate",
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
        assert out[2].content == [
            {"type": "text", "text": "do it"},
            {"type": "text", "text": "<dynamic_state/>\n\n" + ANCHOR_LINE},
        ]
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
        system_layout=system_layout,
    ).messages
