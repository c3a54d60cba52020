"""The memory engine: one scope's entries, turn clock and history in a LangGraph store.

`Memory` is the public face; `MemoryConfig` says how it behaves. Inside, every operation is a
plan over a `MemoryContext` (scope, config, clock), run by `Memory.run` / `Memory.arun`.
The modules are layered strictly downward::

    config, _checks          options and argument checks
    texts, results           outcomes as data, and the one module that words them
    _context                 the scope's layout in the store; op builders and read plans
    _history, _events        history records; change reports
    _recall                  recall and eviction (least recently used)
    _write, _model_write     the write core, the developer path, the model path
    _compile_read            sweep, clock, select: what a compile learns
    _governance, _snapshot   review, history, revert, forget; snapshot and restore
    _audit, _consent,        the audit trail; consent proposals (interrupt or stored) and
    _consent_apply,          settling them; retention (sweep rule, purge one scope or all)
    _retention
    _privacy                 the privacy methods of `Memory` (a mixin)
    _memory                  `Memory`, the facade and the door
    plans                    the plans other layers (tools, compile, reflection) compose

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
from langchain_contextchef.memory._retention import apurge_store, purge_store
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
    "apurge_store",
    "cache_stats",
    "clear_cache",
    "import_snapshot",
    "purge_store",
    "read_snapshot",
    "set_cache_limit",
]
