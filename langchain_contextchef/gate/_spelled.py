"""Secrets spelled in words after a credential or code label.

"The door code is seven four one nine", "Passwort: vier fünf zwei acht", "PIN alpha bravo
seven niner".

The words are data (`gate/_data/spelled_numbers.json`): digits in several languages, other
number words, the NATO/ICAO spelling alphabet, and the labels of codes and cards. A label is
any password, PIN or credential word of the lexicons and of `_credentials`, or a code label of
the data file. After a label, within the same clause and at most five other words on, a run
of spelled tokens (digit and number words, spelling-alphabet words, single letters and
digits, joined by spaces, commas or dashes) is a secret when it holds at least four tokens,
three of them words. After a card label, the run must spell 12 to 19 digits that pass the
Luhn check. Numbers in prose with no label ("I have two kids and three cats") never count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Set
from importlib.resources import files
from typing import Any

from langchain_contextchef.gate._credentials import CREDENTIAL_LABELS
from langchain_contextchef.gate._hit import Hit
from langchain_contextchef.gate._lexicon import LEXICONS
from langchain_contextchef.gate._multilingual import label_matcher
from langchain_contextchef.gate._normalize import fold_word
from langchain_contextchef.gate._numbers import luhn_valid

__all__ = ["SPELLED_ANCHORS", "spelled_hits"]

_DATA: Any = json.loads(
    (files("langchain_contextchef.gate") / "_data" / "spelled_numbers.json").read_text(
        encoding="utf-8"
    )
)


def _fold(word: str) -> str:
    return fold_word(word).replace("-", "")


_DIGIT_OF: dict[str, int] = {
    _fold(word): digit
    for words in _DATA["digits"].values()
    for digit, spellings in enumerate(words)
    for word in spellings
}
_NUMBER_WORDS = frozenset(_fold(w) for words in _DATA["numbers"].values() for w in words)
_LETTERS = frozenset(_fold(w) for w in _DATA["letters"])
_MODIFIERS = frozenset(_fold(w) for w in _DATA["modifiers"])
_STRONG = frozenset(_DIGIT_OF) | _NUMBER_WORDS | _LETTERS


def _pairs(section: dict[str, list[str]]) -> list[tuple[bool, str]]:
    return [(True, label.replace(" ", "_")) for labels in section.values() for label in labels]


def _lexicon_labels() -> list[tuple[bool, str]]:
    return [
        (lex.spaced, word)
        for lex in LEXICONS
        for word in (*lex.password_words, *lex.password_short)
    ]


_ALL_SECRET_LABELS = [*_lexicon_labels(), *CREDENTIAL_LABELS.secret, *_pairs(_DATA["code_labels"])]
# Labels of scripts written without spaces are matched at every position, which costs a pass
# over the view: they get a matcher of their own, run only when one of its anchors is there.
_SECRET_LABELS = label_matcher([pair for pair in _ALL_SECRET_LABELS if pair[0]])
_SECRET_LABELS_INSIDE = label_matcher([pair for pair in _ALL_SECRET_LABELS if not pair[0]])
_CARD_LABELS = label_matcher(_pairs(_DATA["card_labels"]))

SPELLED_ANCHORS: frozenset[str] = (
    _SECRET_LABELS.anchors | _SECRET_LABELS_INSIDE.anchors | _CARD_LABELS.anchors
)
"""Words a view must hold for a label to match (for the prefilter)."""

# Tokens: words (a hyphen inside one, as in "x-ray", is kept) and single digits.
_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|\d")
_JOIN = re.compile(r"[\s,\-–—/]*")
_CLAUSE_END = re.compile(r"[.!?;。！？；\n]")
_REACH = 120
_SKIP = 5
_MIN_TOKENS = 4
_MIN_WORDS = 3
_CARD_DIGITS = (12, 19)


def _kind(token: str) -> str:
    """`strong` (a spelled digit, number or letter), `weak` (a letter or digit), `mod`, ``."""
    folded = token.replace("-", "")
    if folded in _STRONG:
        return "strong"
    if len(token) == 1:
        return "weak"
    return "mod" if folded in _MODIFIERS else ""


# Any spelled word (digit, number or spelling-alphabet word), as one search: most labels are
# followed by no such word, and then the tokens are never looked at one by one.
_ANY_STRONG = re.compile(
    r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(_STRONG, key=len, reverse=True))) + r")(?!\w)"
)


def _runs(view: str, start: int) -> list[tuple[int, int, list[str]]]:
    """Runs of spelled tokens in the clause after `start`, with at most `_SKIP` words before."""
    stop = _CLAUSE_END.search(view, start, start + _REACH)
    end = stop.start() if stop else min(len(view), start + _REACH)
    if _ANY_STRONG.search(view, start, end) is None:
        return []
    runs: list[tuple[int, int, list[str]]] = []
    current: list[re.Match[str]] = []
    skipped = 0

    def close() -> None:
        if current:
            runs.append((current[0].start(), current[-1].end(), [m.group(0) for m in current]))

    for token in _TOKEN.finditer(view, start, end):
        kind = _kind(token.group(0))
        joined = bool(current) and _JOIN.fullmatch(view, current[-1].end(), token.start())
        if kind and (not current or joined):
            current.append(token)
            continue
        close()
        skipped += len(current) + (0 if kind else 1)
        current = [token] if kind else []
        if skipped > _SKIP:
            current = []
            break
    close()
    return runs


def _digits(tokens: list[str]) -> str | None:
    digits = []
    for token in tokens:
        folded = token.replace("-", "")
        if token.isdigit():
            digits.append(token)
        elif folded in _DIGIT_OF:
            digits.append(str(_DIGIT_OF[folded]))
        else:
            return None
    return "".join(digits)


def _secret_run(tokens: list[str]) -> bool:
    kinds = [_kind(t) for t in tokens]
    counted = [k for k in kinds if k in ("strong", "weak")]
    return len(counted) >= _MIN_TOKENS and kinds.count("strong") >= _MIN_WORDS


def _card_run(tokens: list[str]) -> bool:
    digits = _digits(tokens)
    low, high = _CARD_DIGITS
    return digits is not None and low <= len(digits) <= high and luhn_valid(digits)


def spelled_hits(view: str, present: Set[str] | None = None) -> list[Hit]:
    """Secrets spelled in words after a credential, code or card label.

    Args:
        view: A lowered folded view.
        present: The trigger words in `view`; with no label anchor among them there is
            nothing to look for. `None` looks anyway.

    Returns:
        Hits on the spelled run, in `view` offsets.

    Example:
        ```python
        from langchain_contextchef.gate._spelled import spelled_hits

        view = "the door code is seven four one nine"
        [hit] = spelled_hits(view)
        assert view[hit.start : hit.end] == "seven four one nine"
        assert spelled_hits("i have two kids and three cats") == []
        ```
    """
    hits: list[Hit] = []
    for labels, judge, label in (
        (_SECRET_LABELS, _secret_run, "password"),
        (_SECRET_LABELS_INSIDE, _secret_run, "password"),
        (_CARD_LABELS, _card_run, "card"),
    ):
        if labels.absent(present):
            continue
        for match in labels.finditer(view):
            for start, end, tokens in _runs(view, match.end()):
                if judge(tokens):
                    hits.append(
                        Hit(
                            "spelled_secret", "secret", "a code spelled in words", label, start, end
                        )
                    )
                    break
    return hits
