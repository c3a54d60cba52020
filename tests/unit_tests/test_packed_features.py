"""Keyword features packed into one `bytes` object per entry (`EntryFeatures`).

The packed form must give back exactly the terms, shapes and lengths it was built from
(whatever the words and however large the counts), find a term only among the terms (never
in the packed numbers before them), and score exactly as the plain per-field counts say:
BM25F over the packed features, from scratch and through a scope's keyword index, must
equal a reference computed from `Counter`s of each field's terms on random entries.
"""

from __future__ import annotations

import math
import pickle
import random
from collections import Counter
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import (
    BM25Params,
    average_length,
    bm25f_parts,
    corpus_size,
)
from langchain_contextchef.selectors._index import KeywordIndex
from langchain_contextchef.selectors._packed import (
    EntryFeatures,
    needle,
    packed_shape,
    postings_by_shape,
    read_lengths,
)
from langchain_contextchef.selectors._text_features import FeatureCache, features_of, terms
from tests.support.entries import T0

word = st.text(alphabet=st.characters(categories=("Ll", "Lu", "Nd", "Lo")), min_size=1, max_size=12)
count = st.one_of(st.integers(0, 300), st.integers(0, 70_000), st.integers(0, 2**32 - 1))
small = st.integers(0, 3)  # every count of an entry at most 3: two bits per field


@st.composite
def packed_inputs(
    draw: st.DrawFn,
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    found = tuple(dict.fromkeys(draw(st.lists(word, max_size=20))))
    lengths = tuple(draw(st.lists(count, min_size=3, max_size=3)))
    counts = draw(st.sampled_from((small, count)))
    shapes = tuple((*draw(st.lists(counts, min_size=3, max_size=3)), *lengths) for _ in found)
    return found, shapes, lengths


@settings(max_examples=300, deadline=None)
@given(packed_inputs(), st.lists(word, max_size=5))
def test_the_packed_form_gives_back_what_it_was_built_from(
    made: tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[int, ...]],
    others: list[str],
) -> None:
    found, shapes, lengths = made
    features = EntryFeatures(found, shapes, lengths)
    assert features.terms == found
    assert features.shapes == shapes
    assert features.lengths == lengths
    assert read_lengths(3)(features) == lengths
    assert EntryFeatures(features.terms, features.shapes, features.lengths) == features
    restored = pickle.loads(pickle.dumps(features))
    assert type(restored) is EntryFeatures and restored == features
    for term, shape in zip(found, shapes, strict=True):
        assert features.shape(term) == shape
        assert features.shape_at(needle(term)) == shape
    absent = [t for t in others if t not in found]
    for term in absent:
        assert features.shape(term) is None
        assert packed_shape(features, needle(term)) == b""
    asked = [(t, needle(t)) for t in [*absent, *found[:3]]]
    assert features.holding(asked) == [(t, features.shape(t)) for t in found[:3]]
    # Equal packed shapes of one term are equal shapes, and different shapes differ.
    for term in found:
        again = EntryFeatures(found, shapes, lengths)
        assert packed_shape(again, needle(term)) == packed_shape(features, needle(term))


def test_a_term_is_never_found_in_the_packed_numbers() -> None:
    # Counts 97, 98 (the bytes of "ab") between zero bytes, right before the terms.
    lengths = (0, 200, 200)
    features = EntryFeatures(("zz", "yy"), ((0, 97, 98, *lengths), (0, 0, 1, *lengths)), lengths)
    assert bytes(features).find(needle("ab")) >= 0  # the bytes are there, among the numbers
    assert features.shape("ab") is None
    assert features.holding([("ab", needle("ab"))]) == []
    assert packed_shape(features, needle("ab")) == b""


@pytest.mark.parametrize(
    ("found", "shapes", "lengths"),
    [
        (("a",), (), (1, 0, 0)),  # a term without a shape
        (("a",), ((1, 0, 0, 9, 0, 0),), (1, 0, 0)),  # a shape that does not end with lengths
        (("a", "a"), ((1, 0, 0, 2, 0, 0),) * 2, (2, 0, 0)),  # a repeated term
        (("",), ((1, 0, 0, 1, 0, 0),), (1, 0, 0)),  # an empty term
        (("a\x00b",), ((1, 0, 0, 1, 0, 0),), (1, 0, 0)),  # a zero character
        (("a",), ((-1, 0, 0, 1, 0, 0),), (1, 0, 0)),  # a negative count
        (("a",), ((2**32, 0, 0, 1, 0, 0),), (1, 0, 0)),  # beyond 32 bits
    ],
)
def test_malformed_features_are_refused(
    found: tuple[str, ...], shapes: tuple[tuple[int, ...], ...], lengths: tuple[int, ...]
) -> None:
    with pytest.raises(ValueError, match="(?i)term|shape|count"):
        EntryFeatures(found, shapes, lengths)


