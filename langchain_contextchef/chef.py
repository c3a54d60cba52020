"""`ContextChef`: the facade that compiles prompts with memory and dispatches memory tools.

Data flows one way: store -> `Memory` (sweep, advance, select) -> render -> splice. The compile
is written once, as a plan, and run by the sync or the async driver.

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

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.store.base import BaseStore
from pydantic import BaseModel

from langchain_contextchef import _scale
from langchain_contextchef._driver import NO_STORE, Call, Plan, run_async, run_sync
from langchain_contextchef.budget import (
    LAYERS,
    ContextBudget,
    FittedMemory,
    check_context_budget,
    token_counter,
)
from langchain_contextchef.errors import ContextChefError, ToolNotOwnedError
from langchain_contextchef.memory import CompileRead, Memory, MemoryConfig
from langchain_contextchef.prompt import DynamicStatePlacement, splice
from langchain_contextchef.render import (
    memory_instruction,
    render_dynamic_state,
    render_implicit_context,
)
from langchain_contextchef.scope import Scope, resolve_scope, template_fields
from langchain_contextchef.tools import (
    OWNED_TOOL_NAMES,
    ToolsMode,
    ahandle_tool,
    handle_tool,
    make_tools,
)

if TYPE_CHECKING:
    from langchain_contextchef.prompt import ContextChefPrompt

__all__ = ["CompileInput", "CompileMeta", "CompiledPayload", "ContextChef"]

DynamicState: TypeAlias = "BaseModel | Mapping[str, Any] | None"
BeforeCompileHook: TypeAlias = "Callable[[CompileInput], str | None]"


@dataclass(frozen=True)
class CompileInput:
    """What an `on_before_compile` hook sees.

    Attributes:
        messages: The caller's messages, untouched.
        dynamic_state: The dynamic state given to this compile, if any.
        config: The run's config, if any.
    """

    messages: Sequence[BaseMessage]
    dynamic_state: Any
    config: RunnableConfig | None


@dataclass(frozen=True)
class CompileMeta:
    """What a compile did, for logs, traces and tests.

    Attributes:
        injected_keys: Keys rendered into the prompt, in the order shown.
        expired_keys: Keys this compile's sweep deleted.
        turn: The scope's turn clock after this compile (the number of compiles so far).
        scope: The resolved namespace prefix the memory was read from.
        omitted: Stored keys that were not injected, with the reason: `"selector"`,
            `"budget"` (the memory token budget), `"context_budget"` (trimmed so the whole
            call fits `ContextBudget`), or `"quarantined"`.
        indexed_keys: Keys listed in `<memory_index>` without their value (recall mode).
        evicted_keys: Keys evicted over `max_entries` since the previous compile; the block
            tells the model about them once.
        tokens: Tokens per layer (`system`, `memory`, `dynamic_state`, `history`, `tools`)
            and `total`, when the chef has a `context_budget`; with only a memory
            `token_budget`, just `memory`.
    """

    injected_keys: list[str] = field(default_factory=list)
    expired_keys: list[str] = field(default_factory=list)
    turn: int = 0
    scope: tuple[str, ...] = ()
    omitted: dict[str, str] = field(default_factory=dict)
    indexed_keys: list[str] = field(default_factory=list)
    evicted_keys: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class CompiledPayload:
    """The result of `ContextChef.compile`.

    Attributes:
        messages: The messages to send, with memory and dynamic state spliced in.
        tools: The memory tools to bind; the same objects on every compile.
        meta: What the compile did.
    """

    messages: list[BaseMessage]
    tools: list[BaseTool]
    meta: CompileMeta


def _store_from(store: BaseStore | str | os.PathLike[str] | None) -> BaseStore | None:
    if store is None or isinstance(store, BaseStore):
        return store
    if isinstance(store, str | os.PathLike):
        from langchain_contextchef.store import FileSystemStore  # noqa: PLC0415 - only for paths

        return FileSystemStore(store)
    msg = (
        f"store must be a LangGraph BaseStore or a folder path for a FileSystemStore, "
        f"got {type(store).__name__}."
    )
    raise TypeError(msg)


def _graph_runtime() -> Any:
    """The LangGraph runtime of the current graph run, if this is one."""
    from langgraph.runtime import get_runtime  # noqa: PLC0415 - optional at import time

    try:
        return get_runtime()
    except (RuntimeError, KeyError):
        return None


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
    """

    def __init__(
        self,
        store: BaseStore | str | os.PathLike[str] | None = None,
        *,
        memory: MemoryConfig | None = MemoryConfig(),  # noqa: B008 - frozen, shared safely
        tools: ToolsMode = "legacy",
        scope: Scope = (),
        dynamic_state_placement: DynamicStatePlacement = "last_user",
        dynamic_state_schema: type[BaseModel] | None = None,
        on_before_compile: BeforeCompileHook | None = None,
        clock: Callable[[], datetime] | None = None,
        context_budget: ContextBudget | None = None,
    ) -> None:
        if context_budget is not None and not isinstance(context_budget, ContextBudget):
            msg = (
                "context_budget must be a ContextBudget, e.g. "
                f"ContextBudget(model_limit=200_000, reserved_output=8_000); got {context_budget!r}."
            )
            raise TypeError(msg)
        self.context_budget = context_budget
        if tools not in ("legacy", "unified"):
            msg = f"tools must be 'legacy' or 'unified', got {tools!r}."
            raise ValueError(msg)
        if dynamic_state_placement not in ("last_user", "system"):
            msg = f"dynamic_state_placement must be 'last_user' or 'system', got {dynamic_state_placement!r}."
            raise ValueError(msg)
        self.store = _store_from(store)
        self.memory_config = memory
        self.tools_mode: ToolsMode = tools
        self.scope: tuple[str, ...] = tuple(scope)
        resolve_scope(self.scope, {"configurable": dict.fromkeys(template_fields(self.scope), "x")})
        self.dynamic_state_placement: DynamicStatePlacement = dynamic_state_placement
        self.dynamic_state_schema = dynamic_state_schema
        self.on_before_compile = on_before_compile
        self._clock = clock
        self._tools: list[BaseTool] = (
            make_tools(
                mode=tools,
                allowed_keys=memory.allowed_keys,
                resolver=self._memory_for_tool,
                recall_tool=memory.recall == "index",
                memory_types=memory.memory_types,
            )
            if memory is not None
            else []
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
            runtime = _graph_runtime()
        if context is None and runtime is not None:
            context = getattr(runtime, "context", None)
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
        return Memory(resolved_store, self.memory_config, scope=scope, clock=self._clock)

    def _memory_for_tool(self, config: RunnableConfig | None) -> Memory:
        return self.get_memory(config)

    # ---- compile ------------------------------------------------------------------------------

    def _compile(
        self,
        messages: Sequence[BaseMessage],
        dynamic_state: Any,
        config: RunnableConfig | None,
        memory: Memory | None,
    ) -> Plan[CompiledPayload]:
        state_xml = ""
        if dynamic_state is not None:
            state_xml = render_dynamic_state(dynamic_state, schema=self.dynamic_state_schema)
        implicit = ""
        if self.on_before_compile is not None:
            text = yield Call(
                self.on_before_compile,
                (CompileInput(messages, dynamic_state, config),),
                "on_before_compile",
            )
            if text:
                implicit = render_implicit_context(str(text))
        meta = CompileMeta()
        instruction: str | None = None
        block = ""
        placement: Literal["after_system", "before_history_tail"] = "after_system"
        if memory is not None:
            read = yield from memory._compile(_last_user_text(messages))
            instruction = memory_instruction(self.tools_mode)
            fitted, omitted = self._fit_memory(read, memory)
            tokens = {"memory": fitted.tokens} if memory.config.token_budget is not None else {}
            if self.context_budget is not None:
                layers = (messages, instruction, state_xml + implicit)
                fitted, tokens = self._fit_context(read, memory, fitted, omitted, layers)
            block = fitted.block
            placement = memory.placement
            meta = CompileMeta(
                injected_keys=[e.key for e in fitted.full],
                expired_keys=read.expired_keys,
                turn=read.turn,
                scope=memory.scope,
                omitted=omitted,
                indexed_keys=[e.key for e in fitted.index],
                evicted_keys=read.evicted_keys,
                tokens=tokens,
            )
        elif self.context_budget is not None:
            tokens = self._layer_tokens(messages, None, state_xml + implicit, "")
            check_context_budget(self.context_budget, tokens)
            meta = CompileMeta(tokens={**tokens, "total": sum(tokens.values())})
        spliced = splice(
            messages,
            instruction=instruction,
            memory_block=block,
            dynamic_state=state_xml,
            implicit_context=implicit,
            memory_placement=placement,
            dynamic_state_placement=self.dynamic_state_placement,
        )
        return CompiledPayload(spliced, list(self._tools), meta)

    def _fit_memory(self, read: CompileRead, memory: Memory) -> tuple[FittedMemory, dict[str, str]]:
        budgets = [memory.config.token_budget]
        if self.context_budget is not None:
            budgets.append(self.context_budget.memory)
        limits = [b for b in budgets if b is not None]
        return _scale.fit_block(
            read,
            memory,
            vocabulary=self.tools_mode,
            budget=min(limits) if limits else None,
            count=token_counter(memory.config.token_counter).text,
        )

    def _layer_tokens(
        self,
        messages: Sequence[BaseMessage],
        instruction: str | None,
        state: str,
        block: str,
    ) -> dict[str, int]:
        assert self.context_budget is not None
        counter = token_counter(self.context_budget.token_counter)
        system = [m for m in messages if isinstance(m, SystemMessage)]
        history = [m for m in messages if not isinstance(m, SystemMessage)]
        sizes = {
            "system": (counter.messages(system) if system else 0)
            + (counter.text(instruction) if instruction else 0),
            "memory": counter.text(block) if block else 0,
            "dynamic_state": counter.text(state) if state else 0,
            "history": counter.messages(history) if history else 0,
            "tools": counter.tools(self._tools) + self.context_budget.extra_tools,
        }
        return {layer: sizes[layer] for layer in LAYERS}

    def _fit_context(
        self,
        read: CompileRead,
        memory: Memory,
        fitted: FittedMemory,
        omitted: dict[str, str],
        layers: tuple[Sequence[BaseMessage], str | None, str],
    ) -> tuple[FittedMemory, dict[str, int]]:
        # Memory is knowledge the model can ask for again, so it gives way first; the
        # system prompt, state and history are never cut here.
        assert self.context_budget is not None
        counter = token_counter(self.context_budget.token_counter)
        tokens = self._layer_tokens(*layers, fitted.block)
        over = sum(tokens.values()) - self.context_budget.input_budget
        if over > 0 and fitted.block:
            room = max(0, tokens["memory"] - over)
            before = {e.key for e in [*fitted.full, *fitted.index]}
            fitted, _ = _scale.fit_block(
                read, memory, vocabulary=self.tools_mode, budget=room, count=counter.text
            )
            after = {e.key for e in [*fitted.full, *fitted.index]}
            omitted.update((key, "context_budget") for key in before - after)
            tokens["memory"] = counter.text(fitted.block) if fitted.block else 0
        check_context_budget(self.context_budget, tokens)
        return fitted, {**tokens, "total": sum(tokens.values())}

    def _memory_or_none(self, config: RunnableConfig | None, context: Any) -> Memory | None:
        return self.get_memory(config, context=context) if self.memory_config is not None else None

    def compile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> CompiledPayload:
        """Build the messages for one model call: sweep, advance, select, render, splice.

        Args:
            messages: The conversation (system prompt first, if any). Never mutated.
            dynamic_state: Current task state (a pydantic model or a dict) rendered as
                `<dynamic_state>`.
            config: The run's config; its `configurable` fills scope templates.
            context: The LangGraph runtime context, if not running inside a graph.

        Returns:
            The messages, the (static) memory tools and what the compile did.
        """
        memory = self._memory_or_none(config, context)
        if memory is not None:
            # All or nothing: an async hook found mid-sweep would leave the compile half done.
            memory._refuse_async_hooks("on_memory_expired", "on_memory_changed")
        plan = self._compile(messages, dynamic_state, config, memory)
        store = memory.store if memory is not None else NO_STORE
        return run_sync(plan, store)

    async def acompile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> CompiledPayload:
        """Async `compile`."""
        memory = self._memory_or_none(config, context)
        plan = self._compile(messages, dynamic_state, config, memory)
        store = memory.store if memory is not None else NO_STORE
        return await run_async(plan, store)

    @property
    def prompt(self) -> ContextChefPrompt:
        """This chef as a LangChain prompt runnable: `chef.prompt | model.bind_tools(chef.tools)`."""
        from langchain_contextchef.prompt import ContextChefPrompt  # noqa: PLC0415 - cycle

        return ContextChefPrompt(chef=self)

    # ---- tools --------------------------------------------------------------------------------

    @property
    def tools(self) -> list[BaseTool]:
        """The memory tools of the configured vocabulary (the same objects on every call)."""
        return list(self._tools)

    def owns_tool(self, name: str) -> bool:
        """Whether `handle_tool` handles a tool of this name (either vocabulary)."""
        return name in OWNED_TOOL_NAMES

    def _unpack_call(self, call: ToolCall | Mapping[str, Any]) -> tuple[str, Any, str | None]:
        if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
            msg = (
                "handle_tool needs a LangChain ToolCall ({'name', 'args', 'id'}) or "
                "{'name', 'arguments'}; got " + repr(call)[:200]
            )
            raise TypeError(msg)
        name: str = call["name"]
        if not self.owns_tool(name):
            msg = (
                f"ContextChef.handle_tool({name!r}): this chef does not own that tool. Guard "
                "the call with chef.owns_tool(name) and dispatch other tools yourself."
            )
            raise ToolNotOwnedError(msg)
        arguments = call["args"] if "args" in call else call.get("arguments")
        return name, arguments, call.get("id")

    def handle_tool(
        self,
        call: ToolCall | Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str:
        """Run one memory tool call.

        Args:
            call: A LangChain `ToolCall` (then a `ToolMessage` with its id is returned) or a
                mapping `{"name", "arguments"}` whose arguments are a JSON string or a dict
                (then the result text is returned).
            config: The run's config (fills scope templates).
            context: The LangGraph runtime context, if any.

        Returns:
            The tool result. Model mistakes come back as text starting with `Error: `.

        Raises:
            ToolNotOwnedError: If the tool is not a memory tool; check `owns_tool` first.
        """
        name, arguments, call_id = self._unpack_call(call)
        memory = self._memory_or_none(config, context)
        text = handle_tool(name, arguments, memory, tool_call_id=call_id)
        return self._wrap_result(call, name, text, call_id)

    async def ahandle_tool(
        self,
        call: ToolCall | Mapping[str, Any],
        *,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> ToolMessage | str:
        """Async `handle_tool`."""
        name, arguments, call_id = self._unpack_call(call)
        memory = self._memory_or_none(config, context)
        text = await ahandle_tool(name, arguments, memory, tool_call_id=call_id)
        return self._wrap_result(call, name, text, call_id)

    @staticmethod
    def _wrap_result(
        call: Mapping[str, Any], name: str, text: str, call_id: str | None
    ) -> ToolMessage | str:
        if "args" in call:
            status: Literal["success", "error"] = (
                "error" if text.startswith("Error:") else "success"
            )
            return ToolMessage(text, tool_call_id=call_id or "", name=name, status=status)
        return text


def _last_user_text(messages: Sequence[BaseMessage]) -> str:
    """The text of the last user message, which relevance selectors rank against."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.text)
    return ""
