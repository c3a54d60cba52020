"""`InteropSuite` on this folder's backends: SQLite and the file system."""

from __future__ import annotations

from tests.support.suites.interop import InteropSuite


class TestInterop(InteropSuite):
    """The interop suite on each backend of this folder's `local_store` fixture."""
