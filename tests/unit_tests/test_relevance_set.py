"""The relevance evaluation set keeps the shape its benchmark claims."""

from __future__ import annotations

from collections import Counter

from benchmarks.relevance.dataset import CORE, KINDS, QUESTIONS, SUPERSEDED
from benchmarks.relevance.filler import generate
from langchain_contextchef.selectors._text_features import terms


def _words(text: str) -> set[str]:
    return set(terms(text))


def test_at_least_a_thousand_entries_with_unique_keys() -> None:
    entries = [*CORE, *generate(920)]
    assert len(entries) >= 1_000
    assert len({e.key for e in entries}) == len(entries)
    assert generate(50) == generate(50)  # deterministic


def test_120_questions_24_of_each_kind_with_known_answers() -> None:
    assert len(QUESTIONS) == 120
    assert Counter(q.kind for q in QUESTIONS) == dict.fromkeys(KINDS, 24)
    known = {e.key for e in CORE}
    for question in QUESTIONS:
        assert question.answers and set(question.answers) <= known, question.text
    assert all(len(q.answers) >= 2 for q in QUESTIONS if q.kind == "multi")
    assert all(len(q.turns) >= 3 for q in QUESTIONS if q.kind == "followup")


def test_paraphrases_share_no_word_with_their_answer() -> None:
    by_key = {e.key: e for e in CORE}
    for question in QUESTIONS:
        if question.kind != "paraphrase":
            continue
        for key in question.answers:
            answer = by_key[key]
            text = f"{key.replace('_', ' ')} {answer.description or ''} {answer.value}"
            shared = _words(question.text) & _words(text)
            assert not shared, (question.text, key, shared)


def test_updated_facts_keep_an_older_stored_version() -> None:
    ages = {e.key: e.days_ago for e in CORE}
    answers = {q.answers[0] for q in QUESTIONS if q.kind == "update"}
    assert set(SUPERSEDED) == answers
    for new, old in SUPERSEDED.items():
        assert ages[old] > ages[new], (new, old)
