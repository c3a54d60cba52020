"""Recoverable-state compaction: the prompt, the middleware it builds, the section parser."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import SummarizationMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from langchain_contextchef.compaction import (
    RECOVERABLE_STATE_PROMPT,
    RECOVERABLE_STATE_SECTIONS,
    RecoverableState,
    SourcedFact,
    parse_recoverable_state,
    recoverable_summarization,
)

SUMMARY = """\
## Objective
Deploy checkout-api after the regression tests pass.

## Confirmed facts
- Current branch: release/checkout-42 [source: git]
- Payment E2E fails at the 3DS callback [source: run_87]

## Decisions
- Do not bypass the 3DS test, because it guards real payments.

## Completed
- Unit tests passed at commit 1a2b3c4.

## Open work
- Fix callback signature verification.

## External actions
- No deployment has occurred.
"""


class SummaryModel(BaseChatModel):
    """Answers every call with `SUMMARY` and records the prompts it got."""

    prompts: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "fake-summary"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.prompts.append("\n".join(m.text for m in messages))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(SUMMARY))])


def test_prompt_has_every_section_heading_in_order_and_one_placeholder() -> None:
    headings = re.findall(r"^## (.+)$", RECOVERABLE_STATE_PROMPT, re.MULTILINE)
    assert tuple(headings) == RECOVERABLE_STATE_SECTIONS
    # str.format must see exactly one field, or the middleware's formatting raises.
    assert re.findall(r"[{}]", RECOVERABLE_STATE_PROMPT) == ["{", "}"]
    assert "{messages}" in RECOVERABLE_STATE_PROMPT
    assert "\n<messages>\n" in RECOVERABLE_STATE_PROMPT
    formatted = RECOVERABLE_STATE_PROMPT.format(messages="Human: hello")
    assert formatted.endswith("Human: hello\n</messages>")
    lowered = RECOVERABLE_STATE_PROMPT.lower()
    for phrase in ("do not invent", "[source:", "because", "id", "no deployment has occurred"):
        assert phrase in lowered


def test_middleware_is_built_with_the_prompt_and_passes_kwargs() -> None:
    middleware = recoverable_summarization(
        SummaryModel(), trigger=("messages", 12), keep=("messages", 4)
    )
    assert isinstance(middleware, SummarizationMiddleware)
    assert middleware.summary_prompt == RECOVERABLE_STATE_PROMPT
    assert middleware.keep == ("messages", 4)


def test_middleware_refuses_a_second_prompt() -> None:
    with pytest.raises(TypeError, match="summary_prompt"):
        recoverable_summarization(SummaryModel(), summary_prompt="{messages}")


def _history() -> list[BaseMessage]:
    return [
        HumanMessage("Deploy checkout-api once regression tests pass.", id="h1"),
        AIMessage(
            "", id="a1", tool_calls=[{"name": "run_tests", "args": {"suite": "e2e"}, "id": "c1"}]
        ),
        ToolMessage("3DS callback failed (run_87)", tool_call_id="c1", id="t1"),
        AIMessage("The E2E run fails at the 3DS callback.", id="a2"),
        HumanMessage("Do not bypass that test. Keep going.", id="h2"),
    ]


def _agent(summary_model: SummaryModel) -> Any:
    agent_model = GenericFakeChatModel(messages=iter([AIMessage("Fixing the signature check.")]))
    return create_agent(
        agent_model,
        middleware=[
            recoverable_summarization(summary_model, trigger=("messages", 4), keep=("messages", 1))
        ],
    )


def _check_compacted(result: dict[str, Any], summary_model: SummaryModel) -> None:
    messages = result["messages"]
    # The summary replaced everything but the kept tail; the agent's reply follows.
    assert [type(m).__name__ for m in messages] == ["HumanMessage", "HumanMessage", "AIMessage"]
    summary, kept, reply = messages
    assert summary.text.startswith("Here is a summary of the conversation to date:")
    assert kept.id == "h2"
    assert reply.text == "Fixing the signature check."
    for heading in RECOVERABLE_STATE_SECTIONS:
        assert f"## {heading}" in summary.text
    state = parse_recoverable_state(summary.text)
    assert state.missing == ()
    assert state.confirmed_facts[1] == SourcedFact(
        "Payment E2E fails at the 3DS callback", "run_87"
    )
    # The summary model was asked with our prompt, over the old messages only.
    (prompt,) = summary_model.prompts
    assert prompt.startswith(RECOVERABLE_STATE_PROMPT.split("{messages}")[0])
    assert "3DS callback failed (run_87)" in prompt
    assert "Do not bypass that test" not in prompt


def test_summary_replaces_old_messages_in_a_create_agent_run() -> None:
    model = SummaryModel(prompts=[])
    _check_compacted(_agent(model).invoke({"messages": _history()}), model)


async def test_summary_replaces_old_messages_in_an_async_run() -> None:
    model = SummaryModel(prompts=[])
    _check_compacted(await _agent(model).ainvoke({"messages": _history()}), model)


def test_below_the_trigger_nothing_is_summarized() -> None:
    model = SummaryModel(prompts=[])
    result = _agent(model).invoke({"messages": _history()[:1]})
    assert [m.text for m in result["messages"]] == [
        "Deploy checkout-api once regression tests pass.",
        "Fixing the signature check.",
    ]
    assert model.prompts == []


def test_parse_reads_every_section() -> None:
    state = parse_recoverable_state(SUMMARY)
    assert state == RecoverableState(
        objective="Deploy checkout-api after the regression tests pass.",
        confirmed_facts=(
            SourcedFact("Current branch: release/checkout-42", "git"),
            SourcedFact("Payment E2E fails at the 3DS callback", "run_87"),
        ),
        decisions=("Do not bypass the 3DS test, because it guards real payments.",),
        completed=("Unit tests passed at commit 1a2b3c4.",),
        open_work=("Fix callback signature verification.",),
        external_actions=("No deployment has occurred.",),
        missing=(),
    )
    assert state.unsourced_facts == ()


def test_parse_is_tolerant_of_model_formatting() -> None:
    text = """Here is a summary of the conversation to date:

# OBJECTIVE:
Ship the
release.

**Confirmed Facts**
* Tests are green [Source: ci_1]
1. The tag is v2 [sources: git tag, user]
- Nobody checked the docs

### Decisions ###
- (none)

## Notes
- this section is unknown and ignored

## Open work
- Write notes
  for the release
- N/A
"""
    state = parse_recoverable_state(text)
    assert state.objective == "Ship the release."
    assert state.confirmed_facts == (
        SourcedFact("Tests are green", "ci_1"),
        SourcedFact("The tag is v2", "git tag, user"),
        SourcedFact("Nobody checked the docs"),
    )
    assert state.unsourced_facts == (SourcedFact("Nobody checked the docs"),)
    assert state.decisions == ()
    assert state.open_work == ("Write notes for the release",)
    assert "this section is unknown" not in repr(state)
    assert state.missing == ("Completed", "External actions")


def test_parse_merges_a_repeated_section_and_reports_all_missing_for_plain_text() -> None:
    state = parse_recoverable_state("## Completed\n- a\n## Completed\n- b\n")
    assert state.completed == ("a", "b")
    empty = parse_recoverable_state("We talked about the weather.")
    assert empty.missing == RECOVERABLE_STATE_SECTIONS
    assert empty.objective == ""


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="summary text"):
        parse_recoverable_state(None)  # type: ignore[arg-type]
