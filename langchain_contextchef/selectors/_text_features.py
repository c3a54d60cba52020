"""Words of an entry for keyword relevance: tokens, stop words, a light stemmer, and a cache.

An entry's features (the stemmed terms of its key, description and value, with counts and
field lengths) are computed once per version and kept in a bounded least-recently-used cache,
so a compile over 10,000 unchanged entries does 10,000 lookups, not 10,000 tokenisations.
"""

from __future__ import annotations

import bisect
import functools
import re
import struct
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from itertools import repeat
from typing import Any, cast

from langchain_contextchef.entry import MemoryEntry

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


_Shape = tuple[int, ...]
_SHAPES: dict[_Shape, _Shape] = {}
"""Shapes shared by every entry that has them (most terms of most entries have a few)."""
_SHAPES_LIMIT = 200_000


def _shared(shape: _Shape) -> _Shape:
    found = _SHAPES.get(shape)
    if found is not None:
        return found
    if len(_SHAPES) < _SHAPES_LIMIT:
        _SHAPES[shape] = shape
    return shape


_BASE_SIZE = sys.getsizeof(b"")  # a bytes object's header

_HEAD = struct.Struct("<IBBI")  # where the terms start, count width, fields, number of terms
_LENGTH_CODE = "I"  # field lengths: unsigned 32-bit ints right after the header
_SEP = b"\x00"  # never inside a term: terms are runs of word characters
_CODES = {1: "B", 2: "H", 4: "I"}
_STRUCTS: dict[tuple[str, int, int], struct.Struct] = {}


def _struct(code: str, count: int, offset: int) -> struct.Struct:
    """`count` unsigned ints of `code`'s width at `offset` (memoised: few layouts recur)."""
    made = _STRUCTS.get((code, count, offset))
    if made is None:
        made = struct.Struct(f"<{offset}x{count}{code}")
        if len(_STRUCTS) < 4_096:
            _STRUCTS[(code, count, offset)] = made
    return made


_DECODED: dict[bytes, dict[str, tuple[int, ...]]] = {}
_DECODED_LIMIT = 512  # entries; a ranking's head reads a few dozen per compile

_Reader = Callable[[bytes, int], tuple[int, ...]]
_READERS: dict[tuple[int, int], tuple[_Reader, _Reader]] = {}


def _readers(width: int, fields: int) -> tuple[_Reader, _Reader]:
    """Readers of `fields` lengths and of `fields` counts `width` bytes wide, at an offset."""
    found = _READERS.get((width, fields))
    if found is None:
        found = (
            struct.Struct(f"<{fields}{_LENGTH_CODE}").unpack_from,
            struct.Struct(f"<{fields}{_CODES[width]}").unpack_from,
        )
        _READERS[(width, fields)] = found  # at most 3 widths per number of fields
    return found


