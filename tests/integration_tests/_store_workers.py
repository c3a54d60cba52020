"""Worker functions run in separate processes by test_store_processes.py.

They live in an importable module so the "spawn" start method can find them.
"""

from __future__ import annotations

import sys
from typing import Any

from langgraph.store.base import PutOp

from langchain_contextchef.store import FileSystemStore

ENTRIES = ("crash", "memory")
HISTORY = ("crash", "memory", "history")
META = ("crash", "memory", "meta")
CRASH_KEYS = 6
PAYLOAD = "p" * 20_000  # big enough that a write takes a while, so kills land mid-batch


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


def increment_under_scope_lock(root: str, times: int) -> None:
    """Read-increment-write a counter with plain get/put, made atomic by `store.lock`."""
    store = FileSystemStore(root)
    scope = ("users", "alice")
    for _ in range(times):
        with store.lock(scope):
            item = store.get(scope, "counter")
            count = item.value["n"] if item is not None else 0
            store.put(scope, "counter", {"n": count + 1})


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


def memory_like_writer(root: str) -> None:
    """Write like Memory does, until killed: each change is one batch of three writes.

    A change of key `k` to version `n` writes the entry (or deletes it, every fifth
    version), the history record `k@n`, and the version marker `v:k` = n, all in one batch.
    The writer resumes from the markers, so it can be killed and restarted any number of
    times. It announces itself on stdout once it has written.
    """
    store = FileSystemStore(root)
    announced = False
    i = 0
    while True:
        key = f"k{i % CRASH_KEYS}"
        marker = store.get(META, f"v:{key}")
        version = (marker.value["version"] if marker is not None else 0) + 1
        deleting = version % 5 == 0
        store.batch(
            [
                PutOp(ENTRIES, key, None if deleting else {"version": version, "p": PAYLOAD}),
                PutOp(
                    HISTORY,
                    f"{key}@{version}",
                    {"key": key, "version": version, "deleted": deleting, "p": PAYLOAD},
                ),
                PutOp(META, f"v:{key}", {"version": version}),
            ]
        )
        if not announced:
            sys.stdout.write("started\n")
            sys.stdout.flush()
            announced = True
        i += 1


if __name__ == "__main__":
    {"forever": write_forever, "memory": memory_like_writer}[sys.argv[2]](sys.argv[1])
