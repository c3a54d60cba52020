"""The evaluation sets the relevance bench runs, in one shape.

* The first set (`dataset.py` and `filler.py`): the hand-written questions and 1,049 entries;
  an update question's stale version comes from `SUPERSEDED`. Its drift variant asks every
  question that is not already a follow-up after two unrelated user turns (the user messages
  of two direct questions about other subjects), as happens when a conversation changes
  topic.
* The second set (`benchmarks/relevance2/set.json`), written by another engineer without
  reading the selectors' code: HELD BACK, for reporting only (never read its rows or tune
  on it). Entries with `key`, `value`, `days_ago`, `type`, `description`; questions with
  `id`, `kind`, `turns`, `answers` and `stale` (the keys of outdated versions still stored).
* The third set (`benchmarks/relevance3/set.json`), the same format, written by a third
  engineer who saw no code: a development set (tuning on it is allowed).
* The fourth set (`benchmarks/relevance4/set.json`), the same format, written by a writer who
  saw no code, about a persona whose life changed a lot (many updates whose versions share
  few words and have different keys): measured once on the package before any change made
  with it (its unseen baseline), then a development set.

In the JSON sets `turns` are the user's messages only; the loader puts a short assistant
reply between two of them, so the compile sees the conversation as it happens (user and
assistant alternating) and its query reads the user turns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.relevance.dataset import CORE, QUESTIONS, SUPERSEDED, CoreEntry, Question
from benchmarks.relevance.filler import generate

__all__ = [
    "EvalQuestion",
    "EvalSet",
    "drifted",
    "first_set",
    "fourth_set",
    "second_set",
    "third_set",
]

_HERE = Path(__file__).resolve().parent.parent
SECOND_SET = _HERE / "relevance2" / "set.json"
THIRD_SET = _HERE / "relevance3" / "set.json"
FOURTH_SET = _HERE / "relevance4" / "set.json"
_REPLY = "OK."


@dataclass(frozen=True)
class EvalQuestion:
    """One question: its turns (user first, alternating), answer keys and stale keys."""

    kind: str
    turns: tuple[str, ...]
    answers: tuple[str, ...]
    stale: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalSet:
    """A named set: its entries and its questions."""

    name: str
    entries: tuple[CoreEntry, ...]
    questions: tuple[EvalQuestion, ...]


def _from_first(question: Question) -> EvalQuestion:
    stale: tuple[str, ...] = ()
    if question.kind == "update":
        stale = (SUPERSEDED[question.answers[0]],)
    return EvalQuestion(question.kind, question.turns, question.answers, stale)


def first_set(filler: int, questions: tuple[Question, ...] = QUESTIONS) -> EvalSet:
    """The first set with `filler` generated entries."""
    entries = (*CORE, *generate(filler))
    return EvalSet("first set", entries, tuple(_from_first(q) for q in questions))


def drifted(questions: tuple[EvalQuestion, ...]) -> tuple[EvalQuestion, ...]:
    """Each question that is not a follow-up, asked after two unrelated user turns."""
    openers = [q for q in questions if q.kind == "direct" and len(q.turns) == 1]
    out: list[EvalQuestion] = []
    for i, question in enumerate(questions):
        if question.kind == "followup" or len(openers) < 3:
            continue
        chosen: list[str] = []
        for step in range(len(openers)):
            other = openers[(7 * i + 3 + 5 * step) % len(openers)]
            if set(other.answers) & set(question.answers) or other.turns[0] in chosen:
                continue
            chosen.append(other.turns[0])
            if len(chosen) == 2:
                break
        turns = (chosen[0], "Noted.", chosen[1], "Got it.", *question.turns)
        out.append(EvalQuestion("drift", turns, question.answers, question.stale))
    return tuple(out)


def _keys(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def _alternate(user_turns: list[str]) -> tuple[str, ...]:
    """User turns with a short assistant reply between two of them."""
    out: list[str] = []
    for i, text in enumerate(user_turns):
        if i:
            out.append(_REPLY)
        out.append(text)
    return tuple(out)


def second_set(path: Path = SECOND_SET) -> EvalSet | None:
    """The held-back second set, or `None` when its file is absent."""
    return _json_set(path, "second set (held-back)")


def third_set(path: Path = THIRD_SET) -> EvalSet | None:
    """The third set (development), or `None` when its file is absent."""
    return _json_set(path, "third set (development)")


def fourth_set(path: Path = FOURTH_SET) -> EvalSet | None:
    """The fourth set (development since its first measurement), or `None` when absent."""
    return _json_set(path, "fourth set (development)")


def _json_set(path: Path, name: str) -> EvalSet | None:
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = tuple(
        CoreEntry(
            str(e["key"]),
            str(e["value"]),
            float(e["days_ago"]),
            str(e.get("type") or "fact"),
            e.get("description"),
            e.get("importance"),
        )
        for e in data["entries"]
    )
    questions = tuple(
        EvalQuestion(
            str(q["kind"]),
            _alternate([str(t) for t in q["turns"]]),
            _keys(q["answers"]),
            _keys(q.get("stale")),
        )
        for q in data["questions"]
    )
    return EvalSet(name, entries, questions)
