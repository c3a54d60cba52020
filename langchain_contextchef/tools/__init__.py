"""Model-facing memory tools and the dispatcher behind them.

The package (this face holds the tool classes, `make_tools`, `dispatch`, `handle_tool`,
`owns_tool` and `default_resolver`)::

    _dispatch    the dispatcher, one plan per call: `TOOL_HANDLERS`, `context` on `memory/`
    _notes       the `context` commands on `notes/`, `vfs/` and `archive/`
    _args        reading arguments; every mistake becomes the model's `Error: ...` text
    _schemas     the argument schemas the model sees
    _text_ops    `str_replace` and `insert`, shared by memory values and notes
    _profiles    the commands on profiles: `<profile>` and `<profile>/<field>` addresses

Two vocabularies, one dispatcher:

* `tools="legacy"`: `create_memory(key, value, description?, type?, supersedes?)` and
  `modify_memory(action, key, value?, description?, type?)` (plus `recall_memory(key)` with
  `MemoryConfig(recall="index")`);
* `tools="unified"`: one `context(command, path, ...)` tool over addresses such as
  `context://memory/<key>` (durable memory) and `context://notes/<path>` (the model's own
  scratch notes). `context://vfs/` and `context://archive/` are read-only.

The mode decides which tools are offered; `dispatch` understands both vocabularies whatever
the mode. Every model mistake comes back as an `Error: ...` text and leaves the store
unchanged; exceptions raised by your own hooks propagate.

Tool schemas are static: they depend only on construction-time settings (`allowed_keys`,
`memory_types`), never on what is stored, so a prompt cache keyed on the tool list keeps hitting.

Where the tools find their memory: each tool holds a `MemoryResolver`, called with the run's
`RunnableConfig` on every call. `default_resolver` uses an explicit store, or else the graph's
store through LangGraph's `get_store()`, and fills the scope templates from the LangGraph
runtime context or `config["configurable"]`. Inside LangGraph's `ToolNode` (and
`create_agent`) the tools also receive LangGraph's `ToolRuntime`, which is used only to record
the tool call id in each entry's provenance.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.memory import Memory, MemoryConfig
    from langchain_contextchef.tools import handle_tool, make_tools

    store = InMemoryStore()
    memory = Memory(store, MemoryConfig(allowed_keys=["lang"]))
    tools = make_tools(mode="legacy", allowed_keys=["lang"], resolver=lambda config: memory)
    create = tools[0]
    assert create.invoke({"key": "lang", "value": "Python"}) == "Created context://memory/lang."
    assert memory.get("lang") == "Python"
    assert handle_tool("context", {"command": "view", "path": "memory/lang"}, memory) == "Python"
    ```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.messages import ToolCall
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from langchain_core.tools.base import ArgsSchema
from langgraph.prebuilt import ToolRuntime
from langgraph.store.base import BaseStore
from pydantic import Field
from typing_extensions import NotRequired, TypedDict

from langchain_contextchef._literals import DEFAULT_MEMORY_TYPES, ToolVocabulary, check_literal
from langchain_contextchef._plan import NO_STORE, Plan, run_async, run_sync
from langchain_contextchef._runtime import current_store, scope_sources
from langchain_contextchef.errors import ToolNotOwnedError
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.memory.config import MODEL_WRITE
from langchain_contextchef.scope import Scope, resolve_scope
from langchain_contextchef.tools._dispatch import CONTEXT_COMMANDS, TOOL_HANDLERS, dispatch_plan
from langchain_contextchef.tools._schemas import (
    StaticArgs,
    context_schema,
    create_memory_schema,
    modify_memory_schema,
    recall_memory_schema,
    validation_error_text,
)

__all__ = [
    "CONTEXT_COMMANDS",
    "OWNED_TOOL_NAMES",
    "ContextTool",
    "CreateMemoryTool",
    "MemoryResolver",
    "MemoryTool",
    "ModifyMemoryTool",
    "ProviderToolCall",
    "RecallMemoryTool",
    "ToolVocabulary",
    "ahandle_tool",
    "context_schema",
    "create_memory_schema",
    "default_resolver",
    "dispatch",
    "handle_tool",
    "make_dynamic_tools",
    "make_tools",
    "modify_memory_schema",
    "owns_tool",
    "recall_memory_schema",
    "unpack_tool_call",
]


OWNED_TOOL_NAMES: frozenset[str] = frozenset(TOOL_HANDLERS)
"""Tool names `dispatch` handles, in either mode (`recall_memory` is offered in recall mode)."""

MemoryResolver: TypeAlias = Callable[[RunnableConfig], "Memory | None"]
"""Returns the `Memory` a tool call should use, given the run's config (`None`: no memory)."""


