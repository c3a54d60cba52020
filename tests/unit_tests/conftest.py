"""Fixtures of the unit tests: every store is a fresh `InMemoryStore`.

The shared suites in `tests.support.suites` ask for `store`, `local_store`, `astore` or
`local_store_factory`; here each is LangGraph's `InMemoryStore` (no server, no files, one
process). The integration tests give the same suites the other backends
(`tests/integration_tests/backends/`). The `memory` parameter only names the backend in
test ids, as the integration ids do.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

UNIT_BACKEND = ["memory"]


@pytest.fixture(params=UNIT_BACKEND)
def store() -> BaseStore:
    """The store of the shared suites: an empty `InMemoryStore`."""
    return InMemoryStore()


@pytest.fixture(params=UNIT_BACKEND)
def local_store() -> BaseStore:
    """The store of the suites meant for server-less backends: an empty `InMemoryStore`."""
    return InMemoryStore()


@pytest.fixture(params=UNIT_BACKEND)
def astore() -> BaseStore:
    """The store of the async suites: an empty `InMemoryStore`."""
    return InMemoryStore()


@pytest.fixture(params=UNIT_BACKEND)
def local_store_factory() -> Callable[[], BaseStore]:
    """Makes a fresh, empty `InMemoryStore` on each call."""
    return InMemoryStore
