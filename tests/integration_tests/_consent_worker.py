"""One process of the consent restart test: start an agent run until it pauses, or resume it.

    python _consent_worker.py start  STORE_DIR CHECKPOINTS.db
    python _consent_worker.py resume STORE_DIR CHECKPOINTS.db DECISION_JSON

The store is a `FileSystemStore` and the checkpointer LangGraph's `SqliteSaver` on a file, so
the paused run lives on disk only between the two processes. Prints one JSON line.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from langchain_contextchef import ConsentPolicy, ContextChef, MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.store import FileSystemStore
from tests.support.models import RecordingModel, tool_call

THREAD: Any = {"configurable": {"thread_id": "restart", "user_id": "ada"}}


def main(phase: str, store_dir: str, checkpoints: str, decision: str | None) -> None:
    chef = ContextChef(
        store=FileSystemStore(store_dir),
        scope=("users", "{user_id}"),
        memory=MemoryConfig(consent=ConsentPolicy(), audit=True),
    )
    # This process's model: the first one asks to write, the second one only answers (the
    # model node is not run again on resume: only the paused tool node is).
    args = {"key": "tone", "value": "dry", "type": "preference"}
    script = [tool_call("create_memory", args, "call-restart")] if phase == "start" else []
    model = RecordingModel(script=[*script, AIMessage("Noted.")])
    conn = sqlite3.connect(checkpoints, check_same_thread=False)
    agent = create_agent(
        model, middleware=[ContextChefMiddleware(chef)], checkpointer=SqliteSaver(conn)
    )
    if phase == "start":
        out = agent.invoke({"messages": [HumanMessage("Keep replies dry.")]}, THREAD)
        asked = [i.value for i in out.get("__interrupt__", [])]
        print(json.dumps({"interrupts": asked}))
    else:
        assert decision is not None
        out = agent.invoke(Command(resume=json.loads(decision)), THREAD)
        results = [m.text for m in out["messages"] if isinstance(m, ToolMessage)]
        print(json.dumps({"tool_results": results, "model_calls": len(model.calls)}))
    conn.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
