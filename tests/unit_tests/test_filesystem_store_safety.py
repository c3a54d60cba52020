"""FileSystemStore against hostile trees and failures: links, a full disk, crashes, bad input."""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import BaseStore, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef.store import FileSystemStore, UnsafePathError
from langchain_contextchef.store import _fsio as fsio
from langchain_contextchef.store._journal import Journal, JournalOp, encode_journal
from langchain_contextchef.store._paths import dir_lock_name, encode_namespace

# Symbolic links, O_NOFOLLOW and tmpfs mounts are POSIX; on Windows these checks do not apply.
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and mounts")


def tree(root: Path) -> dict[str, bytes | str]:
    """Every entry under `root` (links as their target, files as their bytes)."""
    if not root.exists():
        return {}
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            found[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def item_tree(root: Path) -> dict[str, bytes | str]:
    """Like `tree`, without the lock files (machinery that failed writes may create)."""
    return {k: v for k, v in tree(root).items() if not k.startswith(".locks")}


def document(namespace: list[str], key: str, value: dict[str, Any]) -> str:
    return json.dumps(
        {
            "namespace": namespace,
            "key": key,
            "value": value,
            "created_at": "2026-01-01T00:00:00.000000Z",
            "updated_at": "2026-01-01T00:00:00.000000Z",
            "ttl_minutes": None,
            "expires_at": None,
        }
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ".context"


@pytest.fixture
def store(root: Path) -> Iterator[FileSystemStore]:
    with FileSystemStore(root) as built:
        yield built


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the root holding files a planted link could expose or clobber."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.json").write_text(document(["users", "bob"], "secret", {"pin": 1234}))
    (folder / "victim.json").write_text(document(["users", "alice"], "evil", {"mine": True}))
    (folder / "notes.txt").write_text("keep me")
    return folder


# ---------------------------------------------------------------- links


def test_folder_link_inside_the_root_is_refused(
    store: FileSystemStore, root: Path, outside: Path
) -> None:
    store.put(("users", "alice"), "k", {"v": 1})
    (root / "users" / "bob").symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    attempts = [
        lambda: store.put(("users", "bob"), "secret", {"pin": 0}),
        lambda: store.put(("users", "bob"), "new", {"v": 2}),
        lambda: store.delete(("users", "bob"), "secret"),
        lambda: store.get(("users", "bob"), "secret"),
        lambda: store.search(("users", "bob")),
        lambda: store.search(("users",)),
        lambda: store.list_namespaces(),
        # A valid write in the same batch is not applied either.
        lambda: store.batch(
            [PutOp(("users", "alice"), "k", {"v": 9}), PutOp(("users", "bob"), "x", {"v": 9})]
        ),
    ]
    for attempt in attempts:
        with pytest.raises(UnsafePathError) as caught:
            attempt()
        message = str(caught.value)
        assert str(root / "users" / "bob") in message
        assert "symbolic link" in message and "outside the root" in message
    assert tree(outside) == before
    assert store.get(("users", "alice"), "k").value == {"v": 1}  # type: ignore[union-attr]


def test_file_link_inside_the_root_is_refused(
    store: FileSystemStore, root: Path, outside: Path
) -> None:
    store.put(("users", "alice"), "k", {"v": 1})
    planted = root / "users" / "alice" / "evil.json"
    planted.symlink_to(outside / "victim.json")
    before = tree(outside)
    for attempt in [
        lambda: store.get(("users", "alice"), "evil"),
        lambda: store.put(("users", "alice"), "evil", {"mine": False}),
        lambda: store.delete(("users", "alice"), "evil"),
        lambda: store.search(("users", "alice")),
    ]:
        with pytest.raises(UnsafePathError, match="evil.json.*symbolic link"):
            attempt()
    assert tree(outside) == before
    assert planted.is_symlink()  # refused, not silently replaced either


def test_links_for_the_machinery_folders_and_lock_files_are_refused(
    root: Path, outside: Path
) -> None:
    first = FileSystemStore(root)
    first.put(("a",), "k", {"v": 1})
    before = tree(outside)
    # A lock file planted as a link: opening it must never create or truncate the target.
    lock = root / ".locks" / dir_lock_name(encode_namespace(("b",)))
    lock.symlink_to(outside / "notes.txt")
    with pytest.raises(UnsafePathError, match="lock file"):
        first.put(("b",), "k", {"v": 1})
    lock.unlink()
    # The lock folder itself.
    (root / ".locks").rename(root / "old-locks")
    (root / ".locks").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError, match=r"\.locks"):
        first.put(("c",), "k", {"v": 1})
    with pytest.raises(UnsafePathError, match=r"\.locks"):
        FileSystemStore(root).get(("a",), "k")  # a new store refuses to open it
    (root / ".locks").unlink()
    # The journal folder.
    (root / ".journal").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError, match=r"\.journal"):
        FileSystemStore(root).get(("a",), "k")
    with pytest.raises(UnsafePathError, match=r"\.journal"):
        first.get(("a",), "k")  # a live store notices it too
    assert tree(outside) == before


