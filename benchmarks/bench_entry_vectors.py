"""What reading the entries' stored vectors adds to a compile, per backend.

A compile with a semantic search hands the relevance selector the stored vectors of the
entries that search found (`SelectionContext.entry_vectors`): one extra read after the
search (a lookup on `InMemoryStore`, one query on SQLite and PostgreSQL, the items' files on
`FileSystemStore`), skipped when the selection is reused and for entry versions read before.
This bench fills each store with `--entries` entries through `Memory.set` (a fake, fast,
deterministic embedding: a hashed bag of words, so the embedding model is not what is timed)
and times, interleaved, a `Relevant` compile of a new question each time:

* `read`: the extra read alone (`_stored_vectors.stored_vectors` for one question's hits);
* `warm`: compiles of new questions on a cached scope, with the read, against the same
  compiles with the read turned off (the process's vectors of earlier questions kept);
* `cold`: the same after dropping the process's cache of the scope before each compile (the
  whole scope read, every hit's vector read).

PostgreSQL needs pgvector (`--pg URI`, else `CONTEXTCHEF_PG_URI`; without, its rows skip).
SQLite's index needs a `sqlite3` that loads extensions (pysqlite3 is used where it cannot).

    python -m benchmarks.bench_entry_vectors --entries 2000 --pg postgresql://...
"""

from __future__ import annotations

import argparse
import importlib
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from benchmarks._pg import pg_uri, scratch_database
from benchmarks._timing import load_average, print_table
from benchmarks.bench_selection import HashedWords
from langchain_contextchef import ContextChef, MemoryConfig, _plan
from langchain_contextchef._stored_vectors import stored_vectors
from langchain_contextchef.memory import MEMORY_NAMESPACE, clear_cache
from langchain_contextchef.selectors import Relevant
from langchain_contextchef.store import FileSystemStore

DIMS = 384
_TOPICS = (
    "garden tomato seeds allotment watering",
    "flight booking lisbon airport luggage",
    "dentist appointment tooth filling clinic",
    "server outage database failover alert",
    "recipe lentil soup cumin onion",
    "running training interval pace marathon",
    "invoice payment client overdue reminder",
    "birthday present sister book concert",
    "piano lesson scales teacher practice",
    "car insurance renewal premium claim",
)


def _text(i: int) -> str:
    topic = _TOPICS[i % len(_TOPICS)].split()
    return f"Note {i}: {topic[i % 5]} {topic[(i // 7) % 5]} and {topic[(i // 3) % 5]} ({i % 97})"


def _questions(count: int) -> list[str]:
    return [
        f"What about the {_TOPICS[i % len(_TOPICS)].split()[i % 5]} number {i % 97}?"
        for i in range(count)
    ]


@contextmanager
def _store(kind: str, folder: str, pg: str | None) -> Iterator[Any]:
    index = {"dims": DIMS, "embed": HashedWords(DIMS)}
    if kind == "memory":
        yield InMemoryStore(index=index)  # type: ignore[arg-type]
    elif kind == "filesystem":
        with FileSystemStore(Path(folder) / ".context", index=index) as fs:  # type: ignore[arg-type]
            yield fs
    elif kind == "sqlite":
        path = str(Path(folder) / "v.db")
        if hasattr(sqlite3.Connection, "enable_load_extension"):
            conn: Any = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        else:  # this Python's sqlite3 cannot load sqlite-vec
            dbapi = importlib.import_module("pysqlite3.dbapi2")
            conn = dbapi.connect(path, check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn, index=index)  # type: ignore[arg-type]
        store.setup()
        try:
            yield store
        finally:
            conn.close()
    else:
        from langgraph.store.postgres import PostgresStore

        assert pg is not None
        with PostgresStore.from_conn_string(pg, index=index) as pg_store:  # type: ignore[arg-type]
            pg_store.setup()
            yield pg_store


@contextmanager
def _no_read() -> Iterator[None]:
    # The compile without the extra read: the driver's reader answers "no vectors".
    saved = getattr(_plan, "stored_vectors")  # noqa: B009 - the driver's global, patched
    setattr(_plan, "stored_vectors", lambda store, namespace, keys: {})  # noqa: B010
    try:
        yield
    finally:
        setattr(_plan, "stored_vectors", saved)  # noqa: B010


def _interleaved(
    with_read: Callable[[int], object], without: Callable[[int], object], count: int
) -> tuple[float, float]:
    a: list[float] = []
    b: list[float] = []
    for i in range(count):
        start = time.perf_counter()
        with_read(i)
        a.append(time.perf_counter() - start)
        with _no_read():
            start = time.perf_counter()
            without(i)
            b.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def _bench(kind: str, entries: int, questions: int, pg: str | None) -> list[str]:
    with tempfile.TemporaryDirectory() as folder, _store(kind, folder, pg) as store:
        config = MemoryConfig(selector=Relevant(), token_budget=1_000)
        chef = ContextChef(store=store, memory=config)
        memory = chef.get_memory()
        fill = time.perf_counter()
        for i in range(entries):
            memory.set(f"note_{i:05d}", _text(i))
        fill = time.perf_counter() - fill
        asked = _questions(questions * 2)
        chef.compile([HumanMessage("warm up")])
        # The hits of one question, for the read alone.
        hits = [
            item.key
            for item in store.search((MEMORY_NAMESPACE,), query=asked[0], limit=100)
            if item.score is not None
        ]
        reads = []
        for _ in range(questions):
            start = time.perf_counter()
            got = stored_vectors(store, (MEMORY_NAMESPACE,), hits)
            reads.append(time.perf_counter() - start)
        assert len(got) == len(hits), (len(got), len(hits))

        def compile_new(i: int, offset: int) -> object:
            return chef.compile([HumanMessage(asked[(2 * i + offset) % len(asked)])])

        warm = _interleaved(lambda i: compile_new(i, 0), lambda i: compile_new(i, 1), questions)

        def cold(i: int, offset: int) -> object:
            clear_cache(store)
            return compile_new(i, offset)

        cold_times = _interleaved(lambda i: cold(i, 0), lambda i: cold(i, 1), questions)
    return [
        kind,
        f"{fill:.1f} s",
        f"{len(hits)} keys: {statistics.median(reads) * 1e3:.2f} ms",
        f"{warm[0] * 1e3:.1f} / {warm[1] * 1e3:.1f} ms ({warm[0] / warm[1]:.2f}x)",
        f"{cold_times[0] * 1e3:.1f} / {cold_times[1] * 1e3:.1f} ms "
        f"({cold_times[0] / cold_times[1]:.2f}x)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=2_000)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--pg", default=None, help="a PostgreSQL server with pgvector")
    parser.add_argument("--kinds", default="memory,filesystem,sqlite,postgres")
    args = parser.parse_args()
    server = pg_uri(args.pg)
    rows = []
    for kind in [k.strip() for k in args.kinds.split(",") if k.strip()]:
        if kind == "postgres":
            if server is None:
                print("PostgreSQL skipped: no server (--pg URI or CONTEXTCHEF_PG_URI)")
                continue
            with scratch_database(server) as database:
                rows.append(_bench(kind, args.entries, args.questions, database))
        else:
            rows.append(_bench(kind, args.entries, args.questions, None))
    print(f"load average {load_average()}, {args.entries} entries, {args.questions} questions")
    print_table(
        "Reading the entries' stored vectors in a Relevant compile (median; with / without)",
        ["store", "fill", "the read alone", "compile, new question", "cold compile"],
        rows,
    )


if __name__ == "__main__":
    main()
