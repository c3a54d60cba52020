"""The write gate as the model meets it: corpus writes through `chef.handle_tool`, and the
Brisbane-to-Sydney supersede from the context-engineering guide."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from tests.support.gate_corpus import BENIGN, INJECTIONS, SECRET_TEXT, SECRETS


def _text(result: ToolMessage | str) -> str:
    return result if isinstance(result, str) else str(result.content)


def _dump(store: BaseStore) -> str:
    """Every stored item as one JSON text, to search for leaked material."""
    items = store.search((), limit=100_000)
    return json.dumps([[list(i.namespace), i.key, i.value] for i in items], ensure_ascii=False)


def _write_corpus(chef: ContextChef, corpus: list[tuple[str, str, str]]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for number, (key, value, _) in enumerate(corpus):
        call = {
            "name": "create_memory",
            "args": {"key": key, "value": value},
            "id": f"call_{number}",
            "type": "tool_call",
        }
        texts[key] = _text(chef.handle_tool(call))
    return texts


def test_the_corpus_through_the_model_path_stores_no_secret_or_injection() -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig())  # default gate
    texts = _write_corpus(chef, BENIGN + SECRETS + INJECTIONS)
    stored = {e.key: e for e in chef.get_memory().list()}
    dump = _dump(store)

    blocked_secrets = [k for k, _, _ in SECRETS if k not in stored]
    blocked_injections = [k for k, _, _ in INJECTIONS if k not in stored]
    refused_benign = [k for k, _, _ in BENIGN if k not in stored]
    print(
        f"\nblocked secrets {len(blocked_secrets)}/{len(SECRETS)}, "
        f"blocked injections {len(blocked_injections)}/{len(INJECTIONS)}, "
        f"refused benign {len(refused_benign)}/{len(BENIGN)}"
    )

    assert len(blocked_secrets) == len(SECRETS)
    assert len(blocked_injections) == len(INJECTIONS)
    assert len(refused_benign) <= 0.01 * len(BENIGN)
    # Not a trace anywhere in the store: entries, history, clock.
    for key, value, _ in SECRETS + INJECTIONS:
        assert json.dumps(value, ensure_ascii=False)[1:-1] not in dump, key
    for key, secret in SECRET_TEXT.items():
        if len(secret) >= 12:  # short ones (one-time codes) also occur in timestamps
            assert secret not in dump, key
    # The model is told, in an Error text that never echoes the secret.
    for key, _, _ in SECRETS:
        assert texts[key].startswith("Error: the write to context://memory/"), texts[key]
        assert SECRET_TEXT[key] not in texts[key]
    for key in refused_benign:
        assert texts[key].startswith("Error: ")
    for key, value, _ in BENIGN:
        if key in stored:
            assert texts[key] == f"Created context://memory/{key}."
            assert stored[key].value == value


def _call(vocabulary: str, place: str, key: str, value: str, number: int) -> dict[str, Any]:
    if vocabulary == "legacy":
        args: dict[str, Any] = {"key": key, "value": value}
        name = "create_memory"
    else:
        path = f"memory/{key}" if place == "memory" else f"notes/{key}.md"
        args = {"command": "create", "path": path, "file_text": value}
        name = "context"
    return {"name": name, "args": args, "id": f"call_{number}", "type": "tool_call"}


@pytest.mark.parametrize(
    ("vocabulary", "place"), [("legacy", "memory"), ("unified", "memory"), ("unified", "notes")]
)
def test_the_corpus_on_every_write_path_reaches_neither_the_store_nor_the_prompt(
    vocabulary: str, place: str
) -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig(token_budget=None), tools=vocabulary)  # type: ignore[arg-type]
    texts: dict[str, str] = {}
    for number, (key, value, _) in enumerate(BENIGN + SECRETS + INJECTIONS):
        texts[key] = _text(chef.handle_tool(_call(vocabulary, place, key, value, number)))
    refused_benign = [k for k, _, _ in BENIGN if texts[k].startswith("Error: ")]
    assert len(refused_benign) <= 0.01 * len(BENIGN), refused_benign
    for key, _, _ in SECRETS + INJECTIONS:
        assert texts[key].startswith("Error: "), (key, texts[key])

    # What a later model call sees: the compiled prompt, and the notes read back.
    payload = chef.compile([SystemMessage("You help."), HumanMessage("What do you know?")])
    shown = "\n".join(str(m.content) for m in payload.messages)
    if place == "notes":
        listing = _text(chef.handle_tool(_call_view("notes/")))
        shown += "\n" + listing
        for key, _, _ in BENIGN[:20]:
            if key not in refused_benign:
                shown += "\n" + _text(chef.handle_tool(_call_view(f"notes/{key}.md")))
    dump = _dump(store)
    for key, value, _ in SECRETS + INJECTIONS:
        assert value not in shown, key
        assert json.dumps(value, ensure_ascii=False)[1:-1] not in dump, key
    for key, secret in SECRET_TEXT.items():
        if len(secret) >= 12:  # short ones (one-time codes) also occur in timestamps
            assert secret not in shown and secret not in dump, key
    if place == "memory":  # the benign ones are there, so the check above looked at memory
        assert len(payload.meta.injected_keys) == len(BENIGN) - len(refused_benign)


def _call_view(path: str) -> dict[str, Any]:
    return {
        "name": "context",
        "args": {"command": "view", "path": path},
        "id": "v",
        "type": "tool_call",
    }


def test_model_writes_carry_the_tool_call_id() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    call = {
        "name": "create_memory",
        "args": {"key": "lang", "value": "Python"},
        "id": "call_42",
        "type": "tool_call",
    }
    chef.handle_tool(call)
    entry = chef.get_memory().get_entry("lang")
    assert entry is not None and entry.provenance is not None
    assert (entry.provenance.written_by, entry.provenance.tool_call_id) == ("model", "call_42")


def _brisbane_to_sydney(chef: ContextChef) -> tuple[str, MemoryEntry | None]:
    first = {
        "name": "create_memory",
        "args": {"key": "home_city", "value": "The user lives in Brisbane.", "type": "fact"},
        "id": "call_1",
        "type": "tool_call",
    }
    assert _text(chef.handle_tool(first)) == "Created context://memory/home_city."
    moved = {
        "name": "create_memory",
        "args": {
            "key": "home_city_now",
            "value": "The user moved to Sydney.",
            "type": "fact",
            "supersedes": ["home_city"],
        },
        "id": "call_2",
        "type": "tool_call",
    }
    return _text(chef.handle_tool(moved)), chef.get_memory().get_entry("home_city_now")


def test_brisbane_to_sydney_supersedes_and_keeps_the_old_fact_in_history() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    text, new = _brisbane_to_sydney(chef)
    assert text == (
        "Created context://memory/home_city_now. It supersedes context://memory/home_city, "
        "which moved to history and is no longer shown to you."
    )
    assert new is not None and new.type == "fact" and new.supersedes == ("home_city",)
    memory = chef.get_memory()
    assert memory.get("home_city") is None  # retired, not injected
    (old,) = memory.history("home_city")
    assert old.status == "superseded" and old.superseded_by == "home_city_now"
    assert old.entry.value == "The user lives in Brisbane."
    assert (old.changed_by, old.tool_call_id) == ("model", "call_2")
    assert old.recorded_at is not None and old.recorded_at >= old.entry.created_at

    payload = chef.compile([SystemMessage("You help."), HumanMessage("Where do I live?")])
    prompt = "\n".join(str(m.content) for m in payload.messages)
    assert "Sydney" in prompt and "Brisbane" not in prompt
    assert payload.meta.injected_keys == ["home_city_now"]


async def test_brisbane_to_sydney_async() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    first: dict[str, Any] = {
        "name": "context",
        "args": {
            "command": "create",
            "path": "memory/home_city",
            "file_text": "Lives in Brisbane",
            "type": "fact",
        },
        "id": "c1",
        "type": "tool_call",
    }
    await chef.ahandle_tool(first)
    moved: dict[str, Any] = {
        "name": "context",
        "args": {
            "command": "create",
            "path": "memory/city",
            "file_text": "Lives in Sydney",
            "supersedes": "home_city",  # a bare key is taken as a one-item list
        },
        "id": "c2",
        "type": "tool_call",
    }
    assert "It supersedes context://memory/home_city" in _text(await chef.ahandle_tool(moved))
    payload = await chef.acompile([HumanMessage("hi")])
    prompt = "\n".join(str(m.content) for m in payload.messages)
    assert "Sydney" in prompt and "Brisbane" not in prompt
    history = await chef.get_memory().ahistory("home_city")
    assert [r.status for r in history] == ["superseded"]