class EntryFeatures(bytes):
    """The keyword features of one entry version, packed into one `bytes` object.

    Each term of the entry comes with its *shape*: the term's count in each field (in the
    order of `FIELDS`), then the entry's number of terms per field. An entry's features are
    one flat, untracked object (about 40% of a tuple of shared strings and shapes, and the
    strings unique to one entry, numbers above all, cost their characters only): a header,
    the field lengths and each term's counts per field as unsigned ints of the narrowest
    width that holds them, then the terms in UTF-8, each between two zero bytes. Shapes are
    rebuilt from the counts and the lengths when read, shared between entries (`_shared`).

    Args:
        terms: Every term of the entry, once each (words: no zero character).
        shapes: The shape of each term, in the order of `terms`: its counts per field,
            then `lengths`.
        lengths: Number of terms per field.

    Raises:
        ValueError: When the terms and shapes do not pair up, a shape does not end with
            `lengths`, a term is empty, repeated or holds a zero character, or a count is
            negative.

    Example:
        ```python
        from langchain_contextchef.selectors._text_features import EntryFeatures

        features = EntryFeatures(
            ("cat", "pet"), ((0, 0, 2, 1, 0, 3), (1, 0, 0, 1, 0, 3)), (1, 0, 3)
        )
        assert features.terms == ("cat", "pet") and features.lengths == (1, 0, 3)
        assert features.shape("pet") == (1, 0, 0, 1, 0, 3) and features.shape("dog") is None
        assert EntryFeatures(features.terms, features.shapes, features.lengths) == features
        ```
    """

    __slots__ = ()

    def __new__(
        cls, terms: tuple[str, ...], shapes: tuple[_Shape, ...], lengths: tuple[int, ...]
    ) -> EntryFeatures:
        if len(terms) != len(shapes):
            msg = f"Each term needs one shape: got {len(terms)} terms and {len(shapes)} shapes."
            raise ValueError(msg)
        fields = len(lengths)
        counts: list[int] = []
        for term, shape in zip(terms, shapes, strict=True):
            if len(shape) != 2 * fields or tuple(shape[fields:]) != tuple(lengths):
                msg = f"The shape {shape!r} of {term!r} must be its counts, then {lengths!r}."
                raise ValueError(msg)
            counts += shape[:fields]
        if len(set(terms)) != len(terms) or any(not t or "\x00" in t for t in terms):
            msg = f"Terms must be distinct, non-empty words without a zero character: {terms!r}."
            raise ValueError(msg)
        numbers = [*lengths, *counts]
        if fields > 0xFF or (numbers and not 0 <= min(numbers) <= max(numbers) <= 0xFFFFFFFF):
            msg = (
                f"Counts and lengths must be 32-bit unsigned ints, at most 255 fields: {lengths!r}."
            )
            raise ValueError(msg)
        return cls._pack(terms, counts, lengths)

    @classmethod
    def _pack(
        cls, terms: tuple[str, ...], counts: list[int], lengths: tuple[int, ...]
    ) -> EntryFeatures:
        # Unchecked: `__new__` checks its arguments, `features_of` makes valid ones.
        # `counts` are the terms' counts per field, flat, in the order of `terms`.
        top = max(counts) if counts else 0
        width, code = (1, "B") if top <= 0xFF else (2, "H") if top <= 0xFFFF else (4, "I")
        fields = len(lengths)
        head = _HEAD.pack(_HEAD.size + 4 * fields + width * len(counts), width, fields, len(terms))
        return super().__new__(
            cls,
            b"".join(
                (
                    head,
                    struct.pack(f"<{fields}{_LENGTH_CODE}{len(counts)}{code}", *lengths, *counts),
                    _SEP,
                    "\x00".join(terms).encode("utf-8"),
                    _SEP,
                )
            ),
        )

    def __repr__(self) -> str:
        return (
            f"EntryFeatures(terms={self.terms!r}, shapes={self.shapes!r}, lengths={self.lengths!r})"
        )

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.terms, self.shapes, self.lengths)

    @property
    def lengths(self) -> tuple[int, ...]:
        """Number of terms per field."""
        fields = _HEAD.unpack_from(self)[2]
        return _shared(_struct(_LENGTH_CODE, fields, _HEAD.size).unpack_from(self))

    @property
    def terms(self) -> tuple[str, ...]:
        """Every term of the entry, once each (key first, then description, then value)."""
        start, _, _, count = _HEAD.unpack_from(self)
        if not count:
            return ()
        return tuple(self[start + 1 : -1].decode("utf-8").split("\x00"))

    @property
    def shapes(self) -> tuple[_Shape, ...]:
        """The shape of each term, in the order of `terms`."""
        return tuple(self.decoded().values())

    def decoded(self) -> dict[str, _Shape]:
        """Each term's shape, in the order of `terms`: decoded once while often read.

        The entries a ranking's head reads again at every compile (their shapes, their
        vocabulary) are decoded once and kept in a small module-level memo, emptied
        whenever it fills; callers must not change the dict.
        """
        found = _DECODED.get(self)
        if found is None:
            found = dict(zip(self.terms, self._shapes(), strict=True))
            if len(_DECODED) >= _DECODED_LIMIT:
                _DECODED.clear()  # whole: atomic, and hot entries come back at once
            _DECODED[self] = found
        return found

    def _shapes(self) -> tuple[_Shape, ...]:
        _, width, fields, count = _HEAD.unpack_from(self)
        lengths = _readers(width, fields)[0](self, _HEAD.size)
        flat = self._counts(width, fields, count)
        known, share = _SHAPES.get, _shared
        runs = zip(*(flat[f::fields] for f in range(fields)), strict=True)
        return tuple([known(s) or share(s) for s in map(tuple.__add__, runs, repeat(lengths))])

    def _counts(self, width: int, fields: int, count: int) -> tuple[int, ...]:
        """Every term's counts per field, flat (`fields` per term, in the order of `terms`)."""
        return _struct(_CODES[width], fields * count, _HEAD.size + 4 * fields).unpack_from(self)

    @property
    def size(self) -> int:
        """An estimate of the bytes these features hold (for the cache's memory bound)."""
        return _BASE_SIZE + len(self)

    @property
    def vocabulary(self) -> frozenset[str]:
        """Every term of the entry, as a set."""
        return frozenset(self.decoded())

    @property
    def fields(self) -> tuple[dict[str, int], ...]:
        """Term counts per field, in the order of `FIELDS` (built on each call)."""
        pairs = self.decoded().items()
        return tuple({t: s[f] for t, s in pairs if s[f]} for f in range(len(self.lengths)))

    def field_terms(self, field: int) -> tuple[str, ...]:
        """The terms that occur in one field (an index into `FIELDS`), in the order of `terms`."""
        return tuple([t for t, s in self.decoded().items() if s[field]])

    def shape(self, term: str) -> _Shape | None:
        """The shape of `term` in this entry, or `None` when the entry does not hold it."""
        return self.decoded().get(term)

    def shape_at(self, needle: bytes) -> _Shape | None:
        """`shape` of the term `needle` spells: its UTF-8 between two zero bytes (`needle`)."""
        start, width, fields, _ = _HEAD.unpack_from(self)
        found = self.find(needle, start)
        if found < 0:
            return None
        place = self.count(_SEP, start, found)  # the term's index among the terms
        lengths, counts = _readers(width, fields)
        at = _HEAD.size + 4 * fields + width * fields * place
        return _shared(counts(self, at) + lengths(self, _HEAD.size))

    def holding(self, needles: Iterable[tuple[str, bytes]]) -> list[tuple[str, _Shape]]:
        """The terms among `needles` (term, `needle`) this entry holds, with their shapes."""
        start = _HEAD.unpack_from(self)[0]
        found = [term for term, needle in needles if self.find(needle, start) >= 0]
        if not found:
            return []
        return [(term, cast("_Shape", self.shape_at(needle(term)))) for term in found]


