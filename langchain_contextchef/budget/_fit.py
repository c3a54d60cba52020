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

from collections.abc import Callable, Iterable, Iterator, Mapping

__all__ = ["Omitted", "PrefixGuess", "largest_fit", "largest_fit_near"]


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


def largest_fit_near(size: int, fits: Callable[[int], bool], guess: int) -> int:
    """The largest n in [0, size] with fits(n) (fits(0) taken as true), searched from `guess`.

    Gallops away from the guess (1, 2, 4, ... steps) to bracket the answer, then bisects, so
    a guess that is right costs two probes (`guess` fits, `guess + 1` does not) and one that
    is off by d costs about 2 log2(d) more.
    """
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


class PrefixGuess:
    """Guesses the block size of the first n entries from their counts, prefix sums kept.

    Args:
        costs: The tokens each entry adds, by position (called lazily, at most once each).
        size: How many entries there are.
        frame: The block's size with no entry (what every block has besides its entries).
    """

    def __init__(self, costs: Callable[[int], int], size: int, frame: int) -> None:
        self._costs = costs
        self._size = size
        self._frame = frame
        self._sums = [0]
        self.drift = 0.0

    def _sum(self, n: int) -> int:
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
        while n < size and frame + self._sum(n + 1) + drift * (n + 1) <= cap:
            n += 1  # `estimate(n + 1)`, inlined: this runs on every budgeted compile
        return n

    def learn(self, n: int, real: int) -> None:
        """Correct the per-entry drift from the real size of the block with `n` entries."""
        if n > 0:
            self.drift = (real - self._frame - self._sum(n)) / n
