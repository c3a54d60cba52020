"""Words of an entry for keyword relevance: tokens, stop words, a light stemmer, and a cache.

An entry's features (the stemmed terms of its key, description and value, with counts and
field lengths) are computed once per version and kept in a cache bounded in bytes,
so a compile over 10,000 unchanged entries does 10,000 lookups, not 10,000 tokenisations.
"""

from __future__ import annotations

import bisect
import functools
import re
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Set

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._packed import (
    EntryFeatures,
    needle,
    shared,
)

__all__ = [
    "FIELDS",
    "STOPWORDS",
    "EntryFeatures",
    "FeatureCache",
    "default_cache",
    "stem",
    "terms",
]

FIELDS: tuple[str, ...] = ("key", "description", "value")
"""The fields keyword relevance reads, in the order of `EntryFeatures.fields`."""

_WORD = re.compile(r"[^\W_]+")

# Words that say nothing about the topic: function words, question words, and the filler of
# conversation ("remind me", "okay", "now"). BM25's IDF already discounts common words; dropping
# these keeps them from matching at all, so "what is the" cannot pull in every entry.
STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any anything are as at be
    because been before being below between both but by can could currently days did do
    does doing done down during each either else ever everything few for from further
    had has have having he hello her here hers herself hey hi him himself his how
    however i if in into is it its itself just know let lets like maybe me might more
    most must my myself need needs neither no nor not nothing now of off often ok okay
    on once only or other our ours ourselves out over own please quite rather really
    remind same shall she should so some something such sure tell than thank thanks that
    the their theirs them themselves then there these they think this those through thus
    to too under until up upon us usually very want wanted wants was we were what
    whatever when whenever where wherever whether which while who whom whose why will
    with within without would yes yet you your yours yourself yourselves
    """.split()  # noqa: SIM905 (a word list is easier to read as text)
)

_VOWELS = frozenset("aeiouy")


def _has_vowel(text: str) -> bool:
    return any(c in _VOWELS for c in text)


@functools.lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """Reduce an English word to a stem shared by its inflections.

    A light suffix stripper: plurals, `-ing`, `-ed`, `-ly`, `-ion`, a final `-e`, and `-y`/`-ies`
    to `-i`, so "allergies" and "allergy", "rotated" and "rotation", "lessons" and "lesson"
    meet. It does not try to be a linguist: stems only need to be equal for words that belong
    together and different for most words that do not.

    Example:
        ```python
        from langchain_contextchef.selectors._text_features import stem

        assert stem("allergies") == stem("allergy")
        assert stem("rotated") == stem("rotation") == stem("rotate")
        assert stem("swimming") == stem("swims")
        ```
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    w = word
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "i"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and _has_vowel(w[: -len(suffix)]):
            w = w[: -len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]  # running -> run, swimming -> swim
            break
    if w.endswith("ly") and len(w) > 5:
        w = w[:-2]
    if w.endswith("ion") and len(w) > 6:
        w = w[:-3]  # rotation -> rotat, collection -> collect
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if w.endswith("y") and len(w) > 3:
        w = w[:-1] + "i"
    return w


def terms(text: str) -> list[str]:
    """The stemmed content words of a text, in order (stop words and one-letter words dropped).

    Example:
        ```python
        from langchain_contextchef.selectors._text_features import terms

        assert terms("What are my allergies?") == ["allergi"]
        assert terms("staging_db-password") == ["stag", "db", "password"]
        ```
    """
    known = _TERMS
    out: list[str] = []
    for word in _WORD.findall(text.casefold()):
        term = known.get(word, _UNSEEN)
        if term is _UNSEEN:
            term = _term_of(word)
        if term is not None:
            out.append(term)
    return out


_UNSEEN = ""  # never a term: `_TERMS` only holds words of at least one character
_TERMS: dict[str, str | None] = {}
"""Each word seen, as its term (`None` for a stop word or a lone letter): one look-up a word."""
_TERMS_LIMIT = 200_000


def _term_of(word: str) -> str | None:
    if not word.isalpha():  # numbers and mixed words: never stop words nor stemmed
        return word if len(word) > 1 or word.isdigit() else None
    term = stem(word) if word not in STOPWORDS and len(word) > 1 else None
    if len(_TERMS) < _TERMS_LIMIT:  # words only (numbers are many); past the bound, no memo
        _TERMS[word] = term
    return term


