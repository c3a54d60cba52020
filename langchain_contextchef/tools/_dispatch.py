"""The tool-call dispatcher, written once as a plan for sync and async callers.

Everything here turns a model's tool call into a result text. Model mistakes become `Error: ...`
texts; every check that can refuse a call runs before the first write, so a refused call leaves
the store exactly as it was. The one exception is the host's veto on the second half of a
rename (copy, then delete): when it refuses the delete, the copy stays and the result says so
("Copied ..., but the original could not be removed."). Exceptions from user hooks propagate:
those are developer bugs.

Each tool (and each `context` command on `memory/`) has one handler, chosen from a table;
text namespaces (`notes/`, ...) have their own table in `_notes`. Handlers work on a
`MemoryContext` and compose the memory plans, reading each entry once: what a handler has
read is passed on (`known=`), never read again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from langchain_contextchef._context_paths import (
    SCHEME,
    WRITABLE_NAMESPACES,
    ContextPath,
    memory_uri,
    parse_context_path,
)
from langchain_contextchef._literals import ToolVocabulary
from langchain_contextchef._plan import Plan
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.memory import MemoryContext, WriteResult
from langchain_contextchef.memory._plans import (
    KNOWN_ABSENT,
    check_allowed,
    check_writable,
    consent_replay,
    exclusively,
    model_delete,
    model_write,
    read_entries,
    read_many,
    read_one,
    recall_entry,
)
from langchain_contextchef.memory._texts import (
    already_exists,
    damaged_reason,
    nothing_at,
    unavailable,
    unreadable,
)
from langchain_contextchef.tools import _args
from langchain_contextchef.tools._notes import NOTE_COMMANDS
from langchain_contextchef.tools._profiles import (
    profile_command,
    profile_target,
    remove_field,
    write_profile_text,
)
from langchain_contextchef.tools._text_ops import (
    insert_edit,
    listing,
    replace_edit,
    search_text,
    snippet,
)
from langchain_contextchef.ttl import ResolvedExpiry

__all__ = ["CONTEXT_COMMANDS", "dispatch_plan"]

CONTEXT_COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename", "search")
"""The commands of the `context` tool, in the order its schema lists them."""

_WRITE_COMMANDS = frozenset({"create", "str_replace", "insert", "delete", "rename"})

MemoryCommand: TypeAlias = Callable[
    [MemoryContext, ContextPath, Mapping[str, Any], Provenance], Plan[str]
]


def _refuse_disallowed(ctx: MemoryContext, key: str, vocabulary: ToolVocabulary) -> None:
    refused = check_allowed(ctx, key)
    if refused is not None:
        _args.refuse(refused.for_model("", vocabulary=vocabulary))


def _existing_entry(
    ctx: MemoryContext, where: ContextPath, version: int | None = None
) -> Plan[MemoryEntry]:
    # Checked before an edit is applied, so a stale writer sees the value it has to redo.
    _refuse_disallowed(ctx, where.path, "unified")
    entry = yield from read_one(ctx, where.path)
    if entry is None:
        _args.refuse(nothing_at(where.uri))
    refused = check_writable(entry, version)
    if refused is not None:
        _args.refuse(refused.for_model("", vocabulary="unified"))
    return entry


# ---- the legacy tools -------------------------------------------------------------------------


def _create_entry(
    ctx: MemoryContext,
    key: str,
    value: str,
    args: Mapping[str, Any],
    provenance: Provenance,
    vocabulary: ToolVocabulary,
) -> Plan[str]:
    description = _args.optional_text(args, "description")
    type_ = _args.optional_text(args, "type")
    supersedes = _args.supersedes(args)
    result = yield from model_write(
        ctx,
        key,
        value,
        description=description,
        provenance=provenance,
        must_exist=False,
        type=type_,
        supersedes=supersedes,
    )
    return result.for_model(f"Created {memory_uri(key)}.", vocabulary=vocabulary)


def _create_memory(
    ctx: MemoryContext, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    key = _args.memory_key(args, "key")
    value = _args.text(args, "value")
    target = profile_target(ctx, key)
    if target is not None:  # a profile exists as a document even before its first field
        name, field = target
        plan = write_profile_text(ctx, name, field, value, provenance, None, "legacy")
        return (yield from plan)
    return (yield from _create_entry(ctx, key, value, args, provenance, "legacy"))


def _recall_memory(
    ctx: MemoryContext, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    key = _args.memory_key(args, "key")
    entry = yield from recall_entry(ctx, key)
    if entry is None:
        return nothing_at(memory_uri(key))
    if entry.status != "active":
        return unreadable(memory_uri(key))
    return entry.value


def _modify_memory(
    ctx: MemoryContext, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    action = _args.text(args, "action", identifier=True)
    key = _args.memory_key(args, "key")
    target = profile_target(ctx, key)
    if target is not None and (action == "update" or (action == "delete" and target[1])):
        name, field = target
        version = _args.optional_version(args)
        if action == "delete":
            return (yield from remove_field(ctx, name, field, provenance, version, "legacy"))
        value = _args.text(args, "value")
        plan = write_profile_text(ctx, name, field, value, provenance, version, "legacy")
        return (yield from plan)
    _refuse_disallowed(ctx, key, "legacy")
    existing = yield from read_one(ctx, key)
    if existing is None:
        return nothing_at(memory_uri(key))
    if action == "delete":
        version = _args.optional_version(args)
        result = yield from model_delete(
            ctx, key, provenance=provenance, expected_version=version, known=existing
        )
        return result.for_model(f"Deleted {memory_uri(key)}.", vocabulary="legacy")
    if action != "update":
        return f'Error: action must be "update" or "delete", got "{action}".'
    value = _args.text(args, "value")
    description = _args.optional_text(args, "description")
    type_ = _args.optional_text(args, "type")
    version = _args.optional_version(args)
    result = yield from model_write(
        ctx,
        key,
        value,
        description=description,
        provenance=provenance,
        must_exist=True,
        type=type_,
        expected_version=version,
        known=existing,
    )
    return result.for_model(f"Updated {memory_uri(key)}.", vocabulary="legacy")


# ---- the context tool on memory/ --------------------------------------------------------------


def _memory_view(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    if not where.is_dir:
        entry = yield from recall_entry(ctx, where.path)
        if entry is not None:
            return entry.value if entry.status == "active" else unreadable(where.uri)
    page = _args.offset(args)
    entries = yield from read_entries(ctx)
    rows = [(e.key, e.description) for e in entries if e.status == "active"]
    return listing(where, rows, page)


def _memory_search(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    query = _args.query(args)
    page = _args.offset(args)
    entries = yield from read_entries(ctx)
    hits: list[tuple[str, str]] = []
    for entry in sorted(entries, key=lambda e: (e.key.casefold(), e.key)):
        inside = entry.key.startswith(where.path) if where.is_dir else entry.key == where.path
        if not inside or entry.status != "active":
            continue
        haystack = entry.value + ("\n" + entry.description if entry.description else "")
        found = snippet(haystack, query)
        if found is not None:
            hits.append((memory_uri(entry.key), found))
    return search_text(where.uri, query, hits, page)


def _memory_create(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    value = _args.text(args, "file_text")
    return (yield from _create_entry(ctx, where.path, value, args, provenance, "unified"))


def _memory_edit(
    ctx: MemoryContext,
    where: ContextPath,
    edit: Callable[[str], str],
    provenance: Provenance,
    version: int | None,
    done: str,
) -> Plan[str]:
    entry = yield from _existing_entry(ctx, where, version)
    edited = edit(entry.value)
    if not edited:
        _args.refuse(f"Error: this edit would leave {where.uri} empty. Delete it instead.")
    result = yield from model_write(
        ctx,
        where.path,
        edited,
        description=None,
        provenance=provenance,
        must_exist=True,
        expected_version=version,
        known=entry,
    )
    return result.for_model(done, vocabulary="unified")


def _memory_str_replace(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    version = _args.optional_version(args)
    edit = replace_edit(args, where.uri)
    return (yield from _memory_edit(ctx, where, edit, provenance, version, f"Edited {where.uri}."))


def _memory_insert(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    version = _args.optional_version(args)
    edit = insert_edit(args, where.uri)
    done = f"Inserted into {where.uri}."
    return (yield from _memory_edit(ctx, where, edit, provenance, version, done))


def _memory_delete(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    version = _args.optional_version(args)
    result = yield from model_delete(
        ctx, where.path, provenance=provenance, expected_version=version
    )
    return result.for_model(f"Deleted {where.uri}.", vocabulary="unified")


def _memory_rename(
    ctx: MemoryContext, where: ContextPath, args: Mapping[str, Any], provenance: Provenance
) -> Plan[str]:
    version = _args.optional_version(args)
    dest = _args.destination(args, where)
    _refuse_disallowed(ctx, where.path, "unified")
    _refuse_disallowed(ctx, dest.path, "unified")
    # A copy a person approved on an earlier run of this graph task (the delete then asked
    # too) is not made again; see memory._consent.
    copied = yield from consent_replay(ctx, "create", dest.path, provenance)
    source, target = yield from read_many(ctx, [where.path, dest.path])
    if source is None:
        return nothing_at(where.uri)
    refused = check_writable(source, version)
    if refused is not None:
        return refused.for_model("", vocabulary="unified")
    if copied is None:
        if target is not None:
            return already_exists(dest.uri, "unified")
        copied = yield from _copy_entry(ctx, source, dest.path, provenance)
    if not copied.ok:
        return copied.for_model("", vocabulary="unified")
    removed = yield from model_delete(ctx, where.path, provenance=provenance, known=source)
    if not removed.ok:
        if removed.status in ("proposed", "rejected"):
            return f"Copied {where.uri} to {dest.uri}. " + removed.for_model(
                "", vocabulary="unified"
            )
        return f"Copied {where.uri} to {dest.uri}, but the original could not be removed."
    return f"Renamed {where.uri} to {dest.uri}."


def _copy_entry(
    ctx: MemoryContext, source: MemoryEntry, dest: str, provenance: Provenance
) -> Plan[WriteResult]:
    # The entry moves as it is: a rename must not drop its type or importance, nor give
    # it the default TTL (which would make a permanent entry expire).
    return (
        yield from model_write(
            ctx,
            dest,
            source.value,
            description=source.description,
            provenance=provenance,
            must_exist=False,
            type=source.type,
            ttl=ResolvedExpiry(source.expires_at_turn, source.expires_at),
            importance=source.importance,
            known=KNOWN_ABSENT,
        )
    )


MEMORY_COMMANDS: dict[str, MemoryCommand] = {
    "view": _memory_view,
    "search": _memory_search,
    "create": _memory_create,
    "str_replace": _memory_str_replace,
    "insert": _memory_insert,
    "delete": _memory_delete,
    "rename": _memory_rename,
}
"""The handler of each `context` command on `memory/`."""


# ---- the context tool -------------------------------------------------------------------------


def _context(ctx: MemoryContext, args: Mapping[str, Any], provenance: Provenance) -> Plan[str]:
    command = _args.text(args, "command", identifier=True)
    if command not in CONTEXT_COMMANDS:
        known = ", ".join(CONTEXT_COMMANDS)
        return f'Error: unknown command "{command}". Use one of: {known}.'
    where = parse_context_path(_args.text(args, "path", identifier=True))
    if isinstance(where, str):
        return where
    if command in _WRITE_COMMANDS:
        if not where.writable:
            roots = _args.writable_roots(WRITABLE_NAMESPACES)
            return f"Error: {where.uri} is read-only. This tool may write to: {roots}."
        if where.is_dir:
            thing = "memory key" if where.namespace == "memory" else "note"
            return f"Error: {where.uri} is a directory. Name the {thing} to {command}."
    if where.namespace == "memory":
        target = profile_target(ctx, where.path) if not where.is_dir else None
        if target is not None:
            plan = profile_command(ctx, command, target, where, args, provenance)
            if plan is not None:
                return (yield from plan)
        return (yield from MEMORY_COMMANDS[command](ctx, where, args, provenance))
    namespace = (*ctx.scope, where.namespace)
    return (yield from NOTE_COMMANDS[command](ctx, namespace, where, args, provenance))


ToolHandler: TypeAlias = Callable[[MemoryContext, Mapping[str, Any], Provenance], Plan[str]]

TOOL_HANDLERS: dict[str, ToolHandler] = {
    "create_memory": _create_memory,
    "modify_memory": _modify_memory,
    "recall_memory": _recall_memory,
    "context": _context,
}
"""The handler of each tool this package owns."""


def _writes(name: str, args: Mapping[str, Any]) -> bool:
    if name == "context":
        command = args.get("command")
        return isinstance(command, str) and command in _WRITE_COMMANDS
    return name in ("create_memory", "modify_memory")


def _unavailable_root(name: str, args: Mapping[str, Any]) -> str:
    if name == "context":
        path = args.get("path")
        if isinstance(path, str):
            where = parse_context_path(path)
            if isinstance(where, ContextPath):
                return where.root
        return SCHEME
    return memory_uri("")


def dispatch_plan(
    name: str, arguments: object, ctx: MemoryContext | None, tool_call_id: str | None
) -> Plan[str]:
    """The plan behind `tools.dispatch`; `name` is already known to be owned."""
    try:
        args = _args.parse_arguments(arguments)
        if ctx is None:
            return unavailable(_unavailable_root(name, args))
        provenance = Provenance(written_by="model", tool_call_id=tool_call_id)
        plan = TOOL_HANDLERS[name](ctx, args, provenance)
        if not _writes(name, args):
            return (yield from plan)

        # A command that may write reads, checks and writes alone in its scope: a rename's
        # copy and delete, or a note's create-if-absent, cannot interleave with another call.
        # It can be built again, so its section may run on guessed reads (`guessable`).
        def again() -> Plan[str]:
            return TOOL_HANDLERS[name](ctx, args, provenance)

        return (yield from exclusively(ctx, plan, again))
    except _args.Refusal as refusal:
        return refusal.text
    except DamagedEntryError as damaged:  # read by view, recall or an edit
        return f"Error: {damaged_reason(damaged.key)}"
