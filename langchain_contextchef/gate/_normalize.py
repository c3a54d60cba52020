"""Normalisation for the write gate: one canonical view of a text, mapped back to the original.

Detectors never see the raw text. They see a *folded* view where the usual hiding tricks are
undone, so one pattern covers every spelling:

- compatibility forms (fullwidth `ｉｇｎｏｒｅ`, mathematical `𝐢𝐠𝐧𝐨𝐫𝐞`, circled, superscript)
  become plain characters (NFKD);
- accents on Latin, Greek and Cyrillic letters are dropped (`contraseña` -> `contrasena`), and
  so is every combining mark that stands alone, so trigger words cannot be split by combining
  marks and lexicons match with or without accents;
- format characters (category Cf: zero-width, bidirectional, soft hyphen, tags, ...),
  variation selectors and blank fillers (U+3164, U+115F, U+1160, U+FFA0, U+2800, U+034F) are
  removed;
- letters that look like Latin ones (Cyrillic, Greek, Armenian, Cherokee, small capitals,
  dotless i) become Latin;
- decimal digits of every script become ASCII digits.

`fold` returns the folded text (one `str.translate` with a cached table) and, on demand, a
map from each folded offset to the original one, so a span found in the view is a span of
the original text. `skeleton` is a second, lossy view for
the instruction lexicons only: it also reads leetspeak (`1gn0r3 4ll` -> `ignore all`).

Whether an invisible character is *allowed* is a different question (a ZWJ inside an emoji is
fine): `hidden_runs` answers it, on the original text.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["Folded", "fold", "fold_word", "has_leet", "hidden_runs", "leet_lines", "skeleton"]

# Blank or invisible characters that are not Cf but only ever hide text in memory entries.
_FILLERS = frozenset("\u3164\u115f\u1160\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
# Format characters, and code points this Python's Unicode database does not assign (they
# render as nothing or as a box, e.g. U+1CBC): both are invisible padding.
_HIDDEN_CATEGORIES = frozenset({"Cf", "Cn"})
_HANGUL_FILLERS = "\u115f\u1160"


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
    # Lisu letters, more small capitals and Latin letters drawn like plain ones
    "ꓮA ꓐB ꓚC ꓓD ꓰE ꓝF ꓖG ꓧH ꓲI ꓙJ ꓗK ꓡL ꓟM ꓠN ꓳO ꓑP ꓣR ꓢS ꓔT ꓴU ꓦV ꓪW ꓫX ꓬY ꓜZ "
    "ꜰf ꞯq ʋv ɒa ɨi ʉu ɵo "
    # Punctuation that stands in for a colon or angle brackets in role markup
    "∶: ꞉: ˸: ׃: ‹< ›> ⟨< ⟩> 〈< 〉> ❮< ❯>"
)
_CONFUSABLES = str.maketrans({pair[0]: pair[1] for pair in _CONFUSABLE_PAIRS.split()})

# Leetspeak and look-alike symbols for the lexicon skeleton. `l` and `1` both become `i`
# because either may stand for the other ("a11", "1gnore"); lexicon words get the same map.
_LEET = str.maketrans("0134578@$|!l", "oieastbasiii")
_LEET_MIX = re.compile(r"[a-z][013457@$|!]+[a-z]")
# Part of every mix, starting with a leetspeak character: the engine skips to those in C
# instead of stopping at every letter, and years or prices ("since 2019.") fail it at once.
# (Written with a single class first: the engine skips ahead only for a pattern that starts
# with a character class, not with a repeat.)
_LEET_TAIL = re.compile(r"[013457@$|!][013457@$|!]*[a-z]")

# Scripts whose combining marks are optional for reading (Latin, Greek, Cyrillic, Armenian,
# Hebrew, Arabic): a mark after such a letter is dropped. Elsewhere (Indic, Thai, kana) marks
# change the letter and are kept.
_STRIP_MARKS_BELOW = 0x0800

_CACHE_LIMIT = 65_536


def _fold_char(char: str) -> str:
    """The folded form of one non-ASCII character (empty means dropped)."""
    category = unicodedata.category(char)
    if category in _HIDDEN_CATEGORIES or char in _FILLERS or _is_selector(char):
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
    return folded


class _FoldTable(dict[int, str]):
    """`str.translate` table that folds each character on first sight and remembers it."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if code < 0x80:
            folded = char
        elif unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me"):
            # A combining mark on its own ("ig\u0301nore"): precomposed letters lose their
            # accents in `_fold_char`, and a separate mark goes the same way.
            folded = ""
        else:
            folded = _fold_char(char)
        if len(self) < _CACHE_LIMIT:
            self[code] = folded
        return folded


