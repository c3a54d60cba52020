"""Result texts and check order of the memory tools and their dispatcher.

The tool calls that must behave alike on every backend are the shared `ToolsSuite`, run here on
`InMemoryStore`.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.entry import DEFAULT_MEMORY_TYPES
from langchain_contextchef.errors import ToolNotOwnedError
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.tools import (
    OWNED_TOOL_NAMES,
    ahandle_tool,
    default_resolver,
    dispatch,
    handle_tool,
    make_dynamic_tools,
    make_tools,
    owns_tool,
)
from tests.support.stores import dump
from tests.support.suites.tools import ToolsSuite

REQUIRED = 'Error: the "{}" argument is required and must be a non-empty string.'


class TestTools(ToolsSuite):
    """The tools suite on the unit tests' `local_store` and `astore`, `InMemoryStore`s."""


@pytest.fixture(params=["sync", "async"])
def call(request: pytest.FixtureRequest) -> Any:
    """`call(memory, name, args)` through `handle_tool` or `ahandle_tool`."""
    if request.param == "sync":
        return lambda memory, name, args, **kw: handle_tool(name, args, memory, **kw)

    def run(memory: Memory | None, name: str, args: Any, **kw: Any) -> str:
        import asyncio

        return asyncio.run(ahandle_tool(name, args, memory, **kw))

    return run


def mem(store: BaseStore | None = None, **config: Any) -> Memory:
    return Memory(store if store is not None else InMemoryStore(), MemoryConfig(**config))


# ---- names and arguments ----------------------------------------------------------------------


def test_owned_names() -> None:
    assert {"create_memory", "modify_memory", "context", "recall_memory"} == OWNED_TOOL_NAMES
    assert owns_tool("context")
    assert not owns_tool("Context")
    assert not owns_tool("web_search")


def test_foreign_name_raises_right_away() -> None:
    with pytest.raises(ToolNotOwnedError, match=r"owns_tool\(name\)"):
        dispatch("web_search", {}, mem())


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ("{oops", "Error: the tool arguments were not valid JSON."),
        ("[1, 2]", "Error: the tool arguments must be a JSON object."),
        ('"text"', "Error: the tool arguments must be a JSON object."),
        ("42", "Error: the tool arguments must be a JSON object."),
        ("", REQUIRED.format("key")),
        ("   ", REQUIRED.format("key")),
        (None, REQUIRED.format("key")),
        ('{"key": 5, "value": "v"}', REQUIRED.format("key")),
        ('{"key": "   ", "value": "v"}', REQUIRED.format("key")),
        ('{"key": "k"}', REQUIRED.format("value")),
        ('{"key": "k", "value": ""}', REQUIRED.format("value")),
        ('{"key": "k", "value": ["v"]}', REQUIRED.format("value")),
        (
            '{"key": "k", "value": "v", "description": 3}',
            'Error: the "description" argument must be a string.',
        ),
        (
            '{"key": "a\\u0000b", "value": "v"}',
            'Error: the "key" argument cannot contain NUL characters.',
        ),
        (
            '{"key": "k", "value": "\\ud800"}',
            'Error: the "value" argument is not valid Unicode text.',
        ),
        ('{"key": "a//b", "value": "v"}', None),
        ('{"key": "dir/", "value": "v"}', None),
        ('{"key": "../x", "value": "v"}', None),
    ],
)
def test_argument_errors_leave_store_unchanged(
    call: Any, arguments: Any, expected: str | None
) -> None:
    memory = mem()
    memory.set("seed", "kept")
    before = dump(memory.store)
    text = call(memory, "create_memory", arguments)
    if expected is None:
        assert text.startswith("Error: ") and "is not a usable memory key" in text
    else:
        assert text == expected
    assert dump(memory.store) == before


def test_no_memory(call: Any) -> None:
    assert call(None, "create_memory", {"key": "k", "value": "v"}) == (
        "Error: context://memory/ is not available: these tools were built without memory. "
        "The host has to configure memory to enable it."
    )
    assert call(None, "context", {"command": "view", "path": "notes/x"}).startswith(
        "Error: context://notes/ is not available:"
    )


