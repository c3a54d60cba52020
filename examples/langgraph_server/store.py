"""The store LangGraph Server loads through `"store": {"path": "./store.py:make_store"}`.

`CONTEXTCHEF_STORE` names it: a folder for `FileSystemStore` (the default, `.context`; right
for `langgraph dev` and one machine), or a `postgresql://` URL for `PostgresStore` (what a
deployment with several server processes uses). The server enters the context manager once
at start-up and closes it at shutdown; its store API (`client.store.*`) and every graph run
use the store it yields.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.store.base import BaseStore

from langchain_contextchef import FileSystemStore


@contextmanager
def make_store() -> Iterator[BaseStore]:
    """Open the store `CONTEXTCHEF_STORE` names, for as long as the server runs."""
    where = os.environ.get("CONTEXTCHEF_STORE") or ".context"
    if where.startswith(("postgresql://", "postgres://")):
        # pip install "langchain-contextchef[postgres]"
        from langgraph.store.postgres import PostgresStore  # noqa: PLC0415 (optional extra)

        with PostgresStore.from_conn_string(where) as store:
            store.setup()  # creates or migrates its tables; safe to run at every start
            yield store
    else:
        yield FileSystemStore(where)
