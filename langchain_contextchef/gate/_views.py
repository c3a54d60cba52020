r"""Derived views of a folded text for the write gate: reversed, de-spaced and decoded.

A secret or an instruction can be written so that no pattern sees it: backwards
(`snoitcurtsni suoiverp lla erongi`), one character at a time (`i g n o r e`), or encoded
(base64, hex, percent-encoding, `\x`/`\u` escapes, HTML character references). Each view
here undoes one of those tricks and keeps, for every character, the span of the folded text
it came from, so a hit in a view becomes a span of the original text (a decoded run maps to
the whole encoded run, which is what redaction must cut).

Decoding is bounded: runs of at least 16 characters, at most 32 runs and 16,000 decoded
characters per write, and the scanner decodes at most twice in depth.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_plus

from langchain_contextchef.gate._entropy import has_long_run

__all__ = ["View", "decoded_views", "reversed_view", "smuggled_views", "spaced_views", "windows"]

MAX_RUNS = 32
MAX_DECODED_CHARS = 16_000


@dataclass(frozen=True)
class View:
    """A derived text and, per character, the `[start, end)` it stands for in its source.

    Attributes:
        text: The derived text.
        starts: Source start offset of each character.
        ends: Source end offset of each character.
        note: How the source hid its content, appended to the reason of hits found only here.
        mirror: For the reversed view, the source length (offsets are computed, not stored).
    """

    text: str
    starts: list[int]
    ends: list[int]
    note: str
    mirror: int | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map a non-empty span of the view back to its source."""
        if self.mirror is not None:
            return self.mirror - end, self.mirror - start
        first, last = start, end - 1
        return (
            min(self.starts[first], self.starts[last]),
            max(self.ends[first], self.ends[last]),
        )


def reversed_view(text: str) -> View:
    """`text` backwards."""
    return View(text[::-1], [], [], "written backwards", mirror=len(text))


CONTEXT = 80
"""Characters of plain text kept on each side of a rewritten run: enough for a label
("password:") or an order ("ignore the text below:") to be read with what it governs."""

Piece = tuple[str, int, int]
"""A replacement character run and the source span it stands for."""


def windows(
    text: str, runs: list[tuple[int, int, list[Piece]]], note: str, context: int = CONTEXT
) -> list[View]:
    """Views of `text` around each rewritten run, with `context` characters on each side.

    Runs whose windows touch share one view. Scanning windows instead of the whole text
    keeps the cost of a derived view proportional to what was rewritten, not to the text.
    """
    views: list[View] = []
    runs = sorted(runs, key=lambda run: run[0])
    index = 0
    while index < len(runs):
        group = [runs[index]]
        while index + 1 < len(runs) and runs[index + 1][0] - group[-1][1] <= 2 * context:
            index += 1
            group.append(runs[index])
        index += 1
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        position = max(0, group[0][0] - context)
        for start, end, pieces in group:
            chars.append(text[position:start])
            starts.extend(range(position, start))
            ends.extend(range(position + 1, start + 1))
            for piece, source_start, source_end in pieces:
                chars.append(piece)
                starts.extend([source_start] * len(piece))
                ends.extend([source_end] * len(piece))
            position = end
        stop = min(len(text), group[-1][1] + context)
        chars.append(text[position:stop])
        starts.extend(range(position, stop))
        ends.extend(range(position + 1, stop + 1))
        views.append(View("".join(chars), starts, ends, note))
    return views


# --------------------------------------------------------------------------- spaced out

# Single characters with gaps between them, at least six in a row. Two shapes:
# - whitespace gaps of any width and kind: "i g n o r e", "p  a  s  s", tabs, newlines. A
#   cell is any non-space character, so the `_` of `ghp_` or the `-` of `sk-` survives;
# - punctuation gaps, possibly with a space: "p.a.s.s.w.o.r.d", "h-u-n-t-e-r-2",
#   "i-g-n-o-r-e a-l-l".
_SPACED_RUN = re.compile(r"(?<!\S)(?:\S\s{1,24}){5,}\S(?!\S)")
# A dotted cell is never a gap character: were it one, a run of hyphens could be cut into
# cells and gaps in exponentially many ways, and a short text ending in a word after forty
# hyphens took minutes to be refused a match.
_DOTTED_RUN = re.compile(r"(?<!\S)(?:[^\s.\-_*·•|][ .\-_*·•|]{1,3}){5,}[^\s.\-_*·•|](?!\S)")
_SPACED_MIN = 11  # six characters and five gaps: a shorter text holds no spaced run
# Gap, cell, gap, cell, gap: the middle of every spaced run of either shape. It starts with a
# gap character, so the engine skips ordinary letters in C; prose rarely has two one-letter
# words in a row.
_SPACED_HINT = re.compile(r"[\s.\-_*·•|]\S[\s.\-_*·•|]{1,24}\S[\s.\-_*·•|]")
_DOTTED_CELL = re.compile(r"([^\s.\-_*·•|])([ .\-_*·•|]{1,3})?")

