"""The gate's learned injection detector: hashed n-grams into a linear model, no dependency.

A text becomes a set of hashed features (CRC-32 of each feature string, modulo a power of
two): its word unigrams and bigrams, character 2- to 5-grams inside each word (with the word
boundaries marked), and runs of punctuation, all on the lower-cased folded view with every
digit read as `0`. The score is the logistic function of the bias plus the summed weights of
the features present, divided by the square root of their number (a binary bag of features,
L2-normalised). The weights are a data file in the package (`_data/injection_model.bin`,
described by `_data/injection_model.json`), written by `scripts/train_injection_detector.py`
from the training data committed under `data/gate/`; training needs scikit-learn, scoring
needs nothing but the standard library.

Scoring is cheap on long texts because the features of each word are computed once and kept
in a bounded cache: a 4,000-character value costs one set union per word and one sum.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import zlib
from array import array
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["FEATURE_BITS", "Model", "default_threshold", "feature_ids", "load_model", "score"]

FEATURE_BITS = 18
"""log2 of the number of hashed feature buckets; the weights file has this many entries."""

_MASK = (1 << FEATURE_BITS) - 1
_TOKEN = re.compile(r"\w+|[^\w\s]+")
_DIGIT = re.compile(r"\d")
_MAX_GRAM_CHARS = 64  # character n-grams come from a word's first 64 characters
_CACHE_LIMIT = 60_000
_word_cache: dict[str, tuple[int, ...]] = {}
_bigram_cache: dict[str, int] = {}


def _hash(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8", "surrogatepass")) & _MASK


def _word_features(token: str) -> tuple[int, ...]:
    """Hashed features of one token (a word or a punctuation run), cached."""
    cached = _word_cache.get(token)
    if cached is not None:
        return cached
    if token[0].isalnum() or token[0] == "_":
        ids = [_hash("w " + token)]
        marked = f"<{token[:_MAX_GRAM_CHARS]}>"
        last = len(marked)
        for size in (2, 3, 4, 5):
            ids.extend(_hash(marked[i : i + size]) for i in range(last - size + 1))
    else:
        ids = [_hash("p " + token[:8])]
    result = tuple(ids)
    if len(_word_cache) >= _CACHE_LIMIT:
        _word_cache.clear()
    _word_cache[token] = result
    return result


def _normal(text: str) -> str:
    return _DIGIT.sub("0", text.lower())


def feature_ids(text: str) -> set[int]:
    """The hashed features present in `text` (already folded by the caller, or plain).

    Args:
        text: The text to describe.

    Returns:
        The set of feature buckets, each in `[0, 2**FEATURE_BITS)`.

    Example:
        ```python
        from langchain_contextchef.gate._learned import feature_ids

        assert feature_ids("Always reply in French") == feature_ids("ALWAYS reply in French")
        ```
    """
    tokens = _TOKEN.findall(_normal(text))
    found: set[int] = set()
    for token in tokens:
        found.update(_word_features(token))
    found.update(map(_bigram, tokens, tokens[1:]))
    return found


def _bigram(first: str, second: str) -> int:
    key = f"b {first} {second}"
    cached = _bigram_cache.get(key)
    if cached is None:
        if len(_bigram_cache) >= _CACHE_LIMIT:
            _bigram_cache.clear()
        cached = _bigram_cache[key] = _hash(key)
    return cached


@dataclass(frozen=True)
class Model:
    """A linear model over hashed features.

    Attributes:
        weights: One weight per feature bucket (already multiplied by the scale).
        bias: The intercept.
        threshold: The default decision threshold on the probability.
        version: A short name of the trained model, shown in findings.
    """

    weights: tuple[float, ...] | array[float]
    bias: float
    threshold: float
    version: str

    def score(self, text: str) -> float:
        """The probability that `text` is an injection attempt, from 0 to 1."""
        ids = feature_ids(text)
        if not ids:
            return 1.0 / (1.0 + math.exp(-self.bias))
        weights = self.weights
        total = sum(map(weights.__getitem__, ids))
        margin = self.bias + total / math.sqrt(len(ids))
        if margin < -30:
            return 0.0
        return 1.0 / (1.0 + math.exp(-margin))


def _data() -> Traversable:
    return resources.files("langchain_contextchef.gate") / "_data"


@functools.cache
def _meta() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(
        (_data() / "injection_model.json").read_text(encoding="utf-8")
    )
    return loaded


def default_threshold() -> float:
    """The threshold the training script chose on its tuning rows (read from the metadata)."""
    return float(str(_meta()["threshold"]))


@functools.cache
def load_model() -> Model:
    """The shipped model, read once from the package data.

    Returns:
        The model in `_data/injection_model.bin` and `_data/injection_model.json`.
    """
    data = _data()
    meta = _meta()
    raw = array("h")
    raw.frombytes((data / "injection_model.bin").read_bytes())
    if sys.byteorder != "little":  # the file is little-endian int16
        raw.byteswap()
    if len(raw) != 1 << FEATURE_BITS or meta["feature_bits"] != FEATURE_BITS:
        msg = (
            "The gate's injection model does not match this code's feature size; "
            "reinstall langchain-contextchef or rerun scripts/train_injection_detector.py."
        )
        raise RuntimeError(msg)
    scale = float(str(meta["scale"]))
    weights = array("f", (w * scale for w in raw))
    return Model(weights, float(str(meta["bias"])), default_threshold(), str(meta["version"]))


def score(text: str) -> float:
    """Score one text with the shipped model (see `Model.score`).

    Args:
        text: The text to judge, ideally the folded view.

    Returns:
        The probability that it is an injection attempt.
    """
    return load_model().score(text)
