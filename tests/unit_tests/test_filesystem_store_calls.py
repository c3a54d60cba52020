"""FileSystemStore asks the disk once per fact a step needs, and stays right when it changes.

Each shortcut that drops a repeated system call (a cached identity, a stat taken under a lock
passed on, the root opened once per commit) is checked twice: that the repeated call is gone,
and that the case it could miss (a file replaced or removed in between) is still handled.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import GetOp, Item, PutOp

from langchain_contextchef.store import FileSystemStore, _fsio, _redo, _writer
from langchain_contextchef.store._paths import encode_namespace, item_file_name
from langchain_contextchef.store._records import INO, Unreadable

ENTRIES, HISTORY, META = ("mem",), ("mem", "history"), ("mem", "meta")
_REAL_OPEN = os.open


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


def _record_keys(log: Path) -> list[str]:
    records, _, _ = _redo.decode_records(log.read_bytes()[_redo.HEADER :])
    return [op.name for record, _ in records for op in record.ops]


def _spy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple[Any, ...]]:
    """Record the arguments of every `os.<name>` call (the call itself still runs)."""
    calls: list[tuple[Any, ...]] = []
    real: Callable[..., Any] = getattr(os, name)

    def spied(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, spied)
    return calls


# ---------------------------------------------------------------- the redo log


def test_a_logged_batch_never_fstats_the_log_its_path_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))  # opens the log (its one fstat)
    log_fd = store._writer.redo._fd
    assert log_fd is not None
    fstats = _spy(monkeypatch, "fstat")
    store.batch(_batch(2))
    assert [args for args in fstats if args[0] == log_fd] == []
    monkeypatch.undo()
    assert item_file_name("k@2") in _record_keys(_log(tmp_path))
    assert FileSystemStore(tmp_path).get(HISTORY, "k@2").value == {"version": 2}  # type: ignore[union-attr]


def test_a_log_replaced_under_its_path_gets_the_next_record(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    log = _log(tmp_path)
    # A copy renamed over the log: same bytes, another file; the kept descriptor is stale.
    shutil.copyfile(log, tmp_path / "copy.wal")
    os.replace(tmp_path / "copy.wal", log)
    store.batch(_batch(2))
    assert item_file_name("k@2") in _record_keys(log)
    assert store._writer.redo._ident == (os.stat(log).st_ino, os.stat(log).st_dev)
    assert FileSystemStore(tmp_path).get(HISTORY, "k@2").value == {"version": 2}  # type: ignore[union-attr]


def test_a_log_removed_under_its_path_is_made_again_for_the_next_record(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    log = _log(tmp_path)
    log.unlink()
    store.batch(_batch(2))
    assert _record_keys(log) == [item_file_name(k) for k in ("k", "k@2", "v:k")]
    assert FileSystemStore(tmp_path).get(META, "v:k").value == {"version": 2}  # type: ignore[union-attr]


# ---------------------------------------------------------------- a commit's own calls


def test_a_commit_opens_the_root_once_for_all_its_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch(_batch(1))
    in_commit: list[list[tuple[Any, ...]]] = []
    real_commit = _writer.Writer.commit

    def commit(self: _writer.Writer, *args: Any, **kwargs: Any) -> int:
        opens = _spy(monkeypatch, "open")
        in_commit.append(opens)
        try:
            return real_commit(self, *args, **kwargs)
        finally:
            monkeypatch.setattr(os, "open", _REAL_OPEN)

    monkeypatch.setattr(_writer.Writer, "commit", commit)
    store.batch(_batch(2))  # three folders and the staging folder
    (opens,) = in_commit
    assert len([args for args in opens if args[0] == str(tmp_path)]) == 1
    monkeypatch.undo()
    for namespace, key in ((ENTRIES, "k"), (HISTORY, "k@2"), (META, "v:k")):
        assert FileSystemStore(tmp_path).get(namespace, key).value == {"version": 2}  # type: ignore[union-attr]
    assert list((tmp_path / ".tmp").iterdir()) == []


def test_a_write_over_an_item_edited_by_hand_reads_the_edit(tmp_path: Path) -> None:
    """The cached parse is checked against the lstat the commit took: a hand edit is seen."""
    store = FileSystemStore(tmp_path)
    store.put(ENTRIES, "k", {"version": 1})
    path = _item(tmp_path, ENTRIES, "k")
    document = json.loads(path.read_bytes())
    document["created_at"] = "2020-01-02T03:04:05+00:00"
    path.write_text(json.dumps(document, indent=2))
    store.put(ENTRIES, "k", {"version": 2})
    item = store.get(ENTRIES, "k")
    assert item is not None and item.value == {"version": 2}
    assert item.created_at.isoformat() == "2020-01-02T03:04:05+00:00"


def test_an_unsynced_overwrite_is_read_back_by_this_and_a_new_store(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path)
    store.put(META, "clock", {"turn": 1000, "note": "a longer first value"})
    store.batch_unsynced([PutOp(META, "clock", {"turn": 1001})])
    path = _item(tmp_path, META, "clock")
    cached = store._view.records[str(path)]
    assert not isinstance(cached, Unreadable)
    assert cached[INO] == os.stat(path).st_ino  # written in place: the file's own inode
    assert store.get(META, "clock").value == {"turn": 1001}  # type: ignore[union-attr]
    assert FileSystemStore(tmp_path).get(META, "clock").value == {"turn": 1001}  # type: ignore[union-attr]


def test_an_unsynced_overwrite_of_a_file_replaced_meanwhile_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand edit that puts a new file there between the commit's lstat and its open."""
    store = FileSystemStore(tmp_path)
    store.put(META, "clock", {"turn": 1000, "note": "a longer first value"})
    path = _item(tmp_path, META, "clock")
    real = _fsio.SafeDir.overwrite

    def replaced_first(self: _fsio.SafeDir, name: str, *args: Any, **kwargs: Any) -> int:
        # A hand edit between the commit's lstat and its open: a new file at the same name.
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)
        return real(self, name, *args, **kwargs)

    monkeypatch.setattr(_fsio.SafeDir, "overwrite", replaced_first)
    store.batch_unsynced([PutOp(META, "clock", {"turn": 1001})])
    monkeypatch.undo()
    assert store.get(META, "clock").value == {"turn": 1001}  # type: ignore[union-attr]
    assert FileSystemStore(tmp_path).get(META, "clock").value == {"turn": 1001}  # type: ignore[union-attr]


