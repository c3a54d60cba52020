"""The `context` tool on text namespaces: `notes/` (the model's scratch space), `vfs/`, `archive/`.

An item holds `{"text", "created_at", "updated_at"}`. One handler per command, chosen from
`NOTE_COMMANDS`; every check that can refuse a call runs before its one write.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from langgraph.store.base import GetOp, Item, PutOp

from langchain_contextchef._context_paths import ContextPath
from langchain_contextchef._plan import Io, Plan, gather
from langchain_contextchef.entry import Provenance, format_time
from langchain_contextchef.memory import MemoryContext
from langchain_contextchef.memory._plans import judge_note, read_items
from langchain_contextchef.memory._texts import already_exists, nothing_at
from langchain_contextchef.tools import _args
from langchain_contextchef.tools._text_ops import (
    insert_edit,
    lines,
    listing,
    replace_edit,
    search_text,
    snippet,
)

__all__ = ["NOTE_COMMANDS"]

NoteCommand: TypeAlias = Callable[
    [MemoryContext, tuple[str, ...], ContextPath, Mapping[str, Any], Provenance], Plan[str]
]


def _text_of(item: Item) -> str:
    value = item.value.get("text")
    return value if isinstance(value, str) else json.dumps(item.value, sort_keys=True)


def _numbered(text: str) -> str:
    return "\n".join(f"{number:>6}\t{line}" for number, line in enumerate(lines(text), start=1))


def _read_item(namespace: tuple[str, ...], path: str) -> Plan[Item | None]:
    got = yield from gather(item=GetOp(namespace, path, refresh_ttl=False))
    return got.item  # type: ignore[no-any-return]


def _existing_item(namespace: tuple[str, ...], where: ContextPath) -> Plan[Item]:
    item = yield from _read_item(namespace, where.path)
    if item is None:
        _args.refuse(nothing_at(where.uri))
    return item


def _gated(
    ctx: MemoryContext, where: ContextPath, text: str, provenance: Provenance, *, is_new: bool
) -> Plan[tuple[str, str]]:
    """The text to store after the write gate, and the notice to append to the reply."""
    decision = yield from judge_note(ctx, where.path, text, provenance, is_new=is_new)
    if decision is None:
        return text, ""
    if not decision.injectable:
        # Notes have no review queue: a note the gate would hold is refused outright.
        _args.refuse(dataclasses.replace(decision, action="reject").error_message(where.uri))
    notice = decision.notice(where.uri)
    return decision.value, f" {notice}" if notice else ""


def _put(
    ctx: MemoryContext, namespace: tuple[str, ...], path: str, text: str, previous: Item | None
) -> Io:
    now = format_time(ctx.now())
    created = previous.value.get("created_at", now) if previous is not None else now
    value = {"text": text, "created_at": created, "updated_at": now}
    return Io([PutOp(namespace, path, value, index=["text"])])


def _view(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    if not where.is_dir:
        item = yield from _read_item(ns, where.path)
        if item is not None:
            text = _text_of(item)
            return _numbered(text) if text else f"{where.uri} is an empty note."
    page = _args.offset(args)
    items = yield from read_items(ns)
    return listing(where, [(item.key, None) for item in items], page)


def _search(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    query = _args.query(args)
    page = _args.offset(args)
    items = yield from read_items(ns)
    hits: list[tuple[str, str]] = []
    for item in sorted(items, key=lambda i: (i.key.casefold(), i.key)):
        inside = item.key.startswith(where.path) if where.is_dir else item.key == where.path
        found = snippet(_text_of(item), query) if inside else None
        if found is not None:
            hits.append((f"{where.root}{item.key}", found))
    return search_text(where.uri, query, hits, page)


def _create(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    text = _args.text(args, "file_text")
    if (yield from _read_item(ns, where.path)) is not None:
        return already_exists(where.uri, "unified")
    text, notice = yield from _gated(ctx, where, text, provenance, is_new=True)
    yield _put(ctx, ns, where.path, text, None)
    return f"Created {where.uri}.{notice}"


def _rewrite(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    provenance: Provenance,
    edit: Callable[[str], str],
) -> Plan[str]:
    """Edit an existing note in place through the gate; the notice to append to the reply."""
    item = yield from _existing_item(ns, where)
    edited, notice = yield from _gated(ctx, where, edit(_text_of(item)), provenance, is_new=False)
    yield _put(ctx, ns, where.path, edited, item)
    return notice


def _str_replace(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    notice = yield from _rewrite(ctx, ns, where, provenance, replace_edit(args, where.uri))
    return f"Edited {where.uri}.{notice}"


def _insert(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    notice = yield from _rewrite(ctx, ns, where, provenance, insert_edit(args, where.uri))
    return f"Inserted into {where.uri}.{notice}"


def _delete(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    yield from _existing_item(ns, where)
    yield Io([PutOp(ns, where.path, None)])
    return f"Deleted {where.uri}."


def _rename(
    ctx: MemoryContext,
    ns: tuple[str, ...],
    where: ContextPath,
    args: Mapping[str, Any],
    provenance: Provenance,
) -> Plan[str]:
    dest = _args.destination(args, where)
    got = yield from gather(
        source=GetOp(ns, where.path, refresh_ttl=False),
        dest=GetOp(ns, dest.path, refresh_ttl=False),
    )
    if got.source is None:
        return nothing_at(where.uri)
    if got.dest is not None:
        return already_exists(dest.uri, "unified")
    # The new path is new text the gate has not seen; the moved text is judged with it.
    text, notice = yield from _gated(ctx, dest, _text_of(got.source), provenance, is_new=True)
    moved = {**got.source.value, "text": text, "updated_at": format_time(ctx.now())}
    yield Io([PutOp(ns, dest.path, moved, index=["text"]), PutOp(ns, where.path, None)])
    return f"Renamed {where.uri} to {dest.uri}.{notice}"


NOTE_COMMANDS: dict[str, NoteCommand] = {
    "view": _view,
    "search": _search,
    "create": _create,
    "str_replace": _str_replace,
    "insert": _insert,
    "delete": _delete,
    "rename": _rename,
}
"""The handler of each `context` command on a text namespace."""
