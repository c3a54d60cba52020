"""Guarantees that must hold where users run the package (single process; see the integration
tests for real processes on every backend): damaged entries never block a scope, look-alike
keys are refused, a mistaken compile changes nothing, and threads never lose a write."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory, MemoryConfig
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.tools import handle_tool


def _damage(memory: Memory, key: str, **fields: Any) -> None:
    item = memory.store.get(memory.namespace, key)
    assert item is not None
    memory.store.put(memory.namespace, key, {**item.value, **fields})


@pytest.mark.parametrize(
    "damage",
    [{"type": 5}, {"update_count": "three"}, {"created_at": 12}, {"supersedes": "x"}],
)
def test_a_damaged_entry_is_skipped_and_reported_never_blocking_its_scope(
    damage: dict[str, Any],
) -> None:
    chef = ContextChef(store=InMemoryStore())
    memory = chef.get_memory()
    memory.set("good", "kept")
    memory.set("bad", "hand-edited")
    _damage(memory, "bad", **damage)
    payload = chef.compile([HumanMessage("hi")])
    assert payload.meta.injected_keys == ["good"]
    assert payload.meta.damaged_keys == ["bad"]
    assert payload.meta.omitted["bad"] == "damaged"
    assert [e.key for e in memory.list()] == ["good"]
    with pytest.raises(DamagedEntryError, match=r"memory\.set\('bad'"):
        memory.get_entry("bad")


def test_the_model_cannot_overwrite_or_read_a_damaged_entry() -> None:
    memory = Memory(InMemoryStore())
    memory.set("bad", "v")
    _damage(memory, "bad", status="unknown")
    before = memory.store.get(memory.namespace, "bad")
    for name, args in [
        ("create_memory", {"key": "bad", "value": "new"}),
        ("modify_memory", {"action": "update", "key": "bad", "value": "new"}),
        ("modify_memory", {"action": "delete", "key": "bad"}),
        ("context", {"command": "view", "path": "memory/bad"}),
        (
            "context",
            {"command": "str_replace", "path": "memory/bad", "old_str": "v", "new_str": "w"},
        ),
    ]:
        reply = handle_tool(name, args, memory)
        assert reply.startswith("Error: context://memory/bad is damaged"), (name, reply)
    result = memory.create_memory("bad", "new")
    assert result.status == "refused" and result.refusal is not None
    assert result.refusal.kind == "damaged"
    after = memory.store.get(memory.namespace, "bad")
    assert after is not None and before is not None and after.value == before.value


def test_the_developer_repairs_a_damaged_entry_without_reusing_a_version() -> None:
    memory = Memory(InMemoryStore())
    memory.set("k", "v1")
    memory.set("k", "v2")
    memory.set("k", "v3")  # history holds k@1 and k@2
    _damage(memory, "k", update_count=None, created_at="not a time")
    repaired = memory.set("k", "fixed")
    assert repaired.version == 3  # past every version history holds, never 1 again
    assert [(r.version, r.entry.value) for r in memory.history("k")] == [
        (1, "v1"),
        (2, "v2"),
        (3, "fixed"),
    ]


def test_the_developer_can_delete_a_damaged_entry() -> None:
    memory = Memory(InMemoryStore())
    memory.set("k", "v")
    _damage(memory, "k", value=5)
    assert memory.delete("k") is True
    assert memory.store.get(memory.namespace, "k") is None


@pytest.mark.parametrize("key", [" lang", "lang ", "lang\n", "\tlang"])
def test_keys_with_surrounding_whitespace_are_refused_on_both_paths(key: str) -> None:
    memory = Memory(InMemoryStore())
    with pytest.raises(ValueError, match="whitespace"):
        memory.set(key, "v")
    reply = handle_tool("create_memory", {"key": key, "value": "v"}, memory)
    assert reply.startswith("Error: ")
    assert memory.list() == []


def test_padded_allowed_keys_are_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="whitespace"):
        MemoryConfig(allowed_keys=["lang", "lang "])


@pytest.mark.parametrize("given", ["hi", b"hi", ["hi"], [HumanMessage("hi"), "there"], None])
async def test_compile_refuses_what_is_not_a_message_list_and_changes_nothing(given: Any) -> None:
    chef = ContextChef(store=InMemoryStore())
    with pytest.raises(TypeError, match="LangChain messages"):
        chef.compile(given)
    with pytest.raises(TypeError, match="LangChain messages"):
        await chef.acompile(given)
    assert chef.get_memory().turn == 0


def test_threads_never_lose_an_update_or_create_twice() -> None:
    memory = Memory(InMemoryStore())
    memory.set("counter", "0")
    replies: list[str] = []

    def work(n: int) -> None:
        for i in range(10):
            args = {"action": "update", "key": "counter", "value": f"{n}-{i}"}
            replies.append(handle_tool("modify_memory", args, memory))
        replies.append(handle_tool("create_memory", {"key": "once", "value": str(n)}, memory))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    updated = sum(r.startswith("Updated") for r in replies)
    assert updated == 80
    history = memory.history("counter")
    assert [r.version for r in history] == list(range(1, 82))
    assert sum(r.startswith("Created") for r in replies) == 1


THREADS = 8


def _in_threads(work: Any) -> list[Any]:
    results: list[Any] = [None] * THREADS
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            results[n] = work(n)
        except BaseException as exc:  # reported below: a failed thread must fail the test
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    return results


def test_threads_compare_and_set_has_exactly_one_winner_every_round() -> None:
    memory = Memory(InMemoryStore())
    memory.set("cas", "start")
    rounds = 10
    barrier = threading.Barrier(THREADS, timeout=60)

    def work(n: int) -> list[str]:
        replies = []
        for r in range(rounds):
            barrier.wait()  # everyone has finished the previous round
            entry = memory.get_entry("cas")
            assert entry is not None
            seen = entry.version
            barrier.wait()  # everyone has read the same version
            args = {"action": "update", "key": "cas", "value": f"{r} by {n}", "version": seen}
            replies.append(handle_tool("modify_memory", args, memory))
        return replies

    replies = _in_threads(work)
    for r in range(rounds):
        answers = [replies[n][r] for n in range(THREADS)]
        winners = [a for a in answers if a == "Updated context://memory/cas."]
        assert len(winners) == 1, answers
        assert all(a == winners[0] or "changed since you read it" in a for a in answers)
    assert [r.version for r in memory.history("cas")] == list(range(1, 2 + rounds))


def test_threads_compiling_at_once_count_every_turn_and_keep_a_turn_ttl() -> None:
    chef = ContextChef(store=InMemoryStore())
    memory = chef.get_memory()
    memory.set("brief", "five turns only", ttl={"turns": 5})
    memory.set("always", "kept")
    compiles = 20
    barrier = threading.Barrier(THREADS, timeout=60)

    def work(n: int) -> list[list[str]]:
        barrier.wait()
        return [chef.compile([HumanMessage("hi")]).meta.injected_keys for _ in range(compiles)]

    injected = [keys for per_thread in _in_threads(work) for keys in per_thread]
    assert memory.turn == THREADS * compiles
    assert sum("brief" in keys for keys in injected) == 5
    assert sum("always" in keys for keys in injected) == THREADS * compiles
