"""FileSystemStore specifics: encoding, files on disk, validation, TTL, semantic search, threads."""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import math
import os
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

import langchain_contextchef.store.filesystem as fs_module
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.store._paths import encode_component
from tests.support.clocks import FakeClock

HARD_KEYS = [
    "plain",
    "a/b",
    "a\\b",
    "..",
    ".",
    ".hidden",
    "with space",
    " edge ",
    "ünïcödé",
    "🧠 memory",
    "%2F%41",
    "~tilde~",
    "CON",
    "nul",
    "k" * 300,
    "é" * 300,
    "",
    "new\nline\ttab",
    "Key",
    "key",
    "KEY",
]
HARD_LABELS = ["a/b", "back\\slash", "with space", "ünï", "🧠", "%", "L" * 300, "Users", "users"]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (including hidden ones) with its bytes."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".locks" not in p.parts
    }


def item_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.json") if not p.name.startswith(".")]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """A standing clock in place of the store's wall clock (epoch seconds)."""
    fake = FakeClock(start=datetime.fromtimestamp(1_800_000_000, timezone.utc), tick=timedelta(0))
    monkeypatch.setattr(fs_module, "_now", fake.timestamp)
    return fake


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ".context"


@pytest.fixture
def store(root: Path) -> Iterator[FileSystemStore]:
    with FileSystemStore(root) as built:
        yield built


# ---------------------------------------------------------------- encoding & layout


@pytest.mark.parametrize("key", HARD_KEYS)
def test_hard_keys_round_trip(store: FileSystemStore, root: Path, key: str) -> None:
    store.put(("ns",), key, {"key": key})
    item = store.get(("ns",), key)
    assert item is not None
    assert item.key == key
    assert item.value == {"key": key}
    assert [i.key for i in store.search(("ns",))] == [key]
    [path] = item_files(root)
    assert len(path.name.encode()) <= 255
    assert path.parent == root / "ns"


def test_all_hard_keys_coexist_and_stay_distinct(store: FileSystemStore, root: Path) -> None:
    for i, key in enumerate(HARD_KEYS):
        store.put(("ns",), key, {"i": i})
    for i, key in enumerate(HARD_KEYS):
        assert store.get(("ns",), key).value == {"i": i}  # type: ignore[union-attr]
    names = [p.name for p in item_files(root)]
    assert len(names) == len(HARD_KEYS)
    # Distinct even on a case-insensitive file system (macOS, Windows).
    assert len({n.lower() for n in names}) == len(HARD_KEYS)


@pytest.mark.parametrize("label", HARD_LABELS)
def test_hard_namespace_labels_round_trip(store: FileSystemStore, root: Path, label: str) -> None:
    ns = ("top", label, "leaf")
    store.put(ns, "k", {"label": label})
    assert store.get(ns, "k").value == {"label": label}  # type: ignore[union-attr]
    assert store.list_namespaces(prefix=("top",)) == [ns]
    assert [tuple(i.namespace) for i in store.search(("top", label))] == [ns]
    [path] = item_files(root)
    assert all(len(part.encode()) <= 255 for part in path.relative_to(root).parts)


def test_labels_differing_in_case_do_not_collide(store: FileSystemStore, root: Path) -> None:
    for label in ["Users", "users", "USERS"]:
        store.put((label,), "k", {"label": label})
    assert sorted(store.list_namespaces()) == [("USERS",), ("Users",), ("users",)]
    folders = [p.name for p in root.iterdir() if not p.name.startswith(".")]
    assert len({f.lower() for f in folders}) == 3


def test_nothing_is_written_outside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "deep" / ".context"
    store = FileSystemStore(root)
    for key in HARD_KEYS:
        store.put(("x",), key, {"v": 1})
        store.put(("a/", "/", "\\", "~"), key, {"v": 2})
    outside = [p for p in tmp_path.rglob("*") if root not in p.parents and p != root]
    assert sorted(str(p.relative_to(tmp_path)) for p in outside) == ["deep"]


