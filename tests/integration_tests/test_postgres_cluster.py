"""The throwaway PostgreSQL cluster the test session uses when `CONTEXTCHEF_PG_URI` is unset."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.optional import fail_in_ci_else_skip
from tests.support.postgres import ClusterError, ThrowawayCluster, find_bindir


@pytest.fixture
def cluster() -> Iterator[ThrowawayCluster]:
    bindir = find_bindir()
    if bindir is None:
        fail_in_ci_else_skip("no initdb/pg_ctl installed")
    with ThrowawayCluster(bindir) as made:
        yield made


def _refused(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def test_the_cluster_takes_password_logins_on_loopback_only(cluster: ThrowawayCluster) -> None:
    import psycopg

    with psycopg.connect(cluster.uri) as conn:
        settings = conn.execute(
            "SELECT current_setting('listen_addresses'), "
            "current_setting('unix_socket_directories'), current_user"
        ).fetchone()
    assert settings == ("127.0.0.1", "", "postgres")
    hba = (cluster.data / "pg_hba.conf").read_text(encoding="utf-8")
    rules = [line.split() for line in hba.splitlines() if line and not line.startswith("#")]
    assert rules == [["host", "all", "all", "127.0.0.1/32", "scram-sha-256"]]
    wrong = cluster.uri.replace(cluster.password, "not-the-password")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(wrong).close()


def test_as_root_the_cluster_runs_as_an_unprivileged_owner_of_its_folder(
    cluster: ThrowawayCluster,
) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root needs another user to run PostgreSQL")
    assert cluster.user is not None and cluster.user.pw_uid != 0
    assert cluster.data.stat().st_uid == cluster.user.pw_uid
    pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
    assert Path(f"/proc/{pid}").stat().st_uid == cluster.user.pw_uid


def test_stop_deletes_the_folder_and_frees_the_port() -> None:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("no initdb/pg_ctl installed")
    with ThrowawayCluster(bindir) as made:
        folder, port = made.data.parent, made.port
        assert folder.is_dir() and port is not None and not _refused(port)
    assert not folder.exists()
    assert _refused(port)
    made.stop()  # a second stop is harmless


def test_a_missing_user_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    bindir = find_bindir() or Path("bin")
    if os.geteuid() != 0:
        pytest.skip("the user is only chosen when the tests run as root")
    monkeypatch.setenv("CONTEXTCHEF_PG_TEST_USER", "no-such-user-here")
    with pytest.raises(ClusterError, match="CONTEXTCHEF_PG_TEST_USER to an existing user"):
        ThrowawayCluster(bindir)
