"""`ContextChefMiddleware`: memory for LangChain 1.x `create_agent` in one line.

The middleware registers the chef's memory tools with the agent and, on every model call,
compiles memory (and optional dynamic state) into the *request* only. The agent's saved
messages never contain the injected `<memory>` block, so summarisation, checkpoints and later
turns see the plain conversation, and each model call sees memory as it is right then.

Example:
    ```python
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.chef import ContextChef
    from langchain_contextchef.middleware import ContextChefMiddleware


    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self


    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    agent = create_agent(
        Model(messages=iter([AIMessage("Noted.")])),
        middleware=[ContextChefMiddleware(chef)],
        store=store,
    )
    config = {"configurable": {"user_id": "alice"}}
    chef.get_memory(config, store=store).set("lang", "Python")
    result = agent.invoke({"messages": [("user", "Hi")]}, config)
    assert "<memory>" not in result["messages"][0].text
    ```
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Hashable, Sequence
from datetime import timedelta
from typing import Any, TypeAlias, cast

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
)
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.runtime import Runtime
from pydantic import BaseModel
from typing_extensions import NotRequired

from langchain_contextchef._literals import TurnUnit, check_literal
from langchain_contextchef._runtime import current_config
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.compile import CompiledPayload
from langchain_contextchef.memory import Memory
from langchain_contextchef.reflection import (
    AsyncReflectionScheduler,
    MemoryReflector,
    ReflectionReport,
    ReflectionScheduler,
    areflect_after_agent,
    reflect_after_agent,
)
from langchain_contextchef.splice import Tail

__all__ = ["ContextChefMiddleware", "ContextChefState", "DynamicStateFn"]

DynamicStateFn: TypeAlias = Callable[
    [Any, Runtime[Any]], "BaseModel | dict[str, Any] | None | Awaitable[Any]"
]
"""`(state, runtime) -> pydantic model | dict | None`: the dynamic state of one model call."""

STATE_KEY = "dynamic_state"
"""The agent state key the middleware reads dynamic state from."""


class ContextChefState(AgentState[Any]):
    """Agent state with an optional `dynamic_state` entry.

    Pass a pydantic model or a dict as `{"messages": [...], "dynamic_state": {...}}` (or
    return it from a node or hook as a state update); every model call renders it as a
    `<dynamic_state>` block, without ever writing that block into `messages`.
    """

    dynamic_state: NotRequired[Any]


# ---- pure helpers: shared by the sync and the async path --------------------------------------


def _blocks(content: str | list[str | dict[str, Any]]) -> list[str | dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [{"type": "text", "text": b} if isinstance(b, str) else b for b in content]


def _merge_system(run: Sequence[BaseMessage]) -> SystemMessage | None:
    """One system message for the request: each source message's content as its own blocks."""
    if not run:
        return None
    first = run[0]
    if len(run) == 1 and isinstance(first, SystemMessage):
        return first
    blocks: list[str | dict[str, Any]] = []
    for message in run:
        blocks.extend(_blocks(message.content))
    # Keep the first (usually the developer's own) message's id and extra fields.
    merged = first.model_copy(update={"content": blocks})
    return merged if isinstance(merged, SystemMessage) else SystemMessage(blocks)


def _tag_last_block(
    content: str | list[str | dict[str, Any]], cache_control: dict[str, Any]
) -> list[str | dict[str, Any]] | None:
    blocks = _blocks(content)
    if not blocks:
        return None
    last = blocks[-1]
    blocks[-1] = {**(last if isinstance(last, dict) else {}), "cache_control": cache_control}
    return blocks


def _tagged(message: BaseMessage, cache_control: dict[str, Any]) -> BaseMessage | None:
    blocks = _tag_last_block(message.content, cache_control)
    return message.model_copy(update={"content": blocks}) if blocks is not None else None


def _anchor_cache_control(
    history: list[BaseMessage], tail: Tail | None, offset: int, cache_control: dict[str, Any]
) -> list[BaseMessage] | None:
    """Put the message breakpoint on the last stable block before the volatile tail.

    `history` is the compiled conversation after the system layer, and `tail` says where the
    splice put the volatile text (its index counts from the start of the whole compiled list,
    hence `offset`). Returns the history carrying a block-level breakpoint (or none at all
    when no stable user or tool block precedes the tail; the system breakpoint still holds),
    or `None` to keep the top-level breakpoint, which is only safe when nothing volatile was
    added.
    """
    out = list(history)
    if tail is None:
        # No tail: the newest user or tool turn is stable; anything else keeps the default.
        if out and isinstance(out[-1], HumanMessage | ToolMessage):
            tagged = _tagged(out[-1], cache_control)
            if tagged is not None:
                out[-1] = tagged
                return out
        return None
    index = tail.index - offset
    if tail.original is None:
        # The tail is a message of its own; the tool result in front of it is stable.
        previous = out[index - 1] if index > 0 else None
        if isinstance(previous, ToolMessage):
            tagged = _tagged(previous, cache_control)
            if tagged is not None:
                out[index - 1] = tagged
        return out
    # The tail is the last content block of the user's message; the block before it is the
    # user's own, stable from this call to the next.
    stable = tail.stable_block
    if stable is None:
        return out
    message = out[index]
    blocks = _blocks(message.content)
    own = blocks[stable]
    blocks[stable] = {**(own if isinstance(own, dict) else {}), "cache_control": cache_control}
    out[index] = message.model_copy(update={"content": blocks})
    return out