_TABLE = _FoldTable()
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


class Folded:
    """A folded view of a text.

    Attributes:
        text: The folded text.
    """

    __slots__ = ("_origin", "_source", "text")

    def __init__(self, source: str, text: str) -> None:
        self._source = source
        self.text = text
        self._origin: list[int] | None = None

    @property
    def origin(self) -> list[int] | None:
        """For each offset of `text`, the offset in the original; `None` if they are equal.

        Built on first use: most texts have no finding to map back.
        """
        if self.text is self._source:
            return None
        if self._origin is None:
            origin: list[int] = []
            position = 0
            source = self._source
            for run in _NON_ASCII_RUN.finditer(source):
                origin.extend(range(position, run.start()))
                for index in range(run.start(), run.end()):
                    origin.extend([index] * len(_TABLE[ord(source[index])]))
                position = run.end()
            origin.extend(range(position, len(source)))
            self._origin = origin
        return self._origin

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map a non-empty span of the folded text back to the original text."""
        origin = self.origin
        if origin is None:
            return start, end
        return origin[start], origin[end - 1] + 1


def fold(text: str) -> Folded:
    """Fold `text` (see the module docstring); the offset map is built when first asked for.

    Args:
        text: Any text.

    Returns:
        The folded view (its `text` is `text` itself when there is nothing to undo).
    """
    if text.isascii():
        return Folded(text, text)
    return Folded(text, text.translate(_TABLE))


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
    if _LEET_TAIL.search(lowered) is None:
        return spans
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
    if char in _HANGUL_FILLERS:
        # A choseong or jungseong filler inside an old-Hangul syllable: the run of fillers
        # (at most two) must touch a real jamo, or it is padding made of fillers alone.
        end = index
        while end < len(text) and text[end] in _HANGUL_FILLERS:
            end += 1
        after = text[end] if end < len(text) else ""
        jamo = any(_real_jamo(c) for c in (before, after) if c)
        return end - index if jamo and end - index <= 2 else 0
    if char == "\u2800":
        braille = any(0x2801 <= ord(c) <= 0x28FF for c in (before, after) if c)
        return 1 if braille else 0
    return 0


def _real_jamo(char: str) -> bool:
    return 0x1100 <= ord(char) <= 0x11FF and char not in _HANGUL_FILLERS


def _suspect(char: str) -> bool:
    return (
        unicodedata.category(char) in _HIDDEN_CATEGORIES or char in _FILLERS or _is_selector(char)
    )


@functools.cache
def _suspect_class() -> re.Pattern[str]:
    """One character class of every suspect character, so `hidden_runs` scans text in C.

    Built once, on the first non-ASCII text, from the Unicode database of this Python (the
    blocks where format characters live), not from a hand-kept list, so a format character
    added to Unicode is covered on upgrade.
    """
    ranges: list[tuple[int, int]] = []
    for low, high in (
        (0x80, 0xFFFF),
        (0x11000, 0x111FF),  # Brahmi, Kaithi: number signs
        (0x13400, 0x1345F),  # Egyptian hieroglyph format controls
        (0x1BC00, 0x1BCAF),  # shorthand format controls
        (0x1D100, 0x1D1FF),  # musical symbols: beam and slur controls
        (0xE0000, 0xE01EF),  # tags and supplementary variation selectors
    ):
        for code in range(low, high + 1):
            if _suspect(chr(code)):
                if ranges and ranges[-1][1] == code - 1:
                    ranges[-1] = (ranges[-1][0], code)
                else:
                    ranges.append((code, code))
    parts = (
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )
    return re.compile("[" + "".join(parts) + "]")


def hidden_runs(text: str) -> list[tuple[int, int]]:
    """Spans of invisible or smuggling characters that no legitimate sequence explains.

    Refused by default (the README promises it): every format character (zero-width,
    bidirectional controls, soft hyphen, tags, ...), variation selectors outside a real emoji,
    CJK or keycap sequence (a run of selectors is how text is smuggled after an emoji), and
    blank fillers, and code points Unicode does not assign (U+1CBC). Allowed: ZWJ/ZWNJ between letters or emoji, one variation selector after a
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
    resume = 0
    for match in _suspect_class().finditer(text):
        index = match.start()
        if index < resume:
            continue  # inside a legitimate sequence already accepted
        allowed = _allowed_invisible(text, index)
        if allowed:
            resume = index + allowed
            continue
        if spans and spans[-1][1] == index:
            spans[-1] = (spans[-1][0], index + 1)
        else:
            spans.append((index, index + 1))
    return spans
