"""The commands that run the package rather than edit memory: `preview` and `demo`."""

# A command's output is what it prints.

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, convert_to_messages
from langgraph.store.memory import InMemoryStore

from langchain_contextchef._format import format_messages
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.cli._access import fail_if_unknown_scope, load_json, open_memory, where
from langchain_contextchef.cli._options import CliError
from langchain_contextchef.memory import Memory, MemoryConfig


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


def _preview_input(source: str) -> list[BaseMessage]:
    """`-` or an existing file hold JSON messages; other text is one user message."""
    if source == "-" or Path(source).is_file() or source.endswith(".json"):
        return _messages_of(load_json(source), source)  # a missing .json file says so
    if source.lstrip().startswith(("[", "{")):
        msg = (
            f"{source!r} looks like JSON but is not a file: write the messages to a file, or "
            "pipe them in with '-'. Plain text is previewed as one user message."
        )
        raise CliError(msg)
    return [HumanMessage(source)]


def cmd_preview(args: argparse.Namespace) -> int:
    messages = _preview_input(args.messages)
    memory = open_memory(args, create=False)
    snapshot = memory.snapshot()
    if not snapshot["entries"] and snapshot["turn"] == 0:
        fail_if_unknown_scope(memory, args)
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
        f"Preview of the next compile (turn {payload.meta.turn}) for {where(args)}; "
        "the store is not changed."
    )
    print(f"Memory injected: {injected}. Would expire first: {expired}.")
    print()
    print(format_messages(payload.messages))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    # Imported here: the demo pulls in create_agent, which inspection commands do not need.
    from langchain_contextchef.demo import run_demo  # noqa: PLC0415

    return run_demo(args.run, store=args.store, fresh=args.fresh, model=args.model)
