"""FileSystemStore's redo log: one flush per batch, replay after a lost apply, checkpoints."""

from __future__ import annotations

import ctypes
import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import PutOp

from langchain_contextchef.store import FileSystemStore, _fsio, _redo
from langchain_contextchef.store._paths import encode_namespace, item_file_name

ENTRIES, HISTORY, META = ("mem",), ("mem", "history"), ("mem", "meta")


def _batch(n: int) -> list[PutOp]:
    return [
        PutOp(ENTRIES, "k", {"version": n}),
        PutOp(HISTORY, f"k@{n}", {"version": n}),
        PutOp(META, "v:k", {"version": n}),
    ]


def _item(root: Path, namespace: tuple[str, ...], key: str) -> Path:
    return root.joinpath(*encode_namespace(namespace), item_file_name(key))


def _log(root: Path) -> Path:
    return root / ".journal" / _redo.REDO_LOG


def _count_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    return calls


def test_a_batch_of_several_items_is_flushed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))  # creates the log (its header and folder are flushed once)
    calls = _count_fsyncs(monkeypatch)
    store.batch(_batch(2))
    assert len(calls) == 1
    store.batch([PutOp(ENTRIES, "k", None), PutOp(HISTORY, "k@3", {"deleted": True})])
    assert len(calls) == 2
    assert store.get(ENTRIES, "k") is None
    assert store.get(HISTORY, "k@2").value == {"version": 2}  # type: ignore[union-attr]


