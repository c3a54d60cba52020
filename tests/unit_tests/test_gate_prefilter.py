"""The write gate's prefilter skips work, never findings.

The scanner decides from one trigger pass (`_gate_triggers.Triggers`) and a few cheap searches
which detector families can fire on a view, and runs only those. Each shortcut rests on a
claim checked here:

- the trigger pass reports exactly the literals that occur in a text, and in it backwards;
- every lexicon match contains one of its matcher's anchors, and the pass knows every anchor
  and every detector trigger;
- each cheap guard finds something in every text the pattern it guards matches;
- and, end to end, `scan` with every shortcut forced open finds the same hits on the labelled
  corpus and its hidden forms.
"""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.gate import _detectors as _gate_detectors
from langchain_contextchef.gate import _entropy as _gate_entropy
from langchain_contextchef.gate import _views as _gate_views
from langchain_contextchef.gate._detectors import _ALL, TRIGGERS
from langchain_contextchef.gate._entropy import _KEY_BODY, _KEY_LINES, _TOKEN, has_long_run
from langchain_contextchef.gate._lexicon import LEXICONS
from langchain_contextchef.gate._multilingual import ANCHORS, GATED, _Words
from langchain_contextchef.gate._normalize import _LEET_MIX, _LEET_TAIL, fold, fold_word
from langchain_contextchef.gate._numbers import CARD
from langchain_contextchef.gate._scan import scan
from langchain_contextchef.gate._triggers import Triggers
from langchain_contextchef.gate._views import (
    _BASE64,
    _DOTTED_RUN,
    _HEX,
    _HEX_PAIRS,
    _SPACED_HINT,
    _SPACED_MIN,
    _SPACED_RUN,
)
from tests.support.gate_corpus import CORPUS

# --------------------------------------------------------------------------- the trigger pass

# A small alphabet makes overlapping, nested and repeated literals likely; it mixes ASCII,
# a non-ASCII letter and an ideograph so every trie of `Triggers` is exercised.
_ALPHABET = "ab:é密"
_WORDS = st.text(alphabet=_ALPHABET, max_size=4)


@settings(max_examples=400, deadline=None)
@given(literals=st.lists(_WORDS, max_size=12), text=st.text(alphabet=_ALPHABET, max_size=30))
def test_triggers_report_exactly_the_literals_present(literals: list[str], text: str) -> None:
    triggers = Triggers(literals)
    expected = {word for word in literals if word in text}
    assert triggers.present(text) == expected
    forward, backward = triggers.present_both(text)
    assert forward == expected
    assert backward == {word for word in literals if word in text[::-1]}


def test_triggers_find_nested_overlapping_and_repeated_words() -> None:
    triggers = Triggers(["pass", "password", "word", "sword", "ss", "密码", ":"])
    assert triggers.present("my password: 密码") == {
        "pass",
        "password",
        "word",
        "sword",
        "ss",
        "密码",
        ":",
    }
    assert triggers.present("swords and words") == {"sword", "word"}
    assert triggers.present("nothing to see") == set()
    assert Triggers([]).present("anything") == set()


def test_the_pass_knows_every_anchor_and_every_detector_trigger() -> None:
    for words in GATED:
        assert words.anchors, "a matcher with no anchor could never be skipped safely"
        assert words.anchors <= ANCHORS
    assert ANCHORS.issubset(TRIGGERS.literals)
    for detector in _ALL:
        assert detector.triggers <= TRIGGERS.literals, detector.name


# --------------------------------------------------------------------------- lexicon anchors


def _rendered(entry: str, *, spaced: bool) -> list[str]:
    """Texts an entry should match: each spelling of its first word, the others' first."""
    words = entry.lstrip("*").replace("_", " ").split()
    rest = ["the old" if word == "…" else word.split("|")[0].rstrip("*.") for word in words[1:]]
    glue = " " if spaced else ""
    return [fold_word(glue.join([alt.rstrip("*."), *rest])) for alt in words[0].split("|")]


def _lexicon_texts() -> list[str]:
    texts: list[str] = []
    for lexicon in LEXICONS:
        for field in (
            "override_verbs",
            "override_phrases",
            "role_phrases",
            "prompt_phrases",
            "password_words",
            "password_short",
            "user_words",
            "otp_phrases",
            "otp_weak",
        ):
            for entry in getattr(lexicon, field):
                for text in _rendered(entry, spaced=lexicon.spaced):
                    texts.extend((text, f"x {text}: 4821 ok", text.replace(" ", "")))
    texts.extend(fold(value).text.lower() for _, value, _ in CORPUS)
    return texts


LEXICON_TEXTS = _lexicon_texts()


