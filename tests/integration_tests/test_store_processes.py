"""FileSystemStore shared by real processes: concurrent writers, locks, SIGKILL at any point."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from langchain_contextchef import Memory
from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.store import FileSystemStore
from tests.integration_tests import _store_workers
from tests.integration_tests._store_workers import (
    CRASH_KEYS,
    ENTRIES,
    HISTORY,
    MEMORY_CONFIG,
    MEMORY_SCOPE,
    META,
    PAYLOAD,
)

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]


def _run_all(target: object, args_list: list[tuple[object, ...]]) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=target, args=args) for args in args_list]  # type: ignore[attr-defined]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=120)
    assert [proc.exitcode for proc in procs] == [0] * len(procs)


def _start_worker(root: Path, mode: str) -> subprocess.Popen[bytes]:
    """A `_store_workers` process writing to the store at `root`.

    `forever` writes itself and prints `started` first; the other modes fork a writer per
    `run` line sent to their stdin (see `_store_workers.fork_writers`).
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), *sys.path])}
    module = "tests.integration_tests._store_workers"
    command = [sys.executable, "-m", module, str(root), mode]
    stdin = None if mode == "forever" else subprocess.PIPE
    return subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdin=stdin, stdout=subprocess.PIPE)


def _item_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.json") if not p.name.startswith(".")]


