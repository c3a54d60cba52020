"""A tool-using agent session on real `ChatAnthropic` request bodies, for the cache bench.

`create_agent` runs a scripted `ChatAnthropic` (its `_generate` builds the real request body
with `_get_request_payload`, offline, then answers from a script) with
`middleware=[AnthropicPromptCachingMiddleware(), reference, ContextChefMiddleware(chef)]`:
the caching middleware tags the system prompt and the tools and asks for a message
breakpoint, and the chef's middleware moves it onto the last stable block. Each user message
takes two or three model calls (a documentation search, every other message a memory write,
then the answer), so memory changes during the session.

`reference` records, for every model call, the body the same request would have had with
an empty memory (a twin chef with the same settings on an empty store): the same tools,
system prompt and instruction and the same history, no memory data. The bench compares the
bodies the model received with these to find the physical limit of reuse.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse
from langchain_anthropic import ChatAnthropic
from langchain_anthropic.middleware import AnthropicPromptCachingMiddleware
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from pydantic import Field

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware


def request_body(request: ModelRequest[Any]) -> dict[str, Any]:
    """The body `ChatAnthropic` sends for `request`, bound the way `create_agent` binds it."""
    model: Any = request.model
    bound: Any = model.bind_tools(
        request.tools, tool_choice=request.tool_choice, **request.model_settings
    )
    system = [request.system_message] if request.system_message is not None else []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning means a layout the provider dislikes
        body: dict[str, Any] = bound.bound._get_request_payload(
            [*system, *request.messages], **bound.kwargs
        )
    return body


class ScriptedAnthropic(ChatAnthropic):
    """`ChatAnthropic` whose call builds the real request body and answers from a script."""

    script: list[AIMessage] = Field(default_factory=list)
    bodies: list[dict[str, Any]] = Field(default_factory=list)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            self.bodies.append(self._get_request_payload(messages, stop=stop, **kwargs))
        reply = self.script[len(self.bodies) - 1].model_copy(deep=True)
        return ChatResult(generations=[ChatGeneration(message=reply)])


class ReferenceBodies(AgentMiddleware[Any, Any, Any]):
    """Records, per model call, the body the request would have with no memory data."""

    def __init__(self, twin: ContextChefMiddleware) -> None:
        super().__init__()
        self.twin = twin
        self.bodies: list[dict[str, Any]] = []

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> Any:
        """Record the memory-free body of this request, then run the real one."""

        def record(final: ModelRequest[Any]) -> ModelResponse[Any]:
            self.bodies.append(request_body(final))
            return ModelResponse(result=[AIMessage("")])

        self.twin.wrap_model_call(request, record)
        return handler(request)


def _memory_call(step: int) -> dict[str, Any]:
    """Every other user message writes memory: create, update, delete in rotation."""
    key = f"decision_{step // 3}"
    if step % 3 == 0:
        args: dict[str, Any] = {"key": key, "value": f"Keep the public API frozen ({step})."}
        return {"name": "create_memory", "args": args, "id": f"mem_{step}"}
    if step % 3 == 1:
        args = {"action": "update", "key": key, "value": f"API freeze revised ({step})."}
        return {"name": "modify_memory", "args": args, "id": f"mem_{step}"}
    return {"name": "modify_memory", "args": {"action": "delete", "key": key}, "id": f"mem_{step}"}


def script(messages: int) -> list[AIMessage]:
    """The model's replies for `messages` user messages (two or three calls each)."""
    replies: list[AIMessage] = []
    for m in range(messages):
        search = {"name": "search_docs", "args": {"query": f"topic {m}"}, "id": f"search_{m}"}
        replies.append(AIMessage("Let me check the docs.", tool_calls=[search]))
        if m % 2 == 0:
            replies.append(AIMessage("", tool_calls=[_memory_call(m // 2)]))
        replies.append(AIMessage(f"Answer {m}: use the helper in utils."))
    return replies


def run_session(
    placement: str,
    *,
    messages: int,
    questions: list[str],
    system_prompt: str,
    seeds: dict[str, str],
    tools: list[BaseTool],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run the session; return the bodies sent and the memory-free reference bodies."""
    config = MemoryConfig(memory_placement=placement)  # type: ignore[arg-type]
    chef = ContextChef(store=InMemoryStore(), memory=config)
    memory = chef.get_memory()
    for key, value in seeds.items():
        memory.set(key, value, description=f"What the user said about {key}.")
    twin = ContextChefMiddleware(ContextChef(store=InMemoryStore(), memory=config))
    reference = ReferenceBodies(twin)
    model = ScriptedAnthropic(
        model="claude-sonnet-4-5",
        api_key="sk-test",  # type: ignore[arg-type]
        script=script(messages),
    )
    agent = create_agent(
        model,
        tools=tools,
        system_prompt=system_prompt,
        middleware=[AnthropicPromptCachingMiddleware(), reference, ContextChefMiddleware(chef)],
        checkpointer=InMemorySaver(),
    )
    thread: Any = {"configurable": {"thread_id": "bench"}}
    for m in range(messages):
        agent.invoke({"messages": [HumanMessage(questions[m % len(questions)])]}, thread)
    if len(model.bodies) != len(reference.bodies):
        raise RuntimeError("every model call must have its reference body")
    return model.bodies, reference.bodies
