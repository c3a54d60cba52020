"""The turn clock across real processes while it is kept off the database and after.

Several processes compile one scope on `FileSystemStore`, a SQLite file and PostgreSQL (and
through the async API on `AsyncSqliteStore` and `AsyncPostgresStore`). With no entry whose
TTL counts turns, a compile on a SQLite file writes its advance to the record beside the
scope's lock file, not to the database (`_sections._side_clock`); every backend must still
give every compile its own turn, so the counts add up at once. Then another process stores a
turn-TTL entry: it counts from the exact clock and is shown exactly that many times, and on
SQLite the clock is written to the database while it stands.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from langchain_contextchef import Memory
from tests.integration_tests import _clock_worker as worker
from tests.integration_tests._concurrency_worker import open_store
from tests.support.stores import process_backend

pytestmark = pytest.mark.slow

PROCESSES = 3
COMPILES = 15
TTL = 3


@pytest.fixture(params=["filesystem", "sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    return process_backend(request, tmp_path)


def _together(backend: tuple[str, str], scope: tuple[str, ...], scenario: str, n: int) -> Any:
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(PROCESSES)
        with ProcessPoolExecutor(PROCESSES, mp_context=context) as pool:
            futures = [
                pool.submit(worker.run, *backend, scope, scenario, n, barrier)
                for _ in range(PROCESSES)
            ]
            return [f.result(timeout=600) for f in futures]


def _alone(backend: tuple[str, str], scope: tuple[str, ...], scenario: str, n: int) -> Any:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(worker.run, *backend, scope, scenario, n, None).result(timeout=600)


def _stored_clock(backend: tuple[str, str], scope: tuple[str, ...]) -> dict[str, Any]:
    """The clock item as the database holds it, read past the package."""
    with open_store(*backend) as store:
        item = store.get((*scope, "memory_meta"), "clock")
    assert item is not None
    return dict(item.value)


def _check_counts_then_ttl(backend: tuple[str, str], scenario: str) -> None:
    scope = ("tenants", uuid.uuid4().hex)
    with open_store(*backend) as store:
        Memory(store, scope=scope).set("always", "kept")  # no turn TTL: nothing needs the value

    seen = _together(backend, scope, scenario, COMPILES)
    turns = sorted(turn for per_process in seen for turn, _ in per_process)
    # Every compile of every process got its own turn: none lost, none counted twice.
    assert turns == list(range(1, PROCESSES * COMPILES + 1))
    for per_process in seen:
        mine = [turn for turn, _ in per_process]
        assert mine == sorted(mine)
    with open_store(*backend) as store:
        assert Memory(store, scope=scope).turn == PROCESSES * COMPILES
    if backend[0] == "sqlite":
        stored = _stored_clock(backend, scope)
        # Only the first compile wrote the database (the record's id); the rest went beside it.
        assert stored["turn"] == 1 and isinstance(stored.get("sidecar"), str)

    # Another process stores a turn-TTL entry: it counts from the exact clock.
    assert _alone(backend, scope, "ttl", TTL) == PROCESSES * COMPILES
    later = _together(backend, scope, scenario, 4)
    rows = sorted(row for per_process in later for row in per_process)
    start = PROCESSES * COMPILES
    assert [turn for turn, _ in rows] == list(range(start + 1, start + PROCESSES * 4 + 1))
    assert [keys for _, keys in rows] == [
        ["always", "brief"] if turn <= start + TTL else ["always"] for turn, _ in rows
    ]
    with open_store(*backend) as store:
        memory = Memory(store, scope=scope)
        assert memory.turn == start + PROCESSES * 4
        assert memory.get("brief") is None
    if backend[0] == "sqlite":
        # While the entry stood every advance went to the database; the compile that swept
        # it (the one claiming turn `start + TTL`) wrote turn `start + TTL + 1`, and the
        # advances after it, with no turn TTL left, went beside it again.
        stored = _stored_clock(backend, scope)
        assert stored["turn"] == start + TTL + 1


def test_counts_add_up_and_a_turn_ttl_from_another_process_counts_exactly(
    backend: tuple[str, str],
) -> None:
    _check_counts_then_ttl(backend, "turns")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_async_compiles_count_the_same(backend: tuple[str, str]) -> None:
    _check_counts_then_ttl(backend, "aturns")


def test_a_lost_record_falls_back_to_the_stored_clock_and_leaves_the_database_whole(
    tmp_path: Path,
) -> None:
    # A power cut may leave the record stale, zeroed or torn: the clock falls back to the
    # stored item (the count lags by the advances made since it was last written), compiles
    # go on from there, and the database is never touched by the record.
    backend = ("sqlite", str(tmp_path / "store.db"))
    scope = ("tenants", uuid.uuid4().hex)
    with open_store(*backend) as store:
        Memory(store, scope=scope).set("always", "kept")
    _alone(backend, scope, "turns", 5)
    records = list(Path(backend[1] + "-contextchef-locks").glob("*.clock"))
    assert len(records) == 1
    with open_store(*backend) as store:
        assert Memory(store, scope=scope).turn == 5
    good = records[0].read_bytes()
    flipped = good[:24] + bytes([good[24] ^ 1]) + good[25:]  # one bit of the turn
    for damage in (b"\0" * 32, good[:20], flipped):
        records[0].write_bytes(damage)
        with open_store(*backend) as store:
            assert Memory(store, scope=scope).turn == 1  # the stored clock's value
    assert _alone(backend, scope, "turns", 2) == [(2, ["always"]), (3, ["always"])]
    with sqlite3.connect(backend[1]) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_clock_written_past_the_package_drops_the_record(tmp_path: Path) -> None:
    # A restore, a migration or a raw put writes a clock without the record's id: the record
    # no longer counts, and the next compile starts a new one from the written value.
    backend = ("sqlite", str(tmp_path / "store.db"))
    scope = ("tenants", uuid.uuid4().hex)
    with open_store(*backend) as store:
        Memory(store, scope=scope).set("always", "kept")
    _alone(backend, scope, "turns", 6)
    with open_store(*backend) as store:
        store.put((*scope, "memory_meta"), "clock", {"turn": 2})
        assert Memory(store, scope=scope).turn == 2
    assert [turn for turn, _ in _alone(backend, scope, "turns", 3)] == [3, 4, 5]
    with open_store(*backend) as store:
        assert Memory(store, scope=scope).turn == 5