# ---------------------------------------------------------------- the apply step


def test_a_checked_exchange_whose_old_file_went_meanwhile_renames(tmp_path: Path) -> None:
    if not _fsio._USE_FD:  # pragma: no cover - descriptor-relative calls (not Windows)
        pytest.skip("descriptor-relative folder calls only")
    staging, _ = _fsio.open_dir(str(tmp_path), ("stage",), create=True)
    folder, _ = _fsio.open_dir(str(tmp_path), ("items",), create=True)
    assert staging is not None and folder is not None
    with staging, folder:
        staging.write_new("new.tmp", b"new", None, sync=False)
        # The commit saw `item.json` as a regular file, so it asks for an exchange; it is
        # gone by the apply: the new file is renamed in instead.
        folder.move_in(staging, "new.tmp", "item.json", swap=True, checked=True)
        staging.write_new("newer.tmp", b"newer", None, sync=False)
        folder.move_in(staging, "newer.tmp", "item.json", swap=True, checked=True)
    assert (tmp_path / "items" / "item.json").read_bytes() == b"newer"
    assert list((tmp_path / "stage").iterdir()) == []  # the exchanged old file was deleted


# ---------------------------------------------------------------- reads


def test_a_batch_of_gets_in_one_folder_checks_the_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileSystemStore(tmp_path)
    store.batch([PutOp(ENTRIES, key, {"key": key}) for key in ("a", "b", "c")])
    folder = str(tmp_path.joinpath(*encode_namespace(ENTRIES)))
    lstats = _spy(monkeypatch, "lstat")
    found = store.batch([GetOp(ENTRIES, key) for key in ("a", "b", "missing", "c")])
    assert [args for args in lstats if args[0] == folder] == [(folder,)]
    keys = [item.key if isinstance(item, Item) else item for item in found]
    assert keys == ["a", "b", None, "c"]


def test_a_link_in_place_of_a_folder_is_refused_by_a_batch_of_gets(
    tmp_path: Path,
) -> None:
    store = FileSystemStore(tmp_path / "root")
    store.put(ENTRIES, "a", {"key": "a"})
    folder = (tmp_path / "root").joinpath(*encode_namespace(ENTRIES))
    outside = tmp_path / "outside"
    folder.rename(outside)
    folder.symlink_to(outside, target_is_directory=True)
    with pytest.raises(_fsio.UnsafePathError):
        store.batch([GetOp(ENTRIES, "a"), GetOp(ENTRIES, "b")])
