"""Run evaluation cases against a `ContextChef` and measure what reached the prompts.

`run_eval` builds a fresh store and chef per case, applies the setup writes, then plays the
conversation: each turn compiles the prompt (one model call) and the scripted model replies
with the case's tool calls or answer. Memory tool calls go through `ContextChef.handle_tool`
exactly as a model's would. Every compiled prompt is read back as text to measure:

* injected tokens: the `<memory>` element, counted with `count_tokens_approximately`;
* relevance: precision and recall of the injected entries against the turn's labels;
* cross-user leaks: prompts whose injected text holds a string labelled `never` for the
  principal being served (another tenant's values, a secret);
* refused bad writes: labelled bad model-path writes that did not end up stored.

With `model=` a real chat model answers instead of the script (user turns only). What the
model does is then its own choice, so relevance and refusals of the model's writes are
reported for information; leaks, errors, secrets left in the store and the labelled setup
writes are still checked.

Example:
    ```python
    from langchain_contextchef.evaluation import BUILTIN_CASES, assert_no_leaks, run_eval

    report = run_eval(cases=BUILTIN_CASES[:1])
    assert_no_leaks(report)
    assert report.leak_rate == 0.0 and report.recall == 1.0
    ```
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.evaluation.cases import (
    BUILTIN_CASES,
    EvalCase,
    Principal,
    ScriptedCall,
    Turn,
    Write,
)
from langchain_contextchef.evaluation.metrics import (
    Relevance,
    find_leaks,
    injected_entries,
    injected_text,
    memory_part,
    memory_tokens,
    ratio,
    relevance,
)
from langchain_contextchef.memory import MemoryConfig

__all__ = [
    "DEFAULT_SCOPE",
    "START_TIME",
    "CaseResult",
    "ChefFactory",
    "EvalClock",
    "EvalReport",
    "StoreFactory",
    "TurnResult",
    "WriteOutcome",
    "assert_no_leaks",
    "default_chef_factory",
    "format_table",
    "run_eval",
]

Clock: TypeAlias = Callable[[], datetime]
ChefFactory: TypeAlias = Callable[[BaseStore, Clock], ContextChef]
"""Builds the chef under test from a fresh store and the harness clock (pass it as `clock=`)."""
StoreFactory: TypeAlias = Callable[[], BaseStore]
"""Builds a fresh, empty store for one case."""

DEFAULT_SCOPE = ("tenants", "{tenant_id}", "users", "{user_id}")
"""The scope of `default_chef_factory`; the harness passes `tenant_id` and `user_id`."""

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


def default_chef_factory(store: BaseStore, clock: Clock) -> ContextChef:
    """The chef the harness evaluates by default: tenant-and-user scope, default write gate.

    Args:
        store: The fresh store of the case.
        clock: The harness clock.

    Returns:
        `ContextChef(store, scope=DEFAULT_SCOPE)`; `MemoryConfig()` gates model writes with
        `DEFAULT_GATE` (secrets and injection attempts refused).
    """
    return ContextChef(store=store, scope=DEFAULT_SCOPE, memory=MemoryConfig(), clock=clock)


# ---- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnResult:
    """What one compile put in front of the model.

    Attributes:
        index: Position of the model call in the case (0-based).
        who: The principal served.
        injected: `{key: value}` read back from the prompt's memory block.
        injected_tokens: Approximate tokens of the memory block (0 without one).
        prompt_tokens: Approximate tokens of the whole compiled prompt.
        relevance: Score against the turn's labels (`None`: the turn is unlabelled).
        leaks: Labelled `never` strings found in the injected text.
    """

    index: int
    who: Principal
    injected: Mapping[str, str]
    injected_tokens: int
    prompt_tokens: int
    relevance: Relevance | None
    leaks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view."""
        score = self.relevance
        return {
            "index": self.index,
            "who": str(self.who),
            "injected_keys": list(self.injected),
            "injected_tokens": self.injected_tokens,
            "prompt_tokens": self.prompt_tokens,
            "precision": None if score is None else score.precision,
            "recall": None if score is None else score.recall,
            "leaks": list(self.leaks),
        }


