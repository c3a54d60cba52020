"""Which PostgreSQL server the test session picks, checked without starting one.

`CONTEXTCHEF_PG_URI` wins over the throwaway cluster: when it is set, the session never looks
for `initdb`/`pg_ctl`, so a machine's own server is used as named and nothing else starts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import postgres
from tests.support.postgres import ENV_URI, ClusterError, postgres_for_tests

NAMED = "postgresql://someone:secret@127.0.0.1:5999/postgres"


class FakeCluster:
    """Stands in for `ThrowawayCluster`: records what the session asked of it."""

    made: list[FakeCluster] = []
    fail = False

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.uri = "postgresql://postgres:x@127.0.0.1:6001/postgres"
        self.calls: list[str] = []
        FakeCluster.made.append(self)

    def start(self) -> str:
        self.calls.append("start")
        if FakeCluster.fail:
            raise ClusterError("initdb failed: no space left")
        return self.uri

    def stop(self) -> None:
        self.calls.append("stop")

    def describe(self) -> str:
        return "a throwaway cluster"


@pytest.fixture
def no_cluster(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Patch the cluster side so that any attempt to find or build one is recorded."""
    looked: list[str] = []

    def find_bindir() -> Path:
        looked.append("find_bindir")
        return Path("pg-bin")

    FakeCluster.made = []
    FakeCluster.fail = False
    monkeypatch.setattr(postgres, "find_bindir", find_bindir)
    monkeypatch.setattr(postgres, "ThrowawayCluster", FakeCluster)
    return looked


def test_the_named_server_wins_and_no_cluster_is_looked_for(
    monkeypatch: pytest.MonkeyPatch, no_cluster: list[str]
) -> None:
    monkeypatch.setenv(ENV_URI, NAMED)
    with postgres_for_tests() as server:
        assert server.uri == NAMED
        assert ENV_URI in server.description
    assert no_cluster == []
    assert FakeCluster.made == []


def test_without_the_variable_a_throwaway_cluster_is_started_and_stopped(
    monkeypatch: pytest.MonkeyPatch, no_cluster: list[str]
) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    with postgres_for_tests() as server:
        (cluster,) = FakeCluster.made
        assert server.uri == cluster.uri
        assert cluster.calls == ["start"]
    assert no_cluster == ["find_bindir"]
    assert cluster.calls == ["start", "stop"]
    assert cluster.bindir == Path("pg-bin")


def test_an_empty_variable_counts_as_unset(
    monkeypatch: pytest.MonkeyPatch, no_cluster: list[str]
) -> None:
    monkeypatch.setenv(ENV_URI, "")
    with postgres_for_tests() as server:
        assert server.uri == FakeCluster.made[0].uri
    assert no_cluster == ["find_bindir"]


def test_a_cluster_that_fails_to_start_means_no_server_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, no_cluster: list[str]
) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    FakeCluster.fail = True
    with postgres_for_tests() as server:
        assert server.uri is None
        assert "the throwaway cluster failed: initdb failed: no space left" in server.description


def test_no_binaries_means_no_server_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    monkeypatch.setattr(postgres, "find_bindir", lambda: None)
    with postgres_for_tests() as server:
        assert server.uri is None
        assert f"{ENV_URI} is not set and no initdb/pg_ctl is installed" in server.description
