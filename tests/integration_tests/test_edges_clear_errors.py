"""Failures that stay clear (issue 23, items 8 and 9), through the paths a user takes.

* a `config` that is not a mapping, or `purge_store` without a `MemoryConfig`: a TypeError
  that says what to pass;
* NUL in a value: refused on every backend alike (model path `Error:`, developer path
  ValueError), the store unchanged;
* a restore of tens of thousands of changes on a SQLite file (batched under SQLite's limit);
* an async store used with the sync API inside its loop: an error naming `acompile`;
* the CLI, as a subprocess: a huge `--ttl`, deeply nested JSON and bad SQLite URLs exit 2
  with a message, `sqlite:///rel.db` is relative and `sqlite:////abs.db` absolute, and a
  tenant id holding `/` is addressed as `%2F`;
* `ContextChef(store=<URL>)` opens the database the URL names (as `--store` does) or refuses
  the URL; no folder is ever named after it.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef import ConsentPolicy, ContextChef, Memory, MemoryConfig, purge_store
from langchain_contextchef.errors import AsyncStoreError
from langchain_contextchef.store import FileSystemStore, StoreUrlError
from tests.support.stores import dump

REPO_ROOT = Path(__file__).resolve().parents[2]
CALL = {"name": "create_memory", "args": {"key": "tone", "value": "dry"}, "id": "1"}


def cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.pop("CONTEXTCHEF_ENCRYPTION_KEYS", None)
    return subprocess.run(
        [sys.executable, "-m", "langchain_contextchef", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


# ---- arguments of the wrong type ----------------------------------------------------------------


@pytest.mark.parametrize("config", ["x", 42, ["configurable"], {"configurable": "alice"}])
def test_a_config_that_is_not_a_mapping_is_a_clear_type_error(
    store: BaseStore, config: Any
) -> None:
    chef = ContextChef(store=store, scope=("users", "{user_id}"))
    before = dump(store)
    with pytest.raises(TypeError, match=r"config.* must be a"):
        chef.compile([HumanMessage("hi")], config=config)
    with pytest.raises(TypeError, match=r"config.* must be a"):
        chef.handle_tool(CALL, config=config)
    assert dump(store) == before


async def test_a_config_that_is_not_a_mapping_is_a_clear_type_error_async() -> None:
    from langgraph.store.memory import InMemoryStore

    chef = ContextChef(store=InMemoryStore())
    with pytest.raises(TypeError, match="config must be a RunnableConfig"):
        await chef.acompile([HumanMessage("hi")], config="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="config must be a RunnableConfig"):
        await chef.ahandle_tool(CALL, config="x")  # type: ignore[arg-type]


def test_purge_store_without_a_memory_config_says_what_to_pass(store: BaseStore) -> None:
    Memory(store, scope=("users", "ada")).set("tone", "dry")
    before = dump(store)
    with pytest.raises(TypeError, match="needs a MemoryConfig"):
        purge_store(store, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a LangGraph BaseStore"):
        purge_store("./.context", MemoryConfig())  # type: ignore[arg-type]
    assert dump(store) == before


# ---- NUL ----------------------------------------------------------------------------------------


def test_nul_is_refused_alike_on_every_backend(store: BaseStore) -> None:
    chef = ContextChef(store=store, tools="unified")
    memory = chef.get_memory()
    memory.set("tone", "dry")
    before = dump(store)
    with pytest.raises(ValueError, match="NUL"):
        memory.set("tone", "wet\x00")
    with pytest.raises(ValueError, match="NUL"):
        memory.set("city", "Paris", description="where\x00")
    with pytest.raises(ValueError, match="NUL"):
        snapshot = memory.snapshot()
        snapshot["entries"][0]["value"] = "b\x00"
        memory.restore(snapshot)
    for call in (
        {"name": "create_memory", "args": {"key": "city", "value": "Pa\x00ris"}, "id": "1"},
        {"name": "modify_memory", "args": {"action": "update", "key": "tone", "value": "\x00"}},
        {
            "name": "context",
            "args": {"command": "create", "path": "context://notes/n.md", "file_text": "a\x00"},
        },
    ):
        reply = chef.handle_tool({"id": "1", **call})
        assert str(reply.content).startswith("Error:"), reply.content
    assert dump(store) == before
    assert memory.get("tone") == "dry"


def test_an_approval_edited_with_nul_is_refused_on_every_backend(store: BaseStore) -> None:
    memory = Memory(store, MemoryConfig(consent=ConsentPolicy()), scope=("users", "ada"))
    assert memory.create_memory("diet", "vegetarian", type="preference").status == "proposed"
    (waiting,) = memory.proposals()
    before = dump(store)
    with pytest.raises(ValueError, match="NUL"):
        memory.approve_proposal(waiting.id, value="vegan\x00")
    assert dump(store) == before
    assert memory.approve_proposal(waiting.id, value="vegan").status == "created"


# ---- big restores on SQLite --------------------------------------------------------------------


def test_a_restore_over_a_big_scope_fits_sqlite_limits(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "big.db", check_same_thread=False, isolation_level=None)
    # The default build's limit, so the test means the same wherever SQLite was compiled.
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 32_766)
    store = SqliteStore(conn)
    store.setup()
    memory = Memory(store, scope=("bulk",))
    now = datetime.now(timezone.utc).isoformat()
    count = 7_000
    for tag in ("v", "w"):  # the second restore also moves every first version to history
        entries = [
            {"key": f"k{i}", "value": f"{tag}{i}", "created_at": now, "updated_at": now}
            for i in range(count)
        ]
        memory.restore({"version": 1, "turn": 3, "entries": entries})
    listed = memory.list()
    assert len(listed) == count and memory.turn == 3
    assert {e.value for e in listed} == {f"w{i}" for i in range(count)}
    assert [h.entry.value for h in memory.history("k7")] == ["v7", "w7"]
    conn.close()


# ---- async stores through the sync API ------------------------------------------------------


async def test_an_async_store_through_the_sync_api_names_the_async_methods(
    tmp_path: Path,
) -> None:
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.db")) as store:
        await store.setup()
        chef = ContextChef(store=store)
        with pytest.raises(AsyncStoreError, match=r"acompile"):
            chef.compile([HumanMessage("hi")])
        with pytest.raises(AsyncStoreError, match=r"ahandle_tool"):
            chef.handle_tool(CALL)
        with pytest.raises(AsyncStoreError, match=r"memory\.aset"):
            chef.get_memory().set("tone", "dry")
        assert (await chef.acompile([HumanMessage("hi")])).meta.turn == 1


async def test_an_async_postgres_store_through_the_sync_api_names_the_async_methods(
    apg_store: BaseStore,
) -> None:
    chef = ContextChef(store=apg_store)
    with pytest.raises(AsyncStoreError, match=r"acompile"):
        chef.compile([HumanMessage("hi")])
    reply = await chef.ahandle_tool(CALL)
    assert reply.content == "Created context://memory/tone."


# ---- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ttl", ["99999999999999999999d", "99999999999999999999ms", "999999999d", "9" * 40 + "h"]
)
def test_cli_a_huge_ttl_exits_2_with_a_message(tmp_path: Path, ttl: str) -> None:
    done = cli("set", "tone", "dry", "--ttl", ttl, "--store", "st", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "too long" in done.stderr and "unexpected" not in done.stderr


@pytest.mark.parametrize("command", ["import", "preview"])
def test_cli_deeply_nested_json_exits_2_with_a_message(tmp_path: Path, command: str) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    done = cli(command, "deep.json", "--store", "st", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "nested too deeply" in done.stderr and "unexpected" not in done.stderr


def test_cli_bad_sqlite_urls_exit_2_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "text.db").write_text("not a database")
    for url, says in (
        ("sqlite:///missing/x.db", "does not exist"),
        ("sqlite:///", "sqlite:////absolute"),
        ("sqlite://x.db", "sqlite:////absolute"),
        ("sqlite:///folder", "is a folder"),
        ("sqlite:///text.db", "not a database"),
        ("redis://user:hunter2@host/0", "not one this package opens"),
    ):
        done = cli("list", "--store", url, cwd=tmp_path)
        assert done.returncode == 2, (url, done.stderr)
        assert says in done.stderr and "unexpected" not in done.stderr, (url, done.stderr)
        assert "hunter2" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "text.db"]


def test_cli_sqlite_urls_follow_sqlalchemy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    relative = cli("set", "tone", "dry", "--store", "sqlite:///rel.db", cwd=work)
    assert relative.returncode == 0, relative.stderr
    assert (work / "rel.db").is_file()
    absolute_path = tmp_path / "abs.db"
    absolute = cli("set", "tone", "wet", "--store", f"sqlite:///{absolute_path}", cwd=work)
    assert absolute.returncode == 0, absolute.stderr
    assert absolute_path.is_file() and not (work / str(absolute_path).lstrip("/")).exists()
    # The application reads the same files through the same URLs.
    monkeypatch.chdir(work)
    assert ContextChef(store="sqlite:///rel.db").get_memory().get("tone") == "dry"
    assert ContextChef(store=f"sqlite:///{absolute_path}").get_memory().get("tone") == "wet"


def test_cli_addresses_a_tenant_id_holding_a_slash(tmp_path: Path) -> None:
    chef = ContextChef(store=str(tmp_path / "st"), scope=("users", "{user_id}"))
    chef.get_memory({"configurable": {"user_id": "team/ada"}}).set("tone", "dry")
    scopes = cli("scopes", "--store", "st", cwd=tmp_path)
    assert scopes.returncode == 0, scopes.stderr
    assert "users/team%2Fada" in scopes.stdout
    shown = cli("show", "tone", "--store", "st", "--scope", "users/team%2Fada", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert '"dry"' in shown.stdout
    written = cli(
        "set", "city", "Oslo", "--store", "st", "--scope", "users/team%2Fada", cwd=tmp_path
    )
    assert written.returncode == 0, written.stderr
    assert chef.get_memory({"configurable": {"user_id": "team/ada"}}).get("city") == "Oslo"


# ---- ContextChef(store=<URL>) -------------------------------------------------------------------


def test_contextchef_opens_a_sqlite_url_and_names_no_folder_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    chef = ContextChef(store="sqlite:///memory.db")
    assert isinstance(chef.store, SqliteStore)
    chef.handle_tool(CALL)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith("-locks")) == [
        "memory.db"
    ]
    listed = cli("list", "--store", "sqlite:///memory.db", cwd=tmp_path)
    assert listed.returncode == 0 and "dry" in listed.stdout, listed.stderr


def test_contextchef_opens_a_postgres_url(pg_database: str) -> None:
    from langgraph.store.postgres import PostgresStore

    chef = ContextChef(store=pg_database, scope=("users", "ada"))
    assert isinstance(chef.store, PostgresStore)
    chef.handle_tool(CALL)
    assert chef.get_memory().get("tone") == "dry"
    chef.get_memory().forget()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://user:hunter2@127.0.0.1:1/db",
        "mysql://user:hunter2@host/db",
        "redis://:hunter2@host:6379/0",
        "sqlite://user:hunter2@x.db",
    ],
)
def test_contextchef_refuses_a_url_it_cannot_open_without_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreUrlError) as caught:
        ContextChef(store=url)
    assert "hunter2" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_path_is_still_a_filesystem_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    chef = ContextChef(store="data/.context")
    assert isinstance(chef.store, FileSystemStore)
    chef.handle_tool(CALL)
    assert (tmp_path / "data" / ".context").is_dir()
