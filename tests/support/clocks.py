"""The one fake clock of the test suite.

`Memory`, `ContextChef` and the recall/eviction code take a clock that returns an aware
`datetime`; `FileSystemStore` reads epoch seconds through `timestamp`. Both views come from
the same instant, which the test moves by hand.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)
"""The default start of every `FakeClock`: a fixed, timezone-aware instant."""


class FakeClock:
    """A clock the test moves by hand; each reading also moves it forward by `tick`.

    Args:
        start: The first reading.
        tick: How far each reading moves the clock on; `timedelta(0)` makes a clock that
            stands still until `advance` is called. The small default keeps successive
            writes strictly ordered, as a real clock would.

    Example:
        >>> clock = FakeClock(tick=timedelta(seconds=1))
        >>> clock() == NOW, clock() == NOW + timedelta(seconds=1)
        (True, True)
        >>> clock.advance(minutes=1)
        >>> clock.timestamp() == (NOW + timedelta(minutes=1, seconds=2)).timestamp()
        True
    """

    def __init__(self, start: datetime = NOW, tick: timedelta = timedelta(milliseconds=1)) -> None:
        self.now = start
        self.tick = tick

    def __call__(self) -> datetime:
        reading = self.now
        self.now += self.tick
        return reading

    def advance(self, **delta: float) -> None:
        """Move the clock on by `timedelta(**delta)` (negative values move it back)."""
        self.now += timedelta(**delta)

    def timestamp(self) -> float:
        """The current instant as epoch seconds, without ticking (a store's wall clock)."""
        return self.now.timestamp()
