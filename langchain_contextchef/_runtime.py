"""Where the package asks LangGraph "am I inside a graph run, and with what?".

LangGraph exposes the current run's config, store and runtime through context variables;
outside a run its accessors raise (`RuntimeError`, or `KeyError` inside a run that has no
runtime). Every lookup in the package goes through these three functions, which answer
`None` instead, so "outside a run" means the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config, get_store
from langgraph.runtime import Runtime, get_runtime
from langgraph.store.base import BaseStore

__all__ = [
    "current_config",
    "current_context",
    "current_runtime",
    "current_store",
    "scope_sources",
]

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


def scope_sources(
    config: RunnableConfig | Mapping[str, Any] | None,
    context: Any,
    runtime: Runtime[Any] | None = None,
) -> tuple[RunnableConfig | Mapping[str, Any] | None, Any]:
    """The config and the runtime context a call's scope templates are filled from.

    What the call passes is used as it is; inside a graph run, what it leaves out (`None`)
    is the run's own (`runtime`, when the caller already has it, else the current one).
    Neither replaces a value the call passed, and `resolve_scope` refuses the two when
    they name different tenants.

    Args:
        config: The `config` the call was given, or `None`.
        context: The `context` the call was given, or `None`.
        runtime: The current LangGraph runtime, if the caller already looked it up.

    Returns:
        `(config, context)` to pass to `resolve_scope`.
    """
    if config is None:
        config = current_config()
    if context is None:
        run = runtime if runtime is not None else current_runtime()
        context = None if run is None else run.context
    return config, context
