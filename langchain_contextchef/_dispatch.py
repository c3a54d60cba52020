"""The tool-call dispatcher, written once as a plan for sync and async callers.

Everything here turns a model's tool call into a result text. Model mistakes become `Error: ...`
texts; every check that can refuse a call runs before the first write, so a refused call leaves
the store exactly as it was. The one exception is the host's veto on the second half of a
rename (copy, then delete): when it refuses the delete, the copy stays and the result says so
("Copied ..., but the original could not be removed."). Exceptions from user hooks propagate:
those are developer bugs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, NoReturn

from langgraph.store.base import GetOp, Item, PutOp, SearchOp

from langchain_contextchef._context_paths import (
    MAX_PATH_LENGTH,
    SCHEME,
    WRITABLE_NAMESPACES,
    ContextPath,
    parse_context_path,
)
from langchain_contextchef._driver import Io, Plan
from langchain_contextchef.entry import MemoryEntry, Provenance, format_time
from langchain_contextchef.memory import _BULK_LIMIT, Memory, WriteResult
from langchain_contextchef.ttl import ResolvedExpiry

__all__ = ["CONTEXT_COMMANDS", "MEMORY_TOOL_NAMES", "dispatch_plan"]

CONTEXT_COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename", "search")
_WRITE_COMMANDS = frozenset({"create", "str_replace", "insert", "delete", "rename"})
MEMORY_TOOL_NAMES = ("create_memory", "modify_memory")
_SNIPPET_RADIUS = 40
_MEMORY_ROOT = f"{SCHEME}memory/"


class _Refusal(Exception):
    """Carries an `Error: ...` text out of nested helpers; raised only before any write."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


# ---- arguments --------------------------------------------------------------------------------


def _refuse(text: str) -> NoReturn:
    raise _Refusal(text)


def _parse_arguments(arguments: object) -> dict[str, Any]:
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        text = arguments.strip()
        if not text:
            return {}
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            _refuse("Error: the tool arguments were not valid JSON.")
        arguments = parsed
    if not isinstance(arguments, Mapping):
        _refuse("Error: the tool arguments must be a JSON object.")
    return dict(arguments)


def _required_text(name: str) -> str:
    return f'Error: the "{name}" argument is required and must be a non-empty string.'


def _check_chars(name: str, value: str) -> None:
    if "\x00" in value:
        _refuse(f'Error: the "{name}" argument cannot contain NUL characters.')
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: no backend can store them
        _refuse(f'Error: the "{name}" argument is not valid Unicode text.')


def _text(args: Mapping[str, Any], name: str, *, identifier: bool = False) -> str:
    """A required string; identifiers (keys, paths, commands) may not be blank either."""
    value = args.get(name)
    if not isinstance(value, str) or not value or (identifier and not value.strip()):
        _refuse(_required_text(name))
    _check_chars(name, value)
    return value


