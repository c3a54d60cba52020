"""`MemoryReflector`: the runnable that reflects on a finished conversation.

It owns the reflector's settings and checks them, accepts a conversation (a message list or
a graph state), resolves the `Memory` to write to (fixed, or per run from the config), and
holds the one plan a reflection runs: read the stored entries, ask the model for candidates,
then judge each one in a `ReflectionRun`. `reflect` / `areflect` run that plan through
`Memory.run` / `Memory.arun`; `invoke` / `ainvoke` do the same as traced runnable steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from langchain_core.callbacks import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from langchain_contextchef._plan import Invoke, Plan
from langchain_contextchef.gate import DEFAULT_GATE, WriteGate
from langchain_contextchef.memory import Memory
from langchain_contextchef.memory._plans import read_entries
from langchain_contextchef.memory.config import MODEL_WRITE
from langchain_contextchef.reflection._prompt import REFLECTION_SYSTEM_PROMPT, reflection_prompt
from langchain_contextchef.reflection._run import ReflectionRun
from langchain_contextchef.reflection._schema import (
    ReflectionOutcome,
    ReflectionReport,
    ReflectionResult,
    coerce_result,
)

__all__ = ["MemoryReflector", "MemorySource"]

MemorySource: TypeAlias = "Memory | Callable[[RunnableConfig | None], Memory]"
"""A `Memory`, or a function from the run's config to one (e.g. `ContextChef.get_memory`)."""


