"""Background reflection on LangGraph Server: `langgraph dev` runs the scheduled reflection.

The test serves `tests/integration_tests/reflection_server` (a `reflection_graph` whose
scripted reflection model proposes profile fields) with `langgraph dev` in a subprocess, and
schedules runs through `ServerReflectionScheduler` with the async `langgraph-sdk` client, as
an application would after each turn. It checks that a message arriving before the delayed
run starts rolls the pending run back (one run reflects, on the whole conversation), that the
reflection's writes appear in the server's store, that a later run reflects only on the new
message, and that a proposed secret is refused by the write gate.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from langchain_contextchef.reflection import ServerReflectionScheduler
from tests.support.langgraph_server import langgraph_dev
from tests.support.optional import require

require("langgraph_api", 'pip install "langgraph-cli[inmem]"')
sdk = require("langgraph_sdk", 'pip install "langgraph-cli[inmem]"')

pytestmark = pytest.mark.slow

APP = Path(__file__).resolve().with_name("reflection_server")
TOKEN = "ghp_" + "x7Kq2Lm9Pz4Rt8Wv1Yb6Nc3Hd5Jf0Sg2Ae7U"


async def _settled(client: Any, thread_id: str, count: int) -> list[dict[str, Any]]:
    """The thread's runs once `count` of them have finished (waits up to a minute)."""
    for _ in range(600):
        runs = await client.runs.list(thread_id)
        done = [r for r in runs if r["status"] in ("success", "error", "interrupted")]
        if len(done) >= count and all(r["status"] not in ("pending", "running") for r in runs):
            return list(runs)
        await asyncio.sleep(0.1)
    pytest.fail(f"the runs of {thread_id} did not finish: {runs}")


async def _profile(client: Any, thread_id: str) -> str | None:
    item = await client.store.get_item(("reflections", thread_id, "memory"), "user")
    return None if item is None else str(item["value"]["value"])


@pytest.fixture
def app(tmp_path: Path) -> Path:
    target = tmp_path / "app"
    shutil.copytree(APP, target, ignore=shutil.ignore_patterns(".langgraph_api", "__pycache__"))
    return target


async def test_langgraph_dev_runs_the_scheduled_reflection(app: Path) -> None:
    with langgraph_dev(app) as url:
        client = sdk.get_client(url=url)
        scheduler = ServerReflectionScheduler(client, "reflect", delay=5)
        thread_id = (await client.threads.create())["thread_id"]
        conversation: list[BaseMessage] = [HumanMessage("I edit in vim", id="u1")]
        await scheduler.anotify(thread_id, conversation)
        conversation += [AIMessage("Noted.", id="a1"), HumanMessage("I edit in helix", id="u2")]
        # Before the first run is due: it is rolled back, and one run reflects on both.
        await scheduler.anotify(thread_id, conversation)
        runs = await _settled(client, thread_id, 1)
        assert [r["status"] for r in runs] == ["success"]
        assert await _profile(client, thread_id) == '{"editor":"helix"}'
        state = (await client.threads.get_state(thread_id))["values"]
        assert state["reflected"] == ["u1", "a1", "u2"]

        # A later message: only it is reflected on (the secret is refused by the gate).
        conversation += [HumanMessage(f"my token is {TOKEN}", id="u3")]
        await scheduler.anotify(thread_id, conversation)
        runs = await _settled(client, thread_id, 2)
        assert [r["status"] for r in runs] == ["success", "success"]
        assert await _profile(client, thread_id) == '{"editor":"helix"}'
        state = (await client.threads.get_state(thread_id))["values"]
        assert state["reflected"] == ["u1", "a1", "u2", "u3"]
        await client.aclose()
