"""Semantic search for a `FileSystemStore`: what gets embedded, and how a query ranks items.

An `IndexConfig` names the fields to embed (`"$"`: the whole value). Each put embeds the
texts at those fields (or at the fields the put names, or none with `index=False`), and the
vectors are stored in the item's file. A query is embedded once and scored against every
folder's vectors in one product (`_vectors.VectorIndex`); an item edited since its folder's
vectors were built is scored on its own. Items without vectors rank after every scored one,
in the usual search order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    IndexConfig,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

from langchain_contextchef.store._filters import matches
from langchain_contextchef.store._listing import Listing
from langchain_contextchef.store._records import (
    PATH,
    SEEN,
    VECTORS,
    Record,
    is_expired,
    order_key,
    value_of,
)
from langchain_contextchef.store._vectors import VectorIndex
from langchain_contextchef.store._view import DiskView

__all__ = ["SemanticIndex", "Texts", "Vectors"]

Texts = list[tuple[str, str]]
"""The `(field path, text)` pairs of one value to embed."""

Vectors = dict[str, list[float]]
"""The vectors of one value, by field path."""


class SemanticIndex:
    """The embedder and indexed fields of one store.

    Args:
        config: The store's `IndexConfig` (`embed`, and optionally `fields`).
    """

    def __init__(self, config: IndexConfig) -> None:
        self.embeddings: Embeddings = ensure_embeddings(config.get("embed"))
        self._fields: list[tuple[str, str | list[str]]] = [
            (p, tokenize_path(p) if p != "$" else p) for p in (config.get("fields") or ["$"])
        ]

    def texts_for(self, value: dict[str, Any], index: Literal[False] | list[str] | None) -> Texts:
        """The texts of `value` to embed: at the configured fields, at `index`, or none."""
        if index is False:
            return []
        fields = self._fields if index is None else [(f, tokenize_path(f)) for f in index]
        texts: Texts = []
        for path, tokens in fields:
            found = get_text_at_path(value, tokens)
            if len(found) == 1:
                texts.append((path, found[0]))
            else:
                texts.extend((f"{path}.{i}", text) for i, text in enumerate(found))
        return texts

    def embed(self, batches: Sequence[Texts]) -> list[Vectors | None]:
        """Embed the texts of several values in one call; `None` for a value with none.

        Raises:
            ValueError: If the embedder returns a different number of vectors than texts.
        """
        all_texts = [text for texts in batches for _, text in texts]
        flat: list[list[float]] = []
        if all_texts:
            flat = self.embeddings.embed_documents(all_texts)
            if len(flat) != len(all_texts):
                msg = f"The embedder returned {len(flat)} vectors for {len(all_texts)} texts."
                raise ValueError(msg)
        vectors: list[Vectors | None] = []
        position = 0
        for texts in batches:
            if not texts:
                vectors.append(None)
                continue
            chunk = flat[position : position + len(texts)]
            position += len(texts)
            vectors.append({p: list(v) for (p, _), v in zip(texts, chunk, strict=True)})
        return vectors

    def rank(
        self, view: DiskView, listings: list[Listing], op: SearchOp, now: float
    ) -> list[tuple[Record, float | None]]:
        """The page of live items matching `op`'s filter, most similar to its query first."""
        assert op.query
        query = self.embeddings.embed_query(op.query)
        load = view.load
        hits: list[tuple[float, tuple[float, tuple[str, ...], str], Record]] = []
        for listing in listings:
            built = listing.entries is None
            entries = view.entries(listing)
            fresh = listing.built_ns if built else -1
            scores = view.vectors(listing).scores(query)  # one product per folder
            for cached, score in zip(entries, scores, strict=True):
                record = cached if cached[SEEN] == fresh else load(cached[PATH])
                if record is None or is_expired(record, now):
                    continue
                if record is not cached:  # edited since the folder's vectors were built
                    score = VectorIndex([record[VECTORS]]).scores(query)[0]
                if op.filter and not matches(value_of(record), op.filter):
                    continue
                # Scored items by similarity, then unscored ones, then the usual order.
                rank = -score if score is not None else math.inf
                hits.append((rank, order_key(record), record))
        hits.sort(key=lambda hit: (hit[0], hit[1]))
        return [
            (rec, -rank if rank != math.inf else None)
            for rank, _, rec in hits[op.offset :][: op.limit]
        ]
