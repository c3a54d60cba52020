"""`Relevant`'s ranking over a scope's keyword index, computed as far as it is read.

A question that shares a common word with thousands of entries ("test" in a scope of project
conventions) matches them all, yet a compile shows a few dozen. `lazy_relevance` scores
entry by entry only the entries that hold a rare query word (one held by at most `_BIG`
entries) and the ones the semantic search returned; the entries whose only query words are
common ones score the same whenever they have the same shapes for them (counts and field
lengths, absent words having none), so they are scored per joint shape and ranked group by
group. Two common words ("test" and "fix") would otherwise put every entry in the explicit
path after each write. `RankedEntries` hands the ranking out as a
sequence that computes its items as they are read: the scores and the order are exactly those
of `Relevant` without the index (the same arithmetic, in the same order of operations; ties
broken by creation order).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import overload

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import BM25Params, query_terms
from langchain_contextchef.selectors._index import EntryData, KeywordIndex
from langchain_contextchef.selectors._relevance import (
    _min_max,
    rare_limits,
    rare_words,
    subject_words,
)
from langchain_contextchef.selectors._selection import ScopeChanges
from langchain_contextchef.selectors._text_features import CountsMark, FeatureCache

__all__ = [
    "KeptHead",
    "LazyScores",
    "RankedEntries",
    "SharedKeys",
    "kept_head",
    "lazy_relevance",
    "query_parts",
]

_Order = tuple[datetime, str]
_Shape = tuple[int, ...]
_Joint = tuple[_Shape | None, ...]
"""The shapes of the common query words in an entry, in `commons` order (`None`: absent)."""
_BIG = 64
"""A query word held by more entries than this is scored per shape, not per entry."""


class LazyScores(Mapping[str, float]):
    """The relevance of every scored entry, by key: some per entry, the rest per joint shape.

    Attributes:
        explicit: Key -> relevance of the entries scored one by one (when they have some).
        checked: The keys scored one by one.
        commons: The common query words scored per joint shape (empty: every entry explicit).
        shape_scores: Relevance per joint shape of those words, for entries not in `explicit`.
        groups: The entries per joint shape, each group in creation order (keys of
            `checked` included: they are skipped when read).
    """

    def __init__(
        self,
        index: KeywordIndex,
        explicit: dict[str, float],
        checked: Mapping[str, None],
        commons: tuple[str, ...],
        shape_scores: dict[_Joint, float],
        groups: Mapping[_Joint, list[str]],
    ) -> None:
        self.index = index
        self.explicit = explicit
        self.checked = checked
        self.commons = commons
        self.shape_scores = shape_scores
        self.groups = groups
        self._postings = [index.posting(term) for term in commons]
        self._by_shape: dict[str, float] = {}  # keys scored per shape, once looked up

    def _joint(self, key: str) -> _Joint | None:
        joint = tuple([posting.get(key) for posting in self._postings])
        return None if joint.count(None) == len(joint) else joint

    def __getitem__(self, key: str) -> float:
        found = self.explicit.get(key)
        if found is not None:
            return found
        found = self._by_shape.get(key)
        if found is not None:
            return found
        if key in self.checked:
            raise KeyError(key)
        joint = self._joint(key)
        if joint is not None:
            value = self.shape_scores.get(joint)
            if value is not None:
                self._by_shape[key] = value
                return value
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        yield from self.explicit
        for joint, keys in self.groups.items():
            if joint in self.shape_scores:
                yield from (key for key in keys if key not in self.checked)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def ranked(self, floor: float) -> Iterator[str]:
        """Keys scoring above `floor`, best first, creation order breaking ties."""
        entries = self.index.entries
        mine = sorted(
            ((-v, entries[k].created_at, k) for k, v in self.explicit.items() if v > floor)
        )
        bands = sorted(
            ((-v, shape) for shape, v in self.shape_scores.items() if v > floor),
            key=lambda band: band[0],
        )
        groups = self.groups
        checked = self.checked
        at = 0
        for negated, same in itertools.groupby(bands, key=lambda band: band[0]):
            while at < len(mine) and mine[at][0] < negated:
                yield mine[at][2]
                at += 1
            tied: list[Iterator[tuple[float, datetime, str]]] = [
                (
                    (negated, entries[key].created_at, key)
                    for key in groups[shape]
                    if key not in checked
                )
                for _, shape in same
            ]
            start = at
            while at < len(mine) and mine[at][0] == negated:
                at += 1
            tied.append(iter(mine[start:at]))
            for item in heapq.merge(*tied):
                yield item[2]
        for item in mine[at:]:
            yield item[2]

    def count_above(self, floor: float) -> int:
        """How many keys score above `floor`."""
        count = sum(1 for v in self.explicit.values() if v > floor)
        for joint, value in self.shape_scores.items():
            if value > floor:
                count += len(self.groups[joint])
        for key in self.checked:  # in `groups` too, but counted one by one
            held = self._joint(key)
            if held is not None and self.shape_scores.get(held, 0.0) > floor:
                count -= 1
        return count


def _joint_groups(index: KeywordIndex, commons: tuple[str, ...]) -> Mapping[_Joint, list[str]]:
    """The entries holding a common word, by joint shape (keys of `checked` included).

    Each group takes its keys from one group of the first common word an entry holds, in
    that group's order, so each stays in creation order. The lookups run in C (`map`,
    `filterfalse`): this pass is over every entry holding a common word.
    """
    if len(commons) == 1:  # the index keeps these groups up to date: nothing to build
        return {(shape,): keys for shape, keys in index.groups(commons[0]).items()}
    held: list[dict[str, _Shape]] = []
    for term in commons:
        shape_of: dict[str, _Shape] = {}
        for shape, keys in index.groups(term).items():
            shape_of.update(zip(keys, itertools.repeat(shape)))
        held.append(shape_of)
    out: dict[_Joint, list[str]] = {}
    for at, term in enumerate(commons):
        before, after = held[:at], held[at + 1 :]
        for shape, keys in index.groups(term).items():
            for earlier in before:  # grouped with the first common word they hold
                keys = list(itertools.filterfalse(earlier.__contains__, keys))
            lead: _Joint = (*((None,) * at), shape)
            if not after:
                if keys:
                    out[lead] = keys
                continue
            tails = zip(*(map(later.get, keys) for later in after), strict=True)
            for key, tail in zip(keys, tails, strict=True):
                joint = lead + tail
                group = out.get(joint)
                if group is None:
                    out[joint] = [key]
                else:
                    group.append(key)
    return out


_Prepared = tuple[list[tuple[dict[str, float], float]], list[dict[str, float]]]


_PARTS: dict[tuple[tuple[str, float], ...], list[tuple[dict[str, float], float]]] = {}
"""The last queries' parts as weighted terms (a compile after a write asks the same question)."""
_KEPT_PARTS = 64


