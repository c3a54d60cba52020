"""Test helpers: offline chat models for tests, demos and notebooks (no API key, no network).

`FakeToolCallingModel` is the one for testing your own agent: you write its replies (text,
calls to any of your tools, or a function that answers from the messages it receives), it
binds any tools, and it records every request, so a test can check what the model was shown.
It works in `create_agent`, `ToolNode` graphs and LCEL chains, sync and async, streaming.

`ScriptedChatModel` is a real LangChain `BaseChatModel` (it supports `bind_tools`, `invoke`,
`ainvoke`, streaming and `create_agent`), but its replies are computed from the messages it
receives with a few plain rules, so a test of your agent's memory wiring can run offline and
check exact text:

* when the latest user turn states preferences ("I'm Sam, I write Python with type hints, keep
  answers short, I never deploy on Fridays"), it calls the memory tools it is bound to
  (`create_memory`, `modify_memory`, or the unified `context` tool) to store them, skipping
  keys already remembered with the same value;
* after the tool results come back, it confirms what was saved;
* when the user asks for work instead (a function, or when to ship), it reads the `<memory>`
  block of its prompt with `render.parse_memory_block` and shapes the answer with what it finds
  there. With no memory the answer is generic, so the difference between the two is visible.

Nothing here is keyed on fixed conversation turns: change the user's sentence and the tool calls
and the answer change with it. `extract_preferences` exposes the rules that read a message.

It is what `contextchef demo` runs without `--model`, and what the notebooks run when no
provider key is set. Replace it with any tool-calling chat model (`init_chat_model(...)`,
`ChatAnthropic`, `ChatOpenAI`, ...) for real use.

Example:
    ```python
    from langchain_core.messages import HumanMessage

    from langchain_contextchef import ContextChef
    from langchain_contextchef.testing import ScriptedChatModel
    from langgraph.store.memory import InMemoryStore

    chef = ContextChef(store=InMemoryStore())
    chain = chef.prompt | ScriptedChatModel().bind_tools(chef.tools)

    reply = chain.invoke([HumanMessage("I write Python and I never deploy on Fridays.")])
    for call in reply.tool_calls:
        chef.handle_tool(call)
    assert chef.get_memory().get("deploy_rule") == "never deploy on Fridays"

    answer = chain.invoke([HumanMessage("When should I ship the release?")])
    assert "not on a Friday" in answer.text
    ```
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from langchain_contextchef._context_paths import memory_uri
from langchain_contextchef._fake_chat_model import (
    FakeToolCallingModel,
    bind_tool_names,
    tool_call,
)
from langchain_contextchef.render import parse_memory_block

__all__ = [
    "FakeToolCallingModel",
    "Preference",
    "ScriptedChatModel",
    "extract_preferences",
    "tool_call",
]

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAYS = _DAYS[:5]


@dataclass(frozen=True)
class Preference:
    """One fact found in a user's message.

    Attributes:
        key: The memory key it belongs under.
        value: The text to remember.
        description: What the entry is for, for the `<memory>` block.
    """

    key: str
    value: str
    description: str


_NAME = re.compile(r"^(?:[Ii]'?m|I am|[Mm]y name is|[Cc]all me)\s+([A-Z][A-Za-z'-]*)$")
_LANGUAGE = re.compile(
    r"\bI\s+(?:mostly\s+|usually\s+)?(?:write|code in|program in|work in|use)\s+"
    r"([A-Z][A-Za-z0-9+#]*)(?:\s+with\s+(.+))?$"
)
_LENGTH = re.compile(
    r"\b(?:keep|make)\s+(?:your\s+|the\s+|my\s+)?(?:answers|replies|responses)\s+"
    r"(short|brief|concise|detailed|long)\b",
    re.IGNORECASE,
)
_LENGTH_NOUN = re.compile(
    r"\b(short|brief|concise|detailed|long)\s+(?:answers|replies|responses)\b", re.IGNORECASE
)
_DAY = re.compile(r"\b(" + "|".join(_DAYS) + r")s?\b", re.IGNORECASE)
_DEPLOY = re.compile(r"\b(?:deploy|ship|release)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:never|not|no|don't|do not|won't)\b", re.IGNORECASE)
# Sentences first (questions are requests, not statements), then clauses: commas,
# semicolons and a joining "and" separate statements.
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CLAUSE = re.compile(r"[,;]+|\band\b")


def _deploy_rule(text: str) -> tuple[str, bool] | None:
    """Read a deployment rule such as "never deploy on Fridays" as `(day, allowed)`."""
    if not _DEPLOY.search(text):
        return None
    day = _DAY.search(text)
    if day is None:
        return None
    return day.group(1).lower(), _NEGATION.search(text) is None


def extract_preferences(text: str) -> list[Preference]:
    """Find the preferences a user states in `text`, with simple deterministic rules.

    Args:
        text: The user's message.

    Returns:
        The preferences found, in the order they appear; at most one per key.

    Example:
        ```python
        from langchain_contextchef.testing import extract_preferences

        found = extract_preferences("I'm Sam, I write Python with type hints")
        assert [(p.key, p.value) for p in found] == [
            ("user_name", "Sam"),
            ("language", "Python"),
            ("code_style", "type hints"),
        ]
        ```
    """
    found: dict[str, Preference] = {}

    def add(key: str, value: str, description: str) -> None:
        found.setdefault(key, Preference(key, value, description))

    sentences = [s.strip() for s in _SENTENCE.split(text.strip())]
    clauses = [c for s in sentences if not s.endswith("?") for c in _CLAUSE.split(s.rstrip(".!"))]
    for raw in clauses:
        clause = raw.strip()
        if not clause:
            continue
        if name := _NAME.match(clause):
            add("user_name", name.group(1), "The user's name; address them by it.")
        if language := _LANGUAGE.search(clause):
            add("language", language.group(1), "The programming language the user writes.")
            if language.group(2):
                style = language.group(2).strip()
                add("code_style", style, "How the user wants code written.")
        if length := (_LENGTH.search(clause) or _LENGTH_NOUN.search(clause)):
            add("answer_length", length.group(1).lower(), "How long answers should be.")
        if rule := _deploy_rule(clause):
            day, allowed = rule
            value = f"deploy on {day.title()}s" if allowed else f"never deploy on {day.title()}s"
            add("deploy_rule", value, "When the user ships to production.")
    return list(found.values())


def _user_text(message: BaseMessage) -> str:
    # With memory placed in the last user turn, the block follows the user's own words.
    return message.text.split("<memory>", 1)[0].strip()


def _remembered(messages: Sequence[BaseMessage]) -> dict[str, str]:
    for message in messages:
        text = message.text
        if "<memory>" in text:
            try:
                return {entry.key: entry.value for entry in parse_memory_block(text)}
            except ValueError:
                continue
    return {}


def _is_short(memory: dict[str, str]) -> bool:
    return memory.get("answer_length", "") in ("short", "brief", "concise")


def _python_date_parser(style: str) -> str:
    if "type hint" in style.lower() or "typed" in style.lower():
        return (
            "from datetime import date, datetime\n\n\n"
            "def parse_date(text: str) -> date:\n"
            '    """Parse an ISO date such as 2026-05-25."""\n'
            '    return datetime.strptime(text.strip(), "%Y-%m-%d").date()'
        )
    return (
        "from datetime import datetime\n\n\n"
        "def parse_date(text):\n"
        '    return datetime.strptime(text.strip(), "%Y-%m-%d").date()'
    )


def _typescript_date_parser() -> str:
    return (
        "export function parseDate(text: string): Date {\n"
        "  const [y, m, d] = text.trim().split('-').map(Number);\n"
        "  return new Date(Date.UTC(y, m - 1, d));\n"
        "}"
    )


def _code_part(memory: dict[str, str]) -> list[str]:
    language = memory.get("language", "")
    style = memory.get("code_style", "")
    if language.lower() in ("typescript", "ts"):
        fence, code = "ts", _typescript_date_parser()
    else:
        fence, code = "python", _python_date_parser(style)
    lines: list[str] = []
    if not language:
        lines.append("I don't know which language you use, so here is plain Python.")
    elif fence == "python" and language.lower() != "python":
        lines.append(f"I only have a Python sketch for this; port it to {language}.")
    lines += [f"```{fence}", code, "```"]
    if not _is_short(memory) and fence == "python":
        lines.append(
            "It expects year-month-day text and raises ValueError for anything else; wrap it "
            "in try/except if your input can be messy, or swap in dateutil for free-form dates."
        )
    elif not _is_short(memory):
        lines.append(
            "It expects year-month-day text; anything else gives an Invalid Date, so check "
            "Number.isNaN(result.getTime()) if your input can be messy."
        )
    return lines


def _ship_part(memory: dict[str, str]) -> list[str]:
    rule = _deploy_rule(memory.get("deploy_rule", ""))
    if rule is None:
        return [
            "When to ship: I don't know your release habits. Pick a time when someone can "
            "watch the rollout and roll back if needed."
        ]
    day, allowed = rule
    if allowed:
        return [f"Ship it on a {day.title()}, your usual deploy day."]
    days = [d.title() for d in _WEEKDAYS if d != day]
    window = f"{days[0]} to {days[-1]}" if len(days) > 1 else days[0]
    return [f"Ship it {window}; not on a {day.title()}, since you never deploy then."]


def _answer(request: str, memory: dict[str, str]) -> str:
    lowered = request.lower()
    lines: list[str] = []
    name = memory.get("user_name")
    if name:
        lines.append(f"Sure, {name}." if _is_short(memory) else f"Happy to help, {name}.")
    wants_code = "function" in lowered or "code" in lowered
    wants_ship = bool(_DEPLOY.search(lowered)) or "when should" in lowered
    if wants_code:
        lines += _code_part(memory)
    if wants_ship:
        lines += _ship_part(memory)
    if not wants_code and not wants_ship:
        if memory:
            known = ", ".join(f"{k} = {v}" for k, v in sorted(memory.items()))
            lines.append(f"Here is what I remember about you: {known}.")
        else:
            lines.append(
                "I'm an offline scripted model: tell me your preferences, or ask me for a "
                "function or when to ship."
            )
    return "\n".join(lines)


def _confirm(results: Sequence[ToolMessage], memory: dict[str, str], name: str | None) -> str:
    saved = [m.text for m in results if not m.text.startswith("Error:")]
    failed = [m.text for m in results if m.text.startswith("Error:")]
    lines = [f"Noted{', ' + name if name else ''}. I saved {len(saved)} fact(s) for next time."]
    if failed:
        lines.append("Some writes failed: " + " ".join(failed))
    if not _is_short(memory):
        lines.append("They will be in my prompt in every later conversation.")
    return "\n".join(lines)


class ScriptedChatModel(BaseChatModel):
    """An offline chat model whose replies are computed from its input by simple rules.

    It stores preferences stated by the user through the memory tools it is bound to
    (`create_memory` for a new key and `modify_memory` for a changed one, or the unified
    `context` tool), and answers requests using what the `<memory>` block of its prompt holds.
    It understands a name (`user_name`), a programming language and style (`language`,
    `code_style`), an answer length (`answer_length`) and a deployment rule (`deploy_rule`);
    see `extract_preferences`. It can write a date-parsing function (Python or TypeScript) and
    say when to ship; anything else gets a reply that lists what it remembers.

    Replies are deterministic: the same messages give the same reply, and tool call ids are
    `call_<n>_<key>`, where `n` counts the assistant messages before the call. Bound to no
    memory tools, it never calls one. Use it where a test, a demo or a notebook needs a
    tool-calling model without a network; it is no stand-in for a real model's judgement.

    Example:
        ```python
        from langchain_core.messages import HumanMessage
        from langchain_contextchef.testing import ScriptedChatModel

        model = ScriptedChatModel().bind_tools(
            [{"name": "create_memory", "description": "d", "parameters": {"type": "object"}}]
        )
        reply = model.invoke([HumanMessage("I'm Sam, keep answers short")])
        assert [c["args"]["key"] for c in reply.tool_calls] == ["user_name", "answer_length"]
        ```
    """

    @property
    def _llm_type(self) -> str:
        return "contextchef-scripted"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Any | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools; only their names matter to this model.

        Args:
            tools: LangChain tools, functions, pydantic models or OpenAI tool dicts.
            tool_choice: Accepted for interface compatibility and ignored.
            **kwargs: Passed on to `bind`.

        Returns:
            This model with the tools bound.
        """
        return bind_tool_names(self, tools, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        tool_names: list[str] = list(kwargs.get("tool_names") or [])
        reply = self._reply(messages, tool_names)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def _reply(self, messages: list[BaseMessage], tool_names: list[str]) -> AIMessage:
        memory = _remembered(messages)
        if messages and isinstance(messages[-1], ToolMessage):
            results: list[ToolMessage] = []
            for message in reversed(messages):
                if not isinstance(message, ToolMessage):
                    break
                results.insert(0, message)
            human = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
            stated = extract_preferences(_user_text(human)) if human is not None else []
            name = next((p.value for p in stated if p.key == "user_name"), None)
            merged = {**memory, **{p.key: p.value for p in stated}}
            return AIMessage(_confirm(results, merged, name or memory.get("user_name")))
        human = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
        request = _user_text(human) if human is not None else ""
        calls = self._tool_calls(extract_preferences(request), memory, tool_names, messages)
        if calls:
            return AIMessage("", tool_calls=calls)
        return AIMessage(_answer(request, memory))

    @staticmethod
    def _tool_calls(
        stated: list[Preference],
        memory: dict[str, str],
        tool_names: list[str],
        messages: list[BaseMessage],
    ) -> list[ToolCall]:
        turn = sum(isinstance(m, AIMessage) for m in messages)
        calls: list[ToolCall] = []
        for pref in stated:
            if memory.get(pref.key) == pref.value:
                continue  # already remembered exactly so
            call_id = f"call_{turn}_{pref.key}"
            if "create_memory" in tool_names and pref.key not in memory:
                args: dict[str, Any] = {
                    "key": pref.key,
                    "value": pref.value,
                    "description": pref.description,
                }
                calls.append(ToolCall(name="create_memory", args=args, id=call_id))
            elif "modify_memory" in tool_names and pref.key in memory:
                args = {"action": "update", "key": pref.key, "value": pref.value}
                calls.append(ToolCall(name="modify_memory", args=args, id=call_id))
            elif "context" in tool_names and pref.key not in memory:
                args = {
                    "command": "create",
                    "path": memory_uri(pref.key),
                    "file_text": pref.value,
                    "description": pref.description,
                }
                calls.append(ToolCall(name="context", args=args, id=call_id))
        return calls
