"""The tools on profiles: a profile's address is its key, a field's is `<profile>/<field>`.

Both vocabularies edit a profile through `memory._plans.edit_profile`, so every edit is
validated against the schema and gated leaf by leaf before `model_write`:

* legacy: `create_memory` or `modify_memory action=update` with `key` the profile (the value
  a JSON object of fields, or a list of operations) or `<profile>/<field>` (the value of that
  field); `modify_memory action=delete` on `<profile>/<field>` removes the field.
* unified: `create` on `context://memory/<profile>` (an edit) or `.../<profile>/<field>` (a
  field's value); `delete` on a field; `view` on a field; `str_replace` and `insert` on the
  whole profile edit its JSON text, which must still be a document that fits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from langchain_contextchef._context_paths import ContextPath, memory_uri
from langchain_contextchef._literals import ToolVocabulary
from langchain_contextchef._plan import Plan
from langchain_contextchef.entry import Provenance
from langchain_contextchef.memory import MemoryContext, WriteResult
from langchain_contextchef.memory._plans import edit_profile, read_one, recall_entry
from langchain_contextchef.memory._texts import nothing_at, unreadable
from langchain_contextchef.profiles import (
    ProfileEditError,
    field_edit,
    leaf,
    load_document,
    parse_edit,
)
from langchain_contextchef.tools import _args
from langchain_contextchef.tools._text_ops import insert_edit, replace_edit

__all__ = ["profile_command", "profile_target", "write_profile_text"]

Edit = Mapping[str, Any] | list[Any]


def profile_target(ctx: MemoryContext, path: str) -> tuple[str, str] | None:
    """`(profile, field path)` when `path` addresses a declared profile, else `None`."""
    profiles = ctx.config.profile_schemas
    return profiles.split(path) if profiles is not None else None


def _refuse(name: str, problem: ProfileEditError) -> None:
    _args.refuse(f"Error: the profile {memory_uri(name)} was not changed: {problem}.")


def _edits(name: str, field: str, text: str) -> list[Edit]:
    if field:
        return list(field_edit(field, text))
    try:
        return [parse_edit(text)]
    except ProfileEditError as problem:
        _refuse(name, problem)
        raise  # unreachable: `_refuse` raises


def _done(result: WriteResult, name: str, field: str) -> str:
    verb = "Created" if result.status == "created" else "Updated"
    return f"{verb} {memory_uri(name)}" + (f" (field {field})." if field else ".")


def write_profile_text(
    ctx: MemoryContext,
    name: str,
    field: str,
    text: str,
    provenance: Provenance,
    version: int | None,
    vocabulary: ToolVocabulary,
) -> Plan[str]:
    """Apply the model's text as an edit of the profile (or set one field of it)."""
    result = yield from edit_profile(
        ctx, name, _edits(name, field, text), provenance=provenance, expected_version=version
    )
    return result.for_model(_done(result, name, field), vocabulary=vocabulary)


def remove_field(
    ctx: MemoryContext,
    name: str,
    field: str,
    provenance: Provenance,
    version: int | None,
    vocabulary: ToolVocabulary,
) -> Plan[str]:
    """Remove one field of the profile."""
    result = yield from edit_profile(
        ctx, name, field_edit(field, None), provenance=provenance, expected_version=version
    )
    done = f"Removed the field {field} from {memory_uri(name)}."
    return result.for_model(done, vocabulary=vocabulary)


def _view_field(ctx: MemoryContext, name: str, field: str) -> Plan[str]:
    uri = memory_uri(f"{name}/{field}")
    entry = yield from recall_entry(ctx, name)
    if entry is None:
        return nothing_at(uri)
    if entry.status != "active":
        return unreadable(memory_uri(name))
    try:
        value = leaf(load_document(entry.value), tuple(p for p in field.split("/") if p))
    except (ProfileEditError, KeyError, IndexError, ValueError, TypeError):
        return nothing_at(uri)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _pointer(name: str) -> str:
    return "/" + name.replace("~", "~0").replace("/", "~1")


def _rewrite(
    ctx: MemoryContext,
    name: str,
    edit: Callable[[str], str],
    provenance: Provenance,
    version: int | None,
) -> Plan[str]:
    # The edited text must still be a JSON document; it replaces the stored one wholesale.
    entry = yield from read_one(ctx, name)
    if entry is None:
        return nothing_at(memory_uri(name))
    try:
        before = load_document(entry.value)
        after = load_document(edit(entry.value))
    except ProfileEditError:
        return (
            f"Error: the profile {memory_uri(name)} was not changed: after the edit its text "
            "is not a JSON object."
        )
    ops: list[Any] = [{"op": "remove", "path": _pointer(k)} for k in before]
    ops += [{"op": "add", "path": _pointer(k), "value": v} for k, v in after.items()]
    if not ops:
        return f"Error: the profile {memory_uri(name)} was not changed: it would stay empty."
    result = yield from edit_profile(
        ctx, name, [ops], provenance=provenance, expected_version=version
    )
    return result.for_model(f"Edited {memory_uri(name)}.", vocabulary="unified")


def profile_command(
    ctx: MemoryContext,
    command: str,
    target: tuple[str, str],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str] | None:
    """The plan of a `context` command on a profile, or `None` when entries' handler does."""
    name, field = target
    if command == "view":
        return _view_field(ctx, name, field) if field else None
    if command == "search" or (command == "delete" and not field):
        return None
    version = _args.optional_version(args)
    if command == "create":
        text = _args.text(args, "file_text")
        return write_profile_text(ctx, name, field, text, provenance, version, "unified")
    if command == "delete":
        return remove_field(ctx, name, field, provenance, version, "unified")
    if command == "rename":
        _args.refuse(f"Error: {memory_uri(name)} is a profile; it cannot be renamed.")
    if field:
        _args.refuse(
            f"Error: to change one field, create {where.uri} with the new value as file_text."
        )
    make = replace_edit if command == "str_replace" else insert_edit
    return _rewrite(ctx, name, make(args, where.uri), provenance, version)