def query_parts(queries: Sequence[tuple[str, float]], store: FeatureCache) -> _Prepared:
    """The query's parts as weighted terms (with a weight), and each part's terms expanded.

    The terms of a question are kept for the next compiles (a few questions); the expansion
    reads the feature cache's vocabulary and is kept there while that holds the same terms
    (`FeatureCache.expanded`; the dicts are shared, never changed).
    """
    asked = tuple(queries)
    parts = _PARTS.get(asked)
    if parts is None:
        parts = [(query_terms(((text, 1.0),)), w) for text, w in asked if w > 0]
        parts = [(terms_, w) for terms_, w in parts if terms_]
        if len(_PARTS) >= _KEPT_PARTS:
            _PARTS.clear()
        _PARTS[asked] = parts
    return parts, [store.expanded(terms_) for terms_, _ in parts]


def lazy_relevance(
    index: KeywordIndex,
    queries: Sequence[tuple[str, float]],
    relevance: Mapping[str, float] | None,
    semantic_weight: float,
    store: FeatureCache,
    params: BM25Params | None = None,
    prepared: _Prepared | None = None,
) -> LazyScores:
    """`relevance_scores` (score fusion) over the index, common words scored per shape.

    `prepared` is `query_parts(queries, store)` when the caller has it already.
    """
    params = params or BM25Params()
    parts, expanded = prepared if prepared is not None else query_parts(queries, store)
    total_weight = sum(w for _, w in parts)
    wanted = frozenset().union(*expanded) if expanded else frozenset()
    found = index.statistics(wanted, params) if parts else None
    keyword: dict[str, float] = {}
    commons: tuple[str, ...] = ()
    groups: Mapping[_Joint, list[str]] = {}
    shape_keyword: dict[_Joint, float] = {}
    semantic: dict[str, float] = {}
    if relevance is not None:
        semantic = {k: float(v) for k, v in relevance.items() if k in index.entries}
    checked: dict[str, None] = dict.fromkeys(semantic)
    if found is not None:
        idf, strength_of = found
        shares = []
        for weights, (_, weight) in zip(expanded, parts, strict=True):
            ceiling = sum(weights[t] * idf[t] for t in weights)
            shares.append(weight / total_weight / ceiling if ceiling > 0 else None)
        sizes = {t: len(index.posting(t)) for t in wanted}
        commons = tuple(sorted(t for t in wanted if sizes[t] > _BIG))
        for term in wanted:
            if term not in commons:
                checked.update(dict.fromkeys(index.posting(term)))
        memo: dict[str, dict[_Shape, float]] = {t: {} for t in wanted}

        def strength(term: str, shape: _Shape) -> float:
            held = memo[term]
            value = held.get(shape)
            if value is None:
                value = held[shape] = strength_of(term, shape)
            return value

        # Entry by entry, term at a time in each part's order (as `KeywordIndex.score`).
        for weights, share in zip(expanded, shares, strict=True):
            scores: dict[str, float] = {}
            get = scores.get
            for term, w in weights.items():
                if not index.has(term):
                    continue
                if term in commons:
                    posting = index.posting(term)
                    for key in checked:
                        shape = posting.get(key)
                        if shape is not None:
                            scores[key] = get(key, 0.0) + w * strength(term, shape)
                else:
                    for shape, keys in index.groups(term).items():
                        value = strength(term, shape)
                        for key in keys:
                            scores[key] = get(key, 0.0) + w * value
            if share is None:
                continue
            for key, score in scores.items():
                if score > 0:
                    keyword[key] = keyword.get(key, 0.0) + score * share
        # The rest: one score per joint shape, the same sums in the same order.
        groups = _joint_groups(index, commons) if commons else {}
        position = {term: at for at, term in enumerate(commons)}
        for joint in groups:
            summed: float | None = None
            for weights, share in zip(expanded, shares, strict=True):
                part: float | None = None
                for term, w in weights.items():
                    at = position.get(term)
                    shape = None if at is None else joint[at]
                    if shape is not None:
                        part = (0.0 if part is None else part) + w * strength(term, shape)
                if part is not None and part > 0 and share is not None:
                    summed = (0.0 if summed is None else summed) + part * share
            if summed is not None:
                shape_keyword[joint] = summed
    if relevance is None:
        return LazyScores(index, keyword, checked, commons, shape_keyword, groups)
    top = max(max(keyword.values(), default=0.0), max(shape_keyword.values(), default=0.0))
    semantic_norm = _min_max(semantic)
    explicit: dict[str, float] = {}
    for key in keyword.keys() | semantic_norm.keys():
        kn = keyword[key] / top if key in keyword and top > 0 else 0.0
        score = (1.0 - semantic_weight) * kn + (semantic_weight * semantic_norm.get(key, 0.0))
        if score > 0:
            explicit[key] = score
    shapes: dict[_Joint, float] = {}
    for joint, value in shape_keyword.items():
        kn = value / top if top > 0 else 0.0
        score = (1.0 - semantic_weight) * kn + (semantic_weight * 0.0)
        if score > 0:
            shapes[joint] = score
    return LazyScores(index, explicit, checked, commons, shapes, groups)