@pytest.mark.parametrize("index", range(len(GATED)))
def test_every_lexicon_match_contains_an_anchor(index: int) -> None:
    words: _Words = GATED[index]
    matched = 0
    for text in LEXICON_TEXTS:
        for match in words.finditer(text):
            matched += 1
            assert any(anchor in match.group(0) for anchor in words.anchors), (
                f"{match.group(0)!r} holds none of its matcher's anchors"
            )
    assert matched > 0, "the rendered lexicon should exercise every matcher"


# --------------------------------------------------------------------------- cheap guards

# Pieces that make each guarded pattern likely to match when glued together at random.
_PIECES = [
    "i g n o r e",
    "i\tg\tn\to\tr\te",
    "p  a  s  s\nw\no\nr\nd",
    "p.a.s.s.w.o.r.d",
    "h-u-n-t-e-r-2",
    "1gn0r3",
    "4ll",
    "p@ss",
    "deadbeefcafebabe0123",
    "de ad be ef de ad be ef",
    "de:ad:be:ef:de:ad:be:ef",
    "\\x41\\x42\\x43\\x44",
    "SGVsbG8gZnJvbSB0aGUgZGVtbyB0ZWFt",
    "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu",
    "-----END RSA PRIVATE KEY-----",
    "PuTTY-User-Key-File-3",
    "Private-Lines: 14",
    "4111 1111 1111 1111",
    "4111-1111-1111-1111",
    "SKbb0607578501e15e75285202db90d7eb",
    "MTk4NjIyNDgzNDcxOTI0OTYw.Gk3abc.abcdefghijklmnopqrstuvwxyz012",
    "bot 123456789:" + "AbCdEfGhIj" * 3 + "KlMnO",
    "0123456789abcdef0123456789abcdef-us12",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "\n",
    " ",
    ". ",
    "-",
]
_GUARD_TEXT = st.lists(
    st.one_of(
        st.sampled_from(_PIECES),
        st.text(alphabet="aZ09+/_-. :\\x\n\t", max_size=20),
    ),
    max_size=8,
).map("".join)


def _guards_hold(text: str) -> None:
    long_run = has_long_run(text)
    if _SPACED_RUN.search(text) or _DOTTED_RUN.search(text):
        assert len(text) >= _SPACED_MIN and _SPACED_HINT.search(text)
    if _LEET_MIX.search(text):
        assert _LEET_TAIL.search(text)
    if _BASE64.search(text) or _TOKEN.search(text):
        assert long_run
    if _HEX.search(text):
        assert long_run or "\\x" in text or _HEX_PAIRS.search(text)
    if _KEY_BODY.search(text):
        assert long_run or any(line in text for line in _KEY_LINES)
    for detector in _ALL:
        if detector.needs_long_run and detector.pattern.search(text):
            assert long_run, detector.name
        if detector.hint is not None and detector.pattern.search(text):
            assert detector.hint.search(text), detector.name


@settings(max_examples=500, deadline=None)
@given(text=_GUARD_TEXT)
def test_each_guard_finds_something_wherever_its_pattern_matches(text: str) -> None:
    _guards_hold(text)


@pytest.mark.parametrize("piece", _PIECES)
def test_each_guard_holds_on_the_pieces_themselves(piece: str) -> None:
    _guards_hold(piece)
    _guards_hold(f"note: {piece} ok")


def test_the_guarded_patterns_do_match_the_pieces() -> None:
    # Otherwise the guard tests above would pass vacuously.
    joined = "\n".join(_PIECES)
    patterns: list[re.Pattern[str]] = [
        _SPACED_RUN,
        _DOTTED_RUN,
        _LEET_MIX,
        _BASE64,
        _TOKEN,
        _HEX,
        _KEY_BODY,
        CARD.pattern,
    ]
    patterns.extend(d.pattern for d in _ALL if d.needs_long_run)
    for pattern in patterns:
        assert pattern.search(joined), pattern.pattern


# --------------------------------------------------------------------------- end to end


def _hidden_forms(value: str) -> list[str]:
    return [
        value,
        value[::-1],
        " ".join(value[:40]),
        "note " + base64.b64encode(value.encode()).decode() + " end",
    ]


def _scan_all(texts: list[str]) -> list[list[tuple[str, str, str, int, int]]]:
    return [[(h.detector, h.reason, h.label, h.start, h.end) for h in scan(t)] for t in texts]


def test_scan_with_every_shortcut_open_finds_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [form for _, value, _ in CORPUS for form in _hidden_forms(value)]
    fast = _scan_all(texts)

    def everything(self: Triggers, text: str) -> set[str]:
        return set(self.literals) | {word[::-1] for word in self.literals}

    monkeypatch.setattr(Triggers, "_found", everything)
    for module in (_gate_detectors, _gate_entropy, _gate_views):
        monkeypatch.setattr(module, "has_long_run", lambda view: True)
    slow = _scan_all(texts)
    assert sum(map(len, fast)) > len(CORPUS)  # the corpus does get found
    different = [t for t, a, b in zip(texts, fast, slow, strict=True) if a != b]
    assert different == []
