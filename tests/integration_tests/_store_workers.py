"""Worker functions run in separate processes by test_store_processes.py.

They live in an importable module so the "spawn" start method can find them.
"""

from __future__ import annotations

import sys
from typing import Any

from langchain_contextchef.store import FileSystemStore


def write_keys(root: str, worker: int, distinct: int, shared: int) -> None:
    """Write `distinct` keys of our own and the `shared` keys every worker also writes."""
    store = FileSystemStore(root)
    for i in range(max(distinct, shared)):
        if i < distinct:
            store.put(("proc", f"w{worker}"), f"k{i}", {"worker": worker, "i": i})
        if i < shared:
            store.put(("proc", "shared"), f"s{i}", {"worker": worker, "i": i})


def bump(current: dict[str, Any] | None) -> dict[str, Any]:
    """Increment the counter held in the item."""
    return {"n": (current or {"n": 0})["n"] + 1}


def increment(root: str, times: int) -> None:
    """Advance the shared counter `times` times."""
    store = FileSystemStore(root)
    for _ in range(times):
        store.atomic_update(("clock",), "turn", bump)


def write_forever(root: str) -> None:
    """Rewrite large items in a loop until killed; announces the first write on stdout."""
    store = FileSystemStore(root)
    payload = "x" * 200_000
    i = 0
    while True:
        store.put(("killed",), f"k{i % 20}", {"i": i, "payload": payload})
        if i == 0:
            sys.stdout.write("started\n")
            sys.stdout.flush()
        i += 1


if __name__ == "__main__":
    write_forever(sys.argv[1])
