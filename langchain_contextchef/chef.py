"""`ContextChef`: the facade that compiles prompts with memory and dispatches memory tools.

Data flows one way: store -> `Memory` (sweep, advance, select) -> render -> splice. The chef
holds what is fixed at construction (store, scope, memory config, tools, compile settings)
and resolves a `Memory` for each call; the compile itself is `compile.compile_plan`, run by
the sync or the async driver.

Example:
    ```python
    from langchain_core.messages import HumanMessage, SystemMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef, MemoryConfig

    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    chef.get_memory().set("persona", "A terse senior engineer")
    payload = chef.compile([SystemMessage("You help."), HumanMessage("Hi")])
    assert payload.meta.injected_keys == ["persona"]
    assert "A terse senior engineer" in payload.messages[1].text
    ```
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, overload

from langchain_core.messages import BaseMessage, ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.store.base import BaseStore
from pydantic import BaseModel

from langchain_contextchef._literals import (
    DynamicStatePlacement,
    SystemLayout,
    ToolVocabulary,
    TurnUnit,
    check_literal,
)
from langchain_contextchef._plan import NO_STORE, run_async, run_sync
from langchain_contextchef._runtime import current_runtime
from langchain_contextchef.budget import ContextBudget
from langchain_contextchef.compile import (
    BeforeCompileHook,
    CompiledPayload,
    CompileInput,
    CompileMeta,
    CompileSettings,
    DynamicState,
    check_messages,
    compile_plan,
)
from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.memory.config import COMPILE
from langchain_contextchef.prompt import ContextChefPrompt
from langchain_contextchef.scope import Scope, check_scope, resolve_scope
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import (
    ProviderToolCall,
    ahandle_tool,
    handle_tool,
    make_tools,
    owns_tool,
    unpack_tool_call,
)

__all__ = ["CompileInput", "CompileMeta", "CompiledPayload", "ContextChef"]


def _store_from(store: BaseStore | str | os.PathLike[str] | None) -> BaseStore | None:
    if store is None or isinstance(store, BaseStore):
        return store
    if isinstance(store, str | os.PathLike):
        return FileSystemStore(store)
    msg = (
        f"store must be a LangGraph BaseStore or a folder path for a FileSystemStore, "
        f"got {type(store).__name__}."
    )
    raise TypeError(msg)


_MEMORIES_KEPT = 256
"""How many (store, scope) `Memory` objects a chef keeps for reuse."""


class ContextChef:
    """Persistent memory for an agent: compile prompts with it, and let the model write it.

    Args:
        store: Where memory lives: a LangGraph `BaseStore`, a folder path (a
            `FileSystemStore` is opened there, e.g. `"./.context"`), or `None` to use the
            store of the LangGraph graph being run (`graph.compile(store=...)`).
        memory: Memory behaviour; `None` disables memory (no block, no tools).
        tools: `"legacy"` offers `create_memory` and `modify_memory`; `"unified"` offers one
            `context` tool. Both vocabularies are understood by `handle_tool` either way.
        scope: The namespace prefix of the memory, possibly with templates such as
            `("users", "{user_id}")` filled from the runtime context or `configurable`.
        dynamic_state_placement: `"last_user"` puts dynamic state in the last user turn;
            `"system"` puts it in a system message at the top.
        dynamic_state_schema: A pydantic model that dynamic state must validate against.
        on_before_compile: A hook returning implicit context (RAG results, ...) or `None`.
        clock: Returns "now"; injectable for tests.
        context_budget: A token budget for the whole call (`ContextBudget`): each compile
            reports tokens per layer in `meta.tokens`, trims memory first when the call is
            over budget, and raises `ContextBudgetExceeded` when it still does not fit.
        turn_unit: What one turn of a turn-based TTL is. `"model_call"` (the default, as in
            ContextChef's original design): every compile advances the clock, so an agent
            that calls the model three times for one user message spends three turns.
            `"user_message"`: the clock advances once per new user message (the last
            `HumanMessage`, known by its id, else by its position and content), however many
            model calls answer it.
            With `Turns(2)`, an entry the model saves while answering a message is still
            shown during the next two user messages, where per model call it could be gone
            before the user writes again.
        system_layout: `"separate"` (default) gives memory a system message of its own
            after the developer's; `"merged"` joins it (and system-placed dynamic state)
            into the developer's system message, for chat templates that accept only one.
    """

    def __init__(
        self,
        store: BaseStore | str | os.PathLike[str] | None = None,
        *,
        memory: MemoryConfig | None = MemoryConfig(),  # noqa: B008 - frozen, shared safely
        tools: ToolVocabulary = "legacy",
        scope: Scope = (),
        dynamic_state_placement: DynamicStatePlacement = "last_user",
        dynamic_state_schema: type[BaseModel] | None = None,
        on_before_compile: BeforeCompileHook | None = None,
        clock: Callable[[], datetime] | None = None,
        context_budget: ContextBudget | None = None,
        turn_unit: TurnUnit = "model_call",
        system_layout: SystemLayout = "separate",
    ) -> None:
        if context_budget is not None and not isinstance(context_budget, ContextBudget):
            msg = (
                "context_budget must be a ContextBudget, e.g. "
                f"ContextBudget(model_limit=200_000, reserved_output=8_000); got {context_budget!r}."
            )
            raise TypeError(msg)
        check_literal("tools", tools, ToolVocabulary)
        check_literal("dynamic_state_placement", dynamic_state_placement, DynamicStatePlacement)
        check_literal("turn_unit", turn_unit, TurnUnit)
        check_literal("system_layout", system_layout, SystemLayout)
        self.store = _store_from(store)
        self.memory_config = memory
        self.tools_mode: ToolVocabulary = tools
        self.scope: tuple[str, ...] = check_scope(scope)
        self.context_budget = context_budget
        self.dynamic_state_placement: DynamicStatePlacement = dynamic_state_placement
        self.dynamic_state_schema = dynamic_state_schema
        self.on_before_compile = on_before_compile
        self._clock = clock
        # The Memory of each recent (store, scope), so a tool call or compile does not rebuild
        # its context each time; bounded, oldest first out. A Memory holds no state of its own.
        self._memories: dict[tuple[int, tuple[str, ...]], Memory] = {}
        self._tools: list[BaseTool] = (
            make_tools(
                mode=tools,
                allowed_keys=memory.allowed_keys,
                resolver=self.get_memory,
                recall_tool=memory.recall == "index",
                memory_types=memory.memory_types,
                versions=memory.shows_versions,
            )
            if memory is not None
            else []
        )
        self._settings = CompileSettings(
            vocabulary=tools,
            tools=tuple(self._tools),
            dynamic_state_placement=dynamic_state_placement,
            dynamic_state_schema=dynamic_state_schema,
            on_before_compile=on_before_compile,
            context_budget=context_budget,
            turn_unit=turn_unit,
            system_layout=system_layout,
        )

    def __repr__(self) -> str:
        store = type(self.store).__name__ if self.store is not None else "graph store"
        return f"ContextChef(store={store}, scope={self.scope!r}, tools={self.tools_mode!r})"

    # ---- resolution ---------------------------------------------------------------------------

    def get_memory(
        self,
        config: RunnableConfig | Mapping[str, Any] | None = None,
        *,
        context: Any = None,
        store: BaseStore | None = None,
    ) -> Memory:
        """Return the `Memory` of the scope this call addresses.

        Args:
            config: A `RunnableConfig` whose `configurable` fills scope templates.
            context: The LangGraph runtime context (found automatically inside a graph).
            store: A store overriding the chef's (e.g. one injected by LangGraph).

        Raises:
            ContextChefError: If memory is disabled, or no store is available.
            ScopeError: If a scope template value is missing.
        """
        if self.memory_config is None:
            msg = (
                "This ContextChef was built with memory=None. Pass memory=MemoryConfig(...) to "
                "ContextChef to enable memory."
            )
            raise ContextChefError(msg)
        runtime = None
        if context is None or (store is None and self.store is None):
            runtime = current_runtime()
        if context is None and runtime is not None:
            context = runtime.context
        # `is not None`, not truthiness: a store that defines __len__ may be empty and falsy.
        resolved_store = next(
            (s for s in (store, self.store, getattr(runtime, "store", None)) if s is not None),
            None,
        )
        if resolved_store is None:
            msg = (
                "ContextChef has no store. Pass store=... (a LangGraph BaseStore or a folder such "
                "as './.context') to ContextChef, or run inside a LangGraph graph compiled with "
                "graph.compile(store=...)."
            )
            raise ContextChefError(msg)
        scope = resolve_scope(self.scope, config, context)
        key = (id(resolved_store), scope)
        memory = self._memories.get(key)
        if memory is None or memory.store is not resolved_store:
            memory = Memory(resolved_store, self.memory_config, scope=scope, clock=self._clock)
            if len(self._memories) >= _MEMORIES_KEPT:
                with contextlib.suppress(StopIteration, KeyError, RuntimeError):
                    del self._memories[next(iter(self._memories))]
            self._memories[key] = memory
        return memory

    def _memory_or_none(self, config: RunnableConfig | None, context: Any) -> Memory | None:
        return self.get_memory(config, context=context) if self.memory_config is not None else None

    @property
    def turn_unit(self) -> TurnUnit:
        """What advances the turn clock: every model call, or every new user message."""
        return self._settings.turn_unit

    @property
    def system_layout(self) -> SystemLayout:
        """Whether memory has a system message of its own or joins the developer's."""
        return self._settings.system_layout

    def _settings_for(self, turn_unit: TurnUnit | None) -> CompileSettings:
        if turn_unit is None or turn_unit == self._settings.turn_unit:
            return self._settings
        check_literal("turn_unit", turn_unit, TurnUnit)
        return dataclasses.replace(self._settings, turn_unit=turn_unit)

    # ---- compile ------------------------------------------------------------------------------

    def compile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
        turn_unit: TurnUnit | None = None,
    ) -> CompiledPayload:
        """Build the messages for one model call: sweep, advance, select, render, splice.

        Args:
            messages: The conversation (system prompt first, if any). Never mutated.
            dynamic_state: Current task state (a pydantic model or a dict) rendered as
                `<dynamic_state>`.
            config: The run's config; its `configurable` fills scope templates.
            context: The LangGraph runtime context, if not running inside a graph.
            turn_unit: Overrides the chef's `turn_unit` for this compile.

        Returns:
            The messages, the (static) memory tools and what the compile did.

        Raises:
            TypeError: If `messages` is not a list of LangChain messages (nothing changes).
        """
        settings = self._settings_for(turn_unit)
        messages = check_messages(messages)
        memory = self._memory_or_none(config, context)
        if memory is None:
            plan = compile_plan(settings, messages, dynamic_state, config, None)
            return run_sync(plan, NO_STORE)
        plan = compile_plan(settings, messages, dynamic_state, config, memory.context)
        return memory.run(plan, fires=COMPILE)

    async def acompile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
        turn_unit: TurnUnit | None = None,
    ) -> CompiledPayload:
        """Async `compile`."""
        settings = self._settings_for(turn_unit)
        messages = check_messages(messages)
        memory = self._memory_or_none(config, context)
        if memory is None:
            plan = compile_plan(settings, messages, dynamic_state, config, None)
            return await run_async(plan, NO_STORE)
        plan = compile_plan(settings, messages, dynamic_state, config, memory.context)
        return await memory.arun(plan)

    @property
    def prompt(self) -> ContextChefPrompt:
        """This chef as a LangChain prompt runnable: `chef.prompt | model.bind_tools(chef.tools)`."""
        return ContextChefPrompt(chef=self)

    # ---- tools --------------------------------------------------------------------------------

    @property
    def tools(self) -> list[BaseTool]:
        """The memory tools of the configured vocabulary (the same objects on every call)."""
        return list(self._tools)

    def owns_tool(self, name: str) -> bool:
        """Whether `handle_tool` handles a tool of this name (either vocabulary)."""
        return owns_tool(name)

    @overload
    def handle_tool(
        self, call: ToolCall, *, config: RunnableConfig | None = None, context: Any = None
    ) -> ToolMessage: ...

    @overload
    def handle_tool(
        self,
        call: ProviderToolCall,
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> str: ...

    @overload
    def handle_tool(
        self,
        call: Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str: ...

    def handle_tool(
        self,
        call: ToolCall | ProviderToolCall | Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str:
        """Run one memory tool call.

        The result's type follows the call's shape, and type checkers see it: a LangChain
        `ToolCall` (`{"name", "args", "id"}`, as in `AIMessage.tool_calls`) gives a
        `ToolMessage` carrying its id and an error status for `Error: ...` results; a
        provider-style `{"name", "arguments"}` gives the result text.

        Args:
            call: A `ToolCall`, or a mapping `{"name", "arguments"}` whose arguments are a
                JSON string or a dict.
            config: The run's config (fills scope templates).
            context: The LangGraph runtime context, if any.

        Returns:
            The tool result. Model mistakes come back as text starting with `Error: `.

        Raises:
            ToolNotOwnedError: If the tool is not a memory tool; check `owns_tool` first.

        Example:
            ```python
            from langchain_core.messages import ToolMessage
            from langgraph.store.memory import InMemoryStore
            from langchain_contextchef import ContextChef

            chef = ContextChef(store=InMemoryStore())
            call = {"name": "create_memory", "args": {"key": "a", "value": "b"}, "id": "1"}
            reply = chef.handle_tool(call)
            assert isinstance(reply, ToolMessage) and reply.content == "Created context://memory/a."
            text = chef.handle_tool(
                {"name": "modify_memory", "arguments": '{"action": "delete", "key": "a"}'}
            )
            assert text == "Deleted context://memory/a."
            ```
        """
        name, arguments, call_id = unpack_tool_call(call, owner="ContextChef.handle_tool")
        memory = self._memory_or_none(config, context)
        text = handle_tool(name, arguments, memory, tool_call_id=call_id)
        return _wrap_result(call, name, text, call_id)

    @overload
    async def ahandle_tool(
        self, call: ToolCall, *, config: RunnableConfig | None = None, context: Any = None
    ) -> ToolMessage: ...

    @overload
    async def ahandle_tool(
        self,
        call: ProviderToolCall,
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> str: ...

    @overload
    async def ahandle_tool(
        self,
        call: Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str: ...

    async def ahandle_tool(
        self,
        call: ToolCall | ProviderToolCall | Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str:
        """Async `handle_tool` (the same result types)."""
        name, arguments, call_id = unpack_tool_call(call, owner="ContextChef.handle_tool")
        memory = self._memory_or_none(config, context)
        text = await ahandle_tool(name, arguments, memory, tool_call_id=call_id)
        return _wrap_result(call, name, text, call_id)


def _wrap_result(
    call: Mapping[str, Any], name: str, text: str, call_id: str | None
) -> ToolMessage | str:
    if "args" in call:
        status: Literal["success", "error"] = "error" if text.startswith("Error:") else "success"
        return ToolMessage(text, tool_call_id=call_id or "", name=name, status=status)
    return text
