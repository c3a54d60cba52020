"""A memory file broken by hand on `FileSystemStore` is a damaged entry, never a free key.

The store reads such a file as absent (LangGraph semantics); `unreadable_keys` tells the
memory layer it is there, so compiles report it, model writes are refused and only the
developer's `Memory.set`/`Memory.delete` replace it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from langchain_contextchef import ContextChef, Memory
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.memory import _cache
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import ahandle_tool, handle_tool
from tests.support.optional import require

_OTHER_ITEM = {
    "namespace": ["memory"],
    "key": "good",  # a valid document, but it names another key than its file name says
    "value": {"value": "x"},
    "created_at": "2026-01-01T00:00:00.000000Z",
    "updated_at": "2026-01-01T00:00:00.000000Z",
    "ttl_minutes": None,
    "expires_at": None,
}
BROKEN = {
    "invalid_json": '{"broken',
    "json_list": '[{"value": "v"}]',
    "mismatched_document": json.dumps(_OTHER_ITEM),
}


def _broken_memory(tmp_path: Path, content: str) -> tuple[Memory, Path]:
    memory = Memory(FileSystemStore(tmp_path / "ctx"))
    memory.set("good", "kept")
    memory.set("bad", "v0")
    memory.set("bad", "v")  # history holds bad@1
    path = tmp_path / "ctx" / "memory" / "bad.json"
    assert path.is_file()
    path.write_text(content, encoding="utf-8")
    return memory, path


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_store_reports_a_present_but_unreadable_key(tmp_path: Path, kind: str) -> None:
    store = FileSystemStore(tmp_path)
    store.put(("ns",), "bad", {"v": 1})
    store.put(("ns",), "good", {"v": 2})
    store.put(("ns",), "Odd Key!", {"v": 3})  # an encoded file name
    odd = next(p for p in (tmp_path / "ns").iterdir() if p.name.startswith("Odd"))
    (tmp_path / "ns" / "bad.json").write_text(BROKEN[kind], encoding="utf-8")
    # To LangGraph code the item is absent, as before.
    assert store.get(("ns",), "bad") is None
    assert sorted(i.key for i in store.search(("ns",))) == ["Odd Key!", "good"]
    assert store.unreadable_keys(("ns",)) == ["bad"]
    assert store.unreadable_keys(("ns",), ["bad", "good", "missing"]) == ["bad"]
    assert store.unreadable_keys(("elsewhere",)) == []
    # An encoded name reveals its key through the document while that still parses.
    odd.write_text(json.dumps({"key": "Odd Key!", "value": []}), encoding="utf-8")
    assert store.unreadable_keys(("ns",)) == ["Odd Key!", "bad"]
    # A plain put still replaces it (the store's own semantics are unchanged).
    store.put(("ns",), "bad", {"v": 9})
    item = store.get(("ns",), "bad")
    assert item is not None and item.value == {"v": 9}
    assert store.unreadable_keys(("ns",), ["bad"]) == []


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_file_is_named_damaged_by_compile_never_blocking_it(
    tmp_path: Path, kind: str
) -> None:
    store = FileSystemStore(tmp_path / "ctx")
    chef = ContextChef(store=store)
    memory, path = _broken_memory(tmp_path, BROKEN[kind])
    for _ in range(2):  # the first compile reads the scope; the second reuses what it read
        payload = chef.compile([HumanMessage("hi")])
        assert payload.meta.injected_keys == ["good"]
        assert payload.meta.damaged_keys == ["bad"]
        assert payload.meta.omitted["bad"] == "damaged"
    assert path.read_text(encoding="utf-8") == BROKEN[kind]
    with pytest.raises(DamagedEntryError, match=r"memory\.set\('bad'"):
        memory.get_entry("bad")


def test_a_file_broken_after_compiles_is_noticed_by_the_outside_write_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_cache, "EXTERNAL_CHECK_SECONDS", 0.0)  # check on every compile
    store = FileSystemStore(tmp_path / "ctx")
    chef = ContextChef(store=store)
    chef.get_memory().set("good", "kept")
    chef.get_memory().set("bad", "v")
    for _ in range(2):  # the second compile serves the scope from the process's cache
        assert chef.compile([HumanMessage("hi")]).meta.injected_keys == ["good", "bad"]
    (tmp_path / "ctx" / "memory" / "bad.json").write_text("[]", encoding="utf-8")
    meta = chef.compile([HumanMessage("hi")]).meta
    assert meta.injected_keys == ["good"]
    assert meta.damaged_keys == ["bad"]


_MODEL_WRITES = [
    ("create_memory", {"key": "bad", "value": "new"}),
    ("modify_memory", {"action": "update", "key": "bad", "value": "new"}),
    ("modify_memory", {"action": "delete", "key": "bad"}),
    ("context", {"command": "create", "path": "memory/bad", "file_text": "new"}),
    ("context", {"command": "view", "path": "memory/bad"}),
    ("context", {"command": "str_replace", "path": "memory/bad", "old_str": "v", "new_str": "w"}),
    ("context", {"command": "delete", "path": "memory/bad"}),
    ("context", {"command": "rename", "path": "memory/good", "new_path": "memory/bad"}),
]


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_model_cannot_overwrite_a_broken_file(tmp_path: Path, kind: str) -> None:
    memory, path = _broken_memory(tmp_path, BROKEN[kind])
    for name, args in _MODEL_WRITES:
        reply = handle_tool(name, args, memory)
        assert reply.startswith("Error: context://memory/bad is damaged"), (name, reply)
        assert "host" in reply  # says who can repair it
    result = memory.create_memory("bad", "new")
    assert result.status == "refused" and result.refusal is not None
    assert result.refusal.kind == "damaged"
    assert path.read_text(encoding="utf-8") == BROKEN[kind]
    assert memory.get("good") == "kept"  # the refused rename left its source alone


async def test_the_async_model_path_refuses_a_broken_file_too(tmp_path: Path) -> None:
    memory, path = _broken_memory(tmp_path, '{"broken')
    for name, args in _MODEL_WRITES[:4]:
        reply = await ahandle_tool(name, args, memory)
        assert reply.startswith("Error: context://memory/bad is damaged"), (name, reply)
    assert path.read_text(encoding="utf-8") == '{"broken'


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_developer_repairs_or_deletes_a_broken_file(tmp_path: Path, kind: str) -> None:
    memory, path = _broken_memory(tmp_path, BROKEN[kind])
    repaired = memory.set("bad", "fixed")
    assert repaired.version == 2  # past the version history holds, never 1 again
    assert memory.get("bad") == "fixed"
    assert [(r.version, r.entry.value) for r in memory.history("bad")] == [
        (1, "v0"),
        (2, "fixed"),
    ]
    assert handle_tool("create_memory", {"key": "bad", "value": "x"}, memory).startswith(
        "Error: context://memory/bad already exists"
    )
    path.write_text(BROKEN[kind], encoding="utf-8")
    assert memory.delete("bad") is True
    assert not path.exists()
    assert memory.delete("bad") is False
    assert handle_tool("create_memory", {"key": "bad", "value": "new"}, memory).startswith(
        "Created"
    )


async def test_the_async_developer_path_repairs_a_broken_file(tmp_path: Path) -> None:
    memory, path = _broken_memory(tmp_path, "[]")
    await memory.aset("bad", "fixed")
    assert await memory.aget("bad") == "fixed"
    path.write_text("[]", encoding="utf-8")
    assert await memory.adelete("bad") is True
    assert not path.exists()


def test_an_encrypted_store_passes_the_report_through(tmp_path: Path) -> None:
    require("cryptography", 'pip install "langchain-contextchef[encryption]"')
    from langchain_contextchef.encryption import EncryptedStore, generate_key

    memory = Memory(EncryptedStore(FileSystemStore(tmp_path / "ctx"), generate_key()))
    memory.set("bad", "v")
    path = tmp_path / "ctx" / "memory" / "bad.json"
    path.write_text("[]", encoding="utf-8")
    reply = handle_tool("create_memory", {"key": "bad", "value": "new"}, memory)
    assert reply.startswith("Error: context://memory/bad is damaged"), reply
    assert path.read_text(encoding="utf-8") == "[]"