def test_a_top_level_label_folder_link_is_refused(root: Path, outside: Path) -> None:
    store = FileSystemStore(root)
    store.put(("a",), "k", {"v": 1})
    (root / "users").symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    with pytest.raises(UnsafePathError, match="users"):
        store.put(("users", "x"), "k", {"v": 1})
    with pytest.raises(UnsafePathError, match="users"):
        store.list_namespaces()
    assert tree(outside) == before


def test_the_root_itself_may_be_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    alias = tmp_path / "alias"
    alias.symlink_to(real, target_is_directory=True)
    store = FileSystemStore(alias)
    store.put(("users", "alice"), "k", {"v": 1})
    assert (real / "users" / "alice" / "k.json").exists()
    assert [i.key for i in store.search(("users",))] == ["k"]
    assert store.list_namespaces() == [("users", "alice")]


@pytest.mark.timeout(20)
def test_a_fifo_named_like_an_item_never_blocks_a_read(store: FileSystemStore, root: Path) -> None:
    store.put(("ns",), "k", {"v": 1})
    os.mkfifo(root / "ns" / "pipe.json")
    assert store.get(("ns",), "pipe") is None
    assert [i.key for i in FileSystemStore(root).search(("ns",))] == ["k"]


# ---------------------------------------------------------------- a full disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs: a real file system that runs out of space."""
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    """Write to `path` until the file system is full (unbuffered, down to the last byte)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


def test_a_full_disk_leaves_the_store_unchanged(small_disk: Path) -> None:
    root = small_disk / ".context"
    store = FileSystemStore(root)
    entries, history, meta = ("mem",), ("mem", "history"), ("mem", "meta")
    store.put(entries, "existing", {"v": "old"})
    store.batch([PutOp(history, "existing@1", {"v": "old"}), PutOp(meta, "v:existing", {"n": 1})])
    filler = small_disk / "filler"
    _fill(filler)
    before = item_tree(root)
    big = {"v": "x" * 20_000}
    failing = [
        lambda: store.put(entries, "existing", big),  # replace an item
        lambda: store.put(("fresh", "ns"), "new", big),  # a new item in new folders
        lambda: store.batch(  # entry + history + marker, like Memory
            [
                PutOp(entries, "existing", big),
                PutOp(history, "existing@2", big),
                PutOp(meta, "v:existing", {"n": 2}),
            ]
        ),
        lambda: store.batch(  # a delete with its history record
            [PutOp(entries, "existing", None), PutOp(history, "existing@2", big)]
        ),
    ]
    for attempt in failing:
        with pytest.raises(OSError) as caught:
            attempt()
        assert caught.value.errno == errno.ENOSPC
        assert item_tree(root) == before  # no partial item, no temporary file, no new folder
    reopened = FileSystemStore(root)
    assert reopened.get(entries, "existing").value == {"v": "old"}  # type: ignore[union-attr]
    assert reopened.recover() == (0, 0, 0)
    filler.unlink()
    store.batch([PutOp(entries, "existing", big), PutOp(history, "existing@2", big)])
    assert reopened.get(entries, "existing").value == big  # type: ignore[union-attr]


# ---------------------------------------------------------------- LangGraph edges


@pytest.mark.parametrize("kind", ["memory", "filesystem"])
async def test_reserved_langgraph_label_like_in_memory_store(kind: str, tmp_path: Path) -> None:
    store: BaseStore = InMemoryStore() if kind == "memory" else FileSystemStore(tmp_path / "s")
    with pytest.raises(InvalidNamespaceError, match="langgraph"):
        store.put(("langgraph", "x"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError, match="langgraph"):
        await store.aput(("langgraph", "x"), "k", {"v": 1})
    assert store.get(("langgraph", "x"), "k") is None
    # LangGraph itself writes there through batch(): allowed.
    store.batch([PutOp(("langgraph", "x"), "k", {"v": 1})])
    await store.abatch([PutOp(("langgraph", "y"), "k", {"v": 2})])
    assert store.get(("langgraph", "x"), "k").value == {"v": 1}  # type: ignore[union-attr]
    assert store.get(("langgraph", "y"), "k").value == {"v": 2}  # type: ignore[union-attr]
    assert sorted(store.list_namespaces(prefix=("langgraph",))) == [
        ("langgraph", "x"),
        ("langgraph", "y"),
    ]


def test_atomic_update_refuses_the_reserved_label(store: FileSystemStore) -> None:
    with pytest.raises(InvalidNamespaceError, match="langgraph"):
        store.atomic_update(("langgraph",), "k", lambda cur: {"v": 1})


FILTER_KEYS = [
    "kind",
    "meta.src",
    "a-b",
    "A_1",
    "a b",
    "x'y",
    "k; DROP TABLE store",
    "$.kind",
    "",
    "ü",
    "a/b",
    "tags[0]",
    "a\nb",
]


def test_filter_keys_are_refused_exactly_where_sqlite_refuses_them(tmp_path: Path) -> None:
    ours = FileSystemStore(tmp_path / "fs")
    ours.put(("ns",), "k", {"kind": "x"})
    with SqliteStore.from_conn_string(str(tmp_path / "db.sqlite")) as sqlite:
        sqlite.setup()
        sqlite.put(("ns",), "k", {"kind": "x"})
        for key in FILTER_KEYS:
            outcomes = []
            for backend in (ours, sqlite):
                try:
                    backend.search(("ns",), filter={key: "x"})
                except ValueError as exc:
                    outcomes.append(("refused", exc))
                else:
                    outcomes.append(("ran", None))
            assert outcomes[0][0] == outcomes[1][0], key
            if outcomes[0][0] == "refused":
                assert "letters, digits" in str(outcomes[0][1])


def test_integers_beyond_64_bits_are_refused_not_silently_rounded(store: FileSystemStore) -> None:
    store.put(("ns",), "edge", {"n": 2**64 - 1, "m": -(2**63)})
    assert store.get(("ns",), "edge").value == {"n": 2**64 - 1, "m": -(2**63)}  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="store it as a string"):
        store.put(("ns",), "big", {"n": 2**64})
    assert store.get(("ns",), "big") is None


# ---------------------------------------------------------------- journals and recovery


class _Crash(BaseException):
    """Stands in for the process dying at that instant."""


def _crash_on_call(monkeypatch: pytest.MonkeyPatch, method: str, call: int) -> None:
    original = getattr(fsio.SafeDir, method)
    seen = {"n": 0}

    def wrapper(self: fsio.SafeDir, *args: Any, **kwargs: Any) -> Any:
        seen["n"] += 1
        if seen["n"] == call:
            raise _Crash
        return original(self, *args, **kwargs)

    monkeypatch.setattr(fsio.SafeDir, method, wrapper)


def _memory_batch(n: int) -> list[PutOp]:
    return [
        PutOp(("mem",), "k", {"version": n}),
        PutOp(("mem", "history"), f"k@{n}", {"version": n}),
        PutOp(("mem", "meta"), "v:k", {"version": n}),
    ]


def test_a_crash_after_the_commit_is_completed_on_reopen(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    FileSystemStore(root).batch(_memory_batch(1))
    # Die after the journal is committed and the first rename is done (the second rename).
    crashing = FileSystemStore(root)
    crashing.get(("mem",), "k")  # opened before the crash is armed
    _crash_on_call(monkeypatch, "move_in", 2)  # 1: the entry moved in, 2: its history record
    with pytest.raises(_Crash):
        crashing.batch(_memory_batch(2))
    monkeypatch.undo()
    assert list((root / ".journal").glob("*.wal"))  # the committed batch is on disk
    reopened = FileSystemStore(root)
    assert reopened.recover().replayed == 1
    assert reopened.get(("mem",), "k").value == {"version": 2}  # type: ignore[union-attr]
    assert reopened.get(("mem", "history"), "k@2").value == {"version": 2}  # type: ignore[union-attr]
    assert reopened.get(("mem", "meta"), "v:k").value == {"version": 2}  # type: ignore[union-attr]
    assert not [p for p in root.rglob("*.tmp") if p.is_file()] and not list(
        (root / ".journal").iterdir()
    )


def test_a_crash_before_the_commit_leaves_nothing(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(root)
    store.batch(_memory_batch(1))
    before = item_tree(root)
    _crash_on_call(monkeypatch, "write_new", 2)  # the history file's staged copy
    with pytest.raises(_Crash):
        store.batch(_memory_batch(2))
    monkeypatch.undo()
    assert item_tree(root) == before  # the abort removed the entry's temporary file
    assert FileSystemStore(root).get(("mem",), "k").value == {"version": 1}  # type: ignore[union-attr]


def test_a_live_store_completes_a_dead_writers_batch_before_its_own_write(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = FileSystemStore(root)
    live.batch(_memory_batch(1))
    dying = FileSystemStore(root)
    dying.get(("mem",), "k")
    _crash_on_call(monkeypatch, "move_in", 2)
    with pytest.raises(_Crash):
        dying.batch(_memory_batch(2))
    monkeypatch.undo()
    # The live store notices the journal on its next read and finishes the batch first.
    assert live.get(("mem", "history"), "k@2").value == {"version": 2}  # type: ignore[union-attr]
    live.put(("mem",), "k", {"version": 3})
    assert live.get(("mem",), "k").value == {"version": 3}  # type: ignore[union-attr]
    assert live.get(("mem", "meta"), "v:k").value == {"version": 2}  # type: ignore[union-attr]


def _plant_dead_writer(root: Path) -> tuple[Path, Path, Path, Path]:
    """Leave what writers killed at four different points leave behind."""
    store = FileSystemStore(root)
    store.put(("mem",), "k", {"version": 1})
    folder = root / "mem"
    # Killed after committing: a journal and the temporary file it still has to rename.
    pending = folder / ".k.json.aaaaaaaaaaaa.tmp"
    pending.write_text(document(["mem"], "k", {"version": 2}))
    lock = dir_lock_name(encode_namespace(("mem",)))
    journal = Journal((lock,), (JournalOp(("mem",), "k.json", pending.name),))
    (root / ".journal").mkdir(exist_ok=True)
    committed = root / ".journal" / f"{lock.removesuffix('.lock')}.0123456789abcdef.wal"
    committed.write_bytes(encode_journal(journal))
    # Killed while writing a journal: never committed.
    uncommitted = root / ".journal" / f".{committed.name}.bbbbbbbbbbbb.tmp"
    uncommitted.write_text('{"format": 1, "loc')
    # Killed while writing an item: an orphan staged file ...
    staged = root / ".tmp" / f"{lock.removesuffix('.lock')}.dddddddddddddddd.tmp"
    staged.write_text('{"namespace": ["mem"], "ke')
    # ... or, for a folder on another file system, one written next to its item.
    orphan = folder / ".other.json.cccccccccccc.tmp"
    orphan.write_text('{"namespace": ["mem"], "ke')
    return committed, uncommitted, staged, orphan


def test_opening_replays_committed_journals_and_removes_what_was_never_committed(
    root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    committed, uncommitted, staged, orphan = _plant_dead_writer(root)
    with caplog.at_level(logging.WARNING):
        store = FileSystemStore(root)
        assert store.get(("mem",), "k").value == {"version": 2}  # type: ignore[union-attr]
    # Opening finished the committed batch and dropped what was never committed.
    assert not committed.exists() and not uncommitted.exists() and not staged.exists()
    assert any("1 batch(es) completed" in r.getMessage() for r in caplog.records)
    # A temporary file next to its item (never written there on one file system) is
    # swept by an explicit recover(), which walks every folder.
    assert orphan.exists()
    assert store.recover() == (0, 0, 1)
    assert not [p for p in root.rglob("*.tmp") if p.is_file()] and store.recover() == (0, 0, 0)


def test_recovery_leaves_a_live_writers_files_alone(root: Path) -> None:
    committed, uncommitted, staged, orphan = _plant_dead_writer(root)
    lock = FileSystemStore(root)._writer.locks.dir_lock(dir_lock_name(encode_namespace(("mem",))))
    held, release = threading.Event(), threading.Event()

    def writer() -> None:  # holds the folder's write lock, like a writer mid-batch
        lock.acquire(None)
        held.set()
        release.wait(30)
        lock.release()

    thread = threading.Thread(target=writer)
    thread.start()
    held.wait(30)
    try:
        writer = FileSystemStore(root, lock_timeout=0.2)._writer
        assert writer._discard_journal_temps() == 0
        assert writer._remove_staged_orphans() == 0
        assert writer._remove_orphans() == 0
        assert committed.exists() and uncommitted.exists() and staged.exists() and orphan.exists()
    finally:
        release.set()
        thread.join(30)
    assert FileSystemStore(root).recover() == (1, 1, 2)


def test_a_damaged_journal_is_set_aside_and_reported(
    root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = FileSystemStore(root)
    store.put(("mem",), "k", {"version": 1})
    lock = dir_lock_name(encode_namespace(("mem",)))
    damaged = root / ".journal" / f"{lock.removesuffix('.lock')}.feedfeedfeedfeed.wal"
    damaged.parent.mkdir(exist_ok=True)
    damaged.write_text("not a journal\n0000\n")
    with caplog.at_level(logging.ERROR):
        assert FileSystemStore(root).get(("mem",), "k").value == {"version": 1}  # type: ignore[union-attr]
    assert not damaged.exists()
    assert damaged.with_name(damaged.name + ".damaged").exists()
    assert any("damaged" in r.getMessage() for r in caplog.records)


def test_a_journal_naming_paths_outside_the_root_is_never_replayed(
    root: Path, tmp_path: Path
) -> None:
    store = FileSystemStore(root)
    store.put(("mem",), "k", {"version": 1})
    victim = tmp_path / "victim.json"
    victim.write_text("keep me")
    lock = dir_lock_name(encode_namespace(("mem",)))
    evil = Journal((lock,), (JournalOp(("..", ".."), "victim.json", None),))
    path = root / ".journal" / f"{lock.removesuffix('.lock')}.0000000000000000.wal"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(encode_journal(evil))
    FileSystemStore(root).recover()
    assert victim.read_text() == "keep me"


def test_invalid_search_filters_change_nothing(store: FileSystemStore, root: Path) -> None:
    store.put(("ns",), "k", {"v": 1})
    before = tree(root)
    for bad in ({"a b": 1}, {"n": {"$regex": "x"}}, {3: 1}):
        with pytest.raises((ValueError, TypeError)):
            store.batch([PutOp(("ns",), "k2", {"v": 2}), SearchOp(("ns",), filter=bad)])  # type: ignore[arg-type]
    assert tree(root) == before


def test_a_link_in_the_middle_of_a_deep_namespace_is_refused(
    store: FileSystemStore, root: Path, outside: Path
) -> None:
    # Every folder exists beyond the link, so a one-call open of the whole path would
    # succeed if it followed links: it must refuse, and the folder walk names the link.
    (outside / "inner").mkdir()
    store.put(("users", "alice", "inner"), "k", {"v": 1})
    (root / "users" / "bob").symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    for attempt in (
        lambda: store.put(("users", "bob", "inner"), "k", {"v": 2}),
        lambda: store.batch(
            [
                PutOp(("users", "alice", "inner"), "k", {"v": 3}),
                PutOp(("users", "bob", "inner"), "x", {"v": 3}),
            ]
        ),
    ):
        with pytest.raises(UnsafePathError, match="bob"):
            attempt()
    assert tree(outside) == before
    assert store.get(("users", "alice", "inner"), "k").value == {"v": 1}  # type: ignore[union-attr]


# Without openat2 (not Linux, or a kernel before 5.6) the one-call open is never tried and
# the walk the other tests here cover is the only path; CI's Linux has it.
@pytest.mark.skipif(fsio._OPENAT2 is None, reason="needs Linux openat2 (5.6 and later)")
def test_an_existing_deep_folder_is_opened_in_one_call(
    store: FileSystemStore, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.put(("users", "alice", "inner"), "k", {"v": 1})
    calls: list[bytes] = []
    real = fsio._OPENAT2
    assert real is not None

    def counted(dir_fd: int, path: bytes) -> int:
        calls.append(path)
        return real(dir_fd, path)

    monkeypatch.setattr(fsio, "_OPENAT2", counted)
    store.put(("users", "alice", "inner"), "k", {"v": 2})
    assert os.fsencode(os.sep.join(("users", "alice", "inner"))) in calls
    assert FileSystemStore(root).get(("users", "alice", "inner"), "k").value == {"v": 2}  # type: ignore[union-attr]
