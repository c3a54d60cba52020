"""`ContextChefPrompt`: a compiler (a `ContextChef`) as a LangChain prompt runnable.

The runnable only unpacks its input, calls the compiler and emits the compile's meta as a
trace event; the pipeline itself lives in `compile`, and the pure message layout in
`splice` (re-exported here, where it was first published).

Example:
    ```python
    from langchain_core.messages import HumanMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef

    chef = ContextChef(store=InMemoryStore())
    chef.get_memory().set("lang", "Python")
    prompt = chef.prompt.invoke("Which language?")
    assert "Python" in prompt.to_messages()[0].text
    ```
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

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
    convert_to_messages,
)
from langchain_core.prompt_values import ChatPromptValue, PromptValue
from langchain_core.runnables import Runnable, RunnableConfig, ensure_config

from langchain_contextchef._literals import DynamicStatePlacement, MemoryPlacement
from langchain_contextchef.compile import CompileMeta, Compiler
from langchain_contextchef.splice import splice

__all__ = ["ContextChefPrompt", "DynamicStatePlacement", "MemoryPlacement", "PromptInput", "splice"]


PromptInput: TypeAlias = (
    "PromptValue | Sequence[MessageLikeRepresentation] | Mapping[str, Any] | str"
)
"""What the prompt runnable accepts: messages, a `PromptValue`, or a `{"messages": [...]}` state."""


class ContextChefPrompt(Runnable[Any, ChatPromptValue]):
    """A compiler (a `ContextChef`) as a LangChain prompt step: memory read -> render -> splice.

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

    def __init__(self, chef: Compiler, *, name: str | None = None) -> None:
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
    event = dataclasses.asdict(meta)
    return {**event, "scope": list(meta.scope), "omitted": dict(meta.omitted)}


def _emit_meta(meta: CompileMeta) -> None:
    dispatch_custom_event("contextchef_compile", _meta_event(meta))


async def _aemit_meta(meta: CompileMeta) -> None:
    await adispatch_custom_event("contextchef_compile", _meta_event(meta))