class ProviderToolCall(TypedDict):
    """A tool call as providers send it: `{"name", "arguments"}` (arguments as JSON text).

    `ContextChef.handle_tool` answers it with the result text (a LangChain `ToolCall`, with
    `args`, gets a `ToolMessage`).
    """

    name: str
    arguments: str | Mapping[str, Any] | None
    id: NotRequired[str | None]


# ---- dispatch ---------------------------------------------------------------------------------


def owns_tool(name: str) -> bool:
    """Whether `name` is one of this package's tools (any name in `OWNED_TOOL_NAMES`).

    Example:
        ```python
        from langchain_contextchef.tools import owns_tool

        assert owns_tool("context") and not owns_tool("web_search")
        ```
    """
    return name in OWNED_TOOL_NAMES


def _refuse_unowned(name: str, owner: str) -> None:
    if not owns_tool(name):
        msg = (
            f"{owner}({name!r}): langchain-contextchef does not own a tool named {name!r}. "
            "Guard the call with owns_tool(name) and dispatch the other tools yourself."
        )
        raise ToolNotOwnedError(msg)


def unpack_tool_call(
    call: ToolCall | Mapping[str, Any], *, owner: str = "handle_tool"
) -> tuple[str, Any, str | None]:
    """The name, arguments and id of a tool call this package owns.

    Args:
        call: A LangChain `ToolCall` (`{"name", "args", "id"}`) or a provider-style mapping
            `{"name", "arguments"}` whose arguments are a JSON text or a dict.
        owner: The caller's name, for the error messages.

    Raises:
        TypeError: If `call` is neither form.
        ToolNotOwnedError: If the tool is not one of `OWNED_TOOL_NAMES`.
    """
    if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
        msg = (
            f"{owner} needs a LangChain ToolCall ({{'name', 'args', 'id'}}) or "
            "{'name', 'arguments'}; got " + repr(call)[:200]
        )
        raise TypeError(msg)
    name: str = call["name"]
    _refuse_unowned(name, owner)
    arguments = call["args"] if "args" in call else call.get("arguments")
    return name, arguments, call.get("id")


def dispatch(
    name: str,
    arguments: str | Mapping[str, Any] | None,
    memory: Memory | None,
    *,
    tool_call_id: str | None = None,
) -> Plan[str]:
    """Plan one tool call; run it with `memory.run` / `memory.arun`.

    Both vocabularies are understood whatever the tools mode. The plan's result is the text to
    return to the model: a success text such as `Created context://memory/lang.` or an
    `Error: ...` text. Model writes record `Provenance(written_by="model", tool_call_id=...)`.

    Args:
        name: The tool name the model called.
        arguments: The call's arguments: a JSON text (as providers send them), an already
            parsed mapping, or `None` for no arguments.
        memory: The memory the call acts on; `None` answers with a "not available" error.
        tool_call_id: The model's tool call id, recorded in provenance.

    Returns:
        A plan whose result is the tool's result text. Hook exceptions propagate from it.

    Raises:
        ToolNotOwnedError: If `name` is not one of `OWNED_TOOL_NAMES` (raised right away).
    """
    _refuse_unowned(name, "dispatch")
    return dispatch_plan(
        name, arguments, memory.context if memory is not None else None, tool_call_id
    )


