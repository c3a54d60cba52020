"""Semantic search scoring: vectorised with numpy, the same without it, like InMemoryStore."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.store import FileSystemStore, _vectors
from tests.support.embeddings import WordHashEmbeddings
from tests.support.optional import require

WORDS = ["tea", "code", "sea", "python", "tips", "pot", "ocean", "garden", "rust", "music"]


def embed(texts: list[str]) -> list[list[float]]:
    """A deterministic toy embedding: letter counts."""
    return [[float(t.lower().count(c)) for c in "abcdeilmnoprstu"] for t in texts]


def index() -> Any:
    return {"dims": 15, "embed": embed, "fields": ["text", "title"]}


def fill(store: Any) -> None:
    rng = random.Random(3)
    for i in range(60):
        value: dict[str, Any] = {"text": " ".join(rng.choices(WORDS, k=4)), "n": i}
        if i % 3 == 0:
            value["title"] = rng.choice(WORDS)  # two vectors: the best one counts
        store.put(("docs", f"g{i % 4}"), f"d{i}", value, index=False if i % 11 == 0 else None)


def ranked(store: Any, query: str, **kwargs: Any) -> list[tuple[str, float | None]]:
    return [(i.key, i.score) for i in store.search(("docs",), query=query, limit=100, **kwargs)]


@pytest.mark.parametrize("with_numpy", [True, False])
def test_scores_match_in_memory_store_with_and_without_numpy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_numpy: bool
) -> None:
    if with_numpy:
        require("numpy", 'pip install "langchain-contextchef[vectors]"')
    else:
        monkeypatch.setattr(_vectors, "numpy_or_none", lambda: None)
    ours, reference = FileSystemStore(tmp_path / "s", index=index()), InMemoryStore(index=index())
    fill(ours)
    fill(reference)
    for query in ["python tips", "a pot of tea", "ocean garden", "music rust"]:
        got = dict(ranked(ours, query))
        want = dict(ranked(reference, query))
        assert got.keys() == want.keys()
        for key, score in want.items():
            if score is None:
                assert got[key] is None
            else:
                assert got[key] == pytest.approx(score, abs=1e-9)
        order = [k for k, _ in ranked(ours, query)]
        scored = [k for k in order if got[k] is not None]
        assert scored == sorted(scored, key=lambda k: -got[k])  # type: ignore[operator]
        assert all(got[k] is None for k in order[len(scored) :])  # unscored come last
    filtered = ranked(ours, "tea", filter={"n": {"$lt": 10}})
    assert {k for k, _ in filtered} == {f"d{i}" for i in range(10)}
    # A query that embeds to the zero vector scores 0.0 (InMemoryStore divides by zero).
    assert {s for _, s in ranked(ours, "zzz") if s is not None} == {0.0}


def test_an_edited_vector_is_rescored(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path / "s", index=index())
    store.put(("docs",), "a", {"text": "tea"})
    store.put(("docs",), "b", {"text": "python"})
    assert ranked(store, "python")[0][0] == "b"
    path = tmp_path / "s" / "docs" / "a.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["vectors"] = {"text": embed(["python"])[0]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    top = ranked(store, "python")
    assert {k for k, s in top if s == pytest.approx(1.0)} == {"a", "b"}


def test_vectors_of_mixed_lengths_fall_back_to_python(tmp_path: Path) -> None:
    scored = _vectors.VectorIndex(
        [(("f", (1.0, 0.0)),), None, (("f", (0.0, 1.0, 0.0)), ("g", (1.0, 0.0, 0.0)))]
    ).scores([1.0, 0.0])
    assert scored[0] == pytest.approx(1.0)
    assert scored[1] is None
    assert scored[2] == pytest.approx(1.0)


def test_a_put_without_indexing_keeps_the_vectors_like_langgraph_s_stores(tmp_path: Path) -> None:
    embed = WordHashEmbeddings()
    stores = [
        InMemoryStore(index={"dims": 256, "embed": embed}),
        FileSystemStore(tmp_path / "fs", index={"dims": 256, "embed": embed}),
    ]
    for store in stores:
        store.put(("m",), "cat", {"text": "a cat named Miso"})
        store.put(("m",), "cat", {"text": "a cat named Miso", "seen": 2}, index=False)
        (hit,) = store.search(("m",), query="cat Miso", limit=1)
        assert hit.key == "cat" and hit.score is not None and hit.score > 0
    scores = [store.search(("m",), query="cat Miso")[0].score for store in stores]
    assert scores[0] == pytest.approx(scores[1])


def test_numpy_floats_and_read_only_mappings_are_written_as_plain_json(tmp_path: Path) -> None:
    # Many embedding models return NumPy floats, and `check_value` accepts float subclasses
    # and mappings that are not dicts: the item file must hold them as plain JSON.
    np = require("numpy", 'pip install "langchain-contextchef[vectors]"')
    from types import MappingProxyType

    from langchain_core.embeddings import DeterministicFakeEmbedding

    embed = DeterministicFakeEmbedding(size=8)
    store = FileSystemStore(tmp_path / "indexed", index={"dims": 8, "embed": embed})
    store.put(("notes",), "a", {"score": np.float64(0.25), "text": "bonjour"})
    item = FileSystemStore(tmp_path / "indexed").get(("notes",), "a")
    assert item is not None
    assert item.value == {"score": 0.25, "text": "bonjour"}
    assert type(item.value["score"]) is float
    found = store.stored_vectors(("notes",), ["a"])
    (vector,) = found["a"].values()  # one vector: the whole value's text
    assert len(vector) == 8
    assert all(type(x) is float for x in vector)

    plain = FileSystemStore(tmp_path / "plain")
    plain.put(("notes",), "b", {"meta": MappingProxyType({"lang": "fr"})})
    again = FileSystemStore(tmp_path / "plain").get(("notes",), "b")
    assert again is not None
    assert again.value == {"meta": {"lang": "fr"}}
