"""A process that edits one field of a shared profile, or compiles once after a "restart".

The profile schema lives here so every spawned process imports the same class.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from langchain_contextchef import ContextChef, Memory, MemoryConfig
from langchain_contextchef.tools import handle_tool
from tests.integration_tests._concurrency_worker import open_store


class UserProfile(BaseModel):
    """The profile the tests fill: a few typed fields."""

    name: str | None = None
    city: str | None = None
    age: int | None = Field(default=None, ge=0, le=150)
    languages: list[str] = []
    editor: str | None = None
    shell: str | None = None


CONFIG = MemoryConfig(profiles={"user": UserProfile}, audit=True)


def edit_field(
    kind: str, where: str, scope: tuple[str, ...], field: str, count: int, barrier: Any
) -> list[str]:
    """Set `field` of the profile `count` times through the legacy tool; return the replies."""
    with open_store(kind, where) as store:
        memory = Memory(store, CONFIG, scope=scope)
        barrier.wait()  # both processes are connected: their edits overlap
        return [
            handle_tool(
                "modify_memory",
                {"action": "update", "key": f"user/{field}", "value": f"{field}-{i}"},
                memory,
            )
            for i in range(count)
        ]


def compile_once(kind: str, where: str, scope: tuple[str, ...]) -> str:
    """A fresh process compiles one prompt; returns the text of every message."""
    with open_store(kind, where) as store:
        chef = ContextChef(store=store, memory=CONFIG, scope=scope)
        payload = chef.compile([HumanMessage("what do you know about me?")])
        return "\n".join(str(m.content) for m in payload.messages)