# ---- create_memory ----------------------------------------------------------------------------


def test_create_memory_records_value_description_and_provenance(call: Any) -> None:
    memory = mem()
    args = {"key": "lang", "value": "Python", "description": "main language"}
    assert call(memory, "create_memory", args, tool_call_id="call-1") == (
        "Created context://memory/lang."
    )
    entry = memory.get_entry("lang")
    assert entry is not None
    assert (entry.value, entry.description) == ("Python", "main language")
    assert entry.provenance is not None
    assert entry.provenance.written_by == "model"
    assert entry.provenance.tool_call_id == "call-1"


def test_create_memory_check_order(call: Any) -> None:
    seen: list[tuple[str, str | None, str | None]] = []

    def veto(key: str, value: str | None, old: str | None) -> bool:
        seen.append((key, value, old))
        return key != "blocked"

    memory = mem(allowed_keys=["lang", "blocked"], on_memory_update=veto)
    memory.set("lang", "Python")
    before = dump(memory.store)
    # value is checked before the allowed keys
    assert call(memory, "create_memory", {"key": "nope"}) == REQUIRED.format("value")
    assert call(memory, "create_memory", {"key": "nope", "value": "x"}) == (
        "Error: context://memory/nope is not an allowed memory key. Allowed keys: lang, blocked."
    )
    # The legacy tools name their own tool for the next step, never the context tool's.
    assert call(memory, "create_memory", {"key": "lang", "value": "Go"}) == (
        "Error: context://memory/lang already exists. Use modify_memory to update or delete it."
    )
    assert seen == []  # the veto runs only after the allowed-keys and existence checks
    assert call(memory, "create_memory", {"key": "blocked", "value": "x"}) == (
        "Error: the write to context://memory/blocked was rejected by the host."
    )
    assert seen == [("blocked", "x", None)]
    assert dump(memory.store) == before


def test_empty_allowed_keys_refuses_everything(call: Any) -> None:
    memory = mem(allowed_keys=[])
    assert call(memory, "create_memory", {"key": "k", "value": "v"}) == (
        "Error: context://memory/k cannot be written: no memory keys are allowed."
    )
    assert memory.list() == []


def test_hook_exceptions_propagate(call: Any) -> None:
    def veto(key: str, value: str | None, old: str | None) -> bool:
        raise RuntimeError("hook bug")

    memory = mem(on_memory_update=veto)
    with pytest.raises(RuntimeError, match="hook bug"):
        call(memory, "create_memory", {"key": "k", "value": "v"})


def test_changed_hook_sees_tool_writes(call: Any) -> None:
    events: list[str] = []
    memory = mem(on_memory_changed=lambda event: events.append(f"{event.type}:{event.key}"))
    call(memory, "create_memory", {"key": "k", "value": "v"})
    call(memory, "modify_memory", {"action": "delete", "key": "k"})
    assert events == ["set:k", "delete:k"]


# ---- modify_memory ----------------------------------------------------------------------------


def test_modify_memory_update_and_delete(call: Any) -> None:
    memory = mem()
    memory.set("lang", "Python", description="old")
    text = call(memory, "modify_memory", {"action": "update", "key": "lang", "value": "Rust"})
    assert text == "Updated context://memory/lang."
    entry = memory.get_entry("lang")
    assert entry is not None
    assert (entry.value, entry.description, entry.update_count) == ("Rust", "old", 2)
    text = call(memory, "modify_memory", {"action": "delete", "key": "lang"})
    assert text == "Deleted context://memory/lang."
    assert memory.get("lang") is None


