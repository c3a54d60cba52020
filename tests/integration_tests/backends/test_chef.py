"""`ChefSuite` on this folder's backends: SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.chef import ChefSuite


class TestChef(ChefSuite):
    """The ContextChef suite on each backend of this folder's `store` fixture."""
