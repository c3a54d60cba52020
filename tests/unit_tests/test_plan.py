"""The plan drivers: one plan, two drivers, the same outcome; and the drivers' own rules.

Every operation of the package is a plan that `run_sync` and `run_async` execute. The parity
test runs the same sequence of plans (the memory engine's, the compile's and a tool call's)
through each driver on its own fresh `InMemoryStore` and fake clock, and compares what they
return, which round trips they made, which hooks they called and what they left in the store.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Generator
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.store.base import BaseStore, GetOp, PutOp, Result
from langgraph.store.memory import InMemoryStore

from langchain_contextchef._plan import Call, Exclusive, Io, Plan, gather, run_async, run_sync
from langchain_contextchef.compile import CompileSettings, compile_plan
from langchain_contextchef.entry import MemoryChangeEvent
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.memory._plans import (
    compile_read,
    model_delete,
    model_write,
    recall_entry,
)
from langchain_contextchef.tools import dispatch
from tests.support.clocks import FakeClock
from tests.support.stores import RecordingStore, Row, dump

# ---- parity: the same plans through both drivers ------------------------------------------------

MESSAGES: list[BaseMessage] = [
    SystemMessage("You are terse."),
    HumanMessage("Which language do I use?"),
]


class Hooks:
    """The user hooks of one run: a veto that refuses one word, a change log, implicit context."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, str, str | None]] = []
        self.vetoed: list[str] = []

    def veto(self, key: str, value: str | None, old: str | None) -> bool:
        if value is not None and "forbidden" in value:
            self.vetoed.append(key)
            return False
        return True

    def changed(self, event: MemoryChangeEvent) -> None:
        self.changes.append((event.type, event.key, event.value))

    def before_compile(self, _input: Any) -> str:
        return "The user is on a train."


Scenario = list[tuple[str, Callable[[Memory, Hooks], Plan[Any]]]]

SCENARIO: Scenario = [
    (
        "create",
        lambda m, h: model_write(
            m.context,
            "lang",
            "Python 3.11",
            description="language",
            provenance=None,
            must_exist=False,
        ),
    ),
    (
        "create-again",  # refused: it exists
        lambda m, h: model_write(
            m.context, "lang", "Go", description=None, provenance=None, must_exist=False
        ),
    ),
    (
        "update",
        lambda m, h: model_write(
            m.context,
            "lang",
            "Python 3.12",
            description=None,
            provenance=None,
            must_exist=True,
            expected_version=1,
        ),
    ),
    (
        "update-stale",  # refused: the writer saw version 1, the entry is at 2
        lambda m, h: model_write(
            m.context,
            "lang",
            "Rust",
            description=None,
            provenance=None,
            must_exist=True,
            expected_version=1,
        ),
    ),
    (
        "update-vetoed",  # refused by the host's hook (a Call step)
        lambda m, h: model_write(
            m.context, "lang", "forbidden", description=None, provenance=None, must_exist=True
        ),
    ),
    (
        "create-second",
        lambda m, h: model_write(
            m.context, "tone", "dry", description=None, provenance=None, must_exist=False
        ),
    ),
    ("recall", lambda m, h: recall_entry(m.context, "lang")),
    ("recall-missing", lambda m, h: recall_entry(m.context, "nope")),
    ("compile-read", lambda m, h: compile_read(m.context, "hi", marker="m1")),
    ("compile-read-same-turn", lambda m, h: compile_read(m.context, "hi", marker="m1")),
    (
        "compile",
        lambda m, h: compile_plan(
            CompileSettings("unified", on_before_compile=h.before_compile),
            MESSAGES,
            {"step": 2},
            None,
            m.context,
        ),
    ),
    (
        "tool-str-replace",
        lambda m, h: dispatch(
            "context",
            {"command": "str_replace", "path": "memory/lang", "old_str": "3.12", "new_str": "3.13"},
            m,
            tool_call_id="call-1",
        ),
    ),
    (
        "tool-rename",
        lambda m, h: dispatch(
            "context",
            {"command": "rename", "path": "memory/tone", "new_path": "memory/voice"},
            m,
            tool_call_id="call-2",
        ),
    ),
    ("tool-view", lambda m, h: dispatch("context", {"command": "view", "path": "memory/"}, m)),
    ("delete", lambda m, h: model_delete(m.context, "voice")),
    ("delete-missing", lambda m, h: model_delete(m.context, "voice")),
    (
        "compile-after",
        lambda m, h: compile_plan(CompileSettings("unified"), MESSAGES, None, None, m.context),
    ),
]