VOCABULARY = [
    "cat",
    "cats",
    "garden",
    "gardening",
    "dentist",
    "tea",
    "12",
    "2024",
    "x9",
    "été",
    "naïve",
    "straße",
    "東京",
    "pull",
    "request",
    "test",
    "tests",
    "parser",
    "date",
    "release",
    "notes",
]


def _random_entry(rng: random.Random, number: int) -> MemoryEntry:
    def phrase(most: int) -> str:
        return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(0, most)))

    at = T0 + timedelta(seconds=rng.randint(0, 50))
    return MemoryEntry(
        key=f"{rng.choice(VOCABULARY)}_{number}",
        value=phrase(30) or "x",
        description=phrase(6) or None,
        created_at=at,
        updated_at=at,
    )


def _reference(
    entries: list[MemoryEntry], weights: dict[str, float], params: BM25Params
) -> dict[str, float]:
    """BM25F from `Counter`s of each field's terms: what the packed features must say."""
    fields = [
        [
            Counter(terms(e.key.replace("_", " "))),
            Counter(terms(e.description or "")),
            Counter(terms(e.value)),
        ]
        for e in entries
    ]
    total = len(entries)
    # BM25's corpus statistics on their documented grid (`_bm25.corpus_size`, `average_length`).
    averages = [average_length(sum(sum(f[i].values()) for f in fields), total) for i in range(3)]
    scores: dict[str, float] = {}
    for entry, counts in zip(entries, fields, strict=True):
        norms = [
            1.0 - params.b + params.b * sum(counts[i].values()) / averages[i] for i in range(3)
        ]
        score = 0.0
        for term, weight in weights.items():
            df = sum(1 for f in fields if any(term in c for c in f))
            if not any(term in c for c in counts):
                continue
            idf = math.log(1.0 + (corpus_size(total) - df + 0.5) / (df + 0.5))
            tf = sum(
                params.field_weights[i] * counts[i][term] / norms[i]
                for i in range(3)
                if counts[i][term]
            )
            score += weight * idf * tf / (params.k1 + tf)
        if score > 0:
            scores[entry.key] = score
    return scores


@pytest.mark.parametrize("seed", range(12))
def test_packed_features_score_as_the_plain_counts_say(seed: int) -> None:
    rng = random.Random(seed)
    entries = [_random_entry(rng, n) for n in range(rng.randint(1, 60))]
    params = BM25Params()
    query = " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(1, 4)))
    weights = dict.fromkeys(terms(query), 1.0)
    expected = _reference(entries, weights, params)
    for entry in entries:
        features = features_of(entry)
        # The tokeniser packs without the checks; the checked constructor packs the same.
        assert EntryFeatures(features.terms, features.shapes, features.lengths) == features
        for term in features.terms:
            shape = features.shape(term)
            assert shape is not None and shape[3:] == features.lengths
    ((by_index, _),) = bm25f_parts([features_of(e) for e in entries], [weights], params)
    scratch = {entries[i].key: s for i, s in by_index.items()}
    assert scratch.keys() == expected.keys()
    for key, value in expected.items():
        assert scratch[key] == pytest.approx(value, rel=1e-12)
    index = KeywordIndex(FeatureCache())
    index.rebuild(entries, None)
    ((indexed, _),) = index.score([weights], params)
    assert indexed.keys() == expected.keys()
    for key, value in expected.items():
        assert indexed[key] == pytest.approx(value, rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(packed_inputs(), max_size=12), st.lists(word, max_size=4))
