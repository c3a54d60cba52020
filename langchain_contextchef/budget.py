"""Token budgets: for the memory block, and for a whole model call.

Two budgets, one counting rule:

* `MemoryConfig(token_budget=...)` caps the rendered memory block. Entries are kept in the
  selector's order until the next one no longer fits; what is left out is reported in
  `payload.meta.omitted` (reason `"budget"`) and summarised in the block as one line.
* `ContextChef(context_budget=ContextBudget(...))` checks the whole call against the model's
  window, layer by layer (system, memory, dynamic state, history, tools). Over the limit,
  memory is trimmed first (it is knowledge the model can ask for again); if the call still
  does not fit, `ContextBudgetExceeded` says which layer is how large.

Tokens are counted with LangChain: `count_tokens_approximately` by default, or a model's own
counter when you pass one (a `BaseLanguageModel`, whose `get_num_tokens` and
`get_num_tokens_from_messages` are used, or any `Callable[[str], int]`).

Example:
    ```python
    from langchain_contextchef.budget import ContextBudget, token_counter

    count = token_counter(None)
    assert count.text("abcd" * 10) > 0
    budget = ContextBudget(model_limit=8_000, reserved_output=1_000, memory=500)
    assert budget.input_budget == 7_000
    ```
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from langchain_core.language_models import BaseLanguageModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.errors import ContextBudgetExceeded

__all__ = [
    "LAYERS",
    "ContextBudget",
    "FittedMemory",
    "TokenCounter",
    "TokenCounterLike",
    "approximate_tokens",
    "check_context_budget",
    "fit_memory",
    "token_counter",
]

TokenCounterLike: TypeAlias = "Callable[[str], int] | BaseLanguageModel[Any] | None"
"""What a token counter may be given as: `None` (approximate), a callable, or a model."""

LAYERS: tuple[str, ...] = ("system", "memory", "dynamic_state", "history", "tools")
"""The layers `meta.tokens` reports, in prompt order (plus `"total"`)."""

BlockRenderer: TypeAlias = Callable[[Sequence[MemoryEntry], Sequence[MemoryEntry], int], str]
"""`(full entries, index entries, number not shown) -> block text`."""


def approximate_tokens(text: str) -> int:
    """Count the tokens of `text` with LangChain's `count_tokens_approximately`.

    Example:
        ```python
        from langchain_contextchef.budget import approximate_tokens

        assert approximate_tokens("x" * 400) >= 100
        ```
    """
    return count_tokens_approximately([HumanMessage(text)], extra_tokens_per_message=0)


def _message_text(message: BaseMessage) -> str:
    text = str(message.text)
    calls = getattr(message, "tool_calls", None)
    if calls:
        # Tool call arguments are sent to the model too; a space keeps the last word of the
        # text and the JSON from merging into one word for word-based counters.
        text += " " + json.dumps(
            [{"name": c["name"], "args": c["args"]} for c in calls], default=str
        )
    return text


def _tool_json(tools: Sequence[BaseTool]) -> str:
    return json.dumps([convert_to_openai_tool(t) for t in tools], sort_keys=True)


@dataclass(frozen=True)
class TokenCounter:
    """One tokenizer, applied to text, to messages and to tool definitions.

    Build it with `token_counter`.

    Attributes:
        text: Counts the tokens of a string.
        messages: Counts the tokens of a list of messages.
        tools: Counts the tokens of tool definitions.
    """

    text: Callable[[str], int]
    messages: Callable[[Sequence[BaseMessage]], int]
    tools: Callable[[Sequence[BaseTool]], int]


def token_counter(spec: TokenCounterLike = None) -> TokenCounter:
    """Resolve a counter specification into a `TokenCounter`.

    Args:
        spec: `None` for `count_tokens_approximately`; a LangChain model (its
            `get_num_tokens` / `get_num_tokens_from_messages`); or a `Callable[[str], int]`,
            applied to each message's text and to the JSON of tool definitions.

    Returns:
        The counter.

    Raises:
        TypeError: If `spec` is none of those.

    Example:
        ```python
        from langchain_core.messages import HumanMessage
        from langchain_contextchef.budget import token_counter

        words = token_counter(lambda text: len(text.split()))
        assert words.text("one two three") == 3
        assert words.messages([HumanMessage("a b"), HumanMessage("c")]) == 3
        ```
    """
    if spec is None:
        return TokenCounter(
            text=approximate_tokens,
            messages=lambda msgs: count_tokens_approximately(list(msgs)),
            tools=lambda tools: count_tokens_approximately([], tools=list(tools)) if tools else 0,
        )
    if isinstance(spec, BaseLanguageModel):
        model = spec
        return TokenCounter(
            text=model.get_num_tokens,
            messages=lambda msgs: model.get_num_tokens_from_messages(list(msgs)),
            tools=lambda tools: model.get_num_tokens(_tool_json(tools)) if tools else 0,
        )
    if callable(spec):
        count = spec
        return TokenCounter(
            text=count,
            messages=lambda msgs: sum(count(_message_text(m)) for m in msgs),
            tools=lambda tools: count(_tool_json(tools)) if tools else 0,
        )
    msg = (
        f"token_counter must be None, a LangChain model or a Callable[[str], int], got "
        f"{type(spec).__name__}."
    )
    raise TypeError(msg)


def _check_tokens(name: str, value: object, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        msg = f"{name} must be a non-negative int (a number of tokens), got {value!r}."
        raise ValueError(msg)


@dataclass(frozen=True, kw_only=True)
class ContextBudget:
    """A token budget for one whole model call.

    The input budget is `model_limit - reserved_output`. A compile adds up the layers
    (system prompt and memory instruction, memory block, dynamic state and implicit context,
    history, tools) and, over the input budget, first trims memory, then raises
    `ContextBudgetExceeded`.

    Attributes:
        model_limit: The model's context window, in tokens.
        reserved_output: Tokens kept free for the answer.
        memory: The most tokens the memory block may take (on top of, and never above,
            `MemoryConfig.token_budget`); `None` for no separate cap.
        extra_tools: Tokens of tool definitions you bind besides the memory tools (they
            are not visible to the compile; count them with `token_counter(...).tools`).
        token_counter: How to count: `None` (approximate), a model, or a callable.

    Example:
        ```python
        from langchain_core.messages import HumanMessage, SystemMessage
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import ContextChef, MemoryConfig
        from langchain_contextchef.budget import ContextBudget

        chef = ContextChef(
            store=InMemoryStore(),
            memory=MemoryConfig(),
            context_budget=ContextBudget(model_limit=4_000, reserved_output=500, memory=300),
        )
        payload = chef.compile([SystemMessage("Be brief."), HumanMessage("Hi")])
        assert payload.meta.tokens["total"] <= 3_500
        ```
    """

    model_limit: int
    reserved_output: int = 0
    memory: int | None = None
    extra_tools: int = 0
    token_counter: TokenCounterLike = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _check_tokens("model_limit", self.model_limit)
        _check_tokens("reserved_output", self.reserved_output)
        _check_tokens("memory", self.memory, optional=True)
        _check_tokens("extra_tools", self.extra_tools)
        if self.reserved_output >= self.model_limit:
            msg = (
                f"reserved_output ({self.reserved_output}) must be smaller than model_limit "
                f"({self.model_limit}), or no room is left for the prompt."
            )
            raise ValueError(msg)
        token_counter(self.token_counter)  # fail at construction on a bad counter

    @property
    def input_budget(self) -> int:
        """The tokens the prompt may use: `model_limit - reserved_output`."""
        return self.model_limit - self.reserved_output


@dataclass(frozen=True)
class FittedMemory:
    """The memory block cut to a token budget.

    Attributes:
        full: Entries shown with their values, in the selector's order.
        index: Entries shown as one index row (key, type, description), recall mode only.
        unlisted: How many entries are neither shown nor indexed (one summary line says so).
        block: The rendered block.
        tokens: The block's size with the budget's counter (0 when not counted).
    """

    full: list[MemoryEntry]
    index: list[MemoryEntry]
    unlisted: int
    block: str
    tokens: int = 0


def _largest_fit(size: int, fits: Callable[[int], bool]) -> int:
    """The largest n in [0, size] with fits(n), assuming fits is (nearly) monotone.

    Probes 1, 2, 4, ... then bisects, so a 10,000-entry memory costs a few renders.
    """
    if size == 0 or not fits(1):
        return 0
    low, high = 1, 2
    while high <= size and fits(high):
        low, high = high, high * 2
    high = min(high, size + 1)  # high is known not to fit (or past the end)
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def fit_memory(
    selected: Sequence[MemoryEntry],
    unselected: Sequence[MemoryEntry],
    *,
    render: BlockRenderer,
    budget: int | None,
    count: Callable[[str], int],
    index_mode: bool,
) -> FittedMemory:
    """Choose what the memory block shows so that it fits `budget` tokens.

    Selected entries are shown in full, in order, while they fit. In index mode every other
    active entry (selected ones that did not fit first, then the unselected, in creation
    order) gets an index row while rows fit. The rest is counted in `unlisted`. Every size
    is measured on the rendered block, so the result never exceeds the budget.

    Args:
        selected: The selector's choice, in its order.
        unselected: Active entries the selector left out, in creation order.
        render: Renders `(full, index, unlisted)` as the block text.
        budget: The most tokens the block may take; `None` for no limit.
        count: Counts the tokens of a text.
        index_mode: Whether entries that are not shown in full get index rows.

    Returns:
        What to show, and the block.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.budget import approximate_tokens, fit_memory
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key=f"k{i}", value="x" * 200, created_at=now, updated_at=now)
            for i in range(50)
        ]
        fitted = fit_memory(
            entries,
            [],
            render=lambda full, index, more: render_memory_block(full, unlisted=more),
            budget=300,
            count=approximate_tokens,
            index_mode=False,
        )
        assert 0 < len(fitted.full) < 50 and fitted.unlisted == 50 - len(fitted.full)
        assert approximate_tokens(fitted.block) <= 300
        ```
    """
    if budget is None:
        index = list(unselected) if index_mode else []
        return FittedMemory(list(selected), index, 0, render(selected, index, 0))
    total = len(selected) + (len(unselected) if index_mode else 0)
    sizes: dict[tuple[int, int], int] = {}

    def size_of(n_full: int, n_index: int, rows: Sequence[MemoryEntry]) -> int:
        if (n_full, n_index) not in sizes:
            unlisted = total - n_full - n_index
            sizes[(n_full, n_index)] = count(render(selected[:n_full], rows[:n_index], unlisted))
        return sizes[(n_full, n_index)]

    n_full = _largest_fit(len(selected), lambda n: size_of(n, 0, ()) <= budget)
    rows: list[MemoryEntry] = []
    n_index = 0
    if index_mode:
        rows = [*selected[n_full:], *unselected]
        n_index = _largest_fit(len(rows), lambda n: size_of(n_full, n, rows) <= budget)
    full = list(selected[:n_full])
    index = rows[:n_index]
    unlisted = total - n_full - n_index
    block = render(full, index, unlisted)
    tokens = count(block) if block else 0
    if tokens > budget:  # even the header and notices do not fit: show nothing
        return FittedMemory([], [], total, "", 0)
    return FittedMemory(full, index, unlisted, block, tokens)


def check_context_budget(budget: ContextBudget, tokens: Mapping[str, int]) -> None:
    """Raise `ContextBudgetExceeded` when the layers add up to more than the input budget.

    Args:
        budget: The budget.
        tokens: Tokens per layer (the keys of `LAYERS`; missing layers count as 0).

    Raises:
        ContextBudgetExceeded: With each layer's size, the limit and what to do.

    Example:
        ```python
        import pytest
        from langchain_contextchef.budget import ContextBudget, check_context_budget
        from langchain_contextchef.errors import ContextBudgetExceeded

        budget = ContextBudget(model_limit=1_000, reserved_output=200)
        check_context_budget(budget, {"history": 700})
        with pytest.raises(ContextBudgetExceeded, match="history 900"):
            check_context_budget(budget, {"history": 900})
        ```
    """
    total = sum(tokens.get(layer, 0) for layer in LAYERS)
    if total <= budget.input_budget:
        return
    sizes = ", ".join(f"{layer} {tokens.get(layer, 0)}" for layer in LAYERS)
    msg = (
        f"The prompt needs {total} tokens ({sizes}) but the context budget allows "
        f"{budget.input_budget} (model_limit {budget.model_limit} - reserved_output "
        f"{budget.reserved_output}), even with memory trimmed. Shorten the largest layer "
        "(summarise or drop old history, shrink the dynamic state or the system prompt), "
        "bind fewer tools, or raise model_limit / lower reserved_output."
    )
    raise ContextBudgetExceeded(msg)
