"""A scripted chat model that records what it is sent, and helpers to script it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field


class RecordingModel(BaseChatModel):
    """Answers from a script and records the messages of every call."""

    script: list[AIMessage]
    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        if len(self.calls) > len(self.script):
            raise AssertionError(f"unscripted model call #{len(self.calls)}")
        reply = self.script[len(self.calls) - 1].model_copy(deep=True)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, BaseMessage]:
        return self


def tool_call(name: str, args: dict[str, Any], call_id: str = "c1") -> AIMessage:
    """An assistant message that makes one tool call."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": call_id}])


def remember_then_answer() -> list[AIMessage]:
    """A two-step script: store a reply-tone memory, then answer."""
    return [
        tool_call("create_memory", {"key": "tone", "value": "dry", "description": "reply tone"}),
        AIMessage("Noted."),
    ]


def text_of(messages: Sequence[BaseMessage]) -> str:
    """The text of every message, one per line."""
    return "\n".join(m.text for m in messages)
