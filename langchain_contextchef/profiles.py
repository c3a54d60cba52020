"""Typed profiles: a pydantic document kept as one memory entry (pure, no I/O).

A profile is declared once, `MemoryConfig(profiles={"user": UserProfile})`, and stored as the
entry `user` of type `profile` whose value is the document's JSON with only the fields that
are set (`None` counts as unset). Everything else about entries applies to it unchanged:
history, audit, retention, consent, the exclusive section and compare-and-set.

This module holds the parts that need no store: the declared schemas (`Profiles`), the two
edit forms the model may send (`apply_edit`: a JSON object merged field by field, RFC 7386
style, or a list of JSON-Patch-like operations), validation against the schema
(`validate_document`), the leaves an edit changed (`changed_leaves`, what the write gate
judges one by one) and the lines that tell the model which profiles exist.

Example:
    ```python
    from pydantic import BaseModel
    from langchain_contextchef.profiles import Profiles, apply_edit, validate_document


    class User(BaseModel):
        name: str | None = None
        languages: list[str] = []


    profiles = Profiles({"user": User})
    doc = apply_edit({}, {"name": "Ada"})
    doc = apply_edit(doc, [{"op": "add", "path": "/languages/-", "value": "Go"}])
    assert validate_document(profiles["user"], doc) == '{"name":"Ada","languages":["Go"]}'
    ```
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = [
    "PROFILE_TYPE",
    "ProfileEditError",
    "Profiles",
    "UnknownProfileError",
    "apply_edit",
    "changed_leaves",
    "dump_profile",
    "field_edit",
    "leaf",
    "load_document",
    "parse_edit",
    "set_leaf",
    "validate_document",
]

PROFILE_TYPE = "profile"
"""The memory type of every profile entry."""

_OPS = ("add", "replace", "remove")


class UnknownProfileError(KeyError):
    """A profile name that `MemoryConfig(profiles=...)` does not declare."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ProfileEditError(ValueError):
    """An edit that cannot be applied or does not fit the schema; the message is a clause."""


class Profiles(Mapping[str, type[BaseModel]]):
    """The declared profiles: name -> pydantic model class (hashable, in declaration order).

    Args:
        schemas: Each profile's name (its memory key) and its pydantic model class.

    Raises:
        TypeError: If a schema is not a pydantic model class.
        ValueError: If a name is empty, padded, or contains `/`.
    """

    def __init__(self, schemas: Mapping[str, type[BaseModel]]) -> None:
        if not isinstance(schemas, Mapping):
            msg = 'profiles must map names to pydantic models, e.g. {"user": UserProfile}.'
            raise TypeError(msg)
        items: list[tuple[str, type[BaseModel]]] = []
        for name, schema in schemas.items():
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                msg = f"profile names must be non-empty unpadded strings, got {name!r}."
                raise ValueError(msg)
            if "/" in name:
                msg = f"profile name {name!r} may not contain '/': fields are addressed after it."
                raise ValueError(msg)
            if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
                msg = f"profile {name!r} must be a pydantic model class, got {schema!r:.60}."
                raise TypeError(msg)
            items.append((name, schema))
        self._items = tuple(items)
        self._by_name = dict(items)
        self._guidance: dict[str, str] = {}

    def __getitem__(self, name: str) -> type[BaseModel]:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Profiles) and other._items == self._items

    def __repr__(self) -> str:
        return "Profiles({" + ", ".join(f"{n!r}: {s.__name__}" for n, s in self._items) + "})"

    def split(self, path: str) -> tuple[str, str] | None:
        """`(profile, field path)` when `path` is a profile or a field of one, else `None`.

        Example:
            ```python
            from pydantic import BaseModel
            from langchain_contextchef.profiles import Profiles


            class User(BaseModel):
                city: str | None = None


            assert Profiles({"user": User}).split("user/city") == ("user", "city")
            assert Profiles({"user": User}).split("users") is None
            ```
        """
        name, _, rest = path.partition("/")
        return (name, rest) if name in self._by_name else None

    def guidance(self, vocabulary: str) -> str:
        """The lines that tell the model which profiles exist and how to edit one.

        Static for a given set of schemas, so it can sit in a cached system prompt.
        """
        known = self._guidance.get(vocabulary)
        if known is None:
            known = self._guidance[vocabulary] = self._guidance_text(vocabulary)
        return known

    def _guidance_text(self, vocabulary: str) -> str:
        if vocabulary == "legacy":
            how = (
                "Profiles are typed JSON entries: update one with modify_memory, key=<profile> "
                'value={"field": value} (null removes a field; JSON Patch ops work too), or '
                "key=<profile>/<field> value=<value>."
            )
        else:
            how = (
                "Profiles are typed JSON entries: create context://memory/<profile> with "
                'file_text {"field": value} (null removes a field; JSON Patch ops work too), '
                "or context://memory/<profile>/<field> with the value; delete it to remove it."
            )
        lines = [how]
        lines += [f"Profile {name}: {self.fields(name)}" for name in self._by_name]
        return "\n".join(lines)

    def fields(self, name: str) -> str:
        """The fields of the profile `name` and their types, in one line."""
        return _fields_text(self._by_name[name])


