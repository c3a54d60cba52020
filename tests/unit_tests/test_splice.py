"""Splice: where the instruction, memory, dynamic state and anchor land; inputs never change."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from langchain_contextchef.prompt import splice
from langchain_contextchef.render import ANCHOR_LINE
from langchain_contextchef.splice import place

INSTRUCTION = "INSTRUCTION"
MEMORY = "MEMORY-BLOCK"
STATE = "<dynamic_state>\n  <task>init</task>\n</dynamic_state>"
IMPLICIT = "<implicit_context>\nRAG\n</implicit_context>"


def sys_only() -> list[BaseMessage]:
    return [SystemMessage("sys")]


def ends_with_user() -> list[BaseMessage]:
    return [SystemMessage("sys"), HumanMessage("hi"), AIMessage("hello"), HumanMessage("do it")]


def ends_with_tool() -> list[BaseMessage]:
    return [
        SystemMessage("sys"),
        HumanMessage("weather?"),
        AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo"}, "id": "c1"}]),
        ToolMessage("rain", tool_call_id="c1"),
    ]


def ends_with_prefill() -> list[BaseMessage]:
    return [SystemMessage("sys"), HumanMessage("answer in JSON"), AIMessage("{")]


def user_blocks() -> list[BaseMessage]:
    return [
        SystemMessage("sys"),
        HumanMessage(
            [{"type": "text", "text": "look"}, {"type": "text", "text": "again"}],
            id="u1",
            name="alice",
        ),
    ]


HISTORIES: dict[str, Callable[[], list[BaseMessage]]] = {
    "system_only": sys_only,
    "ends_with_user": ends_with_user,
    "ends_with_tool": ends_with_tool,
    "ends_with_prefill": ends_with_prefill,
    "user_blocks": user_blocks,
}


def blocks(*texts: str) -> list[str | dict[str, str]]:
    """Text content blocks, one per text: how the tail sits beside the user's own content."""
    return [{"type": "text", "text": text} for text in texts]


