"""`ContextChefMiddleware` composed with `AnthropicPromptCachingMiddleware`, on real payloads.

`ChatAnthropic` builds its real request body with `_get_request_payload` (offline); the model
records it and answers from a script. Across consecutive model calls, with memory changing in
between through a tool call, every cache breakpoint must sit on stable content and the cached
prefix must repeat exactly where the layout promises it.

Prefix comparison: the payload is flattened into a list of JSON blocks (tools, system blocks,
then message blocks with their role). A breakpoint marker is not part of the cached content,
and Anthropic treats a string content and the same text as one text block alike, so both are
normalised before comparing.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_anthropic import ChatAnthropic
from langchain_anthropic.middleware import AnthropicPromptCachingMiddleware
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from pydantic import Field

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware

SYSTEM_PROMPT = "You are a careful assistant."
CONFIG: Any = {"configurable": {"user_id": "alice", "thread_id": "t1"}}


class OfflineAnthropic(ChatAnthropic):
    """Builds the real request body, records it, and answers from a script."""

    script: list[AIMessage] = Field(default_factory=list)
    payloads: list[dict[str, Any]] = Field(default_factory=list)

    def _answer(self, messages: list[BaseMessage], stop: Any, **kwargs: Any) -> ChatResult:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            payload = self._get_request_payload(messages, stop=stop, **kwargs)
        assert [str(w.message) for w in caught] == []
        self.payloads.append(json.loads(json.dumps(payload, default=str)))
        reply = self.script[len(self.payloads) - 1].model_copy(deep=True)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._answer(messages, stop, **kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._answer(messages, stop, **kwargs)


def script() -> list[AIMessage]:
    remember = AIMessage(
        "",
        tool_calls=[
            {
                "name": "create_memory",
                "args": {"key": "tone", "value": "dry", "description": "reply tone"},
                "id": "toolu_1",
            }
        ],
    )
    return [remember, AIMessage("Noted."), AIMessage("Dry, as agreed.")]


# ---- reading payloads --------------------------------------------------------------------


def _norm_content(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [_norm_block(b) for b in content]


def _norm_block(block: Any) -> Any:
    if not isinstance(block, dict):
        return block
    out = {k: v for k, v in block.items() if k != "cache_control"}
    if out.get("type") == "tool_result" and "content" in out:
        out["content"] = _norm_content(out["content"])
    return out


def flatten(payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every cacheable block in request order, with its (raw) breakpoint kept beside it."""
    blocks: list[tuple[str, dict[str, Any]]] = [("tool", t) for t in payload.get("tools", [])]
    system = payload.get("system") or []
    blocks += [("system", b) for b in _as_blocks(system)]
    for message in payload["messages"]:
        blocks += [(message["role"], b) for b in _as_blocks(message["content"])]
    return blocks