_SHORT = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def _type_text(prop: Mapping[str, Any]) -> str:
    if "enum" in prop:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in prop["enum"])
    if "const" in prop:
        return json.dumps(prop["const"], ensure_ascii=False)
    options = prop.get("anyOf") or prop.get("oneOf")
    if options:
        kinds = [_type_text(o) for o in options if o.get("type") != "null"]
        return "|".join(dict.fromkeys(kinds)) or "null"
    kind = prop.get("type")
    if kind == "array":
        return "[" + _type_text(prop.get("items", {})) + "]"
    if "$ref" in prop or kind == "object":
        return "object"
    return _SHORT.get(str(kind), str(kind)) if kind else "any"


def _fields_text(schema: type[BaseModel]) -> str:
    properties = schema.model_json_schema().get("properties", {})
    return "{" + ", ".join(f"{name}: {_type_text(p)}" for name, p in properties.items()) + "}"


# ---- edits --------------------------------------------------------------------------------


def parse_edit(text: str) -> dict[str, Any] | list[Any]:
    """Read the model's edit: a JSON object (fields to set) or a JSON list (operations).

    Raises:
        ProfileEditError: If `text` is not a JSON object or list.
    """
    try:
        edit = json.loads(text)
    except ValueError:
        edit = None
    if not isinstance(edit, dict | list):
        msg = (
            "a profile edit must be JSON: an object of fields to set (null removes one) or a "
            'list of operations such as [{"op":"replace","path":"/city","value":"Oslo"}]'
        )
        raise ProfileEditError(msg)
    return edit