# A token cut into groups of equal length ("ghp_ aB3d E5gH ...", "Xk29 !qz7 7"): at least
# two full groups of `size` characters and a last group of at most `size`. Ordinary prose has
# such runs too ("the cat sat"), so a run counts only when two of its groups mix letters and
# digits (keys, passwords) or, for groups of four, when it has at least five groups (an
# instruction cut into fours: "igno real lpre viou sins").
_GROUP_RUNS = tuple(
    (size, re.compile(rf"(?<!\S)(?:\S{{{size}}}\s{{1,8}}){{2,}}\S{{1,{size}}}(?!\S)"))
    for size in (3, 4, 5, 6)
)
_WORD_GROUPS = re.compile(r"(?<!\S)(?:[^\s\d]{4}\s{1,8}){4,}[^\s\d]{1,4}(?!\S)")
# A digit next to a letter: every mixed group has one. Written with a single class first, so
# the engine skips to the (rare) digits in C.
_MIXED = re.compile(r"[0-9](?:(?<=[A-Za-z][0-9])|[A-Za-z])")
# What else marks a group as part of a key or a password: a capital inside a word ("OnCE"),
# or a symbol against a letter or a digit ("Tv!4").
_KEYISH = re.compile(
    r"[0-9](?:(?<=[A-Za-z][0-9])|[A-Za-z])|[a-z][A-Z]|[!#$%&*?@^~][A-Za-z0-9]|[A-Za-z0-9][!#$%&*?@^~]"
)
_GROUP_CELL = re.compile(r"\S+")
_MIXED_GROUPS = 2
_WORD_GROUPS_MIN = 5  # groups of four (the last may be shorter) in an instruction cut so
_GROUP_MIN = 8  # joined characters: a shorter run hides nothing worth a view
_EDGE_CELLS = 8  # a run this long is also read without its first and without its last cell


def _cells(text: str, start: int, end: int, cell: re.Pattern[str]) -> list[Piece]:
    return [(m.group(0), m.start(), m.end()) for m in cell.finditer(text, start, end)]


def _dotted_cells(text: str, start: int, end: int) -> list[Piece]:
    return [(m.group(1), m.start(1), m.end(1)) for m in _DOTTED_CELL.finditer(text, start, end)]


def _group_runs(text: str) -> list[tuple[int, int, list[Piece]]]:
    runs: list[tuple[int, int, list[Piece]]] = []
    if _MIXED.search(text) is not None or _KEYISH.search(text) is not None:
        for size, pattern in _GROUP_RUNS:
            for match in pattern.finditer(text):
                cells = _cells(text, match.start(), match.end(), _GROUP_CELL)
                mixed = sum(_KEYISH.search(cell) is not None for cell, _, _ in cells)
                if mixed >= _MIXED_GROUPS or (size == 4 and len(cells) >= _WORD_GROUPS_MIN):
                    runs.append((match.start(), match.end(), cells))
                if len(runs) >= MAX_RUNS:
                    return runs
        return runs
    for match in _WORD_GROUPS.finditer(text):
        runs.append((match.start(), match.end(), _cells(text, *match.span(), _GROUP_CELL)))
        if len(runs) >= MAX_RUNS:
            break
    return runs


def _rejoin(text: str, cells: list[Piece]) -> tuple[list[Piece], list[Piece]]:
    """The cells of one run joined: keeping word breaks, and with every gap removed.

    The gap that occurs most often between cells is the one the writer put between letters;
    any other gap (wider, or of another kind: "   " among " ", " " among "-") was a word break
    and becomes one space in the first result.
    """
    gaps = [text[left[2] : right[1]] for left, right in zip(cells, cells[1:], strict=False)]
    usual = max(set(gaps), key=gaps.count)
    wide: list[Piece] = [cells[0]]
    for gap, cell in zip(gaps, cells[1:], strict=True):
        if gap != usual:
            wide.append((" ", cell[1] - len(gap), cell[1]))
        wide.append(cell)
    return wide, cells


