"""The compact memory format (the default), custom formats and the configurable instruction."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig, Turns
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import (
    ParsedEntry,
    escape_attribute,
    escape_text,
    memory_instruction,
    parse_memory_block,
    render_memory_block,
    unescape,
)
from tests.support.clocks import FakeClock

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)
HISTORY = [SystemMessage("You help."), HumanMessage("Hi")]


def entry(key: str, value: str, **fields: object) -> MemoryEntry:
    return MemoryEntry(key=key, value=value, created_at=NOW, updated_at=NOW, **fields)  # type: ignore[arg-type]


def test_compact_layout_is_exact() -> None:
    entries = [
        entry("language", "Python"),
        entry("style", "tabs", type="preference", description="How to indent"),
        entry("multi", "a\nb"),
    ]
    assert render_memory_block(entries) == "\n".join(
        [
            "<memory>",
            '<entry key="language">Python</entry>',
            '<entry key="style" type="preference" description="How to indent">tabs</entry>',
            '<entry key="multi">a',
            "b</entry>",
            "</memory>",
        ]
    )


def test_compact_block_has_no_header_and_no_guidance_when_any_key_may_be_written() -> None:
    block = render_memory_block([entry("a", "1")], vocabulary="unified")
    assert block.startswith("<memory>") and block.endswith("</memory>")
    assert "earlier conversations" not in block


@pytest.mark.parametrize(
    ("vocabulary", "allowed", "text"),
    [
        ("legacy", ["a", "x"], 'Only these memory keys may be written: "a", "x".'),
        ("unified", ["a"], 'Only these keys may be written under context://memory/: "a".'),
        ("legacy", [], "No memory key may be written here"),
        ("unified", [], "No address under context://memory/ may be written here"),
    ],
)
def test_compact_guidance_appears_only_when_keys_are_limited(
    vocabulary: str, allowed: list[str], text: str
) -> None:
    block = render_memory_block([entry("a", "1")], allowed_keys=allowed, vocabulary=vocabulary)  # type: ignore[arg-type]
    assert block.endswith(text) or text in block.rsplit("\n", 1)[-1]


def test_turn_expiry_counts_the_turns_still_to_come() -> None:
    # The clock after this compile is 5: an entry expiring at 7 is shown at turns 5 and 6.
    entries = [
        entry("two", "x", expires_at_turn=7),
        entry("one", "y", expires_at_turn=6),
        entry("last", "z", expires_at_turn=5),
    ]
    parsed = parse_memory_block(render_memory_block(entries, turn=5))
    assert [p.expires for p in parsed] == [
        "after 2 more turns",
        "after 1 more turn",
        "after this turn",
    ]
    # Without the clock a turn expiry is not shown (nothing true could be said).
    assert parse_memory_block(render_memory_block(entries))[0].expires is None


def test_wall_clock_expiry_is_the_utc_minute_and_stable() -> None:
    moment = datetime(2026, 5, 25, 12, 30, 59, tzinfo=timezone(timedelta(hours=2)))
    block = render_memory_block([entry("k", "v", expires_at=moment)], turn=1)
    assert '<entry key="k" expires="2026-05-25T10:30Z">v</entry>' in block
    assert block == render_memory_block([entry("k", "v", expires_at=moment)], turn=2)


def test_an_entry_with_neither_type_nor_description_costs_only_its_key_and_value() -> None:
    # <entry key=""></entry> and a newline: 23 characters, about 6 tokens.
    entries = [entry(f"key_{i:03d}", f"value {i}") for i in range(300)]
    block = render_memory_block(entries)
    content = sum(len(e.key) + len(e.value) for e in entries)
    overhead_chars = len(block) - len("<memory>\n\n</memory>") - content
    assert (overhead_chars + 1) / len(entries) == 23  # n entries, n - 1 newlines between
    per_entry = (
        count_tokens_approximately([HumanMessage(block)])
        - count_tokens_approximately([HumanMessage("<memory>\n\n</memory>")])
    ) / len(entries)
    content_tokens = content / 4 / len(entries)
    assert per_entry - content_tokens <= 12


def test_verbose_is_four_times_the_overhead() -> None:
    entries = [entry(f"k{i}", "v") for i in range(30)]
    compact = render_memory_block(entries)
    verbose = render_memory_block(entries, memory_format="verbose")
    assert len(verbose) > 4 * len(compact)


# ---- custom formats --------------------------------------------------------------------------


def plain_line(e: MemoryEntry) -> str:
    return f'<fact name="{escape_attribute(e.key)}">{escape_text(e.value)}</fact>'


def test_a_callable_writes_each_entry_inside_the_memory_element() -> None:
    block = render_memory_block(
        [entry("a", "</memory><b>x"), entry('"k"', "2")], memory_format=plain_line
    )
    root = ET.fromstring(block)
    assert [(child.tag, child.get("name"), child.text) for child in root] == [
        ("fact", "a", "</memory><b>x"),
        ("fact", '"k"', "2"),
    ]


def read_facts(inner: str) -> list[ParsedEntry]:
    root = ET.fromstring(f"<m>{inner}</m>")
    return [
        ParsedEntry(
            key=unescape(fact.get("name", "")),
            value=unescape(fact.text or ""),
            description=None,
            type=None,
            version=None,
            update_count=None,
            updated_at=None,
        )
        for fact in root
    ]


def test_a_custom_format_round_trips_through_its_own_reader() -> None:
    entries = [entry("a", "</memory><b>x"), entry('"k"', "2\n3")]
    block = render_memory_block(entries, memory_format=plain_line)
    parsed = parse_memory_block("Context:\n" + block, read_entries=read_facts)
    assert [(p.key, p.value) for p in parsed] == [("a", "</memory><b>x"), ('"k"', "2\n3")]


def test_a_custom_block_without_its_reader_is_refused_not_read_as_empty() -> None:
    block = render_memory_block([entry("a", "1")], memory_format=plain_line)
    with pytest.raises(ValueError, match="custom memory_format; pass that format's reader"):
        parse_memory_block(block)
    text_block = render_memory_block(
        [entry("a", "1")], memory_format=lambda e: f"{e.key}={e.value}"
    )
    with pytest.raises(ValueError, match="custom memory_format"):
        parse_memory_block(text_block)


def test_a_callable_that_returns_no_text_is_refused() -> None:
    with pytest.raises(TypeError, match="must return the entry's text"):
        render_memory_block([entry("a", "1")], memory_format=lambda e: None)  # type: ignore[arg-type,return-value]


def test_unknown_formats_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="'compact', 'verbose'"):
        render_memory_block([entry("a", "1")], memory_format="xml")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'compact', 'verbose'"):
        MemoryConfig(memory_format="tiny")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="instruction must be a str"):
        MemoryConfig(instruction=3)  # type: ignore[arg-type]


def test_the_chef_uses_the_configured_format_and_instruction() -> None:
    custom = ContextChef(
        store=InMemoryStore(),
        memory=MemoryConfig(memory_format=plain_line, instruction="Facts you know:"),
    )
    custom.get_memory().set("lang", "Go")
    top = custom.compile(HISTORY).messages[1].text
    assert top == 'Facts you know:\n\n<memory>\n<fact name="lang">Go</fact>\n</memory>'
    bare = ContextChef(store=InMemoryStore(), memory=MemoryConfig(instruction=""))
    bare.get_memory().set("lang", "Go")
    assert bare.compile(HISTORY).messages[1].text.startswith("<memory>")
    default = ContextChef(store=InMemoryStore())
    assert default.compile(HISTORY).messages[1].text == memory_instruction("legacy")


def test_the_turns_left_count_down_while_the_scope_is_unchanged() -> None:
    # An unchanged scope reuses its fitted block; the turns an entry has left are the one part
    # of it that moves with the clock alone, so the block must not be served from an older turn.
    chef = ContextChef(store=InMemoryStore(), clock=FakeClock(tick=timedelta(0)))
    chef.get_memory().set("task", "fix the parser", ttl=Turns(4))
    chef.get_memory().set("lang", "Python")
    seen = [parse_memory_block(chef.compile(HISTORY).messages[1].text) for _ in range(4)]
    assert [[p.expires for p in parsed if p.key == "task"] for parsed in seen] == [
        ["after 3 more turns"],
        ["after 2 more turns"],
        ["after 1 more turn"],
        ["after this turn"],
    ]
    assert chef.compile(HISTORY).meta.expired_keys == ["task"]


def test_the_compile_shows_turns_left_and_drops_the_entry_on_time() -> None:
    chef = ContextChef(store=InMemoryStore(), clock=FakeClock(tick=timedelta(0)))
    chef.get_memory().set("task", "fix the parser", ttl=Turns(2))
    seen = [parse_memory_block(chef.compile(HISTORY).messages[1].text) for _ in range(2)]
    assert [[p.expires for p in parsed] for parsed in seen] == [
        ["after 1 more turn"],
        ["after this turn"],
    ]
    assert chef.compile(HISTORY).meta.expired_keys == ["task"]