def read_lengths(fields: int) -> Callable[[EntryFeatures], tuple[int, ...]]:
    """A C-level reader of `EntryFeatures.lengths` for features of `fields` fields."""
    return _struct(_LENGTH_CODE, fields, _HEAD.size).unpack_from


def packed_shape(features: EntryFeatures, spelled: bytes) -> bytes:
    """The shape of the term `spelled` (a `needle`) in its packed form (empty when absent).

    Equal packed shapes of features with the same number of fields are equal shapes, so a
    caller can group entries by it and read the shape once per group (`shape_at`).
    """
    start, width, fields, _ = _HEAD.unpack_from(features)
    found = features.find(spelled, start)
    if found < 0:
        return b""
    at = _HEAD.size + 4 * fields + width * fields * features.count(_SEP, start, found)
    return features[_HEAD.size : _HEAD.size + 4 * fields] + features[at : at + width * fields]


def postings_by_shape(
    features: Iterable[tuple[str, EntryFeatures]], wanted: Iterable[str]
) -> dict[str, tuple[list[str], dict[_Shape, list[str]]]]:
    """For each term of `wanted`: the keys holding it, and those keys by the term's shape.

    One pass over `(key, features)` pairs, in their order (both lists keep it). The terms
    are found and grouped in the packed form (the lengths and the term's counts as bytes),
    and each distinct packed shape is read once. A term no entry holds is absent.
    """
    asked = [(term, _SEP + term.encode("utf-8") + _SEP) for term in wanted]
    keys: dict[str, list[str]] = {term: [] for term, _ in asked}
    raw: dict[str, dict[bytes, list[str]]] = {term: {} for term, _ in asked}
    shape_of: dict[bytes, _Shape] = {}
    head = _HEAD.unpack_from
    for key, packed in features:
        start, width, fields, _ = head(packed)
        lengths_end = _HEAD.size + 4 * fields
        step = width * fields
        for term, spelled in asked:
            found = packed.find(spelled, start)
            if found < 0:
                continue
            keys[term].append(key)
            at = lengths_end + step * packed.count(_SEP, start, found)
            code = packed[_HEAD.size : lengths_end] + packed[at : at + step]
            groups = raw[term]
            group = groups.get(code)
            if group is not None:
                group.append(key)
                continue
            groups[code] = [key]
            if code not in shape_of:
                counts = _struct(_CODES[width], fields, at).unpack_from(packed)
                lengths = _struct(_LENGTH_CODE, fields, _HEAD.size).unpack_from(packed)
                shape_of[code] = _shared((*counts, *lengths))
    return {
        term: (keys[term], by_shape(raw[term], shape_of.__getitem__, keys[term]))
        for term, _ in asked
        if keys[term]
    }


def by_shape(
    raw: Mapping[bytes, list[str]], shape_of: Callable[[bytes], _Shape], order: list[str]
) -> dict[_Shape, list[str]]:
    """Groups by packed shape (`packed_shape`) as groups by shape, each in `order`.

    Equal packed shapes are equal shapes; equal shapes packed in two widths (one entry has
    a larger count elsewhere) are two packed groups, merged here in `order`.
    """
    groups: dict[_Shape, list[str]] = {}
    for code, members in raw.items():
        shape = shape_of(code)
        if shape in groups:  # the same shape in another width: merge every group
            break
        groups[shape] = members
    else:
        return groups
    place = {key: n for n, key in enumerate(order)}
    groups = {}
    for code, members in raw.items():
        groups.setdefault(shape_of(code), []).extend(members)
    for members in groups.values():
        members.sort(key=place.__getitem__)
    return groups


