"""The tools' argument schemas: static pydantic models whose JSON schema the model sees.

Fields are typed `Any` for validation and carry their model-facing JSON schema separately:
pydantic then never rejects a wrongly typed argument, and the dispatcher answers every mistake
with its own `Error: ...` text in one fixed check order. Only a missing required argument
fails validation, and `validation_error_text` words it exactly as the dispatcher would.

Each schema class is built once per distinct setting (key list, type list) and reused, so the
JSON schema a provider receives is byte-stable across compiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Annotated, Any

from langchain_core.tools import InjectedToolArg
from pydantic import BaseModel, Field, ValidationError, WithJsonSchema, create_model
from pydantic.json_schema import SkipJsonSchema

from langchain_contextchef._literals import DEFAULT_MEMORY_TYPES
from langchain_contextchef.tools._dispatch import CONTEXT_COMMANDS

__all__ = [
    "context_schema",
    "create_memory_schema",
    "modify_memory_schema",
    "recall_memory_schema",
    "validation_error_text",
]

_Runtime = Annotated[Any, InjectedToolArg(), SkipJsonSchema()]


def _field(description: str, schema: dict[str, Any], *, required: bool = False) -> Any:
    return (
        Annotated[Any, WithJsonSchema(schema)],
        Field(... if required else None, description=description),
    )


def _string(description: str, *, required: bool = False, enum: Sequence[str] = ()) -> Any:
    schema: dict[str, Any] = {"type": "string"}
    if enum:
        schema["enum"] = list(enum)
    return _field(description, schema, required=required)


def _type_field(types: tuple[str, ...] | None, description: str) -> Any:
    return _string(description, enum=types or ())


def _version_field(when: str) -> Any:
    return _field(
        f"{when}: the version your memory shows for the entry. If the entry has changed "
        "since, the write is refused and you get its current value and version.",
        {"type": "integer", "minimum": 1},
    )


def _supersedes_field(when: str) -> Any:
    return _field(
        f"{when}: keys of existing entries the new one replaces (for example the old home "
        "city after a move); they are retired to history and no longer shown.",
        {"type": "array", "items": {"type": "string"}},
    )


def _check_enum(name: str, keys: Sequence[str] | None) -> tuple[str, ...] | None:
    if keys is None:
        return None
    if isinstance(keys, str) or not all(isinstance(k, str) and k for k in keys):
        msg = f"{name} must be a list of non-empty strings, e.g. ['persona', 'lang']."
        raise ValueError(msg)
    return tuple(dict.fromkeys(keys))


@lru_cache(maxsize=64)
def _create_memory_schema(
    allowed_keys: tuple[str, ...] | None, memory_types: tuple[str, ...] | None
) -> type[BaseModel]:
    key_text = (
        "The name to store the fact under; only these keys are accepted."
        if allowed_keys
        else 'A short, stable snake_case name for the fact, e.g. "preferred_language".'
    )
    return create_model(
        "create_memory",
        __doc__="Arguments of create_memory.",
        key=_string(key_text, required=True, enum=allowed_keys or ()),
        value=_string("The fact itself, stated briefly and completely.", required=True),
        description=_string("Optional: what this entry is for and when it should be consulted."),
        type=_type_field(memory_types, "Optional: the kind of memory this is."),
        supersedes=_supersedes_field("Optional"),
        runtime=(_Runtime, None),
    )


def create_memory_schema(
    allowed_keys: Sequence[str] | None = None,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
) -> type[BaseModel]:
    """The `create_memory` argument schema; with `allowed_keys`, `key` is an enum of them.

    The class is built once per distinct key list and reused, so the emitted JSON schema is
    byte-stable. An empty list emits no enum (providers reject empty enums); dispatch still
    refuses every key.

    Args:
        allowed_keys: The keys the model may write, or `None` for any key.
        memory_types: The enum of the optional `type` argument (`None`: free text).

    Returns:
        A pydantic model class usable as a tool's `args_schema`.

    Raises:
        ValueError: If `allowed_keys` is not a list of non-empty strings.
    """
    return _create_memory_schema(
        _check_enum("allowed_keys", allowed_keys), _check_enum("memory_types", memory_types)
    )


@lru_cache(maxsize=64)
def _modify_memory_schema(
    existing_keys: tuple[str, ...] | None, memory_types: tuple[str, ...] | None
) -> type[BaseModel]:
    key_text = (
        "The key of the entry to change."
        if existing_keys
        else "The key of an entry already in memory; your context lists the stored keys. "
        "Unknown keys are refused with an explanation."
    )
    return create_model(
        "modify_memory",
        __doc__="Arguments of modify_memory.",
        action=_string(
            '"update" replaces the value of an existing entry; "delete" forgets the entry.',
            required=True,
            enum=("update", "delete"),
        ),
        key=_string(key_text, required=True, enum=existing_keys or ()),
        value=_string('The new value. Required for "update"; ignored for "delete".'),
        description=_string(
            'Optional new description for "update"; the current one is kept when omitted.'
        ),
        type=_type_field(
            memory_types, 'Optional new kind of memory for "update"; kept when omitted.'
        ),
        version=_version_field("Optional"),
        runtime=(_Runtime, None),
    )


def modify_memory_schema(
    existing_keys: Sequence[str] | None = None,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
) -> type[BaseModel]:
    """The `modify_memory` argument schema.

    Args:
        existing_keys: `None` (the default, static): `key` is any string. A list: `key` is an
            enum of those keys; this is the dynamic variant, which changes the schema whenever
            keys are added or removed and so invalidates prompt caches.
        memory_types: The enum of the optional `type` argument (`None`: free text).

    Returns:
        A pydantic model class usable as a tool's `args_schema`.

    Raises:
        ValueError: If `existing_keys` is not a list of non-empty strings.
    """
    return _modify_memory_schema(
        _check_enum("existing_keys", existing_keys), _check_enum("memory_types", memory_types)
    )


def context_schema(
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
) -> type[BaseModel]:
    """The `context` tool's argument schema (one class per type list, always the same).

    Args:
        memory_types: The enum of the optional `type` argument (`None`: free text).

    Returns:
        A pydantic model class usable as a tool's `args_schema`.
    """
    return _context_schema(_check_enum("memory_types", memory_types))


@lru_cache(maxsize=16)
def _context_schema(memory_types: tuple[str, ...] | None) -> type[BaseModel]:
    return create_model(
        "context",
        __doc__="Arguments of the context tool.",
        command=_string(
            "What to do: view a file or list a directory, create a new entry, str_replace "
            "one exact snippet, insert lines, delete, rename to new_path, or search.",
            required=True,
            enum=CONTEXT_COMMANDS,
        ),
        path=_string(
            "The address, e.g. context://memory/preferred_language or notes/plan.md; "
            "a path ending in / (or a bare namespace) is a directory.",
            required=True,
        ),
        file_text=_string("For create: the full text of the new entry."),
        old_str=_string(
            "For str_replace: text that occurs exactly once in the entry, copied exactly."
        ),
        new_str=_string("For str_replace: the replacement text (empty or omitted removes it)."),
        insert_line=_field(
            "For insert: the line after which to insert; 0 inserts at the top.",
            {"type": "integer", "minimum": 0},
        ),
        insert_text=_string("For insert: the text to insert."),
        new_path=_string("For rename: the new address, in the same namespace."),
        query=_string("For search: text to look for, case-insensitively."),
        description=_string(
            "For create under memory/: what the entry is for and when to consult it. "
            "Ignored elsewhere."
        ),
        type=_type_field(memory_types, "For create under memory/: the kind of memory."),
        supersedes=_supersedes_field("For create under memory/ (optional)"),
        version=_version_field("For str_replace, insert, delete or rename under memory/"),
        runtime=(_Runtime, None),
    )


@lru_cache(maxsize=1)
def recall_memory_schema() -> type[BaseModel]:
    """The `recall_memory` argument schema: one required `key` (always the same class)."""
    return create_model(
        "recall_memory",
        __doc__="Arguments of recall_memory.",
        key=_string(
            "The key of a stored entry, as listed in <memory_index> in your context.",
            required=True,
        ),
        runtime=(_Runtime, None),
    )


def validation_error_text(error: ValidationError) -> str:
    """The tool result for arguments pydantic refused (only a missing required one can be)."""
    for detail in error.errors():
        loc = detail.get("loc") or ()
        if detail.get("type") == "missing" and loc and isinstance(loc[0], str):
            return f'Error: the "{loc[0]}" argument is required and must be a non-empty string.'
    return "Error: the tool arguments do not match the tool's schema."
