"""Where reflection plugs into an agent: after-agent hooks and a LangGraph node.

`reflect_after_agent` / `areflect_after_agent` are what an `after_agent` middleware hook
calls (`ContextChefMiddleware` does); `reflection_node` wraps a reflector as a graph node
that runs after the agent's last step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda

from langchain_contextchef.memory import Memory
from langchain_contextchef.reflection._reflector import MemoryReflector
from langchain_contextchef.reflection._schema import ReflectionReport

__all__ = ["areflect_after_agent", "reflect_after_agent", "reflection_node"]


def reflect_after_agent(
    reflector: MemoryReflector,
    state: Mapping[str, Any],
    *,
    memory: Memory | None = None,
    config: RunnableConfig | None = None,
) -> ReflectionReport:
    """Reflect on an agent's finished state, for an `after_agent` middleware hook.

    Args:
        reflector: The reflector to run.
        state: The agent state; its `messages` list is the conversation.
        memory: The scope's `Memory`, when the hook already resolved it.
        config: The run config, for tracing and scoped memory.

    Returns:
        The reflection report. The hook itself should return `None` (no state change).

    Example:
        ```python
        from langchain_contextchef.reflection import reflect_after_agent

        # ContextChefMiddleware(chef, reflector=...) already does this; in a middleware
        # of your own:
        #     def after_agent(self, state, runtime):
        #         memory = chef.get_memory(get_config(), store=runtime.store)
        #         reflect_after_agent(reflector, state, memory=memory)
        #         return None
        assert callable(reflect_after_agent)
        ```
    """
    return reflector.reflect(state, memory=memory, config=config)


async def areflect_after_agent(
    reflector: MemoryReflector,
    state: Mapping[str, Any],
    *,
    memory: Memory | None = None,
    config: RunnableConfig | None = None,
) -> ReflectionReport:
    """Async `reflect_after_agent`, for `aafter_agent` hooks."""
    return await reflector.areflect(state, memory=memory, config=config)


def reflection_node(
    reflector: MemoryReflector,
    *,
    messages_key: str = "messages",
    report_key: str | None = None,
) -> Runnable[Mapping[str, Any], dict[str, Any]]:
    """Build a LangGraph node that reflects on `state[messages_key]` (sync and async).

    Args:
        reflector: The reflector to run.
        messages_key: The state key holding the conversation.
        report_key: When set, the node returns `{report_key: report}` so the report lands in
            the graph state (the state schema must have that key); otherwise it changes nothing.

    Returns:
        A runnable usable as a node: `graph.add_node("reflect", reflection_node(reflector))`.

    Example:
        ```python
        from langchain_contextchef.reflection import reflection_node

        # builder.add_node("reflect", reflection_node(reflector))
        # builder.add_edge("agent", "reflect")
        assert callable(reflection_node)
        ```
    """

    def _update(report: ReflectionReport) -> dict[str, Any]:
        return {report_key: report} if report_key else {}

    def node(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = state[messages_key]
        return _update(reflector.reflect(messages, config=config))

    async def anode(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = state[messages_key]
        return _update(await reflector.areflect(messages, config=config))

    return RunnableLambda(node, afunc=anode, name="reflect_memories")