def _as_blocks(content: Any) -> list[dict[str, Any]]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def normalised(blocks: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [json.dumps([role, _norm_block(b)], sort_keys=True) for role, b in blocks]


def breakpoints(blocks: list[tuple[str, dict[str, Any]]]) -> list[int]:
    return [i for i, (_, b) in enumerate(blocks) if "cache_control" in b]


def cached_prefix(payload: dict[str, Any]) -> list[str]:
    blocks = flatten(payload)
    return normalised(blocks)[: breakpoints(blocks)[-1] + 1]


def run_agent(placement: str, mode: str) -> tuple[OfflineAnthropic, Any]:
    store = InMemoryStore()
    chef = ContextChef(
        store=store,
        scope=("users", "{user_id}"),
        memory=MemoryConfig(memory_placement=placement),  # type: ignore[arg-type]
    )
    chef.get_memory(CONFIG).set("lang", "Python", description="language of the examples")
    model = OfflineAnthropic(model="claude-sonnet-4-5", api_key="sk-test", script=script())  # type: ignore[call-arg]
    agent = create_agent(
        model,
        system_prompt=SYSTEM_PROMPT,
        middleware=[AnthropicPromptCachingMiddleware(), ContextChefMiddleware(chef)],
        checkpointer=InMemorySaver(),
    )
    return model, agent


async def three_calls(placement: str, mode: str) -> OfflineAnthropic:
    """Call 1 sees `lang`, writes `tone`; call 2 sees both; a new user turn makes call 3."""
    model, agent = run_agent(placement, mode)
    for text in ("Please keep replies dry.", "What tone do I like?"):
        request = {"messages": [HumanMessage(text)]}
        if mode == "sync":
            agent.invoke(request, CONFIG)
        else:
            await agent.ainvoke(request, CONFIG)
    assert len(model.payloads) == 3
    return model


def assert_breakpoints_on_stable_content(payload: dict[str, Any]) -> None:
    assert "cache_control" not in payload, "the top-level breakpoint would land on the tail"
    blocks = flatten(payload)
    marked = breakpoints(blocks)
    assert len(marked) <= 4  # Anthropic's limit per request
    for index in marked:
        assert "<memory>" not in json.dumps(blocks[index][1])
    # The three layers the caching middleware asks for are all there.
    roles = [blocks[i][0] for i in marked]
    assert roles[0] == "tool" and roles[1] == "system" and roles[2] in ("user",)
    assert blocks[marked[1]][1]["text"] == SYSTEM_PROMPT


MODES = ["sync", "async"]


@pytest.mark.parametrize("mode", MODES)
async def test_before_history_tail_keeps_memory_out_of_every_cached_prefix(mode: str) -> None:
    model = await three_calls("before_history_tail", mode)
    first, second, third = model.payloads

    for payload in model.payloads:
        assert_breakpoints_on_stable_content(payload)
        assert not any("<memory>" in block for block in cached_prefix(payload))
        # The memory tail is its own block, the last one, right after the breakpoint.
        blocks = flatten(payload)
        assert "<memory>" in blocks[-1][1]["text"]
        assert breakpoints(blocks)[-1] == len(blocks) - 2

    tails = [flatten(payload)[-1][1]["text"] for payload in model.payloads]
    assert ['<entry key="tone"' in tail for tail in tails] == [False, True, True]
    assert all('<entry key="lang"' in tail for tail in tails)
    # Memory changed between 1 and 2 and the turn grew between 2 and 3: every earlier
    # cached prefix is still a prefix of the next request, byte for byte once normalised.
    for before, after in ((first, second), (second, third)):
        prefix = cached_prefix(before)
        assert normalised(flatten(after))[: len(prefix)] == prefix
    # The breakpoints themselves are where the docstring says.
    first_blocks = flatten(first)
    assert first_blocks[breakpoints(first_blocks)[-1]][1]["text"] == "Please keep replies dry."
    second_blocks = flatten(second)
    assert second_blocks[breakpoints(second_blocks)[-1]][1]["type"] == "tool_result"


@pytest.mark.parametrize("mode", MODES)
async def test_after_system_keeps_breakpoints_off_memory_and_documents_invalidation(
    mode: str,
) -> None:
    model = await three_calls("after_system", mode)
    first, second, third = model.payloads

    for payload in model.payloads:
        assert_breakpoints_on_stable_content(payload)
        system_blocks = payload["system"]
        assert [b["text"] for b in system_blocks][0] == SYSTEM_PROMPT
        assert "<memory>" in system_blocks[1]["text"] and "cache_control" not in system_blocks[1]

    def up_to_system_breakpoint(payload: dict[str, Any]) -> list[str]:
        blocks = flatten(payload)
        return normalised(blocks)[: breakpoints(blocks)[1] + 1]

    # Tools and the developer's prompt stay cached whatever memory does.
    assert up_to_system_breakpoint(first) == up_to_system_breakpoint(second)
    assert up_to_system_breakpoint(second) == up_to_system_breakpoint(third)
    # Memory changed between calls 1 and 2: the message breakpoint after it is invalidated ...
    assert normalised(flatten(second))[: len(cached_prefix(first))] != cached_prefix(first)
    # ... and with memory unchanged (calls 2 and 3) the whole cached prefix repeats.
    prefix = cached_prefix(second)
    assert normalised(flatten(third))[: len(prefix)] == prefix


async def test_without_the_caching_middleware_no_breakpoint_is_added() -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig(memory_placement="before_history_tail"))
    chef.get_memory().set("lang", "Python")
    model = OfflineAnthropic(model="claude-sonnet-4-5", api_key="sk-test", script=[AIMessage("ok")])  # type: ignore[call-arg]
    agent = create_agent(
        model, system_prompt=SYSTEM_PROMPT, middleware=[ContextChefMiddleware(chef)]
    )
    agent.invoke({"messages": [HumanMessage("hello")]})

    (payload,) = model.payloads
    assert "cache_control" not in json.dumps(payload)
    assert "<memory>" in flatten(payload)[-1][1]["text"]