class RankedEntries(Sequence[MemoryEntry]):
    """Entries in ranked order, computed as far as they are read.

    Args:
        head: The first entries, already ordered.
        rest: The entries after them, in order.
        length: How many entries there are in all.
        complete: Whether these are all the candidates (nothing was left out).
    """

    def __init__(
        self, head: list[MemoryEntry], rest: Iterator[MemoryEntry], length: int, complete: bool
    ) -> None:
        self._items = head
        self._rest = rest
        self._length = length
        self.complete = complete

    def _fill(self, upto: int) -> None:
        items = self._items
        if len(items) < upto:
            items.extend(itertools.islice(self._rest, upto - len(items)))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, at: int) -> MemoryEntry: ...

    @overload
    def __getitem__(self, at: slice) -> list[MemoryEntry]: ...

    def __getitem__(self, at: int | slice) -> MemoryEntry | list[MemoryEntry]:
        if isinstance(at, slice):
            start, stop, step = at.indices(self._length)
            self._fill(max(start, stop))
            if step == 1:  # the common case, without a copy of everything read so far
                return self._items[start:stop]
            return self._items[: self._length][at]
        position = at + self._length if at < 0 else at
        if not 0 <= position < self._length:
            raise IndexError(at)
        self._fill(position + 1)
        return self._items[position]

    def __iter__(self) -> Iterator[MemoryEntry]:
        for position in range(self._length):
            yield self[position]

    def capped(self, limit: int | None) -> RankedEntries:
        """The first `limit` entries (all of them for `None`)."""
        if limit is None or limit >= self._length:
            return self
        return RankedEntries(self._items, self._rest, limit, complete=False)


