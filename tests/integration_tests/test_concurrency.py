"""Exact semantics under real concurrency: separate processes on one backend.

Six writer processes share a `FileSystemStore` folder, a SQLite file or a PostgreSQL database,
and every guarantee must hold as in one process: each "Updated" is a version that exists with
its history record, a new key is created once, a compare-and-set has one winner, and the turn
clock counts every compile (so a `{"turns": 5}` entry is injected exactly five times), or,
counting turns per user message, advances once however many processes answer one message.
"""

from __future__ import annotations

import multiprocessing
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from langchain_contextchef import Memory
from tests.integration_tests import _concurrency_worker as worker

pytestmark = pytest.mark.slow

WRITERS = 6
UPDATES = 12
CAS_ROUNDS = 10
COMPILES = 20


# `postgres-pool`: a PostgresStore (AsyncPostgresStore for the async tests) on a connection
# pool whose password is a connection kwarg, not part of its conninfo.
@pytest.fixture(params=["filesystem", "sqlite", "postgres", "postgres-pool"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    kind = request.param
    if kind == "filesystem":
        return kind, str(tmp_path / ".context")
    if kind == "sqlite":
        return kind, str(tmp_path / "store.db")
    return kind, request.getfixturevalue("pg_database")


@pytest.fixture
def scope() -> tuple[str, ...]:
    return ("tenants", uuid.uuid4().hex)


def _in_processes(
    target: Callable[..., Any],
    backend: tuple[str, str],
    scope: tuple[str, ...],
    scenario: str,
    n: int,
    guesses: dict[str, int] | None = None,
) -> list[Any]:
    """Each worker's result; `guesses` (when given) gains the guesses the workers made."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(WRITERS)
        with ProcessPoolExecutor(WRITERS, mp_context=context) as pool:
            futures = [
                pool.submit(worker.counted, target, *backend, scope, scenario, w, n, barrier)
                for w in range(WRITERS)
            ]
            results = [f.result(timeout=600) for f in futures]
    if guesses is not None:
        for _, counts in results:
            for outcome, count in counts.items():
                guesses[outcome] = guesses.get(outcome, 0) + count
    return [result for result, _ in results]


def _assert_guessed(backend: tuple[str, str], guesses: dict[str, int], *, held: bool) -> None:
    """On a sync `PostgresStore` (one connection), model writes really ran on guesses.

    Guesses another process defeated (run again) and, with `held`, guesses that held (one
    round trip): the guarantees asserted around this held with the guessed path taken.
    """
    if backend[0] == "postgres":
        assert guesses.get("failed", 0) > 0, guesses
        if held:
            assert guesses.get("held", 0) > 0, guesses


@pytest.fixture
def memory(backend: tuple[str, str], scope: tuple[str, ...]) -> Iterator[Memory]:
    with worker.open_store(*backend) as store:
        yield Memory(store, scope=scope)


def test_every_updated_reply_is_a_version_with_its_history(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    memory.set("counter", "start")
    guesses: dict[str, int] = {}
    replies = [
        r
        for rs in _in_processes(worker.run, backend, scope, "update", UPDATES, guesses)
        for r in rs
    ]
    assert replies == ["Updated context://memory/counter."] * (WRITERS * UPDATES)
    history = memory.history("counter")
    assert [r.version for r in history] == list(range(1, 2 + WRITERS * UPDATES))
    # Every write's value is in history exactly once: none overwrote another's record.
    values = sorted(r.entry.value for r in history[1:])
    expected = sorted(f"worker {w} write {i}" for w in range(WRITERS) for i in range(UPDATES))
    assert values == expected
    _assert_guessed(backend, guesses, held=True)


def _created_once(
    run: Callable[..., Any], backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    rounds = 3
    replies = _in_processes(run, backend, scope, "create", rounds)
    for i in range(rounds):
        answers = [replies[w][i] for w in range(WRITERS)]
        assert sum(a == f"Created context://memory/fresh-{i}." for a in answers) == 1, answers
        assert all(a.startswith("Created") or "already exists" in a for a in answers)
        assert [r.version for r in memory.history(f"fresh-{i}")] == [1]


def _one_winner_per_round(
    run: Callable[..., Any], backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    memory.set("cas", "start")
    guesses: dict[str, int] = {}
    replies = _in_processes(run, backend, scope, "cas", CAS_ROUNDS, guesses)
    for r in range(CAS_ROUNDS):
        answers = [replies[w][r] for w in range(WRITERS)]
        winners = [a for a in answers if a == "Updated context://memory/cas."]
        assert len(winners) == 1, answers
        assert all(a == winners[0] or "changed since you read it" in a for a in answers)
    assert [r.version for r in memory.history("cas")] == list(range(1, 2 + CAS_ROUNDS))
    # Only the last round's winner may guess (the others read the entry as unknown), and
    # its guess holds only when it reaches the scope first: in 2 of 6 runs no guess held
    # (0 to 5), while 4 to 9 were defeated in each. (The async API never guesses.)
    if run is worker.run:
        _assert_guessed(backend, guesses, held=False)


def test_a_new_key_is_created_once_whoever_asks(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    _created_once(worker.run, backend, scope, memory)


def test_compare_and_set_has_exactly_one_winner_every_round(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    _one_winner_per_round(worker.run, backend, scope, memory)


def test_the_turn_clock_counts_every_compile_and_a_turn_ttl_holds(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    memory.set("brief", "five turns only", ttl={"turns": 5})
    memory.set("always", "kept")
    injected = _in_processes(worker.run, backend, scope, "compile", COMPILES)
    assert memory.turn == WRITERS * COMPILES
    shown = sum("brief" in keys for per_worker in injected for keys in per_worker)
    assert shown == 5
    assert sum("always" in keys for per_worker in injected for keys in per_worker) == (
        WRITERS * COMPILES
    )


def test_per_user_message_concurrent_compiles_of_one_message_claim_one_turn(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    rounds = 5
    memory.set("brief", "three user turns", ttl={"turns": 3})
    seen = _in_processes(worker.run, backend, scope, "user_turns", rounds)
    # The decision "is this a new user message" is made in the compile's exclusive section:
    # six processes compiling the same message advance the clock once per round.
    assert memory.turn == rounds
    for r in range(rounds):
        answers = {(turn, tuple(keys)) for turn, keys in (per_worker[r] for per_worker in seen)}
        expected_keys = ("brief",) if r < 3 else ()
        assert answers == {(r + 1, expected_keys)}, (r, answers)


# The async API in real processes: `AsyncPostgresStore` (on a connection, on a pool) and
# `AsyncSqliteStore` (a file).
ASYNC_BACKENDS = pytest.mark.parametrize(
    "backend", ["postgres", "postgres-pool", "sqlite"], indirect=True
)


@ASYNC_BACKENDS
def test_async_updates_and_compiles(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    memory.set("counter", "start")
    memory.set("brief", "five turns only", ttl={"turns": 5})
    replies = [
        r for rs in _in_processes(worker.arun, backend, scope, "update", UPDATES) for r in rs
    ]
    assert replies == ["Updated context://memory/counter."] * (WRITERS * UPDATES)
    assert [r.version for r in memory.history("counter")] == list(range(1, 2 + WRITERS * UPDATES))
    injected = _in_processes(worker.arun, backend, scope, "compile", COMPILES)
    assert memory.turn == WRITERS * COMPILES
    assert sum("brief" in keys for per_worker in injected for keys in per_worker) == 5


@ASYNC_BACKENDS
def test_async_a_new_key_is_created_once_whoever_asks(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    _created_once(worker.arun, backend, scope, memory)


@ASYNC_BACKENDS
def test_async_compare_and_set_has_exactly_one_winner_every_round(
    backend: tuple[str, str], scope: tuple[str, ...], memory: Memory
) -> None:
    _one_winner_per_round(worker.arun, backend, scope, memory)
