"""The closed choices of the package, each named once, and the one way they are checked.

Every option that takes one of a few strings is a `Literal` alias here; modules import the
alias instead of spelling the strings again, and validate with `check_literal`, so an error
message always lists exactly the values the type admits.

Example:
    ```python
    from langchain_contextchef._literals import MemoryPlacement, check_literal

    check_literal("memory_placement", "after_system", MemoryPlacement)
    try:
        check_literal("memory_placement", "top", MemoryPlacement)
    except ValueError as exc:
        assert "one of: 'after_system', 'before_history_tail'" in str(exc)
    ```
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, get_args

__all__ = [
    "DEFAULT_MEMORY_TYPES",
    "DynamicStatePlacement",
    "EvictPolicy",
    "MemoryFormat",
    "MemoryPlacement",
    "MemoryType",
    "RecallMode",
    "SystemLayout",
    "ToolVocabulary",
    "TurnUnit",
    "check_literal",
]

ToolVocabulary: TypeAlias = Literal["legacy", "unified"]
"""Which memory tools the model has: `create_memory` + `modify_memory`, or one `context` tool."""

MemoryPlacement: TypeAlias = Literal["after_system", "before_history_tail"]
"""Where the memory data block goes: the top system layer, or the tail of the conversation."""

DynamicStatePlacement: TypeAlias = Literal["last_user", "system"]
"""Where dynamic state and implicit context go: the conversation tail, or the system layer."""

MemoryFormat: TypeAlias = Literal["compact", "verbose"]
"""How entries are written in `<memory>`: one short element each, or ContextChef's layout."""

SystemLayout: TypeAlias = Literal["separate", "merged"]
"""`separate`: memory gets a system message of its own; `merged`: it joins the developer's."""

TurnUnit: TypeAlias = Literal["model_call", "user_message"]
"""What advances the turn clock: every model call, or every new user message."""

RecallMode: TypeAlias = Literal["inline", "index"]
"""`inline`: every selected entry in full; `index`: the rest listed in `<memory_index>`."""

EvictPolicy: TypeAlias = Literal["least_recently_recalled"]
"""How entries over `max_entries` are chosen for eviction."""

MemoryType: TypeAlias = Literal["fact", "preference", "event", "procedure", "rule", "project"]
"""The memory types accepted by default: facts, preferences, events and procedures, plus rules and
project knowledge."""

DEFAULT_MEMORY_TYPES: tuple[str, ...] = get_args(MemoryType)
"""Every `MemoryType`, in the order the tools and the reflection prompt list them."""


def check_literal(name: str, value: object, alias: Any) -> None:
    """Raise `ValueError` unless `value` is one of the strings the `Literal` alias admits.

    Args:
        name: The option's name, as the caller spells it.
        value: What the caller passed.
        alias: A `Literal[...]` alias from this module.

    Raises:
        ValueError: Naming the option, every allowed value and what was given.
    """
    allowed = get_args(alias)
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        msg = f"{name} must be one of: {choices}; got {value!r}."
        raise ValueError(msg)