class SharedKeys:
    """One ranking's keys in order, computed as far as any of its readers has read.

    Args:
        source: The keys in order (read once, by whichever reader first goes that far).
    """

    def __init__(self, source: Iterator[str]) -> None:
        self._keys: list[str] = []
        self._source = source
        self._lock = threading.Lock()  # compiles in several threads may read it at once

    def after(self, start: int) -> Iterator[str]:
        """The keys from position `start` on."""
        # The keys read already come out of a list iterator (no Python step per key; a
        # compile that reuses the ranking reads mostly those), the rest as they are read.
        read = len(self._keys)
        if start >= read:
            return self._following(start)
        return itertools.chain(itertools.islice(self._keys, start, read), self._following(read))

    def _following(self, start: int) -> Iterator[str]:
        keys = self._keys
        at = start
        while True:
            if at < len(keys):
                yield keys[at]
                at += 1
                continue
            with self._lock:
                if at >= len(keys):
                    following = next(self._source, None)
                    if following is None:
                        return
                    keys.append(following)


class KeptHead:
    """A ranking's head, reordered (coverage, newer over older), kept across harmless writes.

    A write whose entry (before and after it) holds no query word leaves every score as it
    was while the index's `signature` of the query's terms stands (BM25's statistics are on
    a grid, `_bm25.corpus_size`): the scored entries, their order, and so the head and its
    reordering are then what a selection from scratch computes, as long as the reordering's
    other reads (the rare words among the head's, `rare_words`) answer the same.

    Attributes:
        signature: What the scores depend on besides the entries holding a query term.
        mark: The scope's change mark the head was last checked at.
        scores: The relevance of the scored entries.
        ranking: The scored keys in ranked order, shared by every compile that reuses it.
        head: The head after its reordering.
        keys: The head's keys.
        read: How many ranked keys the head was taken from.
        shown: The head's keys when entries came up from below it (skipped later), else `None`.
        words: The words `prefer_newer` may judge rare for the head (`subject_words`).
        rare: Those it judged rare.
        counted: The feature cache's `mark` at which `rare` was last judged or shown
            to stand (`None`: judge again).
        wanted: Every query term (expanded).
    """

    def __init__(
        self,
        signature: tuple[object, ...],
        mark: tuple[int, int],
        scores: LazyScores,
        ranking: SharedKeys,
        head: list[MemoryEntry],
        read: int,
        shown: frozenset[str] | None,
        words: tuple[frozenset[str], frozenset[str]],
        rare: tuple[frozenset[str], frozenset[str]],
        wanted: frozenset[str],
        counted: CountsMark | None = None,
    ) -> None:
        self.signature = signature
        self.mark = mark
        self.scores = scores
        self.ranking = ranking
        self.head = head
        self.keys = frozenset(e.key for e in head)
        self.read = read
        self.shown = shown
        self.words = words
        self.rare = rare
        self.wanted = wanted
        self.counted = counted
        self.all_words = words[0] | words[1]
        self.count: int | None = None  # `scores.count_above(floor)`, once asked for


