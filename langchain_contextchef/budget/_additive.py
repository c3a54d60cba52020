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
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_contextchef.entry import MemoryEntry

__all__ = ["BlockCounts", "BlockSizes"]

Counts = tuple[int, ...]
Render = Callable[[Sequence[MemoryEntry], Sequence[MemoryEntry], int], str]


@dataclass(frozen=True)
class BlockCounts:
    r"""A token counter that is a sum over a block's lines.

    Attributes:
        text: The counts of a whole block.
        piece: The counts a piece of whole lines adds to a block that goes on after it.
        tokens: The tokens of a non-empty block from its counts.

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


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(map(operator.add, a, b))


def _sub(a: Counts, b: Counts) -> Counts:
    return tuple(map(operator.sub, a, b))


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
    ) -> None:
        self._counts = counts
        self._unlisted_line = unlisted_line
        self._render = render
        self._selected = selected
        self._rows_after = rows_after
        self._full = full
        self._row = row
        self._frames: dict[tuple[bool, int], Counts] = {}
        self._lines: dict[int, Counts] = {}
        self._full_sums: list[Counts] = []
        self._row_sums: dict[int, list[Counts]] = {}

    def _frame(self, indexed: bool, unlisted: int) -> Counts:
        # The block around one sample entry (and row), without their counts.
        found = self._frames.get((indexed, unlisted))
        if found is None and unlisted and self._unlisted_line is not None:
            # Another frame with some entries unlisted differs only in that line's words.
            known = next((u for i, u in self._frames if i == indexed and u), None)
            if known is not None:
                base = _sub(self._frames[(indexed, known)], self._line(known))
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
            found = self._lines[unlisted] = self._counts.piece(self._unlisted_line(unlisted))
        return found

    @staticmethod
    def _prefix(
        sums: list[Counts],
        items: Sequence[MemoryEntry],
        n: int,
        each: Callable[[MemoryEntry], Counts],
        zero: Counts,
    ) -> Counts:
        if not sums:
            sums.append(zero)
        if len(sums) <= n:
            for entry in items[len(sums) - 1 : n]:
                sums.append(_add(sums[-1], each(entry)))
        return sums[n]

    def size(self, n_full: int, n_index: int, unlisted: int) -> int:
        """The tokens of the block; `n_full` or `n_index` must be positive."""
        frame = self._frame(n_index > 0, unlisted)
        zero = tuple(0 for _ in frame)
        total = _add(frame, self._prefix(self._full_sums, self._selected, n_full, self._full, zero))
        if n_index:
            sums = self._row_sums.setdefault(n_full, [])
            rows = self._rows_after(n_full)
            total = _add(total, self._prefix(sums, rows, n_index, self._row, zero))
        return self._counts.tokens(total)
