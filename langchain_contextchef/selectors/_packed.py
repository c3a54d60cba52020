"""Keyword features packed into one `bytes` object per entry (`EntryFeatures`).

An entry's features (its terms, each term's count per field, the field lengths) are one
flat, untracked object: a header, the lengths and counts as unsigned ints, then the terms
in UTF-8 between zero bytes. The helpers here look terms up in that form without decoding
it (`needle`, `packed_shape`, `postings_by_shape`), and the entries read often are decoded
once (`EntryFeatures.decoded`). Tokenising lives in `_text_features`, which re-exports
these names.

Example:
    ```python
    from langchain_contextchef.selectors._packed import EntryFeatures, needle

    features = EntryFeatures(("cat",), ((0, 0, 2, 0, 0, 2),), (0, 0, 2))
    assert features.shape_at(needle("cat")) == (0, 0, 2, 0, 0, 2)
    ```
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable, Iterable, Mapping
from itertools import chain, repeat
from typing import Any, cast

__all__ = [
    "EntryFeatures",
    "by_shape",
    "needle",
    "packed_shape",
    "postings_by_shape",
    "read_lengths",
    "shared",
]

_Shape = tuple[int, ...]
_SHAPES: dict[_Shape, _Shape] = {}
"""Shapes shared by every entry that has them (most terms of most entries have a few)."""
_SHAPES_LIMIT = 200_000


def shared(shape: _Shape) -> _Shape:
    """One object per distinct shape (most terms of most entries have a few)."""
    found = _SHAPES.get(shape)
    if found is not None:
        return found
    if len(_SHAPES) < _SHAPES_LIMIT:
        _SHAPES[shape] = shape
    return shape


_BASE_SIZE = sys.getsizeof(b"")  # a bytes object's header

_HEAD = struct.Struct("<BBI")  # count width, fields, number of terms (`_layout` adds the start)
_LENGTH_CODE = "I"  # field lengths: unsigned 32-bit ints right after the header
_THREE_LENGTHS = struct.Struct(f"<3{_LENGTH_CODE}")  # the lengths of an entry's three fields
_SEP = b"\x00"  # never inside a term: terms are runs of word characters
_CODES = {1: "B", 2: "H", 4: "I"}
_STRUCTS: dict[tuple[str, int, int], struct.Struct] = {}
_SMALL_FIELDS = 4
"""Width 0: every count is at most 3 and there are at most 4 fields, so a term's counts
fit one byte, two bits per field (field `f` in bits `2f` and `2f + 1`). Most terms occur
once in one field: a third of the bytes of width 1 for three fields."""
_SMALL_TOP = 3
_SMALL: dict[int, list[tuple[int, ...]]] = {
    fields: [tuple((byte >> 2 * f) & 3 for f in range(fields)) for byte in range(256)]
    for fields in range(1, _SMALL_FIELDS + 1)
}
"""For each number of fields, the counts each byte of width 0 stands for."""


def _step(width: int, fields: int) -> int:
    """Bytes per term of the counts: `width` bytes per field, or one byte for width 0."""
    return width * fields if width else 1


def _layout(features: bytes) -> tuple[int, int, int, int]:
    """Where the terms start, the count width, the number of fields and the number of terms.

    The header keeps the last three; the start (the zero byte before the first term) follows.
    """
    width, fields, count = _HEAD.unpack_from(features)
    return _HEAD.size + 4 * fields + _step(width, fields) * count, width, fields, count


def _small_reader(fields: int) -> Callable[[bytes, int], tuple[int, ...]]:
    table = _SMALL[fields]

    def read(buffer: bytes, at: int) -> tuple[int, ...]:
        return table[buffer[at]]

    return read


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
            struct.Struct(f"<{fields}{_CODES[width]}").unpack_from
            if width
            else _small_reader(fields),
        )
        _READERS[(width, fields)] = found  # at most 4 widths per number of fields
    return found


class EntryFeatures(bytes):
    """The keyword features of one entry version, packed into one `bytes` object.

    Each term of the entry comes with its *shape*: the term's count in each field (in the
    order of `FIELDS`), then the entry's number of terms per field. An entry's features are
    one flat object holding no references (about 40% of a tuple of shared strings and
    shapes, and the strings unique to one entry, numbers above all, cost their characters
    only): a header, the field lengths and each term's counts per field as unsigned ints of
    the narrowest width that holds them (two bits per field, one byte per term, when every
    count is at most 3: most entries), then the terms in UTF-8, each between two zero
    bytes. Shapes are rebuilt from the counts and the lengths when read, shared between
    entries (`shared`).

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
        fields = len(lengths)
        if top <= _SMALL_TOP and fields == 3:  # an entry's key, description and value
            width = 0
            run = iter(counts)
            packed = _THREE_LENGTHS.pack(*lengths) + bytes(
                k | d << 2 | v << 4 for k, d, v in zip(run, run, run, strict=True)
            )
        elif top <= _SMALL_TOP and 0 < fields <= _SMALL_FIELDS:
            width = 0
            packed = struct.pack(f"<{fields}{_LENGTH_CODE}", *lengths) + bytes(
                sum(c << 2 * f for f, c in enumerate(counts[at : at + fields]))
                for at in range(0, len(counts), fields)
            )
        else:
            width, code = (1, "B") if top <= 0xFF else (2, "H") if top <= 0xFFFF else (4, "I")
            packed = struct.pack(f"<{fields}{_LENGTH_CODE}{len(counts)}{code}", *lengths, *counts)
        head = _HEAD.pack(width, fields, len(terms))
        return super().__new__(
            cls,
            b"".join(
                (
                    head,
                    packed,
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
        fields = _HEAD.unpack_from(self)[1]
        return shared(_struct(_LENGTH_CODE, fields, _HEAD.size).unpack_from(self))

    @property
    def terms(self) -> tuple[str, ...]:
        """Every term of the entry, once each (key first, then description, then value)."""
        start, _, _, count = _layout(self)
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
        width, fields, count = _HEAD.unpack_from(self)
        lengths = _readers(width, fields)[0](self, _HEAD.size)
        flat = self._counts(width, fields, count)
        known, share = _SHAPES.get, shared
        runs = zip(*(flat[f::fields] for f in range(fields)), strict=True)
        return tuple([known(s) or share(s) for s in map(tuple.__add__, runs, repeat(lengths))])

    def _counts(self, width: int, fields: int, count: int) -> tuple[int, ...]:
        """Every term's counts per field, flat (`fields` per term, in the order of `terms`)."""
        at = _HEAD.size + 4 * fields
        if not width:
            table = _SMALL[fields]
            return tuple(chain.from_iterable(map(table.__getitem__, self[at : at + count])))
        return _struct(_CODES[width], fields * count, at).unpack_from(self)

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
        start, width, fields, _ = _layout(self)
        found = self.find(needle, start)
        if found < 0:
            return None
        place = self.count(_SEP, start, found)  # the term's index among the terms
        lengths, counts = _readers(width, fields)
        at = _HEAD.size + 4 * fields + _step(width, fields) * place
        return shared(counts(self, at) + lengths(self, _HEAD.size))

    def holding(self, needles: Iterable[tuple[str, bytes]]) -> list[tuple[str, _Shape]]:
        """The terms among `needles` (term, `needle`) this entry holds, with their shapes."""
        start = _layout(self)[0]
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
    start, width, fields, _ = _layout(features)
    found = features.find(spelled, start)
    if found < 0:
        return b""
    step = _step(width, fields)
    at = _HEAD.size + 4 * fields + step * features.count(_SEP, start, found)
    return features[_HEAD.size : _HEAD.size + 4 * fields] + features[at : at + step]


def postings_by_shape(
    features: Iterable[tuple[str, EntryFeatures]], wanted: Iterable[str]
) -> dict[str, tuple[list[str], dict[_Shape, list[str]]]]:
    """For each term of `wanted`: the keys holding it, and those keys by the term's shape.

    One pass over `(key, features)` pairs, in their order (both lists keep it). The terms
    are found and grouped in the packed form (the lengths and the term's counts as bytes),
    and each distinct packed shape is read once. A term no entry holds is absent.
    """
    keys: dict[str, list[str]] = {}
    raw: dict[str, dict[bytes, list[str]]] = {}
    # Per term: its spelling, then the lists it fills (no look-up by term per entry).
    asked = [
        (_SEP + term.encode("utf-8") + _SEP, keys.setdefault(term, []), raw.setdefault(term, {}))
        for term in wanted
    ]
    shape_of: dict[bytes, _Shape] = {}
    head = _HEAD.unpack_from
    size = _HEAD.size
    for key, packed in features:
        width, fields, count = head(packed)
        lengths_end = size + 4 * fields
        step = width * fields if width else 1  # `_step`, inline
        start = lengths_end + step * count  # `_layout`, inline
        for spelled, holders, groups in asked:
            found = packed.find(spelled, start)
            if found < 0:
                continue
            holders.append(key)
            at = lengths_end + step * packed.count(_SEP, start, found)
            code = packed[size:lengths_end] + packed[at : at + step]
            group = groups.get(code)
            if group is not None:
                group.append(key)
                continue
            groups[code] = [key]
            if code not in shape_of:
                counts = _readers(width, fields)[1](packed, at)
                lengths = _struct(_LENGTH_CODE, fields, _HEAD.size).unpack_from(packed)
                shape_of[code] = shared((*counts, *lengths))
    return {
        term: (held, by_shape(raw[term], shape_of.__getitem__, held))
        for term, held in keys.items()
        if held
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
