"""Persistent, governed memory for LangChain and LangGraph agents.

Memory lives in a LangGraph store, is spliced into every prompt by a prompt-building runnable
(`ContextChef.prompt`, or `ContextChefMiddleware` for `create_agent`), and is written by the
model through LangChain tools (`ContextChef.tools`).

Example:
    ```python
    from langchain_core.messages import HumanMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef, MemoryConfig

    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(allowed_keys=["lang"]))
    chef.handle_tool({"name": "create_memory", "arguments": '{"key": "lang", "value": "Go"}'})
    payload = chef.compile([HumanMessage("Which language do I use?")])
    assert payload.meta.injected_keys == ["lang"]
    ```
"""

from __future__ import annotations

from langchain_contextchef.chef import CompiledPayload, CompileInput, CompileMeta, ContextChef
from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.errors import (
    ContextBudgetExceeded,
    ContextChefError,
    ScopeError,
    ToolNotOwnedError,
)
from langchain_contextchef.gate import (
    CustomCheck,
    Finding,
    GateDecision,
    WriteCandidate,
    WriteGate,
    seed_policy,
)
from langchain_contextchef.memory import CompileRead, Memory, MemoryConfig, WriteResult
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.prompt import ContextChefPrompt
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import Turns

__version__ = "0.1.0"

__all__ = [
    "CompileInput",
    "CompileMeta",
    "CompileRead",
    "CompiledPayload",
    "ContextBudgetExceeded",
    "ContextChef",
    "ContextChefError",
    "ContextChefMiddleware",
    "ContextChefPrompt",
    "CustomCheck",
    "FileSystemStore",
    "Finding",
    "GateDecision",
    "Memory",
    "MemoryChangeEvent",
    "MemoryConfig",
    "MemoryEntry",
    "Provenance",
    "ScopeError",
    "ToolNotOwnedError",
    "Turns",
    "WriteCandidate",
    "WriteGate",
    "WriteResult",
    "__version__",
    "seed_policy",
]