def handle_tool(
    name: str,
    arguments: str | Mapping[str, Any] | None,
    memory: Memory | None,
    *,
    tool_call_id: str | None = None,
) -> str:
    """Run one tool call synchronously and return the text for the model.

    Args:
        name: The tool name the model called.
        arguments: The call's arguments (JSON text, mapping or `None`).
        memory: The memory the call acts on, or `None`.
        tool_call_id: The model's tool call id, recorded in provenance.

    Returns:
        The result text (`Error: ...` for every model mistake).

    Raises:
        ToolNotOwnedError: If `name` is not one of `OWNED_TOOL_NAMES`.

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.memory import Memory
        from langchain_contextchef.tools import handle_tool

        memory = Memory(InMemoryStore())
        text = handle_tool("create_memory", '{"key": "tone", "value": "dry"}', memory)
        assert text == "Created context://memory/tone."
        assert handle_tool("create_memory", "{oops", memory).startswith("Error: ")
        ```
    """
    plan = dispatch(name, arguments, memory, tool_call_id=tool_call_id)
    if memory is None:
        return run_sync(plan, NO_STORE)
    return memory.run(plan, fires=MODEL_WRITE)


async def ahandle_tool(
    name: str,
    arguments: str | Mapping[str, Any] | None,
    memory: Memory | None,
    *,
    tool_call_id: str | None = None,
) -> str:
    """Async `handle_tool`: uses the store's async API and awaits async hooks."""
    plan = dispatch(name, arguments, memory, tool_call_id=tool_call_id)
    if memory is None:
        return await run_async(plan, NO_STORE)
    return await memory.arun(plan)


# ---- tools ------------------------------------------------------------------------------------


