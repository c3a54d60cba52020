r"""More derived views for the write gate: upside-down text, words broken by hyphens, ROT13.

Each view keeps, per character, the span of the folded text it came from (`_views.View`), so
a hit in it becomes a span of the original text:

- upside-down text (`ɥǝllo`, usually also written backwards: `suoᴉʇɔnɹʇsuᴉ`): every turned
  letter is read as the letter it stands for, once in order and once backwards; built only
  when the text holds at least three turned letters that no ordinary word uses;
- words broken by hyphens, at a line end or not (`Ig-nore`, `in-\nstruc-tions`): the hyphen
  and the line break go; built only around such hyphens, and read for instructions only
  (joining "e-mail" or "x-ray" says nothing about secrets);
- regional indicator symbols (flag halves, `🇮🇬🇳🇴🇷🇪`) read as letters, when three or
  more stand in a row;
- ROT13: the letters rotated back; built only when the text names ROT13 or holds the
  rotated form of a word an attack needs ("vtaber" for "ignore", "cnffjbeq" for "password").

`identifier_words` is not a view but a reading of a key or type as words, for `_scan`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from langchain_contextchef.gate._views import Piece, View, windows

__all__ = [
    "ROT13_CUES",
    "broken_word_views",
    "flag_letter_views",
    "flipped_views",
    "identifier_words",
    "rot13_views",
]

# Turned letters and the letters they stand for; ASCII letters that read as another letter
# when turned (b/q, d/p, n/u, m/w) swap only inside a view already known to be upside down.
_TURNED = (
    "ɐa ɔc ǝe əe ɟf ƃg ɓg ɥh ᴉi ıi ɾj ʞk ꞁl ɯm ɹr ʇt ʌv ʍw ʎy "
    "∀A ꓭB ƆC ᗡD ƎE ℲF ⅁G ſJ ꞰK ꓘK ˥L ꟽM ԀP ᴚR ꓤR ⊥T ∩U ꓵU ΛV ʌv ⅄Y "
    "bq qb dp pd nu un mw wm MW WM"
)
_FLIP = str.maketrans({pair[0]: pair[1] for pair in _TURNED.split()})
# Turned letters that no ordinary word uses (schwa `ə` and dotless `ı` are real letters).
_TURNED_ONLY = re.compile(r"[ɐɔǝɟƃɥᴉɾʞꞁɯɹʇʌʍʎ∀ƆƎℲ⅁˥ԀᴚꓤꓘꞰ⊥∩ꓵΛ⅄]")
_MIN_TURNED = 3


def flipped_views(text: str) -> list[View]:
    """`text` with turned letters read upright: backwards (the usual way) and in order."""
    if text.isascii() or len(_TURNED_ONLY.findall(text, 0, 4000)) < _MIN_TURNED:
        return []
    upright = text.translate(_FLIP)
    size = len(text)
    return [
        View(upright[::-1], [], [], "written upside down", mirror=size),
        View(upright, list(range(size)), list(range(1, size + 1)), "written upside down"),
    ]


# Regional indicator symbols (the halves of flag emoji) read as the letters they show.
_FLAG_LETTERS = str.maketrans({chr(0x1F1E6 + i): chr(ord("a") + i) for i in range(26)})
_FLAG_RUN = re.compile("[\U0001f1e6-\U0001f1ff]{3,}")


def flag_letter_views(text: str) -> list[View]:
    """`text` with runs of three or more regional indicators read as letters (🇮🇬🇳 -> ign).

    A flag is two indicators; a run of three or more spells a word. (Kept out of the folded
    view itself, so flags in ordinary text stay emoji for every other reader of that view.)
    """
    if text.isascii() or _FLAG_RUN.search(text) is None:
        return []
    size = len(text)
    view = text.translate(_FLAG_LETTERS)
    return [View(view, list(range(size)), list(range(1, size + 1)), "spelled in flag letters")]


# A hyphen before a letter, maybe followed by a line break: "Ig-nore", "in-\nstruc" (the
# letter before the hyphen is checked after the match: a pattern that starts with the hyphen
# lets the engine skip to hyphens).
_BROKEN = re.compile(r"-(?:[^\S\n]*\n[^\S\n]*)?(?=[^\W\d_])")
_LETTER = re.compile(r"[^\W\d_]")
_WORD_AROUND = re.compile(r"[^\W\d_]*")
_MAX_BREAKS = 64


def broken_word_views(text: str, wanted: Callable[[str], bool]) -> list[View]:
    """Windows of `text` around hyphens inside words, with the hyphens (and breaks) removed.

    Args:
        text: A folded text.
        wanted: Told the joined words (lower case, space-separated), says whether they are
            worth a view (they hold a word some detector needs): "well-known" and "e-mail"
            join to nothing the detectors read, so most hyphens cost no view.

    Returns:
        The views, none when no joined word is wanted.
    """
    if "-" not in text:
        return []
    runs: list[tuple[int, int, list[Piece]]] = []
    joined: list[str] = []
    for match in _BROKEN.finditer(text):
        start = match.start()
        if start == 0 or _LETTER.match(text, start - 1) is None:
            continue
        left = start
        while left > 0 and _LETTER.match(text, left - 1) is not None:
            left -= 1
        right = _WORD_AROUND.match(text, match.end())
        joined.append(text[left:start] + (right.group(0) if right else ""))
        runs.append((start, match.end(), []))
        if len(runs) >= _MAX_BREAKS:
            break
    if not runs or not wanted(" ".join(joined).lower()):
        return []
    return windows(text, runs, "with words broken by hyphens")


ROT13_CUES = frozenset(
    {
        "rot13",
        "rot-13",
        "rot 13",
        "rot_13",
        "vtaber",
        "qvfertneq",
        "vafgehpgvba",
        "cerivbhf",
        "flfgrz",
        "cebzcg",
        "eriryny",
        "cnffjbeq",
        "cnffpbqr",
        "frperg",
        "gbxra",
    }
)
"""Lower-case text that makes a ROT13 view worth building: the name, or the rotated form of a
word that attacks and secrets need ("vtaber" is "ignore", "cnffjbeq" is "password")."""


# One search instead of one substring test per cue (a cue is found exactly when a test would).
_ROT13_CUE = re.compile("|".join(map(re.escape, sorted(ROT13_CUES, key=len, reverse=True))))


def rot13_views(text: str, lowered: str) -> list[View]:
    """`text` with its letters rotated by 13, when `lowered` holds one of `ROT13_CUES`.

    Args:
        text: A folded text.
        lowered: The same text in lower case (same length).

    Returns:
        The view, or none.
    """
    if _ROT13_CUE.search(lowered) is None:
        return []
    size = len(text)
    rotated = codecs.encode(text, "rot13")
    return [View(rotated, list(range(size)), list(range(1, size + 1)), "hidden in ROT13")]


_SEPARATORS = re.compile(r"[_\-./:+]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def identifier_words(text: str) -> str | None:
    """An identifier read as words ("ignore_all_previous", "IgnoreAllPrevious"), or `None`.

    Keys and types are written with underscores, dashes, dots or in camel case; the
    detectors read words. `None` when the text has no such separators (it reads as it is).
    """
    words = _SEPARATORS.sub(" ", _CAMEL.sub(" ", text)).strip()
    return None if words == text.strip() else words
