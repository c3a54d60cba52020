"""What memory adds to every model call, in tokens: tool schemas plus the compiled memory.

For each tools vocabulary (`legacy`, `unified`) and each placement (`after_system`,
`before_history_tail`), a chef compiles one short conversation (a system prompt and a user
turn) three times over: with memory disabled (the floor), with an empty memory, and with three
short facts the model saved through its own tool. Tokens are LangChain's
`count_tokens_approximately` (about four characters per token, plus a few per message), the
counter the budgets use by default; a provider's tokenizer gives somewhat different figures.

The figures are counts, not timings, so `quick` changes nothing. The README's guide
("Which tools, which placement, what it costs") prints `markdown_table(run())`, and a test
checks that it still matches.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import print_table
from langchain_contextchef import ContextChef, MemoryConfig

Vocabulary = Literal["legacy", "unified"]
Placement = Literal["after_system", "before_history_tail"]
VOCABULARIES: tuple[Vocabulary, ...] = ("legacy", "unified")
PLACEMENTS: tuple[Placement, ...] = ("after_system", "before_history_tail")

CONVERSATION: tuple[BaseMessage, ...] = (
    SystemMessage("You are a coding assistant."),
    HumanMessage("Write me a function that parses a date."),
)
"""The conversation every figure is measured on."""

FACTS: tuple[tuple[str, str, str], ...] = (
    ("user_name", "Sam", "What to call the user"),
    ("language", "Python with type hints", "The language the user writes"),
    ("deploy_rule", "never deploy on Fridays", "When the user ships"),
)
"""Three short facts, as a model saves them: key, value, description."""


def _tokens(messages: list[BaseMessage]) -> int:
    return count_tokens_approximately(messages)


def _save_facts(chef: ContextChef) -> None:
    for index, (key, value, description) in enumerate(FACTS):
        call = {
            "name": "create_memory",
            "args": {"key": key, "value": value, "description": description},
            "id": f"call_{index}",
        }
        reply = chef.handle_tool(call)
        text = reply if isinstance(reply, str) else reply.text
        if not text.startswith("Created"):
            msg = f"the fact {key!r} was not saved: {text}"
            raise RuntimeError(msg)


def measure(tools: Vocabulary, placement: Placement) -> dict[str, Any]:
    """Tokens one model call carries for memory, for one vocabulary and one placement."""
    floor = _tokens(list(CONVERSATION))
    config = MemoryConfig(memory_placement=placement)
    chef = ContextChef(store=InMemoryStore(), memory=config, tools=tools)
    empty = chef.compile(list(CONVERSATION))
    _save_facts(chef)
    full = chef.compile(list(CONVERSATION))
    schemas = count_tokens_approximately([], tools=list(full.tools))
    with_facts = _tokens(list(full.messages)) - floor
    return {
        "tools": tools,
        "placement": placement,
        "tool_names": [tool.name for tool in full.tools],
        "schema_tokens": schemas,
        "empty_memory_tokens": _tokens(list(empty.messages)) - floor,
        "three_facts_tokens": with_facts,
        "per_call_tokens": schemas + with_facts,
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure every vocabulary and placement and print the table.

    Args:
        quick: Accepted like every bench's; counts take no longer to measure in full.

    Returns:
        `{"name": "tokens", "rows": [...], "facts": 3, "counter": ...}`.
    """
    rows = [measure(tools, placement) for tools in VOCABULARIES for placement in PLACEMENTS]
    result = {
        "name": "tokens",
        "counter": "langchain_core count_tokens_approximately",
        "facts": len(FACTS),
        "rows": rows,
    }
    print_table(
        "Tokens memory adds to each model call (3 short facts)",
        ["tools", "placement", "tool schemas", "empty memory", "3 facts", "per call"],
        [
            [
                r["tools"],
                r["placement"],
                r["schema_tokens"],
                r["empty_memory_tokens"],
                r["three_facts_tokens"],
                r["per_call_tokens"],
            ]
            for r in rows
        ],
    )
    return result


def markdown_table(result: dict[str, Any]) -> str:
    """The README's table of `run()` figures, as Markdown."""
    lines = [
        "| `tools=` | `memory_placement=` | tool schemas | memory, empty | memory, 3 facts "
        "| per call with 3 facts |",
        "|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| `{r['tools']}` | `{r['placement']}` | {r['schema_tokens']} "
            f"| {r['empty_memory_tokens']} | {r['three_facts_tokens']} | {r['per_call_tokens']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table(run()))
