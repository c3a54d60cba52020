"""Side by side with LangMem (issue 28): a model write and a prompt build, on every backend.

On each store (`InMemoryStore`, a file-backed `SqliteStore`, `FileSystemStore`, and
`PostgresStore` when a server is given), in one run, garbage collector on, interleaved:

* **model write**: our `create_memory` tool call (`chef.handle_tool`, a fresh key each time)
  against LangMem's `create_manage_memory_tool` creating a memory (`tool.invoke`, which
  `put`s one item under a fresh UUID) in the same store. Ours checks the key, runs the write
  gate, holds the scope's exclusive section, reads the entry, version marker and stamp, and
  writes the entry, its history record and the stamp's advance.
* **prompt build, memory unchanged**: `chef.compile(messages)` of a scope holding 100 entries
  against a LangMem-style prompt function reading 100 memories of its own namespace in the
  same store (`store.search(namespace, limit=100)`) and formatting them into the system
  message, as LangMem's quick start does. Ours also sweeps, keeps the turn clock, selects,
  fits a token budget, renders the `<memory>` block and splices it.

Every write round writes one more item on each side, so the namespaces grow a little over the
run, alike on both sides. The compile reads a scope that no write touches (the write rounds
use another scope), as in an agent whose memory did not change between two model calls.

Goals (issue 28): model write at most 1.5x LangMem's tool, and prompt build at most 1.2x the
LangMem-style read, on every backend.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import BaseStore

from benchmarks._fixtures import ALL_KINDS, entry, open_store
from benchmarks._pg import NO_SERVER_NOTE, pg_uri, scratch_database
from benchmarks._timing import (
    fmt_ratio,
    fmt_seconds,
    goal,
    paired_medians,
    print_goals,
    print_table,
    ratio,
)
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig, clear_cache

WRITE_GOAL = 1.5
READ_GOAL = 1.2
ENTRIES = 100
SYSTEM = "You are a careful coding assistant."
MESSAGES: list[BaseMessage] = [SystemMessage(SYSTEM), HumanMessage("Add a test for the parser.")]
LANGMEM_NS = ("langmem", "memories")
LANGMEM_WRITES_NS = ("langmem", "writes")
READ_SCOPE = ("bench", "read")
WRITE_SCOPE = ("bench", "write")


def _repeats(kind: str, quick: bool) -> int:
    if quick:
        return 5
    return 300 if kind == "memory" else 120


def _manage_tool(store: BaseStore, namespace: tuple[str, ...]) -> Any:
    try:
        with warnings.catch_warnings():
            # langmem 0.0.30 imports names LangGraph 1.x has deprecated; not ours to fix.
            warnings.simplefilter("ignore", DeprecationWarning)
            from langmem import create_manage_memory_tool
    except ImportError as exc:  # pragma: no cover - the test group installs it
        msg = "The LangMem rows need langmem: pip install langmem (in the 'test' group)."
        raise RuntimeError(msg) from exc
    return create_manage_memory_tool(namespace=namespace, store=store)


def langmem_prompt(store: BaseStore) -> list[BaseMessage]:
    """A LangMem-style prompt function: search the memories, format them into the system."""
    items = store.search(LANGMEM_NS, limit=ENTRIES)
    memories = "\n".join(f"- {item.value['content']}" for item in items)
    system = SystemMessage(f"{SYSTEM}\n\n## Memories\n<memories>\n{memories}\n</memories>")
    return [system, *MESSAGES[1:]]


def _populate(store: BaseStore, chef: ContextChef) -> None:
    memory = chef.get_memory()
    for i in range(ENTRIES):
        e = entry(i)
        memory.set(e.key, e.value, description=e.description)
        store.put(LANGMEM_NS, f"m{i:05d}", {"content": e.value})
    clear_cache(store)


@contextmanager
def _store(kind: str, server: str | None) -> Iterator[BaseStore]:
    with tempfile.TemporaryDirectory() as folder:
        if kind == "postgres":
            assert server is not None
            with scratch_database(server) as db, open_store(kind, folder, db) as store:
                yield store
        else:
            with open_store(kind, folder) as store:
                yield store


def _measure(kind: str, quick: bool, server: str | None) -> dict[str, Any]:
    with _store(kind, server) as store:
        # Both sides put all 100 entries in the prompt: the LangMem-style read has no budget.
        reader = ContextChef(store=store, memory=MemoryConfig(token_budget=None), scope=READ_SCOPE)
        writer = ContextChef(store=store, memory=MemoryConfig(), scope=WRITE_SCOPE)
        _populate(store, reader)
        if kind == "filesystem":
            # FileSystemStore re-parses files changed in the last 2 s (coarse mtimes); real
            # memory is older than that, so measure once the fill has settled.
            time.sleep(2.1)
        manage = _manage_tool(store, LANGMEM_WRITES_NS)
        counter = iter(range(10**9))

        def ours_write() -> None:
            i = next(counter)
            value = f"Round {i}: the user prefers tabs in Makefiles and spaces elsewhere."
            call = {"name": "create_memory", "args": {"key": f"w{i}", "value": value}, "id": "b"}
            result = writer.handle_tool(call)
            if not isinstance(result, ToolMessage) or result.status != "success":
                raise RuntimeError(f"create_memory failed in the benchmark: {result!r}")

        def langmem_write() -> None:
            i = next(counter)
            value = f"Round {i}: the user prefers tabs in Makefiles and spaces elsewhere."
            manage.invoke({"content": value, "action": "create"})

        def ours_read() -> None:
            payload = reader.compile(MESSAGES)
            if len(payload.meta.injected_keys) != ENTRIES:
                raise RuntimeError(f"compile injected {len(payload.meta.injected_keys)} entries")

        if len(langmem_prompt(store)[0].text.splitlines()) < ENTRIES:
            raise RuntimeError("the LangMem-style prompt did not read the 100 memories")
        repeats = _repeats(kind, quick)
        writes = paired_medians({"langmem": langmem_write, "ours": ours_write}, repeats=repeats)
        reads = paired_medians(
            {"langmem": lambda: langmem_prompt(store), "ours": ours_read}, repeats=repeats
        )
    return {
        "store": kind,
        "write_langmem_s": writes["langmem"],
        "write_ours_s": writes["ours"],
        "write_ratio": ratio(writes["ours"], writes["langmem"]),
        "read_langmem_s": reads["langmem"],
        "read_ours_s": reads["ours"],
        "read_ratio": ratio(reads["ours"], reads["langmem"]),
    }


def run(
    quick: bool = False, pg: str | None = None, only: tuple[str, ...] = ALL_KINDS
) -> dict[str, Any]:
    """Time our model write and prompt build against LangMem's on every backend.

    Args:
        quick: Few repetitions: a smoke run, not a measurement.
        pg: A PostgreSQL server URI for the PostgreSQL row (else `CONTEXTCHEF_PG_URI`).
        only: The backends to run.

    Returns:
        `{"name", "rows", "goals", "notes"}`; each row has `store`, the four medians and the
        two ratios (ours / LangMem's).
    """
    server = pg_uri(pg)
    notes: list[str] = []
    rows = []
    for kind in only:
        if kind == "postgres" and server is None:
            notes.append(NO_SERVER_NOTE)
            continue
        rows.append(_measure(kind, quick, server))
    goals: list[dict[str, Any]] = []
    for r in rows:
        goals.append(
            goal(
                f"model write / LangMem's tool ({r['store']})",
                r["write_ratio"],
                f"<= {WRITE_GOAL}x",
                r["write_ratio"] <= WRITE_GOAL,
            )
        )
        goals.append(
            goal(
                f"prompt build / LangMem-style read ({r['store']})",
                r["read_ratio"],
                f"<= {READ_GOAL}x",
                r["read_ratio"] <= READ_GOAL,
            )
        )
    fmt: Callable[[float], str] = fmt_seconds
    print_table(
        "Ours vs LangMem (same store, same run, collector on)",
        ["backend", "model write: ours / LangMem's tool", "prompt build: ours / LangMem-style"],
        [
            [
                r["store"],
                f"{fmt_ratio(r['write_ratio'])} ({fmt(r['write_ours_s'])} vs "
                f"{fmt(r['write_langmem_s'])})",
                f"{fmt_ratio(r['read_ratio'])} ({fmt(r['read_ours_s'])} vs "
                f"{fmt(r['read_langmem_s'])})",
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {"name": "peers", "rows": rows, "goals": goals, "notes": notes}


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
