"""Several facts per question: each facet of a question gets an entry within the budget."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import approximate_tokens, fit_memory
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.query import question_facets
from langchain_contextchef.render import render_memory_block
from langchain_contextchef.selectors import Relevant, SelectionContext
from langchain_contextchef.selectors._coverage import cover_facets, facet_relevance
from tests.support.embeddings import WordHashEmbeddings
from tests.support.entries import entry, keys

QUESTION = "When are Lena's swimming lessons, and who checks our teeth?"
SWIMMING = "When are Lena's swimming lessons"
TEETH = "who checks our teeth"

# Four entries about the swimming lessons (the facet most of the question's words point to),
# one about the teeth, which shares no word with the question, and one about neither.
ENTRIES = [
    entry("swim_lessons", "Lena's swimming lessons: Saturdays at 10:00", age_days=9),
    entry("swim_kit", "For swimming Lena needs goggles and a cap", age_days=8),
    entry("swim_pool", "Lessons are held at the Westbad pool", age_days=7),
    entry("swim_teacher", "Her swimming teacher is Ms Berg", age_days=6),
    entry("dentist", "Dr Okafor at the Smile Clinic sees the family", age_days=5),
    entry("tax", "The tax return is due in July", age_days=4),
]
# What a store's searches would return: the whole question is closest to the swimming
# entries; the teeth facet's own search finds the dentist.
WHOLE = {"swim_lessons": 0.62, "swim_kit": 0.6, "swim_pool": 0.59, "swim_teacher": 0.58}
WHOLE |= {"dentist": 0.35, "tax": 0.1}
FACETS = {
    SWIMMING: {"swim_lessons": 0.7, "swim_kit": 0.68, "swim_pool": 0.67, "swim_teacher": 0.66}
    | {"dentist": 0.05, "tax": 0.02},
    TEETH: {"dentist": 0.55, "swim_lessons": 0.1, "swim_kit": 0.12, "swim_pool": 0.09}
    | {"swim_teacher": 0.11, "tax": 0.03},
}


def _render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], unlisted: int) -> str:
    return render_memory_block(full, index=index, unlisted=unlisted)


def _two_fit() -> int:
    """A budget that fits any two of the entries (and the line counting the rest), no three."""
    rest = len(ENTRIES)
    budget = max(approximate_tokens(_render(two, [], rest - 2)) for two in combinations(ENTRIES, 2))
    smallest_three = min(
        approximate_tokens(_render(three, [], rest - 3)) for three in combinations(ENTRIES, 3)
    )
    assert smallest_three > budget
    return budget


def _shown(selector: Relevant, context: SelectionContext) -> list[str]:
    chosen = list(selector.select(list(ENTRIES), context))
    fitted = fit_memory(
        chosen,
        [],
        render=_render,
        budget=context.token_budget,
        count=approximate_tokens,
        index_mode=False,
    )
    return keys(fitted.full)


def test_the_question_has_two_facets() -> None:
    assert question_facets(QUESTION) == (SWIMMING, TEETH)


@pytest.mark.parametrize("semantic", [True, False], ids=["hybrid", "keyword"])
def test_a_question_with_two_facets_gets_an_entry_for_each_within_a_budget_for_two(
    semantic: bool,
) -> None:
    budget = _two_fit()
    context = SelectionContext(
        query=QUESTION,
        token_budget=budget,
        relevance=WHOLE if semantic else None,
        facet_relevance=FACETS if semantic else {},
    )
    shown = _shown(Relevant(), context)
    assert len(shown) == 2
    if semantic:
        # One entry per facet: a swimming entry, then the dentist.
        assert shown[0].startswith("swim_") and shown[1] == "dentist"
        # Ranked by the whole question alone, a second swimming entry takes the slot.
        alone = _shown(Relevant(cover=0), context)
        assert len(alone) == 2 and all(key.startswith("swim_") for key in alone)
    else:
        # No word of the dentist's entry is in the question: keywords cannot find it, and
        # coverage never brings in an entry that nothing in the question points to.
        assert "dentist" not in shown


def test_keyword_facets_each_get_an_entry() -> None:
    entries = [
        entry("swim_lessons", "Lena's swimming lessons are on Saturdays at 10:00", age_days=9),
        entry("swim_kit", "Lena's swimming lessons need goggles and a cap", age_days=8),
        entry("swim_pool", "Lena's swimming lessons moved to the Westbad pool", age_days=7),
        entry("dentist", "Our dentist is Dr Okafor", age_days=5),
    ]
    question = "When are Lena's swimming lessons on Saturdays, and who is the dentist?"
    per_facet = facet_relevance(entries, question_facets(question), None, 0.7, None)
    assert max(per_facet[0], key=per_facet[0].__getitem__).startswith("swim_")
    assert max(per_facet[1], key=per_facet[1].__getitem__) == "dentist"
    ranked = list(entries)
    scores = {"swim_lessons": 1.0, "swim_kit": 0.8, "swim_pool": 0.79, "dentist": 0.3}
    lookup = {e.key: e for e in entries}
    reordered = cover_facets(ranked, scores, per_facet, 0.5, lookup)
    assert keys(reordered)[:2] == ["swim_lessons", "dentist"]
    assert sorted(keys(reordered)) == sorted(keys(entries))  # nothing dropped
    assert keys(cover_facets(ranked, scores, per_facet, 0.0, lookup)) == keys(ranked)


def test_a_facets_best_entry_below_the_head_is_brought_up() -> None:
    # The dentist is ranked below every swimming entry, past the reordered head, yet it is
    # the teeth facet's best entry: it gets the second slot, and appears once.
    swims = [entry(f"swim_{i}", f"Lena's swimming lesson note {i}") for i in range(40)]
    dentist = entry("dentist", "Dr Okafor at the Smile Clinic")
    ranked = [*swims, dentist]
    scores = {e.key: 1.0 - i / 100 for i, e in enumerate(ranked)}
    facets = [{e.key: 1.0 - i / 100 for i, e in enumerate(swims)}, {"dentist": 0.4}]
    lookup = {e.key: e for e in ranked}
    reordered = cover_facets(ranked, scores, facets, 0.5, lookup)
    assert keys(reordered)[:2] == ["swim_0", "dentist"]
    assert len(keys(reordered)) == len(set(keys(reordered))) == len(ranked)
    # Not when its relevance to the whole question is at or below the selector's floor.
    held_back = cover_facets(ranked, scores, facets, 0.5, lookup, floor=0.7)
    assert keys(held_back)[1] == "swim_1" and keys(held_back)[-1] == "dentist"


def test_the_compile_searches_each_facet_and_hands_its_scores_to_the_selector() -> None:
    seen: list[SelectionContext] = []

    class Spy(Relevant):
        def select(self, entries: list[MemoryEntry], context: SelectionContext):  # type: ignore[no-untyped-def]
            seen.append(context)
            return super().select(entries, context)

    store = InMemoryStore(index={"dims": 256, "embed": WordHashEmbeddings(256)})
    chef = ContextChef(store=store, memory=MemoryConfig(selector=Spy(), token_budget=2_000))
    memory = chef.get_memory()
    for one in ENTRIES:
        memory.set(one.key, one.value)
    chef.compile([HumanMessage(QUESTION)])
    facets = seen[-1].facet_relevance
    assert list(facets) == [SWIMMING, TEETH]
    assert max(facets[SWIMMING], key=lambda k: facets[SWIMMING][k]).startswith("swim_")
    assert seen[-1].relevance is not None and set(seen[-1].relevance) == {e.key for e in ENTRIES}
    chef.compile([HumanMessage("When are the swimming lessons?")])
    assert seen[-1].facet_relevance == {}  # one thing asked: no facet searches
