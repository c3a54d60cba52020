"""Reflection: after a conversation ends, a chat model proposes memories and code decides.

The package face re-exports the public names; each module imports only those above it::

    _schema      what the model proposes (candidates) and what the reflector reports
    _evidence    key normalisation and finding the message an evidence quote comes from
    _prompt      the system prompt and how memories and the conversation are shown
    _run         one reflection's state, and the judging and writing of each candidate
    _reflector   `MemoryReflector`: the runnable, its settings and its plan
    _hooks       the integration points (after-agent hooks, a LangGraph node)
    _background  reflection once a conversation goes quiet, in-process (threads, asyncio)
    _server      the same on LangGraph Server: a graph to deploy, delayed runs that debounce

`MemoryReflector` shows a chat model the finished conversation and the memories already
stored, asks it for candidates through structured output (`ReflectionResult`), and then
judges every candidate deterministically before anything is written:

1. the candidate must be well formed (a key, a value, a known type, a confidence in 0..1);
2. its evidence quote must occur in a message of an allowed role (the user's, by default),
   so a fact that only a tool result or web page asserted never becomes memory;
3. a key that already exists, exactly or after normalisation (`Preferred Language` and
   `preferred_language` are the same key), becomes an update; an identical value is skipped;
4. it is written through `Memory`'s model path (`create_memory` / `update_memory`, which
   apply `allowed_keys`, the write gate and the `on_memory_update` veto; when the Memory has
   no gate of its own, the reflector runs `DEFAULT_GATE` first) with
   `Provenance(written_by="reflection", ...)`.

Nothing a candidate contains can make the reflector raise: each one ends up in the
`ReflectionReport` as created, updated, skipped, quarantined or refused, with a reason.

Example:
    ```python
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.messages import HumanMessage
    from langchain_core.runnables import RunnableLambda
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.memory import Memory
    from langchain_contextchef.reflection import (
        MemoryReflector,
        ReflectionCandidate,
        ReflectionResult,
    )


    class FakeReflectionModel(FakeListChatModel):
        def with_structured_output(self, schema, **kwargs):
            proposal = ReflectionCandidate(
                key="package-manager",
                value="Uses pnpm, never npm",
                type="preference",
                description="Which JavaScript package manager to use",
                evidence="I always use pnpm",
                confidence=0.95,
            )
            return RunnableLambda(lambda _: ReflectionResult(candidates=[proposal]))


    memory = Memory(InMemoryStore())
    reflector = MemoryReflector(FakeReflectionModel(responses=[""]), memory)
    report = reflector.invoke([HumanMessage("I always use pnpm, by the way.")])
    assert report.created_keys == ["package-manager"]
    assert memory.get("package-manager") == "Uses pnpm, never npm"
    ```
"""

from __future__ import annotations

from langchain_contextchef._literals import MemoryType
from langchain_contextchef.reflection._background import (
    AsyncReflectionScheduler,
    OnShutdown,
    ReflectionScheduler,
    SchedulerStats,
)
from langchain_contextchef.reflection._evidence import normalise_key
from langchain_contextchef.reflection._hooks import (
    areflect_after_agent,
    reflect_after_agent,
    reflection_node,
)
from langchain_contextchef.reflection._prompt import REFLECTION_SYSTEM_PROMPT
from langchain_contextchef.reflection._reflector import MemoryReflector
from langchain_contextchef.reflection._reflector import MemorySource as MemorySource
from langchain_contextchef.reflection._schema import (
    MEMORY_TYPES,
    ReflectionAction,
    ReflectionCandidate,
    ReflectionOutcome,
    ReflectionReport,
    ReflectionResult,
)
from langchain_contextchef.reflection._server import (
    ReflectionState,
    ServerReflectionScheduler,
    reflection_graph,
)

__all__ = [
    "MEMORY_TYPES",
    "AsyncReflectionScheduler",
    "OnShutdown",
    "ReflectionScheduler",
    "ReflectionState",
    "SchedulerStats",
    "ServerReflectionScheduler",
    "REFLECTION_SYSTEM_PROMPT",
    "MemoryReflector",
    "MemoryType",
    "ReflectionAction",
    "ReflectionCandidate",
    "ReflectionOutcome",
    "ReflectionReport",
    "ReflectionResult",
    "areflect_after_agent",
    "normalise_key",
    "reflect_after_agent",
    "reflection_graph",
    "reflection_node",
]