@dataclass(frozen=True)
class WriteOutcome:
    """A model-path write and whether it ended up stored.

    Attributes:
        who: Whose memory was addressed.
        key: The key written (or the tool's path for the unified tool).
        must_refuse: The label: this write has to be refused.
        refused: Whether the value is absent from the principal's active memory afterwards.
        result: The tool result text the model saw.
    """

    who: Principal
    key: str
    must_refuse: bool
    refused: bool
    result: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view."""
        return {
            "who": str(self.who),
            "key": self.key,
            "must_refuse": self.must_refuse,
            "refused": self.refused,
            "result": self.result,
        }


@dataclass(frozen=True)
class CaseResult:
    """Every measurement of one case.

    Attributes:
        name: The case name.
        turns: One result per compile.
        writes: Every model-path write (setup and scripted).
        stored_forbidden: `never` strings still held in a principal's active memory at the end.
        error: `"Type: message"` if the case stopped on an exception, else `None`.
        labels_asserted: `False` when a real model chose the tool calls.
    """

    name: str
    turns: tuple[TurnResult, ...]
    writes: tuple[WriteOutcome, ...] = ()
    stored_forbidden: tuple[str, ...] = ()
    error: str | None = None
    labels_asserted: bool = True

    @property
    def relevance(self) -> Relevance:
        """The labelled turns' scores, summed (micro-average)."""
        total = Relevance()
        for turn in self.turns:
            if turn.relevance is not None:
                total += turn.relevance
        return total

    @property
    def injected_tokens_per_turn(self) -> float | None:
        """Mean memory-block tokens per compile."""
        if not self.turns:
            return None
        return sum(t.injected_tokens for t in self.turns) / len(self.turns)

    @property
    def leaky_turns(self) -> int:
        """Compiles whose injected text held a `never` string."""
        return sum(1 for t in self.turns if t.leaks)

    @property
    def leak_rate(self) -> float | None:
        """Share of compiles with a leak."""
        return ratio(self.leaky_turns, len(self.turns))

    @property
    def bad_writes(self) -> list[WriteOutcome]:
        """The labelled bad writes that count: all when scripted, setup ones with a model."""
        return [w for w in self.writes if w.must_refuse]

    @property
    def refused_bad_writes(self) -> int:
        """How many labelled bad writes were refused."""
        return sum(1 for w in self.bad_writes if w.refused)

    @property
    def wrongly_refused(self) -> list[WriteOutcome]:
        """Unlabelled (good) writes that did not get stored."""
        return [w for w in self.writes if not w.must_refuse and w.refused]

    def problems(self) -> list[str]:
        """Failures that do not depend on the model's choices, one sentence each."""
        found: list[str] = []
        if self.error is not None:
            found.append(f"{self.name}: stopped on {self.error}")
        for turn in self.turns:
            if turn.leaks:
                found.append(
                    f"{self.name}: turn {turn.index} for {turn.who} leaked {list(turn.leaks)!r}"
                )
        for write in self.bad_writes:
            if not write.refused:
                found.append(f"{self.name}: bad write {write.key!r} for {write.who} was stored")
        if self.labels_asserted:
            for write in self.wrongly_refused:
                found.append(
                    f"{self.name}: good write {write.key!r} for {write.who} was refused: "
                    f"{write.result[:120]}"
                )
        if self.stored_forbidden:
            found.append(
                f"{self.name}: memory still holds forbidden text {list(self.stored_forbidden)!r}"
            )
        return found

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view, with the per-case figures."""
        score = self.relevance
        return {
            "name": self.name,
            "turns": len(self.turns),
            "injected_tokens_per_turn": self.injected_tokens_per_turn,
            "max_prompt_tokens": max((t.prompt_tokens for t in self.turns), default=0),
            "precision": score.precision,
            "recall": score.recall,
            "leak_rate": self.leak_rate,
            "bad_writes": len(self.bad_writes),
            "refused_bad_writes": self.refused_bad_writes,
            "wrongly_refused": len(self.wrongly_refused),
            "stored_forbidden": list(self.stored_forbidden),
            "error": self.error,
            "labels_asserted": self.labels_asserted,
            "problems": self.problems(),
            "turn_results": [t.to_dict() for t in self.turns],
            "writes": [w.to_dict() for w in self.writes],
        }


@dataclass(frozen=True)
class EvalReport:
    """The results of `run_eval`, per case and overall.

    Attributes:
        cases: One result per case, in run order.
        model: `"scripted"`, or the class name of the real model that answered.
    """

    cases: tuple[CaseResult, ...]
    model: str = "scripted"

    @property
    def turns(self) -> int:
        """Compiles measured."""
        return sum(len(c.turns) for c in self.cases)

    @property
    def injected_tokens_per_turn(self) -> float | None:
        """Mean memory-block tokens per compile, over every case."""
        total = sum(t.injected_tokens for c in self.cases for t in c.turns)
        return total / self.turns if self.turns else None

    @property
    def relevance(self) -> Relevance:
        """Every labelled turn's score, summed."""
        total = Relevance()
        for case in self.cases:
            total += case.relevance
        return total

    @property
    def precision(self) -> float | None:
        """Micro-averaged precision of injected entries (`None`: nothing injected)."""
        return self.relevance.precision

    @property
    def recall(self) -> float | None:
        """Micro-averaged recall of labelled entries (`None`: nothing labelled)."""
        return self.relevance.recall

    @property
    def leak_rate(self) -> float | None:
        """Share of all compiled prompts with a cross-user leak."""
        return ratio(sum(c.leaky_turns for c in self.cases), self.turns)

    @property
    def bad_writes(self) -> int:
        """Labelled bad writes attempted."""
        return sum(len(c.bad_writes) for c in self.cases)

    @property
    def refused_bad_writes(self) -> int:
        """Labelled bad writes refused."""
        return sum(c.refused_bad_writes for c in self.cases)

    @property
    def refused_rate(self) -> float | None:
        """Share of labelled bad writes refused (`None`: none attempted)."""
        return ratio(self.refused_bad_writes, self.bad_writes)

    def problems(self) -> list[str]:
        """Every case's problems: leaks, errors, stored bad writes, forbidden text kept."""
        return [problem for case in self.cases for problem in case.problems()]

    @property
    def passed(self) -> bool:
        """Whether there are no problems (see `problems`)."""
        return not self.problems()

    def case(self, name: str) -> CaseResult:
        """The result of the case called `name`.

        Raises:
            KeyError: If no case of that name ran; the message lists those that did.
        """
        for result in self.cases:
            if result.name == name:
                return result
        msg = f"No case {name!r} in this report; it has {[c.name for c in self.cases]!r}."
        raise KeyError(msg)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view of the whole report."""
        return {
            "model": self.model,
            "overall": {
                "turns": self.turns,
                "injected_tokens_per_turn": self.injected_tokens_per_turn,
                "precision": self.precision,
                "recall": self.recall,
                "leak_rate": self.leak_rate,
                "bad_writes": self.bad_writes,
                "refused_bad_writes": self.refused_bad_writes,
                "refused_rate": self.refused_rate,
                "passed": self.passed,
            },
            "problems": self.problems(),
            "cases": [c.to_dict() for c in self.cases],
        }


def assert_no_leaks(report: EvalReport) -> None:
    """Fail with every leaky prompt listed when any compiled prompt leaked.

    Args:
        report: The output of `run_eval`.

    Raises:
        AssertionError: If the leak rate is not 0, or a case stopped before it could be
            measured.
    """
    lines = [
        f"{case.name}: turn {turn.index} for {turn.who} contains {list(turn.leaks)!r}"
        for case in report.cases
        for turn in case.turns
        if turn.leaks
    ]
    lines += [f"{c.name}: stopped on {c.error}" for c in report.cases if c.error is not None]
    if lines:
        rate = report.leak_rate or 0.0
        header = f"Cross-user leak rate {rate:.2%} ({report.model} model):"
        raise AssertionError("\n".join([header, *lines]))


# ---- running ----------------------------------------------------------------------------------


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


class _Run:
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


def _run_case(
    case: EvalCase,
    chef_factory: ChefFactory,
    store_factory: StoreFactory,
    model: BaseChatModel | None,
) -> CaseResult:
    clock = EvalClock()
    run: _Run | None = None
    try:
        chef = chef_factory(store_factory(), clock.now)
        if not isinstance(chef, ContextChef):
            msg = (
                f"The chef factory returned {type(chef).__name__}; it must return a "
                "ContextChef built on the store it was given."
            )
            raise TypeError(msg)
        run = _Run(case, chef, clock, model)
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


def run_eval(
    chef_factory: ChefFactory | None = None,
    cases: Sequence[EvalCase] = BUILTIN_CASES,
    *,
    model: BaseChatModel | None = None,
    store_factory: StoreFactory = InMemoryStore,
) -> EvalReport:
    """Run evaluation cases, each against a fresh store and chef, and measure every prompt.

    Args:
        chef_factory: `(store, clock) -> ContextChef`. Build your chef on the given store,
            pass `clock=clock`, and let its scope read `tenant_id` and `user_id` from
            `configurable` (e.g. `("tenants", "{tenant_id}", "users", "{user_id}")`).
            `None` uses `default_chef_factory`.
        cases: The cases to run; the built-in ones by default.
        model: A real chat model to answer user turns instead of the script. It is bound to
            the chef's tools plus stand-ins for the case's own tools.
        store_factory: Builds a fresh, empty store per case; `InMemoryStore` by default.

    Returns:
        The report. A case that raises is recorded with its error, not re-raised.

    Raises:
        ValueError: If two cases share a name.
    """
    names = [case.name for case in cases]
    if len(set(names)) != len(names):
        msg = f"Case names must be unique, got {names!r}; rename the duplicates."
        raise ValueError(msg)
    factory = chef_factory or default_chef_factory
    results = tuple(_run_case(case, factory, store_factory, model) for case in cases)
    label = "scripted" if model is None else type(model).__name__
    return EvalReport(results, model=label)


# ---- table ------------------------------------------------------------------------------------


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _tokens(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


_HEADER = ("case", "turns", "inj tok/turn", "precision", "recall", "leak rate", "refused bad")


def format_table(report: EvalReport) -> str:
    """Render the report as a plain-text table: one row per case, then overall figures.

    Args:
        report: The output of `run_eval`.

    Returns:
        The table and a few summary lines, ending with a newline.
    """
    rows: list[tuple[str, ...]] = []
    for case in report.cases:
        score = case.relevance
        bad = len(case.bad_writes)
        rows.append(
            (
                case.name + (" (ERROR)" if case.error else ""),
                str(len(case.turns)),
                _tokens(case.injected_tokens_per_turn),
                _fraction(score.precision),
                _fraction(score.recall),
                _fraction(case.leak_rate),
                f"{case.refused_bad_writes}/{bad}" if bad else "-",
            )
        )
    rows.append(
        (
            "overall",
            str(report.turns),
            _tokens(report.injected_tokens_per_turn),
            _fraction(report.precision),
            _fraction(report.recall),
            _fraction(report.leak_rate),
            f"{report.refused_bad_writes}/{report.bad_writes}" if report.bad_writes else "-",
        )
    )
    widths = [max(len(r[i]) for r in [_HEADER, *rows]) for i in range(len(_HEADER))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(_HEADER), rule, *(line(r) for r in rows[:-1]), rule, line(rows[-1]), ""]
    largest = max(
        ((t.prompt_tokens, c.name) for c in report.cases for t in c.turns), default=(0, "-")
    )
    out.append(f"model: {report.model}; largest prompt: ~{largest[0]:,} tokens ({largest[1]})")
    if report.model != "scripted":
        out.append("precision, recall and refusals of the model's own writes are informative")
    problems = report.problems()
    out.append(f"problems: {len(problems)}")
    out += [f"  - {p}" for p in problems]
    return "\n".join(out) + "\n"
