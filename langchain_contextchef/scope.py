"""Scopes: the namespace prefix under which one tenant's memory lives.

A scope is a tuple of namespace labels, some of which may be templates such as
`("users", "{user_id}")`. Templates are filled at run time from LangGraph's runtime context or
from `config["configurable"]`. A missing value raises `ScopeError`; it never falls back to a
shared namespace, so one user's memory cannot leak into another's.

Example:
    ```python
    from langchain_contextchef.scope import resolve_scope

    config = {"configurable": {"user_id": "alice@example.com"}}
    assert resolve_scope(("users", "{user_id}"), config) == ("users", "alice@example%2Ecom")
    ```
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig

from langchain_contextchef.errors import ScopeError

__all__ = ["Scope", "check_scope", "encode_label", "resolve_scope", "template_fields"]

Scope = Sequence[str]
"""A namespace prefix, possibly with `{field}` templates."""

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def template_fields(scope: Scope) -> list[str]:
    """Return the template field names a scope needs, in order of appearance."""
    found: list[str] = []
    for label in scope:
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
    return False, None


def resolve_scope(
    scope: Scope,
    config: RunnableConfig | Mapping[str, Any] | None = None,
    context: Any = None,
) -> tuple[str, ...]:
    """Fill a scope's templates and return the concrete namespace prefix.

    Values are looked up first in `context` (LangGraph's runtime context: a dataclass, a
    pydantic model or a mapping), then in `config["configurable"]`. Non-string values are
    converted with `str()`.

    Args:
        scope: The scope, e.g. `("users", "{user_id}")`.
        config: A LangChain `RunnableConfig`.
        context: The LangGraph runtime context, if any.

    Returns:
        The namespace prefix with every template filled.

    Raises:
        ScopeError: If a template field is missing, `None` or empty. The message names it.
    """
    labels: list[str] = []
    configurable: Mapping[str, Any] = (config or {}).get("configurable") or {}
    for label in scope:
        if not isinstance(label, str) or not label:
            msg = f"Scope labels must be non-empty strings, got {label!r} in {tuple(scope)!r}."
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

        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            present, value = _lookup(context, name)
            if not present or value is None:
                present, value = _lookup(configurable, name)
            if not present or value is None or str(value) == "":
                msg = (
                    f"The memory scope {tuple(scope)!r} needs {name!r}, but it is missing. Pass it "
                    f'in the LangGraph runtime context or in config["configurable"]["{name}"]; '
                    "memory is never read or written without it."
                )
                raise ScopeError(msg)
            return encode_label(str(value))

        labels.append(_FIELD.sub(fill, label))
    return tuple(labels)


def check_scope(scope: Scope) -> tuple[str, ...]:
    """Validate a scope when it is configured, before any run fills it.

    Every label and template is checked as `resolve_scope` would check it at run time, with
    a stand-in value for each template field, so a malformed scope fails at construction.

    Returns:
        The scope as a tuple.

    Raises:
        ScopeError: For a label that is not a non-empty string or holds several templates.
    """
    labels = tuple(scope)
    resolve_scope(labels, {"configurable": dict.fromkeys(template_fields(labels), "x")})
    return labels
