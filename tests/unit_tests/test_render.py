"""Rendering: the <memory> block, the instruction, dynamic state and implicit context."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta, timezone
from enum import Enum

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from pydantic import BaseModel, Field, ValidationError

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import (
    ANCHOR_LINE,
    ParsedEntry,
    memory_instruction,
    parse_memory_block,
    render_dynamic_state,
    render_implicit_context,
    render_memory_block,
)

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)
FORMATS = ["compact", "verbose"]


def entry(key: str, value: str, **fields: object) -> MemoryEntry:
    return MemoryEntry(key=key, value=value, created_at=NOW, updated_at=NOW, **fields)  # type: ignore[arg-type]


def memory_element(block: str) -> ET.Element:
    start = block.index("<memory>")
    end = block.index("</memory>", start) + len("</memory>")
    return ET.fromstring(block[start:end])


# --- instruction -------------------------------------------------------------------------


def test_legacy_instruction_names_the_legacy_tools_only() -> None:
    text = memory_instruction("legacy")
    assert "create_memory" in text
    assert "modify_memory" in text
    assert "context://" not in text
    assert memory_instruction() == text


def test_unified_instruction_names_the_context_tool_and_its_addresses() -> None:
    # The commands are the enum of the tool's schema; the instruction does not repeat them.
    text = memory_instruction("unified")
    assert "context tool" in text
    assert "context://memory/<key>" in text
    assert "context://notes/" in text
    assert "create_memory" not in text
    assert "archive" not in text
    assert len(text.encode()) < 400


@pytest.mark.parametrize("vocabulary", ["legacy", "unified"])
def test_instructions_are_short_and_say_what_memory_is_for(vocabulary: str) -> None:
    text = memory_instruction(vocabulary)  # type: ignore[arg-type]
    assert "across" in text and "conversations" in text
    assert "every turn" in text  # what is shown needs no tool call to read
    assert "lasting facts" in text  # what to save; create_memory's type enum names the kinds
    assert "earlier conversations" not in text  # also said of entries saved a moment ago
    assert count_tokens_approximately([SystemMessage(text)]) <= 75


@pytest.mark.parametrize("vocabulary", ["legacy", "unified"])
def test_instruction_is_a_few_lines_without_trailing_newline(vocabulary: str) -> None:
    text = memory_instruction(vocabulary)  # type: ignore[arg-type]
    assert 2 <= len(text.splitlines()) <= 6
    assert not text.endswith("\n")


def test_unknown_vocabulary_is_rejected_with_the_choices() -> None:
    with pytest.raises(ValueError, match="one of: 'legacy', 'unified'"):
        memory_instruction("mcp")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one of: 'legacy', 'unified'"):
        render_memory_block([entry("a", "b")], vocabulary="mcp")  # type: ignore[arg-type]


# --- memory block layout -----------------------------------------------------------------


def test_no_entries_renders_nothing() -> None:
    assert render_memory_block([]) == ""
    assert render_memory_block([], allowed_keys=["a"], vocabulary="unified") == ""


def test_block_layout_is_exact() -> None:
    entries = [
        entry("lang", "TypeScript", description="Primary project language"),
        entry("style", "functional", type="preference", update_count=3),
    ]
    block = render_memory_block(entries, memory_format="verbose")
    lines = block.split("\n")
    header, guidance = lines[0], lines[-1]
    assert header == "Saved memory:"
    assert lines[1:-2] == [
        "<memory>",
        '<entry key="lang" version="1">',
        "<description>",
        "Primary project language",
        "</description>",
        "<updated_at>2026-05-25T00:00:00.000Z</updated_at>",
        "<update_count>1</update_count>",
        "<value>",
        "TypeScript",
        "</value>",
        "</entry>",
        "",
        '<entry key="style" version="3" type="preference">',
        "<updated_at>2026-05-25T00:00:00.000Z</updated_at>",
        "<update_count>3</update_count>",
        "<value>",
        "functional",
        "</value>",
        "</entry>",
        "</memory>",
    ]
    assert lines[-2] == ""
    assert '"lang", "style"' in guidance
    assert "modify_memory" in guidance


def test_updated_at_is_utc_with_milliseconds() -> None:
    moment = datetime(2026, 1, 2, 5, 4, 5, 123987, tzinfo=timezone(timedelta(hours=2)))
    block = render_memory_block(
        [entry("k", "v").evolve(updated_at=moment)], memory_format="verbose"
    )
    assert "<updated_at>2026-01-02T03:04:05.123Z</updated_at>" in block
    naive = datetime(2026, 1, 2, 3, 4, 5)
    assert "<updated_at>2026-01-02T03:04:05.000Z</updated_at>" in render_memory_block(
        [entry("k", "v").evolve(updated_at=naive)], memory_format="verbose"
    )


@pytest.mark.parametrize("memory_format", FORMATS)
def test_entries_keep_the_given_order(memory_format: str) -> None:
    keys = ["zeta", "alpha", "mid"]
    rendered = render_memory_block([entry(k, k.upper()) for k in keys], memory_format=memory_format)  # type: ignore[arg-type]
    parsed = parse_memory_block(rendered)
    assert [p.key for p in parsed] == keys
    assert [p.value for p in parsed] == ["ZETA", "ALPHA", "MID"]


@pytest.mark.parametrize("memory_format", FORMATS)
def test_rendering_is_byte_stable(memory_format: str) -> None:
    entries = [entry("a", "1", description="d"), entry("b", "2\n3", type="fact")]
    first = render_memory_block(entries, memory_format=memory_format)  # type: ignore[arg-type]
    copies = [e.evolve() for e in entries]  # equal entries, other objects
    assert first == render_memory_block(copies, memory_format=memory_format)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("vocabulary", "allowed", "must", "must_not"),
    [
        ("legacy", None, ['"a", "b"', "modify_memory"], ["context://"]),
        ("legacy", ["a", "x"], ['"a", "x"', "Only these"], ['"b"']),
        ("legacy", [], ["No memory key may be written"], ['"a"']),
        ("unified", None, ['"a", "b"', "context://memory/<key>"], ["modify_memory"]),
        ("unified", ["a", "x"], ['"a", "x"', "context://memory/"], ['"b"', "modify_memory"]),
        ("unified", [], ["context://memory/", "read-only"], ['"a"']),
    ],
)
def test_key_guidance_follows_allowed_keys_and_vocabulary(
    vocabulary: str, allowed: list[str] | None, must: list[str], must_not: list[str]
) -> None:
    block = render_memory_block(
        [entry("a", "1"), entry("b", "2")],
        allowed_keys=allowed,
        vocabulary=vocabulary,  # type: ignore[arg-type]
        memory_format="verbose",
    )
    guidance = block.rsplit("\n", 1)[1]
    for text in must:
        assert text in guidance
    for text in must_not:
        assert text not in guidance


def test_unified_header_points_at_the_context_address() -> None:
    block = render_memory_block([entry("a", "1")], vocabulary="unified", memory_format="verbose")
    assert "context://memory/<key>" in block.split("\n", 1)[0]
    assert "context tool" in block.split("\n", 1)[0]


@pytest.mark.parametrize("memory_format", FORMATS)
def test_ordinary_text_stays_readable(memory_format: str) -> None:
    value = "Don't use tabs:\tuse 4 spaces.\nArrows -> fine; 'quotes' and \"double\" too. 🙂"
    block = render_memory_block([entry("style", value)], memory_format=memory_format)  # type: ignore[arg-type]
    # Only & < and ]]> are escaped in text; newlines, tabs, quotes and emoji stay as they are.
    assert value in block


@pytest.mark.parametrize("memory_format", FORMATS)
def test_key_guidance_cannot_carry_markup_from_keys(memory_format: str) -> None:
    key = "</memory><memory>"
    # allowed_keys makes the compact format write its guidance line too.
    block = render_memory_block([entry(key, "v")], allowed_keys=[key], memory_format=memory_format)  # type: ignore[arg-type]
    after = block[block.index("</memory>") + len("</memory>") :]
    assert after.strip() and "<" not in after
    assert parse_memory_block(block)[0].key == key


def test_parse_finds_the_block_inside_a_longer_message() -> None:
    for memory_format, parsed in [
        ("compact", ParsedEntry("k", "v", None, None, None, None, None)),
        ("verbose", ParsedEntry("k", "v", None, None, 1, 1, "2026-05-25T00:00:00.000Z")),
    ]:
        block = render_memory_block([entry("k", "v")], memory_format=memory_format)  # type: ignore[arg-type]
        message = "Here is <memory> talk from the user.\n\n" + block + "\n\n<dynamic_state/>"
        assert parse_memory_block(message) == [parsed]


def test_parse_without_a_block_says_what_to_pass() -> None:
    with pytest.raises(ValueError, match="render_memory_block"):
        parse_memory_block("no block here")


NASTY = [
    "</memory>",
    "</entry>",
    "]]>",
    "<![CDATA[x]]>",
    '"',
    "'",
    "&",
    "&amp;",
    "&#0;",
    "\r",
    "\r\n",
    "\n",
    "\t",
    "",
    " ",
    "\x00",
    "\x01\x08\x0b\x0c\x0e\x1f",
    "\x7f\x85",
    "\ufffe\uffff",
    "\ud800",
    "\udfff\ud83d",
    "\u241b",
    "\u241b{0000}",
    "␛{241B}",
    "🙂👩‍💻",
    '<entry key="forged" version="9">',
    "\n\nleading and trailing newlines\n\n",
]


@pytest.mark.parametrize("memory_format", FORMATS)
def test_every_nasty_string_round_trips_in_every_position(memory_format: str) -> None:
    entries = [
        entry(text, text, description=text, type=text, update_count=i + 1)
        for i, text in enumerate(NASTY)
    ]
    block = render_memory_block(
        entries,
        allowed_keys=NASTY,
        vocabulary="unified",
        memory_format=memory_format,  # type: ignore[arg-type]
    )
    element = memory_element(block)
    assert [e.tag for e in element] == ["entry"] * len(NASTY)
    parsed = parse_memory_block(block)
    assert [(p.key, p.value, p.description, p.type) for p in parsed] == [
        (t, t, t, t) for t in NASTY
    ]
    versions = list(range(1, len(NASTY) + 1)) if memory_format == "verbose" else [None] * len(NASTY)
    assert [p.version for p in parsed] == versions
    # Every rendered message must be sendable: valid UTF-8 with no lone surrogates.
    block.encode("utf-8")


keys_values = st.lists(
    st.tuples(
        st.text(),
        st.text(),
        st.one_of(st.none(), st.text()),
        st.one_of(st.none(), st.text(max_size=8)),
    ),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(
    items=keys_values,
    vocabulary=st.sampled_from(["legacy", "unified"]),
    memory_format=st.sampled_from(FORMATS),
)
@example(items=[(t, t, t, t) for t in NASTY], vocabulary="legacy", memory_format="verbose")
@example(items=[(t, t, t, t) for t in NASTY], vocabulary="legacy", memory_format="compact")
@example(
    items=[("a", "]]>", None, None), ("</memory>", "\r\n", "&", '"')],
    vocabulary="unified",
    memory_format="compact",
)
def test_property_block_parses_and_round_trips(
    items: list[tuple[str, str, str | None, str | None]], vocabulary: str, memory_format: str
) -> None:
    entries = [
        entry(key, value, description=description, type=kind, update_count=i + 1)
        for i, (key, value, description, kind) in enumerate(items)
    ]
    block = render_memory_block(entries, vocabulary=vocabulary, memory_format=memory_format)  # type: ignore[arg-type]
    if not items:
        assert block == ""
        return
    element = memory_element(block)
    assert element.tag == "memory"
    assert [child.tag for child in element] == ["entry"] * len(items)
    verbose = memory_format == "verbose"
    versions = [str(i + 1) if verbose else None for i in range(len(items))]
    assert [child.get("version") for child in element] == versions
    parsed = parse_memory_block(block)
    assert [(p.key, p.value, p.description, p.type) for p in parsed] == items
    updated = "2026-05-25T00:00:00.000Z" if verbose else None
    assert all(p.updated_at == updated for p in parsed)


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet=st.characters(codec=None)), memory_format=st.sampled_from(FORMATS))
def test_property_characters_from_every_plane_round_trip(text: str, memory_format: str) -> None:
    block = render_memory_block([entry(text, text, description=text)], memory_format=memory_format)  # type: ignore[arg-type]
    (parsed,) = parse_memory_block(block)
    assert (parsed.key, parsed.value, parsed.description) == (text, text, text)


# --- dynamic state -----------------------------------------------------------------------


class Step(BaseModel):
    title: str
    done: bool = False


class Plan(BaseModel):
    active_file: str
    steps: list[Step]
    budget: float | None = None
    labels: dict[str, int] = Field(default_factory=dict)


def test_nested_model_renders_indented_two_spaces_per_level() -> None:
    plan = Plan(
        active_file="auth.py",
        steps=[Step(title="read", done=True), Step(title="fix")],
        labels={"bug": 2},
    )
    assert render_dynamic_state(plan) == "\n".join(
        [
            "<dynamic_state>",
            "  <active_file>auth.py</active_file>",
            "  <steps>",
            "    <item>",
            "      <title>read</title>",
            "      <done>true</done>",
            "    </item>",
            "    <item>",
            "      <title>fix</title>",
            "      <done>false</done>",
            "    </item>",
            "  </steps>",
            "  <budget/>",
            "  <labels>",
            "    <bug>2</bug>",
            "  </labels>",
            "</dynamic_state>",
        ]
    )


def test_schema_validates_a_mapping_first() -> None:
    xml = render_dynamic_state(
        {"active_file": "a.py", "steps": [{"title": "t"}], "budget": "1.5"}, schema=Plan
    )
    assert "<budget>1.5</budget>" in xml
    assert "<done>false</done>" in xml  # the schema's default was applied
    assert "<labels/>" in xml


def test_schema_mismatch_raises_validation_error() -> None:
    with pytest.raises(ValidationError):
        render_dynamic_state({"active_file": "a.py", "steps": "not a list"}, schema=Plan)
    with pytest.raises(ValidationError):
        render_dynamic_state({"steps": []}, schema=Plan)


def test_dict_with_lists_of_lists_and_none() -> None:
    xml = render_dynamic_state({"grid": [[1, 2], []], "nothing": None, "empty": {}})
    assert xml == "\n".join(
        [
            "<dynamic_state>",
            "  <grid>",
            "    <item>",
            "      <item>1</item>",
            "      <item>2</item>",
            "    </item>",
            "    <item/>",
            "  </grid>",
            "  <nothing/>",
            "  <empty/>",
            "</dynamic_state>",
        ]
    )
    ET.fromstring(xml)


def test_text_is_escaped_and_reads_back() -> None:
    nasty = 'a </dynamic_state> & "b" ]]> \x00 \r\n tab\t'
    xml = render_dynamic_state({"note": nasty})
    root = ET.fromstring(xml)
    assert [child.tag for child in root] == ["note"]
    text = root.findtext("note")
    assert text is not None
    assert text.replace("\u241b{0000}", "\x00") == nasty


def test_tag_names_are_sanitised_and_keep_the_original() -> None:
    state = {"a b": 1, "a_b": 2, "1st": 3, "": 4, "ok-name.v2": 5, "x/y<z>": 6, "é": 7}
    xml = render_dynamic_state(state)
    root = ET.fromstring(xml)
    children = list(root)
    assert [c.tag for c in children] == ["a_b", "a_b", "_1st", "_", "ok-name.v2", "x_y_z_", "_"]
    originals = [c.get("key") for c in children]
    assert originals == ["a b", None, "1st", "", None, "x/y<z>", "é"]
    # Every original key can be recovered, so distinct keys stay distinct.
    recovered = [c.get("key", c.tag) for c in children]
    assert recovered == list(state)
    assert [c.text for c in children] == [str(v) for v in state.values()]


def test_non_json_values_are_converted_like_pydantic_json_mode() -> None:
    class Color(Enum):
        RED = "red"

    xml = render_dynamic_state({"day": date(2026, 5, 25), "color": Color.RED, "tags": ("x",)})
    assert "<day>2026-05-25</day>" in xml
    assert "<color>red</color>" in xml
    assert "<item>x</item>" in xml


def test_unserialisable_value_and_non_mapping_state_raise_type_error() -> None:
    with pytest.raises(TypeError, match="JSON-compatible"):
        render_dynamic_state({"x": object()})
    with pytest.raises(TypeError, match="mapping or a pydantic model"):
        render_dynamic_state(["a", "b"])  # type: ignore[arg-type]


def test_empty_state_is_an_empty_block() -> None:
    assert render_dynamic_state({}) == "<dynamic_state>\n</dynamic_state>"


def test_dynamic_state_is_byte_stable() -> None:
    plan = Plan(active_file="f", steps=[Step(title="s")])
    assert render_dynamic_state(plan) == render_dynamic_state(plan.model_copy(deep=True))


# --- implicit context and anchor ---------------------------------------------------------


def test_implicit_context_is_escaped() -> None:
    block = render_implicit_context("<related_code>fn()</related_code> & more")
    assert block == (
        "<implicit_context>\n"
        "&lt;related_code>fn()&lt;/related_code> &amp; more\n"
        "</implicit_context>"
    )
    assert ET.fromstring(block).text == "\n<related_code>fn()</related_code> & more\n"


def test_empty_implicit_context_renders_nothing() -> None:
    assert render_implicit_context("") == ""


def test_anchor_is_one_line() -> None:
    assert ANCHOR_LINE.strip() == ANCHOR_LINE
    assert "\n" not in ANCHOR_LINE
