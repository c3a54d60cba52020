"""PostgreSQL for the tests: the server named by `CONTEXTCHEF_PG_URI`, or a throwaway cluster.

`postgres_for_tests()` yields the server the PostgreSQL tests use:

* `CONTEXTCHEF_PG_URI`, when set, wins: the tests only create and drop databases of their own
  on that server.
* Otherwise a throwaway cluster is made with the `initdb` and `pg_ctl` of the newest
  PostgreSQL installed (Debian's `/usr/lib/postgresql/<major>/bin`, found at run time, or
  `PATH`), in a fresh temporary folder, on a free port of 127.0.0.1, with a random password
  and no Unix socket. When the tests run as root, the cluster runs as an unprivileged user
  (`nobody`, else `postgres`; `CONTEXTCHEF_PG_TEST_USER` picks another) who owns the folder.
  It is stopped and the folder deleted when the session ends. No other cluster, user or
  password on the machine is touched.
* When neither is possible, the server has no URI and says why; the fixtures skip the
  PostgreSQL tests with that reason, or fail them under `CI=true`.

Run `python -m tests.support.postgres` from the repository root to get such a cluster by
hand (for notebook 04, say): it prints the URI and serves until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV_URI = "CONTEXTCHEF_PG_URI"
ENV_USER = "CONTEXTCHEF_PG_TEST_USER"
DEBIAN_ROOT = Path("/usr/lib/postgresql")
SUPERUSER = "postgres"
START_ATTEMPTS = 3
"""A free port can be taken by someone else between the probe and the start: retry."""


class ClusterError(RuntimeError):
    """The throwaway cluster could not be made or started; the message says why."""


@dataclass(frozen=True)
class PostgresServer:
    """The server the PostgreSQL tests run against.

    Attributes:
        uri: A libpq URI to the server's `postgres` database, or None when there is none.
        description: Where the server comes from, or why there is none.
    """

    uri: str | None
    description: str


# ---- finding the binaries ------------------------------------------------------------------


def _major(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path.name)) or (0,)


def find_bindir() -> Path | None:
    """The folder with `initdb` and `pg_ctl` of the newest PostgreSQL installed, if any."""
    if DEBIAN_ROOT.is_dir():
        for version in sorted(DEBIAN_ROOT.iterdir(), key=_major, reverse=True):
            bindir = version / "bin"
            if (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file():
                return bindir
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl", path=str(Path(initdb).parent)):
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _unprivileged_user() -> pwd.struct_passwd | None:
    """Who runs the cluster: None for the current user, unless that is root."""
    if os.geteuid() != 0:
        return None
    wanted = os.environ.get(ENV_USER)
    for name in [wanted] if wanted else ["nobody", "postgres"]:
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        if user.pw_uid != 0:
            return user
    msg = (
        "PostgreSQL will not run as root and no unprivileged user was found to run it as "
        f"(tried {wanted or 'nobody, postgres'}; set {ENV_USER} to an existing user)"
    )
    raise ClusterError(msg)


# ---- the cluster -----------------------------------------------------------------------------


class ThrowawayCluster:
    """A PostgreSQL cluster in a temporary folder, reachable on 127.0.0.1 only.

    Use it as a context manager: entering makes and starts the cluster (its URI is `uri`),
    leaving stops it and deletes the folder.

    Args:
        bindir: The folder holding `initdb` and `pg_ctl` (see `find_bindir`).
    """

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.user = _unprivileged_user()
        self.password = secrets.token_hex(16)
        self.folder: Path | None = None
        self.port: int | None = None

    @property
    def data(self) -> Path:
        assert self.folder is not None, "the cluster is not made yet"
        return self.folder / "data"

    @property
    def uri(self) -> str:
        assert self.port is not None, "the cluster is not started yet"
        return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/postgres"

    def describe(self) -> str:
        runs_as = self.user.pw_name if self.user else "the current user"
        return (
            f"throwaway cluster of {self.bindir} on 127.0.0.1:{self.port}, run as {runs_as}, "
            "deleted at the end of the session"
        )

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            # Drop to the unprivileged user in the child only; root's supplementary groups go too.
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C", "HOME": str(self.folder)}
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            cwd=self.folder,  # the user must be able to read its working folder
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            **kwargs,
        )

    def _check(self, done: subprocess.CompletedProcess[str], what: str) -> None:
        if done.returncode != 0:
            log = self.data.parent / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            msg = f"{what} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}"
            raise ClusterError(msg + (f"\nserver log:\n{tail}" if tail else ""))

    def _make(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="contextchef-pg-"))
        if self.user is not None:
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
        secret = self.folder / "password"
        secret.write_text(self.password + "\n", encoding="utf-8")
        if self.user is not None:
            os.chown(secret, self.user.pw_uid, self.user.pw_gid)
        secret.chmod(0o600)
        initdb = self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            SUPERUSER,
            "--pwfile",
            str(secret),
            "--auth",
            "scram-sha-256",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",  # a throwaway cluster need not survive a power cut
        )
        secret.unlink()
        self._check(initdb, "initdb")
        # Appending keeps the files owned by the cluster's user. Later settings win.
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(
                "\n# contextchef tests: TCP on 127.0.0.1 only, no Unix socket, no durability.\n"
                "listen_addresses = '127.0.0.1'\n"
                "unix_socket_directories = ''\n"
                "fsync = off\n"
                "synchronous_commit = off\n"
                "full_page_writes = off\n"
                "shared_buffers = 32MB\n"
            )
        (self.data / "pg_hba.conf").write_text(
            "# contextchef tests: password logins over TCP from 127.0.0.1, nothing else.\n"
            "host all all 127.0.0.1/32 scram-sha-256\n",
            encoding="utf-8",
        )

    def _start(self) -> None:
        for attempt in range(1, START_ATTEMPTS + 1):
            self.port = _free_port()
            started = self._run(
                "pg_ctl",
                "--pgdata",
                str(self.data),
                "--log",
                str(self.data.parent / "server.log"),
                "--options",
                f"-p {self.port}",
                "--wait",
                "--timeout",
                "60",
                "start",
            )
            if started.returncode == 0:
                return
            if attempt == START_ATTEMPTS:
                self._check(started, "pg_ctl start")

    def start(self) -> str:
        """Make and start the cluster; returns its URI. Cleans up after itself on failure."""
        try:
            self._make()
            self._start()
        except BaseException:
            self.stop()
            raise
        return self.uri

    def stop(self) -> None:
        """Stop the server (if it runs) and delete the folder; safe to call twice."""
        if self.folder is None:
            return
        if (self.data / "postmaster.pid").exists():
            stopped = self._run("pg_ctl", "--pgdata", str(self.data), "--mode", "fast", "stop")
            if stopped.returncode != 0:
                self._kill()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def _kill(self) -> None:
        """Last resort when `pg_ctl stop` fails: signal the postmaster from its pid file."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGQUIT)

    def __enter__(self) -> ThrowawayCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def postgres_for_tests() -> Iterator[PostgresServer]:
    """The PostgreSQL server of a test session (see the module docstring)."""
    uri = os.environ.get(ENV_URI)
    if uri:
        yield PostgresServer(uri, f"the server named by {ENV_URI}")
        return
    bindir = find_bindir()
    if bindir is None:
        yield PostgresServer(
            None,
            f"no PostgreSQL server: {ENV_URI} is not set and no initdb/pg_ctl is installed "
            "(`make test` installs Debian's postgresql package when run as root)",
        )
        return
    try:
        cluster = ThrowawayCluster(bindir)
        cluster.start()
    except (ClusterError, OSError, subprocess.SubprocessError) as exc:
        yield PostgresServer(None, f"no PostgreSQL server: the throwaway cluster failed: {exc}")
        return
    try:
        yield PostgresServer(cluster.uri, cluster.describe())
    finally:
        cluster.stop()


# ---- throwaway databases ---------------------------------------------------------------------


def create_database(base_uri: str, prefix: str = "contextchef_test") -> str:
    """Create an empty database with a random name on the server; returns its URI."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base_uri, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base_uri.rsplit("/", 1)[0] + "/" + name


def drop_database(base_uri: str, uri: str) -> None:
    """Drop the database `create_database` made, closing its connections first."""
    import psycopg

    name = uri.rsplit("/", 1)[1]
    with psycopg.connect(base_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> int:
    """Serve a throwaway cluster until interrupted; print its URI first."""
    bindir = find_bindir()
    if bindir is None:
        print("No initdb/pg_ctl found: install PostgreSQL first.", file=sys.stderr)
        return 1
    with ThrowawayCluster(bindir) as cluster:
        print(f"export {ENV_URI}='{cluster.uri}'", flush=True)
        print(f"# {cluster.describe()}; Ctrl-C stops it.", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.signal(signal.SIGTERM, signal.default_int_handler)
            signal.pause()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
