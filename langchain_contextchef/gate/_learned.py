"""The gate's learned injection detector: hashed n-grams into a small model, no dependency.

A text becomes a set of hashed features (CRC-32 of each feature string, modulo a power of
two): its word unigrams and bigrams, character 2- to 5-grams inside each word (with the word
boundaries marked), and runs of punctuation, all on the lower-cased folded view with every
digit read as `0` and every run of more than four digits read as `0000`. The shipped model is
one of three kinds, named in its metadata: a linear model (the logistic function of the bias
plus the summed weights of the features present, divided by the square root of their number: a
binary bag of features, L2-normalised), a network with one hidden layer of rectified units over
the same bag (each feature has one int8 weight per hidden unit; the score is the logistic
function of a weighted sum of the rectified units), or both, combined (each scores the same
features; a rule named in the metadata joins the two scores). The weights are a data file in
the package (`_data/injection_model.bin`, described by `_data/injection_model.json`), written by
`scripts/train_injection_detector.py` from the training data committed under `data/gate/`;
training needs scikit-learn and numpy, scoring needs nothing but the standard library.

Scoring is cheap on long texts because the features of each word are computed once and kept
in a bounded cache: a 4,000-character value costs one set union per word and one sum. A
network's row is packed into one Python int (one 32-bit lane per hidden unit, each weight
stored as `w + 128`), so one big-int addition per feature adds every hidden unit at once, and
only the rows a text uses are decoded.
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

__all__ = [
    "COMBINATION_RULES",
    "FEATURE_BITS",
    "AnyModel",
    "CombinedModel",
    "Model",
    "NetworkModel",
    "default_threshold",
    "feature_ids",
    "load_model",
    "model_from",
    "score",
]

FEATURE_BITS = 18
"""log2 of the number of hashed feature buckets; the weights file has this many entries."""

_MASK = (1 << FEATURE_BITS) - 1
_TOKEN = re.compile(r"\w+|[^\w\s]+")
_DIGIT = re.compile(r"\d")
_LONG_RUN = re.compile(r"0{5,}")  # after every digit became 0: a run of more than four digits
_RUN_CAP = "0000"
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
    # Every digit reads as 0 and a run of more than four reads as four: an order number, a
    # timestamp or a phone number of a length no training row had hashes to the features of
    # numbers seen in training, not to buckets no row ever set.
    return _LONG_RUN.sub(_RUN_CAP, _DIGIT.sub("0", text.lower()))


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


_LANE_BITS = 32
"""Width of one lane of a packed hidden vector: a sum of up to 2**24 biased int8 values fits."""
_LANE_BIAS = 128  # an int8 weight w is stored in its lane as w + 128, never negative
_LANE_MASK = (1 << _LANE_BITS) - 1
_MAX_FEATURES = 1 << (_LANE_BITS - 8)  # more features could overflow a lane (never reached)
_ROW_CACHE_LIMIT = 100_000  # decoded rows kept at most (about 10 MB with 16 hidden units)
_ADVICE = "reinstall langchain-contextchef or rerun scripts/train_injection_detector.py."


class _PackedRows(dict[int, int]):
    """Feature bucket -> its hidden-layer row packed into one int, decoded when first asked.

    Lane `h` of the int (bits `32*h` to `32*h+31`) holds the int8 weight of hidden unit `h`
    plus 128, so adding the ints of several features adds every lane at once (no lane can
    carry into the next below 2**24 features). Only the rows a text uses are ever decoded.
    """

    def __init__(self, raw: bytes, hidden: int) -> None:
        super().__init__()
        self._raw = raw
        self._hidden = hidden

    def __missing__(self, bucket: int) -> int:
        start = bucket * self._hidden
        row = self._raw[start : start + self._hidden]
        packed = 0
        for byte in reversed(row):  # int8 two's complement: byte ^ 128 == weight + 128
            packed = (packed << _LANE_BITS) | (byte ^ 0x80)
        if len(self) >= _ROW_CACHE_LIMIT:
            self.clear()
        self[bucket] = packed
        return packed


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

    def margin(self, text: str) -> float:
        """The log-odds that `text` is an injection attempt (see `score`)."""
        return self.margin_of(feature_ids(text))

    def margin_of(self, ids: set[int]) -> float:
        """The log-odds for a text whose hashed features are `ids` (see `feature_ids`)."""
        if not ids:
            return self.bias
        return self.bias + sum(map(self.weights.__getitem__, ids)) / math.sqrt(len(ids))

    def score(self, text: str) -> float:
        """The probability that `text` is an injection attempt, from 0 to 1."""
        return _logistic(self.margin(text))


@dataclass(frozen=True)
class NetworkModel:
    """A network with one hidden layer of rectified units over the bag of hashed features.

    The hidden pre-activation of unit `h` is `hidden_bias[h]` plus `lane_scales[h]` times the
    sum of the int8 weights of the features present, divided by the square root of their
    number (a binary bag, L2-normalised); the score is the logistic function of `output_bias`
    plus the rectified hidden units weighted by `output_weights`.

    Attributes:
        rows: Per feature bucket, its int8 hidden-layer weights packed into one int.
        hidden: The number of hidden units.
        lane_scales: Per hidden unit, the scale of its int8 weights.
        hidden_bias: Per hidden unit, its bias.
        output_weights: Per hidden unit, its weight in the output.
        output_bias: The output's intercept.
        threshold: The default decision threshold on the probability.
        version: A short name of the trained model, shown in findings.
    """

    rows: dict[int, int]
    hidden: int
    lane_scales: tuple[float, ...]
    hidden_bias: tuple[float, ...]
    output_weights: tuple[float, ...]
    output_bias: float
    threshold: float
    version: str

    def margin(self, text: str) -> float:
        """The log-odds that `text` is an injection attempt (see `score`)."""
        return self.margin_of(feature_ids(text))

    def margin_of(self, ids: set[int]) -> float:
        """The log-odds for a text whose hashed features are `ids` (see `feature_ids`)."""
        count = len(ids)
        if count >= _MAX_FEATURES:  # pragma: no cover - a text this long is refused by size
            msg = "The gate's injection model cannot score more than 2**24 features at once."
            raise ValueError(msg)
        packed = sum(map(self.rows.__getitem__, ids))
        norm = 1.0 / math.sqrt(count) if count else 0.0
        offset = _LANE_BIAS * count
        margin = self.output_bias
        for scale, bias, weight in zip(
            self.lane_scales, self.hidden_bias, self.output_weights, strict=True
        ):
            unit = bias + scale * norm * ((packed & _LANE_MASK) - offset)
            if unit > 0.0:
                margin += weight * unit
            packed >>= _LANE_BITS
        return margin

    def score(self, text: str) -> float:
        """The probability that `text` is an injection attempt, from 0 to 1."""
        return _logistic(self.margin(text))


COMBINATION_RULES = ("mean_probability", "mean_margin", "min_probability")
"""How a combined model joins its two scores: the mean of the probabilities, the logistic of
the mean of the log-odds, or the lower probability (both parts must agree)."""


@dataclass(frozen=True)
class CombinedModel:
    """The linear model and the network over the same features, their scores joined by a rule.

    The features of a text are computed once and both parts score them; `rule` (one of
    `COMBINATION_RULES`) joins the two probabilities into one.

    Attributes:
        linear: The linear part.
        network: The network part.
        rule: How the two scores are joined.
        threshold: The default decision threshold on the joined probability.
        version: A short name of the trained model, shown in findings.
    """

    linear: Model
    network: NetworkModel
    rule: str
    threshold: float
    version: str

    def score(self, text: str) -> float:
        """The probability that `text` is an injection attempt, from 0 to 1."""
        ids = feature_ids(text)
        first = self.linear.margin_of(ids)
        second = self.network.margin_of(ids)
        if self.rule == "mean_margin":
            return _logistic((first + second) / 2.0)
        if self.rule == "min_probability":
            return _logistic(min(first, second))
        return (_logistic(first) + _logistic(second)) / 2.0

    def margin(self, text: str) -> float:
        """The log-odds of `score` (clipped to +-40 where the probability is 0 or 1)."""
        probability = self.score(text)
        if probability <= 0.0:
            return -40.0
        if probability >= 1.0:
            return 40.0
        return math.log(probability / (1.0 - probability))


AnyModel = Model | NetworkModel | CombinedModel
"""Any kind of model the metadata can name."""


def _logistic(margin: float) -> float:
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


def _floats(meta: dict[str, object], key: str, size: int) -> tuple[float, ...]:
    values = meta[key]
    if not isinstance(values, list) or len(values) != size:
        msg = f"The gate's injection model metadata lacks {size} values of {key!r}; {_ADVICE}"
        raise RuntimeError(msg)
    return tuple(float(v) for v in values)


def _mismatch() -> RuntimeError:
    return RuntimeError(
        f"The gate's injection model does not match this code's features; {_ADVICE}"
    )


def _part(meta: dict[str, object], key: str) -> dict[str, object]:
    part = meta.get(key)
    if not isinstance(part, dict):
        msg = f"The gate's combined injection model metadata lacks its {key!r} part; {_ADVICE}"
        raise RuntimeError(msg)
    return part


def _linear(raw: bytes, meta: dict[str, object], threshold: float, version: str) -> Model:
    weights = array("h")
    weights.frombytes(raw)
    if sys.byteorder != "little":  # the file is little-endian int16
        weights.byteswap()
    if len(weights) != 1 << FEATURE_BITS:
        raise _mismatch()
    scale = float(str(meta["scale"]))
    floats = array("f", (w * scale for w in weights))
    return Model(floats, float(str(meta["bias"])), threshold, version)


def _network(raw: bytes, meta: dict[str, object], threshold: float, version: str) -> NetworkModel:
    hidden = int(str(meta["hidden"]))
    if len(raw) != hidden << FEATURE_BITS:
        raise _mismatch()
    return NetworkModel(
        rows=_PackedRows(raw, hidden),
        hidden=hidden,
        lane_scales=_floats(meta, "lane_scales", hidden),
        hidden_bias=_floats(meta, "hidden_bias", hidden),
        output_weights=_floats(meta, "output_weights", hidden),
        output_bias=float(str(meta["output_bias"])),
        threshold=threshold,
        version=version,
    )


def model_from(raw: bytes, meta: dict[str, object]) -> AnyModel:
    """The model that weights `raw` and metadata `meta` describe (the files' format).

    Args:
        raw: The bytes of `injection_model.bin`.
        meta: The decoded `injection_model.json`.

    Returns:
        A linear model (kind `linear`: one little-endian int16 weight per feature bucket and
        one scale), a network (kind `network`: one row of `hidden` int8 weights per bucket)
        or both (kind `combined`: the linear weights, then the network's rows, each part's
        parameters under `linear` and `network`, joined by `rule`).

    Raises:
        RuntimeError: When the files do not match this code's features or each other.
    """
    if meta["feature_bits"] != FEATURE_BITS or meta.get("digit_runs") != _RUN_CAP:
        raise _mismatch()
    threshold = float(str(meta["threshold"]))
    version = str(meta["version"])
    kind = meta.get("kind", "linear")
    if kind == "network":
        return _network(raw, meta, threshold, version)
    if kind == "combined":
        rule = meta.get("rule")
        if rule not in COMBINATION_RULES:
            msg = f"The gate's injection model names an unknown combination rule; {_ADVICE}"
            raise RuntimeError(msg)
        size = 2 << FEATURE_BITS  # the int16 linear weights come first
        return CombinedModel(
            linear=_linear(raw[:size], _part(meta, "linear"), threshold, version),
            network=_network(raw[size:], _part(meta, "network"), threshold, version),
            rule=str(rule),
            threshold=threshold,
            version=version,
        )
    return _linear(raw, meta, threshold, version)


@functools.cache
def load_model() -> AnyModel:
    """The shipped model, read once from the package data (see `model_from`).

    Returns:
        The model in `_data/injection_model.bin` and `_data/injection_model.json`.
    """
    return model_from((_data() / "injection_model.bin").read_bytes(), _meta())


def score(text: str) -> float:
    """Score one text with the shipped model (see `Model.score`).

    Args:
        text: The text to judge, ideally the folded view.

    Returns:
        The probability that it is an injection attempt.
    """
    return load_model().score(text)
