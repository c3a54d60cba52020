"""The LangGraph Server example (`examples/langgraph_server`) served by `langgraph dev`.

Each test starts `langgraph dev` on 127.0.0.1 in a subprocess with the example's
`langgraph.json` (its store through `store.path`, its custom auth through `auth.path`) and
drives it with `langgraph-sdk` as two users, Alice and Bob, with the offline scripted model
(`CONTEXTCHEF_MODEL=scripted`). It checks that:

* memory written through the model's tool calls lands in the caller's own scope, filled from
  the user the server authenticated;
* each user's next run sees only their own memory in its prompt (the scripted model answers
  from the `<memory>` block of its prompt), and the store API (`client.store.search_items`)
  shows each user their own entries and refuses the other's namespace;
* a write that needs consent pauses the run with an interrupt, and resuming it through the
  API with a `Command` applies (or edits) the write;
* after the server is stopped and started again, the memory is still there, and a run left
  waiting for consent by the first server process is resumed by the second.

It runs on `FileSystemStore` and on PostgreSQL (`PostgresStore`).
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.langgraph_server import langgraph_dev as serve
from tests.support.optional import fail_in_ci_else_skip, require
from tests.support.postgres import PostgresServer, create_database, drop_database

require("langgraph_api", 'pip install "langgraph-cli[inmem]" (in the test group)')
sdk = require("langgraph_sdk", 'pip install "langgraph-cli[inmem]" (in the test group)')
sdk_errors = require("langgraph_sdk.errors", 'pip install "langgraph-cli[inmem]"')

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "langgraph_server"

ALICE_INTRO = "I'm Alice, I write Python"
BOB_INTRO = "I'm Bob, I write TypeScript"
RECALL = "What do you remember about me?"


@contextmanager
def langgraph_dev(app: Path, store: str) -> Iterator[str]:
    """Serve the example in `app` with the scripted model and `store`; yields its URL."""
    with serve(app, {"CONTEXTCHEF_MODEL": "scripted", "CONTEXTCHEF_STORE": store}) as url:
        yield url


def _client(url: str, token: str) -> Any:
    return sdk.get_client(url=url, headers={"Authorization": f"Bearer {token}"})


@asynccontextmanager
async def _users(url: str) -> AsyncIterator[tuple[Any, Any]]:
    alice, bob = _client(url, "alice-token"), _client(url, "bob-token")
    try:
        yield alice, bob
    finally:
        await alice.aclose()
        await bob.aclose()


async def _say(client: Any, graph: str, text: str, thread_id: str | None = None) -> dict[str, Any]:
    """One run of `graph` on a new (or the given) thread; returns the thread's final values."""
    if thread_id is None:
        thread_id = (await client.threads.create())["thread_id"]
    values = await client.runs.wait(
        thread_id, graph, input={"messages": [{"role": "user", "content": text}]}
    )
    return {"thread_id": thread_id, **values}