def test_four_processes_writing_at_once(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    _run_all(_store_workers.write_keys, [(str(root), w, 250, 50) for w in range(4)])
    files = _item_files(root)
    assert len(files) == 4 * 250 + 50
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert set(doc) >= {"namespace", "key", "value", "created_at", "updated_at"}
    store = FileSystemStore(root)
    items = store.search(("proc",), limit=5000)
    assert len(items) == 1050
    shared = [i for i in items if tuple(i.namespace) == ("proc", "shared")]
    assert sorted(i.key for i in shared) == sorted(f"s{i}" for i in range(50))
    assert all(i.value["i"] == int(i.key[1:]) for i in shared)
    assert _leftovers(root) == []  # no writer left a temporary file behind


def test_atomic_update_from_four_processes_loses_nothing(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    _run_all(_store_workers.increment, [(str(root), 40) for _ in range(4)])
    item = FileSystemStore(root).get(("clock",), "turn")
    assert item is not None
    assert item.value == {"n": 160}


# The crash tests kill writers with SIGKILL and fork them from a parent that imported the
# package once; Windows has neither. They run on Linux and macOS, and so in CI.
POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and fork are POSIX-only")


@POSIX_ONLY
def test_writer_killed_mid_loop_leaves_only_whole_items(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    proc = _start_worker(root, "forever")
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"started\n"
        store = FileSystemStore(root)
        # Let it get well into the loop, then kill it without warning.
        while len(store.search(("killed",), limit=100)) < 20:
            pass
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    files = _item_files(root)
    assert len(files) == 20
    reopened = FileSystemStore(root)
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        item = reopened.get(("killed",), doc["key"])
        assert item is not None
        assert item.value["payload"] == "x" * 200_000
    assert len(reopened.search(("killed",), limit=100)) == 20
    assert _leftovers(root) == []  # reopening removed the killed writer's temporary file


def _leftovers(root: Path) -> list[str]:
    """Temporary files and batch journals anywhere under the root."""
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file()
        and (p.name.endswith((".tmp", ".wal")) or p.parent.name in {".journal", ".tmp"})
    )


def test_scope_lock_makes_read_increment_write_exact_across_processes(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    _run_all(_store_workers.increment_under_scope_lock, [(str(root), 25) for _ in range(6)])
    item = FileSystemStore(root).get(("users", "alice"), "counter")
    assert item is not None
    assert item.value == {"n": 150}


def _check_batches_whole(store: FileSystemStore, root: Path) -> int:
    """Every key's value, marker and whole history agree; returns how many versions exist."""
    for path in root.rglob("*.json"):  # no half-written item file anywhere
        json.loads(path.read_text(encoding="utf-8"))
    markers = {i.key[2:]: i.value["version"] for i in store.search(META, limit=1000)}
    versions = 0
    for n in range(CRASH_KEYS):
        key = f"k{n}"
        version = markers.get(key, 0)
        history = {i.key: i.value for i in store.search(HISTORY, filter={"key": key}, limit=1000)}
        assert set(history) == {f"{key}@{v}" for v in range(1, version + 1)}, key
        for v in range(1, version + 1):
            record = history[f"{key}@{v}"]
            assert record["version"] == v and record["p"] == PAYLOAD
        entry = store.get(ENTRIES, key)
        if version == 0 or history[f"{key}@{version}"]["deleted"]:
            assert entry is None, key
        else:
            assert entry is not None and entry.value == {"version": version, "p": PAYLOAD}, key
        versions += version
    return versions


def _kill_writers(
    root: Path, mode: str, rng: random.Random, wait: float, check: Callable[[], int]
) -> tuple[list[int], list[int]]:
    """40 rounds: start a `mode` writer, SIGKILL it at a random point, recover and `check`.

    Returns what recovery repaired (committed journals finished, uncommitted ones dropped,
    orphan temporary files deleted) summed over the rounds, and `check`'s result per round.
    """
    repaired = [0, 0, 0]
    progress = []
    forker = _start_worker(root, mode)
    assert forker.stdin is not None and forker.stdout is not None
    try:
        for _ in range(40):
            forker.stdin.write(b"run\n")
            forker.stdin.flush()
            started = forker.stdout.readline().split()
            assert started[:1] == [b"started"], started  # the writer failed before writing
            time.sleep(rng.uniform(0.0, wait))
            os.kill(int(started[1]), signal.SIGKILL)
            ended = forker.stdout.readline().split()
            assert ended[:1] == [b"ended"], ended
            status = int(ended[1])
            # Killed, not exited: a writer that failed would have exited with status 3.
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
            report = FileSystemStore(root).recover()
            repaired = [a + b for a, b in zip(repaired, report, strict=True)]
            assert _leftovers(root) == []
            progress.append(check())
    finally:
        forker.stdin.close()
        forker.wait(timeout=30)
        forker.stdout.close()
    assert forker.returncode == 0
    return repaired, progress


@POSIX_ONLY
def test_sigkill_at_random_points_never_leaves_half_a_batch(tmp_path: Path) -> None:
    """40 kills of a writer doing Memory-shaped batches (entry + history + marker)."""
    root = tmp_path / ".context"
    rng = random.Random(20260525)

    def check() -> int:
        return _check_batches_whole(FileSystemStore(root), root)

    repaired, progress = _kill_writers(root, "memory", rng, 0.06, check)
    assert progress == sorted(progress) and progress[-1] > progress[0]  # the writer advanced
    # The kills did land inside batches: recovery had committed journals to finish,
    # uncommitted ones to drop, or orphan temporary files to delete.
    assert sum(repaired) > 0, repaired


def _check_model_writes_whole(root: Path) -> int:
    """After a kill: every key's history is 1..n ending at its live version, and the audit
    trail has exactly one write record per version and one deletion per deleted version.
    Returns how many versions exist."""
    for path in root.rglob("*.json"):  # no half-written item file anywhere
        json.loads(path.read_text(encoding="utf-8"))
    memory = Memory(FileSystemStore(root), MEMORY_CONFIG, scope=MEMORY_SCOPE)
    trail: dict[str, list[AuditRecord]] = {}
    for record in memory.audit():
        trail.setdefault(record.key, []).append(record)
        assert (record.tool_call_id or "").startswith("call-"), record
    versions = 0
    for n in range(CRASH_KEYS):
        key = f"k{n}"
        history = memory.history(key)
        assert [r.version for r in history] == list(range(1, len(history) + 1)), key
        for record in history:
            assert record.entry.key == key and record.entry.version == record.version, record
            assert record.entry.value.startswith(f"{key} write "), record
        live = memory.get_entry(key)
        if live is not None:
            assert (history[-1].status, history[-1].version) == ("current", live.version), key
        else:
            assert history == [] or history[-1].status == "deleted", key
        written = [r.version for r in trail.get(key, []) if r.action in ("created", "updated")]
        assert written == list(range(1, len(history) + 1)), key
        deleted = [r.version for r in trail.get(key, []) if r.action == "deleted"]
        assert deleted == [r.version for r in history if r.status == "deleted"], key
        versions += len(history)
    return versions


@POSIX_ONLY
def test_sigkill_of_memory_model_writes_never_leaves_half_a_write(tmp_path: Path) -> None:
    """40 kills of a process writing through `handle_tool` on a `Memory` over the store."""
    root = tmp_path / ".context"
    rng = random.Random(20260526)
    # A model write takes tens of milliseconds, so kills land anywhere in a few writes.
    repaired, progress = _kill_writers(
        root, "model", rng, 0.15, lambda: _check_model_writes_whole(root)
    )
    assert progress == sorted(progress) and progress[-1] > progress[0]  # the writer advanced
    assert sum(repaired) > 0, repaired  # some kills landed inside a batch
