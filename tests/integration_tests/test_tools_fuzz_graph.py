"""Fuzz: generated tool calls through a real `ToolNode` graph never raise, and errors write nothing.

A scripted model makes one tool call per turn, from both vocabularies (`create_memory`,
`modify_memory`, `recall_memory` and every `context` command), with keys and paths built from
every whitespace, control and format character (Unicode categories Zs, Zl, Zp, Cc, Cf), lone
surrogates, private-use and non-characters, around plain keys and path parts. The `ToolNode`
re-raises any exception (`handle_tool_errors=False`), so a single one fails the run. Before
each turn the model reads the whole store: when the previous call answered `Error: ...`, the
store must be exactly as it was before that call.

Two parts, each counted: a sweep that puts every such character before, inside and after a
key, and hypothesis-generated runs (derandomized, so CI sees the same calls every time). The
sweep and the main fuzz run on `InMemoryStore`; a shorter fuzz runs on `FileSystemStore` and
SQLite, whose key encodings are where such characters could break.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import unicodedata
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langgraph._internal._runnable import RunnableCallable
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite.aio import AsyncSqliteStore
from pydantic import ConfigDict, Field

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import (
    CONTEXT_COMMANDS,
    RecallMemoryTool,
    default_resolver,
    make_tools,
)
from tests.support.stores import adump, dump

SPECIAL = [
    chr(code)
    for code in range(sys.maxunicode + 1)
    if chr(code).isspace() or unicodedata.category(chr(code)) in ("Zs", "Zl", "Zp", "Cc", "Cf")
] + ["\ud800", "\udfff", "\ue000", "\U000f0000", "\ufffe", "\uffff"]
"""Every whitespace, control and format character, and a few lone surrogates, private-use
characters and non-characters."""

SCOPE = ("users", "{user_id}")
RUN = {"configurable": {"user_id": "ada"}}


class Checker(BaseChatModel):
    """Makes one scripted tool call per turn and checks, each turn, what the last one did."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    calls: list[ToolCall]
    store: Any
    before: list[Any] = Field(default_factory=list)
    results: list[tuple[str, str]] = Field(default_factory=list)
    violations: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "fuzz-checker"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._turn(messages, dump(self.store))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._turn(messages, await adump(self.store))

    def _turn(self, messages: list[BaseMessage], now: list[Any]) -> ChatResult:
        done = len(self.results)
        last = messages[-1]
        if isinstance(last, ToolMessage):
            call = self.calls[done]
            text = last.content if isinstance(last.content, str) else repr(last.content)
            self.results.append((call["id"] or "", text))
            if not text:
                self.violations.append(f"empty result for {call!r}")
            if text.startswith("Error:") and now != self.before:
                self.violations.append(f"{call!r} answered {text!r} but changed the store")
            if text.startswith("Error:") != (last.status == "error"):
                self.violations.append(f"{call!r}: status {last.status} for {text!r}")
        self.before = now
        index = len(self.results)
        if index < len(self.calls):
            reply = AIMessage("", tool_calls=[self.calls[index]])
        else:
            reply = AIMessage("done")
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, BaseMessage]:
        return self


async def seed(store: BaseStore) -> None:
    memory = Memory(store, scope=("users", "ada"))
    await memory.aset("lang", "Python\nstep one", description="language", type="fact")
    await memory.aset("a/b", "nested")
    await memory.aset("tone", "dry", type="preference")
    await store.aput(("users", "ada", "notes"), "plan.md", {"text": "step"})


def graph_for(store: BaseStore, calls: list[ToolCall]) -> tuple[Any, Checker]:
    """A ToolNode graph on `store` whose model makes `calls`, one per turn."""
    resolver = default_resolver(MemoryConfig(), scope=SCOPE)
    tools = [
        *make_tools(mode="legacy", allowed_keys=None, resolver=resolver),
        *make_tools(mode="unified", allowed_keys=None, resolver=resolver),
        RecallMemoryTool(resolver=resolver),
    ]
    model = Checker(calls=calls, store=store)

    def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    async def acall_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("model", RunnableCallable(call_model, acall_model))
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=False))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", route, ["tools", END])
    graph.add_edge("tools", "model")
    return graph.compile(store=store), model


async def run_calls(store: BaseStore, calls: list[ToolCall]) -> Checker:
    """Run `calls` one per turn through the graph with `ainvoke` (as an async agent does)."""
    app, model = graph_for(store, calls)
    limit = {"recursion_limit": 2 * len(calls) + 10}
    await app.ainvoke({"messages": [HumanMessage("go")]}, {**RUN, **limit})
    assert len(model.results) == len(calls)
    return model


def run_calls_sync(store: BaseStore, calls: list[ToolCall]) -> Checker:
    """Run `calls` through the graph with `invoke`: the sync tools, each call in a thread."""
    app, model = graph_for(store, calls)
    limit = {"recursion_limit": 2 * len(calls) + 10}
    app.invoke({"messages": [HumanMessage("go")]}, {**RUN, **limit})
    assert len(model.results) == len(calls)
    return model


# ---- strategies -------------------------------------------------------------------------------