def _last_text(values: dict[str, Any]) -> str:
    content = values["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


async def _memory(client: Any, user: str) -> dict[str, str]:
    found = await client.store.search_items(("users", user, "memory"), limit=100)
    return {item["key"]: item["value"]["value"] for item in found["items"]}


async def _pending(client: Any, thread_id: str) -> list[dict[str, Any]]:
    state = await client.threads.get_state(thread_id)
    return [i["value"] for task in state["tasks"] for i in task["interrupts"]]


async def _first_server(url: str) -> str:
    """Both users write, read and consent; returns the thread Bob leaves waiting for consent."""
    async with _users(url) as (alice, bob):
        # Alice uses the create_agent graph, Bob the hand-built StateGraph.
        wrote = await _say(alice, "agent", ALICE_INTRO)
        assert _last_text(wrote).startswith("Noted, Alice. I saved 2 fact(s)")
        wrote = await _say(bob, "graph", BOB_INTRO)
        assert _last_text(wrote).startswith("Noted, Bob. I saved 2 fact(s)")

        # The next run's prompt holds only the caller's memory (the model answers from it).
        alice_recall = _last_text(await _say(alice, "graph", RECALL))
        bob_recall = _last_text(await _say(bob, "agent", RECALL))
        assert alice_recall.endswith(
            "Here is what I remember about you: language = Python, user_name = Alice."
        )
        assert bob_recall.endswith(
            "Here is what I remember about you: language = TypeScript, user_name = Bob."
        )

        # The store API shows each user their own entries and refuses the other's namespace.
        assert await _memory(alice, "alice") == {"user_name": "Alice", "language": "Python"}
        assert await _memory(bob, "bob") == {"user_name": "Bob", "language": "TypeScript"}
        with pytest.raises(sdk_errors.PermissionDeniedError):
            await bob.store.search_items(("users", "alice"))
        with pytest.raises(sdk_errors.PermissionDeniedError):
            await alice.store.search_items(("users",))

        # Consent: deploy_rule waits for the user; the run resumes through the API.
        paused = await _say(alice, "agent", "I never deploy on Fridays")
        (proposal,) = await _pending(alice, paused["thread_id"])
        assert (proposal["key"], proposal["new_value"]) == (
            "deploy_rule",
            "never deploy on Fridays",
        )
        assert proposal["scope"] == ["users", "alice"]
        assert "deploy_rule" not in await _memory(alice, "alice")
        resumed = await alice.runs.wait(paused["thread_id"], "agent", command={"resume": "approve"})
        assert any(m["type"] == "tool" and "approved" in m["content"] for m in resumed["messages"])
        assert (await _memory(alice, "alice"))["deploy_rule"] == "never deploy on Fridays"
        assert await _pending(alice, paused["thread_id"]) == []

        # Bob's proposal is left waiting: the next server process resumes it.
        waiting = await _say(bob, "graph", "I never deploy on Mondays")
        (proposal,) = await _pending(bob, waiting["thread_id"])
        assert proposal["key"] == "deploy_rule" and proposal["scope"] == ["users", "bob"]
        assert "deploy_rule" not in await _memory(bob, "bob")
        return str(waiting["thread_id"])


async def _second_server(url: str, waiting_thread: str) -> None:
    """After a restart: memory is still there, and Bob's waiting run resumes with an edit."""
    async with _users(url) as (alice, bob):
        assert await _memory(alice, "alice") == {
            "user_name": "Alice",
            "language": "Python",
            "deploy_rule": "never deploy on Fridays",
        }
        assert await _memory(bob, "bob") == {"user_name": "Bob", "language": "TypeScript"}
        answer = _last_text(await _say(alice, "agent", "When should I ship the release?"))
        assert "not on a Friday" in answer

        edited = "never deploy on Mondays or Fridays"
        resumed = await bob.runs.wait(
            waiting_thread, "graph", command={"resume": {"type": "edit", "value": edited}}
        )
        assert any(m["type"] == "tool" and "edited" in m["content"] for m in resumed["messages"])
        assert (await _memory(bob, "bob"))["deploy_rule"] == edited
        # Alice's memory is untouched by Bob's write.
        assert "Mondays" not in str(await _memory(alice, "alice"))


async def _serve_twice(app: Path, store: str) -> None:
    with langgraph_dev(app, store) as url:
        waiting = await _first_server(url)
    with langgraph_dev(app, store) as url:
        await _second_server(url, waiting)


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A copy of the example to serve (the server keeps its threads in `.langgraph_api`)."""
    target = tmp_path / "app"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".context", ".langgraph_api"))
    return target


async def test_langgraph_dev_on_filesystem_store(app: Path) -> None:
    await _serve_twice(app, str(app / ".context"))
    # The memory is the FileSystemStore's files, one folder per user.
    assert sorted(p.name for p in (app / ".context" / "users").iterdir()) == ["alice", "bob"]


@pytest.mark.postgres
async def test_langgraph_dev_on_postgres(app: Path, postgres_server: PostgresServer) -> None:
    if postgres_server.uri is None:
        fail_in_ci_else_skip(postgres_server.description)
    uri = create_database(postgres_server.uri, prefix="contextchef_server")
    try:
        await _serve_twice(app, uri)
        assert not (app / ".context").exists()  # the memory went to PostgreSQL only
    finally:
        drop_database(postgres_server.uri, uri)
