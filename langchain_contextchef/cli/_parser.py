"""The shape of the `contextchef` command line: its options and one sub-command per handler."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from langchain_contextchef._version import __version__
from langchain_contextchef.cli._options import DEFAULT_STORE, PROG, CliError
from langchain_contextchef.cli._preview import cmd_demo, cmd_preview
from langchain_contextchef.cli._privacy_commands import (
    cmd_approve_proposal,
    cmd_audit,
    cmd_proposals,
    cmd_purge,
    cmd_reject_proposal,
    cmd_rotate_key,
)
from langchain_contextchef.cli._read_commands import (
    cmd_history,
    cmd_list,
    cmd_scopes,
    cmd_show,
    cmd_turns,
)
from langchain_contextchef.cli._write_commands import cmd_delete, cmd_export, cmd_import, cmd_set


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so `main` decides how errors look."""

    def error(self, message: str) -> NoReturn:
        msg = f"{message}\nRun '{self.prog} --help' for usage."
        raise CliError(msg)


def _common(suppress: bool) -> _Parser:
    # The options work before or after the command; SUPPRESS keeps a sub-command's
    # unset option from overwriting one given before it.
    common = _Parser(add_help=False)
    default: Any = argparse.SUPPRESS if suppress else None
    common.add_argument(
        "--store",
        default=default,
        metavar="STORE",
        help=(
            f"a store folder (default: ./{DEFAULT_STORE}), postgresql://user:pw@host/db "
            "(PostgresStore) or sqlite:///path/store.db (SqliteStore)"
        ),
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
        prog=PROG,
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

    add("scopes", cmd_scopes, "list the scopes the store holds (under --scope, if given)")
    add("list", cmd_list, "list the keys, descriptions, update times and TTLs")
    add("show", cmd_show, "print one entry as JSON").add_argument("key")
    set_cmd = add("set", cmd_set, "write an entry (developer path: no veto)")
    set_cmd.add_argument("key")
    set_cmd.add_argument("value")
    set_cmd.add_argument("--description", default=None)
    set_cmd.add_argument("--ttl", default=None, help="N turns, a duration (500ms, 2h), or never")
    add("delete", cmd_delete, "delete an entry").add_argument("key")
    add(
        "history",
        cmd_history,
        "show every kept version of a key, oldest first: when and by whom each version was "
        "written, and when, by whom and why it was replaced",
    ).add_argument("key")
    add("turns", cmd_turns, "show the persisted turn clock and TTLs by turn")
    export = add("export", cmd_export, "write a JSON snapshot of the scope")
    export.add_argument(
        "-o", "--output", metavar="FILE", default=None, help="write to FILE (default: stdout)"
    )
    export.add_argument("file", nargs="?", help="the same as -o FILE")
    import_cmd = add(
        "import",
        cmd_import,
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
    _add_privacy(add)
    preview = add("preview", cmd_preview, "print the prompt a message list would get")
    preview.add_argument(
        "messages",
        help="a user message's text, a JSON file with a list of messages, or - (stdin JSON)",
    )
    preview.add_argument(
        "--placement",
        choices=["after_system", "before_history_tail"],
        default="after_system",
        help="where the memory block lands",
    )
    preview.add_argument("--json", action="store_true", help="print the messages as JSON")
    demo = add("demo", cmd_demo, "run the two-process memory demo")
    demo.add_argument("--run", type=int, choices=[1, 2], default=None)
    demo.add_argument("--fresh", action="store_true", help="clear the demo's memory first")
    demo.add_argument("--model", default=None, metavar="PROVIDER:NAME")
    return parser


def _add_privacy(add: Callable[[str, Callable[[argparse.Namespace], int], str], Any]) -> None:
    purge = add(
        "purge",
        cmd_purge,
        "apply a retention policy to every scope under --scope (the whole store by default)",
    )
    purge.add_argument("--default", default=None, metavar="DURATION", help="age of other types")
    purge.add_argument(
        "--max-age",
        action="append",
        metavar="TYPE=DURATION",
        help="maximum age of one memory type, e.g. event=30d (repeat for more types)",
    )
    purge.add_argument(
        "--history-max-age", default=None, metavar="DURATION", help="age of history records"
    )
    purge.add_argument(
        "--erase", action="store_true", help="delete retired entries instead of keeping history"
    )
    purge.add_argument(
        "--audit", action="store_true", help="record what is retired in each scope's audit trail"
    )
    add("proposals", cmd_proposals, "list the model writes that await approval")
    approve = add("approve-proposal", cmd_approve_proposal, "apply a waiting proposal")
    approve.add_argument("id")
    approve.add_argument("--value", default=None, help="store this text instead")
    approve.add_argument("--description", default=None)
    reject = add("reject-proposal", cmd_reject_proposal, "drop a waiting proposal")
    reject.add_argument("id")
    reject.add_argument("--reason", default=None)
    audit = add("audit", cmd_audit, "print the scope's audit trail as JSON lines")
    audit.add_argument("--key", default=None, help="only the records of this key")
    audit.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE")
    add(
        "rotate-key",
        cmd_rotate_key,
        "re-encrypt every item with the first key of CONTEXTCHEF_ENCRYPTION_KEYS",
    )