def text_of(message: BaseMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(b["text"] for b in message.content if isinstance(b, dict))


# --- the system layer --------------------------------------------------------------------


def test_after_system_puts_instruction_and_block_in_one_system_message() -> None:
    out = splice(ends_with_user(), instruction=INSTRUCTION, memory_block=MEMORY)
    assert [m.type for m in out] == ["system", "system", "human", "ai", "human"]
    assert out[1].content == f"{INSTRUCTION}\n\n{MEMORY}"
    assert out[4].content == "do it"


def test_after_system_with_empty_block_keeps_only_the_instruction() -> None:
    out = splice(ends_with_user(), instruction=INSTRUCTION)
    assert out[1].content == INSTRUCTION
    assert out[2:] == ends_with_user()[1:]


def test_before_history_tail_keeps_the_instruction_on_top_even_without_entries() -> None:
    out = splice(ends_with_user(), instruction=INSTRUCTION, memory_placement="before_history_tail")
    assert out[1] == SystemMessage(INSTRUCTION)
    assert out[-1].content == "do it"


def test_no_instruction_and_nothing_to_add_returns_an_equal_copy() -> None:
    history = ends_with_user()
    out = splice(history, instruction=None)
    assert out == history
    assert out is not history


def test_memory_message_goes_after_every_leading_system_message() -> None:
    history = [SystemMessage("a"), SystemMessage("b"), HumanMessage("q")]
    out = splice(history, instruction=INSTRUCTION, memory_block=MEMORY)
    assert [m.content for m in out[:3]] == ["a", "b", f"{INSTRUCTION}\n\n{MEMORY}"]


def test_without_a_system_prompt_memory_message_comes_first() -> None:
    out = splice([HumanMessage("q")], instruction=INSTRUCTION, memory_block=MEMORY)
    assert out == [SystemMessage(f"{INSTRUCTION}\n\n{MEMORY}"), HumanMessage("q")]


def test_later_system_messages_are_not_part_of_the_leading_run() -> None:
    history = [SystemMessage("a"), HumanMessage("q"), SystemMessage("late")]
    out = splice(history, instruction=INSTRUCTION)
    assert [m.content for m in out] == ["a", INSTRUCTION, "q", "late"]


def test_system_state_placement_sits_right_after_the_memory_message() -> None:
    out = splice(
        ends_with_user(),
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        dynamic_state=STATE,
        implicit_context=IMPLICIT,
        memory_placement="before_history_tail",
        dynamic_state_placement="system",
    )
    assert [m.type for m in out[:3]] == ["system", "system", "system"]
    assert out[1].content == INSTRUCTION
    assert out[2].content == f"{STATE}\n\n{IMPLICIT}"
    # Memory still goes to the tail, and memory alone brings no anchor.
    assert out[-1].content == blocks("do it", MEMORY)


def test_system_state_placement_without_memory_follows_the_system_prompt() -> None:
    out = splice(
        ends_with_user(), instruction=None, dynamic_state=STATE, dynamic_state_placement="system"
    )
    assert [m.content for m in out[:2]] == ["sys", STATE]
    assert out[-1].content == "do it"


# --- the tail ----------------------------------------------------------------------------


def test_tail_order_is_memory_state_implicit_anchor() -> None:
    out = splice(
        ends_with_user(),
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        dynamic_state=STATE,
        implicit_context=IMPLICIT,
        memory_placement="before_history_tail",
    )
    # The user's text stays a block of its own; the tail is one block after it.
    assert out[-1].content == blocks("do it", "\n\n".join([MEMORY, STATE, IMPLICIT, ANCHOR_LINE]))


def test_memory_alone_never_adds_the_anchor() -> None:
    out = splice(
        ends_with_user(),
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    assert out[-1].content == blocks("do it", MEMORY)


@pytest.mark.parametrize(("state", "implicit"), [(STATE, ""), ("", IMPLICIT)])
def test_either_state_part_adds_the_anchor(state: str, implicit: str) -> None:
    out = splice(ends_with_user(), instruction=None, dynamic_state=state, implicit_context=implicit)
    assert out[-1].content == blocks("do it", f"{state or implicit}\n\n{ANCHOR_LINE}")


def test_after_tool_result_a_new_user_message_follows_it() -> None:
    history = ends_with_tool()
    out = splice(
        history,
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    assert out[2:5] == history[1:4]  # earlier turns untouched
    assert out[5] == HumanMessage(MEMORY)
    assert len(out) == 6


def test_prefill_stays_last_and_tail_goes_to_the_user_before_it() -> None:
    out = splice(ends_with_prefill(), instruction=None, dynamic_state=STATE)
    assert out[-1] == AIMessage("{")
    assert out[-2].content == blocks("answer in JSON", f"{STATE}\n\n{ANCHOR_LINE}")


def test_without_user_or_tool_a_new_user_turn_goes_before_the_prefill() -> None:
    history = [SystemMessage("sys"), AIMessage("{")]
    out = splice(
        history,
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        dynamic_state=STATE,
        memory_placement="before_history_tail",
        dynamic_state_placement="system",
    )
    assert [m.type for m in out] == ["system", "system", "system", "human", "ai"]
    assert out[3] == HumanMessage(MEMORY)


def test_only_a_system_prompt_gets_a_new_user_turn_at_the_end() -> None:
    out = splice(sys_only(), instruction=None, dynamic_state=STATE)
    assert out == [SystemMessage("sys"), HumanMessage(f"{STATE}\n\n{ANCHOR_LINE}")]


def test_list_content_gets_a_new_text_block_and_keeps_id_and_name() -> None:
    out = splice(
        user_blocks(),
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    last = out[-1]
    assert isinstance(last, HumanMessage)
    assert last.content == [
        {"type": "text", "text": "look"},
        {"type": "text", "text": "again"},
        {"type": "text", "text": MEMORY},
    ]
    assert (last.id, last.name) == ("u1", "alice")


def test_copied_user_message_keeps_extra_fields() -> None:
    original = HumanMessage(
        "q", id="m1", additional_kwargs={"k": 1}, response_metadata={"r": 2}, name="n"
    )
    (out,) = splice([original], instruction=None, implicit_context=IMPLICIT)
    assert isinstance(out, HumanMessage)
    assert (out.id, out.name, out.additional_kwargs, out.response_metadata) == (
        "m1",
        "n",
        {"k": 1},
        {"r": 2},
    )


def test_empty_user_content_takes_the_tail_without_leading_blank_lines() -> None:
    (out,) = splice([HumanMessage("")], instruction=None, dynamic_state=STATE)
    assert out.content == blocks(f"{STATE}\n\n{ANCHOR_LINE}")


def test_unknown_placements_are_rejected_with_the_choices() -> None:
    with pytest.raises(ValueError, match="'after_system', 'before_history_tail'"):
        splice([], instruction=None, memory_placement="top")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'last_user', 'system'"):
        splice([], instruction=None, dynamic_state_placement="tail")  # type: ignore[arg-type]


# --- purity ------------------------------------------------------------------------------


@pytest.mark.parametrize("history", list(HISTORIES))
@pytest.mark.parametrize("memory_placement", ["after_system", "before_history_tail"])
@pytest.mark.parametrize("state_placement", ["last_user", "system"])
def test_splice_never_mutates_its_input(
    history: str, memory_placement: str, state_placement: str
) -> None:
    messages = HISTORIES[history]()
    snapshot = copy.deepcopy(messages)
    contents = [m.content for m in messages]
    content_copies = [copy.copy(c) for c in contents]
    out = splice(
        messages,
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        dynamic_state=STATE,
        implicit_context=IMPLICIT,
        memory_placement=memory_placement,  # type: ignore[arg-type]
        dynamic_state_placement=state_placement,  # type: ignore[arg-type]
    )
    assert messages == snapshot
    assert [m.model_dump() for m in messages] == [m.model_dump() for m in snapshot]
    # The content objects (lists included) are the same objects, unchanged.
    assert all(m.content is c for m, c in zip(messages, contents, strict=True))
    assert contents == content_copies
    # The output holds each added part exactly once (what the caller passed stayed intact).
    for part in (INSTRUCTION, MEMORY, STATE, IMPLICIT):
        assert sum(text_of(m).count(part) for m in out) == 1, part
    # The anchor line follows state in the tail only.
    anchors = sum(text_of(m).count(ANCHOR_LINE) for m in out)
    assert anchors == (1 if state_placement == "last_user" else 0)
    assert len(messages) == len(snapshot)


@pytest.mark.parametrize("history", list(HISTORIES))
def test_splice_is_deterministic(history: str) -> None:
    kwargs = {
        "instruction": INSTRUCTION,
        "memory_block": MEMORY,
        "dynamic_state": STATE,
        "memory_placement": "before_history_tail",
    }
    first = splice(HISTORIES[history](), **kwargs)  # type: ignore[arg-type]
    second = splice(HISTORIES[history](), **kwargs)  # type: ignore[arg-type]
    assert [m.model_dump(exclude={"id"}) for m in first] == [
        m.model_dump(exclude={"id"}) for m in second
    ]
    # Exactly one memory block and one anchor are added, wherever they land.
    assert sum(text_of(m).count(MEMORY) for m in first) == 1
    assert sum(text_of(m).count(ANCHOR_LINE) for m in first) == 1


# --- the tail's layout ---------------------------------------------------------------------


def test_the_tail_says_which_block_is_volatile_and_which_is_the_users_own() -> None:
    text_user = place(
        ends_with_user(),
        instruction=None,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    assert text_user.tail is not None
    assert (text_user.tail.index, text_user.tail.block, text_user.tail.stable_block) == (3, 1, 0)
    listed = place(
        user_blocks(), instruction=None, memory_block=MEMORY, memory_placement="before_history_tail"
    )
    assert listed.tail is not None and (listed.tail.block, listed.tail.stable_block) == (2, 1)
    empty = place(
        [HumanMessage("")],
        instruction=None,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    assert empty.tail is not None and (empty.tail.block, empty.tail.stable_block) == (0, None)
    after_tool = place(
        ends_with_tool(),
        instruction=None,
        memory_block=MEMORY,
        memory_placement="before_history_tail",
    )
    assert after_tool.tail is not None and after_tool.tail.own_message
    assert (after_tool.tail.block, after_tool.tail.stable_block) == (None, None)
    assert after_tool.messages[after_tool.tail.index].content == MEMORY


# --- one system message ----------------------------------------------------------------------


def test_merged_layout_joins_memory_to_the_developers_system_message() -> None:
    history = [SystemMessage("sys", id="s1", name="dev"), HumanMessage("q")]
    spliced = place(history, instruction=INSTRUCTION, memory_block=MEMORY, system_layout="merged")
    merged, user = spliced.messages
    assert merged.content == f"sys\n\n{INSTRUCTION}\n\n{MEMORY}"
    assert (merged.type, merged.id, merged.name) == ("system", "s1", "dev")
    assert user is history[1] and spliced.system_end == 1
    assert history[0].content == "sys"  # the caller's message is untouched


def test_merged_layout_takes_every_system_part_and_keeps_blocks_as_blocks() -> None:
    history = [
        SystemMessage([{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}}]),
        SystemMessage("b"),
        HumanMessage("q"),
    ]
    out = splice(
        history,
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        dynamic_state=STATE,
        dynamic_state_placement="system",
        system_layout="merged",
    )
    assert [m.type for m in out] == ["system", "human"]
    assert out[0].content == [
        {"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}},
        *blocks("b", f"{INSTRUCTION}\n\n{MEMORY}", STATE),
    ]


@pytest.mark.parametrize("memory_placement", ["after_system", "before_history_tail"])
def test_merged_layout_without_a_system_prompt_is_one_memory_message(memory_placement: str) -> None:
    out = splice(
        [HumanMessage("q")],
        instruction=INSTRUCTION,
        memory_block=MEMORY,
        memory_placement=memory_placement,  # type: ignore[arg-type]
        system_layout="merged",
    )
    assert sum(isinstance(m, SystemMessage) for m in out) == 1
    assert out[0].type == "system" and out[0].content.startswith(INSTRUCTION)


def test_merged_layout_with_nothing_to_add_leaves_the_system_messages_alone() -> None:
    history = [SystemMessage("a"), SystemMessage("b"), HumanMessage("q")]
    assert splice(history, instruction=None, system_layout="merged") == history


def test_unknown_system_layout_is_rejected_with_the_choices() -> None:
    with pytest.raises(ValueError, match="'separate', 'merged'"):
        splice([], instruction=None, system_layout="single")  # type: ignore[arg-type]