class MemoryTool(BaseTool):
    """Base of the memory tools: resolves the `Memory` per call and runs the dispatcher.

    Results are plain strings. An `Error: ...` result is raised as a `ToolException` that the
    tool itself handles (`handle_tool_error=True`), so a `ToolMessage` for it carries
    `status="error"` while `invoke` still returns the text.

    Attributes:
        resolver: Called with the run's config on every call; returns the `Memory` to use.
    """

    resolver: MemoryResolver
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = True
    handle_validation_error: bool | str | Callable[[Any], str] | None = validation_error_text

    @property
    def tool_call_schema(self) -> ArgsSchema:
        """The schema the model sees: the argument model itself, whose JSON is hand-written.

        LangChain would otherwise rebuild the model without the injected `runtime` and
        emit pydantic's JSON (a `"default": null` on every optional field).
        """
        schema = self.args_schema
        if isinstance(schema, type) and issubclass(schema, StaticArgs):
            return schema
        return super().tool_call_schema

    def _arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, str | None]:
        runtime = kwargs.pop("runtime", None)
        call_id = runtime.tool_call_id if isinstance(runtime, ToolRuntime) else None
        if args:  # a plain string input is taken as the JSON arguments text
            return args[0], call_id
        return {k: v for k, v in kwargs.items() if v is not None}, call_id

    def _finish(self, text: str) -> str:
        if text.startswith("Error: ") and self.handle_tool_error is True:
            raise ToolException(text)
        return text

    def _run(
        self,
        *args: Any,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> str:
        arguments, call_id = self._arguments(args, kwargs)
        memory = self.resolver(config)
        return self._finish(handle_tool(self.name, arguments, memory, tool_call_id=call_id))

    async def _arun(
        self,
        *args: Any,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> str:
        arguments, call_id = self._arguments(args, kwargs)
        memory = self.resolver(config)
        text = await ahandle_tool(self.name, arguments, memory, tool_call_id=call_id)
        return self._finish(text)


class CreateMemoryTool(MemoryTool):
    """`create_memory(key, value, description?)`: store a new fact (legacy vocabulary).

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.memory import Memory
        from langchain_contextchef.tools import CreateMemoryTool

        memory = Memory(InMemoryStore())
        tool = CreateMemoryTool(resolver=lambda config: memory)
        assert tool.invoke({"key": "tone", "value": "dry"}) == "Created context://memory/tone."
        ```
    """

    name: str = "create_memory"
    description: str = "Save a lasting fact under a new key."
    args_schema: ArgsSchema | None = Field(default_factory=create_memory_schema)


class ModifyMemoryTool(MemoryTool):
    """`modify_memory(action, key, value?, description?)`: update or delete a fact (legacy)."""

    name: str = "modify_memory"
    description: str = "Update or delete a saved fact by its key."
    args_schema: ArgsSchema | None = Field(default_factory=modify_memory_schema)


class ContextTool(MemoryTool):
    """`context(command, path, ...)`: the unified tool over `context://` addresses."""

    name: str = "context"
    description: str = (
        "Read and edit context://memory/<key> (saved facts, shown in <memory>) and "
        "context://notes/<path> (your scratch notes, shown only when viewed). The context:// "
        "prefix is optional; a path ending in / is a directory."
    )
    args_schema: ArgsSchema | None = Field(default_factory=context_schema)


class RecallMemoryTool(MemoryTool):
    """`recall_memory(key)`: read one stored entry in full (legacy vocabulary, recall mode).

    Offered only with `MemoryConfig(recall="index")`, where most entries appear in the prompt
    as index rows without their value. Each recall records `last_recalled_at`, which
    eviction uses to keep the entries the model actually reads.

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.memory import Memory, MemoryConfig
        from langchain_contextchef.tools import RecallMemoryTool

        memory = Memory(InMemoryStore(), MemoryConfig(recall="index"))
        memory.set("tone", "dry")
        tool = RecallMemoryTool(resolver=lambda config: memory)
        assert tool.invoke({"key": "tone"}) == "dry"
        assert memory.get_entry("tone").last_recalled_at is not None
        ```
    """

    name: str = "recall_memory"
    description: str = "Read an entry listed in <memory_index>."
    args_schema: ArgsSchema | None = Field(default_factory=recall_memory_schema)


def make_tools(
    *,
    mode: ToolVocabulary,
    allowed_keys: Sequence[str] | None,
    resolver: MemoryResolver,
    dynamic_modify_keys: Sequence[str] | None = None,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
    recall_tool: bool = False,
    versions: bool = False,
) -> list[BaseTool]:
    """Build the tools for one mode. Build them once and reuse them: they are static.

    Args:
        mode: `legacy` gives `[create_memory, modify_memory]`; `unified` gives `[context]`.
        allowed_keys: The keys the model may write (the `key` enum of `create_memory`); the
            memory's own `allowed_keys` are what dispatch enforces, so pass the same list.
        resolver: Returns the `Memory` for a call, given its config (see `default_resolver`).
        dynamic_modify_keys: Off by default. A list switches on the variant for weaker
            models: `modify_memory` is offered only when the list is non-empty, with `key` an
            enum of those keys. It changes the tool list as memory changes, which invalidates
            prompt caches; rebuild the tools each turn with the current keys to use it.
        memory_types: The enum of the tools' optional `type` argument; pass the memory's
            `MemoryConfig.memory_types` (dispatch enforces the memory's own list).
        recall_tool: Add `recall_memory` to the legacy tools; pass
            `config.recall == "index"`. The unified `context` tool reads entries with `view`.
        versions: Offer the compare-and-set `version` argument; pass
            `config.shows_versions` (only the verbose memory format shows versions).

    Returns:
        The tools, in the order they should be offered.

    Raises:
        ValueError: For an unknown mode, malformed key lists, or `dynamic_modify_keys` with
            the unified mode (which has no `modify_memory`).

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_core.utils.function_calling import convert_to_openai_tool
        from langchain_contextchef.memory import Memory
        from langchain_contextchef.tools import make_tools

        memory = Memory(InMemoryStore())
        tools = make_tools(mode="legacy", allowed_keys=["lang"], resolver=lambda c: memory)
        assert [t.name for t in tools] == ["create_memory", "modify_memory"]
        key = convert_to_openai_tool(tools[0])["function"]["parameters"]["properties"]["key"]
        assert key["enum"] == ["lang"]
        ```
    """
    check_literal("mode", mode, ToolVocabulary)
    create_schema = create_memory_schema(allowed_keys, memory_types)
    if mode == "unified":
        if dynamic_modify_keys is not None:
            msg = "dynamic_modify_keys only applies to mode='legacy'; the unified mode has no modify_memory."
            raise ValueError(msg)
        schema = context_schema(memory_types, versions=versions)
        return [ContextTool(resolver=resolver, args_schema=schema)]
    tools: list[BaseTool] = [CreateMemoryTool(resolver=resolver, args_schema=create_schema)]
    if dynamic_modify_keys is None:
        modify = modify_memory_schema(None, memory_types, versions=versions)
        tools.append(ModifyMemoryTool(resolver=resolver, args_schema=modify))
    elif dynamic_modify_keys:
        modify = modify_memory_schema(dynamic_modify_keys, memory_types, versions=versions)
        tools.append(ModifyMemoryTool(resolver=resolver, args_schema=modify))
    if recall_tool:
        tools.append(RecallMemoryTool(resolver=resolver))
    return tools


def make_dynamic_tools(
    existing_keys: Sequence[str],
    *,
    allowed_keys: Sequence[str] | None,
    resolver: MemoryResolver,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
) -> list[BaseTool]:
    """The legacy tools in their dynamic variant, for models that need the key list spelled out.

    `modify_memory` is included only when `existing_keys` is non-empty, and its `key` is an
    enum of them. Because the schema follows what is stored, rebuild these tools every turn;
    expect prompt-cache misses whenever a key is added or removed.

    Args:
        existing_keys: The keys currently in memory (e.g. `[e.key for e in memory.list()]`).
        allowed_keys: As for `make_tools`.
        resolver: As for `make_tools`.
        memory_types: As for `make_tools`.

    Returns:
        `[create_memory]` or `[create_memory, modify_memory]`.
    """
    return make_tools(
        mode="legacy",
        allowed_keys=allowed_keys,
        resolver=resolver,
        dynamic_modify_keys=list(existing_keys),
        memory_types=memory_types,
    )


# ---- resolving memory at run time -------------------------------------------------------------


def _graph_store() -> BaseStore:
    store = current_store()
    if store is None:
        msg = (
            "No store for the memory tools: pass store=... to default_resolver, or run the "
            "tools inside a LangGraph graph compiled with a store (graph.compile(store=...))."
        )
        raise ValueError(msg)
    return store


def default_resolver(
    config: MemoryConfig | None = None,
    *,
    store: BaseStore | None = None,
    scope: Scope = (),
) -> MemoryResolver:
    """A resolver that builds the `Memory` for each call from the run's config.

    Args:
        config: The memory behaviour (hooks, allowed keys, TTL).
        store: The store to use; when omitted, the graph's store from LangGraph's
            `get_store()` (the tools must then run inside a graph compiled with a store).
        scope: The scope, possibly with templates such as `("users", "{user_id}")`, filled
            from the LangGraph runtime context or `config["configurable"]`.

    Returns:
        A resolver for `make_tools`. It raises `ScopeError` when a template value is missing
        and `ValueError` when no store can be found.

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.tools import default_resolver, make_tools

        store = InMemoryStore()
        resolver = default_resolver(store=store, scope=("users", "{user_id}"))
        (context,) = make_tools(mode="unified", allowed_keys=None, resolver=resolver)
        config = {"configurable": {"user_id": "ada"}}
        args = {"command": "create", "path": "notes/todo.md", "file_text": "ship it"}
        assert context.invoke(args, config) == "Created context://notes/todo.md."
        assert store.get(("users", "ada", "notes"), "todo.md").value["text"] == "ship it"
        ```
    """

    def resolve(run_config: RunnableConfig) -> Memory:
        target = store if store is not None else _graph_store()
        prefix = resolve_scope(scope, *scope_sources(run_config, None))
        return Memory(target, config, scope=prefix)

    return resolve
