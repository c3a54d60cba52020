"""Prompt-cache reuse on the real request bodies of a scripted 50-turn tool-using conversation.

A "turn" is one model call. The script alternates user questions, AI tool calls, tool results
and AI answers; every third turn the AI's tool call writes memory through `chef.handle_tool`
(create, update, delete in rotation), so the memory block changes every third turn.

For every turn and strategy the request body is built offline, exactly as LangChain would send
it: `ChatAnthropic(...).bind_tools(tools)` / `ChatOpenAI(...)`, then the bound model's
`_get_request_payload(messages, **kwargs)`. The body is serialised in the order the provider
caches it: Anthropic `tools`, `system`, `messages`; OpenAI `tools`, `messages` (compact JSON,
UTF-8; a string content is written as the one text block it stands for in both APIs, so a
user turn that gains a block keeps its bytes). Caches match on prefixes, so the measure is:

    reused(t) = longest common byte prefix of body(t-1) and body(t)

and the physical limit it is compared with is:

    limit(t) = LCP(ref(t-1), ref(t)) + memory_bytes_in_system(t-1)

where `ref(t)` is the same strategy's body for the same conversation with NO memory data (the
same tools, system prompt and memory instruction, the raw history), so `LCP(ref(t-1), ref(t))`
is the serialised part of the previous turn's request that the new turn still contains
unchanged: everything before the newest turn's new content. `memory_bytes_in_system` adds
back the memory data a strategy placed in front of the history (`after_system`, baseline),
which a cache may legitimately reuse when memory did not change; memory placed after the
history (`before_history_tail`) can never be reused and adds nothing. Reuse is reported as
sum(reused) / sum(limit) over turns 1..49.

Strategies: the chef with `after_system`, the chef with `before_history_tail`, and a BASELINE
following LangMem's documented pattern: a system prompt rebuilt every turn as instructions +
"## Memories" + every stored value.

Block-granular reuse (Anthropic). Anthropic caches a prefix only where a breakpoint can sit,
at the end of a content block, so byte prefixes overstate what a cache can reuse
(`_cache_blocks`). Two measures, both against the same physical limit (computed on bodies
without `cache_control` markers, a string content written as the text block it stands for):

* `blocks` (the conversation above): reuse counted up to the last block boundary within the
  common prefix, the most any breakpoint placement could reuse. Memory concatenated into the
  user's text leaves no boundary after the user's own words; a separate block does.
* `agent` (`_cache_agent`): a 12-message tool-using `create_agent` session (30 model calls)
  with `AnthropicPromptCachingMiddleware` before `ContextChefMiddleware`, on the bodies the
  scripted `ChatAnthropic` builds. Reuse is what a cache read returns: the longest prefix an
  earlier request wrote at one of its breakpoints that ends at a block boundary at most 20
  blocks before one of this request's breakpoints.

Goals: `before_history_tail` keeps >= 99% of the limit on both providers and beats the
baseline; with the middleware's breakpoints, >= 99% at block granularity.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_anthropic import ChatAnthropic
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableBinding
from langchain_core.tools import BaseTool, tool
from langchain_openai import ChatOpenAI
from langgraph.store.memory import InMemoryStore

from benchmarks import _cache_agent, _cache_blocks
from benchmarks._timing import fmt_bytes, goal, print_goals, print_table
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.prompt import splice
from langchain_contextchef.render import memory_instruction

TURNS = 50
QUICK_TURNS = 8
AGENT_MESSAGES = 12
QUICK_AGENT_MESSAGES = 3
REUSE_GOAL = 0.99
STRATEGIES = ("after_system", "before_history_tail", "baseline")
PROVIDERS = ("anthropic", "openai")

SYSTEM_PROMPT = (
    "You are a coding assistant working inside the user's repository.\n"
    "Read before you write: search the docs or the code before proposing a change.\n"
    "Keep answers short, show the smallest diff that works, and name the files you touch.\n"
    "When a test fails, quote the failing assertion and explain the cause in one sentence.\n"
    "Never invent APIs; when unsure, say what you would check and check it with a tool.\n"
) * 4  # about 1.6 KB: a typical agent system prompt

SEED_MEMORIES = {
    "language": "The project is Python 3.11 with strict mypy.",
    "style": "Prefer small pure functions; no classes where a function will do.",
    "tests": "Every bug fix comes with a regression test under tests/unit_tests.",
    "format": "Run ruff format before committing.",
    "reviews": "The user wants pull requests under 300 changed lines.",
    "naming": "Modules are nouns, functions are verbs.",
}

QUESTIONS = [
    "Why does the date parser reject '2026-02-30'?",
    "Add a test for the empty-string case.",
    "Can we speed up the JSON loader?",
    "Rename load_all to read_all everywhere.",
    "What does the retry decorator do on timeouts?",
    "Split utils.py into two modules.",
    "Is the cache thread-safe?",
    "Write a docstring for parse_config.",
]


@tool
def search_docs(query: str) -> str:
    """Search the project documentation and return the best matching passage."""
    return f"Top passage for {query!r}."


@dataclass
class _Conversation:
    """One strategy's conversation: its chef (or None for the baseline) and raw history."""

    name: str
    chef: ContextChef
    history: list[BaseMessage] = field(default_factory=list)