class MemoryReflector(Runnable[Any, ReflectionReport]):
    """Extract durable memories from a finished conversation and store the ones that pass.

    Input: a list of messages, or a mapping with a `messages` list (a graph state).
    Output: a `ReflectionReport`. Model and store errors propagate; a bad candidate never
    does, it is reported as refused.

    Args:
        model: A chat model that supports `with_structured_output`.
        memory: The `Memory` to write to, or a function from the run's config to one, such
            as `chef.get_memory`, for memory scoped per user or tenant.
        gate: The write gate. `None` uses `Memory`'s own gate when it has one, otherwise
            `DEFAULT_GATE`. A gate passed here always runs.
        evidence_roles: Message types (`human`, `ai`, `tool`, `system`) in which a candidate's
            evidence quote must occur. Defaults to the user's messages only, so tool output
            and retrieved text cannot plant memories. `None` turns the check off.
        min_confidence: Candidates below this confidence are refused.
        max_candidates: At most this many candidates are considered; the rest are refused.
        system_prompt: Replaces `REFLECTION_SYSTEM_PROMPT`.

    Example:
        ```python
        from langchain_openai import ChatOpenAI
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.memory import Memory
        from langchain_contextchef.reflection import MemoryReflector

        model = ChatOpenAI(model="gpt-4o-mini", api_key="sk-placeholder")
        reflector = MemoryReflector(model, Memory(InMemoryStore()), min_confidence=0.8)
        # report = reflector.invoke(messages)  # after the conversation ends
        ```
    """

    def __init__(
        self,
        model: BaseChatModel,
        memory: MemorySource,
        *,
        gate: WriteGate | None = None,
        evidence_roles: Sequence[str] | None = ("human",),
        min_confidence: float = 0.0,
        max_candidates: int = 20,
        system_prompt: str = REFLECTION_SYSTEM_PROMPT,
    ) -> None:
        if not 0.0 <= min_confidence <= 1.0:
            msg = f"MemoryReflector(min_confidence={min_confidence!r}) must be between 0 and 1."
            raise ValueError(msg)
        if isinstance(max_candidates, bool) or max_candidates < 1:
            msg = f"MemoryReflector(max_candidates={max_candidates!r}) must be a positive int."
            raise ValueError(msg)
        if evidence_roles is not None and isinstance(evidence_roles, str):
            msg = "evidence_roles must be a list of message types such as ['human'], not a str."
            raise TypeError(msg)
        if not isinstance(memory, Memory) and not callable(memory):
            msg = (
                f"MemoryReflector(memory=...) takes a Memory or a function of the run config "
                f"returning one (such as chef.get_memory), got {type(memory).__name__}."
            )
            raise TypeError(msg)
        self.model = model
        self.memory = memory
        self.gate = gate
        self.evidence_roles = tuple(evidence_roles) if evidence_roles is not None else None
        self.min_confidence = min_confidence
        self.max_candidates = max_candidates
        self.system_prompt = system_prompt
        try:
            self._structured: Runnable[Any, Any] = model.with_structured_output(ReflectionResult)
        except NotImplementedError as exc:
            msg = (
                f"{type(model).__name__} has no structured output, which the reflector needs. "
                "Use a chat model with tool calling or JSON output (ChatOpenAI, ChatAnthropic, "
                "...)."
            )
            raise TypeError(msg) from exc

    def __repr__(self) -> str:
        return f"MemoryReflector(model={type(self.model).__name__}, gate={self.gate!r})"

    # ---- inputs -------------------------------------------------------------------------------

    @staticmethod
    def _messages_of(input: Any) -> list[BaseMessage]:
        messages = input.get("messages") if isinstance(input, Mapping) else input
        if not isinstance(messages, Sequence) or isinstance(messages, str | bytes):
            msg = (
                "MemoryReflector expects a list of messages or a mapping with a 'messages' list "
                f"(a graph state), got {type(input).__name__}."
            )
            raise TypeError(msg)
        for message in messages:
            if not isinstance(message, BaseMessage):
                msg = (
                    f"MemoryReflector expects LangChain messages, got {type(message).__name__}; "
                    "convert dicts with langchain_core.messages.convert_to_messages first."
                )
                raise TypeError(msg)
        return list(messages)

    def _memory_for(self, memory: Memory | None, config: RunnableConfig | None) -> Memory:
        if memory is not None:
            return memory
        if isinstance(self.memory, Memory):
            return self.memory
        resolved = self.memory(config)
        if not isinstance(resolved, Memory):
            msg = (
                f"The memory function given to MemoryReflector returned "
                f"{type(resolved).__name__}; it must return a Memory."
            )
            raise TypeError(msg)
        return resolved

    def _gate_for(self, memory: Memory) -> WriteGate | None:
        if self.gate is not None:
            return self.gate
        # Memory with its own gate already judges every model-path write; gating twice would
        # only repeat the same verdict.
        return None if memory.gate is not None else DEFAULT_GATE

    # ---- the plan -----------------------------------------------------------------------------

    def _plan(
        self, messages: list[BaseMessage], memory: Memory, config: RunnableConfig | None
    ) -> Plan[ReflectionReport]:
        entries = yield from read_entries(memory.context)
        profiles = memory.config.profile_schemas
        prompt = reflection_prompt(self.system_prompt, entries, messages, profiles)
        raw = yield Invoke(self._structured, prompt, config)
        parsed, understood = coerce_result(raw)
        if not understood:
            msg = (
                f"The reflection model returned {type(raw).__name__}, not a ReflectionResult. "
                "Use a chat model whose with_structured_output supports pydantic schemas."
            )
            raise TypeError(msg)

        run = ReflectionRun(
            memory=memory,
            messages=messages,
            gate=self._gate_for(memory),
            evidence_roles=self.evidence_roles,
            min_confidence=self.min_confidence,
        )
        run.know(entries)
        outcomes: list[ReflectionOutcome] = []
        for index, item in enumerate(parsed):
            if isinstance(item, str):
                outcomes.append(ReflectionOutcome("", "refused", None, item))
            elif index >= self.max_candidates:
                reason = f"the reflection proposed more than {self.max_candidates} candidates"
                outcomes.append(ReflectionOutcome(item.key, "refused", item, reason))
            else:
                outcomes.append((yield from run.judge(item)))
        return ReflectionReport(tuple(outcomes))

    # ---- public API ---------------------------------------------------------------------------

    def reflect(
        self,
        messages: Any,
        *,
        memory: Memory | None = None,
        config: RunnableConfig | None = None,
    ) -> ReflectionReport:
        """Reflect on a finished conversation and store what passes.

        Args:
            messages: The conversation, or a graph state with a `messages` list.
            memory: Overrides the reflector's memory for this call.
            config: The run config (callbacks, tags, and `configurable` for scoped memory).

        Returns:
            The report, one outcome per candidate.
        """
        conversation = self._messages_of(messages)
        target = self._memory_for(memory, config)
        return target.run(self._plan(conversation, target, config), fires=MODEL_WRITE)

    async def areflect(
        self,
        messages: Any,
        *,
        memory: Memory | None = None,
        config: RunnableConfig | None = None,
    ) -> ReflectionReport:
        """Async `reflect`."""
        conversation = self._messages_of(messages)
        target = self._memory_for(memory, config)
        return await target.arun(self._plan(conversation, target, config))

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> ReflectionReport:
        """Run `reflect` as a traced runnable step."""

        def run(
            value: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig
        ) -> ReflectionReport:
            return self.reflect(value, config=config)

        return self._call_with_config(run, input, config, run_type="chain")

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> ReflectionReport:
        """Run `areflect` as a traced runnable step."""

        async def run(
            value: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
        ) -> ReflectionReport:
            return await self.areflect(value, config=config)

        return await self._acall_with_config(run, input, config, run_type="chain")
