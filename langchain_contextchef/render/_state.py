"""Pure rendering of task state: `<dynamic_state>` and `<implicit_context>` blocks.

Same escaping as the memory block (`_escape`), so no state value can close its element.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError, to_jsonable_python

from langchain_contextchef.render._escape import escape_attribute, escape_text

__all__ = ["render_dynamic_state", "render_implicit_context"]

_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_NOT_NAME_CHAR = re.compile(r"[^A-Za-z0-9_.\-]")


def _tag(name: str) -> tuple[str, str]:
    """Return a valid XML tag for `name` and the attribute text that keeps the original."""
    if _XML_NAME.fullmatch(name):
        return name, ""
    tag = _NOT_NAME_CHAR.sub("_", name)
    if not tag or not (tag[0].isascii() and (tag[0].isalpha() or tag[0] == "_")):
        tag = "_" + tag
    return tag, f' key="{escape_attribute(name)}"'


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return escape_text(value)
    # Numbers and booleans in JSON spelling (`true`, `1.5`), matching model_dump(mode="json").
    return escape_text(json.dumps(value))


def _render_node(name: str, value: Any, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    tag, attr = _tag(name)
    if value is None:
        lines.append(f"{pad}<{tag}{attr}/>")
        return
    if isinstance(value, Mapping):
        children: list[tuple[str, Any]] = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        children = [("item", v) for v in value]
    else:
        lines.append(f"{pad}<{tag}{attr}>{_scalar(value)}</{tag}>")
        return
    if not children:
        lines.append(f"{pad}<{tag}{attr}/>")
        return
    lines.append(f"{pad}<{tag}{attr}>")
    for child_name, child_value in children:
        _render_node(child_name, child_value, depth + 1, lines)
    lines.append(f"{pad}</{tag}>")


def render_dynamic_state(
    state: BaseModel | Mapping[str, Any],
    *,
    schema: type[BaseModel] | None = None,
) -> str:
    r"""Render task state as a `<dynamic_state>` XML block.

    Layout rules:

    * a mapping or model becomes one child element per field, in field order;
    * a list becomes one `<item>` child per element;
    * `None`, an empty list and an empty mapping become an empty element (`<name/>`), so the
      model still sees that the field exists;
    * numbers and booleans use their JSON spelling (`true`, `1.5`); text is escaped;
    * a name that is not a valid XML name has its invalid characters replaced by `_` (and
      `_` prepended when it does not start with a letter or `_`); the original name is then
      kept in a `key` attribute, so distinct names stay distinct;
    * nesting is indented two spaces per level.

    Args:
        state: A pydantic model instance or a mapping. Values that are not JSON types
            (datetimes, enums, sets, nested models) are converted as pydantic's JSON mode does.
        schema: When given, `state` is first validated with `schema.model_validate`.

    Returns:
        The block, without a trailing newline.

    Raises:
        pydantic.ValidationError: If `schema` is given and `state` does not match it.
        TypeError: If the state (or a value in it) cannot be converted to JSON types.

    Example:
        ```python
        from langchain_contextchef.render import render_dynamic_state

        xml = render_dynamic_state({"active_file": "auth.py", "todo": ["x", "y"]})
        assert xml == (
            "<dynamic_state>\n"
            "  <active_file>auth.py</active_file>\n"
            "  <todo>\n"
            "    <item>x</item>\n"
            "    <item>y</item>\n"
            "  </todo>\n"
            "</dynamic_state>"
        )
        ```
    """
    if schema is not None:
        state = schema.model_validate(state)
    if isinstance(state, BaseModel):
        data: Any = state.model_dump(mode="json")
    else:
        try:
            data = to_jsonable_python(state)
        except PydanticSerializationError as exc:
            msg = (
                f"The dynamic state cannot be rendered: {exc}. Use JSON-compatible values, "
                "or pass a pydantic model (or schema=) that knows how to serialise them."
            )
            raise TypeError(msg) from exc
    if not isinstance(data, Mapping):
        msg = (
            f"The dynamic state must be a mapping or a pydantic model, got "
            f"{type(state).__name__}; wrap the value in a dict such as {{'state': value}}."
        )
        raise TypeError(msg)
    lines: list[str] = []
    _render_node("dynamic_state", data, 0, lines)
    if len(lines) == 1:  # an empty mapping still gets an open and a close tag
        return "<dynamic_state>\n</dynamic_state>"
    return "\n".join(lines)


def render_implicit_context(text: str) -> str:
    r"""Wrap retrieved or derived context in an `<implicit_context>` block.

    Args:
        text: Free text; markup characters are escaped so it cannot close the block.

    Returns:
        The block, or `""` when `text` is empty.

    Example:
        ```python
        from langchain_contextchef.render import render_implicit_context

        assert (
            render_implicit_context("a < b") == "<implicit_context>\na &lt; b\n</implicit_context>"
        )
        ```
    """
    if not text:
        return ""
    return f"<implicit_context>\n{escape_text(text)}\n</implicit_context>"
