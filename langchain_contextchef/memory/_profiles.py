"""Profiles as plans: the model's field-level edits, and the developer's typed reads and writes.

A profile is the entry named after it, of type `profile`, whose value is the document's
JSON (see `langchain_contextchef.profiles`). A model edit (`edit_profile`) runs as one
exclusive section of the scope: it reads the stored document, applies the edit, validates
the result against the schema, has the write gate judge every leaf the edit changed on its
own, and then writes through `model_write`, so allowed keys, compare-and-set, the veto,
consent, history and audit apply exactly as for any entry. Because the edit is applied to
the document read inside the section, two writers editing different fields both land.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from langchain_contextchef._plan import Plan
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.gate import GateDecision, WriteCandidate, WriteGate
from langchain_contextchef.memory._checks import UNSET
from langchain_contextchef.memory._context import MemoryContext, read_one
from langchain_contextchef.memory._model_write import check_writable, model_write
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory._texts import Refusal
from langchain_contextchef.memory._write import KNOWN_ABSENT, judge, set_entry
from langchain_contextchef.memory.results import WriteResult
from langchain_contextchef.profiles import (
    PROFILE_TYPE,
    ProfileEditError,
    UnknownProfileError,
    apply_edit,
    changed_leaves,
    dump_profile,
    leaf,
    load_document,
    set_leaf,
    validate_document,
)

__all__ = ["edit_profile", "read_profile", "schema_of", "write_profile"]

Edit = Mapping[str, Any] | list[Any]


def schema_of(ctx: MemoryContext, name: str) -> type[BaseModel]:
    """The schema of the profile `name`.

    Raises:
        UnknownProfileError: A `KeyError` if no profile of that name is declared; the message
            lists those that are.
    """
    profiles = ctx.config.profile_schemas
    if profiles is None or name not in profiles:
        declared = ", ".join(repr(n) for n in profiles or ()) or "none"
        msg = (
            f"No profile named {name!r} (declared: {declared}). Declare it with "
            f'MemoryConfig(profiles={{"{name}": YourModel}}).'
        )
        raise UnknownProfileError(msg)
    return profiles[name]


def _refused(name: str, detail: str) -> WriteResult:
    return WriteResult("refused", name, refusal=Refusal("profile", name, detail=detail))


def _gate_leaves(
    ctx: MemoryContext,
    name: str,
    before: Mapping[str, Any],
    document: dict[str, Any],
    provenance: Provenance,
    is_new: bool,
    gate: WriteGate | None,
) -> Plan[WriteResult | bool]:
    """Judge each changed leaf on its own; a refusal, else whether a leaf was redacted."""
    redacted = False
    decision: GateDecision | None
    for path in changed_leaves(before, document):
        value = leaf(document, path)
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        candidate = WriteCandidate(
            key=f"{name}.{'.'.join(path)}",
            value=text,
            type=PROFILE_TYPE,
            provenance=provenance,
            written_by=provenance.written_by,
            is_new=is_new,
        )
        if gate is not None:  # the caller's own gate (a reflector's), deterministic checks only
            decision = gate.check_deterministic(candidate)
        else:
            decision = yield from judge(ctx, candidate)
        if decision is None or decision.action == "allow":
            continue
        where = name + "/" + "/".join(path)
        if decision.action == "redact" and isinstance(value, str):
            set_leaf(document, path, decision.value)
            redacted = True
            continue
        # A profile is one document: a field cannot be held for review on its own.
        return WriteResult("refused", name, refusal=Refusal("gate", where, decision=decision))
    return redacted


@exclusive
def edit_profile(
    ctx: MemoryContext,
    name: str,
    edits: Sequence[Edit],
    *,
    provenance: Provenance | None = None,
    expected_version: int | None = None,
    gate: WriteGate | None = None,
) -> Plan[WriteResult]:
    """Apply a model's edit to the profile `name`, creating the document when it is absent.

    Args:
        ctx: The scope.
        name: A declared profile.
        edits: Alternatives of one edit, most likely first (see `profiles.field_edit`): the
            first whose result fits the schema is written; when none does, the first one's
            problem is reported.
        provenance: Who asks; defaults to "written by the model".
        expected_version: Compare-and-set: the version the writer saw.
        gate: A gate that judges each changed leaf instead of the memory's own (a
            reflector's, when the memory has none).

    Returns:
        What happened; a refused edit (`refused` with a `profile` or `gate` refusal, `stale`,
        ...) leaves the store unchanged.
    """
    schema = schema_of(ctx, name)
    cause = provenance if provenance is not None else Provenance(written_by="model")
    try:
        existing = yield from read_one(ctx, name)
    except DamagedEntryError:
        return WriteResult("refused", name, refusal=Refusal("damaged", name))
    before: dict[str, Any] = {}
    if existing is not None:
        guarded = check_writable(existing, expected_version)
        if guarded is not None:
            return guarded
        try:
            before = load_document(existing.value)
        except ProfileEditError as problem:
            return _refused(name, str(problem))
    elif expected_version is not None:
        return WriteResult("not_found", name)
    first: ProfileEditError | None = None
    document: dict[str, Any] | None = None
    for edit in edits:
        try:
            document = json.loads(validate_document(schema, apply_edit(before, edit)))
            break
        except ProfileEditError as problem:
            first = first or problem
    if document is None:
        return _refused(name, str(first or "no edit was given"))
    gated = yield from _gate_leaves(ctx, name, before, document, cause, existing is None, gate)
    if isinstance(gated, WriteResult):
        return gated
    try:
        text = validate_document(schema, document)
    except ProfileEditError as problem:  # a redaction placeholder the schema refuses
        return _refused(name, str(problem))
    return (
        yield from model_write(
            ctx,
            name,
            text,
            description=None,
            provenance=cause,
            must_exist=existing is not None,
            type=PROFILE_TYPE,
            expected_version=expected_version,
            known=existing if existing is not None else KNOWN_ABSENT,
        )
    )


def _instance(schema: type[BaseModel], name: str, value: BaseModel | Mapping[str, Any]) -> str:
    if isinstance(value, BaseModel) and not isinstance(value, schema):
        msg = f"Profile {name!r} holds {schema.__name__}, got {type(value).__name__}."
        raise TypeError(msg)
    if isinstance(value, BaseModel):
        return dump_profile(schema.model_validate(value.model_dump(exclude_unset=True)))
    if not isinstance(value, Mapping):
        msg = f"Profile {name!r} takes a {schema.__name__} or a dict, got {type(value).__name__}."
        raise TypeError(msg)
    try:
        return dump_profile(schema.model_validate(dict(value)))
    except ValidationError as exc:
        msg = f"Profile {name!r} does not fit {schema.__name__}; fix the fields:\n{exc}"
        raise ValueError(msg) from exc


def write_profile(
    ctx: MemoryContext, name: str, value: BaseModel | Mapping[str, Any]
) -> Plan[MemoryEntry]:
    """`Memory.set_profile`: the developer path (see `set_entry`), validated first.

    Raises:
        KeyError: For an undeclared profile.
        TypeError, ValueError: For a value that is not the profile's model or does not fit it.
    """
    text = _instance(schema_of(ctx, name), name, value)
    return (
        yield from set_entry(
            ctx,
            name,
            text,
            description=None,
            ttl=UNSET,
            importance=None,
            type=PROFILE_TYPE,
            provenance=None,
        )
    )


def read_profile(ctx: MemoryContext, name: str) -> Plan[BaseModel | None]:
    """`Memory.profile`: the stored document as a model instance, or `None` when absent.

    Raises:
        KeyError: For an undeclared profile.
        ValueError: If the stored value does not fit the schema (written around the profile
            API, e.g. with `Memory.set`); rewrite it with `set_profile`.
    """
    schema = schema_of(ctx, name)
    entry = yield from read_one(ctx, name)
    if entry is None or entry.status != "active":
        return None
    try:
        return schema.model_validate_json(entry.value)
    except ValidationError as exc:
        msg = (
            f"The stored profile {name!r} does not fit {schema.__name__}; rewrite it with "
            f"memory.set_profile({name!r}, ...):\n{exc}"
        )
        raise ValueError(msg) from exc
