"""`ToolsSuite` on this folder's backends: SQLite, the file system and async PostgreSQL."""

from __future__ import annotations

from tests.support.suites.tools import ToolsSuite


class TestTools(ToolsSuite):
    """The tools suite on each backend of this folder's `local_store` and `astore` fixtures."""
