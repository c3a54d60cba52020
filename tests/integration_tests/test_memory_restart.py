"""Memory across processes on one FileSystemStore: restarts keep counting, nothing is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from langchain_contextchef.memory import Memory
from langchain_contextchef.store import FileSystemStore

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("memory_worker.py")

pytestmark = pytest.mark.slow


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def _worker(root: Path, count: int, *extra: str) -> list[str]:
    return [sys.executable, str(WORKER), str(root), str(count), *extra]


def _rows(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def _compile_in_new_process(root: Path) -> dict[str, Any]:
    done = subprocess.run(
        _worker(root, 1), env=_env(), capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows(done.stdout)
    return row


def test_a_turn_ttl_keeps_counting_across_restarts(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    memory = Memory(FileSystemStore(root))
    memory.set("active_file", "auth.py", ttl={"turns": 3})
    memory.set("persona", "senior engineer")
    first = memory.read_for_compile()
    assert ([e.key for e in first.selected], first.turn) == (["active_file", "persona"], 1)

    # Every later compile runs in a brand-new process on the same directory.
    rows = [_compile_in_new_process(root) for _ in range(3)]
    assert rows == [
        {"selected": ["active_file", "persona"], "expired": [], "turn": 2},
        {"selected": ["active_file", "persona"], "expired": [], "turn": 3},
        {"selected": ["persona"], "expired": ["active_file"], "turn": 4},
    ]
    reopened = Memory(FileSystemStore(root))
    assert reopened.turn == 4
    assert reopened.get("active_file") is None
    assert reopened.get("persona") == "senior engineer"


def test_two_processes_compiling_never_lose_a_turn(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    Memory(FileSystemStore(root)).set("persona", "senior engineer")
    go = tmp_path / "go"
    n = 40
    workers = [
        subprocess.Popen(
            _worker(root, n, str(go), "5"),
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    go.touch()  # release both at once so their compiles interleave
    outputs = [worker.communicate(timeout=240) for worker in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err

    turns = [row["turn"] for out, _ in outputs for row in _rows(out)]
    # Every compile got its own turn: no increment was lost or applied twice.
    assert sorted(turns) == list(range(1, 2 * n + 1))
    for out, _ in outputs:
        mine = [row["turn"] for row in _rows(out)]
        assert mine == sorted(mine)
        assert all(row["selected"] == ["persona"] for row in _rows(out))
    assert Memory(FileSystemStore(root)).turn == 2 * n
