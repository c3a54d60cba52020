"""Normalisation for the write gate: one canonical view of a text, mapped back to the original.

Detectors never see the raw text. They see a *folded* view where the usual hiding tricks are
undone, so one pattern covers every spelling:

- compatibility forms (fullwidth `ｉｇｎｏｒｅ`, mathematical `𝐢𝐠𝐧𝐨𝐫𝐞`, circled, superscript)
  become plain characters (NFKD);
- accents on Latin, Greek and Cyrillic letters are dropped (`contraseña` -> `contrasena`), so
  trigger words cannot be split by combining marks and lexicons match with or without accents;
- format characters (category Cf: zero-width, bidirectional, soft hyphen, tags, ...),
  variation selectors and blank fillers (U+3164, U+115F, U+1160, U+FFA0, U+2800, U+034F) are
  removed;
- letters that look like Latin ones (Cyrillic, Greek, Armenian, Cherokee, small capitals,
  dotless i) become Latin;
- decimal digits of every script become ASCII digits.

`fold` returns the folded text and a map from each folded offset to the original one, so a
span found in the view is a span of the original text. `skeleton` is a second, lossy view for
the instruction lexicons only: it also reads leetspeak (`1gn0r3 4ll` -> `ignore all`).

Whether an invisible character is *allowed* is a different question (a ZWJ inside an emoji is
fine): `hidden_runs` answers it, on the original text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Folded", "fold", "fold_word", "has_leet", "hidden_runs", "leet_lines", "skeleton"]

# Blank or invisible characters that are not Cf but only ever hide text in memory entries.
_FILLERS = frozenset("\u3164\u115f\u1160\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")


def _is_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


# Letters that render like Latin ones. NFKD already handles fullwidth and mathematical forms;
# this table covers the other scripts and the phonetic small capitals.
_CONFUSABLE_PAIRS = (
    # Cyrillic
    "аa вb еe ёe кk мm нh оo рp сc тt уy хx ѕs іi їi јj ԁd ԛq ԝw һh ӏl ɡg ьb "
    "АA ВB ЕE ЁE КK МM НH ОO РP СC ТT УY ХX ЅS ІI ЇI ЈJ ԀD ԚQ ԜW ҺH ӀI "
    # Greek
    "αa βb γy εe ηn ιi κk νv οo ρp τt υu χx ωw "
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX "
    # Armenian
    "օo սu ցg հh ոn ԍs ՕO ՍU "
    # Latin look-alikes and small capitals
    "ıi ȷj ɑa ɩi ǀl ƒf ꞵb ᴀa ʙb ᴄc ᴅd ᴇe ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv "
    "ᴡw ʏy ᴢz "
    # Cherokee capitals
    "ᎪA ᏴB ᏟC ᎠD ᎬE ᏀG ᎻH ᎥI ᎫJ ᏦK ᏞL ᎷM ᏢP ᏚS ᎢT ᏙV ᎳW ᏃZ "
    # Punctuation that stands in for a colon or angle brackets in role markup
    "∶: ꞉: ˸: ׃: ‹< ›> ⟨< ⟩> 〈< 〉> ❮< ❯>"
)
_CONFUSABLES = str.maketrans({pair[0]: pair[1] for pair in _CONFUSABLE_PAIRS.split()})

# Leetspeak and look-alike symbols for the lexicon skeleton. `l` and `1` both become `i`
# because either may stand for the other ("a11", "1gnore"); lexicon words get the same map.
_LEET = str.maketrans("0134578@$|!l", "oieastbasiii")
_LEET_MIX = re.compile(r"[a-z][013457@$|!]+[a-z]")

# Scripts whose combining marks are optional for reading (Latin, Greek, Cyrillic, Armenian,
# Hebrew, Arabic): a mark after such a letter is dropped. Elsewhere (Indic, Thai, kana) marks
# change the letter and are kept.
_STRIP_MARKS_BELOW = 0x0800

_CACHE: dict[str, str] = {}
_CACHE_LIMIT = 65_536


def _fold_char(char: str) -> str:
    """The folded form of one non-ASCII character (cached; empty means dropped)."""
    folded = _CACHE.get(char)
    if folded is not None:
        return folded
    category = unicodedata.category(char)
    if category == "Cf" or char in _FILLERS or _is_selector(char):
        folded = ""
    elif category == "Nd":
        folded = str(unicodedata.digit(char, 0))
    else:
        decomposed = unicodedata.normalize("NFKD", char)
        if ord(decomposed[0]) < _STRIP_MARKS_BELOW or decomposed[0].isascii():
            decomposed = "".join(c for c in decomposed if not unicodedata.combining(c))
        else:
            decomposed = unicodedata.normalize("NFKC", char)
        folded = decomposed.translate(_CONFUSABLES)
    if len(_CACHE) < _CACHE_LIMIT:
        _CACHE[char] = folded
    return folded


@dataclass(frozen=True)
class Folded:
    """A folded view of a text.

    Attributes:
        text: The folded text.
        origin: For each offset of `text`, the offset in the original; `None` when the
            folded text is the original (pure ASCII, nothing to undo).
    """

    text: str
    origin: list[int] | None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map a non-empty span of the folded text back to the original text."""
        if self.origin is None:
            return start, end
        return self.origin[start], self.origin[end - 1] + 1