def test_modify_memory_check_order(call: Any) -> None:
    memory = mem(allowed_keys=["lang", "tone"], on_memory_update=lambda k, v, o: v != "no")
    memory.set("lang", "Python")
    before = dump(memory.store)
    cases = [
        ({"key": "lang"}, REQUIRED.format("action")),
        ({"action": "update"}, REQUIRED.format("key")),
        (
            {"action": "upsert", "key": "x"},
            "Error: context://memory/x is not an allowed memory key. Allowed keys: lang, tone.",
        ),
        # a missing key is reported before an unknown action or a missing value
        ({"action": "upsert", "key": "tone"}, "Error: nothing is stored at context://memory/tone."),
        ({"action": "update", "key": "tone"}, "Error: nothing is stored at context://memory/tone."),
        (
            {"action": "upsert", "key": "lang"},
            'Error: action must be "update" or "delete", got "upsert".',
        ),
        ({"action": "update", "key": "lang"}, REQUIRED.format("value")),
        (
            {"action": "update", "key": "lang", "value": "no"},
            "Error: the write to context://memory/lang was rejected by the host.",
        ),
    ]
    for args, expected in cases:
        assert call(memory, "modify_memory", args) == expected, args
    assert dump(memory.store) == before


def test_modify_memory_delete_vetoed(call: Any) -> None:
    memory = mem(on_memory_update=lambda k, v, o: v is not None)
    memory.set("lang", "Python")
    text = call(memory, "modify_memory", {"action": "delete", "key": "lang"})
    assert text == "Error: the write to context://memory/lang was rejected by the host."
    assert memory.get("lang") == "Python"


# ---- context: memory/ -------------------------------------------------------------------------


def ctx(call: Any, memory: Memory, command: str, path: str, **args: Any) -> str:
    result: str = call(memory, "context", {"command": command, "path": path, **args})
    return result


def test_context_view_entry_and_directory(call: Any) -> None:
    memory = mem()
    assert ctx(call, memory, "view", "memory/") == "context://memory/ is empty."
    memory.set("zeta", "last")
    memory.set("Alpha", "first\nline two", description="comes first")
    memory.set("team/lead", "Ada")
    assert ctx(call, memory, "view", "context://memory/") == (
        "context://memory/ (3 entries):\n"
        "- context://memory/Alpha — comes first\n"
        "- context://memory/team/lead\n"
        "- context://memory/zeta"
    )
    # the prefix is optional, a leading slash is ignored, a bare namespace is a directory
    assert ctx(call, memory, "view", "memory") == ctx(call, memory, "view", "/memory/")
    assert ctx(call, memory, "view", "memory/Alpha") == "first\nline two"
    assert ctx(call, memory, "view", "memory/team/") == (
        "context://memory/team/ (1 entry):\n- context://memory/team/lead"
    )
    assert ctx(call, memory, "view", "memory/team") == ctx(call, memory, "view", "memory/team/")
    assert ctx(call, memory, "view", "memory/nope") == (
        "Error: nothing is stored at context://memory/nope."
    )


def test_context_view_ignores_allowed_keys(call: Any) -> None:
    memory = mem(allowed_keys=["lang"])
    memory.set("persona", "terse")
    assert ctx(call, memory, "view", "memory/persona") == "terse"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "memory/../x",
            'Error: "memory/../x" is not a context path: ".." is not allowed in a path.',
        ),
        (
            "../memory/x",
            'Error: "../memory/x" is not a context path: ".." is not allowed in a path.',
        ),
        (
            "context://",
            'Error: "context://" is not a context path. Use context://<namespace>/<path>.',
        ),
        ("/", 'Error: "/" is not a context path. Use context://<namespace>/<path>.'),
        (
            "memory/a//b",
            'Error: "memory/a//b" is not a context path. Use context://<namespace>/<path>.',
        ),
        (
            "secrets/x",
            "Error: context://secrets/ is not a known namespace. Use one of: context://memory/, "
            "context://notes/, context://vfs/, context://archive/.",
        ),
    ],
)
def test_context_bad_paths(call: Any, path: str, expected: str) -> None:
    assert ctx(call, mem(), "view", path) == expected


def test_context_unknown_command_and_missing_arguments(call: Any) -> None:
    memory = mem()
    assert ctx(call, memory, "edit", "memory/x") == (
        'Error: unknown command "edit". Use one of: view, create, str_replace, insert, delete, '
        "rename, search."
    )
    assert call(memory, "context", {"path": "memory/"}) == REQUIRED.format("command")
    assert call(memory, "context", {"command": "view"}) == REQUIRED.format("path")


