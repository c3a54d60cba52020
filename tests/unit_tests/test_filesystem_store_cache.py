"""What a FileSystemStore reader sees of changes it did not make: the cached-listing window.

The documented rules (module docstring of `langchain_contextchef.store.filesystem`):

* every item a read considers is revalidated with a stat, so an in-place edit of a file is
  seen at once, in values, filters and expiry;
* which items a folder holds (and their order) comes from the folder's cached listing while
  the folder's inode and modification time are unchanged: a file created, renamed or
  deleted by hand changes the folder's time and is seen by the next read;
* a folder time written by the store (marked) is trusted at once; any other folder time
  only once it is more than two seconds older than the listing (coarse file-system clocks).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.store._fsio import is_stamped

OLD = 1_600_000_000  # a moment long past: unstamped times this old are trusted


def document(namespace: list[str], key: str, value: dict[str, object], when: str) -> str:
    return json.dumps(
        {
            "namespace": namespace,
            "key": key,
            "value": value,
            "created_at": when,
            "updated_at": when,
            "ttl_minutes": None,
            "expires_at": None,
        }
    )


def mtime_ns(path: Path) -> int:
    return os.stat(path).st_mtime_ns


def set_mtime_ns(path: Path, value: int) -> None:
    os.utime(path, ns=(value, value))


def keys(store: FileSystemStore, namespace: tuple[str, ...], **kwargs: object) -> list[str]:
    return [item.key for item in store.search(namespace, limit=100, **kwargs)]  # type: ignore[arg-type]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ".context"


@pytest.fixture
def store(root: Path) -> Iterator[FileSystemStore]:
    with FileSystemStore(root) as built:
        built.put(("ns",), "a", {"kind": "note", "text": "first"})
        built.put(("ns",), "b", {"kind": "note", "text": "second"})
        yield built


def test_store_writes_stamp_their_folder_and_files(store: FileSystemStore, root: Path) -> None:
    assert is_stamped(mtime_ns(root / "ns"))
    assert is_stamped(mtime_ns(root / "ns" / "a.json"))
    before = mtime_ns(root / "ns")
    store.put(("ns",), "c", {"v": 1})
    assert mtime_ns(root / "ns") > before and is_stamped(mtime_ns(root / "ns"))


def test_an_in_place_edit_is_seen_at_once_in_values_filters_and_get(
    store: FileSystemStore, root: Path
) -> None:
    assert sorted(keys(store, ("ns",), filter={"kind": "rule"})) == []
    folder_time = mtime_ns(root / "ns")
    path = root / "ns" / "a.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["value"] = {"kind": "rule", "text": "edited"}
    with path.open("r+", encoding="utf-8") as handle:  # same inode, like an editor saving
        handle.write(json.dumps(doc, indent=2))
        handle.truncate()
    os.utime(path, ns=(OLD * 10**9, OLD * 10**9))  # even a file time set back is noticed
    assert mtime_ns(root / "ns") == folder_time  # the folder did not change
    assert store.get(("ns",), "a").value == {"kind": "rule", "text": "edited"}  # type: ignore[union-attr]
    assert keys(store, ("ns",), filter={"kind": "rule"}) == ["a"]
    hit = next(i for i in store.search(("ns",)) if i.key == "a")
    assert hit.value["text"] == "edited"


def test_a_file_created_by_hand_is_seen_once_the_folder_time_changes(
    store: FileSystemStore, root: Path
) -> None:
    assert sorted(keys(store, ("ns",))) == ["a", "b"]
    assert store.list_namespaces() == [("ns",)]
    folder = root / "ns"
    stamped = mtime_ns(folder)
    assert is_stamped(stamped)
    (folder / "c.json").write_text(
        document(["ns"], "c", {"kind": "note"}, "2026-01-01T00:00:00.000000Z")
    )
    # The window: a creation that left the folder's (store-written) time as it was is not
    # in the listing yet; `get` reads the file by its path and sees it already.
    set_mtime_ns(folder, stamped)
    assert sorted(keys(store, ("ns",))) == ["a", "b"]
    assert store.get(("ns",), "c") is not None
    # Any change of the folder's time ends the window.
    set_mtime_ns(folder, stamped + 1_000)
    assert sorted(keys(store, ("ns",))) == ["a", "b", "c"]


def test_an_unmarked_recent_folder_time_is_not_trusted(root: Path) -> None:
    folder = root / "hand"
    folder.mkdir(parents=True)
    when = "2026-01-01T00:00:00.000000Z"
    (folder / "a.json").write_text(document(["hand"], "a", {"v": 1}, when))
    store = FileSystemStore(root)
    recent = time.time_ns() - 10**8  # written by hand a tenth of a second ago, no mark
    set_mtime_ns(folder, recent)
    assert keys(store, ("hand",)) == ["a"]
    (folder / "b.json").write_text(document(["hand"], "b", {"v": 2}, when))
    set_mtime_ns(folder, recent)
    # Within two seconds of an unmarked time the listing is re-read: the file is seen.
    assert sorted(keys(store, ("hand",))) == ["a", "b"]
    # An unmarked time old enough is trusted like a store-written one.
    set_mtime_ns(folder, OLD * 10**9)
    assert sorted(keys(store, ("hand",))) == ["a", "b"]
    (folder / "c.json").write_text(document(["hand"], "c", {"v": 3}, when))
    set_mtime_ns(folder, OLD * 10**9)
    assert sorted(keys(store, ("hand",))) == ["a", "b"]
    set_mtime_ns(folder, OLD * 10**9 + 1)
    assert sorted(keys(store, ("hand",))) == ["a", "b", "c"]


def test_a_file_deleted_by_hand_disappears_at_once(store: FileSystemStore, root: Path) -> None:
    assert sorted(keys(store, ("ns",))) == ["a", "b"]
    (root / "ns" / "a.json").unlink()
    assert keys(store, ("ns",)) == ["b"]
    assert store.get(("ns",), "a") is None
    (root / "ns" / "b.json").unlink()
    assert keys(store, ("ns",)) == []
    assert store.list_namespaces() == []


def test_a_folder_replaced_by_hand_is_seen(store: FileSystemStore, root: Path) -> None:
    store.put(("t", "x", "mem"), "k", {"v": "before"})
    assert store.list_namespaces(prefix=("t",)) == [("t", "x", "mem")]
    assert [i.value for i in store.search(("t",))] == [{"v": "before"}]
    shutil.rmtree(root / "t" / "x")
    (root / "t" / "x" / "mem").mkdir(parents=True)
    (root / "t" / "x" / "mem" / "other.json").write_text(
        document(["t", "x", "mem"], "other", {"v": "after"}, "2026-01-01T00:00:00.000000Z")
    )
    assert [i.key for i in store.search(("t",))] == ["other"]
    assert store.get(("t", "x", "mem"), "k") is None
    assert store.list_namespaces(prefix=("t",)) == [("t", "x", "mem")]


def test_writes_of_other_processes_and_objects_are_seen(store: FileSystemStore, root: Path) -> None:
    assert sorted(keys(store, ("ns",))) == ["a", "b"]
    other = FileSystemStore(root)
    other.put(("ns",), "c", {"v": 3})
    other.delete(("ns",), "a")
    other.put(("elsewhere",), "k", {"v": 1})
    assert sorted(keys(store, ("ns",))) == ["b", "c"]
    assert store.list_namespaces() == [("elsewhere",), ("ns",)]


def test_own_writes_keep_the_listing_exact_without_rereading(
    store: FileSystemStore, root: Path
) -> None:
    assert sorted(keys(store, ("ns",))) == ["a", "b"]
    listing = store._view.listings[str(root / "ns")]
    store.put(("ns",), "c", {"v": 3})
    store.delete(("ns",), "a")
    patched = store._view.listings[str(root / "ns")]
    assert patched is not listing and patched.mtime_ns == mtime_ns(root / "ns")
    assert sorted(keys(store, ("ns",))) == ["b", "c"]
    assert keys(store, ("ns",))[0] == "c"  # newest first


def test_close_releases_the_kept_folder_descriptors(store: FileSystemStore) -> None:
    store.list_namespaces()
    store.list_namespaces()  # folders walked again and unchanged get a kept descriptor
    assert store._view._fds
    kept = {fd: os.fstat(fd).st_ino for fd in store._view._fds.values()}
    store.close()
    assert not store._view._fds
    for fd, inode in kept.items():
        try:
            now_open = os.fstat(fd)
        except OSError:
            continue  # closed, as it should be
        assert now_open.st_ino != inode  # the number was reused by something else
    assert sorted(keys(store, ("ns",))) == ["a", "b"]  # still usable afterwards


@pytest.mark.parametrize("search_filter", [None, {"kind": "note"}])
def test_a_cold_search_hands_out_values_no_later_read_shares(
    store: FileSystemStore, root: Path, search_filter: dict[str, object] | None
) -> None:
    """A fresh store object's first search hands out the values it parsed from the files.

    Each is the caller's own: changing it changes neither the store's cached copy nor what a
    later search or get (by the same object) returns.
    """
    for index in range(5):
        store.put(("ns",), f"k{index}", {"kind": "note", "deep": {"list": [index]}})
    with FileSystemStore(root) as fresh:
        first = fresh.search(("ns",), limit=100, filter=search_filter)
        assert len(first) == 7
        for hit in first:
            hit.value.setdefault("deep", {"list": []})["list"].append("changed")
            hit.value["kind"] = "changed"
        again = {hit.key: hit.value for hit in fresh.search(("ns",), limit=100)}
        assert again["k3"] == {"kind": "note", "deep": {"list": [3]}}
        assert again["a"] == {"kind": "note", "text": "first"}
        assert fresh.get(("ns",), "k0").value == {"kind": "note", "deep": {"list": [0]}}  # type: ignore[union-attr]
        assert len(fresh.search(("ns",), limit=100, filter={"kind": "note"})) == 7
