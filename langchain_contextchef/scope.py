"""Scopes: the namespace prefix under which one tenant's memory lives.

A scope is a tuple of namespace labels, some of which may be templates such as
`("users", "{user_id}")`. Templates are filled at run time from LangGraph's runtime context or
from `config["configurable"]`. On LangGraph Server, `{langgraph_auth_user_id}` is the identity
of the user the server's custom auth authenticated, and `{langgraph_auth_user.FIELD}` one field
of that user (e.g. `{langgraph_auth_user.org_id}`); those two are read only from the run's
config, where the server puts them and a client cannot. Every way of getting this wrong fails closed, before anything
is read or written, with an error that says what to write instead:

* a string is never taken for a scope: `"users/{user_id}"` or `"{user_id}"` (a tuple missing
  its comma) would otherwise be split into characters, leaving every tenant in one namespace;
* a brace that is not part of a complete template (`"{user_id"`, `"user}"`) is refused;
* a tenant value must be a non-empty string without surrounding whitespace: `1` and `"1"`, or
  `True` and `"True"`, must not name the same tenant by accident, and a blank id is missing.

Example:
    ```python
    import pytest
    from langchain_contextchef.errors import ScopeError
    from langchain_contextchef.scope import resolve_scope

    config = {"configurable": {"user_id": "alice@example.com"}}
    assert resolve_scope(("users", "{user_id}"), config) == ("users", "alice@example%2Ecom")
    with pytest.raises(TypeError, match="Write scope="):
        resolve_scope("users/{user_id}", config)
    with pytest.raises(ScopeError, match="user_id"):
        resolve_scope(("users", "{user_id}"), {"configurable": {"user_id": 42}})
    ```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any, TypeAlias

from langchain_core.runnables import RunnableConfig

from langchain_contextchef.errors import ScopeError

__all__ = [
    "Scope",
    "check_resolved_scope",
    "check_scope",
    "encode_label",
    "resolve_scope",
    "template_fields",
]

Scope: TypeAlias = tuple[str, ...] | list[str]
"""A namespace prefix, possibly with `{field}` templates: a tuple (or list) of labels, never a
string."""

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}")
"""A template: `{name}`, or `{name.field}` for one field of a value (the server's auth user)."""

_AUTH_PREFIX = "langgraph_auth_"
"""Names LangGraph Server sets in `config["configurable"]` for the authenticated user."""


def _labels(scope: object) -> tuple[str, ...]:
    """The scope as a tuple of labels, refusing a string and anything that is not a sequence."""
    if isinstance(scope, str):
        parts = tuple(part for part in scope.split("/") if part) or (scope,)
        msg = (
            f"A scope is a tuple of namespace labels, not the string {scope!r}: a string "
            f"would be split into single characters. Write scope={parts!r}."
        )
        raise TypeError(msg)
    if not isinstance(scope, tuple | list):
        msg = (
            f"A scope is a tuple of namespace labels such as ('users', '{{user_id}}'), "
            f"got {type(scope).__name__}."
        )
        raise TypeError(msg)
    return tuple(scope)


def _check_label(label: object, scope: tuple[Any, ...]) -> str:
    if not isinstance(label, str) or not label:
        msg = f"Scope labels must be non-empty strings, got {label!r} in {scope!r}."
        raise ScopeError(msg)
    if "{" in _FIELD.sub("", label) or "}" in _FIELD.sub("", label):
        msg = (
            f"The scope label {label!r} has a brace that is not part of a template. A template "
            "is a field name in braces, e.g. '{user_id}'; it is filled at run time."
        )
        raise ScopeError(msg)
    if len(_FIELD.findall(label)) > 1:
        # "{org}-{user}" gives "a-b-c" for org "a-b"/user "c" and for org "a"/user "b-c":
        # two tenants in one namespace. One template per label keeps the filling injective.
        msg = (
            f"The scope label {label!r} holds several templates, which lets two different "
            "tenants fill it to the same namespace. Give each template its own label, e.g. "
            '("orgs", "{org}", "users", "{user_id}").'
        )
        raise ScopeError(msg)
    return label


def template_fields(scope: Scope) -> list[str]:
    """Return the template field names a scope needs, in order of appearance."""
    found: list[str] = []
    for label in _labels(scope):
        for name in _FIELD.findall(label):
            if name not in found:
                found.append(name)
    return found


def encode_label(value: str) -> str:
    """Make a value safe as a LangGraph namespace label, injectively.

    LangGraph forbids `.` in labels (e-mail addresses and domains are common tenant ids), so
    `%` and `.` are percent-encoded; every other character is kept.
    """
    return value.replace("%", "%25").replace(".", "%2E")


def _lookup(source: Any, name: str) -> tuple[bool, Any]:
    if source is None:
        return False, None
    if isinstance(source, Mapping):
        return (name in source, source.get(name))
    if is_dataclass(source) and not isinstance(source, type):
        names = {f.name for f in fields(source)}
        return (name in names, getattr(source, name, None))
    if hasattr(source, name):
        return True, getattr(source, name)
    if hasattr(source, "__getitem__"):
        # LangGraph Server's auth user answers both `user.field` and `user["field"]`.
        try:
            return True, source[name]
        except (KeyError, IndexError, TypeError):
            return False, None
    return False, None


def _value_of(name: str, context: Any, configurable: Mapping[str, Any]) -> Any:
    """The value a template names: `name`, or `name.field` for one field of that value."""
    head, _, field_name = name.partition(".")
    present, value = (False, None)
    if not head.startswith(_AUTH_PREFIX):
        # The server's auth values come only from the run's config, where a client cannot
        # put them; a client-supplied runtime context never stands in for them.
        present, value = _lookup(context, head)
    if not present or value is None:
        present, value = _lookup(configurable, head)
    if not present or value is None:
        return None
    if field_name:
        present, value = _lookup(value, field_name)
        return value if present else None
    return value


def _tenant_value(name: str, value: Any, scope: tuple[str, ...]) -> str:
    if name.startswith(_AUTH_PREFIX):
        where = (
            'by running the graph on LangGraph Server with custom auth (the "auth" entry of '
            "langgraph.json), which puts the authenticated user in the run's config; outside "
            f'the server, pass config["configurable"]["{name.partition(".")[0]}"]. Memory is '
            "never read or written without it."
        )
    else:
        where = (
            f'in the LangGraph runtime context or in config["configurable"]["{name}"]; memory '
            "is never read or written without it."
        )
    if value is None or value == "":
        msg = f"The memory scope {scope!r} needs {name!r}, but it is missing. Pass it {where}"
        raise ScopeError(msg)
    if not isinstance(value, str):
        msg = (
            f"The memory scope {scope!r} needs {name!r} as a string, got "
            f"{type(value).__name__} {value!r}. Tenant ids are compared as text, so {value!r} "
            f"and {str(value)!r} must not silently be the same tenant: pass the string you mean."
        )
        raise ScopeError(msg)
    if not value.strip() or value != value.strip():
        msg = (
            f"The memory scope {scope!r} got {value!r} for {name!r}: a tenant id may not be "
            "blank or start or end with whitespace, which would make look-alike tenants. "
            f"Pass it {where}"
        )
        raise ScopeError(msg)
    return value


def check_scope(scope: Scope) -> tuple[str, ...]:
    """Validate a scope when it is configured, before any run fills it.

    Returns:
        The scope as a tuple.

    Raises:
        TypeError: For a string or another non-sequence (the message shows the tuple to write).
        ScopeError: For a label that is not a non-empty string, holds a stray brace, or holds
            several templates.
    """
    labels = _labels(scope)
    for label in labels:
        _check_label(label, labels)
    return labels


def check_resolved_scope(scope: Scope) -> tuple[str, ...]:
    """Validate a scope that should already be filled (what `Memory` takes).

    Raises:
        TypeError: For a string or another non-sequence.
        ScopeError: For a bad label, or one that still holds a template or a brace: fill
            templates with `resolve_scope` (or use `ContextChef.get_memory`).
    """
    labels = check_scope(scope)
    for label in labels:
        if "{" in label or "}" in label:
            msg = (
                f"Memory takes a resolved scope, but the label {label!r} in {labels!r} still "
                "holds a template. Fill it with resolve_scope(scope, config) or get the memory "
                "from ContextChef.get_memory(config)."
            )
            raise ScopeError(msg)
    return labels


def resolve_scope(
    scope: Scope,
    config: RunnableConfig | Mapping[str, Any] | None = None,
    context: Any = None,
) -> tuple[str, ...]:
    """Fill a scope's templates and return the concrete namespace prefix.

    Values are looked up first in `context` (LangGraph's runtime context: a dataclass, a
    pydantic model or a mapping), then in `config["configurable"]`. Each must be a non-empty
    string without surrounding whitespace. On LangGraph Server, `{langgraph_auth_user_id}`
    names the authenticated user and `{langgraph_auth_user.FIELD}` a field of that user; both
    are read from `config["configurable"]` only, where the server sets them.

    Args:
        scope: The scope, e.g. `("users", "{user_id}")`.
        config: A LangChain `RunnableConfig`.
        context: The LangGraph runtime context, if any.

    Returns:
        The namespace prefix with every template filled.

    Raises:
        TypeError: If `scope` is a string or not a sequence of labels.
        ScopeError: If a label is malformed, or a template field is missing, `None`, empty,
            not a string, or padded with whitespace. The message names the field.
    """
    labels = check_scope(scope)
    configurable: Mapping[str, Any] = (config or {}).get("configurable") or {}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return encode_label(_tenant_value(name, _value_of(name, context, configurable), labels))

    return tuple(_FIELD.sub(fill, label) for label in labels)