@pytest.mark.parametrize("command", ["create", "str_replace", "insert", "delete", "rename"])
def test_context_read_only_and_directory_targets(call: Any, command: str) -> None:
    memory = mem()
    assert ctx(call, memory, command, "vfs/out.txt", file_text="x") == (
        "Error: context://vfs/out.txt is read-only. This tool may write to: context://memory/, "
        "context://notes/."
    )
    assert ctx(call, memory, command, "archive/") == (
        "Error: context://archive/ is read-only. This tool may write to: context://memory/, "
        "context://notes/."
    )
    assert ctx(call, memory, command, "memory/") == (
        f"Error: context://memory/ is a directory. Name the memory key to {command}."
    )
    assert ctx(call, memory, command, "notes/drafts/") == (
        f"Error: context://notes/drafts/ is a directory. Name the note to {command}."
    )
    assert dump(memory.store) == []


def test_context_create_memory(call: Any) -> None:
    memory = mem(allowed_keys=["lang"])
    assert ctx(call, memory, "create", "memory/lang") == REQUIRED.format("file_text")
    assert ctx(call, memory, "create", "memory/x", file_text="v") == (
        "Error: context://memory/x is not an allowed memory key. Allowed keys: lang."
    )
    text = ctx(call, memory, "create", "memory/lang", file_text="Python", description="d")
    assert text == "Created context://memory/lang."
    assert ctx(call, memory, "create", "memory/lang", file_text="Go") == (
        "Error: context://memory/lang already exists. Use str_replace to edit it, or delete it first."
    )
    entry = memory.get_entry("lang")
    assert entry is not None and (entry.value, entry.description) == ("Python", "d")


def test_context_str_replace_memory(call: Any) -> None:
    # The host vetoes "vetoed" ("forbidden" now meets the gate's injection classifier first).
    memory = mem(on_memory_update=lambda k, v, o: v is None or "vetoed" not in v)
    memory.set("style", "tabs and tabs, spaces", description="fmt")
    before = dump(memory.store)
    assert ctx(call, memory, "str_replace", "memory/style", old_str="nope", new_str="x") == (
        "Error: old_str was not found in context://memory/style. It has to match the stored "
        "text exactly, including whitespace."
    )
    assert ctx(call, memory, "str_replace", "memory/style", old_str="tabs", new_str="x") == (
        "Error: old_str appears more than once in context://memory/style. Include enough "
        "surrounding text for it to match exactly one place."
    )
    assert ctx(call, memory, "str_replace", "memory/style", old_str="spaces", new_str="vetoed") == (
        "Error: the write to context://memory/style was rejected by the host."
    )
    assert ctx(call, memory, "str_replace", "memory/style", new_str="x") == REQUIRED.format(
        "old_str"
    )
    assert ctx(call, memory, "str_replace", "memory/none", old_str="a") == (
        "Error: nothing is stored at context://memory/none."
    )
    # a literal splice, not a regex: "." is just a dot
    assert ctx(call, memory, "str_replace", "memory/style", old_str=".", new_str="x").startswith(
        "Error: old_str was not found"
    )
    assert ctx(call, memory, "str_replace", "memory/style", old_str="tabs and tabs, spaces") == (
        "Error: this edit would leave context://memory/style empty. Delete it instead."
    )
    assert dump(memory.store) == before
    text = ctx(call, memory, "str_replace", "memory/style", old_str=", spaces", new_str="!")
    assert text == "Edited context://memory/style."
    entry = memory.get_entry("style")
    assert entry is not None
    assert (entry.value, entry.description, entry.update_count) == ("tabs and tabs!", "fmt", 2)