def _bind(model: BaseChatModel, tools: list[BaseTool]) -> RunnableBinding[Any, Any]:
    bound = model.bind_tools(tools)
    if not isinstance(bound, RunnableBinding):
        raise TypeError("bind_tools did not return a RunnableBinding; the integration changed")
    return bound


def _payload(bound: RunnableBinding[Any, Any], messages: list[BaseMessage]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning means a placement the provider dislikes
        body: dict[str, Any] = bound.bound._get_request_payload(messages, **bound.kwargs)  # type: ignore[attr-defined]
    return body


def _message(message: dict[str, Any]) -> dict[str, Any]:
    # A string content is shorthand for one text block in both APIs; written as the block,
    # a message that gains a block later keeps its bytes.
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if isinstance(content, list):
        return {**message, "content": [_cache_blocks.normal(b) for b in content]}
    return message


def _serialise(provider: str, body: dict[str, Any]) -> bytes:
    # Provider cache order: tools, then system (Anthropic's top-level field), then messages.
    messages = [_message(m) for m in body["messages"]]
    parts = (
        [body.get("tools"), body.get("system"), messages]
        if provider == "anthropic"
        else [body.get("tools"), messages]
    )
    return json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _baseline_messages(values: list[str], history: list[BaseMessage]) -> list[BaseMessage]:
    # LangMem's documented pattern: one system message rebuilt from instructions + memories.
    system = f"{SYSTEM_PROMPT}\n## Memories\n" + "\n".join(f"- {v}" for v in values)
    return [SystemMessage(system), *history]


def _memory_values(chef: ContextChef) -> list[str]:
    return [e.value for e in chef.get_memory().list()]


def _build(conv: _Conversation) -> tuple[list[BaseMessage], list[BaseMessage], bool]:
    """(messages sent, reference messages without memory data, memory sits before history)."""
    full = [SystemMessage(SYSTEM_PROMPT), *conv.history]
    if conv.name == "baseline":
        sent = _baseline_messages(_memory_values(conv.chef), conv.history)
        conv.chef.compile(full)  # keep the turn clock and sweep identical across strategies
        return sent, _baseline_messages([], conv.history), True
    placement = conv.chef.memory_config.memory_placement if conv.chef.memory_config else None
    sent = conv.chef.compile(full).messages
    reference = splice(
        full,
        instruction=memory_instruction(conv.chef.tools_mode),
        memory_placement=placement or "after_system",
    )
    return sent, reference, placement == "after_system"


def _memory_call(turn: int) -> dict[str, Any]:
    """Every third turn's tool call: create, update or delete, in rotation."""
    step = turn // 3
    if step % 3 == 0:
        args: dict[str, Any] = {
            "key": f"decision_{step}",
            "value": f"Decision {step}: keep the public API unchanged until release {step}.",
            "description": "A project decision and its reason.",
        }
        return {"name": "create_memory", "args": args, "id": f"call_{turn}"}
    if step % 3 == 1:
        key = f"decision_{step - 1}"
        args = {"action": "update", "key": key, "value": f"Decision {step - 1} was revised."}
        return {"name": "modify_memory", "args": args, "id": f"call_{turn}"}
    args = {"action": "delete", "key": f"decision_{step - 2}"}
    return {"name": "modify_memory", "args": args, "id": f"call_{turn}"}


def _advance(conv: _Conversation, turn: int) -> bool:
    """Append the scripted model response (and tool results) for `turn`; True if memory changed."""
    history = conv.history
    if turn % 3 == 0:
        call = _memory_call(turn)
        history.append(AIMessage("", tool_calls=[call]))
        result = conv.chef.handle_tool(call)
        if not isinstance(result, ToolMessage) or result.status != "success":
            raise RuntimeError(f"scripted memory call failed at turn {turn}: {result!r}")
        history.append(result)
        return True
    if isinstance(history[-1], HumanMessage):
        call = {"name": "search_docs", "args": {"query": f"topic {turn}"}, "id": f"call_{turn}"}
        history.append(AIMessage("Let me check the docs.", tool_calls=[call]))
        history.append(ToolMessage(search_docs.invoke(call["args"]), tool_call_id=call["id"]))
        return False
    history.append(AIMessage(f"Here is what I found for turn {turn}: use the helper in utils."))
    history.append(HumanMessage(QUESTIONS[(turn // 2) % len(QUESTIONS)]))
    return False


def _new_conversation(name: str) -> _Conversation:
    placement = "after_system" if name == "baseline" else name
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(memory_placement=placement))  # type: ignore[arg-type]
    memory = chef.get_memory()
    for key, value in SEED_MEMORIES.items():
        memory.set(key, value, description=f"What the user said about {key}.")
    return _Conversation(name, chef, [HumanMessage(QUESTIONS[0])])


def _models() -> dict[str, Callable[[], BaseChatModel]]:
    return {
        "anthropic": lambda: ChatAnthropic(model="claude-sonnet-4-5", api_key="sk-test"),
        "openai": lambda: ChatOpenAI(model="gpt-4o-mini", api_key="sk-test"),
    }


def simulate(turns: int) -> dict[str, dict[str, dict[str, Any]]]:
    """Run the scripted conversation; return per strategy and provider the per-turn figures."""
    convs = {name: _new_conversation(name) for name in STRATEGIES}
    tools: list[BaseTool] = [*convs["after_system"].chef.tools, search_docs]
    models = {name: _bind(make(), tools) for name, make in _models().items()}
    out: dict[str, dict[str, dict[str, Any]]] = {
        s: {p: {"reused": [], "limit": [], "size": []} for p in PROVIDERS} for s in STRATEGIES
    }
    for per_provider in out.values():
        per_provider["anthropic"].update(block_reused=[], block_limit=[])
    previous: dict[tuple[str, str], tuple[bytes, bytes, int]] = {}
    blocks: dict[str, tuple[_cache_blocks.Serialised, _cache_blocks.Serialised, int]] = {}
    changed_turns: list[int] = []
    for turn in range(turns):
        for name, conv in convs.items():
            sent, reference, memory_first = _build(conv)
            for provider, model in models.items():
                sent_body, ref_body = _payload(model, sent), _payload(model, reference)
                if provider == "anthropic":
                    _block_figures(out[name]["anthropic"], blocks, name, sent_body, ref_body)
                body = _serialise(provider, sent_body)
                ref = _serialise(provider, ref_body)
                # Memory data ahead of the history = the bytes it adds to the body.
                in_front = len(body) - len(ref) if memory_first else 0
                if (name, provider) in previous:
                    last_body, last_ref, last_front = previous[name, provider]
                    figures = out[name][provider]
                    # Capped: past the limit only JSON punctuation (`},{"role":"`) can match.
                    limit = _cache_blocks.common_prefix(last_ref, ref) + last_front
                    figures["reused"].append(
                        min(_cache_blocks.common_prefix(last_body, body), limit)
                    )
                    figures["limit"].append(limit)
                    figures["size"].append(len(body))
                previous[name, provider] = (body, ref, in_front)
        changes = {_advance(conv, turn) for conv in convs.values()}
        if changes == {True}:
            changed_turns.append(turn + 1)  # the next turn's body is the first to see it
    for per_provider in out.values():
        for figures in per_provider.values():
            figures["memory_changed_turns"] = changed_turns
    return out


def _block_figures(
    figures: dict[str, Any],
    previous: dict[str, tuple[_cache_blocks.Serialised, _cache_blocks.Serialised, int]],
    name: str,
    sent_body: dict[str, Any],
    ref_body: dict[str, Any],
) -> None:
    """Block-granular reuse of one turn of the conversation (no breakpoints: the best one)."""
    sent = _cache_blocks.serialise(sent_body)
    ref = _cache_blocks.serialise(ref_body)
    in_front = len(sent.data) - len(ref.data) if name != "before_history_tail" else 0
    if name in previous:
        last_sent, last_ref, last_front = previous[name]
        limit = _cache_blocks.common_prefix(last_ref.data, ref.data) + last_front
        same = min(_cache_blocks.common_prefix(last_sent.data, sent.data), limit)
        figures["block_reused"].append(_cache_blocks.last_boundary(sent.ends, same))
        figures["block_limit"].append(limit)
    previous[name] = (sent, ref, in_front)


def simulate_agent(messages: int, placement: str) -> dict[str, list[int]]:
    """Reuse per model call of the agent session, at breakpoints, against the limit."""
    sent_bodies, ref_bodies = _cache_agent.run_session(
        placement,
        messages=messages,
        questions=QUESTIONS,
        system_prompt=SYSTEM_PROMPT,
        seeds=SEED_MEMORIES,
        tools=[search_docs],
    )
    cache = _cache_blocks.BreakpointCache()
    figures: dict[str, list[int]] = {"reused": [], "limit": [], "size": []}
    last: tuple[_cache_blocks.Serialised, int] | None = None
    for sent_body, ref_body in zip(sent_bodies, ref_bodies, strict=True):
        sent = _cache_blocks.serialise(sent_body)
        ref = _cache_blocks.serialise(ref_body)
        hit = cache.request(sent)
        if last is not None:
            last_ref, last_front = last
            limit = _cache_blocks.common_prefix(last_ref.data, ref.data) + last_front
            figures["reused"].append(min(hit, limit))
            figures["limit"].append(limit)
            figures["size"].append(len(sent.data))
        in_front = len(sent.data) - len(ref.data) if placement == "after_system" else 0
        last = (ref, in_front)
    return figures


def _block_rows(
    figures: dict[str, dict[str, dict[str, Any]]], agent: dict[str, dict[str, list[int]]]
) -> list[dict[str, Any]]:
    rows = []
    for strategy in STRATEGIES:
        f = figures[strategy]["anthropic"]
        rows.append(_block_row(f"{strategy} (conversation)", f["block_reused"], f["block_limit"]))
    for placement, f in agent.items():
        rows.append(
            _block_row(f"{placement} (agent, middleware breakpoints)", f["reused"], f["limit"])
        )
    return rows


def _block_row(name: str, reused: list[int], limit: list[int]) -> dict[str, Any]:
    worst = min(r / lim for r, lim in zip(reused, limit, strict=True) if lim)
    return {
        "strategy": name,
        "reuse": sum(reused) / sum(limit),
        "worst_turn": worst,
        "reused_bytes": sum(reused),
        "limit_bytes": sum(limit),
        "calls": len(reused) + 1,
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure prefix reuse per strategy and provider; print a table.

    Args:
        quick: A short conversation (smoke run).

    Returns:
        `{"name", "turns", "rows", "goals", "notes"}`; each row has `strategy`, `provider`,
        `reuse` (fraction of the limit), `worst_turn`, `reused_bytes`, `limit_bytes` and
        `sent_bytes`.
    """
    turns = QUICK_TURNS if quick else TURNS
    figures = simulate(turns)
    messages = QUICK_AGENT_MESSAGES if quick else AGENT_MESSAGES
    agent = {p: simulate_agent(messages, p) for p in ("after_system", "before_history_tail")}
    block_rows = _block_rows(figures, agent)
    rows: list[dict[str, Any]] = []
    for strategy in STRATEGIES:
        for provider in PROVIDERS:
            f = figures[strategy][provider]
            reused, limit = sum(f["reused"]), sum(f["limit"])
            worst = min(r / lim for r, lim in zip(f["reused"], f["limit"], strict=True))
            rows.append(
                {
                    "strategy": strategy,
                    "provider": provider,
                    "reuse": reused / limit,
                    "worst_turn": worst,
                    "reused_bytes": reused,
                    "limit_bytes": limit,
                    "sent_bytes": sum(f["size"]),
                }
            )
    by = {(r["strategy"], r["provider"]): r for r in rows}
    goals: list[dict[str, Any]] = []
    for provider in PROVIDERS:
        tail = by["before_history_tail", provider]["reuse"]
        base = by["baseline", provider]["reuse"]
        goals.append(
            goal(
                f"before_history_tail reuse ({provider})",
                tail,
                f">= {REUSE_GOAL:.0%} of the limit",
                tail >= REUSE_GOAL,
            )
        )
        goals.append(
            goal(
                f"before_history_tail beats baseline ({provider})",
                tail - base,
                "> 0 (difference of reuse fractions)",
                tail > base,
            )
        )
    agent_tail = next(
        r for r in block_rows if r["strategy"].startswith("before_history_tail (agent")
    )
    goals.append(
        goal(
            "before_history_tail block reuse, middleware breakpoints (anthropic)",
            agent_tail["reuse"],
            f">= {REUSE_GOAL:.0%} of the limit",
            agent_tail["reuse"] >= REUSE_GOAL,
        )
    )
    notes = [
        f"{turns} model calls; memory changed before turns "
        f"{figures['after_system']['anthropic']['memory_changed_turns']}.",
        "reused(t) = longest common byte prefix of consecutive request bodies "
        "(Anthropic: tools, system, messages; OpenAI: tools, messages).",
        "limit(t) = common prefix of the same strategy's memory-free bodies (what the new turn "
        "still contains of the previous request) + memory bytes placed before the history.",
        "reuse = sum(reused) / sum(limit) over turns 1..N-1; worst = lowest single turn.",
        "block granularity: reuse ends at a content-block boundary; (conversation) counts the "
        "last boundary in the common prefix, (agent) what a cache read at the middleware's "
        f"breakpoints returns over a {messages}-message create_agent session.",
    ]
    print_table(
        "Prompt-cache reuse (share of the cacheable limit kept from the previous turn)",
        ["strategy", "provider", "reuse", "worst turn", "reused", "limit", "sent"],
        [
            [
                r["strategy"],
                r["provider"],
                f"{r['reuse']:.2%}",
                f"{r['worst_turn']:.2%}",
                fmt_bytes(r["reused_bytes"]),
                fmt_bytes(r["limit_bytes"]),
                fmt_bytes(r["sent_bytes"]),
            ]
            for r in rows
        ],
    )
    print_table(
        "Prompt-cache reuse at content-block granularity (Anthropic)",
        ["strategy", "calls", "reuse", "worst turn", "reused", "limit"],
        [
            [
                r["strategy"],
                r["calls"],
                f"{r['reuse']:.2%}",
                f"{r['worst_turn']:.2%}",
                fmt_bytes(r["reused_bytes"]),
                fmt_bytes(r["limit_bytes"]),
            ]
            for r in block_rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {
        "name": "cache",
        "turns": turns,
        "rows": rows,
        "block_rows": block_rows,
        "goals": goals,
        "notes": notes,
    }


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
