"""Block sizes added up from each entry's counts, for a counter that is a sum over lines.

The calibrated counter weighs counts (words, digit groups, punctuation, ...) of which no run
crosses a newline, so a block's counts are its lines' counts added up, with one newline run
per non-empty line that a newline follows (and the first line). In the compact format each
entry shown in full and each index row fills whole lines of the block, none the first or the
last, and the rest of the block (its frame: the tags, the hint, the unlisted line, the key
guidance) does not depend on which entries they are. So a block's counts are its frame's (for
its number of unlisted entries, with or without an index) plus each entry's and each row's,
and the budget fit can size a block of any prefix without rendering it: exactly, not as an
estimate. Each entry's counts are kept with the entry version; a compile after a write
renders the frame and the chosen block, not every block the fit tries.

A `FitMemo` keeps, from one fit of a scope to the next, the frames' counts and the prefix sums
of the entries and rows the fit read (`PrefixSums`): a compile after a one-entry change reads
a ranking that begins with the same entries, so it adds up only what differs. It also keeps
the last confirmed fit itself (`_again.LastFit`), which the next fit takes again while nothing
it read has changed.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_contextchef.budget._again import LastFit
from langchain_contextchef.budget._fit import Kept, PrefixSums
from langchain_contextchef.entry import MemoryEntry

__all__ = ["BlockCounts", "BlockSizes", "FitMemo"]

Counts = tuple[int, ...]
Render = Callable[[Sequence[MemoryEntry], Sequence[MemoryEntry], int], str]


@dataclass(frozen=True)
class BlockCounts:
    r"""A token counter that is a sum over a block's lines.

    Attributes:
        text: The counts of a whole block.
        piece: The counts a piece of whole lines adds to a block that goes on after it.
        tokens: The tokens of a non-empty block from its counts.
        same_counts: A text with the same counts as the one given (and the same count with
            the counter this stands for), made character by character as `str.translate`
            does, or `None` when none is known: a text with one part replaced by another of
            the same `same_counts` then counts the same, so the fit knows the block with
            another number in its "N more" line without counting it.

    Example:
        ```python
        from langchain_contextchef.budget import CALIBRATED_COUNTS, calibrated_tokens

        head, entry, tail = "<memory>", '<entry key="a">Two cats</entry>', "</memory>"
        pieces = [CALIBRATED_COUNTS.piece(head), CALIBRATED_COUNTS.piece(entry)]
        summed = [sum(c) for c in zip(*pieces, CALIBRATED_COUNTS.text(tail), strict=True)]
        block = f"{head}\n{entry}\n{tail}"
        assert CALIBRATED_COUNTS.tokens(tuple(summed)) == calibrated_tokens(block)
        ```
    """

    text: Callable[[str], Counts]
    piece: Callable[[str], Counts]
    tokens: Callable[[Counts], int]
    same_counts: Callable[[str], Hashable] | None = None


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(map(operator.add, a, b))


def _sub(a: Counts, b: Counts) -> Counts:
    return tuple(map(operator.sub, a, b))


_KEPT_SUMS = 16
"""How many prefix sums a memo keeps (one per sequence a fit read: the entries, the rows
after some number of full entries); the oldest go first."""
_KEPT_FRAMES = 64


class FitMemo:
    """What a budget fit keeps for the next fit of the same scope, counter and render settings.

    Frames' counts (by whether rows are shown and how many entries are unlisted), the unlisted
    line's counts, the tokens of the block that shows no entry (`blanks`, by how many are
    unlisted), and the prefix sums of every sequence the fit read (`PrefixSums.kept`),
    by name. A fit takes copies (`sums`, `frames`, `lines`) and hands back what it learned
    (`keep`) only once its chosen block was counted for real and matched: concurrent fits
    never share a list, and nothing an unconfirmed fit computed is reused.

    Args:
        volatile: Whether an entry's counts may change from one fit to the next (a compact
            entry that shows the turns it has left): its sums are never kept.
        line_only: The caller's `render` promises that for the same entries and rows its
            blocks differ only in the "N more" line (`unlisted_line`, a line of its own
            for every count above 0, as `render_memory_block` writes it): a fit taken
            again then puts the new line into the last block's text instead of rendering
            the block (`LastFit.spliced`).

    Example:
        ```python
        from langchain_contextchef.budget._additive import FitMemo

        memo = FitMemo(lambda entry: False)
        assert memo.kept("full") is None
        ```
    """

    def __init__(self, volatile: Callable[[MemoryEntry], bool], *, line_only: bool = False) -> None:
        self.volatile = volatile
        self.line_only = line_only
        self._sums: dict[Hashable, Kept] = {}
        self.frames: dict[tuple[bool, int], Counts] = {}
        self.lines: dict[int, Counts] = {}
        self.blanks: dict[int, int] = {}  # tokens of the block with no entry, by unlisted
        self.bases: dict[bool, Counts] = {}  # frames without their unlisted line
        self.blank_base: Counts | None = None  # the block with no entry, without that line
        self.shapes: dict[Hashable, Counts] = {}  # unlisted lines' counts, by `same_counts`
        self.last: LastFit | None = None  # the last confirmed fit (replaced whole, never changed)

    def kept(self, name: Hashable) -> Kept | None:
        """The items and prefix sums kept under `name`, if any."""
        return self._sums.get(name)

    def keep(
        self,
        sums: dict[Hashable, PrefixSums[Any]],
        frames: dict[tuple[bool, int], Counts],
        lines: dict[int, Counts],
        blanks: dict[int, int],
        bases: dict[bool, Counts],
        blank_base: Counts | None = None,
        shapes: dict[Hashable, Counts] | None = None,
    ) -> None:
        """Keep what a confirmed fit read (new dicts: a concurrent fit keeps its own copies)."""
        merged = {**self._sums, **{name: made.kept() for name, made in sums.items()}}
        for name in list(merged)[: max(0, len(merged) - _KEPT_SUMS)]:
            del merged[name]
        self._sums = merged
        self.frames = frames if len(frames) <= _KEPT_FRAMES else {}
        self.lines = lines if len(lines) <= _KEPT_FRAMES else {}
        self.blanks = blanks if len(blanks) <= _KEPT_FRAMES else {}
        self.bases = bases
        if blank_base is not None:
            self.blank_base = blank_base
        if shapes is not None and len(shapes) <= _KEPT_FRAMES:
            self.shapes = shapes


class BlockSizes:
    """The token size of the block with the first `n` entries in full and `m` index rows.

    Args:
        counts: The counter, as sums over lines.
        render: Renders `(full, index, unlisted)` as the block (the compact format).
        selected: The entries shown in full, in order (read as far as sizes are asked).
        rows_after: The index rows that follow the first `n` full entries.
        full: Each entry's counts when shown in full (with the separator after it).
        row: Each entry's counts as an index row (with the newline after it).
        unlisted_line: The block's line for `n` unlisted entries (one line of text, whatever
            follows it): a frame for another number of unlisted entries is then worked out
            from one rendered frame instead of rendered again.
        memo: What earlier fits with the same settings kept (frames, lines, prefix sums).
    """

    def __init__(
        self,
        counts: BlockCounts,
        render: Render,
        selected: Sequence[MemoryEntry],
        rows_after: Callable[[int], Sequence[MemoryEntry]],
        full: Callable[[MemoryEntry], Counts],
        row: Callable[[MemoryEntry], Counts],
        unlisted_line: Callable[[int], str] | None = None,
        memo: FitMemo | None = None,
    ) -> None:
        self._counts = counts
        self._unlisted_line = unlisted_line
        self._render = render
        self._selected = selected
        self._rows_after = rows_after
        self._full = full
        self._row = row
        self._memo = memo
        self._frames: dict[tuple[bool, int], Counts] = dict(memo.frames) if memo else {}
        self._lines: dict[int, Counts] = dict(memo.lines) if memo else {}
        # The frame without its unlisted line, with and without an index: every frame with
        # some entries unlisted is this plus that line.
        self._bases: dict[bool, Counts] = dict(memo.bases) if memo else {}
        # The block with no entry and no row, without its unlisted line: that block for any
        # number of unlisted entries is this plus that line.
        self._blank_base = memo.blank_base if memo else None
        self._shapes: dict[Hashable, Counts] = dict(memo.shapes) if memo else {}
        self.sums: dict[Hashable, PrefixSums[Counts]] = {}

    def keep(self, more: dict[Hashable, PrefixSums[Any]], blanks: dict[int, int]) -> None:
        """Hand what this fit learned to the memo (with the sums and blanks the caller read)."""
        if self._memo is not None:
            self._memo.keep(
                {**self.sums, **more},
                self._frames,
                self._lines,
                blanks,
                self._bases,
                self._blank_base,
                self._shapes,
            )

    def blank(self, unlisted: int) -> int | None:
        """The tokens of the block with no entry and no row, when known without rendering it."""
        if not unlisted or self._unlisted_line is None or self._blank_base is None:
            return None
        return self._counts.tokens(_add(self._blank_base, self._line(unlisted)))

    def learn_blank(self, block: str, unlisted: int, tokens: int) -> None:
        """Learn `blank`'s base from the rendered block with no entry (counted: `tokens`)."""
        if not unlisted or not block or self._unlisted_line is None:
            return
        counts = self._counts.text(block)
        if self._counts.tokens(counts) == tokens:  # the counter is this sum: keep its base
            self._blank_base = _sub(counts, self._line(unlisted))

    def _sums_of(
        self,
        name: Hashable,
        items: Sequence[MemoryEntry],
        each: Callable[[MemoryEntry], Counts],
        zero: Counts,
    ) -> PrefixSums[Counts]:
        found = self.sums.get(name)
        if found is None:
            memo = self._memo
            kept = memo.kept(name) if memo is not None else None
            volatile = memo.volatile if memo is not None else None
            found = self.sums[name] = PrefixSums(items, each, _add, zero, kept, volatile)
        return found

    def _frame(self, indexed: bool, unlisted: int) -> Counts:
        # The block around one sample entry (and row), without their counts.
        found = self._frames.get((indexed, unlisted))
        if found is None and unlisted and self._unlisted_line is not None:
            # Another frame with some entries unlisted differs only in that line's words.
            base = self._bases.get(indexed)
            if base is None:
                known = next((u for i, u in self._frames if i == indexed and u), None)
                if known is not None:
                    base = _sub(self._frames[(indexed, known)], self._line(known))
                    self._bases[indexed] = base
            if base is not None:
                found = self._frames[(indexed, unlisted)] = _add(base, self._line(unlisted))
        if found is None:
            sample = list(self._selected[:1])
            rows = list(self._rows_after(0)[:1]) if indexed else []  # any row will do
            found = self._counts.text(self._render(sample, rows, unlisted))
            for entry in sample:
                found = _sub(found, self._full(entry))
            for entry in rows:
                found = _sub(found, self._row(entry))
            self._frames[(indexed, unlisted)] = found
        return found

    def _line(self, unlisted: int) -> Counts:
        found = self._lines.get(unlisted)
        if found is None:
            assert self._unlisted_line is not None
            text = self._unlisted_line(unlisted)
            same = self._counts.same_counts
            if same is None:
                found = self._counts.piece(text)
            else:  # another number of as many digits: the same counts, known already
                shape = same(text)
                found = self._shapes.get(shape)
                if found is None:
                    found = self._shapes[shape] = self._counts.piece(text)
            self._lines[unlisted] = found
        return found

    def size(self, n_full: int, n_index: int, unlisted: int) -> int:
        """The tokens of the block; `n_full` or `n_index` must be positive."""
        frame = self._frame(n_index > 0, unlisted)
        zero = (0,) * len(frame)
        total = _add(frame, self._sums_of("full", self._selected, self._full, zero)(n_full))
        if n_index:
            rows = self._sums_of(("rows", n_full), self._rows_after(n_full), self._row, zero)
            total = _add(total, rows(n_index))
        return self._counts.tokens(total)