def test_context_insert_memory(call: Any) -> None:
    memory = mem()
    memory.set("todo", "one\ntwo")
    before = dump(memory.store)
    assert ctx(call, memory, "insert", "memory/todo", insert_line=3, insert_text="x") == (
        "Error: insert_line 3 is out of range for context://memory/todo, which has 2 lines. "
        "Use 0 to 2."
    )
    assert ctx(call, memory, "insert", "memory/todo", insert_line=-1, insert_text="x").startswith(
        "Error: insert_line -1 is out of range"
    )
    for bad in ("1", 1.0, True, None):
        assert ctx(call, memory, "insert", "memory/todo", insert_line=bad, insert_text="x") == (
            'Error: the "insert_line" argument is required and must be an integer.'
        )
    assert ctx(call, memory, "insert", "memory/todo", insert_line=0) == REQUIRED.format(
        "insert_text"
    )
    assert dump(memory.store) == before
    assert ctx(call, memory, "insert", "memory/todo", insert_line=0, insert_text="zero") == (
        "Inserted into context://memory/todo."
    )
    assert ctx(call, memory, "insert", "memory/todo", insert_line=3, insert_text="three") == (
        "Inserted into context://memory/todo."
    )
    assert memory.get("todo") == "zero\none\ntwo\nthree"
    memory.set("single", "only")
    ctx(call, memory, "insert", "memory/single", insert_line=1, insert_text="a\nb")
    assert memory.get("single") == "only\na\nb"
    assert ctx(call, memory, "insert", "memory/single", insert_line=9, insert_text="x").endswith(
        "which has 3 lines. Use 0 to 3."
    )


def test_context_delete_memory(call: Any) -> None:
    memory = mem(allowed_keys=["a", "b"])
    memory.set("a", "1")
    memory.set("c", "3")
    assert ctx(call, memory, "delete", "memory/c") == (
        "Error: context://memory/c is not an allowed memory key. Allowed keys: a, b."
    )
    assert (
        ctx(call, memory, "delete", "memory/b") == "Error: nothing is stored at context://memory/b."
    )
    assert ctx(call, memory, "delete", "memory/a") == "Deleted context://memory/a."
    assert [e.key for e in memory.list()] == ["c"]


def test_context_rename_memory(call: Any) -> None:
    memory = mem(allowed_keys=["src", "dst", "taken"])
    memory.set("src", "value", description="why")
    memory.set("taken", "t")
    memory.set("outsider", "o")
    before = dump(memory.store)
    assert ctx(call, memory, "rename", "memory/src") == REQUIRED.format("new_path")
    assert ctx(call, memory, "rename", "memory/src", new_path="memory/other") == (
        "Error: context://memory/other is not an allowed memory key. Allowed keys: src, dst, taken."
    )
    assert ctx(call, memory, "rename", "memory/outsider", new_path="memory/dst").startswith(
        "Error: context://memory/outsider is not an allowed memory key."
    )
    assert ctx(call, memory, "rename", "memory/dst", new_path="memory/src") == (
        "Error: nothing is stored at context://memory/dst."
    )
    assert ctx(call, memory, "rename", "memory/src", new_path="memory/taken") == (
        "Error: context://memory/taken already exists. Use str_replace to edit it, or delete it first."
    )
    assert ctx(call, memory, "rename", "memory/src", new_path="notes/src") == (
        "Error: rename stays inside one namespace; context://memory/src cannot move to "
        "context://notes/src."
    )
    assert ctx(call, memory, "rename", "memory/src", new_path="memory/").startswith(
        "Error: context://memory/ is a directory."
    )
    assert dump(memory.store) == before
    assert ctx(call, memory, "rename", "memory/src", new_path="context://memory/dst") == (
        "Renamed context://memory/src to context://memory/dst."
    )
    entry = memory.get_entry("dst")
    assert entry is not None and (entry.value, entry.description) == ("value", "why")
    assert memory.get("src") is None


def test_context_rename_keeps_type_importance_and_expiry(call: Any) -> None:
    # With a default TTL configured, a rename used to give the moved entry that TTL (a
    # permanent entry would then expire) and to drop its type and importance.
    memory = mem(default_ttl=2)
    memory.set("forever", "Python", type="preference", importance=5, ttl=None)
    memory.set("soon", "tmp", type="fact", ttl=timedelta(hours=1))
    for src, dst in (("forever", "lang"), ("soon", "scratch")):
        before = memory.get_entry(src)
        assert before is not None
        assert ctx(call, memory, "rename", f"memory/{src}", new_path=f"memory/{dst}") == (
            f"Renamed context://memory/{src} to context://memory/{dst}."
        )
        after = memory.get_entry(dst)
        assert after is not None and memory.get_entry(src) is None
        assert (after.value, after.type, after.importance) == (
            before.value,
            before.type,
            before.importance,
        )
        assert (after.expires_at_turn, after.expires_at) == (
            before.expires_at_turn,
            before.expires_at,
        )