@settings(max_examples=300, deadline=None)
@given(hst.text(max_size=400))
def test_encoded_component_is_always_one_safe_name(text: str) -> None:
    name = encode_component(text)
    assert name and not name.startswith(".")
    assert not set(name) & set('/\\\x00:*?"<>|')
    assert name not in {".", ".."}
    assert len(name.encode("utf-8")) <= 200
    assert encode_component(text) == name  # deterministic
    other = text.swapcase()
    if other != text:
        assert encode_component(other).lower() != name.lower()


def test_file_is_readable_json_with_all_fields(store: FileSystemStore, root: Path) -> None:
    store.put(("users", "alice"), "prefs", {"theme": "dark", "emoji": "🧠"})
    [path] = item_files(root)
    text = path.read_text(encoding="utf-8")
    assert "🧠" in text  # ensure_ascii=False
    assert '\n  "namespace": [' in text  # indent 2
    doc = json.loads(text)
    assert doc["namespace"] == ["users", "alice"]
    assert doc["key"] == "prefs"
    assert doc["value"] == {"theme": "dark", "emoji": "🧠"}
    assert doc["created_at"].endswith("Z") and doc["updated_at"].endswith("Z")
    assert doc["ttl_minutes"] is None and doc["expires_at"] is None
    assert path == root / "users" / "alice" / "prefs.json"


def test_delete_prunes_empty_folders_and_namespace(store: FileSystemStore, root: Path) -> None:
    store.put(("a", "b"), "k", {"v": 1})
    store.put(("a",), "k", {"v": 1})
    store.delete(("a", "b"), "k")
    assert not (root / "a" / "b").exists()
    assert (root / "a" / "k.json").exists()
    assert store.list_namespaces() == [("a",)]
    store.put(("a", "b"), "k", {"v": 2})  # the pruned folder comes back
    assert store.get(("a", "b"), "k").value == {"v": 2}  # type: ignore[union-attr]


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("op", "error"),
    [
        (PutOp(("ns",), "bad\x00key", {"v": 1}), ValueError),
        (PutOp((), "k", {"v": 1}), InvalidNamespaceError),
        (SearchOp(("ns",), filter={"a b": 1}), ValueError),  # not a plain field path
        (PutOp(("a.b",), "k", {"v": 1}), InvalidNamespaceError),
        (PutOp(("",), "k", {"v": 1}), InvalidNamespaceError),
        (PutOp(("nul\x00",), "k", {"v": 1}), InvalidNamespaceError),
        (PutOp(("ok", 3), "k", {"v": 1}), InvalidNamespaceError),  # type: ignore[arg-type]
        (PutOp(("ns",), "k", ["not", "a", "dict"]), TypeError),  # type: ignore[arg-type]
        (PutOp(("ns",), "k", {"s": {1, 2}}), TypeError),
        (PutOp(("ns",), "k", {"b": b"bytes"}), TypeError),
        (PutOp(("ns",), "k", {1: "int key"}), TypeError),  # type: ignore[dict-item]
        (PutOp(("ns",), "k", {"x": math.nan}), ValueError),
        (PutOp(("ns",), "k", {"x": [math.inf]}), ValueError),
        (PutOp(("ns",), "k", {"x": "\ud800"}), ValueError),
        (SearchOp(("ns",), filter={"n": {"$regex": "x"}}), ValueError),
    ],
)
def test_invalid_input_raises_before_any_write(
    store: FileSystemStore, root: Path, op: Any, error: type[Exception]
) -> None:
    store.put(("ns",), "existing", {"v": 0})
    before = snapshot(root)
    with pytest.raises(error):
        # The valid write first: a batch is validated as a whole before anything is written.
        store.batch([PutOp(("ns",), "first", {"v": 1}), PutOp(("ns",), "existing", None), op])
    assert snapshot(root) == before


