"""Versions of one subject told by meaning: the entries' own vectors compared with each other.

`prefer_newer` (in `_relevance`) groups the best entries by subject; with the entries' stored
vectors (`SelectionContext.entry_vectors`) two of them that are each other's closest in
meaning are versions of one subject even when they share no word, and a newer version found
below the best entries can be brought in above the old one (`by_meaning`). A newer entry that
says that something changed (`states_change`) needs only to be closest to the old one, or
the old one closest to it: one direction, not both.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._herds import family as _family
from langchain_contextchef.selectors._selection import EntryVectors

__all__ = ["by_meaning", "observed", "states_change", "unit_vectors"]

EntryData = Callable[[MemoryEntry], dict[Any, Any]]


def observed(entry: MemoryEntry) -> tuple[Any, ...]:
    """When an entry's fact was observed: its provenance's time, else its last write."""
    seen = entry.provenance.observed_at if entry.provenance else None
    return (seen or entry.updated_at, entry.updated_at, entry.created_at)


_CHANGE = re.compile(
    r"\b(?:now|nowadays|these\s+days|no\s+longer|no\s+more|any\s*more|since|instead"
    r"|switch(?:ed|ing)?|mov(?:ed|ing)|relocated|chang(?:ed|ing)|swapped|replaced"
    r"|transferred|handed\s+over|took\s+over|cancell?ed|re-?booked|rescheduled|postponed"
    r"|dropped|gave\s+up|given\s+up|quit|stopped|started|finished|retired|sold|closed"
    r"|renewed|upgraded|increased|decreased|reduced|raised|lowered|updated|new|newly"
    r"|latest|as\s+of|back\s+to|went\s+(?:up|down)|left\s+(?:the|his|her|my|their)"
    r"|from\s+(?:next|now|(?:jan|febr)uary|march|april|may|june|july|august|september"
    r"|october|november|december))\b",
    re.IGNORECASE,
)
"""Words with which a newer version of a fact says that it changed ("moved to Lisbon in
May", "now on apixaban", "switched to Octopus", "no longer ..."), in English."""
_CHANGE_ELSEWHERE = re.compile(
    # German, Dutch
    r"\b(?:jetzt|inzwischen|mittlerweile|seit|nicht\s+mehr|keine?n?\s+\w+\s+mehr|stattdessen"
    r"|umgezogen|gewechselt|verkauft|aufgegeben|neue[mnrs]?|ab\s+sofort|niet\s+meer|sinds"
    r"|verhuisd|overgestapt|nieuwe?"
    # French
    r"|maintenant|désormais|dorénavant|depuis|déménagée?s?|ne\s+\w+\s+plus|n'\w+\s+plus"
    r"|nouvel(?:le)?|nouveaux?|changée?|remplacée?|au\s+lieu\s+d"
    # Spanish, Portuguese, Italian
    r"|ahora|ya\s+no|desde|mud(?:é|ó|amos|ado|ei|ou)|cambi(?:é|ó|ado)|nuev[oa]s?"
    r"|en\s+(?:vez|lugar)\s+de|dej(?:é|ó)\s+de|agora|já\s+não|em\s+vez\s+de|deix(?:ei|ou)\s+de"
    r"|adesso|non\s+più|trasferit[oaie]|cambiat[oaie]|nuov[oaie]|invece|da\s+quando)\b"
    # Chinese, Japanese, Korean (no word boundaries)
    r"|现在|不再|搬到|搬家|改成|换成|换了|已经不|今は|引っ越|変更|新しい|もう.{0,6}ない"
    r"|이제|지금은|이사|바꿨|새로운|더\s*이상",
    re.IGNORECASE,
)
"""The same in German, Dutch, French, Spanish, Portuguese, Italian, Chinese, Japanese and
Korean ("jetzt", "nicht mehr", "umgezogen"; "désormais", "ne ... plus"; "ahora", "ya no";
"agora"; "non più"; "现在", "不再", "搬到"; "今は", "引っ越"; "이제", "이사")."""
_SEPARATORS = re.compile(r"[_/.:\-]+")
_CHANGED = ("prefer_newer", "states a change")
"""Where an entry version's `states_change` answer is kept in its derived data."""


def states_change(entry: MemoryEntry, entry_data: EntryData | None = None) -> bool:
    """Whether an entry's text says that something changed: the mark of a newer version.

    A model that records an update as a new entry writes what changed ("moved to", "now",
    "switched", "no longer", "since", "instead", "new"); the old version states the fact
    plainly. Read in the key (`noor_moved`, `new_dentist`), the value and the description
    (English words, and the like in eight more languages: "umgezogen", "désormais", "ya no",
    "不再"), kept per entry version.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors._meaning import states_change

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        moved = MemoryEntry(key="home2", value="Moved to Lisbon in May", created_at=t, updated_at=t)
        home = MemoryEntry(key="home", value="Lives in Berlin", created_at=t, updated_at=t)
        assert states_change(moved) and not states_change(home)
        ```
    """
    held = entry_data(entry) if entry_data is not None else None
    found = held.get(_CHANGED) if held is not None else None
    if found is None:
        key = _SEPARATORS.sub(" ", entry.key)  # `noor_moved`, `new_dentist`
        text = f"{key}\n{entry.value}\n{entry.description or ''}"
        found = _CHANGE.search(text) is not None or _CHANGE_ELSEWHERE.search(text) is not None
        if held is not None:
            held[_CHANGED] = found
    return bool(found)


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError:
        return None


_MEANING_FLOOR = 0.5
"""The least cosine similarity at which an entry's closest entry is taken as its version."""
_CHANGE_FLOOR = _MEANING_FLOOR
"""The least cosine similarity at which an entry that says it changed updates its closest
(the change word stands in for the second direction of closeness, not for closeness)."""
_PULL_RANK = 20
"""Only the best this many entries bring their newer version in from below the window."""
_PULLS = 3
"""At most this many entries are brought in from below the window."""


def unit_vectors(
    entries: Sequence[MemoryEntry], vectors: EntryVectors, entry_data: EntryData | None
) -> list[Any]:
    """Each entry's vector scaled to length 1 (a NumPy array), `None` where there is none.

    Kept with each entry version (`entry_data`); asked of `vectors` for the others, in one
    call. Needs NumPy (every entry `None` without it).
    """
    np = _numpy()
    units: list[Any] = [None] * len(entries)
    if np is None:
        return units
    wanted: list[int] = []
    for i, entry in enumerate(entries):
        held = entry_data(entry) if entry_data is not None else None
        found = held.get(_UNIT) if held is not None else None
        if found is None:  # asked each time: the vectors given may differ between calls
            wanted.append(i)
        units[i] = found
    if wanted:
        for i, vector in zip(wanted, vectors([entries[i] for i in wanted]), strict=True):
            unit = np.asarray(vector, dtype=np.float32) if vector is not None else None
            if unit is not None and unit.ndim == 1 and unit.size:
                norm = float(np.linalg.norm(unit))
                unit = unit / norm if norm > 0 else None
            else:
                unit = None
            units[i] = unit
            if entry_data is not None and unit is not None:
                entry_data(entries[i])[_UNIT] = unit
    return units


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
    it is newer (index of the entry in `top`, the newer entry), at most `_PULLS`; and the
    one-way versions of `_one_way`. Unit vectors are kept with each entry version
    (`entry_data`).
    """
    np = _numpy()
    if np is None:
        return [], []
    pool = [*top, *extra]
    units = unit_vectors(pool, vectors, entry_data)
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
    _one_way(top, pool, usable, similar, closest, entry_data, pairs, pulled)
    return pairs, pulled


def _one_way(
    top: Sequence[MemoryEntry],
    pool: Sequence[MemoryEntry],
    usable: Any,
    similar: Any,
    closest: Any,
    entry_data: EntryData | None,
    pairs: list[tuple[int, int]],
    pulled: list[tuple[int, MemoryEntry]],
) -> None:
    """Add the versions told by a newer entry that says it changed (`states_change`).

    Such an entry needs no second witness: it and its closest entry in meaning, when that
    one is older and says no change itself (or an older entry and its closest, when that one
    is such an entry), are one subject's versions at a cosine of `_CHANGE_FLOOR`, closest
    both ways or not.
    """
    linked = set(pairs)
    pulling = {i for i, _ in pulled}
    taken = {e.key for _, e in pulled}
    ends = [(c, int(closest[c])) for c in range(len(pool)) if usable[c]]
    ends += [(int(closest[i]), i) for i in range(len(top)) if usable[i]]
    for new, old in ends:
        if new == old or similar[new, old] < _CHANGE_FLOOR:
            continue
        if observed(pool[new]) <= observed(pool[old]) or not states_change(pool[new], entry_data):
            continue
        if states_change(pool[old], entry_data):
            continue  # two changes (a new dentist, a new GP after a move): siblings, not versions
        if new < len(top) and old < len(top):
            pair = (min(new, old), max(new, old))
            if pair not in linked:
                pairs.append(pair)
                linked.add(pair)
        elif (
            new >= len(top)
            and old < min(_PULL_RANK, len(top))
            and old not in pulling
            and pool[new].key not in taken
            and len(pulled) < _PULLS
        ):
            pulled.append((old, pool[new]))
            pulling.add(old)
            taken.add(pool[new].key)


_UNIT = ("prefer_newer", "unit vector")
"""Where an entry version's unit vector is kept in its derived data."""

_HERD = 3
"""Entries of one key family (see `_family`) among the compared ones that make a herd."""
