"""Exceptions raised to developers.

Model mistakes never raise: tools turn them into `Error: ...` tool results. The exceptions
here are for the developer, and each message says what to do.
"""

from __future__ import annotations

__all__ = [
    "ContextBudgetExceeded",
    "ContextChefError",
    "ScopeError",
    "ToolNotOwnedError",
]


class ContextChefError(Exception):
    """Base class of every exception this package raises on purpose."""


class ScopeError(ContextChefError, KeyError):
    """A scope template could not be filled, so no memory namespace is addressed.

    Memory fails closed: a missing tenant id never falls back to a shared namespace.
    """

    def __str__(self) -> str:
        # KeyError would quote the message; show it as written.
        return str(self.args[0]) if self.args else ""


class ToolNotOwnedError(ContextChefError, ValueError):
    """`handle_tool` was given a tool call this chef does not own."""


class ContextBudgetExceeded(ContextChefError):
    """A compiled prompt does not fit the context budget even after trimming memory."""