def _contents(store: BaseStore) -> list[Row]:
    """`dump`, with the stamp's epoch masked: a random id by design, so each store has its own."""
    rows = dump(store)
    for i, (namespace, key, value) in enumerate(rows):
        if key == "stamp":
            rows[i] = (namespace, key, re.sub(r'"epoch": "[0-9a-f]{32}"', '"epoch": "*"', value))
    return rows


def _memory(hooks: Hooks) -> Memory:
    config = MemoryConfig(
        on_memory_update=hooks.veto, on_memory_changed=hooks.changed, max_entries=5
    )
    return Memory(RecordingStore(InMemoryStore()), config, scope=("u1",), clock=FakeClock())


def _run_sync() -> tuple[list[Any], Memory, Hooks]:
    hooks = Hooks()
    memory = _memory(hooks)
    results = [run_sync(build(memory, hooks), memory.store) for _, build in SCENARIO]
    return results, memory, hooks


async def _run_async() -> tuple[list[Any], Memory, Hooks]:
    hooks = Hooks()
    memory = _memory(hooks)
    results = [await run_async(build(memory, hooks), memory.store) for _, build in SCENARIO]
    return results, memory, hooks


def test_the_sync_and_the_async_driver_run_the_same_plans_alike() -> None:
    sync_results, sync_memory, sync_hooks = _run_sync()
    async_results, async_memory, async_hooks = asyncio.run(_run_async())

    for (name, _), got_sync, got_async in zip(SCENARIO, sync_results, async_results, strict=True):
        assert got_sync == got_async, name
    sync_store, async_store = sync_memory.store, async_memory.store
    assert isinstance(sync_store, RecordingStore) and isinstance(async_store, RecordingStore)
    assert _contents(sync_store.inner) == _contents(async_store.inner)
    assert [key for _, key, _ in _contents(sync_store.inner)] == [
        "lang",  # the entry left; then the history, the turn clock, the stamp, key versions
        *("lang@1", "lang@2", "tone@1", "voice@1"),
        *("clock", "stamp", "version:tone", "version:voice"),
    ]
    assert sync_store.trips == async_store.trips
    assert (sync_hooks.changes, sync_hooks.vetoed) == (async_hooks.changes, async_hooks.vetoed)

    # The scenario did what its names say, so the comparison above compares real work.
    outcome = dict(zip([name for name, _ in SCENARIO], sync_results, strict=True))
    statuses = [outcome[n].status for n in ("create", "create-again", "update", "update-stale")]
    assert statuses == ["created", "already_exists", "updated", "stale"]
    assert outcome["update-vetoed"].status == "vetoed"
    assert outcome["recall"].value == "Python 3.12" and outcome["recall-missing"] is None
    assert outcome["compile-read"].turn == outcome["compile-read-same-turn"].turn == 1
    payload = outcome["compile"]
    assert payload.meta.injected_keys == ["lang", "tone"]
    assert any("on a train" in str(m.content) for m in payload.messages)
    assert outcome["tool-str-replace"] == "Edited context://memory/lang."
    assert outcome["tool-rename"] == "Renamed context://memory/tone to context://memory/voice."
    assert "context://memory/voice" in outcome["tool-view"]
    assert (outcome["delete"].status, outcome["delete-missing"].status) == ("deleted", "not_found")
    assert outcome["compile-after"].meta.injected_keys == ["lang"]
    assert sync_hooks.vetoed == ["lang"]
    assert [key for _, key, _ in sync_hooks.changes] == [
        "lang",
        "lang",
        "tone",
        "lang",
        "voice",
        "tone",
        "voice",
    ]


# ---- the drivers' own rules ---------------------------------------------------------------------

Driver = Callable[[Plan[Any], BaseStore], Any]


def _sync(plan: Plan[Any], store: BaseStore) -> Any:
    return run_sync(plan, store)


def _async(plan: Plan[Any], store: BaseStore) -> Any:
    return asyncio.run(run_async(plan, store))


DRIVERS = pytest.mark.parametrize("drive", [_sync, _async], ids=["sync", "async"])


@DRIVERS
def test_gather_answers_by_name_with_none_and_sequence_slots(drive: Driver) -> None:
    store = RecordingStore(InMemoryStore())
    store.inner.put(("n",), "a", {"v": 1})
    store.inner.put(("n",), "b", {"v": 2})

    def plan() -> Plan[Any]:
        got = yield from gather(
            first=GetOp(("n",), "a"),
            skipped=None,
            many=[GetOp(("n",), "b"), GetOp(("n",), "missing"), GetOp(("n",), "a")],
            nothing=[],
            last=GetOp(("n",), "b"),
        )
        return got

    got = drive(plan(), store)
    assert store.trips == [["get a", "get b", "get missing", "get a", "get b"]]  # one batch
    assert got.first.value == {"v": 1}
    assert got.skipped is None
    assert [item and item.value for item in got.many] == [{"v": 2}, None, {"v": 1}]
    assert got.nothing == []
    assert got.last.value == {"v": 2}


