"""The commands that change the store or copy it out: `set`, `delete`, `export` and `import`.

Each checks its arguments before it writes, so a usage mistake leaves the store as it was.
"""

# A command's output is what it prints.

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from langchain_contextchef.cli._access import (
    entry_or_fail,
    fail_if_unknown_scope,
    load_json,
    open_memory,
    where,
)
from langchain_contextchef.cli._options import PROG, SCOPES_SHOWN, CliError, parse_ttl_option
from langchain_contextchef.cli._text import plural
from langchain_contextchef.memory import UNSET, import_snapshot, read_snapshot


def cmd_set(args: argparse.Namespace) -> int:
    ttl: Any = UNSET if args.ttl is None else parse_ttl_option(args.ttl)
    memory = open_memory(args, create=True)
    entry = memory.set(args.key, args.value, description=args.description, ttl=ttl)
    verb = "Created" if entry.update_count == 1 else "Updated"
    print(f"{verb} {entry.key!r} (version {entry.version}) in {where(args)}.")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    memory = open_memory(args, create=False)
    if not memory.delete(args.key):
        entry_or_fail(memory, args.key, args)  # raises with the "no such key" message
    print(f"Deleted {args.key!r} from {where(args)}.")
    return 0


def _output_file(args: argparse.Namespace) -> str | None:
    if args.file is not None and args.output is not None:
        msg = f"Give the output file once: either -o {args.output} or {args.file}, not both."
        raise CliError(msg)
    target: str | None = args.output if args.output is not None else args.file
    if target is None or target == "-":
        return None
    parent = Path(target).parent
    if not parent.is_dir():
        msg = f"Cannot write {target}: the folder {parent} does not exist."
        raise CliError(msg)
    if Path(target).is_dir():
        msg = f"Cannot write {target}: it is a folder; name a file such as {target}/memory.json."
        raise CliError(msg)
    return target


def cmd_export(args: argparse.Namespace) -> int:
    target = _output_file(args)  # before any read: a bad path is a usage mistake
    memory = open_memory(args, create=False)
    snapshot = memory.snapshot()
    if not snapshot["entries"] and snapshot["turn"] == 0:
        fail_if_unknown_scope(memory, args)
    text = json.dumps(snapshot, indent=2, ensure_ascii=False)
    if target is None:
        print(text)
        return 0
    Path(target).write_text(text + "\n", encoding="utf-8")
    count = len(snapshot["entries"])
    print(f"Exported {plural(count, 'entry', 'entries')} from {where(args)} to {target}.")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    data = load_json(args.file)
    source = "standard input" if args.file == "-" else args.file
    try:
        entries, _ = read_snapshot(data)
    except ValueError as exc:
        msg = f"{source} is not a memory snapshot; nothing was imported. {exc}"
        raise CliError(msg) from exc
    memory = open_memory(args, create=True)
    current = memory.list()
    if current and not args.replace:
        keys = ", ".join(e.key for e in current[:SCOPES_SHOWN])
        more = ", ..." if len(current) > SCOPES_SHOWN else ""
        msg = (
            f"The {where(args)} already holds {plural(len(current), 'entry', 'entries')} "
            f"({keys}{more}); nothing was imported. Pass --replace to replace what is there "
            f"(every replaced or removed version stays in history: '{PROG} history KEY'), "
            "or import into another --scope."
        )
        raise CliError(msg)
    try:
        report = import_snapshot(memory, data, source=source)
    except ValueError as exc:
        msg = f"{source} cannot be imported; nothing was changed. {exc}"
        raise CliError(msg) from exc
    parts = [f"{len(report.written)} written"]
    if report.unchanged:
        parts.append(f"{len(report.unchanged)} already as in the file")
    if report.removed:
        parts.append(f"{len(report.removed)} removed ({', '.join(report.removed)})")
    print(
        f"Imported {plural(len(entries), 'entry', 'entries')} from {source} into {where(args)}: "
        f"{', '.join(parts)}; turn clock set to {report.turn}."
    )
    before = {entry.key for entry in current}
    if report.removed or any(key in before for key in report.written):
        print(f"What was replaced or removed is kept: '{PROG} history KEY' lists it.")
    return 0
