"""Token budgets: counters, fitting the memory block, meta.omitted, and the whole-call budget."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import (
    _WEIGHTS,
    ContextBudget,
    _calibrated_total,
    _features,
    approximate_tokens,
    check_context_budget,
    fit_memory,
    token_counter,
)
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.errors import ContextBudgetExceeded
from langchain_contextchef.render import parse_memory_block, render_memory_block
from langchain_contextchef.selectors import MostImportant

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)


def words(text: str) -> int:
    return len(text.split())


def entries(n: int, size: int = 40) -> list[MemoryEntry]:
    return [
        MemoryEntry(key=f"k{i:03d}", value="word " * size, created_at=T0, updated_at=T0)
        for i in range(n)
    ]


def memory_text(payload_text: str) -> str:
    # The instruction above the block names <memory> too; the block is the last one.
    start = payload_text.rindex("<memory>")
    return payload_text[start:]


# ---- counters ---------------------------------------------------------------------------------


def test_the_default_counter_is_langchains_approximation() -> None:
    counter = token_counter(None)
    assert counter.text("x" * 400) == approximate_tokens("x" * 400) >= 100
    assert counter.messages([HumanMessage("x" * 400)]) >= 100
    assert counter.tools([]) == 0


def test_a_callable_counter_counts_text_messages_and_tool_calls() -> None:
    counter = token_counter(words)
    assert counter.text("one two three") == 3
    assert counter.messages([HumanMessage("one two"), HumanMessage("three")]) == 3

    def call(text: str, query: str) -> AIMessage:
        return AIMessage(text, tool_calls=[{"name": "f", "args": {"q": query}, "id": "1"}])

    # The arguments count: four more words in them are four more tokens, with or without text.
    short, long = call("", "a b c"), call("", "a b c d e f g")
    assert counter.messages([short]) > 0
    assert counter.messages([long]) - counter.messages([short]) == 4
    assert counter.messages([call("x y z", "a b c")]) > counter.messages([short])


def test_a_model_counter_uses_the_models_own_methods() -> None:
    # One "token" per character: clearly not the approximate counter's chars/4.
    model = FakeListChatModel(
        responses=["x"], custom_get_token_ids=lambda text: list(range(len(text)))
    )
    counter = token_counter(model)
    assert counter.text("hello there world") == 17
    messages = [HumanMessage("hello there")]
    assert counter.messages(messages) == model.get_num_tokens_from_messages(messages)


def test_a_bad_counter_fails_at_construction() -> None:
    with pytest.raises(TypeError, match="token_counter must be"):
        token_counter(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="token_counter must be"):
        MemoryConfig(token_counter="words")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="token_budget must be a positive int"):
        MemoryConfig(token_budget=0)


# ---- fit_memory -------------------------------------------------------------------------------


def render(full, index, more):  # type: ignore[no-untyped-def]
    return render_memory_block(full, index=index, unlisted=more)


@pytest.mark.parametrize("memory_format", ["compact", "verbose"])
@pytest.mark.parametrize("budget", [60, 150, 400, 1_000, 5_000])
def test_fit_never_exceeds_the_budget_and_keeps_the_order(budget: int, memory_format: str) -> None:
    pool = entries(120)

    def render(full, index, more):  # type: ignore[no-untyped-def]
        return render_memory_block(full, index=index, unlisted=more, memory_format=memory_format)  # type: ignore[arg-type]

    fitted = fit_memory(
        pool, [], render=render, budget=budget, count=approximate_tokens, index_mode=False
    )
    # Every budget here fits the element (and the verbose header), and none fits all 120.
    assert fitted.block.startswith("<memory>" if memory_format == "compact" else "Saved memory:")
    assert approximate_tokens(fitted.block) <= budget
    assert len(fitted.full) < 120
    assert fitted.full == pool[: len(fitted.full)]
    assert fitted.unlisted == 120 - len(fitted.full)
    assert fitted.block == render(fitted.full, [], fitted.unlisted)
    # One more entry would not have fitted: the cut is tight (also when none fitted).
    bigger = render(pool[: len(fitted.full) + 1], [], fitted.unlisted - 1)
    assert approximate_tokens(bigger) > budget


def test_fit_without_budget_shows_everything() -> None:
    pool = entries(3)
    fitted = fit_memory(
        pool, [], render=render, budget=None, count=approximate_tokens, index_mode=False
    )
    assert fitted.full == pool and fitted.unlisted == 0
    assert fitted.block == render_memory_block(pool)


def test_a_budget_too_small_for_the_header_shows_nothing() -> None:
    fitted = fit_memory(
        entries(3), [], render=render, budget=5, count=approximate_tokens, index_mode=False
    )
    assert fitted.block == "" and fitted.full == [] and fitted.unlisted == 3


def test_index_mode_fills_remaining_budget_with_index_rows() -> None:
    selected, rest = entries(2, size=10), entries(40, size=10)[2:]
    rest = [e.evolve(description=f"about {e.key}") for e in rest]
    fitted = fit_memory(
        selected, rest, render=render, budget=400, count=approximate_tokens, index_mode=True
    )
    assert [e.key for e in fitted.full] == ["k000", "k001"]
    assert 0 < len(fitted.index) < len(rest)
    assert fitted.unlisted == len(rest) - len(fitted.index)
    assert approximate_tokens(fitted.block) <= 400


def test_index_share_keeps_part_of_the_budget_for_index_rows() -> None:
    # More entries than rows can list, so no row budget is left over to give back.
    ranked = [e.evolve(description=f"about {e.key}") for e in entries(300, size=30)]
    greedy = fit_memory(
        ranked, [], render=render, budget=1_000, count=approximate_tokens, index_mode=True
    )
    split = fit_memory(
        ranked,
        [],
        render=render,
        budget=1_000,
        count=approximate_tokens,
        index_mode=True,
        index_share=0.5,
    )
    assert len(split.full) < len(greedy.full)
    assert len(split.index) > len(greedy.index)
    # Rows follow the selector's order right after the full entries.
    assert [e.key for e in split.index] == [e.key for e in ranked[len(split.full) :]][
        : len(split.index)
    ]
    assert approximate_tokens(split.block) <= 1_000
    # The full entries alone (the rest counted in one line, as the fit measures them) keep to
    # their half of the budget.
    full_only = render(split.full, [], len(ranked) - len(split.full))
    assert approximate_tokens(full_only) <= 500


def test_index_share_gives_unused_row_budget_back_to_full_entries() -> None:
    ranked = entries(6, size=20)
    fitted = fit_memory(
        ranked,
        [],
        render=render,
        budget=2_000,
        count=approximate_tokens,
        index_mode=True,
        index_share=0.6,
    )
    assert len(fitted.full) == 6 and fitted.index == [] and fitted.unlisted == 0


@pytest.mark.parametrize("share", [-0.1, 1.0, True])
def test_index_share_is_validated(share: float) -> None:
    with pytest.raises(ValueError, match="index_share"):
        fit_memory(
            entries(2),
            [],
            render=render,
            budget=100,
            count=approximate_tokens,
            index_mode=True,
            index_share=share,
        )


# ---- the memory budget in a compile ------------------------------------------------------------


def test_compile_trims_memory_to_its_budget_and_says_why() -> None:
    chef = ContextChef(
        store=InMemoryStore(),
        memory=MemoryConfig(
            token_budget=300, token_counter=words, selector=MostImportant(), recall="inline"
        ),
    )
    memory = chef.get_memory()
    for i in range(20):
        memory.set(f"k{i:02d}", "word " * 40, importance=float(i))
    memory.set("held", "x")
    payload = chef.compile([SystemMessage("sys"), HumanMessage("hi")])
    block = memory_text(payload.messages[1].text)
    assert words(block) <= 300
    injected = payload.meta.injected_keys
    assert injected == [f"k{i:02d}" for i in range(19, 19 - len(injected), -1)]
    assert [p.key for p in parse_memory_block(block)] == injected
    assert payload.meta.tokens["memory"] <= 300
    left_out = {f"k{i:02d}" for i in range(20)} - set(injected) | {"held"}
    assert payload.meta.omitted == dict.fromkeys(left_out, "budget")
    assert f"{len(left_out)} more stored entries are not shown here" in block


def test_quarantined_entries_are_reported_as_such() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(token_budget=1_000))
    memory = chef.get_memory()
    memory.set("ok", "fine")
    item = memory.store.get(memory.namespace, "ok")
    assert item is not None
    memory.store.put(memory.namespace, "held", {**item.value, "status": "quarantined"})
    payload = chef.compile([HumanMessage("hi")])
    assert payload.meta.injected_keys == ["ok"]
    assert payload.meta.omitted == {"held": "quarantined"}


def test_without_a_budget_the_block_and_meta_are_unchanged() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(token_budget=None))
    chef.get_memory().set("a", "1")
    payload = chef.compile([HumanMessage("hi")])
    assert payload.meta.omitted == {} and payload.meta.tokens == {}
    assert "more stored" not in payload.messages[0].text


# ---- the context budget -----------------------------------------------------------------------


def make_chef(budget: ContextBudget) -> ContextChef:
    # Inline, so what the context budget trims is omitted rather than listed in the index.
    config = MemoryConfig(recall="inline")
    chef = ContextChef(store=InMemoryStore(), memory=config, context_budget=budget)
    memory = chef.get_memory()
    for i in range(10):
        memory.set(f"fact_{i}", "word " * 50)
    return chef


def test_meta_tokens_reports_every_layer() -> None:
    chef = make_chef(ContextBudget(model_limit=100_000, reserved_output=1_000, token_counter=words))
    payload = chef.compile(
        [SystemMessage("one two three"), HumanMessage("four five")],
        dynamic_state={"step": "six"},
    )
    tokens = payload.meta.tokens
    assert set(tokens) == {"system", "memory", "dynamic_state", "history", "tools", "total"}
    assert tokens["history"] == 2
    assert tokens["system"] > 3  # the prompt plus the memory instruction
    assert tokens["memory"] >= 500 and tokens["dynamic_state"] > 0 and tokens["tools"] > 0
    assert tokens["total"] == sum(v for k, v in tokens.items() if k != "total")
    assert len(payload.meta.injected_keys) == 10


def test_context_budget_memory_cap_trims_memory() -> None:
    budget = ContextBudget(model_limit=100_000, memory=200, token_counter=words)
    chef = make_chef(budget)
    payload = chef.compile([HumanMessage("hi")])
    assert payload.meta.tokens["memory"] <= 200
    assert 0 < len(payload.meta.injected_keys) < 10
    assert set(payload.meta.omitted.values()) == {"budget"}


def test_over_budget_trims_memory_first() -> None:
    probe = make_chef(ContextBudget(model_limit=100_000, token_counter=words))
    full = probe.compile([HumanMessage("hi")]).meta.tokens
    limit = full["total"] - 200  # memory must give up at least 200 tokens
    chef = make_chef(ContextBudget(model_limit=limit + 10, reserved_output=10, token_counter=words))
    payload = chef.compile([HumanMessage("hi")])
    assert payload.meta.tokens["total"] <= limit
    assert payload.meta.tokens["memory"] < full["memory"]
    assert "context_budget" in payload.meta.omitted.values()
    assert len(payload.meta.injected_keys) < 10


def test_still_over_budget_raises_with_every_layer_and_what_to_do() -> None:
    chef = make_chef(ContextBudget(model_limit=300, reserved_output=100, token_counter=words))
    history = [HumanMessage("word " * 400)]
    with pytest.raises(ContextBudgetExceeded) as raised:
        chef.compile(history)
    text = str(raised.value)
    assert "history 400" in text and "memory 0" in text
    assert "allows 200" in text and "model_limit 300" in text
    assert "Shorten the largest layer" in text


def test_context_budget_without_memory_still_checks() -> None:
    chef = ContextChef(
        store=InMemoryStore(),
        memory=None,
        context_budget=ContextBudget(model_limit=50, token_counter=words),
    )
    assert chef.compile([HumanMessage("a b c")]).meta.tokens["history"] == 3
    with pytest.raises(ContextBudgetExceeded):
        chef.compile([HumanMessage("word " * 60)])


def test_check_context_budget_counts_missing_layers_as_zero() -> None:
    check_context_budget(ContextBudget(model_limit=10), {"history": 10})
    with pytest.raises(ContextBudgetExceeded, match="system 0, memory 0"):
        check_context_budget(ContextBudget(model_limit=10), {"history": 11})


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"model_limit": -1}, "model_limit must be a non-negative int"),
        ({"model_limit": 100, "reserved_output": 100}, "must be smaller than model_limit"),
        ({"model_limit": 100, "memory": 1.5}, "memory must be"),
    ],
)
def test_context_budget_validation(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ContextBudget(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a ContextBudget"):
        ContextChef(store=InMemoryStore(), context_budget=1000)  # type: ignore[arg-type]


def _features_one_pass_each(text: str) -> tuple[int, ...]:
    # The plain definition of the calibrated counter's features, one regular expression each.
    long_letters = re.compile(r"[^\W\d_]{7,}")
    return (
        len(re.findall(r"[^\W\d_]+", text)),
        sum(len(w) - 6 for w in long_letters.findall(text)),
        len(re.findall(r"\d{1,3}", text)),
        len(re.findall(r"(?:[^\w\s]|_)+", text)),
        len(re.findall(r"[^\w\s]|_", text)),
        len(re.findall(r"\n+", text)),
    )


@settings(max_examples=500, deadline=None)
@given(st.text() | st.text(alphabet='ab_1 \n<>="\u00a0\u3000\u0663\u2028\x1c'))
def test_the_counter_s_features_match_their_plain_definition(text: str) -> None:
    assert _features(text) == _features_one_pass_each(text)


@settings(max_examples=500, deadline=None)
@given(st.tuples(*(st.integers(0, 100_000) for _ in range(6))))
def test_the_calibrated_total_is_the_weighted_sum_rounded(features: tuple[int, ...]) -> None:
    # The plain definition: each weight times its count, added in order, rounded, at least 1.
    plain = max(1, round(sum(w * f for w, f in zip(_WEIGHTS, features, strict=True))))
    assert _calibrated_total(features) == plain
