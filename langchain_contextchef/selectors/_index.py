"""A scope's keyword index, kept up to date by the scope's changes instead of rebuilt per query.

`KeywordIndex` holds, for a scope's active entries, the postings of every term (which entries
hold it, in creation order; grouped by the term's shape in each entry, its count per field and
the entry's field lengths, for the terms a query asks for), the field length sums and the
order the relevance selectors fall back on. It is built in one pass when a scope is read
whole, so a cold compile selects over it at once. A compile lends the index its
scope's change log (`SelectionContext.scope`): a query first applies the keys changed since
the last one (a few dict operations per changed entry), then scores only the entries that
hold a query term, with the same BM25F arithmetic as `_bm25.bm25f_parts` over the same
entries, so the scores are those of a selection from scratch.

Example:
    ```python
    from datetime import datetime, timezone
    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.selectors._bm25 import BM25Params
    from langchain_contextchef.selectors._index import KeywordIndex
    from langchain_contextchef.selectors._text_features import FeatureCache

    t = datetime(2026, 5, 25, tzinfo=timezone.utc)
    index = KeywordIndex(FeatureCache())
    index.rebuild(
        [
            MemoryEntry(key="pets", value="Two cats", created_at=t, updated_at=t),
            MemoryEntry(key="tone", value="Be brief", created_at=t, updated_at=t),
        ],
        None,
    )
    ((scores, ceiling),) = index.score([{"cat": 1.0}], BM25Params())
    assert list(scores) == ["pets"] and ceiling > 0
    ```
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, cast

from langchain_contextchef.entry import MemoryEntry, collector_paused
from langchain_contextchef.selectors._bm25 import BM25Params, average_length, corpus_size
from langchain_contextchef.selectors._packed import (
    EntryFeatures,
    by_shape,
    needle,
    packed_shape,
    postings_by_shape,
    read_lengths,
)
from langchain_contextchef.selectors._selection import ScopeChanges
from langchain_contextchef.selectors._text_features import FeatureCache

__all__ = ["KeywordIndex", "index_of"]

_EMPTY_GROUPS: Mapping[tuple[int, ...], list[str]] = {}

EntryData = Callable[[MemoryEntry], dict[Any, Any]]
_Shape = tuple[int, ...]  # a term's count per field, then the entry's length per field
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _micros(moment: datetime) -> int:
    epoch = _EPOCH if moment.tzinfo is not None else _EPOCH.replace(tzinfo=None)
    return (moment - epoch) // _MICROSECOND


_MICROSECOND = datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=timezone.utc) - _EPOCH


class _Descending:
    """A key that sorts in reverse (the last tie-break of the fallback order)."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: _Descending) -> bool:
        return self.key > other.key


def fallback_key(entry: MemoryEntry) -> tuple[Any, ...]:
    """The place of `entry` in `_relevance.fallback_order`, as an ascending sort key.

    Important first (unset last), then newest first: last write, creation, key, each
    descending.
    """
    return (
        entry.importance is None,
        -(entry.importance or 0.0),
        -_micros(entry.updated_at),
        -_micros(entry.created_at),
        _Descending(entry.key),
    )


_BY_KEY = operator.attrgetter("key")
_CREATION = operator.attrgetter("created_at", "key")
_BY_CREATION = operator.attrgetter("created_at")
_STATUS = operator.attrgetter("status")
_BY_WRITE = operator.attrgetter("updated_at")


def _by_importance(entry: MemoryEntry) -> tuple[bool, float]:
    return (entry.importance is None, -(entry.importance or 0.0))


def fallback_sorted(entries: Iterable[MemoryEntry]) -> list[str]:
    """The keys of `entries` sorted by `fallback_key`, in stable passes with C-level keys.

    Python's sort is stable (with `reverse` too), so sorting by the least significant part
    first and by each more significant one after gives the order of the whole key, without
    building a key tuple per entry. Importance is sorted on only when some entry has one.
    """
    order = sorted(entries, key=_BY_KEY, reverse=True)
    important = [e.importance for e in order if e.importance is not None]
    if any(value != value for value in important):  # NaN: the key tuple's own order
        return [e.key for e in sorted(order, key=fallback_key)]
    try:
        order.sort(key=_BY_CREATION, reverse=True)
        order.sort(key=_BY_WRITE, reverse=True)
    except TypeError:  # naive and aware times in one scope: the key compares them as numbers
        return [e.key for e in sorted(order, key=fallback_key)]
    if important:
        order.sort(key=_by_importance)
    return [e.key for e in order]


