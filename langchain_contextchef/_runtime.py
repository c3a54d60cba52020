"""Where the package asks LangGraph "am I inside a graph run, and with what?".

LangGraph exposes the current run's config, store and runtime through context variables;
outside a run its accessors raise (`RuntimeError`, or `KeyError` inside a run that has no
runtime). Every lookup in the package goes through these three functions, which answer
`None` instead, so "outside a run" means the same thing everywhere.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config, get_store
from langgraph.runtime import Runtime, get_runtime
from langgraph.store.base import BaseStore

__all__ = ["current_config", "current_context", "current_runtime", "current_store"]

# The one documented answer to "is there a graph run here?": LangGraph raises one of these.
_OUTSIDE_A_RUN = (RuntimeError, KeyError)


def current_runtime() -> Runtime[Any] | None:
    """The LangGraph runtime of the current graph run, or `None` outside one."""
    try:
        return get_runtime()
    except _OUTSIDE_A_RUN:
        return None


def current_store() -> BaseStore | None:
    """The store of the current graph run (`graph.compile(store=...)`), or `None`."""
    try:
        return get_store()
    except _OUTSIDE_A_RUN:
        return None


def current_config() -> RunnableConfig | None:
    """The `RunnableConfig` of the current run, or `None` outside one."""
    try:
        return get_config()
    except _OUTSIDE_A_RUN:
        return None


def current_context() -> Any:
    """The runtime context of the current graph run (`context_schema`), or `None`."""
    runtime = current_runtime()
    return None if runtime is None else runtime.context
