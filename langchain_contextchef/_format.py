"""Plain-text rendering of messages and tool calls, for the CLI and the demo.

Both print what a model sees and what it calls; keeping the helpers here lets `cli` and `demo`
share them without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, ToolCall

__all__ = ["format_call", "format_messages"]


def format_call(call: ToolCall) -> str:
    """Show a tool call as `name(arg='value', ...)`.

    Args:
        call: A LangChain tool call.

    Returns:
        One line with the tool name and its arguments in Python repr form.

    Example:
        ```python
        from langchain_contextchef._format import format_call

        call = {"name": "create_memory", "args": {"key": "lang"}, "id": "1"}
        assert format_call(call) == "create_memory(key='lang')"
        ```
    """
    args = ", ".join(f"{name}={value!r}" for name, value in call["args"].items())
    return f"{call['name']}({args})"


def _message_text(message: BaseMessage) -> str:
    # Content blocks (a merged system prompt, images) stay visibly separate.
    if isinstance(message.content, str):
        return message.content
    parts: list[str] = []
    for block in message.content:
        if isinstance(block, str):
            parts.append(block)
        elif block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        else:
            parts.append(f"[{block.get('type', 'unknown')} block]")
    return "\n\n".join(parts)


def format_messages(messages: Sequence[BaseMessage]) -> str:
    r"""Render a message list as readable text, one headed section per message.

    Args:
        messages: Any LangChain messages.

    Returns:
        Plain text such as `--- message 1: system ---` followed by the message's text.

    Example:
        ```python
        from langchain_core.messages import HumanMessage
        from langchain_contextchef._format import format_messages

        assert format_messages([HumanMessage("Hi")]) == "--- message 1: human ---\nHi"
        ```
    """
    parts: list[str] = []
    for index, message in enumerate(messages, start=1):
        parts.append(f"--- message {index}: {message.type} ---")
        text = _message_text(message)
        if text:
            parts.append(text)
        if isinstance(message, AIMessage):
            parts.extend(f"(tool call) {format_call(call)}" for call in message.tool_calls)
    return "\n".join(parts)
