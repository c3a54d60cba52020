"""Herds of numbered log entries: one family of keys does not take every first slot.

A scope that keeps a log (`walk/2026_01_19_...`, `nymr/turn_2024_07_29`, `diary/2026_07_04`)
holds hundreds of entries of one family whose words are alike, and a question that shares a
word or two with them ("the over-60s walking group", "the big rail trip") can rank a dozen
of them above the one fact it asks for. The first few of a family keep their places (a
question about the log still sees its best entries); each further one of the same family in
the best entries has its score halved once more, so the other facts move up past it.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from langchain_contextchef.entry import MemoryEntry

__all__ = ["family", "herd_of", "spread_herds"]

_IN_PLACE = 3
"""How many entries of one family keep their places among the best entries."""
_DECAY = 0.5
"""The factor each further entry of that family takes on its score, once more per entry."""


@functools.lru_cache(maxsize=65_536)
def family(key: str) -> str | None:
    """A numbered key's family: what comes before its first digit (`None` without a digit).

    Example:
        ```python
        from langchain_contextchef.selectors._herds import family

        assert family("walk/2026_01_19_strensall") == "walk/"
        assert family("home/address") is None
        ```
    """
    found = _BEFORE_DIGIT.match(key)
    return found.group(1).lower() if found else None


_BEFORE_DIGIT = re.compile(r"(\D*)\d")


def spread_herds(
    head: Sequence[MemoryEntry], scores: Mapping[str, float]
) -> tuple[list[MemoryEntry], Mapping[str, float]]:
    """`head` (best first) with the members of a family past its first few moved down.

    The entries of one family (`family`) past its first `_IN_PLACE` have their score
    multiplied by `_DECAY` once for each of them up to and including the entry, and the head
    is ordered again by those scores (its order breaking ties: an entry outside a herd
    never moves down and a herd's first entries keep their places). Returns the head and the
    scores as weighed (the lowered ones over `scores`), for the steps that reorder the head
    after it (coverage), so that they do not bring the herd back up.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors._herds import spread_herds

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        logs = [
            MemoryEntry(key=f"walk/{i}", value="walk", created_at=t, updated_at=t) for i in range(5)
        ]
        fact = MemoryEntry(key="address", value="27 Beckfield Lane", created_at=t, updated_at=t)
        scores = {**{e.key: 1.0 for e in logs}, "address": 0.6}
        spread, weighed = spread_herds([*logs, fact], scores)
        assert [e.key for e in spread] == [
            "walk/0",
            "walk/1",
            "walk/2",
            "address",
            "walk/3",
            "walk/4",
        ]
        assert weighed["walk/4"] == 0.25 and weighed["address"] == 0.6
        ```
    """
    families = [family(e.key) for e in head]
    counts = Counter(f for f in families if f is not None)
    if not any(n > _IN_PLACE for n in counts.values()):
        return list(head), scores
    seen: Counter[str] = Counter()
    lowered: dict[str, float] = {}
    weighed: list[tuple[float, int]] = []
    for at, (entry, name) in enumerate(zip(head, families, strict=True)):
        score = scores.get(entry.key, 0.0)
        if name is not None and counts[name] > _IN_PLACE:
            seen[name] += 1
            past = seen[name] - _IN_PLACE
            if past > 0:
                score *= _DECAY**past
                lowered[entry.key] = score
        weighed.append((-score, at))
    weighed.sort()
    return [head[at] for _, at in weighed], _Weighed(lowered, scores)


HERD = 3
"""Entries of one family among the entries compared that make a herd."""


def herd_of(entries: Sequence[MemoryEntry]) -> list[str | None]:
    """Each entry's herd among `entries`: its family when `HERD` of them hold it, else `None`.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors._herds import herd_of

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        keys = ["diary/1", "diary/2", "diary/3", "trip_2027", "bins"]
        entries = [MemoryEntry(key=k, value="x", created_at=t, updated_at=t) for k in keys]
        assert herd_of(entries) == ["diary/", "diary/", "diary/", None, None]
        ```
    """
    families = [family(e.key) for e in entries]
    counts = Counter(f for f in families if f is not None)
    return [f if f is not None and counts[f] >= HERD else None for f in families]


class _Weighed(Mapping[str, float]):
    """`scores` with some of them lowered (`lowered` first)."""

    def __init__(self, lowered: dict[str, float], scores: Mapping[str, float]) -> None:
        self._lowered = lowered
        self._scores = scores

    def __getitem__(self, key: str) -> float:
        found = self._lowered.get(key)
        return self._scores[key] if found is None else found

    def __iter__(self) -> Iterator[str]:
        return iter(self._scores)

    def __len__(self) -> int:
        return len(self._scores)
