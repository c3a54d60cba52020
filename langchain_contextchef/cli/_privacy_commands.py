"""The privacy commands: purge, proposals, approve/reject a proposal, audit, rotate-key.

`purge` is the cron job: it applies a retention policy given on the command line to every
scope under `--scope` (the whole store by default), e.g. against PostgreSQL::

    contextchef purge --store postgresql://... --default 365d --max-age event=30d
"""

# A command's output is what it prints.

from __future__ import annotations

import argparse
import sys
import time
from datetime import timedelta
from pathlib import Path

from langchain_contextchef.cli._access import open_memory, open_store, scope_text, where
from langchain_contextchef.cli._options import _SPAN_UNITS, _TTL_SPAN, CliError
from langchain_contextchef.cli._stores import KEYS_ENV
from langchain_contextchef.cli._text import clip, plural, short_time, table
from langchain_contextchef.encryption import EncryptedStore
from langchain_contextchef.memory import Memory, MemoryConfig, purge_store
from langchain_contextchef.retention import RetentionPolicy

__all__ = [
    "cmd_approve_proposal",
    "cmd_audit",
    "cmd_proposals",
    "cmd_purge",
    "cmd_reject_proposal",
    "cmd_rotate_key",
    "parse_duration",
]


def parse_duration(text: str, option: str) -> timedelta:
    """A duration such as `90d`, `12h`, `30m` or `45s`."""
    span = _TTL_SPAN.fullmatch(text.strip().lower())
    if span is None or span.group(2) == "ms" or int(span.group(1)) == 0:
        msg = f"{option} {text!r} is not a duration. Use a number and a unit: 45s, 30m, 12h, 90d."
        raise CliError(msg)
    return timedelta(**{_SPAN_UNITS[span.group(2)]: int(span.group(1))})


def _policy(args: argparse.Namespace) -> RetentionPolicy:
    ages: dict[str, timedelta] = {}
    for rule in args.max_age or []:
        kind, sep, age = rule.partition("=")
        if not sep or not kind.strip():
            msg = f"--max-age {rule!r} needs the form TYPE=DURATION, e.g. event=30d."
            raise CliError(msg)
        ages[kind.strip()] = parse_duration(age, f"--max-age {kind.strip()}=")
    default = parse_duration(args.default, "--default") if args.default else None
    history = (
        parse_duration(args.history_max_age, "--history-max-age") if args.history_max_age else None
    )
    if not ages and default is None:
        msg = "purge needs a retention rule: --default DURATION and/or --max-age TYPE=DURATION."
        raise CliError(msg)
    return RetentionPolicy(max_age=ages, default=default, erase=args.erase, history_max_age=history)


def cmd_purge(args: argparse.Namespace) -> int:
    policy = _policy(args)  # before the store is opened: a bad rule is a usage mistake
    store = open_store(args, create=False)
    config = MemoryConfig(memory_types=None, retention=policy, audit=args.audit)
    started = time.perf_counter()
    summary = purge_store(store, config, prefix=args.scope_labels)
    seconds = time.perf_counter() - started
    history = sum(r.history for r in summary.reports)
    audit = sum(r.audit for r in summary.reports)
    proposals = sum(r.proposals for r in summary.reports)
    fate = "erased" if policy.erase else "moved to history"
    print(
        f"Purged {plural(summary.scopes, 'scope', 'scopes')} under "
        f"{scope_text(args.scope_labels)} in {seconds:.2f} s: "
        f"{plural(summary.removed, 'entry', 'entries')} {fate}, "
        f"{plural(history, 'history record', 'history records')}, "
        f"{plural(audit, 'audit record', 'audit records')} and "
        f"{plural(proposals, 'proposal', 'proposals')} deleted."
    )
    return 0


def _audited(args: argparse.Namespace) -> Memory:
    # Settling a proposal is a change like any other: it is recorded in the audit trail.
    memory = open_memory(args, create=False)
    return Memory(memory.store, MemoryConfig(memory_types=None, audit=True), scope=memory.scope)


def cmd_proposals(args: argparse.Namespace) -> int:
    waiting = open_memory(args, create=False).proposals()
    if not waiting:
        print(f"No proposal awaits approval in {where(args)}.")
        return 0
    rows = [["ID", "ACTION", "KEY", "VALUE", "OLD VALUE", "PROPOSED"]]
    for p in waiting:
        when = short_time(p.proposed_at) if p.proposed_at else "-"
        rows.append(
            [p.id, p.action, p.key, clip(p.value or "-", 40), clip(p.old_value or "-", 30), when]
        )
    print(table(rows))
    return 0


def cmd_approve_proposal(args: argparse.Namespace) -> int:
    memory = _audited(args)
    result = memory.approve_proposal(args.id, value=args.value, description=args.description)
    how = "with your edit" if args.value is not None else "as proposed"
    print(f"Approved proposal {args.id} {how}: {result.status} {result.key!r} in {where(args)}.")
    return 0


def cmd_reject_proposal(args: argparse.Namespace) -> int:
    result = _audited(args).reject_proposal(args.id, reason=args.reason)
    print(f"Rejected proposal {args.id} ({result.key!r}) in {where(args)}; nothing was written.")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    lines = open_memory(args, create=False).export_audit(args.key)
    if not lines:
        # Standard output stays JSON lines (empty); the reason goes to standard error.
        about = f" for the key {args.key!r}" if args.key else ""
        print(
            f"No audit records in {where(args)}{about}. Auditing is off unless the application "
            "writes with MemoryConfig(audit=True); only changes made since then are recorded.",
            file=sys.stderr,
        )
    if args.output is None or args.output == "-":
        print(lines, end="")
        return 0
    target = Path(args.output)
    if not target.parent.is_dir():
        msg = f"Cannot write {args.output}: the folder {target.parent} does not exist."
        raise CliError(msg)
    target.write_text(lines, encoding="utf-8")
    count = lines.count("\n")
    print(
        f"Exported {plural(count, 'audit record', 'audit records')} from {where(args)} to {target}."
    )
    return 0


def cmd_rotate_key(args: argparse.Namespace) -> int:
    store = open_store(args, create=False)
    if not isinstance(store, EncryptedStore):
        msg = (
            f"rotate-key needs the keys in {KEYS_ENV}: the new key first, then the old ones "
            "(comma-separated)."
        )
        raise CliError(msg)
    count = store.rotate(args.scope_labels)
    print(
        f"Re-encrypted {plural(count, 'item', 'items')} under {scope_text(args.scope_labels)} "
        f"with the first key of {KEYS_ENV}; the other keys can now be retired."
    )
    return 0
