"""LangChain's standard unit tests for every memory tool."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool
from langchain_tests.unit_tests import ToolsUnitTests
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.tools import ContextTool, CreateMemoryTool, ModifyMemoryTool, make_tools

_MEMORY = Memory(InMemoryStore(), MemoryConfig(allowed_keys=["lang", "tone"]))


def _resolver(config: Any) -> Memory:
    return _MEMORY


class TestCreateMemoryTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> type[BaseTool]:
        return CreateMemoryTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"resolver": _resolver}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"key": "lang", "value": "Python", "description": "main language"}


class TestCreateMemoryToolWithAllowedKeys(ToolsUnitTests):
    @property
    def tool_constructor(self) -> BaseTool:
        return make_tools(mode="legacy", allowed_keys=["lang", "tone"], resolver=_resolver)[0]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"key": "tone", "value": "dry"}


class TestModifyMemoryTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> type[BaseTool]:
        return ModifyMemoryTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"resolver": _resolver}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"action": "update", "key": "lang", "value": "Rust"}


class TestContextTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> type[BaseTool]:
        return ContextTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"resolver": _resolver}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"command": "str_replace", "path": "memory/lang", "old_str": "Py", "new_str": "Cy"}
