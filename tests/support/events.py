"""Recorders for what the package tells the outside world: hooks, custom events, runs."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler

from langchain_contextchef.entry import MemoryChangeEvent

MEMORY_CHANGED = "contextchef_memory_changed"
"""The name of the LangChain custom event dispatched for each memory change."""


class EventRecorder(BaseCallbackHandler):
    """Records LangChain custom events, and the run type and name of each chain start."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.runs: list[tuple[str | None, str | None]] = []

    def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
        self.runs.append((kwargs.get("run_type"), kwargs.get("name")))

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append((name, data))


class AsyncEventRecorder(AsyncCallbackHandler):
    """Records LangChain custom events dispatched on the async path."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    async def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append((name, data))


def event_data(event: MemoryChangeEvent) -> dict[str, Any]:
    """The payload a change event is dispatched with as a LangChain custom event."""
    return {
        "type": event.type,
        "key": event.key,
        "value": event.value,
        "old_value": event.old_value,
        "scope": list(event.scope),
    }


class VetoLog:
    """An `on_memory_update` hook that records its calls and answers with a fixed verdict."""

    def __init__(self, verdict: Any = True) -> None:
        self.verdict = verdict
        self.calls: list[tuple[str, str | None, str | None]] = []

    def __call__(self, key: str, value: str | None, old: str | None) -> Any:
        self.calls.append((key, value, old))
        return self.verdict