def needle(term: str) -> bytes:
    """How `EntryFeatures` spells `term` among its terms (see `EntryFeatures.shape_at`)."""
    return _SEP + term.encode("utf-8") + _SEP


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
    lengths = _shared((sum(in_key.values()), sum(in_description.values()), sum(in_value.values())))
    found = tuple({**in_key, **in_description, **in_value})
    counts: list[int] = []
    for term in found:
        counts += (in_key.get(term, 0), in_description.get(term, 0), in_value.get(term, 0))
    keyed = [term in in_key for term in found]
    return EntryFeatures._pack(found, counts, lengths), found, keyed


_CacheKey = tuple[str, str | None, str]
_PENDING = 256
_HELD = 140
"""Bytes the cache spends per entry beyond its features: the key tuple and the node."""


class FeatureCache:
    """A least-recently-used cache of `EntryFeatures`, bounded in bytes.

    Keyed by the texts the features are made of (the entry's key, description and value, the
    entry's own string objects, so a key holds three references): a rewritten entry is
    tokenised again, and entries with the same texts share features, whatever their version or
    scope. Eviction drops the least recently used entries until the estimated size (of the
    features; the texts are the entries' and counted with them) is under `max_bytes`; nothing
    is ever cleared wholesale.

    Args:
        max_bytes: The memory bound, in (estimated) bytes.

    Attributes:
        tokenisations: How many entries were tokenised (cache misses) since creation.
        terms_version: Changes whenever a term is added to or dropped from the known
            vocabulary (which `expand` reads), so a result that used it can be kept until then.

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
        self._items: OrderedDict[_CacheKey, EntryFeatures] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        # How many cached entries hold each term, and the terms sorted (rebuilt lazily when a
        # new term arrives), for prefix matching of query terms.
        self._vocabulary: dict[str, int] = {}
        self._sorted: list[str] = []
        # New terms `_sorted` does not hold yet: a few are inserted when `expand` next reads
        # it; past `_PENDING` (a whole scope read at once) it is sorted again instead.
        self._pending: list[str] = []
        self._unsorted = False
        # How many cached entries hold each term in their key.
        self._key_terms: dict[str, int] = {}

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
        if found is not None:
            try:  # noqa: SIM105 (a context manager per look-up costs more than it)
                self._items.move_to_end(key)
            except KeyError:  # evicted by another thread in between: still valid
                pass
            return found
        return self._made(key, entry)

    def get_all(self, entries: Iterable[MemoryEntry]) -> list[EntryFeatures]:
        """The features of each of `entries`, in order (`get` for each, in one loop)."""
        items = self._items
        look, touch = items.get, items.move_to_end
        out: list[EntryFeatures] = []
        add = out.append
        for entry in entries:
            key = (entry.key, entry.description, entry.value)  # `_key`, inline
            found = look(key)
            if found is None:
                found = self._made(key, entry)
            else:
                try:  # noqa: SIM105 (as in `get`)
                    touch(key)
                except KeyError:  # evicted by another thread in between: still valid
                    pass
            add(found)
        return out

    def _made(self, key: _CacheKey, entry: MemoryEntry) -> EntryFeatures:
        made, found, keyed = _tokenised(entry)  # the tokeniser's strings: nothing decoded
        with self._lock:
            self.tokenisations += 1
            previous = self._items.pop(key, None)
            if previous is not None:
                self._forget(previous)
            self._items[key] = made
            self._bytes += made.size + _HELD
            for term, in_key in zip(found, keyed, strict=True):
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
            while self._bytes > self.max_bytes and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._forget(dropped)
        return made

    def _forget(self, features: EntryFeatures) -> None:
        self._bytes -= features.size + _HELD
        for term, shape in zip(features.terms, features.shapes, strict=True):
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
        return (self._key_terms if in_key else self._vocabulary).get(term, 0)

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

    def clear(self) -> None:
        """Drop everything (for tests and for callers that manage memory themselves)."""
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self._vocabulary.clear()
            self._sorted.clear()
            self._pending.clear()
            self._unsorted = False
            self._key_terms.clear()
            self.terms_version += 1


_DEFAULT = FeatureCache()


def default_cache() -> FeatureCache:
    """The process-wide cache the ready-made selectors share (64 MiB bound by default)."""
    return _DEFAULT
