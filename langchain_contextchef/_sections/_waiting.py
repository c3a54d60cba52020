"""What every backend's section lock shares: polling pauses, the timeout error, the scope's key."""

from __future__ import annotations

__all__ = ["POLL", "scope_key", "timed_out"]

POLL = (0.0005, 0.01)  # first and longest pause between tries of a non-blocking lock


def timed_out(scope: tuple[str, ...], timeout: float) -> TimeoutError:
    """The error a section raises when another writer held the scope too long."""
    return TimeoutError(
        f"Another writer held the memory scope {scope!r} for more than {timeout:g} s. "
        "A process may be stuck inside a write; if it died, its lock is released with it."
    )


def scope_key(scope: tuple[str, ...]) -> str:
    """One text per scope, the seed of its lock file's name and its advisory lock key."""
    return "\x1f".join(("langchain-contextchef", *scope))