def _compile_input(request: ModelRequest[Any]) -> list[BaseMessage]:
    system = [request.system_message] if request.system_message is not None else []
    return [*system, *request.messages]


def _rewrite(request: ModelRequest[Any], payload: CompiledPayload) -> ModelRequest[Any]:
    """The request the model sees: compiled system layer + history, breakpoints made safe."""
    layout = payload.layout
    assert layout is not None  # a chef's compile always records its layout
    system = _merge_system(layout.messages[: layout.system_end])
    history = list(layout.messages[layout.system_end :])
    settings = dict(request.model_settings)
    cache_control = settings.get("cache_control")
    if isinstance(cache_control, dict):
        anchored = _anchor_cache_control(history, layout.tail, layout.system_end, cache_control)
        if anchored is not None:
            history = anchored
            del settings["cache_control"]
    return request.override(
        system_message=system,
        messages=cast("list[AnyMessage]", history),
        model_settings=settings,
    )


class ContextChefMiddleware(AgentMiddleware[ContextChefState, Any, Any]):
    """Give a `create_agent` agent persistent memory: tools plus per-call prompt injection.

    * **Tools.** The chef's memory tools are registered with the agent and run by its tool
      node. A chef built without `store=` uses the agent's store
      (`create_agent(..., store=...)`); scope templates such as `("users", "{user_id}")` are
      filled from the runtime context (`context_schema`) or `config["configurable"]`. A
      missing value raises `ScopeError` before anything is read or written.
    * **Injection.** Every model call runs `chef.compile` once on the system message plus
      the history, and hands the model the result. Only the request changes; the agent
      state never holds the `<memory>` block. The leading system run is merged into one
      `SystemMessage` of content blocks, so the developer's system prompt stays a block of
      its own (with `ContextChef(system_layout="merged")` the chef has already made it one
      message, exactly as `chef.prompt` does).
    * **Turns.** By default the turn clock advances once per model call, so an agent that
      calls the model three times to answer one message spends three turns of every
      turn-based TTL. `turn_unit="user_message"` (here or on the chef) advances it once per
      new user message instead: a `Turns(2)` entry saved while answering a message is then
      shown through the next two user messages, however many model calls each takes.
    * **Dynamic state.** Read from the agent state key `dynamic_state` (see
      `ContextChefState`), or computed by the `dynamic_state` callable, which wins when given.

    Prompt caching with `AnthropicPromptCachingMiddleware`: list it **before** this middleware,
    `middleware=[AnthropicPromptCachingMiddleware(), ContextChefMiddleware(chef)]`, so this one
    runs inside it. That middleware tags the developer's system prompt (stable) and the last
    tool, and asks the model for a breakpoint on the last block of the request, which would be
    the volatile memory tail. This middleware moves that breakpoint onto the last stable block
    before the tail: the last block of the user's own content (the splice always sends the
    tail as a content block of its own after it), or the trailing tool result. With
    `MemoryConfig(memory_placement="before_history_tail")` (recommended with caching) the only
    memory text in the cached prefix is the stable memory instruction, so memory changes never
    cost a cache miss. With `memory_placement="after_system"` (the default), memory data sits
    in the system prompt: the system breakpoint stays on the developer's prompt in front of
    it, but every breakpoint after it (the message breakpoint) is invalidated whenever memory
    changes. Listed the other way round, the caching middleware would tag the compiled
    request, memory included, so keep the order above.

    Reflection: pass `reflector=MemoryReflector(model, memory=chef.get_memory)` and, after each
    agent run, the finished conversation is read for facts worth keeping, which are written
    through the gated model path of the same scope (`after_agent` / `aafter_agent`).
    With `reflect_when_quiet=30` (seconds or a `timedelta`), the reflection leaves the
    user's turn: it runs in the background once the conversation (the run's `thread_id`,
    else the memory scope) has had no new message for that long; a new message reschedules
    it, and each run reflects only on messages no earlier run saw. Pass a
    `ReflectionScheduler` or `AsyncReflectionScheduler` of your own to set retries and
    shutdown; `middleware.scheduler.shutdown()` flushes what is pending.

    Args:
        chef: The `ContextChef` whose memory, scope and tools the agent uses.
        dynamic_state: Optional `(state, runtime) -> model | dict | None`; may be async when
            the agent runs async.
        reflector: Optional `MemoryReflector` run after every agent run.
        reflect_when_quiet: Run the reflector in the background once a conversation has been
            quiet this long (seconds, a `timedelta`, or a scheduler), instead of inline.
        turn_unit: `"model_call"` or `"user_message"`: what advances the turn clock;
            `None` (default) keeps the chef's `turn_unit`.

    Example:
        ```python
        from langchain_contextchef.chef import ContextChef
        from langchain_contextchef.middleware import ContextChefMiddleware

        middleware = ContextChefMiddleware(ContextChef(scope=("users", "{user_id}")))
        assert {t.name for t in middleware.tools} == {
            "create_memory",
            "modify_memory",
            "recall_memory",
        }
        ```
    """

    state_schema = ContextChefState

    def __init__(
        self,
        chef: ContextChef,
        *,
        dynamic_state: DynamicStateFn | None = None,
        reflector: MemoryReflector | None = None,
        turn_unit: TurnUnit | None = None,
        reflect_when_quiet: float
        | timedelta
        | ReflectionScheduler
        | AsyncReflectionScheduler
        | None = None,
    ) -> None:
        if not isinstance(chef, ContextChef):
            msg = (
                f"ContextChefMiddleware needs a ContextChef, got {type(chef).__name__}. "
                "Build one with ContextChef(store=..., memory=MemoryConfig(...))."
            )
            raise TypeError(msg)
        if turn_unit is not None:
            check_literal("turn_unit", turn_unit, TurnUnit)
        super().__init__()
        self.chef = chef
        self.turn_unit: TurnUnit = turn_unit or chef.turn_unit
        self.dynamic_state = dynamic_state
        self.reflector = reflector
        self.tools = chef.tools
        self.last_reflection: ReflectionReport | None = None
        self.scheduler = _scheduler(reflector, reflect_when_quiet)

    def _dynamic_state(self, request: ModelRequest[Any]) -> Any:
        if self.dynamic_state is not None:
            return self.dynamic_state(request.state, request.runtime)
        state = request.state
        return state.get(STATE_KEY) if isinstance(state, dict) else None

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Compile memory into this model call's request and run it."""
        dynamic = self._dynamic_state(request)
        if inspect.isawaitable(dynamic):
            if inspect.iscoroutine(dynamic):
                dynamic.close()
            msg = (
                "The dynamic_state callable returned an awaitable, which a sync agent run "
                "cannot wait for. Run the agent with ainvoke/astream or give a sync callable."
            )
            raise TypeError(msg)
        payload = self.chef.compile(
            _compile_input(request),
            dynamic_state=dynamic,
            config=current_config(),
            context=request.runtime.context,
            turn_unit=self.turn_unit,
        )
        return handler(_rewrite(request, payload))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async `wrap_model_call`."""
        dynamic = self._dynamic_state(request)
        if inspect.isawaitable(dynamic):
            dynamic = await dynamic
        payload = await self.chef.acompile(
            _compile_input(request),
            dynamic_state=dynamic,
            config=current_config(),
            context=request.runtime.context,
            turn_unit=self.turn_unit,
        )
        return await handler(_rewrite(request, payload))

    def _reflection_memory(self, runtime: Any) -> Memory:
        return self.chef.get_memory(
            current_config(),
            context=getattr(runtime, "context", None),
            store=getattr(runtime, "store", None),
        )

    def _schedule(self, state: Any, runtime: Any) -> bool:
        """Hand the conversation to the background scheduler, if there is one."""
        if self.scheduler is None:
            return False
        memory = self._reflection_memory(runtime)
        config = current_config() or {}
        configurable = dict(config.get("configurable") or {})
        thread: Hashable = configurable.get("thread_id") or memory.scope
        messages = state.get("messages", []) if isinstance(state, dict) else []
        # Only the ids travel: the agent run's callbacks are gone when the reflection runs.
        self.scheduler.notify(
            thread, messages, memory=memory, config={"configurable": configurable}
        )
        return True

    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Run the reflector, if any, on the finished conversation (no state change)."""
        if self._schedule(state, runtime):
            return None
        if self.reflector is not None:
            memory = self._reflection_memory(runtime)
            self.last_reflection = reflect_after_agent(
                self.reflector, state, memory=memory, config=current_config()
            )
        return None

    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Async `after_agent`."""
        if self._schedule(state, runtime):
            return None
        if self.reflector is not None:
            memory = self._reflection_memory(runtime)
            self.last_reflection = await areflect_after_agent(
                self.reflector, state, memory=memory, config=current_config()
            )
        return None


def _scheduler(
    reflector: MemoryReflector | None,
    when_quiet: float | timedelta | ReflectionScheduler | AsyncReflectionScheduler | None,
) -> ReflectionScheduler | AsyncReflectionScheduler | None:
    if when_quiet is None:
        return None
    if isinstance(when_quiet, ReflectionScheduler | AsyncReflectionScheduler):
        return when_quiet
    if reflector is None:
        msg = (
            "reflect_when_quiet needs a reflector: ContextChefMiddleware(chef, "
            "reflector=MemoryReflector(model, memory=chef.get_memory), reflect_when_quiet=30)."
        )
        raise ValueError(msg)
    return ReflectionScheduler(reflector, delay=when_quiet)
