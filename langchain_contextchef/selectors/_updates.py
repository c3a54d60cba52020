"""Newer versions that name what they replace: found through a rare word of the old entry.

An update written as a new entry often shares no word with the question that asks for the
fact, and may be far from it in meaning ("Melton's has closed; special occasions now at
Skosh" for "Where should I book our anniversary dinner?"), so neither the keyword ranking nor
the semantic search brings it near the old version it replaces. It does name what changed,
though: the old entry's distinctive word ("Melton's", "Beckfield Lane", "Norway"), one that
few entries of the scope hold. `named_updates` looks such words of the best entries up in
the scope's keyword index and brings in an entry that holds one when it is newer, says that
something changed (`states_change`), and has more words in common with that old entry than
with any other of the best ones; log entries (a herd, `_herds`) are neither side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._herds import family, herd_of
from langchain_contextchef.selectors._meaning import observed, states_change, unit_vectors
from langchain_contextchef.selectors._selection import EntryVectors

__all__ = [
    "Holders",
    "WordHolders",
    "closest_of",
    "named_updates",
    "update_candidates",
    "vector_keys_for",
]

EntryData = Callable[[MemoryEntry], dict[Any, Any]]
Words = tuple[frozenset[str], frozenset[str]]
"""An entry's subject words: of its whole text, of its key."""


class Holders(Protocol):
    """Which entries of a scope hold a word: the scope's keyword index, or `WordHolders`."""

    @property
    def entries(self) -> Mapping[str, MemoryEntry]:
        """The scope's entries by key."""
        ...

    def holders(self, term: str) -> Sequence[str]:
        """The keys of the entries holding `term`."""
        ...

    def __len__(self) -> int:
        """How many entries there are."""
        ...


class WordHolders:
    """`Holders` built from a list of entries and their words (no scope index at hand).

    Args:
        entries: The entries.
        words_of: Each entry's words (its keyword features' vocabulary).

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors._updates import WordHolders

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        home = MemoryEntry(key="home", value="Beckfield Lane", created_at=t, updated_at=t)
        held = WordHolders([home], lambda e: frozenset(e.value.lower().split()))
        assert list(held.holders("beckfield")) == ["home"] and len(held) == 1
        ```
    """

    def __init__(
        self, entries: Iterable[MemoryEntry], words_of: Callable[[MemoryEntry], Iterable[str]]
    ) -> None:
        self.entries: dict[str, MemoryEntry] = {}
        self._by_word: dict[str, list[str]] = {}
        for entry in entries:
            self.entries[entry.key] = entry
            for word in words_of(entry):
                self._by_word.setdefault(word, []).append(entry.key)

    def holders(self, term: str) -> Sequence[str]:
        """The keys of the entries holding `term`."""
        return self._by_word.get(term, ())

    def __len__(self) -> int:
        return len(self.entries)


_RANK = 20
"""Only the best this many entries look for a newer version that names them."""
_SHARED = 2
"""Rare words a newer entry shares with the one it updates, unless one is of the old one's key."""
_FEW = 3
_FEW_SHARE = 0.01
_FEW_CAP = 12
"""A word names one thing when at most 1% of the scope's entries hold it (at least 3, at most
12: a name is held by a handful of entries whatever the scope's size, and each holder is a
candidate to check)."""


def _rare_holders(scope: Holders) -> Callable[[str], Sequence[str]]:
    """The holders of a word that few entries of `scope` hold (none for a common word)."""
    few = min(max(_FEW, int(_FEW_SHARE * len(scope))), _FEW_CAP)

    def rare(word: str) -> Sequence[str]:
        found = scope.holders(word)
        return found if len(found) <= few else ()

    return rare


