"""What memory adds to every model call, in tokens, against the usual alternatives.

One short conversation (a system prompt and a user turn) is compiled with 0, 3, 30 and 300
short facts. Each figure is the tokens one model call carries because of memory: the tool
schemas plus what the messages gain over the same conversation without memory. The first
three facts are `language: Python`, `answer_length: short`, `indentation: tabs`; the rest
are as short (`preference_NNN: option NNN`).

Setups, each in both tools vocabularies where it has tools:

* `contextchef compact`: the default `ContextChef` (`MemoryConfig()`);
* `contextchef verbose`: `MemoryConfig(memory_format="verbose")`, ContextChef's layout;
* `LangGraph store pattern`: the facts appended to the system prompt as `User info:` lines,
  as LangGraph's long-term memory guide builds it; no tools (the application writes memory);
* `LangMem tools`: LangMem's `manage_memory` and `search_memory` tools (their schemas as
  `convert_to_openai_tool` gives them), with the memories written by `manage_memory` and
  shown the way LangMem's hot-path quick start does (the store's search results inside
  `<memories>` in the system prompt), or, cheaper, one `id: content` line per memory (the
  id is what `manage_memory` needs to update one). All memories are shown (`limit=n`).

Tokens are LangChain's `count_tokens_approximately` (about four characters per token, plus
a few per message; tool schemas as their JSON), the counter the budgets use by default; a
provider's tokenizer gives somewhat different figures. The placement is `after_system`
(`before_history_tail` moves the same text; its instruction message adds 4 tokens).

`per entry` is the cost of one more fact beyond its key and value: the 30-fact figure minus
the empty one, divided by 30, minus the tokens of the key and value themselves. Every setup
shows all 30 facts; at 300 the default's token budget shows only the most relevant facts
and lists the rest by key, so the 300-fact column is bounded and says nothing per entry.

Goals (issue 15): with 3 facts the default config adds at most 350 tokens per call, and
each entry costs at most 12 tokens beyond its key and value.

The figures are counts, not timings, so `quick` changes nothing. The README's guide prints
`markdown_table(run())`, and a test checks that it still matches.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import goal, print_goals, print_table
from langchain_contextchef import ContextChef, MemoryConfig

SIZES = (0, 3, 30, 300)
"""How many facts each setup is measured with."""

PER_ENTRY_SIZE = 30
"""The size the per-entry cost is taken at: the largest every setup shows in full."""

SYSTEM = "You are a coding assistant."
CONVERSATION: tuple[BaseMessage, ...] = (
    SystemMessage(SYSTEM),
    HumanMessage("Write me a function that parses a date."),
)
"""The conversation every figure is measured on."""

FIRST_FACTS: tuple[tuple[str, str], ...] = (
    ("language", "Python"),
    ("answer_length", "short"),
    ("indentation", "tabs"),
)

TOTAL_GOAL = 350
PER_ENTRY_GOAL = 12.0


def facts(n: int) -> list[tuple[str, str]]:
    """The first `n` short facts, as (key, value)."""
    more = [(f"preference_{i:03d}", f"option {i}") for i in range(len(FIRST_FACTS), n)]
    return [*FIRST_FACTS, *more][:n]


def _tokens(messages: list[BaseMessage]) -> int:
    return count_tokens_approximately(messages)


def _schema_tokens(tools: list[BaseTool]) -> int:
    return count_tokens_approximately([], tools=tools) if tools else 0


FLOOR = _tokens(list(CONVERSATION))


def _contextchef(tools: str, memory_format: str) -> Callable[[int], tuple[int, int]]:
    def measure(n: int) -> tuple[int, int]:
        config = MemoryConfig(memory_format=memory_format)  # type: ignore[arg-type]
        chef = ContextChef(store=InMemoryStore(), memory=config, tools=tools)  # type: ignore[arg-type]
        memory = chef.get_memory()
        for key, value in facts(n):
            memory.set(key, value)
        payload = chef.compile(list(CONVERSATION))
        return _schema_tokens(payload.tools), _tokens(payload.messages) - FLOOR

    return measure


def _langgraph_pattern(n: int) -> tuple[int, int]:
    # The application reads the facts and appends them to its own system prompt.
    info = "\n".join(f"{key}: {value}" for key, value in facts(n))
    system = SystemMessage(f"{SYSTEM} User info: {info}")
    return 0, _tokens([system, *CONVERSATION[1:]]) - FLOOR


def _langmem(style: str) -> Callable[[int], tuple[int, int]]:
    def measure(n: int) -> tuple[int, int]:
        try:
            with warnings.catch_warnings():
                # langmem 0.0.30 imports names LangGraph 1.x has deprecated; not ours to fix.
                warnings.simplefilter("ignore", DeprecationWarning)
                from langmem import create_manage_memory_tool, create_search_memory_tool
        except ImportError as exc:  # pragma: no cover - the bench group installs it
            msg = "The LangMem rows need langmem: pip install langmem (in the 'test' group)."
            raise RuntimeError(msg) from exc
        store = InMemoryStore()
        namespace = ("memories",)
        manage = create_manage_memory_tool(namespace=namespace, store=store)
        search = create_search_memory_tool(namespace=namespace, store=store)
        for key, value in facts(n):
            manage.invoke({"content": f"{key}: {value}", "action": "create"})
        items = store.search(namespace, limit=max(n, 1))
        if style == "quick start":
            shown = f"## Memories\n<memories>\n{items}\n</memories>"
        else:
            shown = "## Memories\n" + "\n".join(f"{i.key}: {i.value['content']}" for i in items)
        system = SystemMessage(f"{SYSTEM}\n\n{shown}")
        return _schema_tokens([manage, search]), _tokens([system, *CONVERSATION[1:]]) - FLOOR

    return measure


SETUPS: tuple[tuple[str, str, Callable[[int], tuple[int, int]]], ...] = (
    ("contextchef compact (default)", "legacy", _contextchef("legacy", "compact")),
    ("contextchef compact", "unified", _contextchef("unified", "compact")),
    ("contextchef verbose", "legacy", _contextchef("legacy", "verbose")),
    ("contextchef verbose", "unified", _contextchef("unified", "verbose")),
    ("LangGraph store pattern", "none (the app writes)", _langgraph_pattern),
    ("LangMem, quick-start prompt", "manage + search", _langmem("quick start")),
    ("LangMem, one line per memory", "manage + search", _langmem("lines")),
)


def _content_tokens(n: int) -> float:
    return sum(len(key) + len(value) for key, value in facts(n)) / 4 / n


def measure(name: str, tools: str, fn: Callable[[int], tuple[int, int]]) -> dict[str, Any]:
    """Per-call tokens of one setup at every size."""
    figures = {n: fn(n) for n in SIZES}
    totals = {n: sum(figures[n]) for n in SIZES}
    per_entry = (totals[PER_ENTRY_SIZE] - totals[0]) / PER_ENTRY_SIZE - _content_tokens(
        PER_ENTRY_SIZE
    )
    return {
        "setup": name,
        "tools": tools,
        "schema_tokens": figures[0][0],
        "per_call": {str(n): totals[n] for n in SIZES},
        "messages": {str(n): figures[n][1] for n in SIZES},
        "per_entry_overhead": round(per_entry, 1),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure every setup at every size and print the table.

    Args:
        quick: Accepted like every bench's; counts take no longer to measure in full.

    Returns:
        `{"name": "tokens", "counter", "sizes", "rows", "goals"}`.
    """
    rows = [measure(name, tools, fn) for name, tools, fn in SETUPS]
    default = rows[0]
    three = default["per_call"]["3"]
    langmem = min(r["per_call"]["3"] for r in rows if r["setup"].startswith("LangMem"))
    goals = [
        goal("default, 3 facts (tokens per call)", three, f"<= {TOTAL_GOAL}", three <= TOTAL_GOAL),
        goal(
            "default, tokens per entry beyond key and value",
            default["per_entry_overhead"],
            f"<= {PER_ENTRY_GOAL:g}",
            default["per_entry_overhead"] <= PER_ENTRY_GOAL,
        ),
        goal("default below LangMem at 3 facts", langmem - three, "> 0", three < langmem),
    ]
    result = {
        "name": "tokens",
        "counter": "langchain_core count_tokens_approximately",
        "sizes": list(SIZES),
        "rows": rows,
        "goals": goals,
    }
    print_table(
        "Tokens memory adds to each model call",
        ["setup", "tools", "schemas", *[f"{n} facts" for n in SIZES], "per entry"],
        [
            [
                r["setup"],
                r["tools"],
                r["schema_tokens"],
                *[r["per_call"][str(n)] for n in SIZES],
                r["per_entry_overhead"],
            ]
            for r in rows
        ],
    )
    print_goals(goals)
    return result


def markdown_table(result: dict[str, Any]) -> str:
    """The README's table of `run()` figures, as Markdown."""
    sizes = result["sizes"]
    lines = [
        "| setup | `tools=` | tool schemas | "
        + " | ".join(f"{n} facts" for n in sizes)
        + " | per entry beyond key and value |",
        "|---|---|---" + "|---" * len(sizes) + "|---|",
    ]
    for r in result["rows"]:
        tools = f"`{r['tools']}`" if r["tools"] in ("legacy", "unified") else r["tools"]
        per_call = " | ".join(str(r["per_call"][str(n)]) for n in sizes)
        lines.append(
            f"| {r['setup']} | {tools} | {r['schema_tokens']} | {per_call} "
            f"| {r['per_entry_overhead']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table(run()))
