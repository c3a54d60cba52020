"""Damage never blocks its scope (issue 23, item 7), on every backend.

A turn clock edited by hand (`"abc"`, 10**30, a negative number, a bool, not JSON at all) is
recovered by the next compile: to the latest turn the entries allow (one below the smallest
turn-based expiry, so nothing expires early), never silently to turn 1 when entries say
otherwise; the compile reports it in `meta.repaired` and stores the repaired clock. A stamp
or an eviction note edited by hand never makes a write or a compile raise, and a process
that cached the scope still sees every later write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import Turns

SCOPE = ("users", "ada")
META = (*SCOPE, "memory_meta")
HI = [HumanMessage("hi")]


def plant(store: BaseStore, key: str, value: dict[str, Any]) -> None:
    """Write `value` at `META`/`key` behind the package's and the store's checks, by hand.

    The stores refuse integers JSON readers cannot keep (10**30), so damage of that kind is
    written as a person editing the data would: the file, or the row, directly.
    """
    store.put(META, key, {"placeholder": True})
    text = json.dumps(value)
    if isinstance(store, FileSystemStore):
        path = Path(store.root, *META, f"{key}.json")
        document = json.loads(path.read_text())
        path.write_text(json.dumps(document).replace('{"placeholder": true}', text))
    elif isinstance(store, SqliteStore):
        store.conn.execute(
            "UPDATE store SET value = ? WHERE prefix = ? AND key = ?", (text, ".".join(META), key)
        )
    elif type(store).__name__ == "PostgresStore":
        with store._cursor() as cur:  # type: ignore[attr-defined]
            cur.execute(
                "UPDATE store SET value = %s::jsonb WHERE prefix = %s AND key = %s",
                (text, ".".join(META), key),
            )
    else:
        store.put(META, key, value)


def chef_on(store: BaseStore, **config: Any) -> ContextChef:
    return ContextChef(store=store, scope=SCOPE, memory=MemoryConfig(**config))


def written_at_turn_five(store: BaseStore) -> ContextChef:
    """Five compiles, then `keep` (no expiry) and `short` (3 turns: expires at turn 8)."""
    chef = chef_on(store)
    for _ in range(5):
        chef.compile(HI)
    memory = chef.get_memory()
    memory.set("keep", "forever")
    memory.set("short", "soon", ttl=Turns(3))
    assert memory.turn == 5
    return chef


@pytest.mark.parametrize("bad", ["abc", 10**30, -4, True, 2.5, None, [3]], ids=repr)
def test_a_damaged_clock_is_recovered_from_the_entries(store: BaseStore, bad: Any) -> None:
    written_at_turn_five(store)
    plant(store, "clock", {"turn": bad})
    chef = chef_on(store)  # a fresh process's view

    payload = chef.compile(HI)

    # The latest turn the entries allow is 7 (`short` expires at 8): this compile claims 7.
    assert payload.meta.repaired == ["clock"]
    assert payload.meta.turn == 8
    assert payload.meta.injected_keys == ["keep", "short"]
    assert store.get(META, "clock").value["turn"] == 8  # repaired in the store
    again = chef.compile(HI)
    assert again.meta.repaired == []
    assert again.meta.expired_keys == ["short"]  # its sweep turn, 8, has come
    reply = chef.handle_tool(
        {"name": "create_memory", "args": {"key": "x", "value": "y"}, "id": "1"}
    )
    assert reply.content == "Created context://memory/x."


def test_a_damaged_clock_without_turn_based_entries_restarts_at_zero(store: BaseStore) -> None:
    chef = chef_on(store)
    chef.get_memory().set("keep", "forever")
    store.put(META, "clock", {"turn": "abc"})
    payload = chef_on(store).compile(HI)
    assert payload.meta.repaired == ["clock"] and payload.meta.turn == 1
    assert payload.meta.injected_keys == ["keep"]


def test_a_valid_clock_is_not_reported(store: BaseStore) -> None:
    written_at_turn_five(store)
    payload = chef_on(store).compile(HI)
    assert payload.meta.repaired == [] and payload.meta.turn == 6


def test_a_clock_file_that_is_not_json_is_recovered_not_reset(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path / ".context")
    written_at_turn_five(store)
    clock = tmp_path / ".context" / "users" / "ada" / "memory_meta" / "clock.json"
    assert clock.is_file()
    clock.write_text("{not json")

    payload = chef_on(FileSystemStore(tmp_path / ".context")).compile(HI)

    assert payload.meta.repaired == ["clock"]
    assert payload.meta.turn == 8  # not 1: the entries say the clock stood past turn 5
    assert json.loads(clock.read_text())["value"]["turn"] == 8


async def test_a_damaged_clock_is_recovered_through_acompile(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path / ".context")  # SqliteStore and PostgresStore are sync-only
    written_at_turn_five(store)
    store.put(META, "clock", {"turn": "abc"})
    payload = await chef_on(store).acompile(HI)
    assert payload.meta.repaired == ["clock"] and payload.meta.turn == 8


DAMAGED_STAMPS = [
    {"epoch": "e", "stamp": 3, "log": 5},
    {"epoch": "e", "stamp": 3, "log": [["x", "a"]]},
    {"epoch": "e", "stamp": 3, "log": [[1, 2]]},
    {"epoch": 1, "stamp": "x"},
    {"epoch": "e", "stamp": 10**30, "log": []},
    {"epoch": "e", "stamp": -1, "log": []},
    {"stamp": True},
]


@pytest.mark.parametrize("bad", DAMAGED_STAMPS, ids=repr)
def test_a_damaged_stamp_blocks_no_write_and_hides_no_change(
    store: BaseStore, bad: dict[str, Any]
) -> None:
    watcher = chef_on(store)
    watcher.get_memory().set("tone", "dry")
    assert watcher.compile(HI).meta.injected_keys == ["tone"]  # its cache is warm
    plant(store, "stamp", bad)

    writer = chef_on(store)
    for call in (
        {"name": "create_memory", "args": {"key": "city", "value": "Oslo"}, "id": "1"},
        {"name": "modify_memory", "args": {"action": "update", "key": "tone", "value": "wry"}},
    ):
        reply = writer.handle_tool({"id": "2", **call})
        assert not str(reply.content).startswith("Error:"), reply.content
    writer.get_memory().set("lang", "en")

    seen = watcher.compile(HI)
    assert sorted(seen.meta.injected_keys) == ["city", "lang", "tone"]
    assert watcher.get_memory().get("tone") == "wry"


@pytest.mark.parametrize("bad", [5, "abc", None, [1, 2]], ids=repr)
def test_a_damaged_eviction_note_blocks_nothing(store: BaseStore, bad: Any) -> None:
    chef = chef_on(store, max_entries=2)
    store.put(META, "evicted", {"keys": bad})
    for key in ("a", "b", "c"):
        reply = chef.handle_tool(
            {"name": "create_memory", "args": {"key": key, "value": key}, "id": key}
        )
        assert reply.content == f"Created context://memory/{key}."
    payload = chef.compile(HI)
    assert len(payload.meta.injected_keys) == 2
    assert payload.meta.evicted_keys == ["a"]
