"""Reading a tool call's arguments; every mistake becomes the `Error: ...` text the model sees.

Helpers raise `Refusal` (caught once, at the top of the dispatch plan) so nested code can
stop a call in one line. They are only used before the first write of a call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from langchain_contextchef._context_paths import (
    MAX_PATH_LENGTH,
    SCHEME,
    ContextPath,
    is_padded,
    memory_uri,
    padded_error,
    parse_context_path,
)

__all__ = [
    "Refusal",
    "destination",
    "integer",
    "memory_key",
    "optional_text",
    "optional_version",
    "parse_arguments",
    "query",
    "refuse",
    "required_text",
    "supersedes",
    "text",
]


class Refusal(Exception):
    """Carries an `Error: ...` text out of nested helpers; raised only before any write."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def refuse(text: str) -> NoReturn:
    """Stop the tool call with this model-facing text."""
    raise Refusal(text)


def parse_arguments(arguments: object) -> dict[str, Any]:
    """The call's arguments as a dict: JSON text, a mapping, or `None` for none."""
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        raw = arguments.strip()
        if not raw:
            return {}
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            refuse("Error: the tool arguments were not valid JSON.")
        arguments = parsed
    if not isinstance(arguments, Mapping):
        refuse("Error: the tool arguments must be a JSON object.")
    return dict(arguments)


def required_text(name: str) -> str:
    """The text for a missing or blank required string argument."""
    return f'Error: the "{name}" argument is required and must be a non-empty string.'


def _check_chars(name: str, value: str) -> None:
    if "\x00" in value:
        refuse(f'Error: the "{name}" argument cannot contain NUL characters.')
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: no backend can store them
        refuse(f'Error: the "{name}" argument is not valid Unicode text.')


def text(args: Mapping[str, Any], name: str, *, identifier: bool = False) -> str:
    """A required string; identifiers (keys, paths, commands) may not be blank either."""
    value = args.get(name)
    if not isinstance(value, str) or not value or (identifier and not value.strip()):
        refuse(required_text(name))
    _check_chars(name, value)
    return value


def optional_text(args: Mapping[str, Any], name: str) -> str | None:
    """An optional string argument, `None` when absent."""
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        refuse(f'Error: the "{name}" argument must be a string.')
    _check_chars(name, value)
    return value


def integer(args: Mapping[str, Any], name: str) -> int:
    """A required integer argument."""
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        refuse(f'Error: the "{name}" argument is required and must be an integer.')
    return value


def offset(args: Mapping[str, Any]) -> int:
    """The optional `offset` of a listing or search page (0 when absent)."""
    value = args.get("offset")
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        refuse(
            'Error: the "offset" argument must be a non-negative integer: how many rows of '
            "the listing to skip (the end of the previous page says which to pass), or leave "
            "it out."
        )
    return value


def optional_version(args: Mapping[str, Any]) -> int | None:
    """The optional compare-and-set `version` argument."""
    value = args.get("version")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        refuse(
            'Error: the "version" argument must be a positive integer: the version shown for '
            "the entry in your memory, or leave it out."
        )
    return value


def memory_key(args: Mapping[str, Any], name: str) -> str:
    """A memory key argument that is also addressable as `context://memory/<key>`."""
    key = text(args, name, identifier=True)
    if is_padded(key):
        refuse(padded_error(key, key.strip()))
    if len(key) > MAX_PATH_LENGTH:
        refuse(
            f'Error: the "{name}" argument is {len(key)} characters long; '
            f"use at most {MAX_PATH_LENGTH}."
        )
    if "/" not in key and key not in (".", ".."):
        return key  # one plain segment: its address always parses back to it
    # A key must also be addressable as context://memory/<key>, or the model could never see it.
    parsed = parse_context_path(memory_uri(key))
    if isinstance(parsed, str) or parsed.is_dir or parsed.path != key:
        refuse(
            f'Error: "{key}" is not a usable memory key. Keys may not start or end with "/", '
            'contain "//", or use "." or ".." as a path segment.'
        )
    return key


def supersedes(args: Mapping[str, Any]) -> tuple[str, ...]:
    """The optional `supersedes` argument: a list of memory keys (one bare key is accepted)."""
    value = args.get("supersedes")
    if value is None:
        return ()
    if isinstance(value, str):  # one key given bare instead of as a list
        value = [value]
    if not isinstance(value, list):
        refuse('Error: the "supersedes" argument must be a list of memory keys.')
    return tuple(memory_key({"supersedes": item}, "supersedes") for item in value)


def query(args: Mapping[str, Any]) -> str:
    """The `query` argument of a search: required and not blank."""
    value = text(args, "query")
    if not value.strip():
        refuse('Error: the "query" argument must not be blank.')
    return value


def destination(args: Mapping[str, Any], where: ContextPath) -> ContextPath:
    """The `new_path` of a rename: a full path in the same namespace."""
    dest = parse_context_path(text(args, "new_path", identifier=True))
    if isinstance(dest, str):
        refuse(dest)
    if dest.namespace != where.namespace:
        refuse(f"Error: rename stays inside one namespace; {where.uri} cannot move to {dest.uri}.")
    if dest.is_dir:
        refuse(f"Error: {dest.uri} is a directory. Name the new path in full.")
    return dest


def writable_roots(namespaces: tuple[str, ...]) -> str:
    """The writable roots, as the model should address them."""
    return ", ".join(f"{SCHEME}{ns}/" for ns in namespaces)
