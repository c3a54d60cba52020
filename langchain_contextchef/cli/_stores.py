"""Which store `--store` names: a folder (`FileSystemStore`), a SQLite file, or PostgreSQL.

`--store postgresql://user:pw@host/db` opens LangGraph's `PostgresStore` (the `postgres`
extra), `--store sqlite:///path/store.db` its `SqliteStore` (the `sqlite` extra); anything
else is a store folder. When `CONTEXTCHEF_ENCRYPTION_KEYS` is set (comma-separated keys, the
first one encrypting), the store is opened through `EncryptedStore`, so every command reads
and writes an encrypted store as the application does.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from langchain_contextchef.cli._options import CliError
from langchain_contextchef.encryption import EncryptedStore

__all__ = ["KEYS_ENV", "is_uri", "open_uri", "with_keys"]

KEYS_ENV = "CONTEXTCHEF_ENCRYPTION_KEYS"
"""The environment variable holding the encryption keys, comma-separated, newest first."""

_POSTGRES = ("postgresql://", "postgres://")
_SQLITE = "sqlite:///"


def is_uri(location: str) -> bool:
    """Whether `--store` names a database rather than a folder."""
    return location.startswith((*_POSTGRES, _SQLITE))


def _module(name: str, extra: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        msg = f'This store needs the {extra} extra: pip install "langchain-contextchef[{extra}]".'
        raise CliError(msg) from exc


def open_uri(location: str) -> BaseStore:
    """Open the database `location` names and create LangGraph's tables if needed."""
    if location.startswith(_POSTGRES):
        psycopg = _module("psycopg", "postgres")
        rows = _module("psycopg.rows", "postgres")
        postgres = _module("langgraph.store.postgres", "postgres")
        try:
            conn = psycopg.connect(
                location, autocommit=True, prepare_threshold=0, row_factory=rows.dict_row
            )
        except psycopg.OperationalError as exc:
            msg = f"Cannot connect to the PostgreSQL store: {str(exc).strip()}"
            raise CliError(msg) from exc
        store: BaseStore = postgres.PostgresStore(conn)
    else:
        sqlite = _module("langgraph.store.sqlite", "sqlite")
        path = Path(location.removeprefix(_SQLITE))
        if not path.parent.is_dir():
            msg = f"Cannot open {location}: the folder {path.parent} does not exist."
            raise CliError(msg)
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        store = sqlite.SqliteStore(connection)
    store.setup()  # type: ignore[attr-defined]
    return store


def with_keys(store: BaseStore) -> BaseStore:
    """`store`, through `EncryptedStore` when `CONTEXTCHEF_ENCRYPTION_KEYS` is set."""
    text = os.environ.get(KEYS_ENV, "").strip()
    if not text:
        return store
    keys = [key.strip() for key in text.split(",") if key.strip()]
    try:
        return EncryptedStore(store, keys)
    except ValueError as exc:
        msg = f"{KEYS_ENV}: {exc}"
        raise CliError(msg) from exc
