"""`langchain_contextchef.testing.ScriptedChatModel`: the offline model of the demo and notebooks.

Its replies are read by tests elsewhere (the demo, the notebooks, the evaluation harness), so
the rules are pinned here: what a sentence yields, which tool each vocabulary gets, and how the
answer follows the `<memory>` block of a prompt compiled by a real `ContextChef`.
"""

from __future__ import annotations

from typing import Literal

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef
from langchain_contextchef.testing import Preference, ScriptedChatModel, extract_preferences


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(p.key, p.value) for p in extract_preferences(text)]


def test_extract_preferences_reads_each_kind_of_statement() -> None:
    text = "I'm Sam, I write Python with type hints, keep answers short, and I never deploy on Fridays."
    assert _pairs(text) == [
        ("user_name", "Sam"),
        ("language", "Python"),
        ("code_style", "type hints"),
        ("answer_length", "short"),
        ("deploy_rule", "never deploy on Fridays"),
    ]
    assert all(isinstance(p, Preference) and p.description for p in extract_preferences(text))


def test_extract_preferences_ignores_questions_and_keeps_the_first_value_per_key() -> None:
    assert _pairs("Should I write Python? When should I ship?") == []
    assert _pairs("I write Go. I write Rust.") == [("language", "Go")]
    assert _pairs("I usually deploy on Tuesdays") == [("deploy_rule", "deploy on Tuesdays")]
    assert _pairs("Hello there") == []


def _chef(tools: Literal["legacy", "unified"] = "legacy") -> ContextChef:
    return ContextChef(store=InMemoryStore(), tools=tools)


def test_a_statement_becomes_create_calls_and_a_restatement_becomes_nothing() -> None:
    chef = _chef()
    model = ScriptedChatModel().bind_tools(chef.tools)
    statement = [HumanMessage("I'm Sam, I write Python.")]

    first = model.invoke(chef.compile(statement).messages)
    assert isinstance(first, AIMessage)
    assert [(c["name"], c["args"]["key"], c["id"]) for c in first.tool_calls] == [
        ("create_memory", "user_name", "call_0_user_name"),
        ("create_memory", "language", "call_0_language"),
    ]
    for call in first.tool_calls:
        chef.handle_tool(call)

    # Everything stated is remembered with the same value: no call, an answer instead.
    again = model.invoke(chef.compile(statement).messages)
    assert again.tool_calls == []
    assert "language = Python" in again.text and "user_name = Sam" in again.text


def test_a_changed_value_is_a_modify_call() -> None:
    chef = _chef()
    chef.get_memory().set("language", "Python")
    model = ScriptedChatModel().bind_tools(chef.tools)
    reply = model.invoke(chef.compile([HumanMessage("I write TypeScript.")]).messages)
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == [
        ("modify_memory", {"action": "update", "key": "language", "value": "TypeScript"})
    ]


def test_the_unified_vocabulary_gets_context_create_calls() -> None:
    chef = _chef("unified")
    model = ScriptedChatModel().bind_tools(chef.tools)
    reply = model.invoke(chef.compile([HumanMessage("Keep answers short.")]).messages)
    (call,) = reply.tool_calls
    assert call["name"] == "context"
    assert call["args"]["command"] == "create"
    assert call["args"]["path"] == "context://memory/answer_length"
    assert call["args"]["file_text"] == "short"
    assert chef.handle_tool(call).text.startswith("Created")
    assert chef.get_memory().get("answer_length") == "short"


def test_without_memory_tools_it_never_calls_one() -> None:
    reply = ScriptedChatModel().invoke([HumanMessage("I'm Sam, I write Python.")])
    assert reply.tool_calls == [] and reply.text


def test_tool_results_get_a_confirmation_that_counts_failures() -> None:
    results = [
        HumanMessage("I'm Sam, keep answers short"),
        AIMessage("", tool_calls=[{"name": "create_memory", "args": {}, "id": "a"}]),
        ToolMessage("Created context://memory/user_name.", tool_call_id="a"),
        ToolMessage("Error: context://memory/answer_length is not allowed.", tool_call_id="b"),
    ]
    text = ScriptedChatModel().invoke(results).text
    assert text.startswith("Noted, Sam. I saved 1 fact(s) for next time.")
    assert "Some writes failed: Error: context://memory/answer_length is not allowed." in text


@pytest.mark.parametrize(
    ("memory", "present", "absent"),
    [
        ({}, ["I don't know which language you use", "def parse_date(text):"], ["Sure"]),
        (
            {"language": "Python", "code_style": "type hints", "answer_length": "short"},
            ["def parse_date(text: str) -> date:"],
            ["ValueError", "I don't know"],
        ),
        (
            {"language": "TypeScript"},
            ["export function parseDate(text: string): Date", "Invalid Date"],
            ["def parse_date", "ValueError"],
        ),
        (
            {"user_name": "Ann", "language": "Go", "answer_length": "short"},
            ["Sure, Ann.", "port it to Go"],
            [],
        ),
    ],
)
def test_the_answer_follows_the_memory_block(
    memory: dict[str, str], present: list[str], absent: list[str]
) -> None:
    chef = _chef()
    for key, value in memory.items():
        chef.get_memory().set(key, value)
    prompt = chef.compile([HumanMessage("Write a function that parses a date.")]).messages
    model = ScriptedChatModel()
    text = model.invoke(prompt).text
    assert model.invoke(prompt).text == text  # deterministic
    for part in present:
        assert part in text
    for part in absent:
        assert part not in text


def test_the_shipping_advice_follows_the_deploy_rule() -> None:
    chef = _chef()
    ask = [HumanMessage("When should I ship the release?")]
    assert (
        "I don't know your release habits"
        in ScriptedChatModel().invoke(chef.compile(ask).messages).text
    )
    chef.get_memory().set("deploy_rule", "never deploy on Fridays")
    text = ScriptedChatModel().invoke(chef.compile(ask).messages).text
    assert text == "Ship it Monday to Thursday; not on a Friday, since you never deploy then."
