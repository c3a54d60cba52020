"""The compile pipeline, top to bottom: read -> sweep -> clock -> select -> fit -> render -> splice.

One plan per compile, run by the sync or the async driver:

1. the `on_before_compile` hook (implicit context) and the dynamic state are rendered;
2. memory's compile read sweeps expired entries, advances the turn clock and selects
   (`memory._plans.compile_read`);
3. the selected entries are fitted to the memory token budget and rendered (`fit_block`);
4. with a `ContextBudget`, every layer is counted and memory is trimmed first
   (`fit_context`);
5. the blocks are spliced into the messages (`splice.place`), and the layout is kept in the
   payload for steps that need to know what went where.

`ContextChef` builds the settings once and runs this plan; the prompt runnable depends only on
the `Compiler` protocol, not on the facade.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import BaseModel

from langchain_contextchef._literals import (
    DynamicStatePlacement,
    MemoryPlacement,
    SystemLayout,
    ToolVocabulary,
    TurnUnit,
)
from langchain_contextchef._plan import Call, Plan
from langchain_contextchef.budget import (
    CALIBRATED_COUNTS,
    LAYERS,
    ContextBudget,
    FitMemo,
    FittedMemory,
    Omitted,
    calibrated_tokens,
    check_context_budget,
    fit_memory,
    token_counter,
)
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import CompileRead, MemoryContext
from langchain_contextchef.memory._plans import compile_read
from langchain_contextchef.query import conversation_query
from langchain_contextchef.render import (
    entry_counters,
    memory_instruction,
    render_dynamic_state,
    render_implicit_context,
    render_memory_block,
    unlisted_line,
)
from langchain_contextchef.splice import Spliced, place

__all__ = [
    "BeforeCompileHook",
    "CompileInput",
    "CompileMeta",
    "CompileSettings",
    "CompiledPayload",
    "Compiler",
    "DynamicState",
    "user_message_marker",
]

DynamicState: TypeAlias = "BaseModel | Mapping[str, Any] | None"
BeforeCompileHook: TypeAlias = "Callable[[CompileInput], str | None]"


@dataclass(frozen=True)
class CompileInput:
    """What an `on_before_compile` hook sees.

    Attributes:
        messages: The caller's messages, untouched.
        dynamic_state: The dynamic state given to this compile, if any.
        config: The run's config, if any.
    """

    messages: Sequence[BaseMessage]
    dynamic_state: Any
    config: RunnableConfig | None


@dataclass(frozen=True)
class CompileMeta:
    """What a compile did, for logs, traces and tests.

    Attributes:
        injected_keys: Keys rendered into the prompt, in the order shown.
        expired_keys: Keys this compile's sweep deleted.
        turn: The scope's turn clock after this compile (the number of compiles so far).
        scope: The resolved namespace prefix the memory was read from.
        omitted: Stored keys that were not injected, with the reason: `"selector"`,
            `"budget"` (the memory token budget), `"context_budget"` (trimmed so the whole
            call fits `ContextBudget`), `"quarantined"`, or `"damaged"`.
        indexed_keys: Keys listed in `<memory_index>` without their value (recall mode).
        evicted_keys: Keys evicted over `max_entries` since the previous compile; the block
            tells the model about them once.
        tokens: Tokens per layer (`system`, `memory`, `dynamic_state`, `history`, `tools`)
            and `total`, when the chef has a `context_budget`; with only a memory
            `token_budget`, just `memory`.
        damaged_keys: Stored keys whose data cannot be read (edited by hand or by other
            code): skipped, never blocking the compile; repair them with `Memory.set`.
        repaired: Scope items this compile found damaged and rewrote. `"clock"`: the turn
            clock held no valid turn (not an int, negative, too large, or not JSON); the
            compile recovered the latest turn the entries allow (one below the smallest
            turn-based expiry, so nothing expires early; 0 without such entries), logged a
            warning and stored the repaired clock.
    """

    injected_keys: list[str] = field(default_factory=list)
    expired_keys: list[str] = field(default_factory=list)
    turn: int = 0
    scope: tuple[str, ...] = ()
    omitted: Mapping[str, str] = field(default_factory=dict)
    indexed_keys: list[str] = field(default_factory=list)
    evicted_keys: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    damaged_keys: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CompiledPayload:
    """The result of `ContextChef.compile`.

    Attributes:
        messages: The messages to send, with memory and dynamic state spliced in.
        tools: The memory tools to bind; the same objects on every compile.
        meta: What the compile did.
        layout: Where the splice put things (the system layer's end, the volatile tail).
    """

    messages: list[BaseMessage]
    tools: list[BaseTool]
    meta: CompileMeta
    layout: Spliced | None = None


class Compiler(Protocol):
    """Anything that compiles messages into a payload, sync and async (`ContextChef` does)."""

    def compile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> CompiledPayload:
        """Build the messages for one model call."""
        ...

    async def acompile(
        self,
        messages: Sequence[BaseMessage],
        *,
        dynamic_state: DynamicState = None,
        config: RunnableConfig | None = None,
        context: Any = None,
    ) -> CompiledPayload:
        """Async `compile`."""
        ...


@dataclass(frozen=True)
class CompileSettings:
    """Everything about a compile that is fixed when the chef is built.

    Attributes:
        vocabulary: The memory tools the model has (named by the instruction and block).
        tools: The memory tools, counted in the `tools` layer of a context budget.
        dynamic_state_placement: Where dynamic state and implicit context go.
        dynamic_state_schema: A pydantic model dynamic state must validate against.
        on_before_compile: A hook returning implicit context, or `None`.
        context_budget: A token budget for the whole call, or `None`.
        turn_unit: What advances the turn clock: every compile (`model_call`) or every new
            user message (`user_message`).
        system_layout: Whether memory gets a system message of its own (`separate`) or is
            merged into the developer's (`merged`).
    """

    vocabulary: ToolVocabulary
    tools: tuple[BaseTool, ...] = ()
    dynamic_state_placement: DynamicStatePlacement = "last_user"
    dynamic_state_schema: type[BaseModel] | None = None
    on_before_compile: BeforeCompileHook | None = None
    context_budget: ContextBudget | None = None
    turn_unit: TurnUnit = "model_call"
    system_layout: SystemLayout = "separate"


def check_messages(messages: object) -> list[BaseMessage]:
    """The messages of a compile, refusing anything that is not a list of LangChain messages.

    A string is refused rather than read as one user message: `compile("hi")` is a mistake
    that must not advance the turn clock. (`ContextChef.prompt` accepts strings.)

    Raises:
        TypeError: Naming what was given and what to pass.
    """
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        msg = (
            "compile() takes a list of LangChain messages, e.g. [HumanMessage('hi')]; got "
            f"{type(messages).__name__}. (chef.prompt.invoke('hi') accepts a plain string.)"
        )
        raise TypeError(msg)
    bad = next((m for m in messages if not isinstance(m, BaseMessage)), None)
    if bad is not None:
        msg = (
            f"compile() takes LangChain messages, but the list holds a {type(bad).__name__}: "
            f"{bad!r:.80}. Convert it with langchain_core.messages.convert_to_messages first."
        )
        raise TypeError(msg)
    return list(messages)


def last_user_text(messages: Sequence[BaseMessage]) -> str:
    """The text of the last user message, which relevance selectors rank against."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.text)
    return ""


def user_message_marker(messages: Sequence[BaseMessage]) -> str:
    """What identifies the last user message across the model calls that answer it.

    Its id when it has one (LangGraph gives every message in its state an id); otherwise a
    digest of its position and content, so the same text sent again later is a new message.
    """
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, HumanMessage):
            if message.id:
                return f"id:{message.id}"
            data = json.dumps([index, message.content], sort_keys=True, default=str)
            return "sha256:" + hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()
    return "none"