# Whitespace is drawn as often as every other special character together: the one rule
# that refuses padded keys is about it.
whitespace = st.text(
    st.sampled_from([ch for ch in SPECIAL if ch.isspace()]), min_size=1, max_size=2
)
others = st.text(st.sampled_from(SPECIAL), min_size=1, max_size=2)
special = st.sampled_from(SPECIAL)
plain = st.sampled_from(["lang", "tone", "a/b", "a", "b", "plan.md", "new", ".", "..", ""])
padding = st.one_of(whitespace, others, st.builds(lambda a, b: a + b, whitespace, others))
keys = st.one_of(
    plain,
    st.builds(lambda pre, key: pre + key, padding, plain),
    st.builds(lambda key, post: key + post, plain, padding),
    st.builds(lambda pre, key, post: pre + key + post, padding, plain, padding),
    st.builds(lambda a, mid, b: a + mid + b, plain, padding, plain),
    st.text(st.one_of(special, st.sampled_from("ab/.")), max_size=8),
)
prefixes = st.sampled_from(
    ["memory/", "context://memory/", "/memory/", "notes/", "context://notes/", "vfs/", "archive/"]
)
paths = st.one_of(
    st.builds(lambda pre, key: pre + key, prefixes, keys),
    st.builds(lambda pad, pre, key: pad + pre + key, padding, prefixes, keys),
    st.builds(lambda pre, pad: pre + pad, prefixes, padding),
)
texts = st.one_of(st.sampled_from(["Go", "step", "Python"]), st.text(max_size=12), padding)
types = st.one_of(st.none(), st.sampled_from(["fact", "preference", "bogus"]), padding)


def _context(command: str) -> Any:
    optional = {
        "file_text": texts,
        "old_str": st.sampled_from(["step", "Python", "x"]) | padding,
        "new_str": texts,
        "insert_line": st.integers(-1, 3),
        "insert_text": texts,
        "new_path": paths,
        "query": texts,
        "description": texts,
        "type": types,
        "supersedes": st.lists(keys, max_size=2),
    }
    return st.fixed_dictionaries(
        {"command": st.just(command), "path": paths}, optional=optional
    ).map(lambda args: ("context", args))


legacy = st.one_of(
    st.fixed_dictionaries(
        {"key": keys, "value": texts},
        optional={"description": texts, "type": types, "supersedes": st.lists(keys, max_size=2)},
    ).map(lambda args: ("create_memory", args)),
    st.fixed_dictionaries(
        {"action": st.sampled_from(["update", "delete"]) | padding, "key": keys},
        optional={"value": texts, "type": types},
    ).map(lambda args: ("modify_memory", args)),
    st.fixed_dictionaries({"key": keys}).map(lambda args: ("recall_memory", args)),
)
one_call = st.one_of(legacy, *[_context(c) for c in CONTEXT_COMMANDS])
CALLS_PER_RUN = 25
runs = st.lists(one_call, min_size=CALLS_PER_RUN, max_size=CALLS_PER_RUN)


def as_tool_calls(drawn: list[tuple[str, dict[str, Any]]]) -> list[ToolCall]:
    return [
        {"name": name, "args": args, "id": f"f{i}", "type": "tool_call"}
        for i, (name, args) in enumerate(drawn)
    ]


StoreMaker = Callable[[], AsyncIterator[BaseStore]]


def fuzz(make_store: StoreMaker, examples: int, *, sync: bool = False) -> int:
    """Run `examples` generated runs, each on a fresh seeded store; return the calls made."""
    made = [0]

    async def once(calls: list[ToolCall]) -> Checker:
        async with contextlib.aclosing(make_store()) as stores:
            store = await anext(stores)
            await seed(store)
            if sync:
                return await asyncio.to_thread(run_calls_sync, store, calls)
            return await run_calls(store, calls)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn=runs)
    def one_run(drawn: list[tuple[str, dict[str, Any]]]) -> None:
        checker = asyncio.run(once(as_tool_calls(drawn)))
        assert checker.violations == []
        made[0] += len(drawn)

    one_run()
    return made[0]


async def in_memory() -> AsyncIterator[BaseStore]:
    yield InMemoryStore()


# ---- the tests --------------------------------------------------------------------------------


async def test_every_special_character_before_inside_and_after_a_key() -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    for ch in SPECIAL:
        calls += [
            ("context", {"command": "create", "path": f"memory/{ch}lang", "file_text": "v"}),
            ("create_memory", {"key": f"lang{ch}", "value": "v"}),
            ("context", {"command": "create", "path": f"memory/la{ch}ng", "file_text": "v"}),
            ("context", {"command": "view", "path": f"memory/la{ch}ng"}),
        ]
    results: list[tuple[str, str]] = []
    for start in range(0, len(calls), CALLS_PER_RUN):
        store = InMemoryStore()
        await seed(store)
        checker = await run_calls(store, as_tool_calls(calls[start : start + CALLS_PER_RUN]))
        assert checker.violations == []
        results += checker.results
    assert len(results) == len(calls) == 4 * len(SPECIAL) > 1_000
    texts = [text for _, text in results]
    # At a key's edges whitespace is refused with the one rule's text; every other character
    # there, and every character inside a key, is refused or stored, never raised.
    for ch, edge in zip(SPECIAL, texts[0::4], strict=True):
        if ch.isspace():
            assert "starts or ends with whitespace" in edge, (ch, edge)


def test_generated_calls_async_on_an_in_memory_store() -> None:
    assert fuzz(in_memory, examples=36) == 36 * CALLS_PER_RUN


def test_generated_calls_sync_on_an_in_memory_store() -> None:
    assert fuzz(in_memory, examples=10, sync=True) == 10 * CALLS_PER_RUN


def test_generated_calls_on_file_backed_stores(tmp_path: Path) -> None:
    count = [0]

    async def filesystem() -> AsyncIterator[BaseStore]:
        count[0] += 1
        yield FileSystemStore(tmp_path / f"fs{count[0]}" / ".context")

    async def sqlite() -> AsyncIterator[BaseStore]:
        count[0] += 1
        path = str(tmp_path / f"s{count[0]}.db")
        async with AsyncSqliteStore.from_conn_string(path) as store:
            await store.setup()
            yield store

    made = fuzz(filesystem, examples=8) + fuzz(sqlite, examples=8)
    assert made == 16 * CALLS_PER_RUN