_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def fold(text: str) -> Folded:
    """Fold `text` (see the module docstring) and keep the offset map.

    Args:
        text: Any text.

    Returns:
        The folded view; `origin` is `None` when `text` is ASCII.
    """
    if text.isascii():
        return Folded(text, None)
    pieces: list[str] = []
    origin: list[int] = []
    position = 0
    for run in _NON_ASCII_RUN.finditer(text):
        start = run.start()
        pieces.append(text[position:start])
        origin.extend(range(position, start))
        previous = text[start - 1] if start > 0 else ""
        for index in range(start, run.end()):
            char = text[index]
            if unicodedata.combining(char) and previous and ord(previous) < _STRIP_MARKS_BELOW:
                # A combining mark on a Latin/Greek/Cyrillic letter: "ig\u0301nore".
                continue
            folded = _fold_char(char)
            if folded:
                pieces.append(folded)
                origin.extend([index] * len(folded))
                previous = char
        position = run.end()
    pieces.append(text[position:])
    origin.extend(range(position, len(text)))
    return Folded("".join(pieces), origin)


def fold_word(word: str) -> str:
    """Fold and lower-case a lexicon word the way `fold(...).text.lower()` folds text."""
    return fold(word).text.lower()


def has_leet(lowered: str) -> bool:
    """Whether a lower-cased folded text mixes letters with leetspeak digits or symbols."""
    return _LEET_MIX.search(lowered) is not None


_LEET_REACH = 120


def leet_lines(lowered: str) -> list[tuple[int, int]]:
    """Spans of a lower-cased folded text around its leetspeak (`1gn0r3`), merged.

    The skeleton view is only worth building there: a 4,000-character note with one
    "a1b2c3d" in it should not pay for a second pass over everything. Each span reaches
    120 characters each side of a mixed token, enough for a whole override phrase.
    """
    spans: list[tuple[int, int]] = []
    for mix in _LEET_MIX.finditer(lowered):
        start = max(0, mix.start() - _LEET_REACH)
        end = min(len(lowered), mix.end() + _LEET_REACH)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def skeleton(lowered: str) -> str:
    """The leetspeak skeleton of a lower-cased folded text; same length, same offsets."""
    return lowered.translate(_LEET)


# --------------------------------------------------------------------------- hidden content


def _joinable(char: str) -> bool:
    category = unicodedata.category(char)
    return not char.isascii() and (category[0] in "LM" or category == "So" or char == "\ufe0f")


def _emoji_base(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sm", "Sk", "Po") and not char.isascii()


def _ideograph(char: str) -> bool:
    code = ord(char)
    return (
        0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3FFFF
    )


# Prepended concatenation marks (Arabic number signs and kin) are Cf but visible; they belong
# before digits.
_NUMBER_SIGNS = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2")
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"


def _allowed_invisible(text: str, index: int) -> int:
    """How many characters from `index` form a legitimate invisible sequence (0: none)."""
    char = text[index]
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    code = ord(char)
    if char in "\u200c\u200d":
        # ZWNJ/ZWJ between letters of scripts that need them (Persian, Indic) or in emoji.
        return 1 if before and after and _joinable(before) and _joinable(after) else 0
    if char in _NUMBER_SIGNS:
        return 1 if after.isdigit() else 0
    if 0xE0020 <= code <= 0xE007E and before == _BLACK_FLAG:
        # A subdivision flag: black flag, 2-6 tag letters, cancel tag (e.g. Scotland).
        end = index
        while end < len(text) and 0xE0020 <= ord(text[end]) <= 0xE007E and end - index < 7:
            end += 1
        if 2 <= end - index <= 6 and end < len(text) and text[end] == _CANCEL_TAG:
            return end - index + 1
        return 0
    if _is_selector(char) and not (after and _is_selector(after)):
        # One selector after a character that takes it; a run of selectors carries data.
        if char in "\ufe0e\ufe0f":
            keycap = before in "0123456789#*" and after == "\u20e3"
            return 1 if before and (keycap or _emoji_base(before) or _ideograph(before)) else 0
        if 0xFE00 <= code <= 0xFE0D:
            return (
                1 if before and (_ideograph(before) or unicodedata.category(before) == "Sm") else 0
            )
        return 1 if before and _ideograph(before) else 0
    if char in "\u115f\u1160":
        jamo = any(0x1100 <= ord(c) <= 0x11FF for c in (before, after) if c)
        return 1 if jamo else 0
    if char == "\u2800":
        braille = any(0x2801 <= ord(c) <= 0x28FF for c in (before, after) if c)
        return 1 if braille else 0
    return 0


def _suspect(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or char in _FILLERS or _is_selector(char)


def hidden_runs(text: str) -> list[tuple[int, int]]:
    """Spans of invisible or smuggling characters that no legitimate sequence explains.

    Refused by default (the README promises it): every format character (zero-width,
    bidirectional controls, soft hyphen, tags, ...), variation selectors outside a real emoji,
    CJK or keycap sequence (a run of selectors is how text is smuggled after an emoji), and
    blank fillers. Allowed: ZWJ/ZWNJ between letters or emoji, one variation selector after a
    character that takes it, subdivision-flag tag sequences, Arabic number signs before digits,
    Hangul fillers between old-Hangul jamo, the braille blank between braille cells.

    Args:
        text: The original text.

    Returns:
        `(start, end)` spans, adjacent characters merged.
    """
    if text.isascii():
        return []
    spans: list[tuple[int, int]] = []
    index = 0
    size = len(text)
    while index < size:
        char = text[index]
        if char.isascii() or not _suspect(char):
            index += 1
            continue
        allowed = _allowed_invisible(text, index)
        if allowed:
            index += allowed
            continue
        if spans and spans[-1][1] == index:
            spans[-1] = (spans[-1][0], index + 1)
        else:
            spans.append((index, index + 1))
        index += 1
    return spans
