"""What the `contextchef` options mean: the default store, `--scope` labels and `--ttl` values.

Kept apart from the parser so that every command module can raise `CliError` and read the
defaults without importing the parser, which imports the commands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.ttl import MAX_DURATION, TTL

DEFAULT_STORE = ".context"
"""The store folder used when `--store` is not given."""

PROG = "contextchef"
SCOPES_SHOWN = 10  # in the message about a missing scope; `contextchef scopes` lists all
SLASH = "%2F"
"""How `--scope` writes a '/' that belongs to a label (a tenant id holding '/')."""
_SLASH_ESCAPE = re.compile("%2F", re.IGNORECASE)
_TTL_SPAN = re.compile(r"(\d+)(ms|s|m|h|d)")
_SPAN_UNITS = {"ms": "milliseconds", "s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


class CliError(ContextChefError):
    """A mistake in how the command was called; printed without a traceback, exit code 2."""


def parse_scope(values: Sequence[str] | None) -> tuple[str, ...]:
    """Turn `--scope` options into a namespace prefix.

    Each value may hold several labels separated by `/`; repeated options are joined in order.
    A `/` inside one label (a tenant id such as `team/ada`) is written `%2F`, as the
    `scopes` command prints it.

    Args:
        values: The `--scope` values as given, or `None` for the root scope.

    Returns:
        The labels, e.g. `("users", "alice")`.

    Raises:
        CliError: For an empty label, or a label LangGraph cannot use as a namespace label.

    Example:
        ```python
        from langchain_contextchef.cli import parse_scope

        assert parse_scope(["users/alice", "chat"]) == ("users", "alice", "chat")
        assert parse_scope(["users/team%2Fada"]) == ("users", "team/ada")
        assert parse_scope(None) == ()
        ```
    """
    labels: list[str] = []
    for value in values or []:
        for label in value.split("/"):
            if not label:
                msg = f"--scope {value!r} has an empty label; write labels as a/b, no empty parts."
                raise CliError(msg)
            if "." in label:
                fixed = label.replace("%", "%25").replace(".", "%2E")
                msg = (
                    f"--scope label {label!r} contains '.', which LangGraph namespaces forbid. "
                    f"Scopes filled from templates store it percent-encoded, as {fixed!r}."
                )
                raise CliError(msg)
            if "{" in label or "}" in label:
                msg = (
                    f"--scope label {label!r} looks like a template; pass the concrete value "
                    "(e.g. users/alice instead of users/{user_id})."
                )
                raise CliError(msg)
            labels.append(_SLASH_ESCAPE.sub("/", label))
    return tuple(labels)


def parse_ttl_option(text: str) -> TTL:
    """Parse a `--ttl` option: `N` turns, a span such as `500ms`/`30s`/`2h`/`7d`, or `never`.

    Args:
        text: The option value.

    Returns:
        A TTL accepted by `Memory.set`.

    Raises:
        CliError: If the text is none of those.

    Example:
        ```python
        from datetime import timedelta
        from langchain_contextchef.cli import parse_ttl_option

        assert parse_ttl_option("3") == 3
        assert parse_ttl_option("1500ms") == {"ms": 1500}
        assert parse_ttl_option("2h") == timedelta(hours=2)
        assert parse_ttl_option("never") is None
        ```
    """
    value = text.strip().lower()
    if value == "never":
        return None
    if value.isdigit():
        return int(value)
    span = _TTL_SPAN.fullmatch(value)
    if span is not None:
        amount, unit = int(span.group(1)), span.group(2)
        try:
            duration = timedelta(**{_SPAN_UNITS[unit]: amount})
            if duration > MAX_DURATION:
                raise OverflowError
        except OverflowError:
            msg = (
                f"--ttl {text!r} is too long: a wall-clock TTL must be under 1,000 years "
                "(use --ttl never for an entry that does not expire)."
            )
            raise CliError(msg) from None
        return {"ms": amount} if unit == "ms" else duration
    msg = (
        f"--ttl {text!r} is not a TTL. Use a number of turns (3), a duration "
        "(1500ms, 30s, 10m, 2h, 7d) or never."
    )
    raise CliError(msg)