def spaced_views(text: str) -> tuple[list[View], list[View]]:
    """Windows around spaced-out runs, joined: once keeping word breaks, once not.

    A run is a sequence of single characters separated by whitespace (any width, tabs and
    newlines included) or by punctuation, or a token cut into groups of equal length.

    Returns:
        `(collapsed, squeezed)`, both empty when no run exists. In `collapsed`, the usual gap
        of a run goes and any other gap becomes one space ("i g n o r e   a l l" -> "ignore
        all", "ghp_ aB3d E5gH" -> "ghp_aB3dE5gH"); in `squeezed` every gap goes
        ("i g n o r e a l l" -> "ignoreall").
    """
    found: list[tuple[int, int, int, list[Piece]]] = []
    if len(text) >= _SPACED_MIN and _SPACED_HINT.search(text) is not None:
        for match in _SPACED_RUN.finditer(text):
            cells = _cells(text, match.start(), match.end(), _GROUP_CELL)
            found.append((match.start(), match.end(), 0, cells))
        for match in _DOTTED_RUN.finditer(text):
            cells = _dotted_cells(text, match.start(), match.end())
            found.append((match.start(), match.end(), 1, cells))
    if len(text) >= _GROUP_MIN:
        found.extend((start, end, 2, cells) for start, end, cells in _group_runs(text))
    if not found:
        return [], []
    # Where two shapes claim the same characters, keep the longer run (whitespace first).
    found.sort(key=lambda run: (run[0], -run[1], run[2]))
    collapsed: list[tuple[int, int, list[Piece]]] = []
    squeezed: list[tuple[int, int, list[Piece]]] = []
    last_end = -1
    for start, end, _, cells in found:
        if start < last_end:
            continue
        last_end = end
        wide, tight = _rejoin(text, cells)
        collapsed.append((start, end, wide))
        squeezed.append((start, end, tight))
    note = "spelled out with gaps"
    views = windows(text, collapsed, note)
    # A one-character line just before or after a run joins it ("0" above a code spelled one
    # letter per line reads "0verification code"), so long runs are also read without their
    # first cell and without their last one.
    first = [(w[1][1], end, w[1:]) for start, end, w in collapsed if len(w) >= _EDGE_CELLS]
    last = [(start, w[-2][2], w[:-1]) for start, end, w in collapsed if len(w) >= _EDGE_CELLS]
    if first:
        views.extend(windows(text, first, note) + windows(text, last, note))
    return views, windows(text, squeezed, note)


# --------------------------------------------------------------------------- decoding

# Up to six `=`: base32 pads with as many (base64 with two at most).
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,6}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])"
    r"|(?:\\x[0-9A-Fa-f]{2}){4,}"
    r"|(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]){7,}[0-9A-Fa-f]{2}(?![0-9A-Fa-f])"
)
# Cheap searches that every base64 or hex run needs to succeed (the alternation above costs
# several times more per position): 16 characters of the base64 alphabet in a row
# (`has_long_run`; hex digits are in it), or hex pairs with separators; `\x` escapes need a
# backslash.
# (A single class first lets the engine skip to candidates; a repeat first does not.)
_HEX_PAIRS = re.compile(
    r"[0-9A-Fa-f][0-9A-Fa-f][ :][0-9A-Fa-f]{2}[ :][0-9A-Fa-f]{2}[ :][0-9A-Fa-f]{2}"
)
# Whole words holding escapes. Each starts after whitespace: a pattern free to start anywhere
# would rescan a long word from every position (quadratic on a 4,000-character blob).
_PERCENT = re.compile(r"(?<!\S)\S*?%[0-9A-Fa-f]{2}\S*")
_ESCAPES = re.compile(r"(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2})")
_ESCAPED_RUN = re.compile(r"(?<!\S)\S*?(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})\S*")
_ENTITY_RUN = re.compile(r"(?<!\S)\S*?&(?:#\d{2,7}|#[xX][0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});\S*")


def _readable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text:
        return None
    printable = sum(c.isprintable() or c in "\n\t\r" for c in text)
    if printable < 0.9 * len(text) or sum(c.isalnum() for c in text) < 3:
        return None
    return text


def _base64(token: str) -> str | None:
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


