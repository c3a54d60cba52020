"""FileSystemStore.lock / alock: the namespace lock for a caller's read-check-write cycles.

Exclusion between processes is tested with real processes in
tests/integration_tests/test_store_processes.py; these tests cover threads, tasks,
re-entrancy, timeouts, cancellation and the interplay with batches.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import Timeout
from langgraph.store.base import InvalidNamespaceError

from langchain_contextchef.store import FileSystemStore

NS = ("users", "alice")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FileSystemStore]:
    with FileSystemStore(tmp_path / ".context") as built:
        yield built


def hold_in_thread(
    store: FileSystemStore, namespace: tuple[str, ...]
) -> tuple[threading.Event, threading.Thread]:
    """Take the lock in another thread; it keeps it until the returned event is set."""
    held, release = threading.Event(), threading.Event()

    def run() -> None:
        with store.lock(namespace):
            held.set()
            release.wait(30)

    thread = threading.Thread(target=run)
    thread.start()
    assert held.wait(30)
    return release, thread


def test_reentrant_in_one_thread_and_batches_inside_never_deadlock(
    store: FileSystemStore, tmp_path: Path
) -> None:
    other = FileSystemStore(tmp_path / ".context")  # another object on the same root
    with store.lock(NS), store.lock(NS), other.lock(NS):
        store.put(NS, "k", {"v": 1})
        store.batch([])
        assert [i.key for i in other.search(NS)] == ["k"]
        store.atomic_update(NS, "k", lambda cur: {"v": (cur or {"v": 0})["v"] + 1})
    assert store.get(NS, "k").value == {"v": 2}  # type: ignore[union-attr]


def test_excludes_other_threads_until_released(store: FileSystemStore) -> None:
    release, thread = hold_in_thread(store, NS)
    started = time.monotonic()
    with pytest.raises(Timeout), store.lock(NS, timeout=0.2):
        pass
    assert time.monotonic() - started >= 0.19
    with store.lock(("users", "bob"), timeout=0.2):  # another namespace is independent
        pass
    release.set()
    thread.join(30)
    with store.lock(NS, timeout=5):
        pass


def test_threads_incrementing_under_the_lock_lose_nothing(store: FileSystemStore) -> None:
    def work() -> None:
        for _ in range(20):
            with store.lock(NS):
                item = store.get(NS, "n")
                store.put(NS, "n", {"n": (item.value["n"] if item else 0) + 1})

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert store.get(NS, "n").value == {"n": 120}  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [(), ("a.b",), ("",), ["users"], "users"])
def test_refuses_invalid_namespaces(store: FileSystemStore, bad: object) -> None:
    with pytest.raises(InvalidNamespaceError), store.lock(bad):  # type: ignore[arg-type]
        pass


async def test_alock_waits_without_blocking_the_event_loop(store: FileSystemStore) -> None:
    release, thread = hold_in_thread(store, NS)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    async def holder_lets_go() -> None:
        await asyncio.sleep(0.3)
        release.set()

    running = asyncio.create_task(ticker())
    letting_go = asyncio.create_task(holder_lets_go())
    async with store.alock(NS, timeout=10):
        waited_ticks = ticks
        await store.aput(NS, "k", {"v": 1})
    running.cancel()
    await letting_go
    thread.join(30)
    assert waited_ticks >= 10  # the loop kept running while the lock was awaited
    assert (await store.aget(NS, "k")).value == {"v": 1}  # type: ignore[union-attr]


async def test_alock_is_reentrant_within_a_task_and_exclusive_across_tasks(
    store: FileSystemStore,
) -> None:
    order: list[str] = []

    async def first() -> None:
        async with store.alock(NS), store.alock(NS):
            order.append("first in")
            await asyncio.sleep(0.2)
            order.append("first out")

    async def second() -> None:
        await asyncio.sleep(0.05)
        async with store.alock(NS):
            order.append("second in")

    await asyncio.gather(first(), second())
    assert order == ["first in", "first out", "second in"]


async def test_a_cancelled_alock_wait_never_leaves_the_lock_held(store: FileSystemStore) -> None:
    release, thread = hold_in_thread(store, NS)
    waiting = asyncio.create_task(store.alock(NS, timeout=10).__aenter__())
    await asyncio.sleep(0.1)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    thread.join(30)
    await asyncio.sleep(0.2)  # the worker thread may have taken the lock and given it back
    with store.lock(NS, timeout=2):
        pass


async def test_alock_times_out(store: FileSystemStore) -> None:
    release, thread = hold_in_thread(store, NS)
    try:
        with pytest.raises(Timeout):
            async with store.alock(NS, timeout=0.2):
                pass
    finally:
        release.set()
        thread.join(30)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_holder_that_forks_then_dies_does_not_leave_the_lock_pinned(
    store: FileSystemStore,
) -> None:
    """A takes the lock, forks B (a long-lived child), and dies without releasing.

    The kernel releases A's lock only once every copy of its descriptor is closed; B must
    not keep the copy it inherited, or the lock would stay held as long as B lives.
    """
    report_read, report_write = os.pipe()
    holder = os.fork()
    if holder == 0:  # A
        try:
            with store.lock(NS):
                child = os.fork()
                if child == 0:  # B: lives on, doing other work
                    time.sleep(30)
                    os._exit(0)
                os.write(report_write, str(child).encode() + b"\n")
                os._exit(0)  # dies holding the lock
        finally:
            os._exit(1)
    os.close(report_write)
    lingering = int(os.read(report_read, 64).decode().strip())
    os.close(report_read)
    try:
        os.waitpid(holder, 0)
        with store.lock(NS, timeout=5):  # free again although B is still alive
            pass
    finally:
        os.kill(lingering, 9)


# ---- folder write locks: built once per folder, taken once per batch ---------------------------


def test_folder_locks_are_built_once_and_shared_by_store_objects_on_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_contextchef.store._lock_table import LockTable

    handed: list[object] = []  # kept alive, so a rebuilt lock cannot reuse an id
    real = LockTable.dir_lock

    def recording(self: LockTable, name: str) -> object:
        lock = real(self, name)
        handed.append(lock)
        return lock

    monkeypatch.setattr(LockTable, "dir_lock", recording)
    with (
        FileSystemStore(tmp_path / ".context") as first,
        FileSystemStore(tmp_path / ".context") as second,
    ):
        for i in range(3):
            first.put(NS, f"k{i}", {"v": i})
            second.put(NS, f"j{i}", {"v": i})
    # One folder: every write of both store objects used the same lock object.
    assert len(handed) == 6
    assert all(lock is handed[0] for lock in handed)


def test_a_batch_of_writes_in_one_folder_takes_its_lock_once(
    store: FileSystemStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph.store.base import PutOp

    from langchain_contextchef.store._locks import ThreadedLock

    taken: list[str] = []
    real = ThreadedLock.acquire

    def counting(self: ThreadedLock, deadline: float | None, *, blocking: bool = True) -> bool:
        taken.append(self.name)
        return real(self, deadline, blocking=blocking)

    monkeypatch.setattr(ThreadedLock, "acquire", counting)
    store.batch([PutOp(NS, f"k{i}", {"v": i}) for i in range(5)])
    assert len(taken) == 1
    taken.clear()
    store.batch([PutOp(NS, "a", {"v": 1}), PutOp(("users", "bob"), "a", {"v": 2})])
    assert len(taken) == 2 and len(set(taken)) == 2  # two folders, each locked once


# ---- released lock files stay open for the next acquire ----------------------------------------


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_kept_lock_file_inherited_by_a_child_does_not_pin_the_parents_next_lock(
    store: FileSystemStore,
) -> None:
    """A takes and releases the lock (its file stays open), forks B, locks again and dies.

    A's second lock goes through the file it kept; B inherited a copy of that descriptor
    and must have closed it, or the lock would outlive A as long as B lives.
    """
    report_read, report_write = os.pipe()
    holder = os.fork()
    if holder == 0:  # A
        try:
            with store.lock(NS):
                pass
            child = os.fork()
            if child == 0:  # B: lives on, doing other work
                time.sleep(30)
                os._exit(0)
            with store.lock(NS):
                os.write(report_write, str(child).encode() + b"\n")
                os._exit(0)  # dies holding the lock
        finally:
            os._exit(1)
    os.close(report_write)
    lingering = int(os.read(report_read, 64).decode().strip())
    os.close(report_read)
    try:
        os.waitpid(holder, 0)
        with store.lock(NS, timeout=5):
            pass
    finally:
        os.kill(lingering, 9)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="flock semantics (POSIX)")
def test_a_lock_file_replaced_by_hand_is_the_one_locked_next(
    store: FileSystemStore, tmp_path: Path
) -> None:
    import fcntl

    with store.lock(NS):  # its lock file is now kept open by this process
        pass
    (lock_file,) = (tmp_path / ".context" / ".locks").glob("s-*.lock")
    lock_file.unlink()
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)  # another holder of the new file
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(Timeout), store.lock(NS, timeout=0.2):
            pass
        fcntl.flock(fd, fcntl.LOCK_UN)
        with store.lock(NS, timeout=5):
            pass
    finally:
        os.close(fd)
