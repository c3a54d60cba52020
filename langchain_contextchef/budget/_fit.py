"""Fitting a prefix of entries to a token budget from per-entry counts, checked on the block.

A block of n entries is more than the sum of its entries (the element, notices, guidance, and
counters that do not add up exactly across pieces), so sizes are only *guessed* from per-entry
counts: the frame's size plus the prefix sum of the entries' counts, plus a per-entry drift
learned from one real count. The guess is then confirmed on rendered blocks with the real
counter, searching outward from it: with a good guess that is two counts (n fits, n + 1 does
not) whatever the scope's size, where probing 1, 2, 4, ... and bisecting costs about ten. The
result is the same largest fitting prefix, measured on the real block, so the budget holds
exactly as before.

Example:
    ```python
    from langchain_contextchef.budget._fit import largest_fit_near

    sizes = [0, 10, 20, 30, 40]
    assert largest_fit_near(4, lambda n: sizes[n] <= 25, guess=4) == 2
    assert largest_fit_near(4, lambda n: sizes[n] <= 25, guess=0) == 2
    ```
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["Omitted", "PrefixGuess", "PrefixSums", "Reach", "largest_fit", "largest_fit_near"]

T = TypeVar("T")
Kept = tuple[list[Any], list[Any]]
"""Items in order and their prefix sums (`sums[i]`: the first `i` items'), kept between fits."""


class Omitted(Mapping[str, str]):
    """Why each stored key is left out of the block, worked out when first read.

    A compile over thousands of entries shows a few dozen; the reasons for all the others
    are only computed when someone reads them (a log, a test), not on every compile.

    Args:
        make: Computes key -> reason.

    Example:
        ```python
        from langchain_contextchef.budget import Omitted

        reasons = Omitted(lambda: {"a": "budget"})
        reasons.update([("b", "context_budget")])
        assert reasons == {"a": "budget", "b": "context_budget"}
        ```
    """

    def __init__(self, make: Callable[[], dict[str, str]]) -> None:
        self._make = make
        self._extra: list[tuple[str, str]] = []
        self._data: dict[str, str] | None = None

    def _reasons(self) -> dict[str, str]:
        if self._data is None:
            data = self._make()
            data.update(self._extra)
            self._data = data
        return self._data

    def update(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Set the reason of some keys (the last one given wins)."""
        pairs = list(pairs)
        self._extra += pairs
        if self._data is not None:
            self._data.update(pairs)

    def copy(self) -> Omitted:
        """An independent copy (computed once between them while neither is changed)."""
        twin = Omitted(self._make)
        twin._extra = list(self._extra)
        if self._data is not None:
            twin._data = dict(self._data)
        return twin

    def __getitem__(self, key: str) -> str:
        return self._reasons()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._reasons())

    def __len__(self) -> int:
        return len(self._reasons())

    def __repr__(self) -> str:
        return repr(self._reasons())


def largest_fit(size: int, fits: Callable[[int], bool]) -> int:
    """The largest n in [0, size] with fits(n), assuming fits is (nearly) monotone.

    Probes 1, 2, 4, ... then bisects, so a 10,000-entry memory costs a few renders.
    """
    return largest_fit_near(size, fits, 1)


def largest_fit_near(
    size: int, fits: Callable[[int], bool], guess: int, reach: Reach | None = None
) -> int:
    """The largest n in [0, size] with fits(n) (fits(0) taken as true), searched from `guess`.

    Gallops away from the guess (1, 2, 4, ... steps) to bracket the answer, then bisects, so
    a guess that is right costs two probes (`guess` fits, `guess + 1` does not) and one that
    is off by d costs about 2 log2(d) more. `reach` learns every number compared with `size`.
    """
    if reach is not None:
        reach.compared(guess, size)
    guess = min(max(guess, 0), size)
    if guess and not fits(guess):
        high, step = guess, 1  # high does not fit: look below it
        while True:
            low = max(high - step, 0)
            if low == 0 or fits(low):
                break
            high, step = low, step * 2
    else:
        low, step = guess, 1  # low fits: look above it
        while True:
            probe = low + step
            if reach is not None:
                reach.compared(probe, size)
            if probe > size:
                high = size + 1
                break
            if not fits(probe):
                high = probe
                break
            low, step = probe, step * 2
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


class Reach:
    """How long a sequence must be for a search over it to decide as it did.

    A search compares positions with the sequence's length (a probe past the end, a guess
    cut to it, a walk that runs out of items). When every such comparison found the
    position within the length, the search decides the same over any sequence at least
    `need` long that holds the same items up to there; when one found the end, `need` is
    `None` and no other length is known to give the same answer.

    Example:
        ```python
        from langchain_contextchef.budget._fit import Reach, largest_fit_near

        reach = Reach()
        assert largest_fit_near(100, lambda n: n <= 7, 6, reach) == 7
        assert reach.need == 9  # it probed 6, 7, 9 and 8: any length from 9 on decides the same
        ended = Reach()
        assert largest_fit_near(5, lambda n: True, 4, ended) == 5 and ended.need is None
        ```
    """

    __slots__ = ("need",)

    def __init__(self) -> None:
        self.need: int | None = 0

    def compared(self, position: int, size: int) -> None:
        """Note that a search compared `position` with the length `size`."""
        if self.need is not None:
            if position > size:
                self.need = None
            elif position > self.need:
                self.need = position


class PrefixSums(Generic[T]):
    """Prefix sums of a per-item value over a sequence read as far as asked, reusing old ones.

    A budget fit adds up the counts of the first entries of a ranking; a compile after a
    one-entry change fits a ranking that mostly begins with the same entries (the very same
    objects: an unchanged entry is kept as it is). `kept` holds the items and sums of an
    earlier fit: while the new sequence holds the same objects (compared by identity), their
    sums are taken as they are; from the first other item on, they are computed. An item
    whose value may differ from one fit to the next (`volatile`) is summed but never kept.

    Args:
        items: The sequence (read by slices, as far as sums are asked).
        each: An item's value.
        add: Adds two values.
        zero: The sum of no items.
        kept: Items and sums an earlier fit read (see `kept`), or `None`.
        volatile: Whether an item's value may change between fits.

    Example:
        ```python
        import operator
        from langchain_contextchef.budget._fit import PrefixSums

        words = ["a", "bb", "ccc"]
        first = PrefixSums(words, len, operator.add, 0)
        assert first(3) == 6
        again = PrefixSums([words[0], words[1], "dddd"], len, operator.add, 0, first.kept())
        assert again(2) == 3 and again(3) == 7
        ```
    """

    def __init__(
        self,
        items: Sequence[Any],
        each: Callable[[Any], T],
        add: Callable[[T, T], T],
        zero: T,
        kept: Kept | None = None,
        volatile: Callable[[Any], bool] | None = None,
    ) -> None:
        self._items = items
        self._each = each
        self._add = add
        self._kept = kept
        self._volatile = volatile
        self._read: list[Any] = []
        self._sums: list[T] = [zero]
        self._stable: int | None = None  # items before the first volatile one

    def __call__(self, n: int) -> T:
        """The sum of the first `n` items' values (`n` at most the sequence's length)."""
        sums = self._sums
        if n >= len(sums):
            self._extend(n)
        return sums[n]

    def _extend(self, n: int) -> None:
        read, sums = self._read, self._sums
        start = len(read)
        if self._kept is not None:
            old, old_sums = self._kept
            stop = len(old)  # compared in one slice: a fit reads about as far as the last
            if start < stop:
                fresh = self._items[start:stop]
                same = start
                for item in fresh:
                    if item is not old[same]:
                        break
                    same += 1
                read.extend(fresh[: same - start])
                sums.extend(old_sums[start + 1 : same + 1])
                if same < stop:
                    self._kept = None  # the sequences part here: nothing more is theirs
                start = same
        if start < n:
            volatile, each, add = self._volatile, self._each, self._add
            for at in range(start, n):
                item = self._items[at]
                if self._stable is None and volatile is not None and volatile(item):
                    self._stable = at
                read.append(item)
                sums.append(add(sums[-1], each(item)))

    def upto(self, n: int) -> list[T]:
        """The sums of the first 0 to `n` items (at least; `n` at most the sequence's length).

        The list is this object's own: read it, never change it.
        """
        if n >= len(self._sums):
            self._extend(n)
        return self._sums

    def kept(self) -> Kept:
        """The items read and their sums, for a later fit (the longer of these and `kept`)."""
        if self._kept is not None and len(self._kept[0]) >= len(self._read):
            return self._kept
        upto = len(self._read) if self._stable is None else self._stable
        return self._read[:upto], self._sums[: upto + 1]


_AHEAD = 16
"""How many more entries' sums `PrefixGuess.largest_within` asks for at a time."""


class PrefixGuess:
    """Guesses the block size of the first n entries from their counts, prefix sums kept.

    Args:
        costs: The tokens each entry adds, by position (called lazily, at most once each).
        size: How many entries there are.
        frame: The block's size with no entry (what every block has besides its entries).
        sums: The prefix sums of `costs`, when the caller keeps them (then `costs` is unused).
        reach: Learns how far the guesses compared positions with `size` (`Reach`).
    """

    def __init__(
        self,
        costs: Callable[[int], int],
        size: int,
        frame: int,
        sums: PrefixSums[int] | None = None,
        reach: Reach | None = None,
    ) -> None:
        self._costs = costs
        self._reach = reach
        self._size = size
        self._frame = frame
        self._sums = [0]
        self._given = sums
        self.drift = 0.0

    def _sum(self, n: int) -> int:
        if self._given is not None:
            return self._given(n)
        sums = self._sums
        while len(sums) <= n:
            sums.append(sums[-1] + self._costs(len(sums) - 1))
        return sums[n]

    def estimate(self, n: int) -> float:
        """The guessed size of the block with the first `n` entries."""
        return self._frame + self._sum(n) + self.drift * n

    def largest_within(self, cap: int) -> int:
        """The largest n whose guessed size is within `cap` (computing counts only up to it)."""
        n, size, frame, drift = 0, self._size, self._frame, self.drift
        given = self._given
        if given is not None:  # over the sums' list, extended a few entries at a time
            sums = given.upto(min(size, _AHEAD))
            while n < size:
                if n + 1 >= len(sums):
                    sums = given.upto(min(size, n + 1 + _AHEAD))
                if frame + sums[n + 1] + drift * (n + 1) > cap:
                    break
                n += 1
        else:
            while n < size and frame + self._sum(n + 1) + drift * (n + 1) <= cap:
                n += 1  # `estimate(n + 1)`, inlined: this runs on every budgeted compile
        if self._reach is not None:  # `n < size` held up to n (the walk ended at the end)
            self._reach.compared(n + 1, size)
        return n

    def learn(self, n: int, real: int) -> None:
        """Correct the per-entry drift from the real size of the block with `n` entries."""
        if n > 0:
            self.drift = (real - self._frame - self._sum(n)) / n
