"""README's PostgreSQL blocks run as written, on a throwaway database.

They name a server by one line (`DB_URI = "postgresql://..."`, see `test_readme.POSTGRES_URI`);
here that line names a fresh database of the session's PostgreSQL server instead, and nothing
else of the block changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.postgres import create_database, drop_database
from tests.unit_tests.test_readme import BLOCKS, POSTGRES_URI, run_block

PG_BLOCKS = [(line, code) for line, code in BLOCKS if POSTGRES_URI in code]


@pytest.fixture
def database(pg_server_uri: str) -> Iterator[str]:
    uri = create_database(pg_server_uri, prefix="contextchef_readme")
    yield uri
    drop_database(pg_server_uri, uri)


def test_the_readme_has_a_postgres_block() -> None:
    assert len(PG_BLOCKS) == 1


@pytest.mark.postgres
@pytest.mark.parametrize(("line", "code"), PG_BLOCKS, ids=[f"line{n}" for n, _ in PG_BLOCKS])
def test_postgres_block_runs(
    line: int,
    code: str,
    database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    run_block(code.replace(POSTGRES_URI, f"DB_URI = {database!r}"), line)
    assert capsys.readouterr().out == "postgres: Go\n"
    import psycopg

    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT prefix, key FROM store WHERE key = 'lang'").fetchall()
    assert rows == [("users.alice.memory", "lang")]