def test_context_rename_with_vetoed_delete_keeps_both(call: Any) -> None:
    memory = mem(on_memory_update=lambda k, v, o: v is not None)
    memory.set("src", "value")
    assert ctx(call, memory, "rename", "memory/src", new_path="memory/dst") == (
        "Copied context://memory/src to context://memory/dst, but the original could not be removed."
    )
    assert (memory.get("src"), memory.get("dst")) == ("value", "value")


def test_context_search_memory(call: Any) -> None:
    memory = mem()
    memory.set(
        "lang",
        "The project is written in Python 3.12 with strict typing everywhere",
        description="primary language",
    )
    memory.set("tone", "dry", description="How to talk: PYTHONIC jokes only")
    memory.set("other", "nothing relevant")
    assert ctx(call, memory, "search", "memory/", query="python") == (
        '2 matches for "python" under context://memory/:\n'
        "- context://memory/lang: The project is written in Python 3.12 with strict typing everywhere prim…\n"
        "- context://memory/tone: dry How to talk: PYTHONIC jokes only"
    )
    assert ctx(call, memory, "search", "memory/", query="LANGUAGE").startswith(
        '1 match for "LANGUAGE" under context://memory/:\n- context://memory/lang: …'
    )
    assert ctx(call, memory, "search", "memory/", query="zebra") == (
        'No matches for "zebra" under context://memory/.'
    )
    assert ctx(call, memory, "search", "memory/", query="  ") == (
        'Error: the "query" argument must not be blank.'
    )
    assert ctx(call, memory, "search", "memory/") == REQUIRED.format("query")
    # regex metacharacters are literal
    assert ctx(call, memory, "search", "memory/", query=".*").startswith("No matches")


# ---- context: notes/ --------------------------------------------------------------------------


def test_notes_lifecycle(call: Any) -> None:
    memory = mem()
    assert ctx(call, memory, "view", "notes/") == "context://notes/ is empty."
    assert ctx(call, memory, "create", "notes/plan.md", file_text="step one\nstep two\n") == (
        "Created context://notes/plan.md."
    )
    assert ctx(call, memory, "create", "notes/plan.md", file_text="again") == (
        "Error: context://notes/plan.md already exists. Use str_replace to edit it, or delete it first."
    )
    assert (
        ctx(call, memory, "view", "context://notes/plan.md") == "     1\tstep one\n     2\tstep two"
    )
    assert ctx(call, memory, "str_replace", "notes/plan.md", old_str="two", new_str="2") == (
        "Edited context://notes/plan.md."
    )
    assert ctx(call, memory, "insert", "notes/plan.md", insert_line=1, insert_text="middle") == (
        "Inserted into context://notes/plan.md."
    )
    assert ctx(call, memory, "view", "notes/plan.md") == (
        "     1\tstep one\n     2\tmiddle\n     3\tstep 2"
    )
    ctx(call, memory, "create", "notes/drafts/a.md", file_text="draft")
    assert ctx(call, memory, "view", "notes/") == (
        "context://notes/ (2 entries):\n- context://notes/drafts/a.md\n- context://notes/plan.md"
    )
    assert ctx(call, memory, "search", "notes/", query="MIDDLE") == (
        '1 match for "MIDDLE" under context://notes/:\n'
        "- context://notes/plan.md: step one middle step 2"
    )
    assert ctx(call, memory, "rename", "notes/drafts/a.md", new_path="notes/b.md") == (
        "Renamed context://notes/drafts/a.md to context://notes/b.md."
    )
    assert ctx(call, memory, "delete", "notes/plan.md") == "Deleted context://notes/plan.md."
    assert ctx(call, memory, "delete", "notes/plan.md") == (
        "Error: nothing is stored at context://notes/plan.md."
    )
    assert (
        ctx(call, memory, "view", "notes/") == "context://notes/ (1 entry):\n- context://notes/b.md"
    )
    # notes live beside memory, not in it
    assert memory.list() == []
    item = memory.store.get(("notes",), "b.md")
    assert item is not None and item.value["text"] == "draft"


