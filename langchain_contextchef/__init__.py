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
from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.budget import ContextBudget
from langchain_contextchef.chef import CompiledPayload, CompileInput, CompileMeta, ContextChef
from langchain_contextchef.compaction import recoverable_summarization
from langchain_contextchef.consent import ConsentPolicy, Proposal
from langchain_contextchef.encryption import EncryptedStore
from langchain_contextchef.entry import HistoryRecord, MemoryChangeEvent, MemoryEntry, Provenance
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
from langchain_contextchef.interop import export_kagent, import_kagent
from langchain_contextchef.memory import (
    CompileRead,
    ForgetReceipt,
    Memory,
    MemoryConfig,
    PurgeSummary,
    WriteResult,
    purge_store,
)
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.prompt import ContextChefPrompt
from langchain_contextchef.reflection import MemoryReflector, ReflectionReport, reflection_node
from langchain_contextchef.retention import RetentionPolicy
from langchain_contextchef.selectors import (
    ByType,
    MemorySelector,
    MostImportant,
    MostRecent,
    Relevant,
    Rerank,
    SelectionContext,
)
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.ttl import Turns

# The one version source: pyproject.toml reads it at build time (tool.hatch.version).

__all__ = [
    "AuditRecord",
    "ByType",
    "CompileInput",
    "CompileMeta",
    "CompileRead",
    "CompiledPayload",
    "ConsentPolicy",
    "ContextBudget",
    "ContextBudgetExceeded",
    "ContextChef",
    "ContextChefError",
    "ContextChefMiddleware",
    "ContextChefPrompt",
    "CustomCheck",
    "EncryptedStore",
    "FileSystemStore",
    "Finding",
    "ForgetReceipt",
    "GateDecision",
    "HistoryRecord",
    "Memory",
    "MemoryChangeEvent",
    "MemoryConfig",
    "MemoryEntry",
    "MemoryReflector",
    "MemorySelector",
    "MostImportant",
    "MostRecent",
    "Proposal",
    "Provenance",
    "PurgeSummary",
    "ReflectionReport",
    "Relevant",
    "Rerank",
    "RetentionPolicy",
    "ScopeError",
    "SelectionContext",
    "ToolNotOwnedError",
    "Turns",
    "WriteCandidate",
    "WriteGate",
    "WriteResult",
    "export_kagent",
    "import_kagent",
    "purge_store",
    "recoverable_summarization",
    "reflection_node",
    "seed_policy",
    "__version__",
]
