"""Cosine scores of a query against stored item vectors, vectorised when numpy is installed.

An item may hold several vectors (one per indexed field); its score is the best of them, as
in LangGraph's `InMemoryStore`. `VectorIndex` normalises a list of items' vectors once and
scores any number of queries against them: one matrix product with numpy (the optional
`langchain-contextchef[vectors]` extra), or a loop over pre-normalised vectors without it.
"""

from __future__ import annotations

import importlib
import math
import operator
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["VectorIndex", "numpy_or_none"]

_numpy: Any = None
_numpy_checked = False


def numpy_or_none() -> Any:
    """The numpy module, or `None` when it is not installed (checked once)."""
    global _numpy, _numpy_checked
    if not _numpy_checked:
        try:
            _numpy = importlib.import_module("numpy")
        except ImportError:
            _numpy = None
        _numpy_checked = True
    return _numpy


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(map(operator.mul, vector, vector)))
    return [x / norm for x in vector] if norm else [0.0] * len(vector)


class VectorIndex:
    """The vectors of a fixed list of items, ready to score queries.

    Args:
        vector_sets: One entry per item: its `(field, vector)` pairs, or `None`/empty when
            the item was not embedded (its score is then `None`).
    """

    __slots__ = ("_count", "_matrix", "_owners", "_python", "_starts")

    def __init__(self, vector_sets: Sequence[Iterable[tuple[str, Sequence[float]]] | None]) -> None:
        self._count = len(vector_sets)
        rows: list[Sequence[float]] = []
        owners: list[int] = []
        for i, vectors in enumerate(vector_sets):
            for _, vector in vectors or ():
                rows.append(vector)
                owners.append(i)
        self._owners = owners
        self._matrix: Any = None
        self._starts: Any = None
        self._python: list[list[float]] | None = None
        np = numpy_or_none()
        dims = {len(row) for row in rows}
        if np is not None and len(dims) == 1:
            matrix = np.asarray(rows, dtype=np.float64)
            norms = np.linalg.norm(matrix, axis=1)
            norms[norms == 0] = 1.0
            self._matrix = matrix / norms[:, None]
            self._starts = np.flatnonzero(np.r_[True, np.diff(owners) != 0]) if owners else None
        else:
            # Pure Python (no numpy, or vectors of mixed lengths written by hand).
            self._python = [_unit(row) for row in rows]

    def scores(self, query: Sequence[float]) -> list[float | None]:
        """Cosine similarity of `query` to each item (its best vector); `None` if unembedded."""
        out: list[float | None] = [None] * self._count
        if not self._owners:
            return out
        if self._python is None and len(query) != self._matrix.shape[1]:
            # A query of another length than the stored vectors (the embedder changed):
            # score like the pure-Python path, over the common prefix.
            self._python = [_unit(row) for row in self._matrix.tolist()]
        if self._python is None:
            np = numpy_or_none()
            q = np.asarray(query, dtype=np.float64)
            norm = float(np.linalg.norm(q))
            sims = self._matrix @ (q / norm) if norm else np.zeros(len(self._owners))
            best = np.maximum.reduceat(sims, self._starts)
            owners = np.asarray(self._owners)[self._starts]
            for owner, score in zip(owners.tolist(), best.tolist(), strict=True):
                out[owner] = score
            return out
        q_unit = _unit(query)
        for owner, row in zip(self._owners, self._python, strict=True):
            score = sum(map(operator.mul, q_unit, row))
            current = out[owner]
            if current is None or score > current:
                out[owner] = score
        return out
