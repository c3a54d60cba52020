r"""Splicing rendered memory and task state into a LangChain message list.

`splice` is pure: it returns a new list and never changes the caller's messages or their
content lists. A message that receives text is copied with `model_copy`, so its id, name and
extra fields are kept.

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
    from langchain_contextchef.prompt import splice

    out = splice(
        [SystemMessage("You are terse."), HumanMessage("Hi")],
        instruction="Use the memory tools.",
        memory_block="<memory>...</memory>",
        memory_placement="before_history_tail",
    )
    assert out[1].content == "Use the memory tools."
    assert out[2].content == "Hi\n\n<memory>...</memory>"
    ```
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, get_args

from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
    adispatch_custom_event,
    dispatch_custom_event,
)
from langchain_core.messages import (
    BaseMessage,
    HumanMessage,
    MessageLikeRepresentation,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.prompt_values import ChatPromptValue, PromptValue
from langchain_core.runnables import Runnable, RunnableConfig, ensure_config

from langchain_contextchef.memory import MemoryPlacement
from langchain_contextchef.render import ANCHOR_LINE

if TYPE_CHECKING:
    from langchain_contextchef.chef import CompileMeta, ContextChef

__all__ = ["ContextChefPrompt", "DynamicStatePlacement", "MemoryPlacement", "PromptInput", "splice"]


DynamicStatePlacement: TypeAlias = Literal["last_user", "system"]
"""Where dynamic state and implicit context go: the conversation tail, or the system layer."""

_SEPARATOR = "\n\n"


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        msg = f"Unknown {name} {value!r}: pass one of {choices}."
        raise ValueError(msg)


def _join(*parts: str | None) -> str:
    return _SEPARATOR.join(p for p in parts if p)


def _append_to_human(message: BaseMessage, tail: str) -> BaseMessage:
    content = message.content
    if isinstance(content, str):
        new_content: str | list[str | dict[str, object]] = (
            content + _SEPARATOR + tail if content else tail
        )
    else:
        # A fresh list: the caller's content list must stay as it was.
        new_content = [*content, {"type": "text", "text": tail}]
    return message.model_copy(update={"content": new_content})


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
        A new list; unchanged messages are the caller's own objects.

    Raises:
        ValueError: If a placement is not one of the documented values.

    Example:
        ```python
        from langchain_core.messages import HumanMessage, SystemMessage
        from langchain_contextchef.prompt import splice
        from langchain_contextchef.render import ANCHOR_LINE

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
    _check_choice("memory_placement", memory_placement, get_args(MemoryPlacement))
    _check_choice(
        "dynamic_state_placement", dynamic_state_placement, get_args(DynamicStatePlacement)
    )
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

    lead = 0
    while lead < len(messages) and isinstance(messages[lead], SystemMessage):
        lead += 1
    out: list[BaseMessage] = [*messages[:lead], *system_layer, *messages[lead:]]

    state_parts = [dynamic_state, implicit_context] if state_in_tail else []
    tail = _join(
        "" if memory_on_top else memory_block,
        *state_parts,
        ANCHOR_LINE if any(state_parts) else "",
    )
    if not tail:
        return out

    for index in range(len(out) - 1, -1, -1):
        message = out[index]
        if isinstance(message, HumanMessage):
            out[index] = _append_to_human(message, tail)
            return out
        if isinstance(message, ToolMessage):
            # Earlier turns stay byte-identical; providers accept user text after a tool result.
            out.insert(index + 1, HumanMessage(tail))
            return out
    # No user or tool turn: open one after the system layer, before any assistant prefill.
    out.insert(lead + len(system_layer), HumanMessage(tail))
    return out


PromptInput: TypeAlias = (
    "PromptValue | Sequence[MessageLikeRepresentation] | Mapping[str, Any] | str"
)
"""What the prompt runnable accepts: messages, a `PromptValue`, or a `{"messages": [...]}` state."""


class ContextChefPrompt(Runnable[Any, ChatPromptValue]):
    """A `ContextChef` as a LangChain prompt step: memory read -> render -> splice.

    Use it at the head of an LCEL chain or as the prompt step of a LangGraph node. It is
    traced as a prompt run; memory changes during the compile (expiries) appear in the trace as
    custom events, and the compile's meta is dispatched as a `contextchef_compile` event.

    Input: a list of messages, a `PromptValue`, a string (one user message), or a mapping with
    `messages` (LangGraph state) and optionally `dynamic_state`. Output: a `ChatPromptValue`.
    The run's `config["configurable"]` (or the LangGraph runtime context) fills scope templates.

    Example:
        ```python
        from langchain_core.language_models import GenericFakeChatModel
        from langchain_core.messages import AIMessage, HumanMessage
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import ContextChef

        chef = ContextChef(store=InMemoryStore())
        chef.get_memory().set("lang", "Python")
        model = GenericFakeChatModel(messages=iter([AIMessage("ok")]))
        chain = chef.prompt | model
        assert chain.invoke([HumanMessage("Which language?")]).content == "ok"
        prompt = chef.prompt.invoke({"messages": [HumanMessage("Which language?")]})
        assert "Python" in prompt.to_messages()[0].text
        ```
    """

    def __init__(self, chef: ContextChef, *, name: str | None = None) -> None:
        self.chef = chef
        self.name = name or "ContextChefPrompt"

    @property
    def InputType(self) -> Any:
        """The accepted input types."""
        return PromptInput

    @property
    def OutputType(self) -> Any:
        """The output type."""
        return ChatPromptValue

    @staticmethod
    def _unpack(value: Any) -> tuple[list[BaseMessage], Any]:
        if isinstance(value, PromptValue):
            return value.to_messages(), None
        if isinstance(value, str):
            return [HumanMessage(value)], None
        if isinstance(value, Mapping):
            if "messages" not in value:
                msg = (
                    "ContextChefPrompt got a mapping without 'messages'. Pass a message list, a "
                    "PromptValue, or a state such as {'messages': [...], 'dynamic_state': {...}}."
                )
                raise ValueError(msg)
            return convert_to_messages(value["messages"]), value.get("dynamic_state")
        if isinstance(value, Sequence):
            return convert_to_messages(value), None
        msg = f"ContextChefPrompt cannot read a {type(value).__name__}; pass messages."
        raise TypeError(msg)

    def _format(
        self, value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig
    ) -> ChatPromptValue:
        messages, state = self._unpack(value)
        payload = self.chef.compile(messages, dynamic_state=state, config=config)
        _emit_meta(payload.meta)
        return ChatPromptValue(messages=payload.messages)

    async def _aformat(
        self, value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> ChatPromptValue:
        messages, state = self._unpack(value)
        payload = await self.chef.acompile(messages, dynamic_state=state, config=config)
        await _aemit_meta(payload.meta)
        return ChatPromptValue(messages=payload.messages)

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> ChatPromptValue:
        """Compile `input` into a `ChatPromptValue`, traced as a prompt run."""
        return self._call_with_config(self._format, input, ensure_config(config), run_type="prompt")

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> ChatPromptValue:
        """Async `invoke`."""
        return await self._acall_with_config(
            self._aformat, input, ensure_config(config), run_type="prompt"
        )


def _meta_event(meta: CompileMeta) -> dict[str, Any]:
    # Every meta field, so traces show what was left out and the tokens per layer too.
    return {**dataclasses.asdict(meta), "scope": list(meta.scope)}


def _emit_meta(meta: CompileMeta) -> None:
    dispatch_custom_event("contextchef_compile", _meta_event(meta))


async def _aemit_meta(meta: CompileMeta) -> None:
    await adispatch_custom_event("contextchef_compile", _meta_event(meta))
