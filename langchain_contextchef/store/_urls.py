"""Stores named by a URL: one parser for `ContextChef(store="...")` and the CLI's `--store`.

Two forms open LangGraph's own stores:

* `postgresql://user:password@host:5432/db` (or `postgres://`): `PostgresStore`, the
  `postgres` extra;
* `sqlite:///relative/path.db` or `sqlite:////absolute/path.db`: `SqliteStore`, the `sqlite`
  extra. The path follows SQLAlchemy's convention: what comes after the third slash is the
  path, so a fourth slash makes it absolute.

Any other `scheme://...` text is refused: it is never taken for a folder, so no directory is
ever named after a URL (and its password). Messages never repeat a password.
"""

from __future__ import annotations

import importlib
import re
import sqlite3
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from langchain_contextchef.errors import ContextChefError

__all__ = ["POSTGRES_SCHEMES", "SQLITE_PREFIX", "StoreUrlError", "is_store_url", "open_store_url"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""The prefixes that name a PostgreSQL database."""

SQLITE_PREFIX = "sqlite:///"
"""The prefix that names a SQLite file (`sqlite:///rel.db`, `sqlite:////abs.db`)."""

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
_USERINFO = re.compile(r"(://)[^/@]*@")


class StoreUrlError(ContextChefError, ValueError):
    """A store URL that cannot be opened: the message says why and what to pass instead."""


def is_store_url(location: str) -> bool:
    """Whether `location` is written as a URL (`scheme://...`) rather than a folder path.

    Example:
        ```python
        from langchain_contextchef.store import is_store_url

        assert is_store_url("sqlite:///memory.db") and is_store_url("redis://host")
        assert not is_store_url("./.context") and not is_store_url("C:/data")
        ```
    """
    return bool(_URL.match(location.strip()))


def redacted(location: str) -> str:
    """`location` with any `user:password@` part replaced, safe to show in a message."""
    return _USERINFO.sub(r"\1***@", location)


def _module(name: str, extra: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        msg = f'This store needs the {extra} extra: pip install "langchain-contextchef[{extra}]".'
        raise StoreUrlError(msg) from exc


def sqlite_path(location: str) -> Path:
    """The file a `sqlite:///` URL names (SQLAlchemy's convention), before any check.

    Example:
        ```python
        from pathlib import Path
        from langchain_contextchef.store._urls import sqlite_path

        assert sqlite_path("sqlite:///data/memory.db") == Path("data/memory.db")
        assert sqlite_path("sqlite:////srv/memory.db") == Path("/srv/memory.db")
        ```
    """
    text = location.strip()
    rest = text[len(SQLITE_PREFIX) :] if text.startswith(SQLITE_PREFIX) else ""
    if not rest or "?" in rest:
        msg = (
            f"Cannot open {redacted(location)!r}: write sqlite:///relative/path.db or "
            "sqlite:////absolute/path.db (a file path after the third slash, no query)."
        )
        raise StoreUrlError(msg)
    return Path(rest)


def _open_sqlite(location: str) -> BaseStore:
    sqlite = _module("langgraph.store.sqlite", "sqlite")
    path = sqlite_path(location)
    if not path.parent.is_dir():
        msg = (
            f"Cannot open {redacted(location)}: the folder {str(path.parent)!r} does not exist "
            f"(sqlite:/// is followed by a relative path, sqlite://// by an absolute one)."
        )
        raise StoreUrlError(msg)
    if path.is_dir():
        msg = f"Cannot open {redacted(location)}: {str(path)!r} is a folder, not a SQLite file."
        raise StoreUrlError(msg)
    try:
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        store: BaseStore = sqlite.SqliteStore(connection)
        store.setup()  # type: ignore[attr-defined]
    except sqlite3.Error as exc:
        msg = f"Cannot open {redacted(location)}: {exc} (is {str(path)!r} a SQLite database you can write?)."
        raise StoreUrlError(msg) from exc
    return store


def _open_postgres(location: str) -> BaseStore:
    psycopg = _module("psycopg", "postgres")
    rows = _module("psycopg.rows", "postgres")
    postgres = _module("langgraph.store.postgres", "postgres")
    try:
        conn = psycopg.connect(
            location.strip(), autocommit=True, prepare_threshold=0, row_factory=rows.dict_row
        )
    except psycopg.Error as exc:
        detail = str(exc).strip().replace(location, redacted(location))
        msg = f"Cannot connect to the PostgreSQL store {redacted(location)}: {detail}"
        raise StoreUrlError(msg) from exc
    store: BaseStore = postgres.PostgresStore(conn)
    store.setup()  # type: ignore[attr-defined]
    return store


def open_store_url(location: str) -> BaseStore:
    """Open the database a store URL names, creating LangGraph's tables if needed.

    Args:
        location: `postgresql://...`, `postgres://...` or `sqlite:///...`.

    Returns:
        LangGraph's `PostgresStore` or `SqliteStore` on a connection of its own.

    Raises:
        StoreUrlError: For another scheme, a path that cannot be opened, a missing extra or
            a failed connection (the password is never shown).

    Example:
        ```python
        import os, tempfile
        from langchain_contextchef.store import open_store_url

        folder = tempfile.mkdtemp()
        store = open_store_url("sqlite:///" + os.path.join(folder, "memory.db"))
        store.put(("docs",), "a", {"text": "hello"})
        assert store.get(("docs",), "a").value == {"text": "hello"}
        ```
    """
    text = location.strip()
    if text.startswith(POSTGRES_SCHEMES):
        return _open_postgres(text)
    if text.startswith(SQLITE_PREFIX):
        return _open_sqlite(text)
    if text.lower().startswith("sqlite:"):
        sqlite_path(text)  # raises, saying how to write the path
    scheme = text.split("://", 1)[0]
    msg = (
        f"Cannot open a store from {redacted(location)!r}: the scheme {scheme!r} is not one "
        "this package opens. Use postgresql://user:password@host/db, sqlite:///path.db, a "
        "folder path for a FileSystemStore, or pass a LangGraph BaseStore you built."
    )
    raise StoreUrlError(msg)
