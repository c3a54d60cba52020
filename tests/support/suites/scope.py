"""The scope suite: resolved scopes keep tenants apart on the `store` fixture.

Subclass `ScopeSuite` in a test module whose fixtures provide `store`: the unit tests run it on
`InMemoryStore`, the integration tests on SQLite, the file system and PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langgraph.store.base import BaseStore

from langchain_contextchef.memory import Memory
from langchain_contextchef.scope import resolve_scope

USERS = ("users", "{user_id}")


@dataclass
class Ctx:
    """A LangGraph runtime context as a dataclass."""

    user_id: Any = None
    org: Any = None


class ScopeSuite:
    """Scoped `Memory` instances against the `store` fixture."""

    def test_a_resolved_scope_with_dotted_ids_works_on_every_store(self, store: BaseStore) -> None:
        scope = resolve_scope(USERS, {"configurable": {"user_id": "alice@example.com"}})
        memory = Memory(store, scope=scope)
        memory.set("lang", "Python")
        assert memory.get("lang") == "Python"
        assert memory.read_for_compile().turn == 1
        # The entry lives under the tenant's own namespace.
        item = store.get(("users", "alice@example%2Ecom", "memory"), "lang")
        assert item is not None
        assert item.value["value"] == "Python"

    def test_tenants_never_see_each_other(self, store: BaseStore) -> None:
        alice = Memory(store, scope=resolve_scope(USERS, context=Ctx(user_id="alice")))
        bob = Memory(store, scope=resolve_scope(USERS, context=Ctx(user_id="bob")))
        alice.set("secret", "alice's")
        bob.set("pet", "cat")
        assert alice.get("pet") is None
        assert bob.get("secret") is None
        assert [e.key for e in alice.list()] == ["secret"]
        assert [e.key for e in bob.read_for_compile().selected] == ["pet"]
        # Each tenant has its own turn clock.
        assert alice.turn == 0
        assert bob.turn == 1

    def test_a_parent_scope_does_not_read_a_child_scope(self, store: BaseStore) -> None:
        parent = Memory(store, scope=("users",))
        child = Memory(store, scope=("users", "memory"))
        child.set("k", "child")
        assert parent.list() == []
        assert parent.read_for_compile().selected == []
        assert [e.key for e in child.list()] == ["k"]
