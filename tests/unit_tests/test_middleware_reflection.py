"""ContextChefMiddleware(reflector=...) reflects after each agent run, in the run's scope."""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, ContextChefMiddleware
from langchain_contextchef.reflection import MemoryReflector, ReflectionCandidate, ReflectionResult
from tests.support.suites.reflection import make

# Structured output: the package manager the user stated, plus a secret the gate refuses.
ANSWER = ReflectionResult(
    candidates=[
        ReflectionCandidate(
            key="package-manager",
            value="pnpm",
            type="preference",
            description="Which package manager to use",
            evidence="I always use pnpm",
            confidence=0.95,
        ),
        ReflectionCandidate(
            key="token",
            value="ghp_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe8Dc7B",
            type="fact",
            description="A token",
            evidence="I always use pnpm",
            confidence=0.95,
        ),
    ]
)


class AgentModel(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def _agent(chef: ContextChef, store: InMemoryStore) -> tuple[Any, ContextChefMiddleware]:
    reflector = MemoryReflector(make(ANSWER), memory=chef.get_memory)
    middleware = ContextChefMiddleware(chef, reflector=reflector)
    agent = create_agent(
        AgentModel(messages=iter([AIMessage("Sure."), AIMessage("Sure.")])),
        middleware=[middleware],
        store=store,
    )
    return agent, middleware


def test_reflection_runs_after_the_agent_in_the_users_scope() -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    agent, middleware = _agent(chef, store)
    config = {"configurable": {"user_id": "alice"}}
    agent.invoke({"messages": [("user", "I always use pnpm for JavaScript.")]}, config)

    alice = chef.get_memory(config, store=store)
    assert alice.get("package-manager") == "pnpm"
    assert alice.get("token") is None, "the gate refuses the secret"
    report = middleware.last_reflection
    assert report is not None
    assert report.created_keys == ["package-manager"]
    assert [o.key for o in report.refused] == ["token"]
    bob = chef.get_memory({"configurable": {"user_id": "bob"}}, store=store)
    assert bob.list() == []


async def test_reflection_runs_after_an_async_agent_run() -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    agent, _ = _agent(chef, store)
    config = {"configurable": {"user_id": "carol"}}
    await agent.ainvoke({"messages": [("user", "I always use pnpm here.")]}, config)
    assert chef.get_memory(config, store=store).get("package-manager") == "pnpm"


def test_without_a_reflector_nothing_is_written_after_the_run() -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    agent = create_agent(
        AgentModel(messages=iter([AIMessage("Sure.")])),
        middleware=[ContextChefMiddleware(chef)],
        store=store,
    )
    config = {"configurable": {"user_id": "dave"}}
    agent.invoke({"messages": [("user", "I always use pnpm.")]}, config)
    assert chef.get_memory(config, store=store).list() == []
