"""Background reflection on LangGraph Server: a graph to deploy, and delayed runs that debounce.

`reflection_graph(reflector)` is a one-node graph to list in `langgraph.json`. Its thread
state keeps the ids of the messages already reflected on, so a run reflects only on the
messages no earlier run of the thread saw: the same messages are never extracted twice.

`ServerReflectionScheduler` asks the server for a delayed run of that graph on the
conversation's thread (`client.runs.create(..., after_seconds=delay,
multitask_strategy="rollback")`): a new message rolls back the pending run and schedules
another, so the reflection runs once the conversation has been quiet for `delay`. With
`multitask_strategy="enqueue"` every run is kept and runs in turn (each on what is new).
The server retries and logs runs as it does for any run.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Annotated, Any, Literal, TypeAlias, TypedDict

from langchain_core.messages import AnyMessage, BaseMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph

from langchain_contextchef.reflection._reflector import MemoryReflector

__all__ = ["ReflectionState", "ServerReflectionScheduler", "reflection_graph"]

MultitaskStrategy: TypeAlias = Literal["rollback", "enqueue"]


class ReflectionState(TypedDict, total=False):
    """The state of a reflection thread on the server.

    Attributes:
        messages: The conversation (merged by message id).
        reflected: Ids of the messages earlier runs reflected on.
    """

    messages: Annotated[list[AnyMessage], add_messages]
    reflected: list[str]


def _fresh(state: ReflectionState) -> tuple[list[BaseMessage], list[str]]:
    done = list(state.get("reflected") or [])
    seen = set(done)
    fresh = [m for m in state.get("messages") or [] if m.id not in seen]
    return list(fresh), done + [m.id for m in fresh if m.id]


def reflection_graph(
    reflector: MemoryReflector, *, name: str = "reflect"
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """A graph that reflects on the messages its thread has not reflected on yet.

    Deploy it on LangGraph Server (`"graphs": {"reflect": "my_app.py:graph"}` in
    `langgraph.json`), and schedule its runs with `ServerReflectionScheduler`. The
    reflector's memory should be a function of the run config (`chef.get_memory`), so each
    run writes to the scope of its user.

    Args:
        reflector: The reflector to run.
        name: The node's name.

    Returns:
        The compiled graph (sync and async).

    Example:
        ```python
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
        from langchain_core.messages import HumanMessage
        from langchain_core.runnables import RunnableLambda
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import Memory
        from langchain_contextchef.reflection import (
            MemoryReflector,
            ReflectionResult,
            reflection_graph,
        )

        seen = []


        class Model(FakeListChatModel):
            def with_structured_output(self, schema, **kwargs):
                def answer(prompt):
                    seen.append(prompt[-1].content.count("### user"))
                    return ReflectionResult(candidates=[])

                return RunnableLambda(answer)


        reflector = MemoryReflector(Model(responses=[""]), Memory(InMemoryStore()))
        graph = reflection_graph(reflector).copy(update={"checkpointer": InMemorySaver()})
        config = {"configurable": {"thread_id": "t1"}}
        first = [HumanMessage("I use pnpm", id="m1")]
        graph.invoke({"messages": first}, config)
        graph.invoke({"messages": [*first, HumanMessage("and vim", id="m2")]}, config)
        assert seen == [1, 1]  # the second run saw only the new message
        ```
    """

    def node(state: ReflectionState, config: RunnableConfig) -> dict[str, Any]:
        fresh, done = _fresh(state)
        if fresh:
            reflector.reflect(fresh, config=config)
        return {"reflected": done}

    async def anode(state: ReflectionState, config: RunnableConfig) -> dict[str, Any]:
        fresh, done = _fresh(state)
        if fresh:
            await reflector.areflect(fresh, config=config)
        return {"reflected": done}

    builder = StateGraph(ReflectionState)
    builder.add_node(name, RunnableLambda(node, afunc=anode, name=name))
    builder.add_edge(START, name)
    builder.add_edge(name, END)
    return builder.compile(name=name)


def _payload(thread: str, messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    # Every message needs a stable id, so the server merges a resent conversation instead of
    # appending it again (a message without one gets its position in the thread).
    return [
        {"type": m.type, "content": m.content, "id": m.id or f"{thread}-{i}"}
        for i, m in enumerate(messages)
    ]


class ServerReflectionScheduler:
    """Schedule `reflection_graph` runs on LangGraph Server, once a thread is quiet.

    Args:
        client: A LangGraph SDK client (`langgraph_sdk.get_sync_client(url=...)` for
            `notify`, `get_client(...)` for `anotify`).
        assistant_id: The deployed reflection graph (its name in `langgraph.json`).
        delay: How long a thread must be quiet before its run (whole seconds on the server).
        multitask_strategy: `"rollback"` (a new message replaces the pending run) or
            `"enqueue"` (every run is kept, each reflects on what is new).

    Example:
        ```python
        from langchain_core.messages import HumanMessage
        from langchain_contextchef.reflection import ServerReflectionScheduler


        class Runs:
            def create(self, thread_id, assistant_id, **kwargs):
                return {"thread_id": thread_id, **kwargs}


        class Client:
            runs = Runs()


        scheduler = ServerReflectionScheduler(Client(), delay=30)
        run = scheduler.notify("t1", [HumanMessage("I use pnpm", id="m1")])
        assert (run["after_seconds"], run["multitask_strategy"]) == (30, "rollback")
        ```
    """

    def __init__(
        self,
        client: Any,
        assistant_id: str = "reflect",
        *,
        delay: float | timedelta = 60,
        multitask_strategy: MultitaskStrategy = "rollback",
    ) -> None:
        seconds = delay.total_seconds() if isinstance(delay, timedelta) else delay
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
            msg = f"delay must be a non-negative number of seconds or a timedelta, got {delay!r}."
            raise ValueError(msg)
        if multitask_strategy not in ("rollback", "enqueue"):
            msg = f'multitask_strategy must be "rollback" or "enqueue", got {multitask_strategy!r}.'
            raise ValueError(msg)
        self.client = client
        self.assistant_id = assistant_id
        self.after_seconds = round(seconds)
        self.multitask_strategy: MultitaskStrategy = multitask_strategy

    def _kwargs(
        self, thread: str, messages: Sequence[BaseMessage], config: RunnableConfig | None
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "input": {"messages": _payload(thread, messages)},
            "after_seconds": self.after_seconds,
            "multitask_strategy": self.multitask_strategy,
            "if_not_exists": "create",
        }
        if config is not None:
            kwargs["config"] = config
        return kwargs

    def notify(
        self, thread: str, messages: Sequence[BaseMessage], *, config: RunnableConfig | None = None
    ) -> Any:
        """Schedule the thread's reflection `delay` from now (replacing a pending one).

        Returns:
            What `client.runs.create` returned (the run).
        """
        return self.client.runs.create(
            thread, self.assistant_id, **self._kwargs(thread, messages, config)
        )

    async def anotify(
        self, thread: str, messages: Sequence[BaseMessage], *, config: RunnableConfig | None = None
    ) -> Any:
        """Async `notify`, with an async client."""
        return await self.client.runs.create(
            thread, self.assistant_id, **self._kwargs(thread, messages, config)
        )
