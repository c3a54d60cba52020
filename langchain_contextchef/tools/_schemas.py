"""The tools' argument schemas: static, hand-written JSON the model sees, and pydantic models.

Every model call carries these schemas, so they are written for tokens: each field says what
it is for once (and a field whose name says it all says nothing), optional fields carry no
`"default": null`, and no title. The JSON is written here, field by field, and is exactly
what `convert_to_openai_tool`, `ChatOpenAI` and `ChatAnthropic` send: each argument model
returns it from `model_json_schema`, and the tools hand the model class over as their
`tool_call_schema`.

Fields are typed `Any` for validation: pydantic then never rejects a wrongly typed argument,
and the dispatcher answers every mistake with its own `Error: ...` text in one fixed check
order. Only a missing required argument fails validation, and `validation_error_text` words
it exactly as the dispatcher would.

Each schema class is built once per distinct setting (key list, type list, versions) and
reused, so the JSON a provider receives is byte-stable across compiles.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, ClassVar

from langchain_core.tools import InjectedToolArg
from pydantic import BaseModel, Field, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, SkipJsonSchema

from langchain_contextchef._literals import DEFAULT_MEMORY_TYPES
from langchain_contextchef.tools._dispatch import CONTEXT_COMMANDS

__all__ = [
    "StaticArgs",
    "context_schema",
    "create_memory_schema",
    "modify_memory_schema",
    "recall_memory_schema",
    "validation_error_text",
]

_Runtime = Annotated[Any, InjectedToolArg(), SkipJsonSchema()]


class StaticArgs(BaseModel):
    """Base of the argument models: their JSON schema is the hand-written `parameters`."""

    parameters: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}

    @classmethod
    def model_json_schema(
        cls,
        by_alias: bool | None = None,
        ref_template: str = "#/$defs/{model}",
        schema_generator: type[GenerateJsonSchema] = GenerateJsonSchema,
        mode: JsonSchemaMode = "validation",
        **kwargs: Any,
    ) -> dict[str, Any]:
        """The model-facing JSON schema (a copy, so callers may change it)."""
        return copy.deepcopy(cls.parameters)


@dataclass(frozen=True)
class _Arg:
    """One argument: its name, its JSON schema (description included) and whether required."""

    name: str
    schema: dict[str, Any]
    required: bool = False


def _string(name: str, description: str | None = None, **extra: Any) -> _Arg:
    schema: dict[str, Any] = {"type": "string", **extra}
    if description:
        schema["description"] = description
    return _Arg(name, schema)


def _required(arg: _Arg) -> _Arg:
    return _Arg(arg.name, arg.schema, required=True)


def _enum(name: str, values: Sequence[str] | None, description: str | None = None) -> _Arg:
    # An empty list emits no enum: providers reject empty enums.
    return _string(name, description, **({"enum": list(values)} if values else {}))


def _supersedes(description: str) -> _Arg:
    schema = {"type": "array", "items": {"type": "string"}, "description": description}
    return _Arg("supersedes", schema)


def _version(description: str) -> _Arg:
    return _Arg("version", {"type": "integer", "minimum": 1, "description": description})


def _model(name: str, args: Sequence[_Arg]) -> type[StaticArgs]:
    fields: dict[str, Any] = {arg.name: (Any, Field(... if arg.required else None)) for arg in args}
    model = create_model(
        name,
        __base__=StaticArgs,
        __doc__=f"Arguments of {name}.",
        **fields,
        runtime=(_Runtime, None),
    )
    model.parameters = {
        "type": "object",
        "properties": {arg.name: arg.schema for arg in args},
        "required": [arg.name for arg in args if arg.required],
    }
    return model


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
) -> type[StaticArgs]:
    key = _enum("key", allowed_keys) if allowed_keys else _string("key", "snake_case name")
    return _model(
        "create_memory",
        [
            _required(key),
            _required(_string("value")),
            _string("description", "when it applies"),
            _enum("type", memory_types),
            _supersedes("keys of older facts it replaces"),
        ],
    )


def create_memory_schema(
    allowed_keys: Sequence[str] | None = None,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
) -> type[StaticArgs]:
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
    existing_keys: tuple[str, ...] | None, memory_types: tuple[str, ...] | None, versions: bool
) -> type[StaticArgs]:
    args = [
        _required(_enum("action", ("update", "delete"))),
        _required(_enum("key", existing_keys)),
        _string("value", "for update"),
        _string("description"),
        # Typed like create_memory's; its enum is listed there once, not on every call twice.
        _string("type"),
    ]
    if versions:
        args.append(_version("the version <memory> shows; refused if it changed since"))
    return _model("modify_memory", args)


def modify_memory_schema(
    existing_keys: Sequence[str] | None = None,
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
    *,
    versions: bool = False,
) -> type[StaticArgs]:
    """The `modify_memory` argument schema.

    Args:
        existing_keys: `None` (the default, static): `key` is any string. A list: `key` is an
            enum of those keys; this is the dynamic variant, which changes the schema whenever
            keys are added or removed and so invalidates prompt caches.
        memory_types: Accepted for symmetry with `create_memory_schema`; `type` is a plain
            string here, since the same enum on both tools would be sent twice per call
            (dispatch still refuses a type outside the configured ones).
        versions: Offer the compare-and-set `version` argument; only useful when the
            memory block shows versions (`MemoryConfig(memory_format="verbose")`).

    Returns:
        A pydantic model class usable as a tool's `args_schema`.

    Raises:
        ValueError: If `existing_keys` is not a list of non-empty strings.
    """
    return _modify_memory_schema(
        _check_enum("existing_keys", existing_keys),
        _check_enum("memory_types", memory_types),
        versions,
    )


def context_schema(
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES,
    *,
    versions: bool = False,
) -> type[StaticArgs]:
    """The `context` tool's argument schema (one class per setting, always the same).

    Args:
        memory_types: The enum of the optional `type` argument (`None`: free text).
        versions: Offer the compare-and-set `version` argument (see `modify_memory_schema`).

    Returns:
        A pydantic model class usable as a tool's `args_schema`.
    """
    return _context_schema(_check_enum("memory_types", memory_types), versions)


@lru_cache(maxsize=16)
def _context_schema(memory_types: tuple[str, ...] | None, versions: bool) -> type[StaticArgs]:
    args = [
        _required(_enum("command", CONTEXT_COMMANDS)),
        _required(_string("path", "e.g. memory/lang or notes/plan.md")),
        _string("file_text", "create: the content"),
        _string("old_str", "str_replace: exact text, found once"),
        _string("new_str", "str_replace: its replacement"),
        _Arg(
            "insert_line",
            {"type": "integer", "minimum": 0, "description": "insert: after this line, 0 = top"},
        ),
        _string("insert_text", "insert: the text"),
        _string("new_path", "rename: the new path"),
        _string("query", "search: text to find"),
        _Arg("offset", {"type": "integer", "description": "view/search: rows to skip"}),
        _string("description", "create in memory/: what it is for"),
        _enum("type", memory_types),
        _supersedes("create in memory/: keys of older facts it replaces"),
    ]
    if versions:
        args.append(_version("memory/ edits: the version <memory> shows"))
    return _model("context", args)


@lru_cache(maxsize=1)
def recall_memory_schema() -> type[StaticArgs]:
    """The `recall_memory` argument schema: one required `key` (always the same class)."""
    return _model("recall_memory", [_required(_string("key"))])


def validation_error_text(error: ValidationError) -> str:
    """The tool result for arguments pydantic refused (only a missing required one can be)."""
    for detail in error.errors():
        loc = detail.get("loc") or ()
        if detail.get("type") == "missing" and loc and isinstance(loc[0], str):
            return f'Error: the "{loc[0]}" argument is required and must be a non-empty string.'
    return "Error: the tool arguments do not match the tool's schema."