def _counts(words: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for word in words:
        out[word] = out.get(word, 0) + 1
    return out


def features_of(entry: MemoryEntry) -> EntryFeatures:
    """Tokenise an entry's key, description and value (uncached)."""
    return _tokenised(entry)[0]


def _tokenised(entry: MemoryEntry) -> tuple[EntryFeatures, tuple[str, ...], list[bool]]:
    """`features_of`, with the entry's terms and whether each occurs in the key."""
    in_key = _counts(terms(entry.key.replace("_", " ")))
    in_description = _counts(terms(entry.description or ""))
    in_value = _counts(terms(entry.value))
    lengths = shared((sum(in_key.values()), sum(in_description.values()), sum(in_value.values())))
    found = tuple({**in_key, **in_description, **in_value})
    counts: list[int] = []
    for term in found:
        counts += (in_key.get(term, 0), in_description.get(term, 0), in_value.get(term, 0))
    keyed = [term in in_key for term in found]
    return EntryFeatures._pack(found, counts, lengths), found, keyed


_CacheKey = tuple[str, str | None, str]
CountsMark = tuple[int, int, int]
"""`FeatureCache.mark`: entries tokenised, drops, and entries held, at one moment."""
_RECENT = 64
_KEPT_EXPANSIONS = 64
"""How many of the last tokenised entries' terms a cache keeps for `unchanged_for`."""
_PENDING = 256


_HELD = 100
"""Bytes the cache spends per entry beyond its features: the key tuple and its dict slot."""
_EVICTED_SHARE = 16
"""Past its bound, the cache drops its oldest entries until 1/16 of the bound is free."""


class FeatureCache:
    """A cache of `EntryFeatures`, bounded in bytes, that drops the oldest first.

    Keyed by the texts the features are made of (the entry's key, description and value, the
    entry's own string objects, so a key holds three references): a rewritten entry is
    tokenised again, and entries with the same texts share features, whatever their version or
    scope. Past `max_bytes`, eviction drops the entries tokenised longest ago until the
    estimated size (of the features and the cache's own bookkeeping; the texts are the
    entries' and counted with them) is a sixteenth under it; nothing is ever cleared
    wholesale. A hit does not reorder the entries: a plain dict keeps them in the order they
    were tokenised at about 30 bytes an entry, where an ordered dict that moves each hit to
    the end costs 75, and a scope whose features are read at every compile holds them in
    its own keyword index anyway (`_index.KeywordIndex`).

    Args:
        max_bytes: The memory bound, in (estimated) bytes.

    Attributes:
        tokenisations: How many entries were tokenised (cache misses) since creation.
        terms_version: Changes whenever a term is added to or dropped from the known
            vocabulary (which `expand` reads), so a result that used it can be kept until then.
        dropped: How many times held features left the cache (evicted, replaced, cleared).
            While it stands, every entry tokenised or found here since is counted in the
            vocabulary: a word it does not count is held by none of them.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.selectors._text_features import FeatureCache
        from langchain_contextchef.entry import MemoryEntry

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        cache = FeatureCache(max_bytes=1_000_000)
        entry = MemoryEntry(key="pets", value="Two cats", created_at=t, updated_at=t)
        assert cache.get(entry) is cache.get(entry)
        assert cache.tokenisations == 1
        ```
    """

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
            msg = f"max_bytes must be a positive int, got {max_bytes!r}."
            raise ValueError(msg)
        self.max_bytes = max_bytes
        self.tokenisations = 0
        self.terms_version = 0
        self.dropped = 0
        self._items: dict[_CacheKey, EntryFeatures] = {}  # oldest first
        self._bytes = 0
        self._lock = threading.Lock()
        # How many cached entries hold each term, and the terms sorted (rebuilt lazily when a
        # new term arrives), for prefix matching of query terms.
        # Words only: numbers (terms of digits) are counted from the held features when
        # asked for (`_numbers`). They are most of a scope's terms held by one entry each
        # (ids, dates, amounts: about 70 bytes each in these dicts), and prefix expansion
        # never reads them (it expands words of letters, and no number begins with one).
        self._vocabulary: dict[str, int] = {}
        self._sorted: list[str] = []
        # New terms `_sorted` does not hold yet: a few are inserted when `expand` next reads
        # it; past `_PENDING` (a whole scope read at once) it is sorted again instead.
        self._pending: list[str] = []
        self._unsorted = False
        # How many cached entries hold each term in their key.
        self._key_terms: dict[str, int] = {}
        # Numbers' counts (all, in keys) as asked for since the held entries last changed.
        self._number_counts: dict[str, tuple[int, int]] = {}
        # The terms of the entries tokenised last, newest at the end (`unchanged_for`).
        self._recent: deque[tuple[str, ...]] = deque(maxlen=_RECENT)
        # The last queries' expansions, with the `terms_version` they were made at.
        self._expansions: dict[tuple[tuple[str, float], ...], tuple[int, dict[str, float]]] = {}

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        """The estimated size of what the cache holds."""
        return self._bytes

    @staticmethod
    def _key(entry: MemoryEntry) -> _CacheKey:
        # The texts the features are made of, and nothing else: features are a function of
        # them. The strings are the entry's own (no copy); their hashes are cached on them.
        return (entry.key, entry.description, entry.value)

    def get(self, entry: MemoryEntry) -> EntryFeatures:
        """The features of `entry`, computed on a miss."""
        key = self._key(entry)
        found = self._items.get(key)
        return found if found is not None else self._made(key, entry)

    def get_all(self, entries: Iterable[MemoryEntry]) -> list[EntryFeatures]:
        """The features of each of `entries`, in order (`get` for each, in one loop)."""
        look = self._items.get
        out: list[EntryFeatures] = []
        add = out.append
        for entry in entries:
            key = (entry.key, entry.description, entry.value)  # `_key`, inline
            found = look(key)
            add(found if found is not None else self._made(key, entry))
        return out

    def _made(self, key: _CacheKey, entry: MemoryEntry) -> EntryFeatures:
        made, found, keyed = _tokenised(entry)  # the tokeniser's strings: nothing decoded
        with self._lock:
            self.tokenisations += 1
            self._recent.append(found)
            previous = self._items.pop(key, None)
            if previous is not None:
                self._forget(previous)
            self._items[key] = made
            self._bytes += made.size + _HELD
            self._number_counts.clear()
            for term, in_key in zip(found, keyed, strict=True):
                if term.isdigit():  # counted when asked for; `expand` never reads numbers
                    continue
                count = self._vocabulary.get(term, 0)
                if not count:  # a new word: `_sorted` learns it when next read
                    if len(self._pending) < _PENDING:
                        self._pending.append(term)
                    else:
                        self._unsorted = True
                    self.terms_version += 1
                self._vocabulary[term] = count + 1
                if in_key:
                    self._key_terms[term] = self._key_terms.get(term, 0) + 1
            if self._bytes > self.max_bytes and len(self._items) > 1:
                self._evict(key)
        return made

    def _evict(self, newest: _CacheKey) -> None:
        # Under the lock: the oldest entries, in one pass from the front of the dict (one
        # pass per batch, so the holes deletions leave there are skipped once per batch).
        goal = self.max_bytes - self.max_bytes // _EVICTED_SHARE
        dropped: list[_CacheKey] = []
        freed = 0
        for key, features in self._items.items():
            if self._bytes - freed <= goal or key == newest:
                break
            dropped.append(key)
            freed += features.size + _HELD
        for key in dropped:
            self._forget(self._items.pop(key))

    def _forget(self, features: EntryFeatures) -> None:
        self.dropped += 1  # before the counts change: a reader checks it after reading them
        self._bytes -= features.size + _HELD
        self._number_counts.clear()
        for term, shape in zip(features.terms, features.shapes, strict=True):
            if term.isdigit():  # not in the vocabulary (`frequency` counts them when asked)
                continue
            if shape[0]:
                left = self._key_terms.get(term, 0) - 1
                if left <= 0:
                    self._key_terms.pop(term, None)
                else:
                    self._key_terms[term] = left
            count = self._vocabulary.get(term, 0) - 1
            if count <= 0:
                self._vocabulary.pop(term, None)
                self.terms_version += 1
                if not self._unsorted:
                    at = bisect.bisect_left(self._sorted, term)
                    if at < len(self._sorted) and self._sorted[at] == term:
                        del self._sorted[at]
            else:
                self._vocabulary[term] = count

    def _sort(self) -> None:
        # Under the lock: bring `_sorted` up to the vocabulary.
        if self._unsorted:
            self._sorted = sorted(self._vocabulary)
        else:
            ordered = self._sorted
            for term in self._pending:
                at = bisect.bisect_left(ordered, term)
                if term in self._vocabulary and (at == len(ordered) or ordered[at] != term):
                    ordered.insert(at, term)
        self._pending.clear()
        self._unsorted = False

    def frequency(self, term: str, *, in_key: bool = False) -> int:
        """How many cached entries hold `term` (in their key, with `in_key`)."""
        if term.isdigit():
            return self._numbers(term)[in_key]
        return (self._key_terms if in_key else self._vocabulary).get(term, 0)

    def _numbers(self, term: str) -> tuple[int, int]:
        """How many held entries hold the number `term`, and in their key: counted once."""
        found = self._number_counts.get(term)
        if found is not None:
            return found
        spelled = needle(term)
        held = keyed = 0
        with self._lock:
            for features in self._items.values():
                shape = features.shape_at(spelled)
                if shape is not None:
                    held += 1
                    keyed += shape[0] > 0
            found = self._number_counts[term] = (held, keyed)
        return found

    def expand(
        self, weights: Mapping[str, float], *, min_length: int = 5, factor: float = 0.6
    ) -> dict[str, float]:
        """Add, for each query term, the known terms it is a prefix of or that are its prefix.

        "allergi" (from "allergies") also finds "allergic", "physio" finds "physiotherapi".
        Only terms of at least `min_length` letters take part, and an added term weighs
        `factor` times the query term, so exact matches still count more.
        """
        out = dict(weights)
        if self._unsorted or self._pending:
            with self._lock:
                self._sort()
        ordered = self._sorted
        known = self._vocabulary
        for term, weight in weights.items():
            if len(term) < min_length or not term.isalpha():
                continue
            extra = weight * factor
            start = bisect.bisect_left(ordered, term)
            for candidate in ordered[start : start + 50]:
                if not candidate.startswith(term):
                    break
                if candidate != term and out.get(candidate, 0.0) < extra:
                    out[candidate] = extra
            for cut in range(min_length, len(term)):
                prefix = term[:cut]
                if prefix in known and out.get(prefix, 0.0) < extra:
                    out[prefix] = extra
        return out

    def expanded(self, weights: Mapping[str, float]) -> dict[str, float]:
        """`expand` with its defaults, kept per query while the vocabulary stands.

        An expansion reads only which terms the vocabulary holds, so it is kept until
        `terms_version` changes (a compile after a write asks the same question again).
        The dict is shared by the callers that ask: none may change it.
        """
        key = tuple(weights.items())
        version = self.terms_version
        found = self._expansions.get(key)
        if found is not None and found[0] == version:
            return found[1]
        out = self.expand(weights)
        if self.terms_version == version:  # no term came or went while it was made
            if len(self._expansions) >= _KEPT_EXPANSIONS:
                self._expansions = {}
            self._expansions[key] = (version, out)
        return out

    def mark(self) -> CountsMark:
        """Where the cache's counts stand: entries tokenised, drops, entries held."""
        with self._lock:
            return (self.tokenisations, self.dropped, len(self._items))

    def unchanged_for(self, mark: CountsMark, words: Set[str]) -> CountsMark | None:
        """The `mark` of now, when every word of `words` is counted as at `mark`, else `None`.

        Counts change only when features are added (the entries tokenised since: their
        terms, the last `_RECENT` kept) or dropped: `None` when something was dropped since,
        when more were added than are kept, or when one added holds one of `words`. The
        number of entries held may differ (it is in the mark returned).

        Example:
            ```python
            from datetime import datetime, timezone
            from langchain_contextchef.entry import MemoryEntry
            from langchain_contextchef.selectors._text_features import FeatureCache

            t = datetime(2026, 5, 25, tzinfo=timezone.utc)
            cache = FeatureCache()
            mark = cache.mark()
            cache.get(MemoryEntry(key="pets", value="Two cats", created_at=t, updated_at=t))
            assert cache.unchanged_for(mark, {"dog"}) == cache.mark()
            assert cache.unchanged_for(mark, {"cat"}) is None
            ```
        """
        with self._lock:
            made, dropped = self.tokenisations, self.dropped
            since = made - mark[0]
            recent = self._recent
            if dropped != mark[1] or not 0 <= since <= len(recent):
                return None
            for at in range(len(recent) - since, len(recent)):
                if not words.isdisjoint(recent[at]):
                    return None
            return (made, dropped, len(self._items))

    def clear(self) -> None:
        """Drop everything (for tests and for callers that manage memory themselves)."""
        with self._lock:
            self.dropped += 1
            self._items.clear()
            self._bytes = 0
            self._vocabulary.clear()
            self._sorted.clear()
            self._pending.clear()
            self._unsorted = False
            self._key_terms.clear()
            self._number_counts.clear()
            self.terms_version += 1


_DEFAULT = FeatureCache()


def default_cache() -> FeatureCache:
    """The process-wide cache the ready-made selectors share (64 MiB bound by default)."""
    return _DEFAULT
