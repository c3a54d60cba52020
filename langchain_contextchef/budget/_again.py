r"""The last budget fit of a scope, taken again when the next fit would read what it read.

A write in a large scope rarely changes what its memory block shows: the new entry ranks far
below the entries shown, and the block differs only in its "N more" line. The fit over the
new ranking would then read the same entries (the same objects: an unchanged entry is kept
as it is), and size every block it tries exactly as before, except for that line, whose
number moved by one; for a counter whose counts do not depend on which digits a number has
(`BlockCounts.same_counts`), even that line counts the same. Every size it computes and every
comparison it makes is then the one made before, so its choice is the one made before.

`LastFit` keeps what that argument needs from a confirmed fit: its settings, the entries its
searches read (every position they summed or compared) and how long their sequences had to
be for each comparison with a length to come out as it did (`_fit.Reach`), and the shape of
the "N more" line of every block it sized. `fit_again` checks those against the next fit's
input and answers with the last fit when all hold; the caller then renders the block, as
every fit does, and `LastFit.tokens_of` confirms its size: the block is the last one with
only the line's number changed (three string comparisons), or it is counted.

Example:
    ```python
    from datetime import datetime, timezone
    from langchain_contextchef.budget import CALIBRATED_COUNTS, FitMemo, calibrated_tokens
    from langchain_contextchef.budget import fit_memory
    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.render import entry_text, render_memory_block, unlisted_line

    t = datetime(2026, 5, 25, tzinfo=timezone.utc)
    notes = [
        MemoryEntry(key=f"n{i}", value=f"Note {i}.", created_at=t, updated_at=t) for i in range(60)
    ]
    memo = FitMemo(lambda entry: False)


    def fit(entries: list[MemoryEntry]) -> list[str]:
        fitted = fit_memory(
            entries,
            [],
            render=lambda full, index, more: render_memory_block(full, unlisted=more),
            budget=80,
            count=calibrated_tokens,
            index_mode=False,
            counts=CALIBRATED_COUNTS,
            entry_counts=lambda e: CALIBRATED_COUNTS.piece(entry_text(e, "compact", None) + "\n"),
            row_counts=lambda e: CALIBRATED_COUNTS.piece(""),
            unlisted_line=lambda n: unlisted_line(n, "legacy"),
            memo=memo,
        )
        return [e.key for e in fitted.full]


    shown = fit(notes)
    last = memo.last
    assert last is not None and last.n_full == len(shown) < 60
    assert fit([*notes, notes[0].evolve(key="later")]) == shown  # one more below them
    assert memo.last is last  # taken again, not fitted anew
    ```
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from langchain_contextchef.budget._fit import Reach
from langchain_contextchef.entry import MemoryEntry

__all__ = ["LastFit", "fit_again", "last_fit"]

Shape = Callable[[int], Hashable]
"""The `same_counts` key of the "N more" line for a number of unlisted entries (`None`: 0)."""


@dataclass(frozen=True)
class LastFit:
    """A confirmed fit, and what it read: the next fit takes its choice while that stands.

    Attributes:
        settings: The budget, the index mode and the index share it fitted to.
        total: How many entries it fitted (shown, indexed or unlisted).
        shapes: For each number of entries and rows of a block it sized, the shape of that
            block's "N more" line (`Shape`).
        n_full: Entries it showed in full.
        n_index: Index rows it showed.
        tokens: The chosen block's tokens, counted.
        head: The selected entries its search read, in order (every one it summed or
            compared; the sequence was at least this long wherever its length was compared).
        rows: The same for the index rows after the entries in full (`None` without rows).
        before: The chosen block up to its "N more" line (the whole block without one).
        line: That line (`""` without one).
        after: The block after that line.
        single: Whether that line occurs once in the block (`before` ends where it is).
    """

    settings: Hashable
    total: int
    shapes: tuple[tuple[int, Hashable], ...]
    n_full: int
    n_index: int
    tokens: int
    head: tuple[MemoryEntry, ...]
    rows: tuple[MemoryEntry, ...] | None
    before: str | None
    line: str
    after: str
    single: bool = False

    def spliced(self, line: str) -> str | None:
        """This fit's block with `line` for its "N more" line, or `None` when not known.

        Only for a renderer whose blocks differ in nothing else (`FitMemo.line_only`), and
        when both blocks have that line (a count above 0: the line is a part of its own)
        and it occurs once in this block (so `before` ends at it, not at a copy of its
        text elsewhere).
        """
        if not (line and self.line and self.single) or self.before is None:
            return None
        return self.before + line + self.after

    def tokens_of(self, block: str, line: str, shape: Callable[[str], Hashable]) -> int | None:
        """The tokens of `block` when it is this fit's block with `line` for its "N more" line.

        The two lines have the same shape, so the blocks have the same counts (`shape` is
        the counter's `same_counts`); `None` when that is not shown this way (count it).
        """
        before = self.before
        if before is None or len(block) != len(before) + len(line) + len(self.after):
            return None
        if line != self.line and (not line or shape(line) != shape(self.line)):
            return None
        same_text = block.startswith(before) and block.endswith(self.after)
        return self.tokens if same_text and block.startswith(line, len(before)) else None


def _same_objects(items: Sequence[MemoryEntry], kept: tuple[MemoryEntry, ...]) -> bool:
    return len(items) == len(kept) and all(map(operator.is_, items, kept))


def fit_again(
    last: LastFit | None,
    settings: Hashable,
    total: int,
    selected: Sequence[MemoryEntry],
    rows_after: Callable[[int], Sequence[MemoryEntry]],
    shape: Shape,
) -> tuple[LastFit, list[MemoryEntry], list[MemoryEntry]] | None:
    """`last`, when a fit of this input would read and size exactly what it did.

    The same settings; the same entry objects wherever its searches read, in sequences at
    least as long as they compared; and for every block it sized, a "N more" line of the
    same shape for this `total`. Every size and every comparison of the search is then the
    one it made before, so is its choice: `last`, with the entries it shows in full and
    the index rows it shows.
    """
    if last is None or last.settings != settings:
        return None
    head = last.head
    now = selected[: len(head)]
    if not _same_objects(now, head):
        return None
    full = list(now[: last.n_full])
    rows = last.rows
    index: list[MemoryEntry] = []
    if rows is not None:
        after = rows_after(last.n_full)[: len(rows)]
        if not _same_objects(after, rows):
            return None
        index = list(after[: last.n_index])
    if total != last.total:
        for shown, kept in last.shapes:
            if shape(total - shown) != kept:
                return None
    return last, full, index


def last_fit(
    settings: Hashable,
    total: int,
    tried: Iterable[tuple[int, int]],
    chosen: tuple[int, int, int],
    reached: tuple[Reach, Reach | None],
    selected: Sequence[MemoryEntry],
    rows_after: Callable[[int], Sequence[MemoryEntry]],
    volatile: Callable[[MemoryEntry], bool],
    shape: Shape,
    block: tuple[str, str],
) -> LastFit | None:
    """A confirmed fit as a `LastFit`, or `None` when no later fit may take it again.

    Args:
        settings: The budget, index mode and share.
        total: The entries fitted.
        tried: Every (entries, rows) the fit sized.
        chosen: Entries in full, index rows, and the block's tokens (counted).
        reached: How far the searches over the entries and over the rows compared positions
            with their lengths (`None`: no rows).
        selected: The entries, in order.
        rows_after: The rows after a number of entries in full.
        volatile: Whether an entry's counts change with the turn (none of those is kept).
        shape: `Shape`.
        block: The chosen block and its "N more" line (`""` without one).
    """
    full_reach, row_reach = reached
    if full_reach.need is None or (row_reach is not None and row_reach.need is None):
        return None  # a search compared with a sequence's end: another length may differ
    head = tuple(selected[: full_reach.need])
    rows = None
    if row_reach is not None and row_reach.need is not None:
        rows = tuple(rows_after(chosen[0])[: row_reach.need])
    if any(map(volatile, head)) or (rows is not None and any(map(volatile, rows))):
        return None  # an entry whose counts change with the turn
    shown = sorted({full + index for full, index in tried})
    text, line = block
    at = text.rfind(line) if line else len(text)
    before = text[:at] if at >= 0 else None
    after = text[at + len(line) :] if at >= 0 else ""
    shapes = tuple((n, shape(total - n)) for n in shown)
    single = bool(line) and at >= 0 and text.find(line) == at
    return LastFit(settings, total, shapes, *chosen, head, rows, before, line, after, single)
