"""Reporting a change: the `on_memory_changed` hook, then a LangChain custom event."""

from __future__ import annotations

from langchain_contextchef._plan import Call, Emit, Plan
from langchain_contextchef.entry import MemoryChangeEvent
from langchain_contextchef.memory._context import MemoryContext

__all__ = ["CHANGED_EVENT", "changed"]

CHANGED_EVENT = "contextchef_memory_changed"
"""The name of the LangChain custom event sent for every change (visible in traces)."""


def changed(ctx: MemoryContext, event: MemoryChangeEvent) -> Plan[None]:
    """Call `on_memory_changed` (when set) and emit the change as a custom event."""
    hook = ctx.config.on_memory_changed
    if hook is not None:
        yield Call(hook, (event,), "on_memory_changed")
    yield Emit(
        CHANGED_EVENT,
        {
            "type": event.type,
            "key": event.key,
            "value": event.value,
            "old_value": event.old_value,
            "scope": list(event.scope),
        },
    )
