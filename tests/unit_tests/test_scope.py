"""Scopes: templates filled from config or runtime context, failing closed when a value is missing.

The tests that keep scopes apart in a store are the shared `ScopeSuite`, run here on
`InMemoryStore`.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from langchain_contextchef.errors import ContextChefError, ScopeError
from langchain_contextchef.scope import encode_label, resolve_scope, template_fields
from tests.support.suites.scope import USERS, Ctx, ScopeSuite


class TestScope(ScopeSuite):
    """The scope suite on the unit tests' `store`, an `InMemoryStore`."""


class PydanticCtx(BaseModel):
    user_id: str


def test_template_fields_lists_each_field_once_in_order() -> None:
    scope = ("orgs", "{org}", "users", "{user_id}", "{org}-{project}")
    assert template_fields(scope) == ["org", "user_id", "project"]
    assert template_fields(("global",)) == []


def test_fills_from_config_configurable() -> None:
    config = {"configurable": {"user_id": "alice"}}
    assert resolve_scope(USERS, config) == ("users", "alice")


def test_fills_from_a_runtime_context_dataclass() -> None:
    assert resolve_scope(USERS, None, Ctx(user_id="bob")) == ("users", "bob")


def test_fills_from_a_runtime_context_dict() -> None:
    assert resolve_scope(USERS, context={"user_id": "carol"}) == ("users", "carol")


def test_fills_from_a_pydantic_runtime_context() -> None:
    assert resolve_scope(USERS, context=PydanticCtx(user_id="dave")) == ("users", "dave")


def test_runtime_context_wins_over_configurable() -> None:
    config = {"configurable": {"user_id": "from-config"}}
    assert resolve_scope(USERS, config, {"user_id": "from-context"}) == ("users", "from-context")


def test_a_none_in_the_context_falls_back_to_configurable() -> None:
    config = {"configurable": {"user_id": "from-config"}}
    assert resolve_scope(USERS, config, Ctx(user_id=None)) == ("users", "from-config")


def test_templates_inside_a_label_and_several_fields() -> None:
    scope = ("org-{org}", "{user_id}")
    assert resolve_scope(scope, context=Ctx(user_id="u1", org="acme")) == ("org-acme", "u1")


def test_a_label_with_two_templates_is_refused_because_it_can_collide() -> None:
    scope = ("t-{org}-{user}",)
    for org, user in (("a-b", "c"), ("a", "b-c")):
        with pytest.raises(ScopeError, match="several templates"):
            resolve_scope(scope, {"configurable": {"org": org, "user": user}})


def test_a_scope_without_templates_needs_nothing() -> None:
    assert resolve_scope(("shared", "project")) == ("shared", "project")


@pytest.mark.parametrize(
    ("config", "context"),
    [
        (None, None),
        ({}, None),
        ({"configurable": {}}, None),
        ({"configurable": {"other": "x"}}, {"other": "y"}),
        ({"configurable": {"user_id": None}}, None),
        ({"configurable": {"user_id": ""}}, None),
        (None, Ctx(user_id=None)),
        (None, Ctx(user_id="")),
    ],
)
def test_a_missing_value_raises_scope_error_naming_the_field(config: Any, context: Any) -> None:
    with pytest.raises(ScopeError) as caught:
        resolve_scope(USERS, config, context)
    message = str(caught.value)
    assert "'user_id'" in message
    assert 'config["configurable"]["user_id"]' in message
    # It is both ours and a KeyError, so callers can catch either.
    assert isinstance(caught.value, ContextChefError)
    assert isinstance(caught.value, KeyError)


def test_the_missing_field_is_named_even_when_others_are_present() -> None:
    scope = ("orgs", "{org}", "users", "{user_id}")
    with pytest.raises(ScopeError, match="'user_id'"):
        resolve_scope(scope, context=Ctx(org="acme"))


@pytest.mark.parametrize("given", [42, 0, 3.5, False, True, b"alice", ["alice"]])
def test_non_string_ids_are_refused_naming_the_field(given: Any) -> None:
    # 1 and "1", or True and "True", must never silently be the same tenant.
    with pytest.raises(ScopeError, match="'user_id' as a string") as caught:
        resolve_scope(USERS, {"configurable": {"user_id": given}})
    assert type(given).__name__ in str(caught.value)


@pytest.mark.parametrize("given", [" ", "\t", " alice", "alice "])
def test_blank_or_padded_ids_are_refused(given: str) -> None:
    with pytest.raises(ScopeError, match="'user_id'"):
        resolve_scope(USERS, {"configurable": {"user_id": given}})


def test_dots_in_ids_are_encoded() -> None:
    config = {"configurable": {"user_id": "alice@example.com"}}
    assert resolve_scope(USERS, config) == ("users", "alice@example%2Ecom")


def test_encoding_is_injective() -> None:
    # A literal "%2E" in an id must not collide with an encoded ".".
    assert encode_label("a.b") != encode_label("a%2Eb")
    assert encode_label("a%2Eb") == "a%252Eb"
    assert encode_label("plain-id_1") == "plain-id_1"


@pytest.mark.parametrize("bad", ["", None, 5])
def test_bad_scope_labels_raise(bad: Any) -> None:
    with pytest.raises(ScopeError, match="non-empty strings"):
        resolve_scope(("users", bad))


class _ServerUser:
    """Like LangGraph Server's auth user: fields by attribute and by key."""

    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    @property
    def identity(self) -> str:
        return str(self._fields["identity"])


def _server_config(user: _ServerUser, **configurable: Any) -> dict[str, Any]:
    """A run's config as LangGraph Server fills it for an authenticated request."""
    return {
        "configurable": {
            **configurable,
            "langgraph_auth_user": user,
            "langgraph_auth_user_id": user.identity,
        }
    }


def test_the_server_authenticated_user_fills_a_scope() -> None:
    config = _server_config(_ServerUser(identity="alice", org_id="acme.io"), project="p1")
    scope = ("orgs", "{langgraph_auth_user.org_id}", "users", "{langgraph_auth_user_id}")
    assert resolve_scope(scope, config) == ("orgs", "acme%2Eio", "users", "alice")
    # Server values and configurable values mix in one scope.
    mixed = ("users", "{langgraph_auth_user.identity}", "projects", "{project}")
    assert resolve_scope(mixed, config) == ("users", "alice", "projects", "p1")
    assert template_fields(scope) == ["langgraph_auth_user.org_id", "langgraph_auth_user_id"]


def test_a_runtime_context_cannot_stand_in_for_the_server_user() -> None:
    # A client may send any runtime context; the authenticated user comes from the config.
    config = _server_config(_ServerUser(identity="alice"))
    context = {"langgraph_auth_user_id": "bob", "langgraph_auth_user": {"identity": "bob"}}
    scope = ("users", "{langgraph_auth_user_id}", "{langgraph_auth_user.identity}")
    assert resolve_scope(scope, config, context) == ("users", "alice", "alice")
    with pytest.raises(ScopeError, match="custom auth"):
        resolve_scope(("users", "{langgraph_auth_user_id}"), {}, context)


def test_a_missing_field_of_the_server_user_fails_closed() -> None:
    config = _server_config(_ServerUser(identity="alice"))
    with pytest.raises(ScopeError, match=r"'langgraph_auth_user\.org_id'.*missing"):
        resolve_scope(("orgs", "{langgraph_auth_user.org_id}"), config)
    with pytest.raises(ScopeError, match="brace"):
        resolve_scope(("orgs", "{langgraph_auth_user.org.id}"), config)
