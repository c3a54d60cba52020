"""`PrivacySuite` on this folder's backends: SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.privacy import PrivacySuite


class TestPrivacy(PrivacySuite):
    """Retention, audit and encryption on each backend of this folder's `store` fixture."""
