"""Versions of one subject told by meaning: the entries' own vectors compared with each other.

`prefer_newer` (in `_relevance`) groups the best entries by subject; with the entries' stored
vectors (`SelectionContext.entry_vectors`) two of them that are each other's closest in
meaning are versions of one subject even when they share no word, and a newer version found
below the best entries can be brought in above the old one (`by_meaning`).
"""

from __future__ import annotations

import functools
import importlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._selection import EntryVectors

__all__ = ["by_meaning", "observed"]

EntryData = Callable[[MemoryEntry], dict[Any, Any]]


def observed(entry: MemoryEntry) -> tuple[Any, ...]:
    """When an entry's fact was observed: its provenance's time, else its last write."""
    seen = entry.provenance.observed_at if entry.provenance else None
    return (seen or entry.updated_at, entry.updated_at, entry.created_at)


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError:
        return None


_MEANING_FLOOR = 0.5
"""The least cosine similarity at which an entry's closest entry is taken as its version."""
_PULL_RANK = 20
"""Only the best this many entries bring their newer version in from below the window."""
_PULLS = 3
"""At most this many entries are brought in from below the window."""


def by_meaning(
    top: Sequence[MemoryEntry],
    extra: Sequence[MemoryEntry],
    vectors: EntryVectors,
    entry_data: EntryData | None,
) -> tuple[list[tuple[int, int]], list[tuple[int, MemoryEntry]]]:
    """Versions of one subject told by the entries' own embeddings.

    Two entries of `top` and `extra` are taken as versions of one subject when each is the
    other's closest in meaning among them and their cosine similarity reaches
    `_MEANING_FLOOR` (closest both ways: two versions of a fact are each other's nearest
    even when they share no word, while a herd of similar entries does not chain into one
    group; a floor: an entry alone on its subject has no version). Returns the pairs within
    `top` (indexes) and, for the best `_PULL_RANK` entries, their version from `extra` when
    it is newer (index of the entry in `top`, the newer entry), at most `_PULLS`. Unit
    vectors are kept with each entry version (`entry_data`).
    """
    np = _numpy()
    if np is None:
        return [], []
    pool = [*top, *extra]
    units: list[Any] = [None] * len(pool)
    wanted: list[int] = []
    for i, entry in enumerate(pool):
        held = entry_data(entry) if entry_data is not None else None
        found = held.get(_UNIT) if held is not None else None
        if found is None:  # asked each time: the vectors given may differ between calls
            wanted.append(i)
        units[i] = found
    if wanted:
        for i, vector in zip(wanted, vectors([pool[i] for i in wanted]), strict=True):
            unit = np.asarray(vector, dtype=np.float32) if vector is not None else None
            if unit is not None and unit.ndim == 1 and unit.size:
                norm = float(np.linalg.norm(unit))
                unit = unit / norm if norm > 0 else None
            else:
                unit = None
            units[i] = unit
            if entry_data is not None and unit is not None:
                entry_data(pool[i])[_UNIT] = unit
    dims = next((u.size for u in units if u is not None), 0)
    # A herd (log entries of one family: `birding/log_2024_...`) is many events, not the
    # versions of one fact: its members would be each other's and every entry's nearest.
    families = [_family(e.key) for e in pool]
    herds = {f for f, n in Counter(f for f in families if f).items() if n >= _HERD}
    usable = np.array(
        [u is not None and u.size == dims and families[i] not in herds for i, u in enumerate(units)]
    )
    if not dims or usable.sum() < 2:
        return [], []
    rows = np.zeros((len(pool), dims), dtype=np.float32)
    for i in np.flatnonzero(usable):
        rows[i] = units[i]
    similar = rows @ rows.T
    similar[:, ~usable] = -2.0
    np.fill_diagonal(similar, -2.0)
    closest = similar.argmax(axis=1)
    pairs: list[tuple[int, int]] = []
    pulled: list[tuple[int, MemoryEntry]] = []
    for i in range(len(top)):
        j = int(closest[i])
        if not usable[i] or int(closest[j]) != i or similar[i, j] < _MEANING_FLOOR:
            continue
        if j < len(top):
            if i < j:
                pairs.append((i, j))
            continue
        newer = pool[j]
        if i < _PULL_RANK and len(pulled) < _PULLS and observed(newer) > observed(top[i]):
            pulled.append((i, newer))
    return pairs, pulled


_UNIT = ("prefer_newer", "unit vector")
"""Where an entry version's unit vector is kept in its derived data."""

_HERD = 3
"""Entries of one key family (see `_family`) among the compared ones that make a herd."""


@functools.lru_cache(maxsize=65_536)
def _family(key: str) -> str | None:
    """A numbered key's family: what comes before its first digit (`None` without a digit)."""
    found = _BEFORE_DIGIT.match(key)
    return found.group(1).lower() if found else None


_BEFORE_DIGIT = re.compile(r"(\D*)\d")
