"""A reflection graph for `langgraph dev`: the server schedules it after a quiet period.

The reflection model is scripted (offline): for every user message "I edit in <editor>" it
proposes the profile field `user/editor`, quoting the message as evidence, and for "my token
is <token>" it proposes the token as the editor (which the write gate must refuse). Memory
lives in the server's store under `("reflections", "{thread_id}")`.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.reflection import (
    MemoryReflector,
    ReflectionCandidate,
    ReflectionResult,
    reflection_graph,
)

_EDITOR = re.compile(r"I edit in (\w+)")
_TOKEN = re.compile(r"my token is (\S+)")


class UserProfile(BaseModel):
    """What the reflection fills."""

    editor: str | None = None


class ScriptedReflectionModel(FakeListChatModel):
    """Proposes `user/editor` from the conversation it is shown."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        def propose(prompt: list[BaseMessage]) -> ReflectionResult:
            text = str(prompt[-1].content)
            found = [(m.group(1), m.group(0)) for m in _EDITOR.finditer(text)]
            found += [(m.group(1), m.group(0)) for m in _TOKEN.finditer(text)]
            return ReflectionResult(
                candidates=[
                    ReflectionCandidate(
                        key="user/editor",
                        value=value,
                        type="preference",
                        description="the user's editor",
                        evidence=quote,
                        confidence=0.9,
                    )
                    for value, quote in found
                ]
            )

        return RunnableLambda(propose)


chef = ContextChef(
    scope=("reflections", "{thread_id}"),
    memory=MemoryConfig(profiles={"user": UserProfile}, audit=True),
)
reflector = MemoryReflector(ScriptedReflectionModel(responses=[""]), memory=chef.get_memory)
graph = reflection_graph(reflector)
