"""Newer over older for an update that names what it replaces, and herds of log entries.

An update written as a new entry may share no word with the question ("Sold Marlow Terrace
and moved to Grassington" for "What address goes on the form?") and not be among the
semantic search's hits, yet it names the old entry by its rare words: it is brought in
above the old one. A herd of numbered log entries that match the question's words keeps its
first three places only, and its entries are not taken for a fact's newer versions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.selectors import Relevant, SelectionContext
from langchain_contextchef.selectors._herds import herd_of, spread_herds
from langchain_contextchef.selectors._text_features import FeatureCache
from langchain_contextchef.selectors._updates import WordHolders, named_updates
from tests.support.entries import T0, entry, keys

HOME = entry("home_address", "Lives at 14 Marlow Terrace, Kettlewell, BD23 5QT", age_days=900)
MOVED = entry(
    "moved_2025", "Sold Marlow Terrace and moved to a cottage in Grassington", age_days=200
)
FILLER = [
    entry("tea", "Likes strong tea with one sugar", age_days=500),
    entry("cat", "The cat is called Biscuit", age_days=400),
    entry("form_rules", "Forms for the club need a signature in blue ink", age_days=300),
    entry("kettlewell_fair", "The scarecrow fair at Kettlewell is in August", age_days=800),
]
QUESTION = "What address goes on the form?"


def _select(
    entries: Sequence[MemoryEntry],
    semantic: Mapping[str, float] | None,
    query: str = QUESTION,
    indexed: bool = True,
    vectors: Mapping[str, Sequence[float]] | None = None,
) -> list[str]:
    # Through the scope's keyword index (as a compile does), or from the entries alone; with
    # `vectors`, the entries' own vectors by key.
    slot = ScopeSlot()
    slot.reset(("test", 1), sorted(entries, key=lambda e: e.created_at), [])
    held = vectors

    def entry_vectors(asked: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        return [held.get(e.key) if held is not None else None for e in asked]

    context = SelectionContext(
        query=query,
        now=T0,
        token_budget=100_000,  # the unscored entries fill the rest: every entry is ranked
        relevance=dict(semantic) if semantic is not None else None,
        entry_data=slot.derived if indexed else None,
        scope=slot if indexed else None,
        entry_vectors=entry_vectors if vectors is not None else None,
    )
    chosen = keys(list(Relevant(cache=FeatureCache()).select(list(slot.ordered()), context)))
    # Every entry once: one brought in above another is not again in its own place.
    assert sorted(chosen) == sorted(e.key for e in entries)
    return chosen


@pytest.mark.parametrize("indexed", [True, False])
def test_an_update_that_names_the_old_entry_is_shown_ahead_of_it(indexed: bool) -> None:
    # "moved_2025" holds no word of the question and is not a semantic hit: found through
    # "Marlow" and "Terrace", which only the two entries hold.
    ranked = _select(
        [HOME, MOVED, *FILLER], {"home_address": 0.6, "form_rules": 0.4}, indexed=indexed
    )
    assert ranked.index("moved_2025") < ranked.index("home_address") < ranked.index("cat")


def test_without_semantic_scores_nothing_is_brought_in_by_name() -> None:
    # The keyword-only selection keeps its head across writes: it does not look names up.
    ranked = _select([HOME, MOVED, *FILLER], None)
    assert ranked.index("home_address") < ranked.index("moved_2025")


def test_one_rare_word_in_common_that_is_no_key_word_is_a_name_not_an_update() -> None:
    # "Kettlewell" is in the old entry's text only, not its key: a shop that closed there
    # is not the user's new address.
    closed = entry("bakery_closed", "The Kettlewell bakery has closed for good", age_days=100)
    ranked = _select([HOME, closed, *FILLER], {"home_address": 0.6, "form_rules": 0.4})
    assert ranked.index("home_address") < ranked.index("bakery_closed")


DINNER = entry("dinner_place", "Anniversary dinners are booked at Melton's", age_days=900)
CLOSED = entry("skosh_now", "Melton's has closed; special occasions at Skosh", age_days=100)
DINNER_QUESTION = "Where should I book our anniversary dinner?"


def _meaning(closest: str) -> dict[str, list[float]]:
    # The update's vector is closest to `closest`'s; every other entry points elsewhere.
    vectors = {e.key: [0.0, 0.0, 1.0, float(i)] for i, e in enumerate(FILLER)}
    vectors["dinner_place"] = [1.0, 0.1, 0.0, 0.0]
    vectors["form_rules"] = [0.1, 1.0, 0.0, 0.0]
    vectors["skosh_now"] = [1.0, 0.2, 0.0, 0.0] if closest == "dinner_place" else [0.2, 1.0, 0, 0]
    return vectors


def test_one_rare_word_is_enough_when_the_old_entry_is_the_update_s_closest_in_meaning() -> None:
    # "Melton's" is the one word the two share (not of the old key): words alone say a name,
    # the entries' vectors say the same subject.
    entries = [DINNER, CLOSED, *FILLER]
    semantic = {"dinner_place": 0.7, "form_rules": 0.3}
    ranked = _select(entries, semantic, DINNER_QUESTION, vectors=_meaning("dinner_place"))
    assert ranked.index("skosh_now") < ranked.index("dinner_place") < ranked.index("cat")
    plain = _select(entries, semantic, DINNER_QUESTION)  # without vectors
    assert plain.index("dinner_place") < plain.index("skosh_now")


def test_one_rare_word_is_not_enough_when_either_has_a_closer_one_among_the_best() -> None:
    # The update's vector is closest to the form rules (older, among the best entries).
    entries = [DINNER, CLOSED, *FILLER]
    semantic = {"dinner_place": 0.7, "form_rules": 0.3}
    ranked = _select(entries, semantic, DINNER_QUESTION, vectors=_meaning("form_rules"))
    assert ranked.index("dinner_place") < ranked.index("skosh_now")
    # Nor when the old entry has a closer one among the best than the update (the update
    # is closest to it, but not the other way round).
    vectors = _meaning("dinner_place")
    vectors["dinner_place"] = [1.0, 0.0, 0.0, 0.0]
    vectors["form_rules"] = [1.0, 0.0, 0.3, 0.0]
    vectors["skosh_now"] = [1.0, 0.5, 0.0, 0.0]
    both = {"dinner_place": 0.7, "form_rules": 0.5, "tea": 0.1}  # both among the best
    ranked = _select(entries, both, DINNER_QUESTION, vectors=vectors)
    assert ranked.index("dinner_place") < ranked.index("skosh_now")
    # And without the update's own vector there is nothing to compare: words decide.
    vectors = _meaning("dinner_place")
    del vectors["skosh_now"]
    ranked = _select(entries, semantic, DINNER_QUESTION, vectors=vectors)
    assert ranked.index("dinner_place") < ranked.index("skosh_now")


def test_the_vectors_a_compile_reads_include_the_updates_that_may_name_the_best_hits() -> None:
    slot = ScopeSlot()
    plain = entry("melton_menu", "Melton's menu changes weekly", age_days=950)
    stored = [DINNER, CLOSED, plain, *FILLER]
    slot.reset(("test", 1), sorted(stored, key=lambda e: e.created_at), [])
    context = SelectionContext(
        relevance={"dinner_place": 0.7, "tea": 0.2}, entry_data=slot.derived, scope=slot
    )
    asked = list(Relevant(cache=FeatureCache()).vector_keys(context))
    # The hits, then the newer entry that says it changed ("has closed") and holds a rare
    # word of one of them; not the older or plain one.
    assert asked == ["dinner_place", "tea", "skosh_now"]
    # Without the scope (no keyword index to look words up in): the hits.
    unscoped = SelectionContext(relevance={"dinner_place": 0.7})
    assert list(Relevant().vector_keys(unscoped)) == ["dinner_place"]


def test_one_rare_word_of_the_old_key_is_enough() -> None:
    rehearsal = entry("choir_rehearsal", "Rehearsals are at 7pm at St Anne's hall", age_days=600)
    moved = entry("thursdays", "The choir now meets on Thursdays", age_days=30)
    ranked = _select(
        [rehearsal, moved, *FILLER],
        {"choir_rehearsal": 0.7, "tea": 0.2},
        query="When do I sing this week?",
    )
    assert ranked.index("thursdays") < ranked.index("choir_rehearsal")


def test_an_older_or_plain_entry_that_names_the_old_one_is_not_brought_in() -> None:
    older = entry("moved_2019", "Sold Marlow Terrace and moved away", age_days=2000)
    plain = entry("terrace_paint", "Marlow Terrace doors are painted green", age_days=10)
    for other in (older, plain):
        ranked = _select([HOME, other, *FILLER], {"home_address": 0.6, "form_rules": 0.4})
        assert ranked.index("home_address") < ranked.index(other.key)


def test_an_old_entry_that_says_it_changed_takes_no_update_by_name() -> None:
    # Two changes (a new dentist, then a new GP at the same place) are siblings.
    dentist = entry("new_dentist", "Now at Marlow Terrace dental practice", age_days=300)
    gp = entry("gp_moved", "Switched GP to Marlow Terrace surgery", age_days=100)
    ranked = _select(
        [dentist, gp, *FILLER], {"new_dentist": 0.7, "tea": 0.2}, query="Who is my dentist?"
    )
    assert ranked.index("new_dentist") < ranked.index("gp_moved")


def test_an_update_goes_to_the_entry_it_has_most_in_common_with() -> None:
    # The update names "Marlow Terrace" (the home) but has more in common with the other
    # older entry, the allotment: it is not taken for the home's newer version.
    allotment = entry(
        "allotment", "Allotment plot 9 behind Marlow Terrace, grows leeks and beans", age_days=700
    )
    plot = entry(
        "plot_new",
        "Gave up plot 9 behind Marlow Terrace; now grows leeks and beans at Hebden",
        age_days=50,
    )
    ranked = _select([HOME, allotment, plot, *FILLER], {"home_address": 0.6, "form_rules": 0.4})
    assert ranked.index("home_address") < ranked.index("plot_new")
    # With both among the best, it is brought in above the allotment, not above the home.
    semantic = {"home_address": 0.6, "allotment": 0.5, "form_rules": 0.4}
    ranked = _select([HOME, allotment, plot, *FILLER], semantic)
    assert ranked.index("home_address") < ranked.index("plot_new") < ranked.index("allotment")


def test_named_updates_respects_its_room_and_the_entries_in_the_head() -> None:
    scope = WordHolders([HOME, MOVED, *FILLER], lambda e: e.value.lower().replace(",", "").split())

    def subject_of(e: MemoryEntry) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(e.value.lower().replace(",", "").split()), frozenset(e.key.split("_"))

    top = [HOME, FILLER[0]]
    args = ([subject_of(e) for e in top], [None, None], scope, subject_of, None)
    assert named_updates(top, *args, room=1) == [(0, MOVED)]
    assert named_updates(top, *args, room=0) == []
    assert named_updates(top, *args, room=1, busy=frozenset({0})) == []
    assert named_updates([HOME, MOVED], *args, room=1) == []  # already among the best


def _logs(count: int) -> list[MemoryEntry]:
    return [
        entry(
            f"walk/2025_0{i}_dales",
            f"Walk {i}: the group walked Kettlewell to Buckden",
            age_days=50 + i,
        )
        for i in range(1, count + 1)
    ]


def test_a_herd_keeps_its_first_three_places_and_the_fact_moves_up() -> None:
    logs = _logs(6)
    fact = entry("walking_group", "Member of the Wharfedale walking group", age_days=400)
    scores = {**{e.key: 1.0 - 0.01 * i for i, e in enumerate(logs)}, "walking_group": 0.6}
    spread, weighed = spread_herds([*logs, fact], scores)
    assert keys(spread[:4]) == [*keys(logs[:3]), "walking_group"]
    assert weighed["walking_group"] == 0.6 and weighed[logs[3].key] == pytest.approx(0.97 / 2)
    # Three of a family are no herd: nothing moves.
    assert keys(spread_herds([*logs[:3], fact], scores)[0]) == [*keys(logs[:3]), "walking_group"]


def test_the_selector_shows_the_fact_past_a_herd_that_matches_the_question() -> None:
    # Every log entry holds more of the question's words than the fact does.
    logs = _logs(8)
    fact = entry("walking_group", "The walking group meets at Grassington church", age_days=400)
    query = "Where does the walking group go, Kettlewell or Buckden?"
    ranked = _select([*logs, fact, *FILLER], None, query=query)
    assert ranked.index("walking_group") == 3


def test_a_herd_entry_is_not_taken_for_a_fact_s_newer_version() -> None:
    # A diary entry shares the fact's rare words and is newer, but it is an event of a log
    # (four diary entries among the best): the fact keeps its first place.
    bins = entry("bins", "Green wheelie bins go out on Tuesday night", age_days=700)
    diary = [
        entry("diary/2026_01_01", "Took the green wheelie bins out late on Tuesday", age_days=10),
        *(
            entry(f"diary/2026_0{i}_01", f"Night walk to the pub, number {i}", age_days=10 * i)
            for i in range(2, 5)
        ),
    ]
    assert herd_of([bins, *diary]) == [None, *["diary/"] * 4]
    query = "Which night do the green wheelie bins go out?"
    ranked = _select([bins, *diary, *FILLER], None, query=query)
    assert ranked[:2] == ["bins", "diary/2026_01_01"]