def kept_head(
    found: object,
    signature: tuple[object, ...],
    index: KeywordIndex,
    changes: Callable[[tuple[int, int] | None], tuple[tuple[int, int], list[str] | None]],
    rare: Callable[[tuple[frozenset[str], frozenset[str]]], tuple[frozenset[str], frozenset[str]]],
    store: FeatureCache | None = None,
) -> KeptHead | None:
    """`found` when it is a `KeptHead` for `signature` that no change since has touched.

    A changed key touches it when its entry holds a query term now, or it is in the head (a
    key that held one before and holds none now lowers a document frequency: the signature
    differs); the head's rare words (`rare` of its `words`) must be the same too. The head is
    then marked as checked up to now. With `store` (the feature cache `rare` reads), the
    rare words are judged again only when the cache's counts of the head's words or its
    thresholds (`rare_limits`) may have moved since they were last judged.
    """
    if not isinstance(found, KeptHead) or found.scores.index is not index:
        return None
    if found.signature != signature:
        return None
    mark, changed = changes(found.mark)
    if changed is None:
        return None
    if changed:
        head = found.keys
        wanted = found.wanted
        for key in set(changed):
            if key in head or index.holds_any(key, wanted):
                return None
    if not _same_rare(found, rare, store):
        return None
    found.mark = mark
    return found


def _same_rare(
    found: KeptHead,
    rare: Callable[[tuple[frozenset[str], frozenset[str]]], tuple[frozenset[str], frozenset[str]]],
    store: FeatureCache | None,
) -> bool:
    """Whether `rare` of the head's words is `found.rare`, judged again only when it may differ."""
    counted = found.counted
    if store is not None and counted is not None:
        now = store.unchanged_for(counted, found.all_words)
        if now is not None and rare_limits(now[2]) == rare_limits(counted[2]):
            found.counted = now  # no count of those words, no threshold moved
            return True
    before = store.mark() if store is not None else None
    if rare(found.words) != found.rare:
        return False
    # Kept only when nothing changed the counts while they were read.
    found.counted = before if store is not None and store.mark() == before else None
    return True


_KEPT_HEAD = "relevant-head"
"""The first part of the key under which a scope's state keeps `Relevant`'s `KeptHead`."""


class HeadMemo:
    """Where `Relevant` finds the head it kept for a question, and keeps a new one.

    Args:
        scope: The scope the index follows (its `state` keeps the head).
        index: The scope's keyword index, up to date.
        store: The feature cache the selector reads.
        fixed: What else the head depends on (the selector's settings, the query).
        prepared: `query_parts` of the query.
    """

    def __init__(
        self,
        scope: ScopeChanges,
        index: KeywordIndex,
        store: FeatureCache,
        fixed: tuple[object, ...],
        prepared: _Prepared,
    ) -> None:
        self._scope = scope
        self._store = store
        self.wanted = frozenset().union(*prepared[1])
        self.signature = (
            *fixed,
            [tuple(terms_.items()) for terms_ in prepared[1]],
            [w for _, w in prepared[0]],
            index.signature(self.wanted),
        )
        self._key = (_KEPT_HEAD, id(store))
        self.found = kept_head(
            scope.state.get(self._key),
            self.signature,
            index,
            scope.changes,
            lambda words: rare_words(words, store),
            store,
        )

    def keep(
        self,
        scores: LazyScores,
        ranking: SharedKeys,
        head: list[MemoryEntry],
        read: int,
        shown: frozenset[str] | None,
        entry_data: EntryData | None,
    ) -> None:
        """Keep `head` (computed from scratch just now) for the next compiles."""
        words = subject_words(head, self._store, entry_data, scores.index)
        before = self._store.mark()
        rare = rare_words(words, self._store)
        counted = before if self._store.mark() == before else None  # see `_same_rare`
        self._scope.state[self._key] = KeptHead(
            self.signature,
            self._scope.changes(None)[0],
            scores,
            ranking,
            list(head),
            read,
            shown,
            words,
            rare,
            self.wanted,
            counted,
        )
