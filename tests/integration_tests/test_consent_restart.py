"""A consent interrupt survives a process restart: one process pauses, another resumes.

The run pauses in a first process on a write the policy holds; the checkpoint (LangGraph's
`SqliteSaver` on a file) and the store (`FileSystemStore`) are all that remain when it exits.
A second process resumes the thread with the person's decision.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore

REPO = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("_consent_worker.py")

pytestmark = pytest.mark.slow

CASES: list[tuple[str, Any, str | None]] = [
    ("approve", "approve", "dry"),
    ("edit", {"type": "edit", "value": "bone dry"}, "bone dry"),
    ("reject", {"type": "reject"}, None),
]


def _run(*args: str) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, str(WORKER), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [row for row in done.stdout.splitlines() if row.strip()]
    result: dict[str, Any] = json.loads(line)
    return result


@pytest.mark.parametrize(("name", "decision", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_paused_write_is_resumed_by_another_process(
    tmp_path: Path, name: str, decision: Any, expected: str | None
) -> None:
    store_dir, checkpoints = str(tmp_path / ".context"), str(tmp_path / "checkpoints.db")
    started = _run("start", store_dir, checkpoints)
    (asked,) = started["interrupts"]
    assert (asked["action"], asked["key"], asked["new_value"]) == ("create", "tone", "dry")
    memory = Memory(FileSystemStore(store_dir), MemoryConfig(audit=True), scope=("users", "ada"))
    assert memory.get("tone") is None  # nothing stored while the first process is gone

    resumed = _run("resume", store_dir, checkpoints, json.dumps(decision))
    assert memory.get("tone") == expected
    (result,) = resumed["tool_results"]
    assert ("declined" in result) == (expected is None)
    assert resumed["model_calls"] == 1  # the paused tool ran, then the model answered once
    settled = [r for r in memory.audit("tone") if r.action.startswith("proposal_")]
    assert [r.actor for r in settled] == ["user"]
    assert [r.action for r in memory.audit("tone") if r.action == "created"] == (
        [] if expected is None else ["created"]
    )
