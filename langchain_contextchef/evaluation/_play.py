"""Playing one case: a fresh chef, the setup writes, then the conversation, turn by turn.

`play_case` builds the case's chef on a fresh store, and a `CaseRun` plays the case against
it: each turn compiles the prompt (one model call), then the scripted model (or a real one)
answers, and memory tool calls go through `ContextChef.handle_tool` as a model's would.
Every compile and every model-path write is measured as it happens. A case that raises is
recorded with its error; the other cases still run.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any, TypeAlias

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.messages.utils import count_tokens_approximately
from langgraph.store.base import BaseStore

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.evaluation._report import CaseResult, TurnResult, WriteOutcome
from langchain_contextchef.evaluation.cases import (
    EvalCase,
    Principal,
    ScriptedCall,
    Turn,
    Write,
)
from langchain_contextchef.evaluation.metrics import (
    find_leaks,
    injected_entries,
    injected_text,
    memory_part,
    memory_tokens,
    relevance,
)

__all__ = [
    "START_TIME",
    "SYSTEM_PROMPT",
    "CaseRun",
    "ChefFactory",
    "Clock",
    "EvalClock",
    "StoreFactory",
    "play_case",
]

Clock: TypeAlias = Callable[[], datetime]
ChefFactory: TypeAlias = Callable[[BaseStore, Clock], ContextChef]
"""Builds the chef under test from a fresh store and the harness clock (pass it as `clock=`)."""
StoreFactory: TypeAlias = Callable[[], BaseStore]
"""Builds a fresh, empty store for one case."""

START_TIME = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
"""Where the harness clock starts, so wall-clock TTLs behave the same on every run."""

SYSTEM_PROMPT = "You are a helpful assistant for a software team."
_MAX_MODEL_STEPS = 4


class EvalClock:
    """A manual clock: cases move it with `Turn.advance`, chefs read it through `now`.

    Args:
        start: The first reading.
    """

    def __init__(self, start: datetime = START_TIME) -> None:
        self._now = start

    def now(self) -> datetime:
        """The current reading."""
        return self._now

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward by `delta`."""
        self._now += delta


def _written_value(args: Mapping[str, Any]) -> str | None:
    for name in ("value", "file_text", "new_str"):
        value = args.get(name)
        if isinstance(value, str):
            return value
    return None


def _write_key(args: Mapping[str, Any]) -> str:
    key = args.get("key", args.get("path", "?"))
    return key if isinstance(key, str) else repr(key)


def _is_write(name: str, args: Mapping[str, Any]) -> bool:
    if name == "create_memory":
        return True
    if name == "modify_memory":
        return args.get("action") == "update"
    return name == "context" and args.get("command") in ("create", "str_replace", "insert")