_FIT_MEMO = "fit_memo"
"""The first part of the key under which a scope's slot keeps its `FitMemo`s."""


def _shows_turns(entry: MemoryEntry) -> bool:
    # A compact entry with a turn-based expiry shows the turns it has left: its text and
    # counts change every turn, so no fit keeps them.
    return entry.expires_at_turn is not None


def fit_block(
    read: CompileRead,
    ctx: MemoryContext,
    *,
    vocabulary: ToolVocabulary,
    budget: int | None,
    count: Callable[[str], int],
) -> tuple[FittedMemory, Omitted]:
    """Render the compile's memory block within `budget`, and say why each key is left out.

    Returns:
        The fitted block, and key -> reason for every surviving entry not shown in full
        and not indexed (`"selector"`, `"budget"`, `"quarantined"`), worked out when read.
    """
    index_mode = ctx.config.recall == "index"

    def render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        return render_memory_block(
            full,
            allowed_keys=ctx.allowed_keys,
            vocabulary=vocabulary,
            index=index,
            unlisted=more,
            evicted_keys=read.evicted_keys,
            memory_format=ctx.config.memory_format,
            turn=read.turn,
        )

    slot = ctx.slot() if budget is not None else None
    entry_tokens, row_tokens = entry_counters(slot, ctx.config.memory_format, count, read.turn)
    # The calibrated count of a compact block is a sum over its lines: the fit sizes the
    # blocks it tries from each entry's counts (kept per entry version) without rendering them.
    summed = count is calibrated_tokens and ctx.config.memory_format == "compact"
    counts = CALIBRATED_COUNTS if summed else None
    entry_counts, row_counts = (
        entry_counters(slot, "compact", CALIBRATED_COUNTS.piece, read.turn)
        if summed
        else (None, None)
    )
    memo = None
    if summed and slot is not None and not read.evicted_keys:
        # What the last fit with these settings read, kept across writes (the entries it
        # read are compared by identity; an unchanged entry is the same object).
        frame = (_FIT_MEMO, ctx.allowed_keys, vocabulary)
        memo = slot.state.get(frame)
        if memo is None:
            # The compact block's "N more" line is a part of its own, the rest does not
            # depend on its number: a fit taken again puts the new line in the last block.
            memo = slot.state[frame] = FitMemo(_shows_turns, line_only=True)
    fitted = fit_memory(
        read.selected,
        read.unselected,
        render=render,
        budget=budget,
        count=count,
        index_mode=index_mode,
        index_share=ctx.config.recall_index_share,
        entry_tokens=entry_tokens,
        row_tokens=row_tokens,
        counts=counts,
        entry_counts=entry_counts,
        row_counts=row_counts,
        # The block's line about `n` entries neither shown nor indexed, as it renders it.
        unlisted_line=lambda n: unlisted_line(n, vocabulary),
        memo=memo,
    )
    shown = {e.key for e in fitted.full} | {e.key for e in fitted.index}

    def reasons() -> dict[str, str]:
        omitted = {k: why for k, why in read.omitted.items() if k not in shown}
        for entry in read.selected:
            if entry.key not in shown:
                omitted[entry.key] = "budget"
        if index_mode:  # unselected entries would have been indexed but for the budget
            for entry in read.unselected:
                if entry.key not in shown:
                    omitted[entry.key] = "budget"
        return omitted

    return fitted, Omitted(reasons)


