"""The reflection suite: `MemoryReflector` writing into the `local_store` and `astore` fixtures.

Subclass `ReflectionSuite` in a test module whose fixtures provide `local_store` and `astore`:
the unit tests run it on `InMemoryStore`, the integration tests on SQLite, the file system and
(async) PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory
from langchain_contextchef.reflection import MemoryReflector, ReflectionCandidate, ReflectionResult


class FakeReflectionModel(BaseChatModel):
    """A chat model whose structured output is a fixed answer; it records every prompt."""

    answer: Any = None
    prompts: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "fake-reflection"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(""))])

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        assert schema is ReflectionResult

        def answer(messages: list[BaseMessage]) -> Any:
            self.prompts.append(list(messages))
            return self.answer

        return RunnableLambda(answer)


def cand(key: str, value: str, evidence: str, **extra: Any) -> ReflectionCandidate:
    """A candidate with sensible defaults for the fields a test does not care about."""
    fields: dict[str, Any] = {
        "type": "preference",
        "description": f"About {key}",
        "confidence": 0.95,
    }
    fields.update(extra)
    return ReflectionCandidate(key=key, value=value, evidence=evidence, **fields)


CONVERSATION: list[BaseMessage] = [
    HumanMessage("I always use pnpm, never npm.", id="m1"),
    AIMessage("Noted, pnpm it is.", id="m2"),
    HumanMessage("Also my editor is Helix now, I switched from Vim.", id="m3"),
    HumanMessage(
        "Here is my key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z so you can deploy.", id="m4"
    ),
]

PNPM = cand("package-manager", "Uses pnpm, never npm", "I always use pnpm, never npm.", type="rule")
EDITOR = cand("Preferred_Editor", "Helix", "my editor is Helix now")
SECRET = cand(
    "openai-key",
    "The user's OpenAI key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "Here is my key",
    type="fact",
)


def make(answer: Any) -> FakeReflectionModel:
    """A fresh fake reflection model that answers `answer`."""
    return FakeReflectionModel(answer=answer, prompts=[])


class ReflectionSuite:
    """Reflection outcomes in the store, sync and async."""

    def test_stores_candidates_refuses_secret_and_updates_existing(
        self, local_store: BaseStore
    ) -> None:
        memory = Memory(local_store)
        memory.set("preferred-editor", "Vim", description="Which editor the user works in")
        model = make(ReflectionResult(candidates=[PNPM, EDITOR, SECRET]))
        report = MemoryReflector(model, memory).invoke(CONVERSATION)

        assert report.created_keys == ["package-manager"]
        # "Preferred_Editor" normalises to the existing "preferred-editor": an update, no twin.
        assert report.updated_keys == ["preferred-editor"]
        assert [o.key for o in report.refused] == ["openai-key"]
        refusal = report.refused[0].reason or ""
        assert refusal.startswith("the write to context://memory/openai-key was refused: the value")
        assert "API key" in refusal
        assert "sk-proj" not in refusal

        assert sorted(e.key for e in memory.list()) == ["package-manager", "preferred-editor"]
        pnpm = memory.get_entry("package-manager")
        assert pnpm is not None
        assert (pnpm.value, pnpm.type) == ("Uses pnpm, never npm", "rule")
        editor = memory.get_entry("preferred-editor")
        assert editor is not None
        assert editor.value == "Helix"
        assert editor.update_count == 2
        assert editor.description == "About Preferred_Editor"
        assert memory.get("openai-key") is None

    async def test_async_path_matches_sync(self, astore: BaseStore) -> None:
        sync_store = InMemoryStore()
        answer = ReflectionResult(candidates=[PNPM, EDITOR, SECRET])
        Memory(sync_store).set("preferred-editor", "Vim")
        sync_report = MemoryReflector(make(answer), Memory(sync_store)).invoke(CONVERSATION)

        memory = Memory(astore)
        await memory.aset("preferred-editor", "Vim")
        async_report = await MemoryReflector(make(answer), memory).ainvoke(CONVERSATION)
        assert [(o.key, o.action) for o in async_report.outcomes] == [
            (o.key, o.action) for o in sync_report.outcomes
        ]
        assert await memory.aget("preferred-editor") == "Helix"
        assert await memory.aget("package-manager") == "Uses pnpm, never npm"
