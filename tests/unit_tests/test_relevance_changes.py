"""Newer over older when the newer entry says that something changed.

An update written as a new entry says what changed ("moved to", "now", "switched", "no
longer"); such an entry and its closest older entry in meaning are taken as versions of one
subject even when the old one's closest is a third entry (one way, not mutual).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors import EntryVectors, Relevant, SelectionContext
from langchain_contextchef.selectors._meaning import states_change
from langchain_contextchef.selectors._text_features import FeatureCache
from tests.support.entries import T0, entry, keys

pytest.importorskip("numpy")  # the comparison of entry vectors is one NumPy product

OLD = entry("pharmacy", "Collects repeat prescriptions from Boots on Coney Street", age_days=700)
# The old entry's closest in meaning is a third entry, older still: not a mutual pair.
THIRD = entry("chemist_hours", "Boots on Coney Street opens at 9 on Saturdays", age_days=800)


def _vectors(table: Mapping[str, Sequence[float]]) -> EntryVectors:
    def vectors(entries: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        return [table.get(e.key) for e in entries]

    return vectors


def _table(new_key: str) -> dict[str, list[float]]:
    # pharmacy~chemist_hours 0.9; the new entry's closest is pharmacy (0.6), not mutual.
    return {
        "pharmacy": [1.0, 0.0, 0.0, 0.0],
        "chemist_hours": [0.9, 0.436, 0.0, 0.0],
        new_key: [0.6, -0.3, 0.742, 0.0],
        "tea": [0.0, 0.0, 0.0, 1.0],
    }


def _ranked(new: MemoryEntry) -> list[str]:
    entries = [THIRD, OLD, new, entry("tea", "Likes Yorkshire tea", age_days=5)]
    semantic = {"pharmacy": 0.7, "chemist_hours": 0.6, new.key: 0.4, "tea": 0.1}
    context = SelectionContext(
        query="Where do my repeat tablets come from?",
        now=T0,
        relevance=semantic,
        entry_vectors=_vectors(_table(new.key)),
    )
    return keys(Relevant(cache=FeatureCache()).select(entries, context))


def test_an_entry_that_says_it_changed_goes_ahead_of_the_older_entry_it_updates() -> None:
    # No word in common with the old entry: only meaning and the change word tie them.
    changed = entry("tablets_post", "Tablets now come by post from Pharmacy2U", age_days=200)
    ranked = _ranked(changed)
    assert ranked.index("tablets_post") < ranked.index("pharmacy")


def test_without_a_change_word_a_one_way_closest_entry_is_not_a_version() -> None:
    # The same vectors and times, but the newer entry states a plain fact: not moved.
    plain = entry("tablets_box", "Tablets are kept in the blue box", age_days=200)
    ranked = _ranked(plain)
    assert ranked.index("pharmacy") < ranked.index("tablets_box")


def test_an_older_entry_that_says_it_changed_is_not_moved_ahead() -> None:
    # The entry that says "switched" is the older one: the newer plain one keeps its place.
    older_change = entry("tablets_post", "Switched the tablets to the post", age_days=900)
    ranked = _ranked(older_change)
    assert ranked.index("pharmacy") < ranked.index("tablets_post")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Moved to Lisbon in May", True),
        ("Now on apixaban twice daily", True),
        ("Switched gas and electric to Octopus", True),
        ("No longer drinks coffee", True),
        ("Melton's has closed; special occasions at Skosh", True),
        ("From September only Monday pickups", True),
        ("Lives at 27 Beckfield Lane", False),
        ("Takes atorvastatin 20mg at night", False),
        ("Knows the news", False),  # "new" inside a word is no change
        # Beyond English: the same cues, and plain statements that are no change.
        ("Ist im Mai nach Leipzig umgezogen", True),
        ("Trinkt keinen Kaffee mehr", True),
        ("Wohnt in der Gartenstraße 4", False),
        ("Travaille désormais à Lyon", True),
        ("Ne boit plus de café", True),
        ("Habite rue des Lilas", False),
        ("Ahora vive en Valencia", True),
        ("Ya no juega al pádel", True),
        ("Vive en Madrid", False),
        ("Agora trabalha no Porto", True),
        ("Non più in ufficio il venerdì", True),
        ("现在住在上海", True),
        ("住在北京", False),
        ("今は大阪に住んでいる", True),
        ("이제 부산에 산다", True),
    ],
)
def test_states_change_reads_the_words_of_a_change(text: str, expected: bool) -> None:
    assert states_change(entry("k", text)) is expected


def test_states_change_reads_the_description_too_and_keeps_the_answer() -> None:
    described = entry("home2", "6 Westfield Close, Haxby", description="where the user lives now")
    held: dict[object, object] = {}
    assert states_change(described, lambda _: held)
    assert list(held.values()) == [True]  # kept with the entry version


def test_a_new_version_that_says_it_changed_pairs_even_past_a_closer_log_entry() -> None:
    # The old entry's closest is a log entry (two of a family: no herd), so the two versions
    # are not each other's closest; the new one says "now ... instead" and pairs one way.
    old = entry("hobby_birding", "Birdwatching at Wheldrake Ings most weekends", age_days=400)
    new = entry("patch_new", "Now goes to Askham Bog instead", age_days=10)
    logs = [
        entry(f"birding/log_2024_0{i}", f"Saw a curlew, outing {i}", age_days=60 + i)
        for i in (1, 2)
    ]
    table: dict[str, Sequence[float]] = {
        "hobby_birding": [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "patch_new": [0.75, 0.66, 0.0, 0.0, 0.0, 0.0],
        "birding/log_2024_01": [0.9, 0.0, 0.0, 0.436, 0.0, 0.0],
        "birding/log_2024_02": [0.9, 0.0, 0.0, 0.0, 0.436, 0.0],
        "tea": [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    }
    semantic = {"hobby_birding": 0.8, "patch_new": 0.4, "tea": 0.1}
    semantic.update({log.key: 0.6 for log in logs})
    context = SelectionContext(
        query="Where do I go birdwatching?",
        now=T0,
        relevance=semantic,
        entry_vectors=_vectors(table),
    )
    entries = [old, *logs, new, entry("tea", "Prefers green tea")]
    ranked = keys(Relevant(cache=FeatureCache()).select(entries, context))
    assert ranked.index("patch_new") < ranked.index("hobby_birding")