def layer_tokens(
    settings: CompileSettings,
    messages: Sequence[BaseMessage],
    instruction: str | None,
    state: str,
    block: str,
) -> dict[str, int]:
    """Tokens per layer of one call, counted with the context budget's counter."""
    assert settings.context_budget is not None
    counter = token_counter(settings.context_budget.token_counter)
    system = [m for m in messages if isinstance(m, SystemMessage)]
    history = [m for m in messages if not isinstance(m, SystemMessage)]
    sizes = {
        "system": (counter.messages(system) if system else 0)
        + (counter.text(instruction) if instruction else 0),
        "memory": counter.text(block) if block else 0,
        "dynamic_state": counter.text(state) if state else 0,
        "history": counter.messages(history) if history else 0,
        "tools": counter.tools(settings.tools) + settings.context_budget.extra_tools,
    }
    return {layer: sizes[layer] for layer in LAYERS}


def fit_context(
    settings: CompileSettings,
    read: CompileRead,
    ctx: MemoryContext,
    fitted: FittedMemory,
    omitted: Omitted,
    layers: tuple[Sequence[BaseMessage], str | None, str],
) -> tuple[FittedMemory, dict[str, int]]:
    """Trim memory until the whole call fits the context budget, or raise.

    Raises:
        ContextBudgetExceeded: When the call does not fit even without memory.
    """
    # Memory is knowledge the model can ask for again, so it gives way first; the
    # system prompt, state and history are never cut here.
    assert settings.context_budget is not None
    counter = token_counter(settings.context_budget.token_counter)
    tokens = layer_tokens(settings, *layers, fitted.block)
    over = sum(tokens.values()) - settings.context_budget.input_budget
    if over > 0 and fitted.block:
        room = max(0, tokens["memory"] - over)
        before = {e.key for e in [*fitted.full, *fitted.index]}
        fitted, _ = fit_block(
            read, ctx, vocabulary=settings.vocabulary, budget=room, count=counter.text
        )
        after = {e.key for e in [*fitted.full, *fitted.index]}
        omitted.update((key, "context_budget") for key in before - after)
        tokens["memory"] = counter.text(fitted.block) if fitted.block else 0
    check_context_budget(settings.context_budget, tokens)
    return fitted, {**tokens, "total": sum(tokens.values())}


