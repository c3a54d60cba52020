"""Which store `--store` names: a folder (`FileSystemStore`), a SQLite file, or PostgreSQL.

`--store postgresql://user:pw@host/db` opens LangGraph's `PostgresStore` (the `postgres`
extra), `--store sqlite:///relative/store.db` or `sqlite:////absolute/store.db` its
`SqliteStore` (the `sqlite` extra; SQLAlchemy's convention: a fourth slash makes the path
absolute); any other `scheme://` text is refused; anything else is a store folder. The URL
forms are `langchain_contextchef.store.open_store_url`'s, the ones `ContextChef(store=...)`
accepts too. When `CONTEXTCHEF_ENCRYPTION_KEYS` is set (comma-separated keys, the first one
encrypting), the store is opened through `EncryptedStore`, so every command reads and writes
an encrypted store as the application does.
"""

from __future__ import annotations

import os

from langgraph.store.base import BaseStore

from langchain_contextchef.cli._options import CliError
from langchain_contextchef.encryption import EncryptedStore
from langchain_contextchef.store import StoreUrlError, is_store_url, open_store_url

__all__ = ["KEYS_ENV", "is_uri", "open_uri", "with_keys"]

KEYS_ENV = "CONTEXTCHEF_ENCRYPTION_KEYS"
"""The environment variable holding the encryption keys, comma-separated, newest first."""


def is_uri(location: str) -> bool:
    """Whether `--store` names a database (any `scheme://`) rather than a folder."""
    return is_store_url(location)


def open_uri(location: str) -> BaseStore:
    """Open the database `location` names and create LangGraph's tables if needed."""
    try:
        return open_store_url(location)
    except StoreUrlError as exc:
        raise CliError(str(exc)) from exc


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