_Order = tuple[datetime, str]  # an entry's place in creation order: (created_at, key)
_Postings = list[str] | str  # the keys of a term's entries in creation order; one unboxed


class KeywordIndex:
    """Postings and length statistics of one scope's active entries, updated per change.

    Compact: each term keeps the keys of the entries holding it as one list in creation
    order (a term held by one entry keeps just that key); the entries of a term grouped by
    shape, which scoring reads, are built for a query's terms when first asked for and
    kept up to date from then on. The fallback order is a list of keys.

    Args:
        cache: Where entries' features come from (and whose vocabulary learns their words).
    """

    def __init__(self, cache: FeatureCache) -> None:
        self.cache = cache
        self.mark: tuple[int, int] | None = None
        self.entries: dict[str, MemoryEntry] = {}
        self._features: dict[str, EntryFeatures] = {}
        self._postings: dict[str, _Postings] = {}
        # Postings are built as queries need them: after a whole read, for the first query's
        # terms only (`_known`, one pass over the features), then for every word at the next
        # query that asks for another one (`_complete`), and kept up to date from then on.
        # Numbers (terms of digits) stay as asked for even then (`_known`): most are held by
        # one entry each, and a query seldom holds one.
        self._complete = True
        self._known: set[str] = set()
        self._in_order = True  # `_features` iterates in creation order (no `_add` since)
        # Per term asked for, the keys of its entries by shape, each group in creation order.
        self._groups: dict[str, dict[_Shape, list[str]]] = {}
        self._length_sums = [0, 0, 0]
        # Keys in the order of `fallback_key`, sorted when first read (a ranking reads it only
        # past the entries that hold a query term), then kept up to date.
        self._fallback: list[str] | None = []
        # `cache.dropped` before the last whole read looked its features up: while it
        # stands, a word the cache's vocabulary does not count is held by no indexed entry.
        self._counted_since: int | None = None

    def __len__(self) -> int:
        return len(self.entries)

    def _rank_key(self, key: str) -> tuple[Any, ...]:
        return fallback_key(self.entries[key])

    def _order_of(self, key: str) -> _Order:
        return (self.entries[key].created_at, key)

    def _add(self, entry: MemoryEntry) -> None:
        features = self.cache.get(entry)
        key = entry.key
        self.entries[key] = entry
        self._features[key] = features
        for f, length in enumerate(features.lengths):
            self._length_sums[f] += length
        order = (entry.created_at, key)
        place = self._order_of
        postings, grouped = self._postings, self._groups
        known, complete = self._known, self._complete
        self._in_order = False
        terms_ = features.terms
        if not complete and known.isdisjoint(terms_):
            terms_ = ()  # no postings kept for any of its terms yet: no shape decoded
        for term, shape in zip(terms_, features.shapes if terms_ else (), strict=True):
            if (not complete or term.isdigit()) and term not in known:
                continue  # no postings kept for it yet
            held = postings.get(term)
            if held is None:
                postings[term] = key
            elif isinstance(held, str):
                postings[term] = [held, key] if place(held) < order else [key, held]
            elif place(held[-1]) < order:
                held.append(key)
            else:
                bisect.insort(held, key, key=place)
            groups = grouped.get(term)
            if groups is not None:
                group = groups.get(shape)
                if group is None:
                    groups[shape] = [key]
                else:
                    bisect.insort(group, key, key=place)
        if self._fallback is not None:
            bisect.insort(self._fallback, key, key=self._rank_key)

    def _remove(self, key: str) -> None:
        entry = self.entries.get(key)
        if entry is None:
            return
        if self._fallback is not None:
            at = bisect.bisect_left(self._fallback, fallback_key(entry), key=self._rank_key)
            del self._fallback[at]
        features = self._features.pop(key)
        for f, length in enumerate(features.lengths):
            self._length_sums[f] -= length
        order = (entry.created_at, key)
        place = self._order_of  # reads `entries`: the entry leaves it after its postings
        postings, grouped = self._postings, self._groups
        known, complete = self._known, self._complete
        for term, shape in zip(features.terms, features.shapes, strict=True):
            if (not complete or term.isdigit()) and term not in known:
                continue
            held = postings[term]
            if isinstance(held, str) or len(held) == 1:
                del postings[term]
                grouped.pop(term, None)
                continue
            del held[bisect.bisect_left(held, order, key=place)]
            groups = grouped.get(term)
            if groups is not None:
                group = groups[shape]
                del group[bisect.bisect_left(group, order, key=place)]
                if not group:
                    del groups[shape]
        del self.entries[key]

    def rebuild(
        self,
        entries: Iterable[MemoryEntry],
        entry_data: EntryData | None,
        *,
        ordered: bool = False,
        by_key: dict[str, MemoryEntry] | None = None,
    ) -> None:
        """Index exactly `entries` (the scope's active entries), dropping what was held.

        The entries and their features, looked up in the cache in one loop; no postings
        yet: the first query builds those of its own terms in one pass over the features,
        the next one that asks for another term builds all of them (see `_ensure`).
        `entry_data` is not used: features are looked up in the cache, which keeps them in
        a compact form, instead of being kept a second time with each entry. `by_key`, when
        given, is `entries` by key, a dict the index may keep as its own (a scope's cache
        lends its own: `ScopeSlot.lend_entries`).
        """
        # Postings come out in creation order when the entries do: a scope's cache hands
        # them over in that order (`ordered`); other callers' are sorted here.
        ordered_entries = list(entries) if ordered else sorted(entries, key=_CREATION)
        keys = list(map(_BY_KEY, ordered_entries))
        counted_since = self.cache.dropped
        found_features = self.cache.get_all(ordered_entries)
        held = by_key if by_key is not None else dict(zip(keys, ordered_entries, strict=True))
        features_of = dict(zip(keys, found_features, strict=True))
        sums = [0, 0, 0]
        lengths = read_lengths(len(sums))
        for f, column in enumerate(zip(*map(lengths, found_features), strict=True)):
            sums[f] = sum(column)
        self.entries, self._features = held, features_of
        self._postings, self._complete, self._known, self._in_order = {}, False, set(), True
        self._groups = {}
        self._length_sums = sums
        self._fallback = None
        self._counted_since = counted_since

    def _ensure(self, terms: Iterable[str]) -> None:
        """Make the postings of `terms` exact (see `_known`)."""
        known = self._known
        missing = [t for t in terms if (not self._complete or t.isdigit()) and t not in known]
        if not missing:
            return
        if known and not self._complete:  # a second query after a whole read: every word
            self._build(None)
            self._complete = True
            self._known = known = {t for t in known if t.isdigit()}
            missing = [t for t in missing if t.isdigit()]
            if not missing:
                return
        self._build(frozenset(missing))
        known.update(missing)

    def _build(self, wanted: frozenset[str] | None) -> None:
        """The postings of `wanted` (of every word: `None`), in one pass over the features.

        For `wanted` terms (a query's, the first after a whole read) the same pass groups
        their entries by shape too, which scoring asks for next (`groups`).
        """
        lists: dict[str, list[str]] = {}
        if wanted is None:
            get = lists.get
            for key, features in self._features.items():
                for term in features.terms:
                    if term.isdigit():  # numbers: as asked for (`_known`)
                        continue
                    found = get(term)
                    if found is None:
                        lists[term] = [key]
                    else:
                        found.append(key)
        else:  # found and grouped in the packed form: nothing decoded per entry
            wanted = frozenset(t for t in wanted if not self._held_by_none(t))
            if not wanted:
                return
            for term, (found, groups) in postings_by_shape(self._features.items(), wanted).items():
                lists[term] = found
                if term not in self._groups:
                    if not self._in_order:
                        for group in groups.values():
                            group.sort(key=self._order_of)
                    self._groups[term] = groups
        if not self._in_order:  # entries added since the whole read: sort by creation
            for found in lists.values():
                found.sort(key=self._order_of)
        # A term of one entry keeps that entry's key itself, not a list of one.
        postings = self._postings
        for term, found in lists.items():
            if term not in postings:  # `_known` terms are kept up to date already
                postings[term] = found if len(found) > 1 else found[0]

    def _held_by_none(self, term: str) -> bool:
        """Whether the feature cache's vocabulary shows that no indexed entry holds `term`.

        Only for words (the vocabulary does not count numbers), and only while the cache
        has dropped nothing since the last whole read looked the entries up: each indexed
        entry's features were then found or made in it and are counted (entries added
        since were too). A query's word that no entry holds costs no pass over them.
        """
        if self._counted_since is None or term.isdigit():
            return False
        counted = self.cache.frequency(term)  # read before `dropped`: see `FeatureCache`
        return counted == 0 and self.cache.dropped == self._counted_since

    def _df(self, term: str) -> int:
        self._ensure((term,))
        held = self._postings.get(term)
        if held is None:
            return 0
        return 1 if isinstance(held, str) else len(held)

    def sync(self, scope: ScopeChanges, entry_data: EntryData | None) -> None:
        """Bring the index up to the scope's active entries, by the keys changed since."""
        mark, changed = scope.changes(self.mark)
        if changed is None:
            # A scope's cache (`memory._cache.ScopeSlot`) keeps its entries in creation order:
            # taken as they are (every one active: checked in one C-level count), no sort.
            in_order = getattr(scope, "ordered", None)
            listed: list[MemoryEntry] | None = in_order() if callable(in_order) else None
            with collector_paused():  # the whole scope: many small objects and no cycles
                if listed is not None and list(map(_STATUS, listed)).count("active") == len(listed):
                    # Every entry active: the slot's dict by key is the index's, lent until
                    # the slot next changes (it then copies its own; see `lend_entries`).
                    lend = getattr(scope, "lend_entries", None)
                    lent = lend() if callable(lend) and len(scope.entries) == len(listed) else None
                    self.rebuild(listed, entry_data, ordered=True, by_key=lent)
                else:
                    stored = scope.entries.values()
                    self.rebuild((e for e in stored if e.status == "active"), entry_data)
        else:
            current = scope.entries
            for key in dict.fromkeys(changed):
                entry = current.get(key)
                if entry is not None and self.entries.get(key) is entry:
                    continue
                self._remove(key)
                if entry is not None and entry.status == "active":
                    self._add(entry)
        self.mark = mark

    def has(self, term: str) -> bool:
        """Whether some indexed entry holds `term`."""
        self._ensure((term,))
        return term in self._postings

    def score(
        self, parts: Sequence[Mapping[str, float]], params: BM25Params
    ) -> list[tuple[dict[str, float], float]]:
        """BM25F of the indexed entries against weighted query parts, each on its own.

        The same arithmetic as `_bm25.bm25f_parts` over the indexed entries (document
        frequencies, average field lengths, saturation), visiting only the entries that hold
        a query term.

        Returns:
            Per part: key -> score for every entry holding one of its terms, and the highest
            score an entry could reach for that part.
        """
        wanted = frozenset().union(*parts) if parts else frozenset()
        found = self.statistics(wanted, params)
        if found is None:
            return [({}, 0.0) for _ in parts]
        idf, strength_of = found
        strengths: dict[str, dict[str, float]] = {}
        for term in wanted:
            groups = self.groups(term)
            if not groups:
                continue
            strength: dict[str, float] = {}
            for shape, keys in groups.items():
                value = strength_of(term, shape)
                for key in keys:
                    strength[key] = value
            strengths[term] = strength
        out: list[tuple[dict[str, float], float]] = []
        for weights in parts:
            scores: dict[str, float] = {}
            for term, w in weights.items():
                held = strengths.get(term)
                if held is None:
                    continue
                get = scores.get
                for key, value in held.items():
                    scores[key] = get(key, 0.0) + w * value
            out.append(
                (
                    {k: v for k, v in scores.items() if v > 0},
                    sum(weights[t] * idf[t] for t in weights),
                )
            )
        return out

    def statistics(
        self, wanted: frozenset[str], params: BM25Params
    ) -> tuple[dict[str, float], Callable[[str, _Shape], float]] | None:
        """Inverse document frequencies of `wanted`, and a term's strength for an entry shape.

        `None` when no indexed entry holds any of the terms. The strength of a term for an
        entry is BM25F's saturated, length-normalised, field-weighted count (`_bm25`).
        """
        total = len(self.entries)
        if not wanted or not total:
            return None
        self._ensure(wanted)
        frequency = {t: self._df(t) for t in wanted}
        if not any(frequency.values()):
            return None
        n_fields = len(params.field_weights)
        averages = [average_length(s, total) for s in self._length_sums]
        size = corpus_size(total)
        idf = {t: math.log(1.0 + (size - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
        k1, b, field_weights = params.k1, params.b, params.field_weights
        norms: dict[_Shape, list[float]] = {}

        def strength_of(term: str, shape: _Shape) -> float:
            lengths = shape[n_fields:]
            norm = norms.get(lengths)
            if norm is None:
                norm = norms[lengths] = [
                    1.0 - b + b * lengths[f] / averages[f] for f in range(n_fields)
                ]
            tf = 0.0
            for f in range(n_fields):
                count = shape[f]
                if count:
                    tf += field_weights[f] * count / norm[f]
            return idf[term] * tf / (k1 + tf)

        return idf, strength_of

    def signature(self, wanted: Iterable[str]) -> tuple[Any, ...]:
        """What `statistics` of `wanted` depend on besides the entries holding them.

        The entry count and average field lengths on BM25's grid, and each term's document
        frequency: while these and the entries holding the terms stay the same, so does
        every score.
        """
        total = len(self.entries)
        if not total:
            return ()
        ordered = sorted(wanted)
        self._ensure(ordered)
        postings = self._postings
        df = [postings.get(t, ()) for t in ordered]  # `_df` of each, postings made above
        return (
            corpus_size(total),
            tuple([average_length(s, total) for s in self._length_sums]),
            tuple([1 if isinstance(held, str) else len(held) for held in df]),
        )

    def holds_any(self, key: str, wanted: Iterable[str]) -> bool:
        """Whether the indexed entry `key` holds one of `wanted` (`False` when not indexed)."""
        features = self._features.get(key)
        return features is not None and bool(features.holding((t, needle(t)) for t in wanted))

    def posting(self, term: str) -> Mapping[str, _Shape]:
        """The entries holding `term`, with the term's shape in each (empty when none)."""
        return _Posting(self, term)

    def holders(self, term: str) -> Sequence[str]:
        """The keys of the entries holding `term` (no shapes read or kept: see `posting`)."""
        self._ensure((term,))
        held = self._postings.get(term)
        if held is None:
            return ()
        return (held,) if isinstance(held, str) else held

    def shape(self, key: str, term: str) -> _Shape | None:
        """The shape of `term` in the entry `key`: its count per field, then field lengths."""
        features = self._features.get(key)
        return None if features is None else features.shape(term)

    def features(self, entry: MemoryEntry) -> EntryFeatures | None:
        """The features the index holds for `entry` (this very version), else `None`."""
        if self.entries.get(entry.key) is not entry:
            return None
        return self._features.get(entry.key)

    def groups(self, term: str) -> Mapping[_Shape, list[str]]:
        """The entries holding `term` by shape, each group in creation order.

        Built from the term's postings when first asked for, then kept up to date.
        """
        found = self._groups.get(term)
        if found is not None:
            return found
        self._ensure((term,))
        held = self._postings.get(term)
        if held is None:
            return _EMPTY_GROUPS
        # Grouped by the packed counts and lengths first (bytes, no tuple per entry), then
        # each group's shape is read once.
        raw: dict[bytes, list[str]] = {}
        features = self._features
        spelled = needle(term)
        packed = packed_shape
        order = [held] if isinstance(held, str) else held
        for key in order:
            code = packed(features[key], spelled)
            group = raw.get(code)
            if group is None:
                raw[code] = [key]
            else:
                group.append(key)

        def shape_of(code: bytes) -> _Shape:  # postings hold only entries with the term
            return cast("_Shape", features[raw[code][0]].shape_at(spelled))

        groups = by_shape(raw, shape_of, order)
        self._groups[term] = groups
        return groups

    def fallback(self, skip: set[str] | frozenset[str]) -> list[MemoryEntry]:
        """The indexed entries not in `skip`, in the fallback order (important, then newest)."""
        entries = self.entries
        return [entries[key] for key in self._fallback_keys() if key not in skip]

    def fallback_after(self, skip: Container[str]) -> Iterator[MemoryEntry]:
        """`fallback`, computed as it is read."""
        entries = self.entries
        for key in self._fallback_keys():
            if key not in skip:
                yield entries[key]

    def fallback_rank(self, entry: MemoryEntry) -> int:
        """Where `entry` stands in the fallback order."""
        return bisect.bisect_left(self._fallback_keys(), fallback_key(entry), key=self._rank_key)

    def _fallback_keys(self) -> list[str]:
        if self._fallback is None:
            self._fallback = fallback_sorted(self.entries.values())
        return self._fallback


class _Posting(Mapping[str, _Shape]):
    """The entries holding a term, by key, with the term's shape (a view of the index)."""

    def __init__(self, index: KeywordIndex, term: str) -> None:
        self._index = index
        self._term = term

    def __getitem__(self, key: str) -> _Shape:
        shape = self._index.shape(key, self._term)
        if shape is None:
            raise KeyError(key)
        return shape

    def __iter__(self) -> Iterator[str]:
        for keys in self._index.groups(self._term).values():
            yield from keys

    def __len__(self) -> int:
        return self._index._df(self._term)


def index_of(
    scope: ScopeChanges, cache: FeatureCache, entry_data: EntryData | None
) -> KeywordIndex:
    """The scope's keyword index over `cache`'s features, brought up to date."""
    slot_key = ("keyword-index", id(cache))
    index = scope.state.get(slot_key)
    if not isinstance(index, KeywordIndex) or index.cache is not cache:
        index = scope.state[slot_key] = KeywordIndex(cache)
    index.sync(scope, entry_data)
    return index
