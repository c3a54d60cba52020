"""Retention, the audit trail and encryption at rest: the shared `PrivacySuite` on
`InMemoryStore`, plus the policy checks that need no store."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef.encryption import EncryptedStore, generate_key
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.retention import RetentionPolicy
from tests.support.suites.privacy import PrivacySuite


class TestPrivacy(PrivacySuite):
    """The privacy suite on `InMemoryStore`."""


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"default": timedelta(0)}, ValueError),
        ({"max_age": {"event": 30}}, ValueError),
        ({"max_age": [("event", timedelta(days=1))]}, TypeError),
        ({"history_max_age": timedelta(days=-1)}, ValueError),
    ],
)
def test_a_retention_policy_refuses_nonsense(kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        RetentionPolicy(**kwargs)  # type: ignore[arg-type]


def test_a_malformed_key_is_refused_before_anything_is_stored() -> None:
    with pytest.raises(ValueError, match="not a valid encryption key"):
        EncryptedStore(InMemoryStore(), "not-a-key")
    with pytest.raises(ValueError, match="at least one key"):
        EncryptedStore(InMemoryStore(), [])


def test_filters_on_encrypted_fields_are_refused_with_the_way_out() -> None:
    store = EncryptedStore(InMemoryStore(), generate_key())
    store.put(("ns",), "k", {"key": "k", "text": "x"})
    assert [i.key for i in store.search(("ns",), filter={"key": "k"})] == ["k"]
    with pytest.raises(ValueError, match="clear_fields"):
        store.search(("ns",), filter={"text": "x"})


def test_an_encrypted_store_reports_no_index_and_never_embeds() -> None:
    memory = Memory(EncryptedStore(InMemoryStore(), generate_key()))
    assert memory.context.indexed is False


def test_plaintext_written_before_encryption_is_refused_until_rotate_seals_it() -> None:
    raw = InMemoryStore()
    Memory(raw).set("tone", "PLAIN-dry")
    key = generate_key()
    sealed = EncryptedStore(raw, key)
    # An unsealed item is never served: it reads as damaged until sealed on purpose.
    with pytest.raises(DamagedEntryError):
        Memory(sealed).get("tone")
    assert sealed.rotate() >= 2
    assert "PLAIN" not in str([i.value for i in raw.search((), limit=100)])
    assert Memory(EncryptedStore(raw, key)).get("tone") == "PLAIN-dry"


def test_purge_without_retention_sweeps_only_what_expired() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig())
    memory.set("tone", "dry")
    memory.set("flash", "gone", ttl={"ms": 1})
    memory.set("later", "stays", ttl=timedelta(days=1))
    time.sleep(0.01)
    report = memory.purge()
    assert report.removed == ("flash",)
    assert [e.key for e in memory.list()] == ["tone", "later"]


async def test_the_cli_and_purge_store_see_the_same_scopes() -> None:
    # One definition of a scope's namespaces: a scope that holds only notes, or only a clock,
    # is listed by `contextchef scopes` and visited by `purge_store` alike.
    from langchain_contextchef.cli._access import store_scopes
    from langchain_contextchef.memory import alist_scopes, list_scopes, purge_store

    store = InMemoryStore()
    Memory(store, scope=("users", "ada")).set("tone", "dry")
    store.put(("users", "bob", "notes"), "todo.md", {"content": "call the bank"})
    store.put(("users", "cy", "memory_meta"), "clock", {"turn": 3})  # the clock alone
    store.put(("elsewhere",), "k", {"v": 1})  # not a scope: no memory label under it
    listed = list_scopes(store)
    assert listed == [("users", "ada"), ("users", "bob"), ("users", "cy")]
    assert store_scopes(store) == listed
    assert await alist_scopes(store, ("users",)) == listed
    assert purge_store(store, MemoryConfig()).scopes == len(listed)