def test_postings_by_shape_are_the_terms_shapes_read_one_by_one(
    made: list[tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]],
    asked: list[str],
) -> None:
    pairs = [(f"k{n}", EntryFeatures(*parts)) for n, parts in enumerate(made)]
    wanted = [*asked, *(t for _, f in pairs[:2] for t in f.terms[:2])]
    expected: dict[str, tuple[list[str], dict[tuple[int, ...], list[str]]]] = {}
    for key, features in pairs:
        for term in dict.fromkeys(wanted):
            shape = features.shape(term)
            if shape is not None:
                keys, groups = expected.setdefault(term, ([], {}))
                keys.append(key)
                groups.setdefault(shape, []).append(key)
    assert postings_by_shape(pairs, dict.fromkeys(wanted)) == expected


def test_equal_shapes_packed_in_two_widths_are_one_group() -> None:
    # "pet" has the same counts and lengths in both entries; "b" has a count of 300 (an
    # impossible count for real text, fine for the packed form) in the first, so its counts
    # are packed two bytes wide and its packed "pet" differs from the second entry's.
    lengths = (1, 0, 300)
    wide = EntryFeatures(("pet", "b"), ((1, 0, 0, *lengths), (0, 0, 300, *lengths)), lengths)
    narrow = EntryFeatures(("pet", "c"), ((1, 0, 0, *lengths), (0, 0, 3, *lengths)), lengths)
    spelled = needle("pet")
    assert packed_shape(wide, spelled) != packed_shape(narrow, spelled)
    pairs = [("k0", narrow), ("k1", wide), ("k2", narrow)]
    shape = (1, 0, 0, *lengths)
    assert postings_by_shape(pairs, ["pet"]) == {
        "pet": (["k0", "k1", "k2"], {shape: ["k0", "k1", "k2"]})
    }


def test_one_shape_packed_in_every_width_is_one_group() -> None:
    # Counts of at most 3 take two bits per field; a count of 4 or 300 elsewhere in an
    # entry packs its counts one or two bytes wide. "pet" has one shape in all three.
    lengths = (1, 0, 300)
    shape = (1, 0, 2, *lengths)
    made = {
        top: EntryFeatures(("pet", "b"), (shape, (0, 0, top, *lengths)), lengths)
        for top in (3, 4, 300)
    }
    codes = {packed_shape(features, needle("pet")) for features in made.values()}
    assert len(codes) == 3
    assert len(made[3]) < len(made[4]) < len(made[300])
    pairs = [("k0", made[300]), ("k1", made[3]), ("k2", made[4]), ("k3", made[3])]
    assert postings_by_shape(pairs, ["pet"]) == {
        "pet": (["k0", "k1", "k2", "k3"], {shape: ["k0", "k1", "k2", "k3"]})
    }


@pytest.mark.parametrize("fields", [1, 2, 4, 5])
@pytest.mark.parametrize("top", [0, 1, 3, 4])
def test_any_number_of_fields_packs_and_reads_back(fields: int, top: int) -> None:
    # Two bits per field up to four fields; five fields or a count above 3 take bytes.
    found = ("a", "bb", "ccc")
    rows = [tuple((n + f) % (top + 1) for f in range(fields)) for n in range(len(found))]
    lengths = tuple(sum(row[f] for row in rows) for f in range(fields))
    shapes = tuple((*row, *lengths) for row in rows)
    features = EntryFeatures(found, shapes, lengths)
    assert features.shapes == shapes and features.lengths == lengths
    for term, shape in zip(found, shapes, strict=True):
        assert features.shape_at(needle(term)) == shape
    for term, (keys, groups) in postings_by_shape([("k", features)], found).items():
        assert keys == ["k"] and groups == {features.shape(term): ["k"]}


def test_decoded_shapes_stay_right_when_the_memo_fills() -> None:
    # More entries than the memo of decoded shapes holds: each read must still give each
    # entry's own shapes, before and after the memo empties itself.
    rng = random.Random(3)
    made = []
    for n in range(1_300):
        lengths = (1, 0, rng.randint(1, 400))
        shape = (1, 0, lengths[2], *lengths)
        made.append(
            (EntryFeatures((f"t{n}", "common"), (shape, (0, 0, 0, *lengths)), lengths), shape)
        )
    for _ in range(2):
        for n, (features, shape) in enumerate(made):
            assert features.shape(f"t{n}") == shape
            assert features.decoded() == {f"t{n}": shape, "common": (0, 0, 0, *shape[3:])}
            assert features.vocabulary == {f"t{n}", "common"}
            assert features.field_terms(2) == (f"t{n}",)
