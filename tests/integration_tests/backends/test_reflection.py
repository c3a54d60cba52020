"""`ReflectionSuite` on this folder's backends: SQLite, the file system and async PostgreSQL."""

from __future__ import annotations

from tests.support.suites.reflection import ReflectionSuite


class TestReflection(ReflectionSuite):
    """The reflection suite on each backend of this folder's `local_store` and `astore` fixtures."""