def _memory_budget(settings: CompileSettings, ctx: MemoryContext) -> int | None:
    budgets = [ctx.config.token_budget]
    if settings.context_budget is not None:
        budgets.append(settings.context_budget.memory)
    limits = [b for b in budgets if b is not None]
    return min(limits) if limits else None


def compile_plan(
    settings: CompileSettings,
    messages: Sequence[BaseMessage],
    dynamic_state: Any,
    config: RunnableConfig | None,
    ctx: MemoryContext | None,
) -> Plan[CompiledPayload]:
    """The whole compile of one model call, as a plan (`ctx` is `None` without memory)."""
    state_xml = ""
    if dynamic_state is not None:
        state_xml = render_dynamic_state(dynamic_state, schema=settings.dynamic_state_schema)
    implicit = ""
    if settings.on_before_compile is not None:
        text = yield Call(
            settings.on_before_compile,
            (CompileInput(messages, dynamic_state, config),),
            "on_before_compile",
        )
        if text:
            implicit = render_implicit_context(str(text))
    meta = CompileMeta()
    instruction: str | None = None
    block = ""
    placement: MemoryPlacement = "after_system"
    if ctx is not None:
        options = ctx.config
        parts = conversation_query(
            messages,
            turns=options.query_turns,
            decay=options.query_decay,
            assistant_weight=options.query_assistant_weight,
        )
        marker = user_message_marker(messages) if settings.turn_unit == "user_message" else None
        read = yield from compile_read(ctx, last_user_text(messages), parts, marker)
        instruction = options.instruction
        if instruction is None:
            instruction = memory_instruction(settings.vocabulary)
            profiles = options.profile_schemas
            if profiles is not None:  # static per config: the schemas, never the documents
                instruction += "\n" + profiles.guidance(settings.vocabulary)
        count = token_counter(ctx.config.token_counter).text
        budget = _memory_budget(settings, ctx)

        def fit() -> tuple[FittedMemory, Omitted]:
            return fit_block(read, ctx, vocabulary=settings.vocabulary, budget=budget, count=count)

        if read.reuse is not None:  # the same selection as before: so is its fitted block
            # unless an entry shows the turns it has left, which change with every turn.
            counts_down = any(e.expires_at_turn is not None for e in read.reuse.expiring())
            turn = read.turn if counts_down else None
            key = (read.reuse_key, budget, settings.vocabulary, tuple(read.evicted_keys), turn)
            fitted, kept = read.reuse.remember("fitted", key, fit)
            omitted = kept.copy()
        else:
            fitted, omitted = fit()
        tokens = {"memory": fitted.tokens} if ctx.config.token_budget is not None else {}
        if settings.context_budget is not None:
            layers = (messages, instruction, state_xml + implicit)
            fitted, tokens = fit_context(settings, read, ctx, fitted, omitted, layers)
        block = fitted.block
        placement = ctx.config.memory_placement
        meta = CompileMeta(
            injected_keys=[e.key for e in fitted.full],
            expired_keys=read.expired_keys,
            turn=read.turn,
            scope=ctx.scope,
            omitted=omitted,
            indexed_keys=[e.key for e in fitted.index],
            evicted_keys=read.evicted_keys,
            tokens=tokens,
            damaged_keys=read.damaged_keys,
            repaired=read.repaired,
        )
    elif settings.context_budget is not None:
        tokens = layer_tokens(settings, messages, None, state_xml + implicit, "")
        check_context_budget(settings.context_budget, tokens)
        meta = CompileMeta(tokens={**tokens, "total": sum(tokens.values())})
    layout = place(
        messages,
        instruction=instruction,
        memory_block=block,
        dynamic_state=state_xml,
        implicit_context=implicit,
        memory_placement=placement,
        dynamic_state_placement=settings.dynamic_state_placement,
        system_layout=settings.system_layout,
    )
    return CompiledPayload(layout.messages, list(settings.tools), meta, layout)
