"""Exceptions raised to developers.

Model mistakes never raise: tools turn them into `Error: ...` tool results. The exceptions
here are for the developer, and each message says what to do.
"""

from __future__ import annotations

__all__ = [
    "AsyncStoreError",
    "ContextBudgetExceeded",
    "ContextChefError",
    "DamagedEntryError",
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


class DamagedEntryError(ContextChefError, ValueError):
    """A stored memory item cannot be read as an entry (edited by hand, or by other code).

    A damaged entry never blocks its scope: compiles and listings skip it (and report it in
    `CompileMeta.damaged_keys`), and model writes to its key are refused. Repair it from code
    with `Memory.set(key, ...)` or remove it with `Memory.delete(key)`.

    Attributes:
        key: The entry's key.
        reason: What is wrong with it.
    """

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(
            f"{reason} Repair it with memory.set({key!r}, ...) or remove it with "
            f"memory.delete({key!r})."
        )
        self.key = key
        self.reason = reason


class ToolNotOwnedError(ContextChefError, ValueError):
    """`handle_tool` was given a tool call this chef does not own."""


class ContextBudgetExceeded(ContextChefError):
    """A compiled prompt does not fit the context budget even after trimming memory."""


class AsyncStoreError(ContextChefError, RuntimeError):
    """A sync method was called with an async-only store inside its event loop.

    LangGraph's `AsyncPostgresStore` and `AsyncSqliteStore` serve sync calls only from other
    threads. The message names the async method to use (`acompile`, `ahandle_tool`, ...).
    """