def update_candidates(
    best: Sequence[MemoryEntry],
    scope: Holders,
    subject_of: Callable[[MemoryEntry], Words],
    entry_data: EntryData | None,
    limit: int,
) -> list[str]:
    """The entries `named_updates` may bring in for `best`: whose vectors to read for it.

    The entries of no herd that hold a rare subject word of one of `best` that says no
    change itself, are newer than it and say that something changed, other than `best`'s own;
    at most `limit`, in the order `best` names them.

    Example:
        ```python
        from datetime import datetime, timedelta, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors._updates import WordHolders, update_candidates

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        old = MemoryEntry(key="dinner", value="Book Melton's", created_at=t, updated_at=t)
        later = t + timedelta(days=9)
        new = MemoryEntry(key="m2", value="Melton's closed", created_at=later, updated_at=later)
        scope = WordHolders([old, new], lambda e: frozenset(e.value.lower().split()))


        def words(e):
            return frozenset(e.value.lower().split()), frozenset()


        assert update_candidates([old], scope, words, None, 10) == ["m2"]
        ```
    """
    rare = _rare_holders(scope)
    held = scope.entries
    own = {e.key for e in best}
    herd = herd_of(best)
    herds = {h for h in herd if h is not None}
    found: dict[str, None] = {}
    for old, flock in zip(best, herd, strict=True):
        if flock is not None or states_change(old, entry_data):
            continue
        when = observed(old)
        for word in sorted(subject_of(old)[0]):
            for key in rare(word):
                entry = held.get(key)
                if entry is None or key in own or key in found or family(key) in herds:
                    continue
                if observed(entry) > when and states_change(entry, entry_data):
                    found[key] = None
                    if len(found) >= limit:
                        return list(found)
    return list(found)


def named_updates(
    top: Sequence[MemoryEntry],
    subjects: Sequence[Words],
    herd: Sequence[str | None],
    scope: Holders,
    subject_of: Callable[[MemoryEntry], Words],
    entry_data: EntryData | None,
    room: int,
    taken: frozenset[str] = frozenset(),
    busy: frozenset[int] = frozenset(),
    closest: Callable[[int, MemoryEntry], float | None] | None = None,
) -> list[tuple[int, MemoryEntry]]:
    """Newer versions of the best entries that name them, to bring in above them.

    For each of the best `_RANK` entries of `top` (not a herd's, not saying itself that it
    changed: a change among changes is a sibling, not an update), its candidates are the
    entries outside `top` and `taken`, of no herd of `top`, that hold one of its subject
    words that few entries of the scope hold (`_FEW`, `_FEW_SHARE`, `_FEW_CAP`), are newer
    (`observed`) and say that something changed (`states_change`). A candidate must share
    with it `_SHARED` such rare words, or one of its key's; and it must have no more subject
    words in common with another older entry that says no change, among those holding one of
    its own rare words (the fact it updates is the one it has most in common with). With
    `closest` (meaning), one such rare word is enough when the old entry is the candidate's
    version by meaning. Each entry takes the candidate that passes the words' test, then the
    closest in meaning, then the one with the most words in common (the newest on a tie); at
    most `room` in all.

    Args:
        top: The best entries, in order.
        subjects: Their subject words (`_relevance._subject_of`), in the same order.
        herd: Their herds (`_herds.herd_of`).
        scope: The entries of the scope and which of them hold a word.
        subject_of: The subject words of any entry of the scope.
        entry_data: Where `states_change` keeps its answer per entry version.
        room: How many entries may be brought in.
        taken: Keys brought in already (by meaning).
        busy: The positions in `top` that have an entry brought in above them already.
        closest: With the entries' own vectors: the cosine of `top[i]` and the entry given
            when `top[i]` is its version by meaning, else `None`. Then one rare word in
            common is enough, and of such candidates the closest in meaning is taken.

    Returns:
        `(i, entry)` pairs: bring `entry` in just above `top[i]`.
    """
    if room <= 0 or not top:
        return []
    herds = {h for h in herd if h is not None}
    skip = {e.key for e in top} | set(taken)
    rare = _rare_holders(scope)
    held = scope.entries

    matched: dict[str, int] = {}

    def best_match(entry: MemoryEntry, words: frozenset[str]) -> int:
        # The most subject words `entry` shares with an older entry that says no change,
        # among those holding one of its rare words.
        found = matched.get(entry.key)
        if found is None:
            found = 0
            for key in {k for word in words for k in rare(word)}:
                other = held.get(key)
                if other is None or key == entry.key or family(key) in herds:
                    continue
                if observed(other) >= observed(entry) or states_change(other, entry_data):
                    continue
                found = max(found, len(words & subject_of(other)[0]))
            matched[entry.key] = found
        return found

    found: list[tuple[int, MemoryEntry]] = []
    for i in range(min(_RANK, len(top))):
        old = top[i]
        if i in busy or herd[i] is not None or states_change(old, entry_data):
            continue
        best: tuple[tuple[bool, float, int, Any], MemoryEntry] | None = None
        text, key_words = subjects[i]
        for key in sorted({k for word in text for k in rare(word)}):
            entry = held.get(key)
            if entry is None or key in skip or family(key) in herds:
                continue
            if observed(entry) <= observed(old) or not states_change(entry, entry_data):
                continue
            words = subject_of(entry)[0]
            common = words & text
            named = {w for w in common if rare(w)}
            strong = len(named) >= _SHARED or not named.isdisjoint(key_words)
            near = closest(i, entry) if closest is not None else None
            if not strong and near is None:
                # One rare word in common, not the old key's: a name, not a subject, unless
                # their meanings say the same (the old entry is the newer one's closest).
                continue
            shared = len(common)
            if best_match(entry, words) > shared:
                continue  # it has more in common with another older entry of the scope
            rank = (strong, near or 0.0, shared, observed(entry))
            if best is None or rank > best[0]:
                best = (rank, entry)
        if best is not None:
            found.append((i, best[1]))
            skip.add(best[1].key)
            if len(found) >= room:
                break
    return found


