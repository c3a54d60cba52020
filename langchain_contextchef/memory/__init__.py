"""The memory engine: one scope's entries, turn clock and history in a LangGraph store.

`Memory` is the public face; `MemoryConfig` says how it behaves. Inside, every operation is a
plan over a `MemoryContext` (scope, config, clock), run by `Memory.run` / `Memory.arun`.
The modules, from the bottom up: each imports only modules on its own line or above (the
import graph has no cycle; ARCHITECTURE.md has a row for each)::

    config, _checks          options and argument checks
    _texts, _cache           the one module that words outcomes; the cached slot of each scope
    results                  outcomes as data
    _context                 the scope's layout in the store; op builders, read plans, scopes
    _stamp, _section         the scope's stamp; exclusive sections tracked by it
    _history, _events        history records; change reports
    _audit, _recall          audit records; recall and eviction (least recently used)
    _consent                 consent proposals: an interrupt, or stored; replaying decisions
    _write, _model_write     the write core and the developer path; the model path
    _profiles                typed profiles: a model edit, typed reads and writes
    _consent_apply           settling stored proposals
    _retention               the sweep rule; purge one scope or all; listing scopes
    _entry_vectors           the stored vectors of the semantic search's hits, for selection
    _compile_read            sweep, clock, select: what a compile learns
    _governance, _snapshot   review, history, revert, forget; snapshot and restore
    _memory                  `Memory`, the facade and the door
    _snapshot_import         loading a snapshot through the developer path
    _plans                   the plans other layers (tools, compile, reflection) compose

Example:
    Two scopes of one store, and the history a model update keeps (`Memory`'s own docstring
    shows `allowed_keys` and the model path's refusals).

    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.memory import Memory

    store = InMemoryStore()
    alice = Memory(store, scope=("user", "alice"))
    bob = Memory(store, scope=("user", "bob"))
    alice.set("city", "Brisbane")
    assert bob.get("city") is None
    assert alice.update_memory("city", "Sydney").status == "updated"
    assert [r.entry.value for r in alice.history("city")] == ["Brisbane", "Sydney"]
    ```
"""

from __future__ import annotations

from langchain_contextchef._literals import MemoryPlacement
from langchain_contextchef.memory._cache import cache_stats, clear_cache, set_cache_limit
from langchain_contextchef.memory._checks import UNSET
from langchain_contextchef.memory._context import (
    AUDIT_NAMESPACE,
    FORGET_NAMESPACES,
    HISTORY_NAMESPACE,
    MEMORY_NAMESPACE,
    META_NAMESPACE,
    NOTES_NAMESPACE,
    PROPOSALS_NAMESPACE,
    MemoryContext,
)
from langchain_contextchef.memory._memory import Memory
from langchain_contextchef.memory._retention import (
    alist_scopes,
    apurge_store,
    list_scopes,
    purge_store,
)
from langchain_contextchef.memory._snapshot_import import (
    ImportReport,
    import_snapshot,
    read_snapshot,
)
from langchain_contextchef.memory.config import MemoryConfig
from langchain_contextchef.memory.results import (
    CompileRead,
    ForgetReceipt,
    PurgeReport,
    PurgeSummary,
    Refusal,
    WriteResult,
    WriteStatus,
)

__all__ = [
    "AUDIT_NAMESPACE",
    "FORGET_NAMESPACES",
    "HISTORY_NAMESPACE",
    "MEMORY_NAMESPACE",
    "META_NAMESPACE",
    "NOTES_NAMESPACE",
    "PROPOSALS_NAMESPACE",
    "UNSET",
    "CompileRead",
    "ForgetReceipt",
    "ImportReport",
    "Memory",
    "MemoryConfig",
    "MemoryContext",
    "MemoryPlacement",
    "PurgeReport",
    "PurgeSummary",
    "Refusal",
    "WriteResult",
    "WriteStatus",
    "alist_scopes",
    "apurge_store",
    "cache_stats",
    "clear_cache",
    "import_snapshot",
    "list_scopes",
    "purge_store",
    "read_snapshot",
    "set_cache_limit",
]