@DRIVERS
def test_gather_of_skipped_reads_makes_no_round_trip(drive: Driver) -> None:
    store = RecordingStore(InMemoryStore())

    def plan() -> Plan[Any]:
        return (yield from gather(a=None, b=[]))

    got = drive(plan(), store)
    assert (got.a, got.b) == (None, [])
    assert store.trips == []


class Boom(Exception):
    pass


def _raise(message: str) -> None:
    raise Boom(message)


@DRIVERS
def test_a_failing_step_is_thrown_into_the_plan_at_its_yield(drive: Driver) -> None:
    store = InMemoryStore()
    seen: list[str] = []

    def plan() -> Plan[str]:
        try:
            yield Call(_raise, ("hook failed",), "on_memory_update")
            seen.append("after the hook")  # never: the failure arrives at the yield above
        except Boom as caught:
            seen.append(f"caught {caught}")
        # The plan goes on after handling it, and the driver keeps serving its steps.
        yield Io([PutOp(("n",), "k", {"v": 1})])
        return "recovered"

    assert drive(plan(), store) == "recovered"
    assert seen == ["caught hook failed"]
    item = store.get(("n",), "k")
    assert item is not None and item.value == {"v": 1}


@DRIVERS
def test_an_unhandled_failure_ends_the_plan_after_its_cleanup(drive: Driver) -> None:
    store = InMemoryStore()
    cleaned: list[str] = []

    def plan() -> Plan[None]:
        try:
            yield Call(_raise, ("store down",), "hook")
            yield Io([PutOp(("n",), "k", {"v": 1})])  # never reached
        finally:
            cleaned.append("cleanup")

    with pytest.raises(Boom, match="store down"):
        drive(plan(), store)
    assert cleaned == ["cleanup"]
    assert store.search(()) == []


class FailingStore(InMemoryStore):
    def batch(self, ops: Any) -> list[Result]:
        raise Boom("batch failed")

    async def abatch(self, ops: Any) -> list[Result]:
        raise Boom("abatch failed")


@DRIVERS
def test_a_failing_batch_reaches_the_plan_as_its_exception(drive: Driver) -> None:
    def plan() -> Plan[str]:
        try:
            yield Io([GetOp(("n",), "k")])
        except Boom as caught:
            return f"handled: {caught}"
        return "unreachable"

    assert drive(plan(), FailingStore()) in ("handled: batch failed", "handled: abatch failed")


@DRIVERS
def test_an_unknown_step_fails_loudly_and_touches_nothing(drive: Driver) -> None:
    store = RecordingStore(InMemoryStore())

    def plan() -> Generator[Any, Any, str]:
        yield ("put", ("n",), "k")  # a tuple that looks like a step but is none
        yield Io([PutOp(("n",), "k", {"v": 1})])
        return "done"

    with pytest.raises(AssertionError, match="unreachable"):
        drive(plan(), store)
    assert store.trips == []
    assert dump(store.inner) == []


@DRIVERS
def test_an_exclusive_step_runs_the_nested_plan_and_sends_back_its_result(drive: Driver) -> None:
    store = RecordingStore(InMemoryStore())
    wrapped: list[str] = []

    def inner() -> Plan[int]:
        yield Io([PutOp(("s",), "k", {"v": 1})])
        return 41

    def wrap(plan: Plan[Any]) -> Plan[Any]:
        wrapped.append("wrapped")
        return (yield from plan)

    def outer() -> Plan[int]:
        got = yield Exclusive(("s",), inner(), wrap=wrap)
        return int(got) + 1

    assert drive(outer(), store) == 42
    assert wrapped == ["wrapped"]
    assert store.trips == [["put k"]]


def test_the_sync_driver_refuses_an_async_hook_and_the_async_driver_awaits_it() -> None:
    async def hook() -> str:
        return "awaited"

    def plan() -> Plan[Any]:
        return (yield Call(hook, (), "on_before_compile"))

    with pytest.raises(TypeError, match="on_before_compile hook returned an awaitable"):
        run_sync(plan(), InMemoryStore())
    assert asyncio.run(run_async(plan(), InMemoryStore())) == "awaited"
