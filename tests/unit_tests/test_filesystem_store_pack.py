"""A big folder's pack (`store/_pack.py`): a new process reads it in one go, and sees the same.

A process's first search of a folder of at least `PACK_MIN` items writes the pack; a later
new store object (a fresh cache, as in a new process) takes each unchanged file from it after
one `lstat`. These tests check that the pack never changes an answer: edits made by hand,
the racy window of unstamped times, deletes, and damaged packs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from langgraph.store.base import PutOp

from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.store._fsio import trusted
from langchain_contextchef.store._pack import PACK_DIR, PACK_MIN, load_pack

NS = ("users", "alice")
COUNT = PACK_MIN + 20
OLD = 1_600_000_000  # a moment long past: an unstamped time this old is trusted


def fill(root: Path, count: int = COUNT) -> None:
    with FileSystemStore(root) as store:
        store.batch([PutOp(NS, f"k{i:04d}", {"n": i, "text": f"fact {i}"}) for i in range(count)])


def everything(root: Path) -> list[tuple[str, object, str, str]]:
    """A cold search of the whole folder by a new store object (a new process's view)."""
    with FileSystemStore(root) as store:
        return [
            (item.key, item.value, item.created_at.isoformat(), item.updated_at.isoformat())
            for item in store.search(NS, limit=COUNT * 2)
        ]


def packs(root: Path) -> list[Path]:
    folder = root / PACK_DIR
    return sorted(folder.glob("p-*.pack")) if folder.is_dir() else []


def folder(root: Path) -> Path:
    return root / "users" / "alice"


def test_a_cold_search_writes_the_pack_and_the_next_one_answers_the_same_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / ".context"
    fill(root)
    assert packs(root) == []  # writes alone make no pack
    first = everything(root)
    assert len(first) == COUNT and len(packs(root)) == 1
    pack = load_pack(str(root), str(folder(root)))
    assert pack is not None and pack.namespace == NS and len(pack.entries) == COUNT
    # The next cold search takes every file from the pack: no item file is opened.
    opened: list[str] = []
    real_open = os.open

    def counting(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith(".json"):
            opened.append(str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", counting)
    assert everything(root) == first
    assert opened == []


def test_a_file_edited_by_hand_after_the_pack_is_read_from_disk(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    everything(root)
    path = folder(root) / "k0007.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["value"] = {"n": 7, "text": "edited by hand, a longer text than before"}
    path.write_text(json.dumps(document), encoding="utf-8")  # in place: the folder's time stays
    values = {key: value for key, value, _, _ in everything(root)}
    assert values["k0007"] == {"n": 7, "text": "edited by hand, a longer text than before"}
    assert values["k0008"] == {"n": 8, "text": "fact 8"}
    # The pack was rewritten with the file as it is now.
    pack = load_pack(str(root), str(folder(root)))
    assert pack is not None and b"edited by hand" in pack.entries["k0007.json"][6]


def test_an_unstamped_file_packed_within_the_racy_window_is_read_again(tmp_path: Path) -> None:
    """A file written by hand and packed at once may change again without a new signature."""
    root = tmp_path / ".context"
    fill(root)
    path = folder(root) / "k0003.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["value"] = {"n": 3, "text": "first hand edit!"}
    path.write_text(json.dumps(document), encoding="utf-8")  # a fresh, unstamped time
    everything(root)  # packed now, within two seconds of that time
    before = os.stat(path)
    document["value"] = {"n": 3, "text": "again, same size"}
    path.write_text(json.dumps(document), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same time
    assert os.stat(path).st_size == before.st_size
    values = {key: value for key, value, _, _ in everything(root)}
    assert values["k0003"] == {"n": 3, "text": "again, same size"}


def test_an_old_unstamped_file_is_taken_from_the_pack(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    path = folder(root) / "k0003.json"
    os.utime(path, (OLD, OLD))  # say, a checkout: an old, unstamped time
    everything(root)
    pack = load_pack(str(root), str(folder(root)))
    assert pack is not None
    assert pack.record("k0003.json", os.stat(path), str(path), 0, trusted) is not None
    assert {k: v for k, v, _, _ in everything(root)}["k0003"] == {"n": 3, "text": "fact 3"}


def test_a_delete_through_the_store_removes_the_pack(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    with FileSystemStore(root) as store:
        store.put(NS, "secret", {"text": "the door code is 4711"})
    everything(root)
    assert any(b"4711" in p.read_bytes() for p in packs(root))
    with FileSystemStore(root) as store:
        store.delete(NS, "secret")
    assert not any(b"4711" in p.read_bytes() for p in packs(root))
    found = everything(root)
    assert len(found) == COUNT and "secret" not in {key for key, _, _, _ in found}
    assert not any(b"4711" in p.read_bytes() for p in packs(root))


def test_a_file_deleted_by_hand_is_gone_and_the_pack_rewritten(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    everything(root)
    (folder(root) / "k0005.json").unlink()
    found = everything(root)
    assert "k0005" not in {key for key, _, _, _ in found} and len(found) == COUNT - 1
    pack = load_pack(str(root), str(folder(root)))
    assert pack is not None and "k0005.json" not in pack.entries


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_damaged_pack_is_ignored(tmp_path: Path, damage: str) -> None:
    root = tmp_path / ".context"
    fill(root)
    first = everything(root)
    (pack,) = packs(root)
    data = bytearray(pack.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[len(data) // 2] ^= 0x55
    else:
        data = bytearray(b"not a pack at all")
    pack.write_bytes(bytes(data))
    assert load_pack(str(root), str(folder(root))) is None
    assert everything(root) == first


def test_a_pack_of_another_folder_is_not_used(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    everything(root)
    (pack,) = packs(root)
    other = root / "users" / "bob"
    other.mkdir()
    for path in folder(root).glob("*.json"):
        (other / path.name).write_bytes(path.read_bytes())  # the items of alice, copied
    name = load_pack(str(root), str(folder(root)))
    assert name is not None
    assert load_pack(str(root), str(other)) is None  # alice's pack is named for alice only
    os.replace(pack, root / PACK_DIR / ("p-" + "0" * 40 + ".pack"))
    assert len(everything(root)) == COUNT


def test_small_folders_get_no_pack(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root, PACK_MIN - 1)
    assert len(everything(root)) == PACK_MIN - 1
    assert packs(root) == []


def test_a_warm_process_relisting_a_changed_folder_leaves_the_pack_alone(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    with FileSystemStore(root) as store:
        assert len(store.search(NS, limit=COUNT * 2)) == COUNT  # cold: writes the pack
        (pack,) = packs(root)
        written = os.stat(pack)
        path = folder(root) / "k0001.json"
        (folder(root) / "extra.json").write_bytes(
            path.read_bytes().replace(b'"k0001"', b'"extra"')
        )  # by hand: the folder's listing changes, its other files stay cached
        assert len(store.search(NS, limit=COUNT * 2)) == COUNT + 1
        now = os.stat(pack)
        assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    # A new process still gets the new file (read from disk; the pack then rewritten).
    assert "extra" in {key for key, _, _, _ in everything(root)}


def test_recover_removes_a_killed_readers_temporary_pack(tmp_path: Path) -> None:
    root = tmp_path / ".context"
    fill(root)
    everything(root)
    (pack,) = packs(root)
    leftover = root / PACK_DIR / f".{pack.name}.0123456789ab.tmp"
    leftover.write_bytes(pack.read_bytes()[:100])  # a reader killed half way
    with FileSystemStore(root) as store:
        report = store.recover()
    assert report.removed_temp_files == 1
    assert not leftover.exists() and pack.exists()
