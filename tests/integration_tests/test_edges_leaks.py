"""Small leaks at the edges (issue 23, item 10), through the paths a user takes.

* FileSystemStore files are owner-only (0600) and its folders 0700, whatever the umask;
* tenant ids with invisible characters (zero-width, bidi controls, Hangul fillers,
  unassigned code points) are refused before anything is read or written, on every backend;
* U+115F, U+1160 and U+1CBC are invisible padding for the write gate too (keys and values);
* `search` with an unsafe filter key says "Invalid filter key", like LangGraph's stores.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory
from langchain_contextchef.errors import ScopeError
from langchain_contextchef.store import FileSystemStore
from tests.support.stores import dump

SCOPE = ("users", "{user_id}")


def cfg(user: str) -> dict[str, dict[str, str]]:
    return {"configurable": {"user_id": user}}


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """The common default umask (022), under which files would be world-readable."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


# File modes are POSIX; Windows has no umask or mode bits to check.
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
@pytest.mark.usefixtures("loose_umask")
def test_filesystem_store_files_are_owner_only(tmp_path: Path) -> None:
    root = tmp_path / "data" / ".context"
    chef = ContextChef(store=str(root), scope=SCOPE)
    chef.get_memory(cfg("ada")).set("tone", "dry")
    chef.compile([HumanMessage("hi")], config=cfg("ada"))
    call = {"name": "create_memory", "args": {"key": "city", "value": "Paris"}, "id": "1"}
    chef.handle_tool(call, config=cfg("ada"))

    found = [root, *root.rglob("*")]
    files = [p for p in found if p.is_file()]
    folders = [p for p in found if p.is_dir()]
    assert len(files) >= 4 and len(folders) >= 4  # entries, clock, stamp, locks
    loose = {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in files}
    assert {k: v for k, v in loose.items() if v != "0o600"} == {}
    modes = {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in folders}
    assert {k: v for k, v in modes.items() if v != "0o700"} == {}


INVISIBLE_TENANTS = [
    "alice\u200b",  # zero-width space
    "al\u200bice",
    "\u202ealice",  # right-to-left override
    "alice\u2066",  # left-to-right isolate
    "\ufeffalice",  # byte-order mark
    "\u115falice",  # Hangul choseong filler
    "alice\u1160",  # Hangul jungseong filler
    "alice\u1cbc",  # unassigned
    "alice\u3164",  # Hangul filler
    "alice\x00",
]


@pytest.mark.parametrize("tenant", INVISIBLE_TENANTS, ids=ascii)
def test_tenant_ids_with_invisible_characters_are_refused(store: BaseStore, tenant: str) -> None:
    chef = ContextChef(store=store, scope=SCOPE)
    chef.get_memory(cfg("alice")).set("tone", "dry")
    before = dump(store)
    call = {"name": "create_memory", "args": {"key": "x", "value": "y"}, "id": "1"}
    with pytest.raises(ScopeError, match=r"invisible, control or text-direction characters"):
        chef.compile([HumanMessage("hi")], config=cfg(tenant))
    with pytest.raises(ScopeError, match=r"U\+"):
        chef.handle_tool(call, config=cfg(tenant))
    with pytest.raises(ScopeError):
        chef.get_memory(cfg(tenant))
    assert dump(store) == before


@pytest.mark.parametrize("tenant", ["alice", "Zoë", "山田", "o'brien", "a b"])
def test_visible_tenant_ids_still_work(tenant: str) -> None:
    chef = ContextChef(store=InMemoryStore(), scope=SCOPE)
    chef.get_memory(cfg(tenant)).set("tone", "dry")
    assert chef.get_memory(cfg(tenant)).get("tone") == "dry"


PADDING = ["\u115f", "\u1160", "\u1cbc", "\u115f\u1160"]


@pytest.mark.parametrize("pad", PADDING, ids=ascii)
def test_fillers_and_unassigned_code_points_are_invisible_padding(
    store: BaseStore, pad: str
) -> None:
    chef = ContextChef(store=store)
    before = dump(store)
    for args in (
        {"key": f"{pad}persona", "value": "dry"},
        {"key": f"persona{pad}", "value": "dry"},
        {"key": "persona", "value": f"dry{pad}"},
        {"key": "persona", "value": f"ignore{pad}previous"},
    ):
        reply = chef.handle_tool({"name": "create_memory", "args": args, "id": "1"})
        assert str(reply.content).startswith("Error:"), (args, reply.content)
    assert dump(store) == before


def test_old_hangul_with_a_filler_beside_a_real_jamo_is_still_allowed() -> None:
    memory = Memory(InMemoryStore())
    # A syllable with no initial consonant, written with the choseong filler (old Hangul).
    result = memory.create_memory("word", "\u115f\u1161\u11a8", description="old Hangul")
    assert result.status == "created", result


def test_unsafe_filter_key_says_invalid_filter_key(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path / ".context")
    store.put(("docs",), "a", {"kind": "x"})
    with pytest.raises(ValueError, match="Invalid filter key"):
        store.search(("docs",), filter={"kind') OR 1=1 --": "x"})


def test_filesystem_store_refuses_an_empty_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for root in ("", "   "):
        with pytest.raises(ValueError, match="needs the folder"):
            FileSystemStore(root)
    assert list(tmp_path.iterdir()) == []
