"""`MemoryConfig`: how one memory behaves, checked once at construction.

The config is frozen and built before any tool exists, so the tool schemas that depend on it
(`allowed_keys`, `memory_types`) never change between compiles. It also knows which of its
hooks are async and which hooks each kind of operation fires, so the sync door of `Memory`
can refuse an async hook before anything is read or written (`refuse_async`).

Example:
    ```python
    from langchain_contextchef.memory import MemoryConfig

    config = MemoryConfig(allowed_keys=["lang"], default_ttl={"turns": 3})
    assert config.allowed_keys == ("lang",)
    try:
        MemoryConfig(memory_placement="top")
    except ValueError as exc:
        assert "memory_placement" in str(exc)
    ```
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from pydantic import BaseModel

from langchain_contextchef._literals import (
    DEFAULT_MEMORY_TYPES,
    EvictPolicy,
    MemoryFormat,
    MemoryPlacement,
    RecallMode,
    check_literal,
)
from langchain_contextchef.budget import TokenCounterLike, token_counter
from langchain_contextchef.consent import ConsentPolicy
from langchain_contextchef.entry import EntryRenderer, MemoryChangeEvent, MemoryEntry
from langchain_contextchef.gate import DEFAULT_GATE, WriteGate
from langchain_contextchef.profiles import Profiles
from langchain_contextchef.retention import RetentionPolicy
from langchain_contextchef.selectors import Relevant
from langchain_contextchef.ttl import TTL, parse_ttl

__all__ = [
    "COMPILE",
    "DEFAULT_INDEX_SHARE",
    "DEFAULT_TOKEN_BUDGET",
    "DEVELOPER_WRITE",
    "MODEL_WRITE",
    "ChangedHook",
    "ExpiredHook",
    "Hooks",
    "MemoryConfig",
    "Selector",
    "VetoHook",
]

Selector: TypeAlias = Callable[[list[MemoryEntry]], Sequence[MemoryEntry]]
VetoHook: TypeAlias = Callable[[str, "str | None", "str | None"], "bool | Awaitable[bool]"]
ChangedHook: TypeAlias = Callable[[MemoryChangeEvent], "None | Awaitable[None]"]
ExpiredHook: TypeAlias = Callable[[MemoryEntry], "None | Awaitable[None]"]

DEFAULT_TOKEN_BUDGET = 2_000
"""The memory block's token budget out of the box.

