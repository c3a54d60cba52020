"""`FakeToolCallingModel`: a chat model for tests whose replies the test writes.

Public through `langchain_contextchef.testing`; see `FakeToolCallingModel` there.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeAlias

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolCall
from langchain_core.messages.tool import tool_call as make_tool_call
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr

__all__ = ["FakeToolCallingModel", "Reply", "bind_tool_names", "tool_call"]

Reply: TypeAlias = (
    "str | AIMessage | ToolCall | dict[str, Any] | Sequence[ToolCall | dict[str, Any]]"
)
"""One reply of `FakeToolCallingModel`: text, an `AIMessage`, one tool call (`tool_call(...)`
or a `{"name": ..., "args": ...}` dict), or a list of tool calls made at once."""


def tool_call(name: str, /, **args: Any) -> ToolCall:
    """A tool call for a `FakeToolCallingModel` reply: `tool_call("get_weather", city="Oslo")`.

    The model gives it an id (`call_<n>`, counting every call it has made) when it replies.
    """
    return make_tool_call(name=name, args=args, id=None)


def _as_message(reply: Any) -> AIMessage:
    if isinstance(reply, AIMessage):
        return reply.model_copy()
    if isinstance(reply, str):
        return AIMessage(reply)
    calls = (
        [reply]
        if isinstance(reply, dict)
        else list(reply)
        if isinstance(reply, list | tuple)
        else None
    )
    if calls is None or not all(
        isinstance(c, dict) and isinstance(c.get("name"), str) for c in calls
    ):
        msg = (
            f"A FakeToolCallingModel reply must be text, an AIMessage, a tool call "
            f"(tool_call(name, **args) or a {{'name': ..., 'args': {{...}}}} dict) or a list of "
            f"tool calls, got {reply!r}."
        )
        raise TypeError(msg)
    return AIMessage(
        "",
        tool_calls=[
            make_tool_call(name=c["name"], args=dict(c.get("args") or {}), id=c.get("id"))
            for c in calls
        ],
    )


def bind_tool_names(
    model: BaseChatModel, tools: Sequence[dict[str, Any] | type | Any | BaseTool], **kwargs: Any
) -> Runnable[LanguageModelInput, AIMessage]:
    """Bind `tools` by name: the offline models only need the names of what they may call."""
    names = [convert_to_openai_tool(tool)["function"]["name"] for tool in tools]
    return model.bind(tool_names=names, **kwargs)


class FakeToolCallingModel(BaseChatModel):
    """A chat model for tests whose replies you write, calling any tools you bind.

    Give it `replies`, used one per model call in order, or `respond`, a function of the
    messages each call receives that returns the reply. A reply is text, an `AIMessage`, one
    tool call (`tool_call("name", arg=...)`) or a list of tool calls (made at once, like a
    real model's parallel calls). Tool calls get ids `call_<n>` when they have none.

    It binds any tools (`bind_tools`), and refuses to call one that is not bound, so a test
    fails when the app forgot to give the model a tool. Every request is kept in `requests`
    (the messages each call received, memory block included), and `tool_names` holds the names
    bound for the latest call. It runs sync and async and streams (text word by word, then
    the tool calls), so it fits `create_agent`, `ToolNode` graphs and LCEL chains.

    Attributes:
        replies: The replies, one per call; a call past the last one raises `ValueError`.
        respond: Instead of `replies`, `(messages) -> reply`, called on every call (a plain
            function, in async runs too).
        requests: The messages each call received, in order (the memory block included).
        tool_names: The names of the tools bound for the latest call.

    Example:
        ```python
        from langchain.agents import create_agent
        from langchain_core.tools import tool
        from langgraph.store.memory import InMemoryStore

        from langchain_contextchef import ContextChef, ContextChefMiddleware
        from langchain_contextchef.testing import FakeToolCallingModel, tool_call


        @tool(description="Return today's weather in a city.")
        def get_weather(city: str) -> str:
            return f"Sunny in {city}."


        model = FakeToolCallingModel(
            replies=[
                [
                    tool_call("get_weather", city="Lisbon"),
                    tool_call("create_memory", key="home_city", value="Lisbon"),
                ],
                "Sunny in Lisbon; I'll remember you live there.",
            ]
        )
        store = InMemoryStore()
        chef = ContextChef(scope=("users", "{user_id}"))
        agent = create_agent(
            model, tools=[get_weather], middleware=[ContextChefMiddleware(chef)], store=store
        )
        config = {"configurable": {"user_id": "alice"}}
        result = agent.invoke(
            {"messages": [("user", "Weather at home? I live in Lisbon.")]}, config
        )

        assert result["messages"][-1].text == "Sunny in Lisbon; I'll remember you live there."
        assert chef.get_memory(config, store=store).get("home_city") == "Lisbon"
        assert set(model.tool_names) == {
            "get_weather",
            "create_memory",
            "modify_memory",
            "recall_memory",
        }
        ```
    """

    replies: list[Any] | None = None
    respond: Callable[[list[BaseMessage]], Any] | None = None
    requests: list[list[BaseMessage]] = []
    tool_names: list[str] = []
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    def model_post_init(self, context: Any, /) -> None:
        """Check the script once, so a bad reply fails here and not in the middle of a run."""
        if (self.replies is None) == (self.respond is None):
            msg = "Give FakeToolCallingModel either replies=[...] or respond=function, not both."
            raise ValueError(msg)
        for reply in self.replies or []:
            _as_message(reply)  # a bad reply fails here, not in the middle of a run
        self.requests = []
        self.tool_names = []

    @property
    def _llm_type(self) -> str:
        return "contextchef-fake-tool-calling"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Any | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools; their names are what the model may call.

        Args:
            tools: LangChain tools, functions, pydantic models or OpenAI tool dicts.
            tool_choice: Accepted for interface compatibility and ignored.
            **kwargs: Passed on to `bind`.

        Returns:
            This model with the tools bound.
        """
        return bind_tool_names(self, tools, **kwargs)

    def _next(self, messages: list[BaseMessage], tool_names: list[str] | None) -> AIMessage:
        with self._lock:
            turn = len(self.requests)
            self.requests.append(list(messages))
            if tool_names is not None:
                self.tool_names = list(tool_names)
            if self.replies is not None:
                if turn >= len(self.replies):
                    msg = (
                        f"FakeToolCallingModel has {len(self.replies)} replies but was called "
                        f"{turn + 1} times; add replies, or pass respond=function."
                    )
                    raise ValueError(msg)
                reply = self.replies[turn]
        if self.respond is not None:
            reply = self.respond(list(messages))
        message = _as_message(reply)
        calls: list[ToolCall] = []
        for i, call in enumerate(message.tool_calls):
            if tool_names is not None and call["name"] not in tool_names:
                msg = (
                    f"FakeToolCallingModel was scripted to call {call['name']!r}, but the tools "
                    f"bound to it are {sorted(tool_names)}: give the model that tool."
                )
                raise ValueError(msg)
            call_id = call.get("id") or f"call_{turn}_{i}"
            calls.append(make_tool_call(name=call["name"], args=call["args"], id=call_id))
        message.tool_calls = calls
        return message

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self._next(messages, kwargs.get("tool_names"))
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._next(messages, kwargs.get("tool_names"))
        words = re.findall(r"\S+\s*|\s+", reply.text) or [""]
        for index, word in enumerate(words):
            last = index == len(words) - 1
            chunk = AIMessageChunk(
                content=word,
                id=reply.id,
                tool_call_chunks=[
                    {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                    for i, c in enumerate(reply.tool_calls)
                ]
                if last
                else [],
                chunk_position="last" if last else None,
            )
            if run_manager is not None:
                run_manager.on_llm_new_token(word, chunk=ChatGenerationChunk(message=chunk))
            yield ChatGenerationChunk(message=chunk)