def test_an_apply_lost_in_a_power_cut_is_replayed_on_opening(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    entry, history = _item(tmp_path, ENTRIES, "k"), _item(tmp_path, HISTORY, "k@2")
    old_bytes, old_times = entry.read_bytes(), os.stat(entry)
    store.batch(_batch(2))
    # A power cut after the log's flush: the renames and the new file never reached the disk.
    entry.write_bytes(old_bytes)
    os.utime(entry, ns=(old_times.st_atime_ns, old_times.st_mtime_ns))
    history.unlink()
    reopened = FileSystemStore(tmp_path)
    assert reopened.get(ENTRIES, "k").value == {"version": 2}  # type: ignore[union-attr]
    assert reopened.get(HISTORY, "k@2").value == {"version": 2}  # type: ignore[union-attr]
    # Opening replayed the log, flushed the items and emptied the log (kept: opening a root
    # changes no name in it); an explicit recover() removes it.
    assert _log(tmp_path).stat().st_size == _redo.HEADER
    assert reopened.recover() == (0, 0, 0) and not _log(tmp_path).exists()


def test_replaying_never_undoes_a_later_single_write(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    store.put(ENTRIES, "k", {"version": "written after the batch"})
    assert _log(tmp_path).exists()  # the batch's record is still in the log
    reopened = FileSystemStore(tmp_path)
    assert reopened.get(ENTRIES, "k").value == {"version": "written after the batch"}  # type: ignore[union-attr]
    assert reopened.get(META, "v:k").value == {"version": 1}  # type: ignore[union-attr]


def test_a_record_cut_short_is_dropped_and_changes_nothing(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    record = _redo.encode_record(
        _redo.RedoRecord(
            ("d-x.lock",), (_redo.RedoOp(encode_namespace(ENTRIES), "k.json", 1, b"{}"),)
        )
    )
    with _log(tmp_path).open("ab") as log:
        log.write(record[:-3])  # a writer killed while appending
    report = FileSystemStore(tmp_path).recover()
    assert (report.replayed, report.discarded) == (0, 1)
    assert FileSystemStore(tmp_path).get(ENTRIES, "k").value == {"version": 1}  # type: ignore[union-attr]


def test_the_log_is_checkpointed_when_it_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("langchain_contextchef.store._writer.CHECKPOINT_BYTES", 4096)
    flushed: list[int] = []
    real = _redo.flush_file_system

    def counted(root: str, records: list[Any]) -> None:
        flushed.append(len(records))
        real(root, records)

    monkeypatch.setattr("langchain_contextchef.store._writer.flush_file_system", counted)
    store = FileSystemStore(tmp_path)
    for n in range(1, 41):
        store.batch(_batch(n))
        assert _log(tmp_path).stat().st_size <= 4096 + 2048
    assert flushed and all(count > 1 for count in flushed)  # many batches per checkpoint
    reopened = FileSystemStore(tmp_path)
    assert reopened.get(ENTRIES, "k").value == {"version": 40}  # type: ignore[union-attr]
    assert len(reopened.search(HISTORY, limit=100)) == 40


def _renamed_to(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The destination names of every `os.rename` from here on."""
    names: list[str] = []
    real = os.rename

    def counted(src: Any, dst: Any, **kwargs: Any) -> None:
        names.append(os.fsdecode(dst))
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "rename", counted)
    return names


# An exchange needs Linux's renameat2 (glibc 2.28+); elsewhere every item is renamed, which
# the fallback test below covers on every platform.
needs_exchange = pytest.mark.skipif(
    _fsio._RENAMEAT2 is None, reason="no renameat2(RENAME_EXCHANGE) on this platform"
)


@needs_exchange
def test_a_logged_batch_exchanges_items_it_replaces_instead_of_renaming_over_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    renamed = _renamed_to(monkeypatch)
    store.batch(_batch(2))
    # Entry and marker existed: exchanged, then the old files deleted; the history key is new.
    assert renamed == [item_file_name("k@2")]
    assert list((tmp_path / ".tmp").iterdir()) == []
    for namespace, key in ((ENTRIES, "k"), (META, "v:k"), (HISTORY, "k@2")):
        assert FileSystemStore(tmp_path).get(namespace, key).value == {"version": 2}  # type: ignore[union-attr]
    assert store.get(ENTRIES, "k").value == {"version": 2}  # type: ignore[union-attr]


def test_without_an_exchange_a_logged_batch_renames_and_ends_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    monkeypatch.setattr(_fsio, "_RENAMEAT2", None)
    renamed = _renamed_to(monkeypatch)
    store.batch(_batch(2))
    assert sorted(renamed) == sorted(item_file_name(k) for k in ("k", "k@2", "v:k"))
    assert list((tmp_path / ".tmp").iterdir()) == []
    assert FileSystemStore(tmp_path).get(META, "v:k").value == {"version": 2}  # type: ignore[union-attr]


def test_a_file_system_that_refuses_the_exchange_gets_a_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuses(*args: Any) -> int:
        ctypes.set_errno(errno.EINVAL)
        return -1

    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    monkeypatch.setattr(_fsio, "_RENAMEAT2", refuses)
    renamed = _renamed_to(monkeypatch)
    store.batch(_batch(2))
    assert sorted(renamed) == sorted(item_file_name(k) for k in ("k", "k@2", "v:k"))
    assert FileSystemStore(tmp_path).get(ENTRIES, "k").value == {"version": 2}  # type: ignore[union-attr]


def test_a_writer_killed_between_exchange_and_delete_leaves_only_an_orphan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    # The old files stay in `.tmp/` under their staged names, as when the writer dies there.
    monkeypatch.setattr(_fsio.SafeDir, "discard", lambda self, name: None)
    store.batch(_batch(2))
    monkeypatch.undo()
    leftovers = list((tmp_path / ".tmp").iterdir())
    if _fsio._RENAMEAT2 is not None:
        assert len(leftovers) == 2
        assert {json.loads(p.read_bytes())["value"]["version"] for p in leftovers} == {1}
    reopened = FileSystemStore(tmp_path)
    report = reopened.recover()  # deletes the staged files of a writer that is gone
    assert (report.replayed, report.discarded) == (0, 0)
    assert list((tmp_path / ".tmp").iterdir()) == []
    assert reopened.get(ENTRIES, "k").value == {"version": 2}  # type: ignore[union-attr]
    assert reopened.get(META, "v:k").value == {"version": 2}  # type: ignore[union-attr]


def test_an_exchanged_item_whose_data_a_power_cut_lost_is_replayed(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    store.batch(_batch(2))
    # No write of the file's data was started before the power cut: the exchanged file is
    # there, stamped, and empty (or holding zeros); its record in the log carries the data.
    entry = _item(tmp_path, ENTRIES, "k")
    times = os.stat(entry)
    entry.write_bytes(b"")
    os.utime(entry, ns=(times.st_atime_ns, times.st_mtime_ns))
    marker = _item(tmp_path, META, "v:k")
    times = os.stat(marker)
    marker.write_bytes(b"\0" * times.st_size)
    os.utime(marker, ns=(times.st_atime_ns, times.st_mtime_ns))
    reopened = FileSystemStore(tmp_path)
    assert reopened.get(ENTRIES, "k").value == {"version": 2}  # type: ignore[union-attr]
    assert reopened.get(META, "v:k").value == {"version": 2}  # type: ignore[union-attr]


# Only platforms without fork() (Windows) skip: there a child never shares the descriptor.
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_opens_the_log_afresh(tmp_path: Path) -> None:
    """The child does not append through the descriptor it shares with its parent."""
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    log = store._writer.redo
    inherited = log._fd
    assert inherited is not None
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            store.batch(_batch(2))
            fresh = log._fd is not None and log._fd != inherited
            code = 0 if fresh and store.get(ENTRIES, "k").value == {"version": 2} else 3  # type: ignore[union-attr]
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert log._fd == inherited  # the parent keeps its own
    store.batch(_batch(3))
    assert FileSystemStore(tmp_path).get(HISTORY, "k@2").value == {"version": 2}  # type: ignore[union-attr]
    assert store.get(ENTRIES, "k").value == {"version": 3}  # type: ignore[union-attr]