Measured on the relevance sets (`benchmarks/bench_relevance.py`): keyword `Relevant` answers
within a few points of its best at 2,000 tokens and loses several more at 1,000 and 500, while
2,000 tokens is about 1% of a 200k-token window; the block never grows past it whatever the
scope holds (`token_budget=None` injects everything, the seed's behaviour).
"""

DEFAULT_INDEX_SHARE = 0.2
"""The share of the budget kept for `<memory_index>` rows in recall mode (`recall="index"`).

A fifth of 2,000 tokens lists about 25 more keys with their type and description, so the model
sees what else it can read even when the full entries alone would fill the budget.
"""

_DEFAULT_SELECTOR = Relevant(stable=True)

Hooks: TypeAlias = tuple[str, ...]
"""The names of the `MemoryConfig` hooks an operation may call."""

DEVELOPER_WRITE: Hooks = ("on_memory_changed",)
"""Hooks a developer write (`set`, `delete`, `approve`, `revert`) may call."""

MODEL_WRITE: Hooks = ("on_memory_update", "on_memory_changed")
"""Hooks a model write (the tools, `create_memory`, reflection) may call."""

COMPILE: Hooks = ("on_memory_expired", "on_memory_changed")
"""Hooks a compile (the expiry sweep) may call."""

_HOOKS: Hooks = ("on_memory_update", "on_memory_changed", "on_memory_expired")


def _is_async(hook: object) -> bool:
    # `type(hook).__call__` catches objects with an `async def __call__`.
    return hook is not None and (
        inspect.iscoroutinefunction(hook) or inspect.iscoroutinefunction(type(hook).__call__)
    )


def _check_positive(name: str, value: object, what: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        msg = f"{name} must be a positive int ({what}) or None, got {value!r}."
        raise ValueError(msg)


def _names(name: str, value: Sequence[str] | None, example: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = list(value)
    if isinstance(value, str) or not all(isinstance(v, str) and v.strip() for v in items):
        msg = f"{name} must be a list of non-empty strings, e.g. {example}."
        raise ValueError(msg)
    return tuple(items)


@dataclass(frozen=True, kw_only=True)
class MemoryConfig:
    """How memory behaves. Construction-time config, so tool schemas stay static.

    Attributes:
        default_ttl: TTL for every write that does not pass one (`None`: never expire).
        allowed_keys: When set, the only keys the model may write; becomes the key enum of
            `create_memory` and is enforced again at dispatch. Developer writes are not limited.
        selector: Chooses what is injected, once per compile, after the expiry sweep; it gets
            the entries in creation order and may filter, sort or truncate them. `None` (the
            default) means `selectors.Relevant()` under a token budget (keyword relevance, fused
            with the store's semantic search when the store has a vector index) and every
            entry in creation order without one. For creation order under a budget pass
            `selector=lambda entries: entries`.
        memory_placement: Where the volatile memory data lands in the prompt.
        memory_format: How entries are written in `<memory>`: `"compact"` (one short
            element per entry, `<entry key="lang">Python</entry>`, with `type`, `expires`
            and `description` only when the entry has them), `"verbose"` (ContextChef's
            layout: version, update time and count, header and key guidance; the tools then
            also offer compare-and-set on the version shown), or a callable
            `(MemoryEntry) -> str` that writes one entry (escape what it writes with
            `render.escape_text` / `render.escape_attribute`; read such a block back with
            `render.parse_memory_block(text, read_entries=your_reader)`).
        instruction: The text that tells the model what `<memory>` is and how to change
            it; `None` for the short default of the tools vocabulary
            (`render.memory_instruction`), `""` for none.
        on_memory_update: The veto, `(key, new_value, old_value) -> bool`, run before every
            model write (`new_value` is `None` for a delete). `False` blocks the write.
        on_memory_changed: Notified after every set, delete and expiry.
        on_memory_expired: Called with each entry the sweep is about to delete.
        gate: The `WriteGate` every model-path write passes (after `allowed_keys` and the
            existence check, before the veto); `None` disables it. Developer writes pass it
            only with `WriteGate(gate_developer_writes=True)`.
        memory_types: The memory types writes may carry (the `type` enum of the tools);
            `None` accepts any type.
        token_budget: The most tokens the rendered memory block may take in a compile;
            entries are kept in the selector's order while they fit. `DEFAULT_TOKEN_BUDGET`
            (2,000) by default; `None` for no limit (every entry injected in full, the seed's
            behaviour).
        token_counter: How `token_budget` is counted: `"calibrated"` (the default: within
            about 5% of a real tokenizer on memory blocks), `None` for LangChain's
            `count_tokens_approximately` (it undercounts markup by about a fifth),
            `"cl100k"` (the `tokenizer` extra), a chat model (its `get_num_tokens`), or a
            `Callable[[str], int]`.
        query_turns: How many of the latest user turns the relevance query is built from
            (see `langchain_contextchef.query.conversation_query`).
        query_decay: The weight of each older user turn relative to the next newer one.
        query_assistant_weight: The weight of an assistant turn relative to the user turn
            it answered (`0` leaves assistant turns out).
        recall_index_share: In recall mode, the share of the token budget kept for
            `<memory_index>` rows (`DEFAULT_INDEX_SHARE`, a fifth, by default; `0` or `None`:
            full entries first, rows with what is left).
        recall: `"index"` (the default) injects the selected entries in full while they fit
            and lists the rest in a compact `<memory_index>` (key, type, description) that
            the model reads in full on demand (`recall_memory` in the legacy tools,
            `view context://memory/<key>` in the unified one), so nothing is hidden
            silently; `"inline"` injects only full entries (what does not fit is counted).
        max_entries: When set, a write that adds a key beyond this many evicts entries
            (never the one being written) and the next compile tells the model which.
        evict: How victims are chosen: `"least_recently_recalled"`, the entries whose last
            full read or write is oldest.
        consent: Which model writes wait for a person's approval (a LangGraph interrupt
            inside a graph, a stored proposal elsewhere); `None`: none do. See
            `langchain_contextchef.consent`.
        retention: The maximum age of entries per memory type, enforced by every compile's
            sweep and by `purge`; `None`: entries live until they expire or are deleted.
            See `langchain_contextchef.retention`.
        audit: Append an audit record (who, what, when; never the value) for every change,
            in the same batch as the change. See `langchain_contextchef.audit`.
        profiles: Typed documents, name -> pydantic model class; each is the entry of that
            name (type `profile`), edited field by field and validated against its schema.
            With `allowed_keys`, the profile names are allowed too. See
            `langchain_contextchef.profiles` and `Memory.profile`.
    """

    default_ttl: TTL = None
    allowed_keys: Sequence[str] | None = None
    selector: Selector | None = None
    memory_placement: MemoryPlacement = "after_system"
    memory_format: MemoryFormat | EntryRenderer = "compact"
    instruction: str | None = None
    on_memory_update: VetoHook | None = None
    on_memory_changed: ChangedHook | None = None
    on_memory_expired: ExpiredHook | None = None
    gate: WriteGate | None = DEFAULT_GATE
    memory_types: Sequence[str] | None = DEFAULT_MEMORY_TYPES
    token_budget: int | None = DEFAULT_TOKEN_BUDGET
    token_counter: TokenCounterLike = "calibrated"
    query_turns: int = 3
    query_decay: float = 0.5
    query_assistant_weight: float = 0.0
    recall_index_share: float | None = DEFAULT_INDEX_SHARE
    recall: RecallMode = "index"
    max_entries: int | None = None
    evict: EvictPolicy = "least_recently_recalled"
    consent: ConsentPolicy | None = None
    retention: RetentionPolicy | None = None
    audit: bool = False
    profiles: Mapping[str, type[BaseModel]] | None = None
    _async_hooks: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parse_ttl(self.default_ttl)  # fail at construction, not at the first write
        check_literal("memory_placement", self.memory_placement, MemoryPlacement)
        if not callable(self.memory_format):
            check_literal("memory_format", self.memory_format, MemoryFormat)
        if self.instruction is not None and not isinstance(self.instruction, str):
            msg = f"instruction must be a str or None, got {type(self.instruction).__name__}."
            raise TypeError(msg)
        check_literal("recall", self.recall, RecallMode)
        check_literal("evict", self.evict, EvictPolicy)
        _check_positive("token_budget", self.token_budget, "tokens for the memory block")
        _check_positive("max_entries", self.max_entries, "entries kept per scope")
        token_counter(self.token_counter)
        _check_positive("query_turns", self.query_turns, "user turns the query reads")
        for name, low, high in (
            ("query_decay", 0.0, 1.0),
            ("query_assistant_weight", 0.0, 1.0),
            ("recall_index_share", 0.0, 0.999),
        ):
            value = getattr(self, name)
            if value is None and name == "recall_index_share":
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not low <= value <= high
            ):
                msg = f"{name} must be a number from {low:g} to {high:g}, got {value!r}."
                raise ValueError(msg)
        if self.gate is not None and not isinstance(self.gate, WriteGate):
            msg = f"gate must be a WriteGate or None, got {type(self.gate).__name__}."
            raise TypeError(msg)
        for name, kind in (("consent", ConsentPolicy), ("retention", RetentionPolicy)):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), kind):
                msg = f"{name} must be a {kind.__name__} or None, got {getattr(self, name)!r:.60}."
                raise TypeError(msg)
        types = _names("memory_types", self.memory_types, "['fact', 'preference']")
        if types is not None:
            if not types:
                msg = "memory_types must not be empty; pass None to accept any type."
                raise ValueError(msg)
            object.__setattr__(self, "memory_types", tuple(dict.fromkeys(types)))
        if self.profiles is not None:
            profiles = Profiles(self.profiles)
            object.__setattr__(self, "profiles", profiles if profiles else None)
        keys = _names("allowed_keys", self.allowed_keys, "['persona', 'lang']")
        if keys is not None:
            padded = [k for k in keys if k != k.strip()]
            if padded:
                msg = f"allowed_keys may not start or end with whitespace: {padded!r}."
                raise ValueError(msg)
            if len(set(keys)) != len(keys):
                msg = f"allowed_keys has duplicates: {list(keys)!r}."
                raise ValueError(msg)
            if isinstance(self.profiles, Profiles):  # a declared profile is always writable
                keys = (*keys, *(name for name in self.profiles if name not in keys))
            object.__setattr__(self, "allowed_keys", keys)
        hooks = frozenset(name for name in _HOOKS if _is_async(getattr(self, name)))
        object.__setattr__(self, "_async_hooks", hooks)

    @property
    def profile_schemas(self) -> Profiles | None:
        """The declared profiles, checked (`None` when there are none)."""
        return self.profiles if isinstance(self.profiles, Profiles) else None

    @property
    def active_selector(self) -> Selector | None:
        """The selector a compile runs: `selector`, or the default one (see `selector`).

        Example:
            ```python
            from langchain_contextchef.memory import MemoryConfig
            from langchain_contextchef.selectors import Relevant

            assert isinstance(MemoryConfig().active_selector, Relevant)
            assert MemoryConfig(token_budget=None).active_selector is None
            ```
        """
        if self.selector is not None or self.token_budget is None:
            return self.selector
        return _DEFAULT_SELECTOR

    @property
    def shows_versions(self) -> bool:
        """Whether the block shows entry versions, so the tools offer compare-and-set on them."""
        return self.memory_format == "verbose"

    @property
    def tracks_recall(self) -> bool:
        """Whether reads record `last_recalled_at` (only when recall mode or eviction uses it)."""
        return self.recall == "index" or self.max_entries is not None

    def refuse_async(self, fires: Hooks) -> None:
        """Raise if any hook in `fires` is async: a sync call cannot wait for it.

        The driver could only notice an async hook once it was called, which on a compile
        is after the sweep has deleted entries; checking at the door keeps a sync call
        all-or-nothing.

        Raises:
            TypeError: Naming the async hook and the async method to use instead.
        """
        for name in fires:
            if name in self._async_hooks:
                msg = (
                    f"The {name} hook is async, which a sync call cannot wait for. Use the "
                    "async method (e.g. `acompile`, `aset`, `aread_for_compile`) or give a "
                    "sync hook."
                )
                raise TypeError(msg)
