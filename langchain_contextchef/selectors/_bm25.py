"""BM25F over an entry's key, description and value, for a weighted query.

Okapi BM25 with per-field weights and length normalisation (BM25F): a term's count in each
field is scaled by the field's weight and by how long that field is against the average, the
sum is saturated with `k1`, and rare terms (inverse document frequency over the entries being
ranked) count more than common ones. Query terms carry weights (the last user message counts
more than the turns before it).

The corpus statistics (the number of entries and each field's average length) are rounded
onto a coarse grid (`corpus_size`, `average_length`: six significant bits, exact below 128
entries), so that one write which holds no query word almost never moves any other entry's
score: the scores stay a function of the stored entries alone, and a ranking kept from before
the write can be reused as it stands (`selectors._ranking`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from langchain_contextchef.selectors._packed import EntryFeatures, needle
from langchain_contextchef.selectors._text_features import terms

__all__ = ["BM25Params", "average_length", "bm25f", "bm25f_parts", "corpus_size", "query_terms"]


@dataclass(frozen=True)
class BM25Params:
    """BM25F constants.

    Attributes:
        k1: Term-frequency saturation (higher: repeated words keep adding).
        b: Length normalisation, 0 (none) to 1 (full).
        field_weights: Weight of a match in the key, the description and the value.
    """

    k1: float = 1.2
    b: float = 0.75
    field_weights: tuple[float, float, float] = (2.0, 1.5, 1.0)


_SIGNIFICANT = 64
"""Corpus statistics keep this many steps per power of two (six significant bits)."""


def corpus_size(total: int) -> int:
    """The entry count BM25's inverse document frequency uses: `total` rounded up to the grid.

    Exact below `2 * _SIGNIFICANT` entries; above, the next multiple of a power of two that
    keeps six significant bits (10,000 -> 10,112), so one more or one fewer entry rarely
    changes it. Rounding up keeps it at least every term's document frequency (every
    inverse document frequency stays positive).

    Example:
        ```python
        from langchain_contextchef.selectors._bm25 import corpus_size

        assert corpus_size(100) == 100
        assert corpus_size(10_000) == corpus_size(10_050) == 10_112
        ```
    """
    # The least power of two `step` with `total <= 2 * _SIGNIFICANT * step`.
    step = 1 << ((total - 1) // (2 * _SIGNIFICANT)).bit_length() if total > 0 else 1
    return -(-total // step) * step


def average_length(length_sum: int, total: int) -> float:
    """A field's average length for BM25's normalisation, rounded to six significant bits.

    Example:
        ```python
        from langchain_contextchef.selectors._bm25 import average_length

        assert average_length(30_000, 10_000) == average_length(30_001, 10_001) == 3.0
        ```
    """
    exact = max(length_sum / total, 1e-9)
    mantissa, exponent = math.frexp(exact)  # exact == mantissa * 2**exponent, 0.5 <= m < 1
    return math.ldexp(round(mantissa * 2 * _SIGNIFICANT) / (2 * _SIGNIFICANT), exponent)


def query_terms(queries: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Stemmed query terms with their weights, from `(text, weight)` parts.

    A term's weight is the sum of the weights of the parts it appears in (once per part), so a
    word repeated across the last turns counts more than one said once long ago. Terms come
    in the order they first appear, the same in every process.

    Example:
        ```python
        from langchain_contextchef.selectors._bm25 import query_terms

        weights = query_terms([("my allergies", 1.0), ("allergy clinic", 0.5)])
        assert weights == {"allergi": 1.5, "clinic": 0.5}
        ```
    """
    out: dict[str, float] = {}
    for text, weight in queries:
        if weight <= 0:
            continue
        # Each term once, in the order it first appears (never a set's order): scores are
        # summed in this order, and a float sum's last bit can break a tie, so a set's
        # order (it follows PYTHONHASHSEED) would rank tied entries differently per process.
        for term in dict.fromkeys(terms(text)):
            out[term] = out.get(term, 0.0) + weight
    return out


def bm25f(
    features: Sequence[EntryFeatures],
    weights: Mapping[str, float],
    params: BM25Params = BM25Params(),
) -> tuple[dict[int, float], float]:
    """Score entries against weighted query terms (one part; see `bm25f_parts`).

    Returns:
        Index -> score for every candidate with at least one query term, and the highest
        score any entry could reach for this query (every term saturated), to normalise by.
    """
    (result,) = bm25f_parts(features, [weights], params)
    return result


def bm25f_parts(
    features: Sequence[EntryFeatures],
    parts: Sequence[Mapping[str, float]],
    params: BM25Params = BM25Params(),
) -> list[tuple[dict[int, float], float]]:
    """Score entries against several weighted queries at once, each on its own.

    One pass over the entries finds which hold any term of any part (document frequencies
    and average lengths are shared); each part is then scored only on the entries it matches.

    Args:
        features: One `EntryFeatures` per candidate.
        parts: Query term -> weight, per part (see `query_terms`).
        params: The BM25F constants.

    Returns:
        Per part: index -> score for every candidate with at least one of its terms, and the
        highest score any entry could reach for that part (every term saturated).
    """
    wanted = frozenset().union(*parts) if parts else frozenset()
    if not wanted or not features:
        return [({}, 0.0) for _ in parts]
    total = len(features)
    n_fields = len(params.field_weights)
    length_sums = [0] * n_fields
    frequency: dict[str, int] = dict.fromkeys(wanted, 0)
    matched: list[tuple[int, list[tuple[str, tuple[int, ...]]]]] = []
    needles = [(term, needle(term)) for term in wanted]
    for index, entry in enumerate(features):
        lengths = entry.lengths
        for f in range(n_fields):
            length_sums[f] += lengths[f]
        # Most entries share no term with the query: tested in the packed form, nothing built.
        found = entry.holding(needles)
        if not found:
            continue
        matched.append((index, found))
        for term, _ in found:
            frequency[term] += 1
    if not matched:
        return [({}, 0.0) for _ in parts]
    averages = [average_length(s, total) for s in length_sums]
    size = corpus_size(total)
    idf = {t: math.log(1.0 + (size - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
    k1, b, field_weights = params.k1, params.b, params.field_weights
    # Each matched entry's saturated term strength, computed once for every part.
    strengths: list[tuple[int, dict[str, float]]] = []
    for index, found in matched:
        entry = features[index]
        norms = [1.0 - b + b * entry.lengths[f] / averages[f] for f in range(n_fields)]
        strength: dict[str, float] = {}
        for term, shape in found:
            tf = 0.0
            for f in range(n_fields):
                count = shape[f]
                if count:
                    tf += field_weights[f] * count / norms[f]
            strength[term] = idf[term] * tf / (k1 + tf)
        strengths.append((index, strength))
    out: list[tuple[dict[int, float], float]] = []
    for weights in parts:
        scores: dict[int, float] = {}
        for index, strength in strengths:
            # In the order of the query's terms, as the scope's index adds them (the same sum).
            score = 0.0
            for t, w in weights.items():
                v = strength.get(t)
                if v is not None:
                    score += w * v
            if score > 0:
                scores[index] = score
        out.append((scores, sum(weights[t] * idf[t] for t in weights)))
    return out