def _optional_text(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        _refuse(f'Error: the "{name}" argument must be a string.')
    _check_chars(name, value)
    return value


def _integer(args: Mapping[str, Any], name: str) -> int:
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        _refuse(f'Error: the "{name}" argument is required and must be an integer.')
    return value


def _optional_version(args: Mapping[str, Any]) -> int | None:
    value = args.get("version")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        _refuse(
            'Error: the "version" argument must be a positive integer: the version shown for '
            "the entry in your memory, or leave it out."
        )
    return value


def _supersedes(args: Mapping[str, Any]) -> tuple[str, ...]:
    value = args.get("supersedes")
    if value is None:
        return ()
    if isinstance(value, str):  # one key given bare instead of as a list
        value = [value]
    if not isinstance(value, list):
        _refuse('Error: the "supersedes" argument must be a list of memory keys.')
    return tuple(_memory_key({"supersedes": item}, "supersedes") for item in value)


def _memory_key(args: Mapping[str, Any], name: str) -> str:
    key = _text(args, name, identifier=True)
    if len(key) > MAX_PATH_LENGTH:
        _refuse(
            f'Error: the "{name}" argument is {len(key)} characters long; '
            f"use at most {MAX_PATH_LENGTH}."
        )
    # A key must also be addressable as context://memory/<key>, or the model could never see it.
    parsed = parse_context_path(_MEMORY_ROOT + key)
    if isinstance(parsed, str) or parsed.is_dir or parsed.path != key:
        _refuse(
            f'Error: "{key}" is not a usable memory key. Keys may not start or end with "/" '
            'or whitespace, contain "//", or use "." or ".." as a path segment.'
        )
    return key


# ---- texts ------------------------------------------------------------------------------------


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _memory_uri(key: str) -> str:
    return f"{_MEMORY_ROOT}{key}"


def _unavailable(root: str) -> str:
    return (
        f"Error: {root} is not available: these tools were built without memory. "
        "The host has to configure memory to enable it."
    )


def _not_allowed(result: WriteResult) -> str:
    uri = _memory_uri(result.key)
    if not result.allowed_keys:
        return f"Error: {uri} cannot be written: no memory keys are allowed."
    allowed = ", ".join(result.allowed_keys)
    return f"Error: {uri} is not an allowed memory key. Allowed keys: {allowed}."


def _already_exists(uri: str) -> str:
    return f"Error: {uri} already exists. Use str_replace to edit it, or delete it first."


def _nothing_at(uri: str) -> str:
    return f"Error: nothing is stored at {uri}."


def _unreadable(uri: str) -> str:
    # Both read paths (recall_memory and view) answer a held entry with the same text.
    return f"Error: {uri} is quarantined; it cannot be read until the host approves it."


def _write_text(result: WriteResult, success: str) -> str:
    uri = _memory_uri(result.key)
    if result.message is not None and not result.ok:  # gate, type, supersede, stale
        return result.message
    if result.status == "not_allowed":
        return _not_allowed(result)
    if result.status == "already_exists":
        return _already_exists(uri)
    if result.status == "not_found":
        return _nothing_at(uri)
    if result.status == "vetoed":
        return f"Error: the write to {uri} was rejected by the host."
    if result.superseded:
        retired = ", ".join(_memory_uri(key) for key in result.superseded)
        success += (
            f" It supersedes {retired}, which moved to history and is no longer shown to you."
        )
    if result.notice:
        success += " " + result.notice
    return success


def _refuse_disallowed(memory: Memory, key: str) -> None:
    refused = memory._not_allowed(key)
    if refused is not None:
        _refuse(_not_allowed(refused))


# ---- text helpers shared by memory values and notes -------------------------------------------


def _lines(text: str) -> list[str]:
    if not text:
        return []
    parts = text.split("\n")
    return parts[:-1] if text.endswith("\n") else parts


def _replace_once(text: str, old: str, new: str, uri: str) -> str:
    count = text.count(old)
    if count == 0:
        _refuse(
            f"Error: old_str was not found in {uri}. "
            "It has to match the stored text exactly, including whitespace."
        )
    if count > 1:
        _refuse(
            f"Error: old_str appears more than once in {uri}. "
            "Include enough surrounding text for it to match exactly one place."
        )
    return text.replace(old, new, 1)


def _insert_at(text: str, line: int, insert: str, uri: str) -> str:
    lines = _lines(text)
    if not 0 <= line <= len(lines):
        total = _plural(len(lines), "line", "lines")
        _refuse(
            f"Error: insert_line {line} is out of range for {uri}, which has {total}. "
            f"Use 0 to {len(lines)}."
        )
    joined = "\n".join(lines[:line] + _lines(insert) + lines[line:])
    # Keep the text's own final-newline convention; the inserted block adds no extra one.
    return joined + "\n" if text.endswith("\n") else joined


def _snippet(haystack: str, query: str) -> str | None:
    match = re.search(re.escape(query), haystack, re.IGNORECASE)
    if match is None:
        return None
    start = max(0, match.start() - _SNIPPET_RADIUS)
    end = min(len(haystack), match.end() + _SNIPPET_RADIUS)
    body = " ".join(haystack[start:end].split())
    return ("…" if start > 0 else "") + body + ("…" if end < len(haystack) else "")


def _search_text(root: str, query: str, hits: list[tuple[str, str]]) -> str:
    if not hits:
        return f'No matches for "{query}" under {root}.'
    head = f'{_plural(len(hits), "match", "matches")} for "{query}" under {root}:'
    return "\n".join([head, *(f"- {uri}: {snippet}" for uri, snippet in hits)])


def _listing(where: ContextPath, rows: list[tuple[str, str | None]]) -> str:
    if not rows:
        return f"{where.uri} is empty."
    rows = sorted(rows, key=lambda row: (row[0].casefold(), row[0]))
    head = f"{where.uri} ({_plural(len(rows), 'entry', 'entries')}):"
    lines = [head]
    for path, note in rows:
        uri = f"{where.root}{path}"
        lines.append(f"- {uri} — {note}" if note else f"- {uri}")
    return "\n".join(lines)


def _under(path: str, prefix: str) -> bool:
    return path.startswith(prefix)


# ---- legacy tools -----------------------------------------------------------------------------


def _create_entry(
    memory: Memory,
    key: str,
    value: str,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    description = _optional_text(args, "description")
    type_ = _optional_text(args, "type")
    supersedes = _supersedes(args)
    result = yield from memory._model_write(
        key,
        value,
        description=description,
        provenance=provenance,
        must_exist=False,
        type=type_,
        supersedes=supersedes,
    )
    return _write_text(result, f"Created {_memory_uri(key)}.")


def _create_memory(memory: Memory, args: Mapping[str, Any], provenance: Provenance) -> Plan[str]:
    key = _memory_key(args, "key")
    value = _text(args, "value")
    return (yield from _create_entry(memory, key, value, args, provenance))


def _recall_memory(memory: Memory, args: Mapping[str, Any]) -> Plan[str]:
    key = _memory_key(args, "key")
    entry = yield from memory._recall(key)
    if entry is None:
        return _nothing_at(_memory_uri(key))
    if entry.status != "active":
        return _unreadable(_memory_uri(key))
    return entry.value


def _modify_memory(memory: Memory, args: Mapping[str, Any], provenance: Provenance) -> Plan[str]:
    action = _text(args, "action", identifier=True)
    key = _memory_key(args, "key")
    _refuse_disallowed(memory, key)
    existing = yield from memory._read_one(key)
    if existing is None:
        return _nothing_at(_memory_uri(key))
    if action == "delete":
        version = _optional_version(args)
        result = yield from memory._model_delete(
            key, provenance=provenance, expected_version=version
        )
        return _write_text(result, f"Deleted {_memory_uri(key)}.")
    if action != "update":
        return f'Error: action must be "update" or "delete", got "{action}".'
    value = _text(args, "value")
    description = _optional_text(args, "description")
    type_ = _optional_text(args, "type")
    version = _optional_version(args)
    result = yield from memory._model_write(
        key,
        value,
        description=description,
        provenance=provenance,
        must_exist=True,
        type=type_,
        expected_version=version,
    )
    return _write_text(result, f"Updated {_memory_uri(key)}.")


# ---- the context tool: memory/ ----------------------------------------------------------------


def _memory_view(memory: Memory, where: ContextPath) -> Plan[str]:
    if not where.is_dir:
        entry = yield from memory._recall(where.path)
        if entry is not None:
            if entry.status != "active":
                return _unreadable(where.uri)
            return entry.value
    entries, _ = yield from memory._read_all()
    prefix = where.path if where.is_dir else where.path + "/"
    rows = [
        (e.key, e.description) for e in entries if e.status == "active" and _under(e.key, prefix)
    ]
    if not where.is_dir and not rows:
        return _nothing_at(where.uri)
    directory = ContextPath(where.namespace, prefix, is_dir=True)
    return _listing(directory, rows)


def _memory_search(memory: Memory, where: ContextPath, query: str) -> Plan[str]:
    entries, _ = yield from memory._read_all()
    hits: list[tuple[str, str]] = []
    for entry in sorted(entries, key=lambda e: (e.key.casefold(), e.key)):
        inside = _under(entry.key, where.path) if where.is_dir else entry.key == where.path
        if not inside or entry.status != "active":
            continue
        haystack = entry.value + ("\n" + entry.description if entry.description else "")
        snippet = _snippet(haystack, query)
        if snippet is not None:
            hits.append((_memory_uri(entry.key), snippet))
    return _search_text(where.uri, query, hits)


def _existing_entry(
    memory: Memory, where: ContextPath, version: int | None = None
) -> Plan[MemoryEntry]:
    _refuse_disallowed(memory, where.path)
    entry = yield from memory._read_one(where.path)
    if entry is None:
        _refuse(_nothing_at(where.uri))
    if entry.status == "quarantined":
        _refuse(_write_text(memory._held(where.path), ""))
    if version is not None and entry.version != version:
        # Checked before the edit is applied, so the model sees the value it has to redo.
        _refuse(_write_text(memory._stale(entry, version), ""))
    return entry


def _memory_edit(
    memory: Memory,
    where: ContextPath,
    new_value: str,
    provenance: Provenance,
    done: str,
    version: int | None,
) -> Plan[str]:
    if not new_value:
        _refuse(f"Error: this edit would leave {where.uri} empty. Delete it instead.")
    result = yield from memory._model_write(
        where.path,
        new_value,
        description=None,
        provenance=provenance,
        must_exist=True,
        expected_version=version,
    )
    return _write_text(result, done)


def _memory_rename(
    memory: Memory,
    where: ContextPath,
    dest: ContextPath,
    provenance: Provenance,
    version: int | None,
) -> Plan[str]:
    _refuse_disallowed(memory, where.path)
    _refuse_disallowed(memory, dest.path)
    source = yield from memory._read_one(where.path)
    if source is None:
        return _nothing_at(where.uri)
    if source.status == "quarantined":
        return _write_text(memory._held(where.path), "")
    if version is not None and source.version != version:
        return _write_text(memory._stale(source, version), "")
    if (yield from memory._read_one(dest.path)) is not None:
        return _already_exists(dest.uri)
    # The entry moves as it is: a rename must not drop its type or importance, nor give
    # it the default TTL (which would make a permanent entry expire).
    copied = yield from memory._model_write(
        dest.path,
        source.value,
        description=source.description,
        provenance=provenance,
        must_exist=False,
        type=source.type,
        ttl=ResolvedExpiry(source.expires_at_turn, source.expires_at),
        importance=source.importance,
    )
    if not copied.ok:
        return _write_text(copied, "")
    removed = yield from memory._model_delete(where.path, provenance=provenance)
    if not removed.ok:
        return f"Copied {where.uri} to {dest.uri}, but the original could not be removed."
    return f"Renamed {where.uri} to {dest.uri}."


def _memory_command(
    memory: Memory,
    command: str,
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    if command == "view":
        return (yield from _memory_view(memory, where))
    if command == "search":
        query = _query(args)
        return (yield from _memory_search(memory, where, query))
    if command == "create":
        value = _text(args, "file_text")
        return (yield from _create_entry(memory, where.path, value, args, provenance))
    version = _optional_version(args)
    if command == "str_replace":
        old = _text(args, "old_str")
        new = _optional_text(args, "new_str") or ""
        entry = yield from _existing_entry(memory, where, version)
        edited = _replace_once(entry.value, old, new, where.uri)
        done = f"Edited {where.uri}."
        return (yield from _memory_edit(memory, where, edited, provenance, done, version))
    if command == "insert":
        line = _integer(args, "insert_line")
        text = _text(args, "insert_text")
        entry = yield from _existing_entry(memory, where, version)
        edited = _insert_at(entry.value, line, text, where.uri)
        done = f"Inserted into {where.uri}."
        return (yield from _memory_edit(memory, where, edited, provenance, done, version))
    if command == "delete":
        result = yield from memory._model_delete(
            where.path, provenance=provenance, expected_version=version
        )
        return _write_text(result, f"Deleted {where.uri}.")
    dest = _destination(args, where)
    return (yield from _memory_rename(memory, where, dest, provenance, version))


# ---- the context tool: notes/ and the read-only text namespaces -------------------------------


def _text_of(item: Item) -> str:
    text = item.value.get("text")
    return text if isinstance(text, str) else json.dumps(item.value, sort_keys=True)


def _numbered(text: str) -> str:
    return "\n".join(f"{number:>6}\t{line}" for number, line in enumerate(_lines(text), start=1))


def _read_item(namespace: tuple[str, ...], path: str) -> Plan[Item | None]:
    (item,) = yield Io([GetOp(namespace, path, refresh_ttl=False)])
    return item  # type: ignore[no-any-return]


def _read_items(namespace: tuple[str, ...]) -> Plan[list[Item]]:
    (items,) = yield Io([SearchOp(namespace, limit=_BULK_LIMIT, refresh_ttl=False)])
    # A prefix search also returns deeper namespaces; keep only this one.
    return [item for item in items if tuple(item.namespace) == namespace]


def _existing_item(namespace: tuple[str, ...], where: ContextPath) -> Plan[Item]:
    item = yield from _read_item(namespace, where.path)
    if item is None:
        _refuse(_nothing_at(where.uri))
    return item


def _note_value(memory: Memory, text: str, previous: Item | None) -> dict[str, Any]:
    now = format_time(memory._now())
    created = previous.value.get("created_at", now) if previous is not None else now
    return {"text": text, "created_at": created, "updated_at": now}


def _put_note(
    memory: Memory, namespace: tuple[str, ...], path: str, text: str, previous: Item | None
) -> Io:
    return Io([PutOp(namespace, path, _note_value(memory, text, previous), index=["text"])])


def _text_view(namespace: tuple[str, ...], where: ContextPath) -> Plan[str]:
    if not where.is_dir:
        item = yield from _read_item(namespace, where.path)
        if item is not None:
            text = _text_of(item)
            return _numbered(text) if text else f"{where.uri} is an empty note."
    prefix = where.path if where.is_dir else where.path + "/"
    items = yield from _read_items(namespace)
    rows: list[tuple[str, str | None]] = [(i.key, None) for i in items if _under(i.key, prefix)]
    if not where.is_dir and not rows:
        return _nothing_at(where.uri)
    return _listing(ContextPath(where.namespace, prefix, is_dir=True), rows)


def _text_search(namespace: tuple[str, ...], where: ContextPath, query: str) -> Plan[str]:
    items = yield from _read_items(namespace)
    hits: list[tuple[str, str]] = []
    for item in sorted(items, key=lambda i: (i.key.casefold(), i.key)):
        inside = _under(item.key, where.path) if where.is_dir else item.key == where.path
        snippet = _snippet(_text_of(item), query) if inside else None
        if snippet is not None:
            hits.append((f"{where.root}{item.key}", snippet))
    return _search_text(where.uri, query, hits)


def _text_command(
    memory: Memory, command: str, where: ContextPath, args: Mapping[str, Any]
) -> Plan[str]:
    namespace = (*memory.scope, where.namespace)
    if command == "view":
        return (yield from _text_view(namespace, where))
    if command == "search":
        query = _query(args)
        return (yield from _text_search(namespace, where, query))
    if command == "create":
        text = _text(args, "file_text")
        if (yield from _read_item(namespace, where.path)) is not None:
            return _already_exists(where.uri)
        yield _put_note(memory, namespace, where.path, text, None)
        return f"Created {where.uri}."
    if command == "str_replace":
        old = _text(args, "old_str")
        new = _optional_text(args, "new_str") or ""
        item = yield from _existing_item(namespace, where)
        edited = _replace_once(_text_of(item), old, new, where.uri)
        yield _put_note(memory, namespace, where.path, edited, item)
        return f"Edited {where.uri}."
    if command == "insert":
        line = _integer(args, "insert_line")
        text = _text(args, "insert_text")
        item = yield from _existing_item(namespace, where)
        edited = _insert_at(_text_of(item), line, text, where.uri)
        yield _put_note(memory, namespace, where.path, edited, item)
        return f"Inserted into {where.uri}."
    if command == "delete":
        yield from _existing_item(namespace, where)
        yield Io([PutOp(namespace, where.path, None)])
        return f"Deleted {where.uri}."
    dest = _destination(args, where)
    item = yield from _existing_item(namespace, where)
    if (yield from _read_item(namespace, dest.path)) is not None:
        return _already_exists(dest.uri)
    moved = {**item.value, "updated_at": format_time(memory._now())}
    yield Io(
        [PutOp(namespace, dest.path, moved, index=["text"]), PutOp(namespace, where.path, None)]
    )
    return f"Renamed {where.uri} to {dest.uri}."


# ---- the context tool -------------------------------------------------------------------------


def _query(args: Mapping[str, Any]) -> str:
    query = _text(args, "query")
    if not query.strip():
        _refuse('Error: the "query" argument must not be blank.')
    return query


def _destination(args: Mapping[str, Any], where: ContextPath) -> ContextPath:
    dest = parse_context_path(_text(args, "new_path", identifier=True))
    if isinstance(dest, str):
        _refuse(dest)
    if dest.namespace != where.namespace:
        _refuse(f"Error: rename stays inside one namespace; {where.uri} cannot move to {dest.uri}.")
    if dest.is_dir:
        _refuse(f"Error: {dest.uri} is a directory. Name the new path in full.")
    return dest


def _writable_roots() -> str:
    return ", ".join(f"{SCHEME}{ns}/" for ns in WRITABLE_NAMESPACES)


def _context(memory: Memory, args: Mapping[str, Any], provenance: Provenance) -> Plan[str]:
    command = _text(args, "command", identifier=True)
    if command not in CONTEXT_COMMANDS:
        known = ", ".join(CONTEXT_COMMANDS)
        return f'Error: unknown command "{command}". Use one of: {known}.'
    where = parse_context_path(_text(args, "path", identifier=True))
    if isinstance(where, str):
        return where
    if command in _WRITE_COMMANDS:
        if not where.writable:
            return f"Error: {where.uri} is read-only. This tool may write to: {_writable_roots()}."
        if where.is_dir:
            thing = "memory key" if where.namespace == "memory" else "note"
            return f"Error: {where.uri} is a directory. Name the {thing} to {command}."
    if where.namespace == "memory":
        return (yield from _memory_command(memory, command, where, args, provenance))
    return (yield from _text_command(memory, command, where, args))


def _unavailable_root(name: str, args: Mapping[str, Any]) -> str:
    if name == "context":
        path = args.get("path")
        if isinstance(path, str):
            where = parse_context_path(path)
            if isinstance(where, ContextPath):
                return where.root
        return SCHEME
    return _MEMORY_ROOT


def dispatch_plan(
    name: str, arguments: object, memory: Memory | None, tool_call_id: str | None
) -> Plan[str]:
    """The plan behind `tools.dispatch`; `name` is already known to be owned."""
    try:
        args = _parse_arguments(arguments)
        if memory is None:
            return _unavailable(_unavailable_root(name, args))
        provenance = Provenance(written_by="model", tool_call_id=tool_call_id)
        if name == "create_memory":
            return (yield from _create_memory(memory, args, provenance))
        if name == "modify_memory":
            return (yield from _modify_memory(memory, args, provenance))
        if name == "recall_memory":
            return (yield from _recall_memory(memory, args))
        return (yield from _context(memory, args, provenance))
    except _Refusal as refusal:
        return refusal.text
