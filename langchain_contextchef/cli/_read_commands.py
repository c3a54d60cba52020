"""The commands that only read the store: `scopes`, `list`, `show`, `history` and `turns`."""

# A command's output is what it prints.

from __future__ import annotations

import argparse
import json

from langchain_contextchef.cli._access import (
    entry_or_fail,
    fail_if_unknown_scope,
    open_memory,
    scope_text,
    store_scopes,
    where,
)
from langchain_contextchef.cli._options import CliError
from langchain_contextchef.cli._text import clip, entry_json, short_time, table, ttl_text
from langchain_contextchef.entry import HistoryRecord
from langchain_contextchef.memory import Memory


def cmd_scopes(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    prefix = memory.scope
    scopes = [s for s in store_scopes(memory.store) if s[: len(prefix)] == prefix]
    if not scopes:
        under = f" under scope {scope_text(prefix)}" if prefix else ""
        print(f"No memory{under} in store {args.store}.")
        return 0
    rows = [["SCOPE", "ENTRIES", "TURN"]]
    for scope in scopes:
        each = Memory(memory.store, memory.config, scope=scope)
        rows.append([scope_text(scope), str(len(each.list())), str(each.turn)])
    print(table(rows))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    entries = memory.list()
    if not entries:
        fail_if_unknown_scope(memory, args)
        print(f"No memory in {where(args)}.")
        return 0
    turn = memory.turn
    rows = [["KEY", "VALUE", "DESCRIPTION", "UPDATED", "EXPIRES"]]
    rows += [
        [
            e.key,
            clip(e.value, 40),
            clip(e.description or "-", 40),
            short_time(e.updated_at),
            ttl_text(e, turn),
        ]
        for e in entries
    ]
    print(table(rows))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    entry = entry_or_fail(memory, args.key, args)
    print(json.dumps(entry_json(entry), indent=2, ensure_ascii=False))
    return 0


def _history_cause(record: HistoryRecord) -> str:
    parts = [
        f"superseded by {record.superseded_by!r}" if record.superseded_by else "",
        f"tool call {record.tool_call_id}" if record.tool_call_id else "",
        record.note or "",
    ]
    return "; ".join(part for part in parts if part) or "-"


def cmd_history(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    records = memory.history(args.key)
    if not records:
        fail_if_unknown_scope(memory, args)
        msg = f"No entry and no history for {args.key!r} in {where(args)}."
        raise CliError(msg)
    # A record holds two moments: when its version was written (the entry's own update time)
    # and when it left memory (the record's time). Each gets its own column.
    rows = [
        [
            "VERSION",
            "STATUS",
            "VALUE",
            "WRITTEN AT",
            "WRITTEN BY",
            "REPLACED AT",
            "REPLACED BY",
            "CAUSE",
        ]
    ]
    for record in records:
        entry = record.entry
        current = record.status == "current"
        rows.append(
            [
                str(record.version),
                record.status,
                clip(entry.value, 30),
                short_time(entry.updated_at),
                entry.provenance.written_by if entry.provenance else "-",
                "-" if current or record.recorded_at is None else short_time(record.recorded_at),
                "-"
                if current
                else record.changed_by or ("expiry" if record.status == "expired" else "-"),
                _history_cause(record),
            ]
        )
    print(table(rows))
    return 0


def cmd_turns(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    entries = memory.list()
    turn = memory.turn
    if not entries and turn == 0:
        fail_if_unknown_scope(memory, args)
    print(
        f"Turn clock of {where(args)}: {turn} (compiles so far; the next one is turn {turn + 1})."
    )
    timed = [e for e in entries if e.expires_at_turn is not None or e.expires_at is not None]
    if timed:
        print("Entries with a TTL:")
        for entry in timed:
            print(f"  {entry.key}: expires {ttl_text(entry, turn)}")
    else:
        print("No entry has a TTL.")
    return 0