def test_notes_in_scope() -> None:
    store = InMemoryStore()
    memory = Memory(store, scope=("users", "ada"))
    args = {"command": "create", "path": "notes/x", "file_text": "t"}
    assert handle_tool("context", args, memory) == "Created context://notes/x."
    note = store.get(("users", "ada", "notes"), "x")
    assert note is not None and note.value["text"] == "t"
    assert store.get(("notes",), "x") is None


# ---- the LangChain tools ----------------------------------------------------------------------


def params(tool: Any) -> dict[str, Any]:
    schema: dict[str, Any] = convert_to_openai_tool(tool)["function"]["parameters"]
    return schema


def test_make_tools_modes_and_schemas() -> None:
    memory = mem(allowed_keys=["lang", "tone"])
    legacy = make_tools(mode="legacy", allowed_keys=["lang", "tone"], resolver=lambda c: memory)
    assert [t.name for t in legacy] == ["create_memory", "modify_memory"]
    create, modify = (params(t) for t in legacy)
    assert create["required"] == ["key", "value"]
    assert create["properties"]["key"]["enum"] == ["lang", "tone"]
    assert set(create["properties"]) == {"key", "value", "description", "type", "supersedes"}
    assert create["properties"]["type"]["enum"] == list(DEFAULT_MEMORY_TYPES)
    assert create["properties"]["supersedes"]["type"] == "array"
    # The nudge: a write that replaces a stored fact names the older key, so it is retired.
    assert "older facts it replaces" in create["properties"]["supersedes"]["description"]
    assert modify["required"] == ["action", "key"]
    assert "version" not in modify["properties"]  # the compact block shows no versions
    # The type enum is sent once, on create_memory; modify_memory's `type` is a plain string.
    assert modify["properties"]["type"] == {"type": "string"}
    assert modify["properties"]["action"]["enum"] == ["update", "delete"]
    assert "enum" not in modify["properties"]["key"]
    (context,) = make_tools(mode="unified", allowed_keys=None, resolver=lambda c: memory)
    schema = params(context)
    assert context.name == "context"
    assert schema["required"] == ["command", "path"]
    assert schema["properties"]["command"]["enum"] == [
        "view",
        "create",
        "str_replace",
        "insert",
        "delete",
        "rename",
        "search",
    ]
    assert schema["properties"]["insert_line"]["type"] == "integer"
    assert "version" not in schema["properties"]
    assert schema["properties"]["type"]["enum"] == list(DEFAULT_MEMORY_TYPES)
    assert "older facts it replaces" in schema["properties"]["supersedes"]["description"]
    assert "runtime" not in schema["properties"]
    # With versions shown (the verbose format), both vocabularies offer compare-and-set.
    versioned = make_tools(
        mode="legacy", allowed_keys=None, resolver=lambda c: memory, versions=True
    )
    assert params(versioned[1])["properties"]["version"]["type"] == "integer"
    (versioned_context,) = make_tools(
        mode="unified", allowed_keys=None, resolver=lambda c: memory, versions=True
    )
    assert params(versioned_context)["properties"]["version"]["type"] == "integer"
    free = make_tools(mode="legacy", allowed_keys=None, resolver=lambda c: memory)
    assert "enum" not in params(free[0])["properties"]["key"]
    assert (
        "enum"
        not in params(make_tools(mode="legacy", allowed_keys=[], resolver=lambda c: memory)[0])[
            "properties"
        ]["key"]
    )


def test_schemas_are_static_across_builds_and_writes() -> None:
    memory = mem()
    first = [
        params(t) for t in make_tools(mode="legacy", allowed_keys=["a"], resolver=lambda c: memory)
    ]
    handle_tool("create_memory", {"key": "a", "value": "v"}, memory)
    second = [
        params(t) for t in make_tools(mode="legacy", allowed_keys=["a"], resolver=lambda c: memory)
    ]
    assert json.dumps(first) == json.dumps(second)


