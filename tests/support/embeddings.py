"""A deterministic embedding model for the semantic selectors and search tests."""

from __future__ import annotations

import hashlib
import math

from langchain_core.embeddings import Embeddings


class WordHashEmbeddings(Embeddings):
    """Deterministic bag-of-words embedding: each word adds 1 to a hashed dimension."""

    def __init__(self, dims: int = 256) -> None:
        self.dims = dims

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dims
        for word in text.lower().replace("?", " ").replace(".", " ").split():
            vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % self.dims] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)
