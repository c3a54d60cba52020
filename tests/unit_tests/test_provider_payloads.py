"""Spliced messages become valid Anthropic and OpenAI request payloads, offline.

Each case renders real memory, dynamic state and implicit context, splices them, and asks the
LangChain integration for the request body it would send (`_get_request_payload`, no network).
The assertions read the payload itself: where the memory text ended up, that nothing warned,
and (for Anthropic) that the cacheable prefix is byte-identical when only memory changes.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableBinding
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.prompt import splice
from langchain_contextchef.render import (
    ANCHOR_LINE,
    memory_instruction,
    render_dynamic_state,
    render_implicit_context,
    render_memory_block,
)

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)


@tool
def get_weather(city: str) -> str:
    """Look up the weather for a city."""
    return "rain"


def entries(*pairs: tuple[str, str]) -> list[MemoryEntry]:
    return [
        MemoryEntry(key=k, value=v, description=f"about {k}", created_at=NOW, updated_at=NOW)
        for k, v in pairs
    ]


INSTRUCTION = memory_instruction("legacy")
MEMORY = render_memory_block(
    entries(("lang", "Python"), ("style", 'functional <b> & "q" ]]> \x00 tab\there')),
    allowed_keys=["lang", "style"],
)
STATE = render_dynamic_state({"active_file": "auth.py", "todo": ["x", "y"]})
IMPLICIT = render_implicit_context("<related_code>fn()</related_code>")

# --- histories ---------------------------------------------------------------------------


def system_only() -> list[BaseMessage]:
    return [SystemMessage("You are helpful.")]


def ends_with_user() -> list[BaseMessage]:
    return [
        SystemMessage("You are helpful."),
        HumanMessage("Hello."),
        AIMessage("Hi!"),
        HumanMessage("do it"),
    ]


def ends_with_tool() -> list[BaseMessage]:
    return [
        SystemMessage("You are helpful."),
        HumanMessage("Weather in Oslo?"),
        AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo"}, "id": "c1"}]),
        ToolMessage("rain", tool_call_id="c1"),
    ]


def ends_with_prefill() -> list[BaseMessage]:
    return [SystemMessage("You are helpful."), HumanMessage("Answer in JSON."), AIMessage("{")]


def user_blocks() -> list[BaseMessage]:
    return [
        SystemMessage("You are helpful."),
        HumanMessage([{"type": "text", "text": "look"}, {"type": "text", "text": "again"}]),
    ]


HISTORIES: dict[str, Callable[[], list[BaseMessage]]] = {
    "system_only": system_only,
    "ends_with_user": ends_with_user,
    "ends_with_tool": ends_with_tool,
    "ends_with_prefill": ends_with_prefill,
    "user_blocks": user_blocks,
}

# --- models and payload helpers ----------------------------------------------------------


def anthropic() -> BaseChatModel:
    return ChatAnthropic(model="claude-sonnet-4-5", api_key="sk-test")


def openai() -> BaseChatModel:
    return ChatOpenAI(model="gpt-4o-mini", api_key="sk-test")


def payload_for(model: BaseChatModel, messages: list[BaseMessage]) -> dict[str, Any]:
    """The request body the integration would send, with `get_weather` bound, no network."""
    bound = model.bind_tools([get_weather])
    assert isinstance(bound, RunnableBinding)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body: dict[str, Any] = bound.bound._get_request_payload(messages, **bound.kwargs)  # type: ignore[attr-defined]
    assert [str(w.message) for w in caught] == []
    return body


def texts(content: Any) -> list[str]:
    """Text pieces of a payload message content (a string or a list of blocks)."""
    if content is None:
        return []
    if isinstance(content, str):
        return [content]
    return [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"]


def anthropic_system(body: dict[str, Any]) -> list[str]:
    return texts(body.get("system"))


def last_user(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in reversed(messages) if m["role"] == "user")


def spliced(history: str, memory_placement: str, state_placement: str) -> list[BaseMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = splice(
            HISTORIES[history](),
            instruction=INSTRUCTION,
            memory_block=MEMORY,
            dynamic_state=STATE,
            implicit_context=IMPLICIT,
            memory_placement=memory_placement,  # type: ignore[arg-type]
            dynamic_state_placement=state_placement,  # type: ignore[arg-type]
        )
    assert caught == []
    return out


def expected_tail(memory_placement: str, state_placement: str) -> str:
    parts = []
    if memory_placement == "before_history_tail":
        parts.append(MEMORY)
    if state_placement == "last_user":
        parts += [STATE, IMPLICIT, ANCHOR_LINE]
    return "\n\n".join(parts)


def expected_system(memory_placement: str, state_placement: str) -> list[str]:
    top = [
        "You are helpful.",
        f"{INSTRUCTION}\n\n{MEMORY}" if memory_placement == "after_system" else INSTRUCTION,
    ]
    if state_placement == "system":
        top.append(f"{STATE}\n\n{IMPLICIT}")
    return top


COMBOS = [
    pytest.param(h, mp, sp, id=f"{h}-{mp}-{sp}")
    for h in HISTORIES
    for mp in ("after_system", "before_history_tail")
    for sp in ("last_user", "system")
]


# --- every placement x history, on both providers ----------------------------------------


@pytest.mark.parametrize(("history", "memory_placement", "state_placement"), COMBOS)
def test_anthropic_payload_puts_memory_where_the_placement_says(
    history: str, memory_placement: str, state_placement: str
) -> None:
    body = payload_for(anthropic(), spliced(history, memory_placement, state_placement))
    system = anthropic_system(body)
    messages: list[dict[str, Any]] = body["messages"]

    # Every leading system message, ours included, lands in the top-level system field.
    assert system == expected_system(memory_placement, state_placement)
    assert all(m["role"] in ("user", "assistant") for m in messages)
    message_text = [t for m in messages for t in texts(m["content"])]
    assert sum(t.count(MEMORY) for t in system + message_text) == 1

    tail = expected_tail(memory_placement, state_placement)
    if not tail:
        # Nothing for the tail: the conversation is sent exactly as given.
        assert not any(ANCHOR_LINE in t for t in message_text)
        return
    user = last_user(messages)
    user_texts = texts(user["content"])
    assert user_texts[-1].endswith(tail)
    if history in ("ends_with_tool", "user_blocks", "system_only"):
        assert user_texts[-1] == tail  # its own text block or message
    if history == "ends_with_tool":
        # The tool result and the new user text share one user turn, result first.
        assert [b["type"] for b in user["content"]] == ["tool_result", "text"]
    if history == "ends_with_prefill":
        assert messages[-1] == {"role": "assistant", "content": "{"}
    else:
        assert messages[-1] is user


@pytest.mark.parametrize(("history", "memory_placement", "state_placement"), COMBOS)
def test_openai_payload_puts_memory_where_the_placement_says(
    history: str, memory_placement: str, state_placement: str
) -> None:
    body = payload_for(openai(), spliced(history, memory_placement, state_placement))
    messages: list[dict[str, Any]] = body["messages"]
    top = expected_system(memory_placement, state_placement)

    assert [m["role"] for m in messages[: len(top)]] == ["system"] * len(top)
    assert [m["content"] for m in messages[: len(top)]] == top
    assert all(m["role"] != "system" for m in messages[len(top) :])
    all_text = [t for m in messages for t in texts(m["content"])]
    assert sum(t.count(MEMORY) for t in all_text) == 1

    tail = expected_tail(memory_placement, state_placement)
    if not tail:
        assert not any(ANCHOR_LINE in t for t in all_text)
        return
    user = last_user(messages)
    assert texts(user["content"])[-1].endswith(tail)
    if history == "ends_with_tool":
        assert [m["role"] for m in messages[-2:]] == ["tool", "user"]
        assert user["content"] == tail
    if history == "ends_with_prefill":
        assert messages[-1]["role"] == "assistant"
        assert messages[-1]["content"] == "{"
    if history == "user_blocks":
        assert user["content"][-1] == {"type": "text", "text": tail}


# --- cache stability on the real Anthropic payload ---------------------------------------

OLD = render_memory_block(entries(("lang", "Python")))
NEW = render_memory_block(entries(("lang", "Rust"), ("editor", "vim")))


def cacheable_parts(body: dict[str, Any]) -> tuple[str, str, str]:
    """The system field, the tools and every message before the last user turn, as JSON."""
    before_last = body["messages"][:-1]
    return (
        json.dumps(body.get("system"), sort_keys=True),
        json.dumps(body.get("tools"), sort_keys=True),
        json.dumps(before_last, sort_keys=True),
    )


@pytest.mark.parametrize("history", ["ends_with_user", "ends_with_tool", "user_blocks"])
def test_before_history_tail_keeps_the_anthropic_prefix_byte_identical(history: str) -> None:
    bodies = [
        payload_for(
            anthropic(),
            splice(
                HISTORIES[history](),
                instruction=INSTRUCTION,
                memory_block=block,
                dynamic_state=STATE,
                memory_placement="before_history_tail",
            ),
        )
        for block in (OLD, NEW)
    ]
    assert OLD != NEW
    assert cacheable_parts(bodies[0]) == cacheable_parts(bodies[1])
    # Only the last user turn differs, and it holds the new memory.
    assert bodies[0]["messages"][-1] != bodies[1]["messages"][-1]
    assert NEW in texts(bodies[1]["messages"][-1]["content"])[-1]


@pytest.mark.parametrize("history", ["ends_with_user", "ends_with_tool", "user_blocks"])
def test_after_system_changes_the_anthropic_system_field_when_memory_changes(
    history: str,
) -> None:
    bodies = [
        payload_for(
            anthropic(),
            splice(HISTORIES[history](), instruction=INSTRUCTION, memory_block=block),
        )
        for block in (OLD, NEW)
    ]
    old_parts, new_parts = cacheable_parts(bodies[0]), cacheable_parts(bodies[1])
    assert old_parts[0] != new_parts[0]  # system differs: every cache breakpoint misses
    assert old_parts[1] == new_parts[1]
    assert NEW in anthropic_system(bodies[1])[1]


def test_unified_vocabulary_and_instruction_none_also_build_payloads() -> None:
    block = render_memory_block(entries(("lang", "Python")), vocabulary="unified")
    for instruction in (memory_instruction("unified"), None):
        messages = splice(
            ends_with_tool(),
            instruction=instruction,
            memory_block=block,
            implicit_context=IMPLICIT,
            memory_placement="before_history_tail",
            dynamic_state_placement="system",
        )
        for model in (anthropic(), openai()):
            text = json.dumps(payload_for(model, messages), ensure_ascii=False)
            assert 'description=\\"about lang\\">Python</entry>' in text
            assert ("context://memory/<key>" in text) == (instruction is not None)