def _merge(target: Any, patch: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(target) if isinstance(target, dict) else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        elif isinstance(value, dict):
            result[name] = _merge(result.get(name), value)
        else:
            result[name] = copy.deepcopy(value)
    return result


def _pointer(path: Any, index: int) -> list[str]:
    if not isinstance(path, str) or not path.startswith("/") or path == "/":
        msg = f'operation {index}: "path" must look like "/field" or "/field/0", got {path!r:.60}'
        raise ProfileEditError(msg)
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _list_index(items: list[Any], part: str, *, adding: bool, index: int) -> int:
    if adding and part == "-":
        return len(items)
    if not part.isdigit() or int(part) > len(items) or (not adding and int(part) == len(items)):
        msg = f"operation {index}: {part!r} is not a position in a list of {len(items)}"
        raise ProfileEditError(msg)
    return int(part)


def _apply_op(doc: dict[str, Any], op: Any, index: int) -> None:
    if not isinstance(op, dict) or op.get("op") not in _OPS:
        msg = f'operation {index} must be an object with "op" one of {", ".join(_OPS)}'
        raise ProfileEditError(msg)
    kind = op["op"]
    parts = _pointer(op.get("path"), index)
    if kind != "remove" and "value" not in op:
        msg = f'operation {index} ({kind}) needs a "value"'
        raise ProfileEditError(msg)
    parent: Any = doc
    for depth, part in enumerate(parts[:-1]):
        if isinstance(parent, dict) and kind == "add" and part not in parent:
            # Adding inside an unset field creates what holds it: a list for "-" or "0".
            parent[part] = [] if parts[depth + 1] in ("-", "0") else {}
        if isinstance(parent, dict) and part in parent:
            parent = parent[part]
        elif isinstance(parent, list):
            parent = parent[_list_index(parent, part, adding=False, index=index)]
        else:
            where = "/" + "/".join(parts[: depth + 1])
            msg = f"operation {index}: nothing is stored at {where}"
            raise ProfileEditError(msg)
    last = parts[-1]
    if isinstance(parent, list):
        at = _list_index(parent, last, adding=kind == "add", index=index)
        if kind == "add":
            parent.insert(at, copy.deepcopy(op["value"]))
        elif kind == "replace":
            parent[at] = copy.deepcopy(op["value"])
        else:
            del parent[at]
        return
    if not isinstance(parent, dict):
        msg = f"operation {index}: {op['path']} is inside a plain value"
        raise ProfileEditError(msg)
    if kind != "add" and last not in parent:
        msg = f"operation {index}: nothing is stored at {op['path']}"
        raise ProfileEditError(msg)
    if kind == "remove":
        del parent[last]
    else:
        parent[last] = copy.deepcopy(op["value"])


def apply_edit(document: Mapping[str, Any], edit: Mapping[str, Any] | list[Any]) -> dict[str, Any]:
    """The document after the edit (the input is not changed).

    An object is merged field by field (a nested object is merged too, `null` removes a
    field); a list is applied as operations in order, each `{"op": "add"|"replace"|"remove",
    "path": "/field[/sub...]", "value": ...}` (`-` appends to a list).

    Raises:
        ProfileEditError: If an operation is malformed or names nothing.
    """
    if isinstance(edit, Mapping):
        return _merge(document, edit)
    doc = copy.deepcopy(dict(document))
    if not edit:
        msg = "the list of operations is empty"
        raise ProfileEditError(msg)
    for index, op in enumerate(edit, start=1):
        _apply_op(doc, op, index)
    return doc


def field_edit(field: str, text: str | None) -> list[list[dict[str, Any]]]:
    """The edits that set (or with `None`, remove) one field path, most likely first.

    `text` is tried as JSON first (`42`, `["Go"]`) and then as the plain string, so the
    caller keeps the first that fits the schema.
    """
    path = "/" + "/".join(p.replace("~", "~0") for p in field.split("/") if p)
    if text is None:
        return [[{"op": "remove", "path": path}]]
    tries: list[Any] = []
    with contextlib.suppress(ValueError):
        tries.append(json.loads(text))
    if text not in tries:
        tries.append(text)
    return [[{"op": "add", "path": path, "value": value}] for value in tries]


def _compact(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def dump_profile(instance: BaseModel) -> str:
    """The stored text of a profile: compact JSON of the fields that are set (not `None`)."""
    data = _compact(instance.model_dump(mode="json", exclude_unset=True))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _problems(error: ValidationError) -> str:
    parts = []
    for detail in error.errors(include_url=False):
        where = ".".join(str(p) for p in detail.get("loc", ())) or "(document)"
        parts.append(f"{where}: {detail.get('msg', 'invalid')}")
    return "; ".join(parts)


def validate_document(schema: type[BaseModel], document: Mapping[str, Any]) -> str:
    """Validate `document` against `schema` and return its stored text.

    Raises:
        ProfileEditError: With pydantic's messages, field by field.
    """
    try:
        instance = schema.model_validate(dict(document))
    except ValidationError as exc:
        msg = f"it does not fit {schema.__name__}: {_problems(exc)}"
        raise ProfileEditError(msg) from exc
    return dump_profile(instance)


def load_document(text: str) -> dict[str, Any]:
    """The stored JSON of a profile as a dict.

    Raises:
        ProfileEditError: If the stored text is not a JSON object.
    """
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        msg = "its stored value is not a JSON object"
        raise ProfileEditError(msg)
    return data


def _leaves(value: Any, prefix: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(value, dict) and value:
        for name, item in value.items():
            yield from _leaves(item, (*prefix, str(name)))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, (*prefix, str(index)))
    else:
        yield prefix, value


def changed_leaves(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The paths of the leaves `new` holds that `old` did not hold at the same place.

    These are what the write gate judges, one by one: an edit of one field is never judged
    on the text of the others.
    """
    before = dict(_leaves(dict(old), ()))
    return [path for path, value in _leaves(dict(new), ()) if path and before.get(path) != value]


def leaf(document: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """The value at `path` in `document`."""
    value: Any = document
    for part in path:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def set_leaf(document: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    """Replace the value at `path` (which exists) in `document`, in place."""
    parent: Any = leaf(document, path[:-1])
    if isinstance(parent, list):
        parent[int(path[-1])] = value
    else:
        parent[path[-1]] = value