def test_make_tools_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="mode must be"):
        make_tools(mode="both", allowed_keys=None, resolver=lambda c: None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dynamic_modify_keys only applies"):
        make_tools(
            mode="unified", allowed_keys=None, resolver=lambda c: None, dynamic_modify_keys=[]
        )
    with pytest.raises(ValueError, match="non-empty strings"):
        make_tools(mode="legacy", allowed_keys="lang", resolver=lambda c: None)


def test_dynamic_variant() -> None:
    memory = mem()
    assert [
        t.name for t in make_dynamic_tools([], allowed_keys=None, resolver=lambda c: memory)
    ] == ["create_memory"]
    tools = make_dynamic_tools(["a", "b"], allowed_keys=None, resolver=lambda c: memory)
    assert params(tools[1])["properties"]["key"]["enum"] == ["a", "b"]


def test_tool_invoke_returns_text_and_error_status() -> None:
    memory = mem(allowed_keys=["lang", "tone"])
    create, _ = make_tools(mode="legacy", allowed_keys=["lang", "tone"], resolver=lambda c: memory)
    assert create.invoke({"key": "lang", "value": "Python"}) == "Created context://memory/lang."
    # a wrong type reaches the dispatcher instead of failing pydantic validation
    assert create.invoke({"key": 7, "value": "v"}) == REQUIRED.format("key")
    assert create.invoke({"value": "v"}) == REQUIRED.format("key")
    message = create.invoke(
        {
            "type": "tool_call",
            "id": "c9",
            "name": "create_memory",
            "args": {"key": "x", "value": "v"},
        }
    )
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.content == (
        "Error: context://memory/x is not an allowed memory key. Allowed keys: lang, tone."
    )
    ok = create.invoke(
        {
            "type": "tool_call",
            "id": "c10",
            "name": "create_memory",
            "args": {"key": "tone", "value": "v"},
        }
    )
    assert isinstance(ok, ToolMessage) and ok.status == "success"


async def test_tool_ainvoke() -> None:
    memory = mem()
    (context,) = make_tools(mode="unified", allowed_keys=None, resolver=lambda c: memory)
    args = {"command": "create", "path": "memory/k", "file_text": "v", "description": "d"}
    assert await context.ainvoke(args) == "Created context://memory/k."
    assert await context.ainvoke({"command": "view", "path": "memory/k"}) == "v"


def test_tool_resolver_gets_config_and_may_return_none() -> None:
    seen: list[Any] = []

    def resolver(config: Any) -> Memory | None:
        seen.append(config.get("configurable", {}).get("user_id"))
        return None

    (context,) = make_tools(mode="unified", allowed_keys=None, resolver=resolver)
    text = context.invoke(
        {"command": "view", "path": "memory/"}, {"configurable": {"user_id": "u1"}}
    )
    assert text.startswith("Error: context://memory/ is not available:")
    assert seen == ["u1"]


def test_default_resolver_scopes_by_config() -> None:
    store = InMemoryStore()
    (create, _) = make_tools(
        mode="legacy",
        allowed_keys=None,
        resolver=default_resolver(store=store, scope=("users", "{user_id}")),
    )
    create.invoke({"key": "k", "value": "a"}, {"configurable": {"user_id": "a"}})
    create.invoke({"key": "k", "value": "b"}, {"configurable": {"user_id": "b"}})
    assert store.get(("users", "a", "memory"), "k").value["value"] == "a"  # type: ignore[union-attr]
    assert store.get(("users", "b", "memory"), "k").value["value"] == "b"  # type: ignore[union-attr]
    from langchain_contextchef.errors import ScopeError

    with pytest.raises(ScopeError, match="user_id"):
        create.invoke({"key": "k", "value": "c"})


def test_default_resolver_without_store_outside_a_graph() -> None:
    (create, _) = make_tools(mode="legacy", allowed_keys=None, resolver=default_resolver())
    with pytest.raises(ValueError, match="graph.compile"):
        create.invoke({"key": "k", "value": "v"})