class CaseRun:
    """One case against one fresh chef; collects what each compile and write did."""

    def __init__(
        self,
        case: EvalCase,
        chef: ContextChef,
        clock: EvalClock,
        model: BaseChatModel | None,
    ) -> None:
        self.case = case
        self.chef = chef
        self.clock = clock
        self.model = model
        self.histories: dict[Principal, list[BaseMessage]] = {}
        self.turns: list[TurnResult] = []
        self.writes: list[WriteOutcome] = []
        self._ids = 0

    def _next_id(self) -> str:
        self._ids += 1
        return f"call_{self.case.name}_{self._ids}"

    def _stored(self, who: Principal, value: str) -> bool:
        memory = self.chef.get_memory(who.config())
        return any(e.status == "active" and value in e.value for e in memory.list())

    def _memory_call(self, who: Principal, call: ToolCall, must_refuse: bool) -> ToolMessage:
        result = self.chef.handle_tool(call, config=who.config())
        assert isinstance(result, ToolMessage)  # a ToolCall always gets a ToolMessage
        args = call["args"]
        value = _written_value(args)
        if _is_write(call["name"], args) and value is not None:
            self.writes.append(
                WriteOutcome(
                    who,
                    _write_key(args),
                    must_refuse,
                    refused=not self._stored(who, value),
                    result=result.text,
                )
            )
        return result

    def apply(self, write: Write) -> None:
        if write.path == "developer":
            memory = self.chef.get_memory(write.who.config())
            memory.set(write.key, write.value, description=write.description, ttl=write.ttl)
            return
        exists = self.chef.get_memory(write.who.config()).get(write.key) is not None
        args: dict[str, Any] = {"key": write.key, "value": write.value}
        if write.description is not None:
            args["description"] = write.description
        if exists:
            args = {"action": "update", **args}
        name = "modify_memory" if exists else "create_memory"
        call = ToolCall(name=name, args=args, id=self._next_id())
        self._memory_call(write.who, call, write.must_refuse)

    def _history(self, turn: Turn) -> list[BaseMessage]:
        if turn.new_thread or turn.who not in self.histories:
            self.histories[turn.who] = [SystemMessage(SYSTEM_PROMPT)]
        return self.histories[turn.who]

    def compile(self, who: Principal, history: list[BaseMessage], turn: Turn | None) -> Any:
        payload = self.chef.compile(history, config=who.config())
        added = injected_text(history, payload.messages)
        part = memory_part(added)
        entries = injected_entries(part)
        expect = None if turn is None else turn.expect
        self.turns.append(
            TurnResult(
                index=len(self.turns),
                who=who,
                injected=entries,
                injected_tokens=memory_tokens(part),
                prompt_tokens=count_tokens_approximately(payload.messages),
                relevance=None if expect is None else relevance(entries, expect),
                leaks=tuple(find_leaks(added, self.case.never.get(who, ()), entries.values())),
            )
        )
        return payload

    def scripted_turn(self, turn: Turn) -> None:
        history = self._history(turn)
        if turn.user is not None:
            history.append(HumanMessage(turn.user))
        self.compile(turn.who, history, turn)
        calls = [
            (c, ToolCall(name=c.name, args=dict(c.args), id=self._next_id())) for c in turn.calls
        ]
        history.append(AIMessage(turn.answer, tool_calls=[tc for _, tc in calls]))
        for scripted, call in calls:
            history.append(self._answer_call(turn.who, call, scripted))

    def _answer_call(
        self, who: Principal, call: ToolCall, scripted: ScriptedCall | None
    ) -> ToolMessage:
        if self.chef.owns_tool(call["name"]):
            must_refuse = scripted.must_refuse if scripted is not None else False
            return self._memory_call(who, call, must_refuse)
        text = scripted.result if scripted is not None and scripted.result is not None else None
        if text is None:
            text = f"Error: there is no tool called {call['name']!r} in this evaluation."
        return ToolMessage(text, tool_call_id=call["id"] or "", name=call["name"])

    def _scripted_tools(self) -> dict[str, ScriptedCall]:
        tools: dict[str, ScriptedCall] = {}
        for turn in self.case.turns:
            for call in turn.calls:
                if not call.is_memory_tool:
                    tools.setdefault(call.name, call)
        return tools

    def model_turn(self, turn: Turn, model: BaseChatModel) -> None:
        history = self._history(turn)
        assert turn.user is not None  # continuations are skipped with a real model
        history.append(HumanMessage(turn.user))
        own_tools = self._scripted_tools()
        specs = [
            {
                "name": name,
                "description": f"Run {name} and return its output.",
                "parameters": {
                    "type": "object",
                    "properties": {arg: {"type": "string"} for arg in call.args},
                },
            }
            for name, call in own_tools.items()
        ]
        for step in range(_MAX_MODEL_STEPS):
            payload = self.compile(turn.who, history, turn if step == 0 else None)
            reply = model.bind_tools([*payload.tools, *specs]).invoke(payload.messages)
            history.append(reply)
            if not isinstance(reply, AIMessage) or not reply.tool_calls:
                return
            for call in reply.tool_calls:
                history.append(self._answer_call(turn.who, call, own_tools.get(call["name"])))

    def play(self) -> None:
        for write in self.case.setup:
            self.apply(write)
        for turn in self.case.turns:
            self.clock.advance(turn.advance)
            for write in turn.writes:
                self.apply(write)
            if self.model is None:
                self.scripted_turn(turn)
            elif turn.user is not None:
                self.model_turn(turn, self.model)

    def forbidden_in_store(self) -> list[str]:
        found: list[str] = []
        for who, labels in self.case.never.items():
            values = [
                e.value for e in self.chef.get_memory(who.config()).list() if e.status == "active"
            ]
            found += [label for label in labels if any(label in v for v in values)]
        return found


def play_case(
    case: EvalCase,
    chef_factory: ChefFactory,
    store_factory: StoreFactory,
    model: BaseChatModel | None,
) -> CaseResult:
    """Play one case against a fresh chef and store; an exception ends it as an error."""
    clock = EvalClock()
    run: CaseRun | None = None
    try:
        chef = chef_factory(store_factory(), clock.now)
        if not isinstance(chef, ContextChef):
            msg = (
                f"The chef factory returned {type(chef).__name__}; it must return a "
                "ContextChef built on the store it was given."
            )
            raise TypeError(msg)
        run = CaseRun(case, chef, clock, model)
        run.play()
        forbidden = run.forbidden_in_store()
    except Exception as exc:  # a failing case is reported, not raised
        last = traceback.extract_tb(exc.__traceback__)[-1]
        error = f"{type(exc).__name__}: {exc} (at {last.name}, line {last.lineno})"
        return CaseResult(
            case.name,
            tuple(run.turns) if run else (),
            tuple(run.writes) if run else (),
            error=error,
            labels_asserted=model is None,
        )
    return CaseResult(
        case.name,
        tuple(run.turns),
        tuple(run.writes),
        tuple(forbidden),
        labels_asserted=model is None,
    )
