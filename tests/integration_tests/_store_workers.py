"""Worker functions run in separate processes by test_store_processes.py.

They live in an importable module so the "spawn" start method can find them.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

from langgraph.store.base import PutOp

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import handle_tool

ENTRIES = ("crash", "memory")
HISTORY = ("crash", "memory", "history")
META = ("crash", "memory", "meta")
CRASH_KEYS = 6
PAYLOAD = "p" * 20_000  # big enough that a write takes a while, so kills land mid-batch

MEMORY_SCOPE = ("crash", "model")
MEMORY_CONFIG = MemoryConfig(audit=True)
# Plain prose well under the gate's value limit, so every model write is accepted.
_FILLER = "The user keeps notes about the allotment, the tomatoes and the rain. " * 40


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
    times. It announces `started <pid>` on stdout once it has written.
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
            announce()
            announced = True
        i += 1


def announce() -> None:
    """Tell the test which process to kill: `started <pid>`, unbuffered (a forked child
    must not flush a copy of its parent's buffer)."""
    os.write(1, f"started {os.getpid()}\n".encode())


def memory_text(key: str, write: int) -> str:
    """The value the model writer gives `key` on its `write`-th call."""
    return f"{key} write {write}: {_FILLER}"


def model_writer(root: str) -> NoReturn:
    """Write through `Memory`'s model path until killed, as a model's tool calls would.

    Each call is `handle_tool` with a tool call id: `create_memory` for a key that is not
    live, `modify_memory` delete when the live version is a multiple of five, otherwise
    `modify_memory` update. So every kind of model write (entry, history, version marker,
    scope stamp and audit record in one batch) is in flight when the kill lands. A result
    other than the expected success exits with status 3. Announces `started <pid>` on
    stdout once the first call has returned.
    """
    memory = Memory(FileSystemStore(root), MEMORY_CONFIG, scope=MEMORY_SCOPE)
    expected = {"create_memory": "Created", "update": "Updated", "delete": "Deleted"}
    write = 0
    while True:
        key = f"k{write % CRASH_KEYS}"
        call_id = f"call-{os.getpid()}-{write}"
        live = memory.get_entry(key)
        if live is None:
            name, arguments = "create_memory", {"key": key, "value": memory_text(key, write)}
            kind = "create_memory"
        elif live.version % 5 == 0:
            name, arguments, kind = "modify_memory", {"action": "delete", "key": key}, "delete"
        else:
            kind = "update"
            arguments = {"action": "update", "key": key, "value": memory_text(key, write)}
            name = "modify_memory"
        result = handle_tool(name, arguments, memory, tool_call_id=call_id)
        if not result.startswith(expected[kind]):
            sys.stderr.write(f"unexpected tool result for {name} {key}: {result}\n")
            sys.stderr.flush()
            os._exit(3)
        if write == 0:
            announce()
        write += 1


def fork_writers(root: str, writer: Callable[[str], object]) -> None:
    """Fork a `writer` child for every `run` line on stdin; report how each ended.

    Importing the package takes seconds on a loaded machine, far longer than the writes
    the test wants to interrupt, so this process imports once and forks a fresh writer per
    kill (it is single-threaded and opens no store itself, so forking is safe). After `run`
    the child prints `started <pid>`; this process prints `ended <wait status>` once the
    child is gone (reaped here).
    """
    for line in sys.stdin:
        if line.strip() != "run":
            break
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            try:
                writer(root)
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(3)
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(f"ended {status}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[2] == "forever":
        write_forever(sys.argv[1])
    else:
        writers = {"memory": memory_like_writer, "model": model_writer}
        fork_writers(sys.argv[1], writers[sys.argv[2]])
