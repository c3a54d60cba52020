"""FileSystemStore shared by real processes: concurrent writers, atomic updates, SIGKILL."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from langchain_contextchef.store import FileSystemStore
from tests.integration_tests import _store_workers

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
    assert not list(root.rglob(".*.tmp"))  # no writer left a temp file behind


def test_atomic_update_from_four_processes_loses_nothing(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    _run_all(_store_workers.increment, [(str(root), 40) for _ in range(4)])
    item = FileSystemStore(root).get(("clock",), "turn")
    assert item is not None
    assert item.value == {"n": 160}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX-only")
def test_writer_killed_mid_loop_leaves_only_whole_items(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.integration_tests._store_workers", str(root)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
    )
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
