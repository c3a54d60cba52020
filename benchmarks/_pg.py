"""PostgreSQL for the benches: which server, and a scratch database of the bench's own.

A bench that has PostgreSQL rows takes the server from its `pg` argument (`--pg URI` on the
command line), else from `CONTEXTCHEF_PG_URI`; with neither, it skips those rows and says so.
It never writes to the database the URI names: it creates a scratch database beside it and
drops it afterwards, so a shared server is left as it was.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

ENV_URI = "CONTEXTCHEF_PG_URI"

NO_SERVER_NOTE = (
    "PostgreSQL rows skipped: no server given (pass --pg URI or set CONTEXTCHEF_PG_URI; "
    "`python -m tests.support.postgres` starts a throwaway one)."
)


def pg_uri(explicit: str | None = None) -> str | None:
    """The server to bench on: `explicit`, else `CONTEXTCHEF_PG_URI`, else `None`."""
    return explicit or os.environ.get(ENV_URI) or None


def _with_database(uri: str, name: str) -> str:
    parts = urlsplit(uri)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@contextmanager
def scratch_database(server_uri: str) -> Iterator[str]:
    """A new empty database on the server (its URI), dropped when the block ends."""
    import psycopg

    name = f"contextchef_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_database(server_uri, name)
    finally:
        with psycopg.connect(server_uri, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