def closest_of(
    top: Sequence[MemoryEntry], vectors: EntryVectors, entry_data: EntryData | None
) -> Callable[[int, MemoryEntry], float | None]:
    """Whether `top[i]` is a newer entry's version by meaning: their cosine, else `None`.

    It is when the two are each other's closest in meaning: `top[i]` of the best entries
    older than the entry that say no change themselves, and the entry of `top[i]`'s other
    best entries; at a cosine of `_NAMED_FLOOR` at least.
    """
    units: list[Any] | None = None
    nearest: dict[int, float] = {}  # each old entry's highest cosine with another best entry

    def closest(i: int, entry: MemoryEntry) -> float | None:
        nonlocal units
        if units is None:
            units = unit_vectors(top, vectors, entry_data)
        (unit,) = unit_vectors([entry], vectors, entry_data)
        old = units[i]
        if unit is None or old is None or old.size != unit.size:
            return None
        best = float(old @ unit)
        if best < _NAMED_FLOOR:
            return None
        if i not in nearest:
            nearest[i] = max(
                (float(old @ u) for j, u in enumerate(units) if j != i and u is not None),
                default=-1.0,
            )
        if nearest[i] > best:
            return None  # the old entry has a closer one among the best
        when = observed(entry)
        for j, other in enumerate(top):
            u = units[j]
            if j == i or u is None or u.size != unit.size or observed(other) >= when:
                continue
            if float(u @ unit) > best and not states_change(other, entry_data):
                return None
        return best

    return closest


_NAMED_FLOOR = 0.4
"""The least cosine similarity at which a newer entry naming an older one by a single rare
word is taken as its version (when the two are each other's closest in meaning)."""


_VECTOR_BEST = 20
"""How many of the semantic search's best hits have their newer versions' vectors read."""
_VECTOR_MORE = 60
"""At most this many vectors are read besides the hits' (`vector_keys_for`)."""


def vector_keys_for(
    hits: Mapping[str, float],
    scope: Holders,
    subject_of: Callable[[MemoryEntry], Words],
    entry_data: EntryData | None,
) -> list[str]:
    """The entries whose vectors `Relevant.vector_keys` asks for.

    The hits, then the `update_candidates` of the best `_VECTOR_BEST` of them (at most
    `_VECTOR_MORE`).
    """
    held = scope.entries
    ranked = sorted((k for k in hits if k in held), key=lambda k: (-hits[k], k))
    best = [held[k] for k in ranked[:_VECTOR_BEST]]
    return [*hits, *update_candidates(best, scope, subject_of, entry_data, _VECTOR_MORE)]
