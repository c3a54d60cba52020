"""The tool schemas as providers receive them: lean, without nulls or titles, and static.

Checked on the JSON that LangChain's `convert_to_openai_tool` and the real `ChatAnthropic` /
`ChatOpenAI` request builders (`_get_request_payload`, offline) emit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.messages import HumanMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_openai import ChatOpenAI
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig

SETTINGS: list[dict[str, Any]] = [
    {"tools": "legacy"},
    {"tools": "unified"},
    {"tools": "legacy", "memory": MemoryConfig(allowed_keys=["lang", "tone"])},
    {"tools": "legacy", "memory": MemoryConfig(memory_format="verbose", recall="index")},
    {"tools": "unified", "memory": MemoryConfig(memory_format="verbose", memory_types=None)},
]


def chef_for(settings: dict[str, Any]) -> ContextChef:
    return ContextChef(store=InMemoryStore(), **settings)


def provider_tools(tools: list[BaseTool]) -> dict[str, list[dict[str, Any]]]:
    """The `tools` field of the request each real integration would send."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, model in {
        "anthropic": ChatAnthropic(model="claude-sonnet-4-5", api_key="sk-test"),  # type: ignore[call-arg]
        "openai": ChatOpenAI(model="gpt-4o-mini", api_key="sk-test"),  # type: ignore[arg-type]
    }.items():
        bound: Any = model.bind_tools(tools)
        body = bound.bound._get_request_payload([HumanMessage("hi")], **bound.kwargs)
        out[name] = body["tools"]
    out["convert_to_openai_tool"] = [convert_to_openai_tool(t) for t in tools]
    return out


def parameters(provider: str, tool: dict[str, Any]) -> dict[str, Any]:
    if provider == "anthropic":
        schema: dict[str, Any] = tool["input_schema"]
    else:
        schema = tool["function"]["parameters"]
    return schema


def walk(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


@pytest.mark.parametrize("settings", SETTINGS)
def test_no_nulls_no_titles_no_defaults_on_any_field(settings: dict[str, Any]) -> None:
    for provider, tools in provider_tools(chef_for(settings).tools).items():
        for tool in tools:
            schema = parameters(provider, tool)
            keys = {key for key, _ in walk(schema)}
            assert "default" not in keys and "title" not in keys, (provider, tool)
            assert "anyOf" not in keys and "runtime" not in schema["properties"]
            assert None not in [value for _, value in walk(schema)]
            assert schema["type"] == "object" and schema["required"]


@pytest.mark.parametrize("settings", SETTINGS)
def test_each_field_says_what_it_is_for_once(settings: dict[str, Any]) -> None:
    tools = provider_tools(chef_for(settings).tools)["convert_to_openai_tool"]
    for tool in tools:
        function = tool["function"]
        descriptions = [function["description"]] + [
            p["description"]
            for p in function["parameters"]["properties"].values()
            if "description" in p
        ]
        # No sentence is said twice across the tool and its fields.
        assert len(descriptions) == len(set(descriptions)), function["name"]
        for name, prop in function["parameters"]["properties"].items():
            if name == "key" and "enum" in prop:
                assert "description" not in prop  # the enum says it


def test_the_three_integrations_send_the_same_schemas() -> None:
    for settings in SETTINGS:
        sent = provider_tools(chef_for(settings).tools)
        anthropic = [parameters("anthropic", t) for t in sent["anthropic"]]
        openai = [parameters("openai", t) for t in sent["openai"]]
        converted = [parameters("convert", t) for t in sent["convert_to_openai_tool"]]
        assert anthropic == openai == converted


def test_schemas_are_byte_stable_across_compiles_and_writes() -> None:
    chef = chef_for({"tools": "legacy"})
    first = json.dumps(provider_tools(chef.compile([HumanMessage("a")]).tools))
    chef.handle_tool({"name": "create_memory", "args": {"key": "k", "value": "v"}, "id": "1"})
    chef.get_memory().set("other", "x", description="d")
    second = json.dumps(provider_tools(chef.compile([HumanMessage("b")]).tools))
    assert first == second


@pytest.mark.parametrize(
    ("tools", "memory", "most"),
    [
        ("legacy", MemoryConfig(recall="inline"), 250),
        # Recall mode (the default) adds the recall_memory tool.
        ("legacy", MemoryConfig(), 305),
        # 350 before the `offset` argument that pages folder views and searches (17 tokens).
        ("unified", MemoryConfig(), 370),
        ("legacy", MemoryConfig(memory_format="verbose", recall="inline"), 280),
        ("legacy", MemoryConfig(memory_format="verbose"), 335),
    ],
)
def test_schema_tokens_stay_small(tools: str, memory: MemoryConfig, most: int) -> None:
    chef = chef_for({"tools": tools, "memory": memory})
    assert count_tokens_approximately([], tools=chef.tools) <= most


def test_versions_are_offered_only_when_the_block_shows_them() -> None:
    def has_version(settings: dict[str, Any]) -> list[bool]:
        tools = provider_tools(chef_for(settings).tools)["convert_to_openai_tool"]
        return ["version" in parameters("openai", t)["properties"] for t in tools]

    # create_memory, modify_memory and (recall mode, the default) recall_memory.
    assert has_version({"tools": "legacy"}) == [False, False, False]
    assert has_version({"tools": "unified"}) == [False]
    verbose = MemoryConfig(memory_format="verbose")
    assert has_version({"tools": "legacy", "memory": verbose}) == [False, True, False]
    assert has_version({"tools": "unified", "memory": verbose}) == [True]


def test_a_missing_required_argument_still_gets_the_dispatchers_error() -> None:
    create = chef_for({"tools": "legacy"}).tools[0]
    assert create.invoke({"value": "v"}) == (
        'Error: the "key" argument is required and must be a non-empty string.'
    )