def test_error_messages_say_what_to_do(store: FileSystemStore) -> None:
    with pytest.raises(TypeError, match="Wrap it"):
        store.put(("ns",), "k", "text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"value\['s'\] is a set"):
        store.put(("ns",), "k", {"s": {1}})
    with pytest.raises(ValueError, match="NUL"):
        store.put(("ns",), "a\x00b", {"v": 1})


# ---------------------------------------------------------------- robustness on disk


def test_corrupt_file_is_logged_skipped_and_kept(
    store: FileSystemStore, root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store.put(("ns",), "good", {"v": 1})
    store.put(("ns",), "broken", {"v": 2})
    broken = root / "ns" / "broken.json"
    broken.write_text('{"namespace": ["ns"], "key": "broken", "value": {', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=fs_module.__name__):
        assert store.get(("ns",), "broken") is None
        assert [i.key for i in store.search(("ns",))] == ["good"]
        assert store.list_namespaces() == [("ns",)]
    assert any("broken.json" in r.getMessage() for r in caplog.records)
    assert broken.exists()  # a person's file is never deleted
    store.sweep_ttl()
    assert broken.exists()


@pytest.mark.parametrize(
    "content",
    [
        "[]",
        '{"namespace": ["ns"], "key": "x", "value": []}',
        '{"namespace": ["ns"], "key": "x", "value": {}, "created_at": "yesterday", "updated_at": 1}',
        # Valid document, but it names another item than its file name says.
        '{"namespace": ["elsewhere"], "key": "x", "value": {}, '
        '"created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}',
    ],
)
def test_invalid_documents_are_treated_as_absent(
    store: FileSystemStore, root: Path, content: str
) -> None:
    store.put(("ns",), "x", {"v": 1})
    (root / "ns" / "x.json").write_text(content, encoding="utf-8")
    assert store.get(("ns",), "x") is None
    assert store.search(("ns",)) == []


def test_leftover_temp_files_are_ignored(store: FileSystemStore, root: Path) -> None:
    store.put(("ns",), "k", {"v": 1})
    folder = root / "ns"
    (folder / ".k.json.deadbeef.tmp").write_text('{"namespace": ["ns"], "key": "k", "val')
    (folder / ".other.json.cafe.tmp").write_text("{}")
    assert store.get(("ns",), "k").value == {"v": 1}  # type: ignore[union-attr]
    assert [i.key for i in store.search(("ns",))] == ["k"]
    assert store.list_namespaces() == [("ns",)]
    store.put(("ns",), "k", {"v": 2})
    assert store.get(("ns",), "k").value == {"v": 2}  # type: ignore[union-attr]


def test_reads_see_in_place_edits_of_cached_files(store: FileSystemStore, root: Path) -> None:
    store.put(("ns",), "k", {"v": 1})
    path = root / "ns" / "k.json"
    old = 1_600_000_000
    os.utime(path, (old, old))  # an old file: its parse is cached and trusted afterwards
    assert store.get(("ns",), "k").value == {"v": 1}  # type: ignore[union-attr]
    assert store.get(("ns",), "k").value == {"v": 1}  # type: ignore[union-attr]
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["value"] = {"v": 2}
    with path.open("r+", encoding="utf-8") as handle:  # same inode, like an editor saving
        handle.write(json.dumps(doc, indent=2))
        handle.truncate()
    os.utime(path, (old + 10, old + 10))
    assert store.get(("ns",), "k").value == {"v": 2}  # type: ignore[union-attr]
    assert [i.value for i in store.search(("ns",))] == [{"v": 2}]


def test_second_store_on_same_root_sees_writes(root: Path) -> None:
    first, second = FileSystemStore(root), FileSystemStore(root)
    first.put(("ns",), "k", {"v": 1})
    assert second.get(("ns",), "k").value == {"v": 1}  # type: ignore[union-attr]
    second.put(("ns",), "k", {"v": 2})
    second.put(("ns",), "k2", {"v": 3})
    assert first.get(("ns",), "k").value == {"v": 2}  # type: ignore[union-attr]
    assert {i.key for i in first.search(("ns",))} == {"k", "k2"}
    second.delete(("ns",), "k")
    assert first.get(("ns",), "k") is None


def test_mutating_results_does_not_change_the_store(store: FileSystemStore) -> None:
    store.put(("ns",), "flat", {"v": 1})
    store.put(("ns",), "deep", {"v": {"list": [1]}})
    store.get(("ns",), "flat").value["v"] = 99  # type: ignore[union-attr]
    store.get(("ns",), "deep").value["v"]["list"].append(2)  # type: ignore[union-attr]
    for hit in store.search(("ns",)):
        hit.value.clear()
    assert store.get(("ns",), "flat").value == {"v": 1}  # type: ignore[union-attr]
    assert store.get(("ns",), "deep").value == {"v": {"list": [1]}}  # type: ignore[union-attr]


# ---------------------------------------------------------------- order, timestamps, filters


def test_search_order_newest_first_then_namespace_and_key(
    store: FileSystemStore, clock: FakeClock
) -> None:
    for key in ["b", "a", "c"]:
        store.put(("ns",), key, {"k": key})  # same instant: ties sort by key
    clock.advance(seconds=5)
    store.put(("ns",), "old", {"k": "old"})
    clock.advance(seconds=5)
    store.put(("ns",), "b", {"k": "b2"})  # an update moves the item to the front
    assert [i.key for i in store.search(("ns",))] == ["b", "old", "a", "c"]


def test_overwrite_keeps_created_at_and_advances_updated_at(
    store: FileSystemStore, clock: FakeClock
) -> None:
    store.put(("ns",), "k", {"v": 1})
    first = store.get(("ns",), "k")
    clock.advance(seconds=60)
    store.put(("ns",), "k", {"v": 2})
    second = store.get(("ns",), "k")
    assert first is not None and second is not None
    assert second.created_at == first.created_at
    assert (second.updated_at - first.updated_at).total_seconds() == pytest.approx(60)


def test_nested_and_dotted_filters(store: FileSystemStore) -> None:
    store.put(("ns",), "1", {"meta": {"src": "chat", "lang": "en"}, "tags": ["a", "b"]})
    store.put(("ns",), "2", {"meta": {"src": "file"}, "tags": ["a"]})
    store.put(("ns",), "3", {"name": "zeta", "flag": True})

    def keys(f: dict[str, Any]) -> set[str]:
        return {i.key for i in store.search(("ns",), filter=f)}

    assert keys({"meta": {"src": "chat"}}) == {"1"}
    assert keys({"meta.src": "file"}) == {"2"}
    assert keys({"meta.src": {"$ne": "chat"}}) == {"2", "3"}
    assert keys({"tags": ["a"]}) == {"2"}
    assert keys({"name": {"$gt": "alpha"}}) == {"3"}
    assert keys({"name": {"$gt": 3}}) == set()  # no str/number comparison, no crash
    assert keys({"flag": True}) == {"3"}
    assert keys({"missing": None}) == {"1", "2", "3"}


# ---------------------------------------------------------------- TTL


def test_ttl_expiry_hides_items_and_sweep_deletes_them(root: Path, clock: FakeClock) -> None:
    store = FileSystemStore(root, ttl={"refresh_on_read": False})
    store.put(("ns",), "short", {"v": 1}, ttl=1)
    store.put(("ns",), "forever", {"v": 2})
    doc = json.loads((root / "ns" / "short.json").read_text(encoding="utf-8"))
    assert doc["ttl_minutes"] == 1 and doc["expires_at"].endswith("Z")
    clock.advance(seconds=59)
    assert store.get(("ns",), "short") is not None
    clock.advance(seconds=2)
    assert store.get(("ns",), "short") is None
    assert [i.key for i in store.search(("ns",))] == ["forever"]
    assert (root / "ns" / "short.json").exists()
    assert store.sweep_ttl() == 1
    assert not (root / "ns" / "short.json").exists()
    assert store.sweep_ttl() == 0
    assert store.get(("ns",), "forever") is not None


def test_ttl_refresh_on_read(root: Path, clock: FakeClock) -> None:
    store = FileSystemStore(root, ttl={"default_ttl": 1, "refresh_on_read": True})
    store.put(("ns",), "a", {"v": 1})  # default_ttl applies
    store.put(("ns",), "b", {"v": 2})
    clock.advance(seconds=50)
    assert store.get(("ns",), "a") is not None  # refreshes a
    assert store.get(("ns",), "b", refresh_ttl=False) is not None  # b keeps its expiry
    clock.advance(seconds=50)
    assert store.get(("ns",), "b") is None
    assert [i.key for i in store.search(("ns",))] == ["a"]  # search refreshes a again
    clock.advance(seconds=50)
    assert store.get(("ns",), "a") is not None
    clock.advance(seconds=61)
    assert store.get(("ns",), "a") is None


def test_ttl_sweeper_thread_and_close(root: Path, clock: FakeClock) -> None:
    store = FileSystemStore(root, ttl={"sweep_interval_minutes": 1})
    assert store.stop_ttl_sweeper() is True  # nothing running yet
    store.put(("ns",), "k", {"v": 1}, ttl=1)
    clock.advance(seconds=120)
    future = store.start_ttl_sweeper(sweep_interval_minutes=0.0002)  # ~12 ms
    path = root / "ns" / "k.json"
    for _ in range(2000):
        if not path.exists():
            break
        fs_module.time.sleep(0.005)
    assert not path.exists()
    assert store.stop_ttl_sweeper(timeout=5) is True
    assert future.result(timeout=5) is None
    with FileSystemStore(root, ttl={"sweep_interval_minutes": 1}) as other:
        other.start_ttl_sweeper()
        sweeper = other._sweeper
        assert sweeper.running
    assert not sweeper.running  # closing the store stopped it


def test_sweeper_without_ttl_config_does_not_start(store: FileSystemStore) -> None:
    future = store.start_ttl_sweeper()
    assert future.done()
    assert not store._sweeper.running


# ---------------------------------------------------------------- semantic search


def letter_vector(text: str) -> list[float]:
    """A deterministic toy embedding: counts of a few letters."""
    lowered = text.lower()
    return [float(lowered.count(c)) for c in "aeiostnrlp"]


def fake_embed(texts: list[str]) -> list[list[float]]:
    return [letter_vector(t) for t in texts]


DOCS = {
    "py": {"text": "python programming tips", "topic": "code"},
    "ts": {"text": "typescript tips", "topic": "code"},
    "tea": {"text": "a pot of tea", "topic": "life"},
    "sea": {"text": "seas and oceans", "topic": "life"},
}


def test_semantic_search_ranks_like_in_memory_store(root: Path) -> None:
    index: Any = {"dims": 10, "embed": fake_embed, "fields": ["text"]}
    ours, reference = FileSystemStore(root, index=index), InMemoryStore(index=index)
    for key, value in DOCS.items():
        ours.put(("docs",), key, value)
        reference.put(("docs",), key, value)
    for query in ["python tips", "tea pot", "oceans"]:
        got = ours.search(("docs",), query=query, limit=4)
        want = reference.search(("docs",), query=query, limit=4)
        assert [i.key for i in got] == [i.key for i in want]
        for g, w in zip(got, want, strict=True):
            assert g.score == pytest.approx(w.score)
    filtered = ours.search(("docs",), query="tips", filter={"topic": "life"})
    assert {i.key for i in filtered} == {"tea", "sea"}
    # Vectors persist in the file: a new store on the same root ranks without re-embedding.
    reopened = FileSystemStore(root, index={"dims": 10, "embed": fake_embed, "fields": ["text"]})
    assert reopened.search(("docs",), query="oceans", limit=1)[0].key == "sea"


def test_unindexed_items_come_after_scored_ones(root: Path) -> None:
    store = FileSystemStore(root, index={"dims": 10, "embed": fake_embed})
    store.put(("docs",), "indexed", {"text": "python"})
    store.put(("docs",), "plain", {"text": "python"}, index=False)
    store.put(("docs",), "by_field", {"title": "tea", "body": "x"}, index=["title"])
    hits = store.search(("docs",), query="python", limit=10)
    assert [i.key for i in hits][-1] == "plain"
    assert hits[-1].score is None
    assert all(h.score is not None for h in hits[:-1])
    doc = json.loads((root / "docs" / "plain.json").read_text(encoding="utf-8"))
    assert "vectors" not in doc
    doc = json.loads((root / "docs" / "by_field.json").read_text(encoding="utf-8"))
    assert list(doc["vectors"]) == ["title"]


# ---------------------------------------------------------------- concurrency


def test_threads_writing_at_once(store: FileSystemStore, root: Path) -> None:
    def work(worker: int) -> None:
        for i in range(30):
            store.put(("t",), f"w{worker}-{i}", {"worker": worker, "i": i})
            store.put(("t",), f"shared-{i % 5}", {"worker": worker, "i": i})
            store.search(("t",), limit=5)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(work, range(8)))
    assert len(store.search(("t",), limit=1000)) == 8 * 30 + 5
    for path in item_files(root):
        json.loads(path.read_text(encoding="utf-8"))


def test_atomic_update_from_8_threads_loses_nothing(store: FileSystemStore) -> None:
    def bump(current: dict[str, Any] | None) -> dict[str, Any]:
        return {"n": (current or {"n": 0})["n"] + 1}

    def work(_: int) -> None:
        for _ in range(50):
            store.atomic_update(("clock",), "turn", bump)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(work, range(8)))
    assert store.get(("clock",), "turn").value == {"n": 400}  # type: ignore[union-attr]


