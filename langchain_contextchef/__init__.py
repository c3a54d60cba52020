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

from langchain_contextchef._version import __version__
from langchain_contextchef.budget import ContextBudget
from langchain_contextchef.chef import CompiledPayload, ContextChef
from langchain_contextchef.compaction import recoverable_summarization
from langchain_contextchef.consent import ConsentPolicy
from langchain_contextchef.encryption import EncryptedStore
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.errors import ContextBudgetExceeded, ContextChefError, ScopeError
from langchain_contextchef.gate import WriteGate
from langchain_contextchef.memory import Memory, MemoryConfig, WriteResult, purge_store
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.prompt import ContextChefPrompt
from langchain_contextchef.reflection import MemoryReflector, reflection_node
from langchain_contextchef.retention import RetentionPolicy
from langchain_contextchef.selectors import ByType, MostImportant, MostRecent, Relevant, Rerank
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import Turns

# What a user needs to build an agent with memory. Everything else (gate findings and custom
# checks, history and audit records, consent proposals, selector protocols, compile details,
# kagent interop) is imported from the module that defines it, e.g. `langchain_contextchef.gate`.
# The one version source: pyproject.toml reads it at build time (tool.hatch.version).

__all__ = [
    "ByType",
    "CompiledPayload",
    "ConsentPolicy",
    "ContextBudget",
    "ContextBudgetExceeded",
    "ContextChef",
    "ContextChefError",
    "ContextChefMiddleware",
    "ContextChefPrompt",
    "EncryptedStore",
    "FileSystemStore",
    "Memory",
    "MemoryConfig",
    "MemoryEntry",
    "MemoryReflector",
    "MostImportant",
    "MostRecent",
    "Provenance",
    "Relevant",
    "Rerank",
    "RetentionPolicy",
    "ScopeError",
    "Turns",
    "WriteGate",
    "WriteResult",
    "__version__",
    "purge_store",
    "recoverable_summarization",
    "reflection_node",
]
