"""`contextchef`: inspect and edit the memory in a store from the command line, or run the demo.

Commands (each takes `--store PATH`, default `./.context`, and `--scope a/b`):

* `scopes`: the scopes the store holds, with their entry counts and turn clocks;
* `list`: keys, descriptions, last update and TTL of every entry;
* `show KEY`: one entry as JSON;
* `set KEY VALUE [--description D] [--ttl N|Nms|never]`: write an entry (developer path);
* `delete KEY`: remove an entry;
* `history KEY`: every kept version of a key: when and by whom each was written and replaced;
* `turns`: the persisted turn clock and the entries that expire by turn;
* `export [-o FILE]` / `import FILE [--replace]`: a JSON snapshot of the scope, out or back in;
* `preview MESSAGES.json|-`: the prompt a message list would get, without touching the store;
* `demo`: the two-process memory demo (see `langchain_contextchef.demo`).

User mistakes exit with code 2 and a message on stderr, never a traceback; so does a read in a
scope the store does not hold, naming the scopes it does. When the reader of the output goes
away before it is all written (`contextchef export | head -1`), the command stops quietly with
exit code 141, as a program ended by SIGPIPE does.

Example:
    ```python
    import tempfile
    from langchain_contextchef.cli import main

    with tempfile.TemporaryDirectory() as folder:
        assert main(["set", "lang", "Python", "--store", folder]) == 0
        assert main(["show", "lang", "--store", folder]) == 0
        assert main(["show", "nope", "--store", folder]) == 2
    ```
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, NoReturn

from langchain_core.messages import BaseMessage, convert_to_messages
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef._format import format_messages
from langchain_contextchef._snapshot_import import import_snapshot, read_snapshot
from langchain_contextchef._version import __version__
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.entry import HistoryRecord, MemoryEntry
from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.memory import FORGET_NAMESPACES, UNSET, Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import TTL

__all__ = [
    "CliError",
    "build_parser",
    "main",
    "parse_scope",
    "parse_ttl_option",
]

DEFAULT_STORE = ".context"
"""The store folder used when `--store` is not given."""

_PROG = "contextchef"
_EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a program ended by SIGPIPE
_NAMESPACE_PAGE = 1000
_SCOPES_SHOWN = 10  # in the message about a missing scope; `contextchef scopes` lists all
_TTL_SPAN = re.compile(r"(\d+)(ms|s|m|h|d)")
_SPAN_UNITS = {"ms": "milliseconds", "s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


class CliError(ContextChefError):
    """A mistake in how the command was called; printed without a traceback, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so `main` decides how errors look."""

    def error(self, message: str) -> NoReturn:
        msg = f"{message}\nRun '{self.prog} --help' for usage."
        raise CliError(msg)


# ---- argument helpers ---------------------------------------------------------------------------


def parse_scope(values: Sequence[str] | None) -> tuple[str, ...]:
    """Turn `--scope` options into a namespace prefix.

    Each value may hold several labels separated by `/`; repeated options are joined in order.

    Args:
        values: The `--scope` values as given, or `None` for the root scope.

    Returns:
        The labels, e.g. `("users", "alice")`.

    Raises:
        CliError: For an empty label, or a label LangGraph cannot use as a namespace label.

    Example:
        ```python
        from langchain_contextchef.cli import parse_scope

        assert parse_scope(["users/alice", "chat"]) == ("users", "alice", "chat")
        assert parse_scope(None) == ()
        ```
    """
    labels: list[str] = []
    for value in values or []:
        for label in value.split("/"):
            if not label:
                msg = f"--scope {value!r} has an empty label; write labels as a/b, no empty parts."
                raise CliError(msg)
            if "." in label:
                fixed = label.replace("%", "%25").replace(".", "%2E")
                msg = (
                    f"--scope label {label!r} contains '.', which LangGraph namespaces forbid. "
                    f"Scopes filled from templates store it percent-encoded, as {fixed!r}."
                )
                raise CliError(msg)
            if "{" in label or "}" in label:
                msg = (
                    f"--scope label {label!r} looks like a template; pass the concrete value "
                    "(e.g. users/alice instead of users/{user_id})."
                )
                raise CliError(msg)
            labels.append(label)
    return tuple(labels)


def parse_ttl_option(text: str) -> TTL:
    """Parse a `--ttl` option: `N` turns, a span such as `500ms`/`30s`/`2h`/`7d`, or `never`.

    Args:
        text: The option value.

    Returns:
        A TTL accepted by `Memory.set`.

    Raises:
        CliError: If the text is none of those.

    Example:
        ```python
        from datetime import timedelta
        from langchain_contextchef.cli import parse_ttl_option

        assert parse_ttl_option("3") == 3
        assert parse_ttl_option("1500ms") == {"ms": 1500}
        assert parse_ttl_option("2h") == timedelta(hours=2)
        assert parse_ttl_option("never") is None
        ```
    """
    value = text.strip().lower()
    if value == "never":
        return None
    if value.isdigit():
        return int(value)
    span = _TTL_SPAN.fullmatch(value)
    if span is not None:
        amount, unit = int(span.group(1)), span.group(2)
        if unit == "ms":
            return {"ms": amount}
        return timedelta(**{_SPAN_UNITS[unit]: amount})
    msg = (
        f"--ttl {text!r} is not a TTL. Use a number of turns (3), a duration "
        "(1500ms, 30s, 10m, 2h, 7d) or never."
    )
    raise CliError(msg)


# ---- store access -------------------------------------------------------------------------------


def _scope_text(scope: tuple[str, ...]) -> str:
    return "/".join(scope) if scope else "(root)"


def _open(args: argparse.Namespace, *, create: bool) -> Memory:
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
    # Any memory type: the CLI does not know the application's list, and must not refuse
    # to copy what the store already holds.
    return Memory(FileSystemStore(path), MemoryConfig(memory_types=None), scope=args.scope_labels)


def _store_scopes(store: BaseStore) -> list[tuple[str, ...]]:
    """Every scope that holds memory entries, history, a turn clock or notes, sorted."""
    found: set[tuple[str, ...]] = set()
    offset = 0
    while True:
        page = store.list_namespaces(limit=_NAMESPACE_PAGE, offset=offset)
        found.update(tuple(ns[:-1]) for ns in page if ns and ns[-1] in FORGET_NAMESPACES)
        if len(page) < _NAMESPACE_PAGE:
            return sorted(found)
        offset += _NAMESPACE_PAGE


def _fail_if_unknown_scope(memory: Memory, args: argparse.Namespace) -> None:
    """Raise when the scope was never written: an empty answer would hide a typo in --scope.

    Called only once a read came back empty, so a normal read never pays for the walk over
    the store's namespaces.
    """
    scopes = _store_scopes(memory.store)
    if memory.scope in scopes:
        return
    here = _scope_text(memory.scope)
    msg = f"Scope {here} does not exist in store {args.store}: nothing was ever written there."
    if not scopes:
        msg += " The store holds no memory at all yet."
        raise CliError(msg)
    names = [_scope_text(scope) for scope in scopes]
    below = [_scope_text(s) for s in scopes if s[: len(memory.scope)] == memory.scope]
    close = difflib.get_close_matches(here, names, n=3, cutoff=0.6)
    if below and memory.scope:
        msg += f" Scopes under it: {', '.join(below[:_SCOPES_SHOWN])}."
    elif close:
        msg += f" Did you mean {' or '.join(close)}?"
    shown = ", ".join(names[:_SCOPES_SHOWN])
    more = f" and {len(names) - _SCOPES_SHOWN} more" if len(names) > _SCOPES_SHOWN else ""
    msg += f" Scopes in this store: {shown}{more} (see '{_PROG} scopes')."
    raise CliError(msg)


def _where(args: argparse.Namespace) -> str:
    return f"scope {_scope_text(args.scope_labels)} of store {args.store}"


def _entry_or_fail(memory: Memory, key: str, args: argparse.Namespace) -> MemoryEntry:
    entry = memory.get_entry(key)
    if entry is None:
        _fail_if_unknown_scope(memory, args)
        msg = f"No memory entry {key!r} in {_where(args)}. Run 'contextchef list' to see the keys."
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


def _load_json(source: str) -> Any:
    text = _read_input(source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        name = "standard input" if source == "-" else source
        msg = f"{name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        raise CliError(msg) from exc


# ---- formatting ---------------------------------------------------------------------------------


def _short_time(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")


def _ttl_text(entry: MemoryEntry, turn: int) -> str:
    parts: list[str] = []
    if entry.expires_at_turn is not None:
        left = entry.expires_at_turn - turn
        parts.append(f"turn {entry.expires_at_turn} ({max(left, 0)} left)")
    if entry.expires_at is not None:
        parts.append(f"until {_short_time(entry.expires_at)}")
    return ", ".join(parts) or "never"


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _entry_json(entry: MemoryEntry) -> dict[str, Any]:
    return {"key": entry.key, **entry.to_stored()}


# ---- commands -----------------------------------------------------------------------------------


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _cmd_scopes(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    prefix = memory.scope
    scopes = [s for s in _store_scopes(memory.store) if s[: len(prefix)] == prefix]
    if not scopes:
        where = f" under scope {_scope_text(prefix)}" if prefix else ""
        print(f"No memory{where} in store {args.store}.")
        return 0
    rows = [["SCOPE", "ENTRIES", "TURN"]]
    for scope in scopes:
        each = Memory(memory.store, memory.config, scope=scope)
        rows.append([_scope_text(scope), str(len(each.list())), str(each.turn)])
    print(_table(rows))
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    entries = memory.list()
    if not entries:
        _fail_if_unknown_scope(memory, args)
        print(f"No memory in {_where(args)}.")
        return 0
    turn = memory.turn
    rows = [["KEY", "VALUE", "DESCRIPTION", "UPDATED", "EXPIRES"]]
    rows += [
        [
            e.key,
            _clip(e.value, 40),
            _clip(e.description or "-", 40),
            _short_time(e.updated_at),
            _ttl_text(e, turn),
        ]
        for e in entries
    ]
    print(_table(rows))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    entry = _entry_or_fail(memory, args.key, args)
    print(json.dumps(_entry_json(entry), indent=2, ensure_ascii=False))
    return 0


def _cmd_set(args: argparse.Namespace) -> int:
    ttl: Any = UNSET if args.ttl is None else parse_ttl_option(args.ttl)
    memory = _open(args, create=True)
    entry = memory.set(args.key, args.value, description=args.description, ttl=ttl)
    verb = "Created" if entry.update_count == 1 else "Updated"
    print(f"{verb} {entry.key!r} (version {entry.version}) in {_where(args)}.")
    return 0


def _cmd_delete(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    if not memory.delete(args.key):
        _entry_or_fail(memory, args.key, args)  # raises with the "no such key" message
    print(f"Deleted {args.key!r} from {_where(args)}.")
    return 0


def _history_cause(record: HistoryRecord) -> str:
    parts = [
        f"superseded by {record.superseded_by!r}" if record.superseded_by else "",
        f"tool call {record.tool_call_id}" if record.tool_call_id else "",
        record.note or "",
    ]
    return "; ".join(part for part in parts if part) or "-"


def _cmd_history(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    records = memory.history(args.key)
    if not records:
        _fail_if_unknown_scope(memory, args)
        msg = f"No entry and no history for {args.key!r} in {_where(args)}."
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
                _clip(entry.value, 30),
                _short_time(entry.updated_at),
                entry.provenance.written_by if entry.provenance else "-",
                "-" if current or record.recorded_at is None else _short_time(record.recorded_at),
                "-"
                if current
                else record.changed_by or ("expiry" if record.status == "expired" else "-"),
                _history_cause(record),
            ]
        )
    print(_table(rows))
    return 0


def _cmd_turns(args: argparse.Namespace) -> int:
    memory = _open(args, create=False)
    entries = memory.list()
    turn = memory.turn
    if not entries and turn == 0:
        _fail_if_unknown_scope(memory, args)
    print(
        f"Turn clock of {_where(args)}: {turn} (compiles so far; the next one is turn {turn + 1})."
    )
    timed = [e for e in entries if e.expires_at_turn is not None or e.expires_at is not None]
    if timed:
        print("Entries with a TTL:")
        for entry in timed:
            print(f"  {entry.key}: expires {_ttl_text(entry, turn)}")
    else:
        print("No entry has a TTL.")
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


def _cmd_export(args: argparse.Namespace) -> int:
    target = _output_file(args)  # before any read: a bad path is a usage mistake
    memory = _open(args, create=False)
    snapshot = memory.snapshot()
    if not snapshot["entries"] and snapshot["turn"] == 0:
        _fail_if_unknown_scope(memory, args)
    text = json.dumps(snapshot, indent=2, ensure_ascii=False)
    if target is None:
        print(text)
        return 0
    Path(target).write_text(text + "\n", encoding="utf-8")
    count = len(snapshot["entries"])
    print(f"Exported {_plural(count, 'entry', 'entries')} from {_where(args)} to {target}.")
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    data = _load_json(args.file)
    source = "standard input" if args.file == "-" else args.file
    try:
        entries, _ = read_snapshot(data)
    except ValueError as exc:
        msg = f"{source} is not a memory snapshot; nothing was imported. {exc}"
        raise CliError(msg) from exc
    memory = _open(args, create=True)
    current = memory.list()
    if current and not args.replace:
        keys = ", ".join(e.key for e in current[:_SCOPES_SHOWN])
        more = ", ..." if len(current) > _SCOPES_SHOWN else ""
        msg = (
            f"The {_where(args)} already holds {_plural(len(current), 'entry', 'entries')} "
            f"({keys}{more}); nothing was imported. Pass --replace to replace what is there "
            f"(every replaced or removed version stays in history: '{_PROG} history KEY'), "
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
        f"Imported {_plural(len(entries), 'entry', 'entries')} from {source} into {_where(args)}: "
        f"{', '.join(parts)}; turn clock set to {report.turn}."
    )
    before = {entry.key for entry in current}
    if report.removed or any(key in before for key in report.written):
        print(f"What was replaced or removed is kept: '{_PROG} history KEY' lists it.")
    return 0


def _messages_of(data: Any, source: str) -> list[BaseMessage]:
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    if not isinstance(data, list) or not data:
        msg = (
            f"{source} must hold a non-empty JSON list of messages, e.g. "
            '[{"role": "system", "content": "You help."}, {"role": "user", "content": "Hi"}].'
        )
        raise CliError(msg)
    try:
        return list(convert_to_messages(data))
    except (ValueError, TypeError, NotImplementedError) as exc:
        msg = f"{source} has a message LangChain cannot read: {exc}"
        raise CliError(msg) from exc


def _cmd_preview(args: argparse.Namespace) -> int:
    messages = _messages_of(_load_json(args.messages), args.messages)
    memory = _open(args, create=False)
    snapshot = memory.snapshot()
    if not snapshot["entries"] and snapshot["turn"] == 0:
        _fail_if_unknown_scope(memory, args)
    # Compile against a copy: a preview must not sweep entries or advance the real turn clock.
    copy = InMemoryStore()
    config = MemoryConfig(memory_placement=args.placement, memory_types=None)
    Memory(copy, config, scope=memory.scope).restore(snapshot)
    chef = ContextChef(store=copy, memory=config, scope=memory.scope)
    payload = chef.compile(messages)
    if args.json:
        out = [{"role": m.type, "content": m.content} for m in payload.messages]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    injected = ", ".join(payload.meta.injected_keys) or "none"
    expired = ", ".join(payload.meta.expired_keys) or "none"
    print(
        f"Preview of the next compile (turn {payload.meta.turn}) for {_where(args)}; "
        "the store is not changed."
    )
    print(f"Memory injected: {injected}. Would expire first: {expired}.")
    print()
    print(format_messages(payload.messages))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    # Imported here: the demo pulls in create_agent, which inspection commands do not need.
    from langchain_contextchef.demo import run_demo  # noqa: PLC0415

    return run_demo(args.run, store=args.store, fresh=args.fresh, model=args.model)


# ---- parser -------------------------------------------------------------------------------------


def _common(suppress: bool) -> _Parser:
    # The options work before or after the command; SUPPRESS keeps a sub-command's
    # unset option from overwriting one given before it.
    common = _Parser(add_help=False)
    default: Any = argparse.SUPPRESS if suppress else None
    common.add_argument(
        "--store",
        default=default,
        metavar="PATH",
        help=f"the store folder (default: ./{DEFAULT_STORE})",
    )
    common.add_argument(
        "--scope",
        action="append",
        default=default,
        metavar="A/B",
        help="namespace prefix of the memory; repeat or use / for several labels",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    """Build the `contextchef` argument parser.

    Returns:
        The parser; each sub-command stores its handler in `handler`.
    """
    parser = _Parser(
        prog=_PROG,
        description="Inspect and edit langchain-contextchef memory, or run the demo.",
        parents=[_common(suppress=False)],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    common = [_common(suppress=True)]

    def add(name: str, handler: Callable[[argparse.Namespace], int], text: str) -> Any:
        command = sub.add_parser(name, parents=common, help=text, description=text)
        command.set_defaults(handler=handler)
        return command

    add("scopes", _cmd_scopes, "list the scopes the store holds (under --scope, if given)")
    add("list", _cmd_list, "list the keys, descriptions, update times and TTLs")
    add("show", _cmd_show, "print one entry as JSON").add_argument("key")
    set_cmd = add("set", _cmd_set, "write an entry (developer path: no veto)")
    set_cmd.add_argument("key")
    set_cmd.add_argument("value")
    set_cmd.add_argument("--description", default=None)
    set_cmd.add_argument("--ttl", default=None, help="N turns, a duration (500ms, 2h), or never")
    add("delete", _cmd_delete, "delete an entry").add_argument("key")
    add(
        "history",
        _cmd_history,
        "show every kept version of a key, oldest first: when and by whom each version was "
        "written, and when, by whom and why it was replaced",
    ).add_argument("key")
    add("turns", _cmd_turns, "show the persisted turn clock and TTLs by turn")
    export = add("export", _cmd_export, "write a JSON snapshot of the scope")
    export.add_argument(
        "-o", "--output", metavar="FILE", default=None, help="write to FILE (default: stdout)"
    )
    export.add_argument("file", nargs="?", help="the same as -o FILE")
    import_cmd = add(
        "import",
        _cmd_import,
        "load a JSON snapshot into the scope; entries are written as new versions",
    )
    import_cmd.add_argument(
        "file", help="a snapshot from 'contextchef export', or - for standard input"
    )
    import_cmd.add_argument(
        "--replace",
        action="store_true",
        help="replace a scope that already holds memory (what is replaced stays in history)",
    )
    preview = add("preview", _cmd_preview, "print the prompt a message list would get")
    preview.add_argument("messages", help="a JSON file with a list of messages, or -")
    preview.add_argument(
        "--placement",
        choices=["after_system", "before_history_tail"],
        default="after_system",
        help="where the memory block lands",
    )
    preview.add_argument("--json", action="store_true", help="print the messages as JSON")
    demo = add("demo", _cmd_demo, "run the two-process memory demo")
    demo.add_argument("--run", type=int, choices=[1, 2], default=None)
    demo.add_argument("--fresh", action="store_true", help="clear the demo's memory first")
    demo.add_argument("--model", default=None, metavar="PROVIDER:NAME")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `contextchef` command line.

    Args:
        argv: The arguments after the program name; `sys.argv[1:]` by default.

    Returns:
        The exit code: 0 on success, 2 for a usage or input mistake, 141 when the reader of
        standard output went away (`contextchef list | head -1`), 1 for anything else.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help()
            return 2
        args.store = args.store or DEFAULT_STORE
        args.scope_labels = parse_scope(args.scope)
        code: int = args.handler(args)
        # Flushed here, inside the try: a reader that went away is noticed now, not in the
        # interpreter's final flush, which would print "Exception ignored ... BrokenPipeError".
        sys.stdout.flush()
        return code
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:
        _discard_stdout()
        return _EXIT_BROKEN_PIPE
    except (ContextChefError, ValueError, TypeError, OSError) as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last line of defence: no traceback for users
        print(f"{_PROG}: unexpected {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _discard_stdout() -> None:
    # The reader is gone and whatever is still buffered can never reach it: point the stdout
    # descriptor at the null device so the interpreter's last flush succeeds quietly. (This
    # is what Python's documentation recommends for SIGPIPE; restoring SIGPIPE's default
    # action instead would kill a process that calls `main` in-process.)
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # captured or replaced stdout: no descriptor
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


if __name__ == "__main__":
    sys.exit(main())
