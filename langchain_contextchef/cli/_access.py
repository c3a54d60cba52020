"""How a command reaches its data: the store folder, the scope in it, and input files.

Every read that comes back empty checks here whether the scope exists at all, so a typo in
`--scope` gets an error naming the scopes the store holds instead of a silent empty answer.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from langchain_contextchef.cli._options import (
    DEFAULT_STORE,
    PROG,
    SCOPES_SHOWN,
    SLASH,
    CliError,
)
from langchain_contextchef.cli._stores import is_uri, open_uri, with_keys
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import Memory, MemoryConfig, list_scopes
from langchain_contextchef.store import FileSystemStore


def scope_text(scope: tuple[str, ...]) -> str:
    # A '/' inside a label (a tenant id such as "team/ada") is written %2F, as --scope reads it.
    return "/".join(label.replace("/", SLASH) for label in scope) if scope else "(root)"


def open_memory(args: argparse.Namespace, *, create: bool) -> Memory:
    # Any memory type: the CLI does not know the application's list, and must not refuse
    # to copy what the store already holds.
    config = MemoryConfig(memory_types=None)
    return Memory(open_store(args, create=create), config, scope=args.scope_labels)


def open_store(args: argparse.Namespace, *, create: bool) -> BaseStore:
    """The store `--store` names (a folder, a SQLite file or PostgreSQL), with its keys."""
    if is_uri(args.store):
        return with_keys(open_uri(args.store))
    path = Path(args.store)
    if path.exists() and not path.is_dir():
        msg = f"--store {args.store} is a file, not a store folder."
        raise CliError(msg)
    if not path.exists():
        if not create:
            msg = (
                f"No store at {args.store}: the folder does not exist. Pass --store with the "
                f"folder of an existing store (the demo writes {DEFAULT_STORE}), or write "
                "something first with 'contextchef set'."
            )
            raise CliError(msg)
        path.mkdir(parents=True)
    return with_keys(FileSystemStore(path))


def store_scopes(store: BaseStore) -> list[tuple[str, ...]]:
    """Every scope that holds memory entries, history, a turn clock or notes, sorted."""
    return list_scopes(store)


def fail_if_unknown_scope(memory: Memory, args: argparse.Namespace) -> None:
    """Raise when the scope was never written: an empty answer would hide a typo in --scope.

    Called only once a read came back empty, so a normal read never pays for the walk over
    the store's namespaces.
    """
    scopes = store_scopes(memory.store)
    if memory.scope in scopes:
        return
    here = scope_text(memory.scope)
    msg = f"Scope {here} does not exist in store {args.store}: nothing was ever written there."
    if not scopes:
        msg += " The store holds no memory at all yet."
        raise CliError(msg)
    names = [scope_text(scope) for scope in scopes]
    below = [scope_text(s) for s in scopes if s[: len(memory.scope)] == memory.scope]
    close = difflib.get_close_matches(here, names, n=3, cutoff=0.6)
    if below and memory.scope:
        msg += f" Scopes under it: {', '.join(below[:SCOPES_SHOWN])}."
    elif close:
        msg += f" Did you mean {' or '.join(close)}?"
    shown = ", ".join(names[:SCOPES_SHOWN])
    more = f" and {len(names) - SCOPES_SHOWN} more" if len(names) > SCOPES_SHOWN else ""
    msg += f" Scopes in this store: {shown}{more} (see '{PROG} scopes')."
    raise CliError(msg)


def where(args: argparse.Namespace) -> str:
    return f"scope {scope_text(args.scope_labels)} of store {args.store}"


def entry_or_fail(memory: Memory, key: str, args: argparse.Namespace) -> MemoryEntry:
    entry = memory.get_entry(key)
    if entry is None:
        fail_if_unknown_scope(memory, args)
        msg = f"No memory entry {key!r} in {where(args)}. Run 'contextchef list' to see the keys."
        raise CliError(msg)
    return entry


def _read_input(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        msg = f"Cannot read {source}: no such file."
        raise CliError(msg)
    return path.read_text(encoding="utf-8")


def load_json(source: str) -> Any:
    text = _read_input(source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        name = "standard input" if source == "-" else source
        msg = f"{name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        raise CliError(msg) from exc
    except RecursionError:
        name = "standard input" if source == "-" else source
        msg = (
            f"{name} is nested too deeply to read (arrays or objects inside each other more "
            "than Python's recursion limit allows); nothing was read. Pass a flatter file."
        )
        raise CliError(msg) from None
