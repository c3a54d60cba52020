"""FileSystemStore's redo log: one flush per batch, replay after a lost apply, checkpoints."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import PutOp

from langchain_contextchef.store import FileSystemStore, _redo
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
