"""The read path of a `FileSystemStore`: get, search and list_namespaces over a `DiskView`.

Reads take no lock (renames are atomic). Every item a read returns is the current version of
its file: revalidated with a `stat` (and re-read if it changed) unless it was parsed during
this very call. Expired items, and files whose namespace or key does not match where they
lie, are skipped. These functions return records; the store turns them into LangGraph items
and restarts their TTL when asked (`_expiry.Expiry.refresh`).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterable
from typing import Any

import orjson
from langgraph.store.base import Item, ListNamespacesOp, MatchCondition, SearchItem, SearchOp

from langchain_contextchef.store._filters import matches
from langchain_contextchef.store._fsio import read_file
from langchain_contextchef.store._listing import Listing
from langchain_contextchef.store._paths import ITEM_SUFFIX, is_item_file_of, item_file_name
from langchain_contextchef.store._records import (
    CREATED,
    EXPIRES_TS,
    KEY,
    NS,
    PATH,
    SEEN,
    UPDATED,
    Record,
    Unreadable,
    is_expired,
    order_key,
    value_of,
)
from langchain_contextchef.store._semantic import SemanticIndex
from langchain_contextchef.store._view import DiskView

__all__ = [
    "SearchHit",
    "get_record",
    "item_of",
    "list_namespaces",
    "live",
    "search",
    "search_item",
    "unreadable_keys",
]

SearchHit = tuple[Record, float | None, dict[str, Any] | None]
"""A search result: the record, its similarity score, and its value if already copied."""


def live(record: Record | None, namespace: tuple[str, ...], key: str, now: float) -> Record | None:
    """`record` if it is unexpired and really the item `namespace`/`key`, else `None`."""
    if record is None or is_expired(record, now):
        return None
    if record[NS] != namespace or record[KEY] != key:
        return None
    return record


def get_record(
    view: DiskView,
    namespace: tuple[str, ...],
    key: object,
    now: float,
    checked: dict[str, bool] | None = None,
) -> Record | None:
    """The live record of one item, or `None` (a key no file could hold finds nothing).

    `checked`: the folders this batch of reads already checked (`DiskView.dir_ok`), and
    their answers; a batch's gets of one folder check it once (the item's own file is
    still checked per get).
    """
    if not isinstance(key, str) or "\x00" in key:
        return None
    dirpath, parts = view.dir_of(namespace)
    if not parts:
        return None
    ok = checked.get(dirpath) if checked is not None else None
    if ok is None:
        ok = view.dir_ok(dirpath, parts)
        if checked is not None:
            checked[dirpath] = ok
    if not ok:
        return None
    return live(view.load(view.file_of(namespace, key)), namespace, key, now)


def unreadable_keys(
    view: DiskView, namespace: tuple[str, ...], keys: Iterable[object] | None, *, read: bool = False
) -> list[str]:
    """The keys of exactly `namespace` whose file is present but cannot be read as that item.

    With `keys`, only those keys are checked (one `stat` each while their files are
    unchanged); otherwise every item file of the folder, naming a broken file by its file
    name when that is a plain key, else by the `key` its document names when that key's
    file name is this one. A broken file whose key neither way reveals is left out. With
    `read`, the caller has just read the whole folder through this view, so the answer is
    what that read found, without a `stat` per file.
    """
    dirpath, parts = view.dir_of(namespace)
    if not parts or not view.dir_ok(dirpath, parts):
        return []
    found: set[str] = set()
    if keys is not None:
        for key in keys:
            if isinstance(key, str) and "\x00" not in key:
                path = view.file_of(namespace, key)
                if view.load(path) is None and isinstance(view.records.get(path), Unreadable):
                    found.add(key)
        return sorted(found)
    listing = view.listing(dirpath)
    if listing is None:
        return []
    for name in listing.names:
        path = os.path.join(dirpath, name)
        if (read or view.load(path) is None) and isinstance(view.records.get(path), Unreadable):
            key = _key_of_broken(path, name)
            if key is not None:
                found.add(key)
    return sorted(found)


def _key_of_broken(path: str, name: str) -> str | None:
    stem = name[: -len(ITEM_SUFFIX)]
    if is_item_file_of(name, stem):
        return stem
    # An encoded file name cannot be decoded; the document may still name its key.
    try:
        loaded = read_file(path)  # never follows a link
        document = orjson.loads(loaded[0]) if loaded is not None else None
    except (OSError, orjson.JSONDecodeError):
        return None
    key = document.get("key") if isinstance(document, dict) else None
    return key if isinstance(key, str) and item_file_name(key) == name else None


def item_of(record: Record) -> Item:
    """The LangGraph `Item` of a record (with a private copy of its value)."""
    return Item(
        value=value_of(record),
        key=record[KEY],
        namespace=record[NS],
        created_at=record[CREATED],
        updated_at=record[UPDATED],
    )


def search_item(record: Record, score: float | None, value: dict[str, Any] | None) -> SearchItem:
    """The LangGraph `SearchItem` of a hit (copying the value unless the hit holds one)."""
    return SearchItem(
        record[NS],
        record[KEY],
        value_of(record) if value is None else value,
        record[CREATED],
        record[UPDATED],
        score,
    )


def search(
    view: DiskView, op: SearchOp, now: float, index: SemanticIndex | None
) -> list[SearchHit]:
    """The page of live items under `op.namespace_prefix` that `op` asks for.

    With a query and an index, items rank by similarity (`SemanticIndex.rank`); otherwise
    newest first (ties by namespace, then key).
    """
    if op.offset < 0 or op.limit <= 0:
        return []
    start, parts = view.dir_of(op.namespace_prefix)
    if parts and not view.dir_ok(start, parts):
        return []
    listings = list(view.walk(start))
    if not listings:
        return []
    listings = [listing for listing in listings if listing.names]
    if op.query and index is not None:
        return [(rec, score, None) for rec, score in index.rank(view, listings, op, now)]
    return _page(view, listings, op, now)


def _page(view: DiskView, listings: list[Listing], op: SearchOp, now: float) -> list[SearchHit]:
    # Files parsed while building a listing in this very call need no second stat;
    # they carry that build's read time (equality, so a clock step cannot fool it).
    fresh: set[int] = set()
    # The values parsed while building those listings: each is handed out once, as the hit's
    # private copy, instead of being decoded again from the record (a cold search's cost).
    parsed: dict[str, dict[str, Any]] = {}
    streams = []
    for listing in listings:
        built = listing.entries is None
        streams.append(view.entries(listing, parsed))
        if built:
            fresh.add(listing.built_ns)
    ordered: Iterable[Record] = (
        streams[0] if len(streams) == 1 else heapq.merge(*streams, key=order_key) if streams else ()
    )
    page: list[SearchHit] = []
    skip = op.offset
    load = view.load
    wanted = op.filter
    for cached in ordered:
        # Every item a search considers is the file's current version: revalidated
        # with a stat (re-read if it changed), unless parsed during this very call.
        record = cached if cached[SEEN] in fresh else load(cached[PATH])
        if record is None:
            continue
        expires = record[EXPIRES_TS]
        if expires is not None and expires <= now:
            continue
        value = parsed.pop(record[PATH], None) if record is cached and parsed else None
        if wanted:
            if value is None:
                value = value_of(record)
            if not matches(value, wanted):
                continue
        if skip:
            skip -= 1
            continue
        page.append((record, None, value))
        if len(page) >= op.limit:
            break
    return page


def list_namespaces(view: DiskView, op: ListNamespacesOp, now: float) -> list[tuple[str, ...]]:
    """The namespaces holding a live item that match `op`'s conditions, sorted and paged."""
    conditions = tuple(op.match_conditions or ())
    start: list[str] = []
    for condition in conditions:
        if condition.match_type == "prefix":
            for label in condition.path:
                if label == "*":
                    break
                start.append(label)
            break
    start_path, parts = view.dir_of(tuple(start))
    if parts and not view.dir_ok(start_path, parts):
        return []
    found = view.live_namespaces(start_path, now)
    namespaces = (
        [ns for ns in found if all(_matches_condition(c, ns) for c in conditions)]
        if conditions
        else list(found)
    )
    if op.max_depth is not None:
        namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
    else:
        namespaces.sort()
    return namespaces[op.offset : op.offset + op.limit]


def _matches_condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace[: len(path)], path, strict=True)
    elif condition.match_type == "suffix":
        pairs = zip(namespace[len(namespace) - len(path) :], path, strict=True)
    else:
        msg = (
            f"Unsupported namespace match type {condition.match_type!r}; use 'prefix' or 'suffix'."
        )
        raise ValueError(msg)
    return all(want == "*" or label == want for label, want in pairs)
