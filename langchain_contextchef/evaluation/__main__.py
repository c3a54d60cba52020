"""`python -m langchain_contextchef.evaluation`: run the memory evaluation and print a table.

Exit codes: 0 when there is no problem, 1 when a prompt leaked (leak rate above 0), a case
failed, a labelled bad write was stored or forbidden text stayed in memory, 2 for a usage
error (message on stderr).

Examples (shell):

    python -m langchain_contextchef.evaluation
    python -m langchain_contextchef.evaluation --json eval.json --store filesystem
    python -m langchain_contextchef.evaluation --factory myapp.memory:make_chef
    python -m langchain_contextchef.evaluation --model anthropic:claude-sonnet-4-5
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef._chat_models import ModelLoadError, load_chat_model
from langchain_contextchef.evaluation.cases import BUILTIN_CASES
from langchain_contextchef.evaluation.harness import (
    ChefFactory,
    format_table,
    run_eval,
)

_STORES = ("memory", "sqlite", "filesystem")


class UsageError(Exception):
    """A mistake on the command line; reported on stderr with exit code 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m langchain_contextchef.evaluation",
        description=(
            "Run the contextchef memory evaluation (same-name tenants, conflicting "
            "preferences, expiry, malicious documents, empty memory, huge tool outputs) and "
            "print injected tokens, precision, recall, leak rate and refused bad writes."
        ),
    )
    parser.add_argument("--json", metavar="FILE", help="also write the full report as JSON")
    parser.add_argument(
        "--model",
        metavar="PROVIDER:NAME",
        help="answer with a real chat model via init_chat_model (needs its API key)",
    )
    parser.add_argument(
        "--factory",
        metavar="MODULE:NAME",
        help="your chef factory, a function (store, clock) -> ContextChef",
    )
    parser.add_argument(
        "--case",
        action="append",
        metavar="NAME",
        help="run only this case (repeatable); default: every built-in case",
    )
    parser.add_argument(
        "--store", choices=_STORES, default="memory", help="backend for each case's fresh store"
    )
    return parser


def _load_factory(spec: str) -> ChefFactory:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        msg = f"--factory takes MODULE:NAME, e.g. myapp.memory:make_chef; got {spec!r}."
        raise UsageError(msg)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        msg = f"--factory: cannot import {module_name!r} ({exc}); is it on PYTHONPATH?"
        raise UsageError(msg) from exc
    factory = getattr(module, attr, None)
    if not callable(factory):
        msg = f"--factory: {module_name} has no callable {attr!r}."
        raise UsageError(msg)
    loaded: ChefFactory = factory
    return loaded


def _load_model(spec: str) -> BaseChatModel:
    try:
        return load_chat_model(spec)
    except ModelLoadError as exc:
        msg = f"--model PROVIDER:NAME: {exc}"
        raise UsageError(msg) from exc


def _check_backend(kind: str) -> None:
    # Without this, a missing optional extra surfaced as a failed case (exit 1, "problems"),
    # as if memory had misbehaved, instead of as a set-up mistake.
    if kind != "sqlite":
        return
    try:
        importlib.import_module("langgraph.store.sqlite")
    except ImportError as exc:
        msg = (
            "--store sqlite needs LangGraph's SQLite store; install it with "
            "pip install 'langchain-contextchef[sqlite]'."
        )
        raise UsageError(msg) from exc


class _Stores:
    """Builds one fresh store per case under a temporary folder, and closes them after."""

    def __init__(self, kind: str, root: Path) -> None:
        self.kind = kind
        self.root = root
        self._count = itertools.count()
        self._connections: list[sqlite3.Connection] = []

    def __call__(self) -> BaseStore:
        if self.kind == "memory":
            return InMemoryStore()
        folder = self.root / f"case-{next(self._count)}"
        folder.mkdir()
        if self.kind == "filesystem":
            from langchain_contextchef.store import FileSystemStore  # noqa: PLC0415

            return FileSystemStore(folder / ".context")
        from langgraph.store.sqlite import SqliteStore  # noqa: PLC0415 - optional extra

        conn = sqlite3.connect(folder / "store.db", check_same_thread=False, isolation_level=None)
        self._connections.append(conn)
        store = SqliteStore(conn)
        store.setup()
        return store

    def close(self) -> None:
        for conn in self._connections:
            conn.close()


def main(argv: Sequence[str] | None = None, *, out: Callable[[str], Any] | None = None) -> int:
    """Run the command.

    Args:
        argv: The arguments (default: `sys.argv[1:]`).
        out: Where the table goes (default: standard output).

    Returns:
        The exit code: 0 no problems, 1 problems (leaks first of all), 2 usage error.
    """
    write = out or sys.stdout.write
    args = _parser().parse_args(argv)
    try:
        cases = list(BUILTIN_CASES)
        if args.case:
            known = {c.name: c for c in BUILTIN_CASES}
            unknown = [n for n in args.case if n not in known]
            if unknown:
                msg = f"--case: unknown {unknown!r}; the built-in cases are {sorted(known)!r}."
                raise UsageError(msg)
            cases = [known[n] for n in args.case]
        _check_backend(args.store)
        factory = _load_factory(args.factory) if args.factory else None
        model = _load_model(args.model) if args.model else None
        with tempfile.TemporaryDirectory(prefix="contextchef-eval-") as tmp:
            stores = _Stores(args.store, Path(tmp))
            try:
                report = run_eval(factory, cases, model=model, store_factory=stores)
            finally:
                stores.close()
        if args.json:
            try:
                Path(args.json).write_text(
                    json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n",
                    encoding="utf-8",
                )
            except OSError as exc:
                msg = f"--json: cannot write {args.json!r}: {exc}"
                raise UsageError(msg) from exc
    except UsageError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    write(format_table(report))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