def test_atomic_update_contract(store: FileSystemStore, root: Path, clock: FakeClock) -> None:
    seen: list[Any] = []

    def record(current: dict[str, Any] | None) -> dict[str, Any]:
        seen.append(current)
        return {"n": 1}

    assert store.atomic_update(("ns",), "k", record) == {"n": 1}
    assert seen == [None]
    before = snapshot(root)
    with pytest.raises(TypeError, match="must return a dict"):
        store.atomic_update(("ns",), "k", lambda cur: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(RuntimeError):
        store.atomic_update(("ns",), "k", lambda cur: (_ for _ in ()).throw(RuntimeError()))
    with pytest.raises(ValueError):
        store.atomic_update(("ns",), "k", lambda cur: {"x": math.nan})
    with pytest.raises(InvalidNamespaceError):
        store.atomic_update(("langgraph",), "k", record)
    assert snapshot(root) == before
    # An existing TTL is kept and restarted by the update.
    store.put(("ns",), "ttl", {"n": 0}, ttl=1)
    clock.advance(seconds=50)
    store.atomic_update(("ns",), "ttl", lambda cur: {"n": (cur or {})["n"] + 1})
    clock.advance(seconds=50)
    assert store.get(("ns",), "ttl").value == {"n": 1}  # type: ignore[union-attr]


async def test_async_bridges(store: FileSystemStore) -> None:
    await store.aput(("a",), "k", {"v": 1})
    assert (await store.aatomic_update(("a",), "k", lambda cur: {"v": cur["v"] + 1})) == {"v": 2}  # type: ignore[index]
    [result] = await store.abatch(iter([GetOp(("a",), "k")]))  # any iterable, even one-shot
    assert result is not None and result.value == {"v": 2}


class _Colour(enum.Enum):
    RED = 1


@dataclasses.dataclass
class _Point:
    x: int = 1


@pytest.mark.parametrize(
    "value",
    [
        {"at": datetime(2026, 1, 1)},  # orjson writes these natively; JSON readers do not
        {"p": _Point()},
        {"c": _Colour.RED},
        {"id": uuid.UUID(int=1)},
        {"deep": [{"x": [1, math.nan]}]},  # orjson writes null for NaN
        {"n": 2**64},
        {"n": -(2**63) - 1},
    ],
)
def test_values_json_does_not_keep_are_refused(store: FileSystemStore, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        store.put(("ns",), "k", value)
    assert store.get(("ns",), "k") is None
    # What JSON does keep, to the edges of 64-bit integers, tuples and subclasses included.
    kept = {"t": (1, "a"), "big": 2**64 - 1, "small": -(2**63), "f": 0.5, "s": "\u00e9"}
    store.put(("ns",), "k", kept)
    assert store.get(("ns",), "k").value == {**kept, "t": [1, "a"]}  # type: ignore[union-attr]