def _base32(token: str) -> str | None:
    body = token.rstrip("=")
    padded = body + "=" * (-len(body) % 8)
    try:
        raw = base64.b32decode(padded, casefold=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


_BASE32_RUN = re.compile(r"(?:[A-Z2-7]+|[a-z2-7]+)=*")


def _base32_or_64(token: str) -> str | None:
    """A run of the base64 alphabet read as base32 when it is one (one case, digits 2-7)."""
    if _BASE32_RUN.fullmatch(token) is not None:
        decoded = _base32(token)
        if decoded is not None:
            return decoded
    return _base64(token)


# Characters of the base85 alphabets that base64 lacks: a run without one is base64's.
_BASE85_ONLY = frozenset("!#$%&()*;<>?@^`{|}~[],.:'\"")


def _adobe85(token: str) -> bytes:
    return base64.a85decode(token, adobe=True)


def _base85(token: str) -> str | None:
    decoders: tuple[Callable[[str], bytes], ...]
    if token.startswith("<~"):
        decoders = (_adobe85,)
    elif "://" in token or _BASE85_ONLY.isdisjoint(token):
        return None  # a URL, or a run base64 already read
    else:
        decoders = (base64.b85decode, base64.a85decode)
    for decode in decoders:
        try:
            raw = decode(token)
        except (binascii.Error, ValueError):
            continue
        text = _readable(raw)
        if text is not None:
            return text
    return None


def _hex(token: str) -> str | None:
    digits = re.sub(r"\\x|[ :]", "", token)
    try:
        raw = bytes.fromhex(digits)
    except ValueError:
        return None
    return _readable(raw)


def _percent(token: str) -> str | None:
    decoded = unquote_plus(token)
    return decoded if decoded != token else None


def _escapes(token: str) -> str | None:
    def one(match: re.Match[str]) -> str:
        code = int(match.group(0)[2:], 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group(0)

    decoded = _ESCAPES.sub(one, token)
    return decoded if decoded != token else None


def _entities(token: str) -> str | None:
    decoded = html.unescape(token)
    return decoded if decoded != token else None


# Ascii85 between its delimiters, or any run of 20 printable characters between spaces
# (Ascii85 or the RFC 1924 alphabet; `_base85` keeps only runs that decode to text).
_BASE85 = re.compile(r"<~[!-u\s]{10,}?~>|(?<!\S)[!-~]{20,}(?!\S)")

_DECODERS = (
    (_BASE64, _base32_or_64),
    (_HEX, _hex),
    (_BASE85, _base85),
    (_PERCENT, _percent),
    (_ESCAPED_RUN, _escapes),
    (_ENTITY_RUN, _entities),
)
# Base64 and hex runs are at least 16 characters long; the other decoders need one of
# "%", "\\" or "&" in the text.
_MIN_RUN = 16
_MIN_BASE85 = 20


def decoded_views(text: str, budget: list[int], *, long_run: bool | None = None) -> list[View]:
    """Windows of `text` with every decodable run replaced by what it decodes to.

    Args:
        text: A folded text.
        budget: A one-item list holding the decoded characters still allowed; decreased.
        long_run: `has_long_run(text)` if the caller knows it.

    Returns:
        The views (none when nothing decodes to readable text).
    """
    runs: list[tuple[int, int, list[Piece]]] = []
    taken: list[tuple[int, int]] = []
    triggered = "%" in text or "\\" in text or "&" in text
    if len(text) < _MIN_RUN and not triggered:
        return []
    if long_run is None:
        long_run = has_long_run(text)
    hex_run = long_run or "\\x" in text or _HEX_PAIRS.search(text) is not None
    for pattern, decode in _DECODERS:
        if pattern is _BASE64:
            wanted = long_run
        elif pattern is _BASE85:
            wanted = len(text) >= _MIN_BASE85
        else:
            wanted = hex_run if pattern is _HEX else triggered
        if not wanted:
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < e and s < end for s, e in taken):
                continue
            decoded = decode(match.group(0))
            if decoded is None or len(decoded) > budget[0]:
                continue
            budget[0] -= len(decoded)
            runs.append((start, end, [(decoded, start, end)]))
            taken.append((start, end))
            if len(runs) >= MAX_RUNS:
                break
    return windows(text, runs, "hidden in an encoding") if runs else []


# --------------------------------------------------------------------------- smuggling

_TAG_RUN = re.compile("[\U000e0020-\U000e007e]{3,}")
_SELECTOR_RUN = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{3,}")


def _tags(run: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in run)


def _selectors(run: str) -> str | None:
    # The usual scheme: bytes 0-15 as U+FE00-U+FE0F, bytes 16-255 as U+E0100-U+E01EF.
    raw = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in run)
    return _readable(raw)


def smuggled_views(text: str) -> list[View]:
    """Windows of the original `text` with invisible carriers decoded.

    Unicode tag characters read as ASCII, and runs of variation selectors read as bytes (one
    per selector).

    Folding drops these characters, so these views work on the original text; `hidden_runs`
    refuses them anyway, and these views tell what they carried (a secret, an instruction).
    """
    if text.isascii():
        return []
    runs: list[tuple[int, int, list[Piece]]] = []
    for pattern, decode in ((_TAG_RUN, _tags), (_SELECTOR_RUN, _selectors)):
        for match in pattern.finditer(text):
            decoded = decode(match.group(0))
            if decoded:
                runs.append((match.start(), match.end(), [(decoded, *match.span())]))
    return windows(text, runs, "smuggled in invisible characters")
