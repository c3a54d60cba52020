"""Keys padded with whitespace, through a `ToolNode` graph on every backend.

One rule for both vocabularies: a memory key, and a `context` address or the path inside it,
may not start or end with whitespace. Each such call gets the same `Error: ...` result naming
the spelling to use, the graph run goes on, and the store is untouched (before the rule, the
`context` tool's `create`/`delete`/`rename` raised `ValueError` out of the tool and the run
died).
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolCall, ToolMessage
from langgraph.store.base import BaseStore

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.tools import RecallMemoryTool, default_resolver, make_tools
from tests.support.graphs import tool_loop
from tests.support.stores import dump

WHITESPACE = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
"""Every character Python's `str.strip` removes: the ASCII controls, NEL, NBSP, the Unicode
spaces, line and paragraph separators."""

SCOPE = ("users", "ada")


def tools() -> list[Any]:
    resolver = default_resolver(MemoryConfig(), scope=("users", "{user_id}"))
    legacy = make_tools(mode="legacy", allowed_keys=None, resolver=resolver)
    unified = make_tools(mode="unified", allowed_keys=None, resolver=resolver)
    return [*legacy, *unified, RecallMemoryTool(resolver=resolver)]


def padded_calls(ws: str) -> list[tuple[str, dict[str, Any], str]]:
    """Every tool call naming a key padded with `ws`, and the spelling the error offers."""
    out: list[tuple[str, dict[str, Any], str]] = []
    for key in (ws + "persona", "persona" + ws):
        path = f"memory/{key}"
        role = key.replace("persona", "role")
        out += [
            ("context", {"command": "create", "path": path, "file_text": "new"}, "memory/persona"),
            ("context", {"command": "view", "path": path}, "memory/persona"),
            ("context", {"command": "search", "path": path, "query": "x"}, "memory/persona"),
            (
                "context",
                {"command": "str_replace", "path": path, "old_str": "kind", "new_str": "cold"},
                "memory/persona",
            ),
            (
                "context",
                {"command": "insert", "path": path, "insert_line": 0, "insert_text": "a"},
                "memory/persona",
            ),
            ("context", {"command": "delete", "path": path}, "memory/persona"),
            (
                "context",
                {"command": "rename", "path": path, "new_path": "memory/role"},
                "memory/persona",
            ),
            (
                "context",
                {"command": "rename", "path": "memory/persona", "new_path": f"memory/{role}"},
                "memory/role",
            ),
            (
                "context",
                {"command": "create", "path": f"context://{path}", "file_text": "new"},
                "context://memory/persona",
            ),
            (
                "context",
                {"command": "create", "path": f"notes/{key}", "file_text": "new"},
                "notes/persona",
            ),
            ("create_memory", {"key": key, "value": "new"}, "persona"),
            (
                "create_memory",
                {"key": "role", "value": "new", "supersedes": [key]},
                "persona",
            ),
            ("modify_memory", {"action": "update", "key": key, "value": "new"}, "persona"),
            ("modify_memory", {"action": "delete", "key": key}, "persona"),
            ("recall_memory", {"key": key}, "persona"),
        ]
    return out


def shown(text: str) -> str:
    return "".join(ch if ch == " " or not ch.isspace() else f"\\u{ord(ch):04x}" for ch in text)


def test_every_whitespace_kind_is_named_in_the_rule() -> None:
    # The ASCII ones, NEL, NBSP, OGHAM, the En/Em family, LS/PS, NNBSP, MMSP, ideographic.
    assert {"\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x85", "\xa0", "\u1680", "\u2028"} <= set(
        WHITESPACE
    )
    assert {"\u2000", "\u200a", "\u2029", "\u202f", "\u205f", "\u3000", " "} <= set(WHITESPACE)


@pytest.mark.parametrize("vocabulary", ["legacy", "context"])
def test_padded_keys_are_refused_alike_and_the_run_goes_on(
    store: BaseStore, vocabulary: str
) -> None:
    memory = Memory(store, scope=SCOPE)
    memory.set("persona", "kind and brief")
    before = dump(store)
    planned = [
        (name, args, use)
        for ws in WHITESPACE
        for name, args, use in padded_calls(ws)
        if (name == "context") == (vocabulary == "context")
    ]
    calls: list[ToolCall] = [
        {"name": name, "args": args, "id": f"c{i}", "type": "tool_call"}
        for i, (name, args, _) in enumerate(planned)
    ]
    model = GenericFakeChatModel(
        messages=iter([AIMessage(content="", tool_calls=calls), AIMessage(content="Done.")])
    )
    app = tool_loop(model, tools(), store)

    result = app.invoke(
        {"messages": [HumanMessage("Who am I?")]}, {"configurable": {"user_id": "ada"}}
    )

    assert result["messages"][-1].content == "Done."
    replies = {m.tool_call_id: m for m in result["messages"] if isinstance(m, ToolMessage)}
    assert len(replies) == len(planned)
    for i, (name, args, use) in enumerate(planned):
        reply = replies[f"c{i}"]
        given = args.get("key") or args.get("path")
        if "supersedes" in args:
            given = args["supersedes"][0]
        if args.get("command") == "rename" and args["path"] == "memory/persona":
            given = args["new_path"]
        expected = (
            f'Error: "{shown(given)}" starts or ends with whitespace; memory keys and context '
            f'paths may not. Use "{use}".'
        )
        assert (reply.status, reply.content) == ("error", expected), (name, args)
    assert dump(store) == before
    assert Memory(store, scope=SCOPE).get("persona") == "kind and brief"
