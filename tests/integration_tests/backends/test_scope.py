"""`ScopeSuite` on this folder's backends: SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.scope import ScopeSuite


class TestScope(ScopeSuite):
    """The scope suite on each backend of this folder's `store` fixture."""
