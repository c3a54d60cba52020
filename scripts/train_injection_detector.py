"""Train the write gate's learned injection detector and write its weights into the package.

    pip install -e . --group train
    python scripts/train_injection_detector.py          # writes gate/_data/injection_model.*
    python scripts/train_injection_detector.py --report # also prints validation figures

Data (all committed under `data/gate/`, licenses beside it):

- `public/*_train.csv`: the training splits of two public prompt-injection datasets;
- `public/*_validation.csv`: their validation splits, used only to choose the threshold;
- `memory/**/*.jsonl`: memory-style rows written for this project (`text`, `label`, `kind`,
  `lang`): benign facts and standing instructions in many languages, and injections written
  as if saved for later. Each row goes to training or to tuning by a hash of its text (one in
  five tunes), so the split is the same on every machine.

Features are `langchain_contextchef.gate._learned.feature_ids` of the folded text, the very
function the gate scores with. Two kinds of model are trained here (`--model`; `MODEL` is the
shipped one):

- `linear`: an L2-regularised logistic regression (liblinear, pinned seed), its weights stored
  as little-endian int16 with one scale; with `NB_ALPHA` above 0 (shipped: 1) each feature is
  first scaled by its naive-Bayes log-count ratio (NB-SVM), the ratio folded into its weight;
- `network`: one hidden layer of rectified units over the L2-normalised binary bag of features,
  trained with Adagrad on mini-batches in an order drawn from the pinned seed (numpy only,
  single precision); its hidden-layer weights stored as int8, one scale per hidden unit;
- `combined`: both, fitted separately on the same rows, their scores joined by `RULE` (one of
  the package's `COMBINATION_RULES`); the file holds the linear weights, then the network's.

The threshold is the lowest on a fixed grid (steps of 0.01) at which the tuning rows refuse at most 0.5% of
benign memories and at most 3% of the public benign texts. The test splits of the public
datasets and the held-back memory set are not read here.

    python scripts/train_injection_detector.py --dev    # the development protocol, no writing

`--dev` trains on the training rows without one source and scores that source (all rows of
each later memory wave, each written by writers the others never saw; each public dataset's
validation split, its train split left out), then the full training rows on the tuning rows,
and prints the injections caught at 1% and at 3% of benign rows refused and the AUC (see
benchmarks/README.md, issue 24). With `--model combined` each fold fits both parts once and
prints a row for each part and for every combination rule. `--set NAME=VALUE` changes a
numeric setting for the run (`--dev --set C=16`, `--dev --set NB_ALPHA=0` for the plain
regression).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.stats import rankdata
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_contextchef.gate._learned import (  # noqa: E402
    _RUN_CAP,
    COMBINATION_RULES,
    FEATURE_BITS,
    feature_ids,
)
from langchain_contextchef.gate._normalize import fold  # noqa: E402

SEED = 20261201
MODEL = "combined"  # the kind shipped in the package: "linear", "network" or "combined"
C = 4.0
NB_ALPHA = 1.0  # > 0: the linear part's features scaled by NB log-count ratios (NB-SVM style)
HIDDEN = 16
EPOCHS = 4
BATCH = 64
LEARNING_RATE = 0.05
INIT_SCALE = 0.05
# The memory folders each scored by a fold of --dev.
WAVES = ("wave3", "wave4", "wave5", "wave6", "wave7", "wave8")
RULE = "mean_probability"  # how a combined model joins its parts (gate._learned's rules)
MEMORY_BENIGN_WEIGHT = 6.0
MEMORY_INJECTION_WEIGHT = 6.0
THRESHOLDS = tuple(round(0.01 * i, 2) for i in range(20, 100))  # 0.20 to 0.99
MAX_MEMORY_BENIGN_REFUSED = 0.005  # half the goal: a tuning estimate is optimistic
MAX_PUBLIC_BENIGN_REFUSED = 0.03
DATA = ROOT / "data" / "gate"
OUT = ROOT / "langchain_contextchef" / "gate" / "_data"


@dataclass(frozen=True)
class Row:
    text: str
    label: int
    source: str  # "public" or "memory"
    origin: str = ""  # the file's stem (public) or the memory folder ("base", "wave3", ...)


def _csv_rows(path: Path) -> list[Row]:
    csv.field_size_limit(1 << 26)
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            Row(r["text"], int(r["label"]), "public", path.stem) for r in csv.DictReader(handle)
        ]


def _memory_rows(folder: Path) -> list[Row]:
    rows: list[Row] = []
    for path in sorted(folder.rglob("*.jsonl")):
        parts = path.relative_to(folder).parts
        origin = parts[0] if len(parts) > 1 else "base"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                rows.append(Row(item["text"], int(item["label"]), "memory", origin))
    return rows


def _tunes(text: str) -> bool:
    return zlib.crc32(text.encode("utf-8")) % 5 == 0


def load(data: Path = DATA) -> tuple[list[Row], list[Row]]:
    """The training rows and the tuning rows, in a fixed order."""
    train = [r for p in sorted((data / "public").glob("*_train.csv")) for r in _csv_rows(p)]
    tune = [r for p in sorted((data / "public").glob("*_validation.csv")) for r in _csv_rows(p)]
    for row in _memory_rows(data / "memory"):
        (tune if _tunes(row.text) else train).append(row)
    return train, tune


_features: dict[str, list[int]] = {}


def _ids(text: str) -> list[int]:
    found = _features.get(text)
    if found is None:
        found = _features[text] = sorted(feature_ids(fold(text).text))
    return found


def _matrix(rows: Iterable[Row]) -> csr_matrix:
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for row in rows:
        ids = _ids(row.text)
        value = 1.0 / max(1.0, len(ids)) ** 0.5
        indices.extend(ids)
        data.extend([value] * len(ids))
        indptr.append(len(indices))
    return csr_matrix(
        (np.array(data), np.array(indices), np.array(indptr)),
        shape=(len(indptr) - 1, 1 << FEATURE_BITS),
    )


def _weight(row: Row) -> float:
    if row.source == "public":
        return 1.0
    return MEMORY_BENIGN_WEIGHT if row.label == 0 else MEMORY_INJECTION_WEIGHT


@dataclass
class Linear:
    """The linear model as the package reads it: int16 weights times one scale, a bias."""

    weights: array[int]
    scale: float
    bias: float

    def margins(self, matrix: csr_matrix) -> np.ndarray:
        dense = np.asarray(self.weights, dtype=np.float64) * self.scale
        return np.asarray(matrix @ dense + self.bias, dtype=np.float64)


@dataclass
class Network:
    """The network: hidden-layer rows per feature bucket, then one output unit."""

    rows: np.ndarray  # (buckets, hidden) float32
    hidden_bias: np.ndarray
    output_weights: np.ndarray
    output_bias: float

    def margins(self, matrix: csr_matrix) -> np.ndarray:
        units = np.maximum(matrix.astype(np.float32) @ self.rows + self.hidden_bias, 0.0)
        return np.asarray(units @ self.output_weights + self.output_bias, dtype=np.float64)


def _joined(first: np.ndarray, second: np.ndarray, rule: str) -> np.ndarray:
    """The log-odds of the two parts' probabilities joined by `rule` (computed stably)."""
    if rule == "mean_margin":
        return np.asarray((first + second) / 2.0, dtype=np.float64)
    if rule == "min_probability":
        return np.asarray(np.minimum(first, second), dtype=np.float64)
    # log((s(a) + s(b)) / (s(-a) + s(-b))) with log s(x) = -log(1 + e^-x)
    up = np.logaddexp(-np.logaddexp(0.0, -first), -np.logaddexp(0.0, -second))
    down = np.logaddexp(-np.logaddexp(0.0, first), -np.logaddexp(0.0, second))
    return np.asarray(up - down, dtype=np.float64)


@dataclass
class Combined:
    """Both models over the same features, their probabilities joined by `rule`."""

    linear: Linear
    network: Network
    rule: str = RULE

    def margins(self, matrix: csr_matrix) -> np.ndarray:
        return _joined(self.linear.margins(matrix), self.network.margins(matrix), self.rule)


def _log_count_ratios(matrix: csr_matrix, labels: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per feature, log of its weighted share among injections over its share among benign rows.

    Counts are of rows holding the feature, plus `NB_ALPHA` each, as in NB-SVM.
    """
    present = matrix.copy()
    present.data[:] = 1.0
    injection = NB_ALPHA + np.asarray(present[labels == 1].T @ weights[labels == 1]).ravel()
    benign = NB_ALPHA + np.asarray(present[labels == 0].T @ weights[labels == 0]).ravel()
    return np.asarray(np.log((injection / injection.sum()) / (benign / benign.sum())))


def fit_linear(rows: list[Row]) -> Linear:
    """The logistic regression, its weights rounded to int16 as the package stores them.

    With `NB_ALPHA` set, each feature is scaled by its log-count ratio before the fit and the
    ratio is folded into its weight, so the package scores it like any linear model.
    """
    model = LogisticRegression(C=C, solver="liblinear", random_state=SEED, max_iter=1000, tol=1e-4)
    matrix = _matrix(rows)
    labels = np.array([r.label for r in rows])
    weights = np.array([_weight(r) for r in rows])
    ratios = _log_count_ratios(matrix, labels, weights) if NB_ALPHA > 0 else None
    if ratios is not None:
        matrix = csr_matrix(matrix.multiply(ratios))
    model.fit(matrix, labels, sample_weight=weights)
    coef = model.coef_[0] if ratios is None else model.coef_[0] * ratios
    scale = float(max(abs(coef.max()), abs(coef.min()))) / 32767.0
    weights = array("h", (round(float(w) / scale) for w in coef))
    return Linear(weights, scale, float(model.intercept_[0]))


def fit_network(rows: list[Row], seed: int = SEED) -> Network:
    """Mini-batch Adagrad on the weighted logistic loss; the batches follow the pinned seed.

    Only the rows of the features in a batch are read and updated, so an epoch costs about
    the number of features present, not the size of the hashed space.
    """
    rng = np.random.default_rng(seed)
    matrix = _matrix(rows).astype(np.float32)
    labels = np.array([r.label for r in rows], dtype=np.float32)
    weights = np.array([_weight(r) for r in rows], dtype=np.float32)
    weights /= weights.mean()
    buckets = 1 << FEATURE_BITS
    w1 = (rng.standard_normal((buckets, HIDDEN)) * INIT_SCALE).astype(np.float32)
    b1 = np.zeros(HIDDEN, np.float32)
    w2 = (rng.standard_normal(HIDDEN) * 0.1).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    squares = [np.full(a.shape, 1e-8, np.float32) for a in (w1, b1, w2, b2)]

    def step(value: np.ndarray, square: np.ndarray, grad: np.ndarray) -> None:
        square += grad * grad
        value -= LEARNING_RATE * grad / np.sqrt(square)

    for _ in range(EPOCHS):
        order = rng.permutation(len(rows))
        for start in range(0, len(rows), BATCH):
            picked = order[start : start + BATCH]
            batch = matrix[picked]
            columns = np.unique(batch.indices)
            dense = batch[:, columns].toarray()
            before = dense @ w1[columns] + b1
            units = np.maximum(before, 0.0)
            probability = 1.0 / (1.0 + np.exp(-(units @ w2 + b2)))
            error = (probability - labels[picked]) * weights[picked] / len(picked)
            back = np.outer(error, w2) * (before > 0)
            grad_rows = dense.T @ back
            sub_square = squares[0][columns]
            sub_square += grad_rows * grad_rows
            squares[0][columns] = sub_square
            w1[columns] -= LEARNING_RATE * grad_rows / np.sqrt(sub_square)
            step(b1, squares[1], back.sum(axis=0))
            step(w2, squares[2], units.T @ error)
            step(b2, squares[3], np.array([error.sum()], np.float32))
    return _quantised(Network(w1, b1, w2, float(b2[0])))


def _int8(network: Network) -> tuple[array[int], list[float]]:
    """The int8 hidden-layer rows (row-major bytes) and each unit's scale."""
    scales = np.abs(network.rows).max(axis=0) / 127.0
    scales[scales == 0] = 1.0
    quantised = np.clip(np.rint(network.rows / scales), -127, 127).astype(np.int8)
    return array("b", quantised.tobytes()), [float(s) for s in scales]


def _from_int8(weights: array[int], scales: list[float], network: Network) -> Network:
    rows = np.frombuffer(weights.tobytes(), dtype=np.int8).reshape(-1, len(scales))
    return Network(
        rows.astype(np.float32) * np.array(scales, dtype=np.float32),
        network.hidden_bias,
        network.output_weights,
        network.output_bias,
    )


def _quantised(network: Network) -> Network:
    """The network as the package reads it (int8 rows times their scales)."""
    return _from_int8(*_int8(network), network)


Fitted = Linear | Network | Combined


def _fit(rows: list[Row], kind: str) -> Fitted:
    if kind == "linear":
        return fit_linear(rows)
    if kind == "network":
        return fit_network(rows)
    return Combined(fit_linear(rows), fit_network(rows))


def _probabilities(model: Fitted, rows: list[Row]) -> list[float]:
    return list(1.0 / (1.0 + np.exp(-model.margins(_matrix(rows)))))


def _refused(
    probabilities: list[float], rows: list[Row], threshold: float, *, source: str, label: int
) -> float:
    picked = [
        p
        for p, r in zip(probabilities, rows, strict=True)
        if r.source == source and r.label == label
    ]
    return sum(p >= threshold for p in picked) / max(1, len(picked))


def choose_threshold(probabilities: list[float], rows: list[Row]) -> float:
    """The lowest grid threshold that keeps the tuning benign refusals within the goals."""
    for threshold in THRESHOLDS:
        memory = _refused(probabilities, rows, threshold, source="memory", label=0)
        public = _refused(probabilities, rows, threshold, source="public", label=0)
        if memory <= MAX_MEMORY_BENIGN_REFUSED and public <= MAX_PUBLIC_BENIGN_REFUSED:
            return threshold
    return THRESHOLDS[-1]


def _linear_meta(model: Linear) -> dict[str, object]:
    return {"scale": model.scale, "bias": model.bias, "C": C, "nb_alpha": NB_ALPHA}


def _network_meta(scales: list[float], model: Network) -> dict[str, object]:
    return {
        "hidden": HIDDEN,
        "lane_scales": scales,
        "hidden_bias": [float(b) for b in model.hidden_bias],
        "output_weights": [float(w) for w in model.output_weights],
        "output_bias": model.output_bias,
        "epochs": EPOCHS,
        "batch": BATCH,
        "learning_rate": LEARNING_RATE,
    }


def train(data: Path = DATA, kind: str = MODEL) -> tuple[list[array[int]], dict[str, object]]:
    """Fit the model; return its weights as the package stores them, and the metadata.

    The weights are one array per part, in the file's order (a combined model: the linear
    part's int16 weights, then the network's int8 rows).
    """
    train_rows, tune_rows = load(data)
    model = _fit(train_rows, kind)
    threshold = choose_threshold(_probabilities(model, tune_rows), tune_rows)
    meta: dict[str, object] = {"kind": kind, "feature_bits": FEATURE_BITS, "digit_runs": _RUN_CAP}
    if isinstance(model, Linear):
        parts = [model.weights]
        meta |= {"version": f"ngram-{'nb' if NB_ALPHA > 0 else ''}lr-{SEED}"}
        meta |= _linear_meta(model)
    elif isinstance(model, Network):
        weights, scales = _int8(model)
        parts = [weights]
        meta |= {"version": f"ngram-mlp{HIDDEN}-{SEED}"} | _network_meta(scales, model)
    else:
        weights, scales = _int8(model.network)
        parts = [model.linear.weights, weights]
        meta |= {
            "version": f"ngram-{'nb' if NB_ALPHA > 0 else ''}lr+mlp{HIDDEN}-{SEED}",
            "rule": model.rule,
            "linear": _linear_meta(model.linear),
            "network": _network_meta(scales, model.network),
        }
    meta |= {
        "threshold": threshold,
        "seed": SEED,
        "memory_benign_weight": MEMORY_BENIGN_WEIGHT,
        "memory_injection_weight": MEMORY_INJECTION_WEIGHT,
        "training_rows": len(train_rows),
        "tuning_rows": len(tune_rows),
    }
    return parts, meta


def _model(parts: list[array[int]], meta: dict[str, object]) -> Fitted:
    if meta.get("kind") == "combined":
        linear, network = meta["linear"], meta["network"]
        assert isinstance(linear, dict) and isinstance(network, dict)
        both = (_model([parts[0]], linear | {"kind": "linear"}), _model([parts[1]], network))
        assert isinstance(both[0], Linear) and isinstance(both[1], Network)
        return Combined(both[0], both[1], str(meta["rule"]))
    weights = parts[0]
    if meta.get("kind") == "linear":
        return Linear(weights, float(str(meta["scale"])), float(str(meta["bias"])))
    floats = Network(
        np.zeros((0, 0), np.float32),
        np.array(meta["hidden_bias"], dtype=np.float32),
        np.array(meta["output_weights"], dtype=np.float32),
        float(str(meta["output_bias"])),
    )
    return _from_int8(weights, list(meta["lane_scales"]), floats)  # type: ignore[call-overload]


def report(parts: list[array[int]], meta: dict[str, object], data: Path = DATA) -> None:
    """Print the tuning figures (validation splits and tuning memory rows) per threshold."""
    _, tune_rows = load(data)
    probabilities = _probabilities(_model(parts, meta), tune_rows)
    print(
        "threshold  public inj caught  public benign refused  memory inj caught  memory benign refused"
    )
    for threshold in THRESHOLDS:
        cells = [
            _refused(probabilities, tune_rows, threshold, source=s, label=label)
            for s, label in (("public", 1), ("public", 0), ("memory", 1), ("memory", 0))
        ]
        print(f"{threshold:9.2f}  " + "  ".join(f"{c:17.3f}" for c in cells))
    print(f"chosen threshold: {meta['threshold']}")


def _recall_at(labels: np.ndarray, margins: np.ndarray, benign_refused: float) -> float:
    """Injections caught when the threshold refuses at most `benign_refused` of benign rows."""
    benign = np.sort(margins[labels == 0])[::-1]
    allowed = int(benign_refused * len(benign))
    threshold = benign[allowed] if allowed < len(benign) else -np.inf
    return float(np.mean(margins[labels == 1] > threshold))


def _auc(labels: np.ndarray, margins: np.ndarray) -> float:
    """The probability that an injection outscores a benign row (ties count half)."""
    ranks = rankdata(margins)
    positives = int(labels.sum())
    negatives = len(labels) - positives
    above = ranks[labels == 1].sum() - positives * (positives + 1) / 2
    return float(above / (positives * negatives))


def _wave_fold(wave: str) -> tuple[str, Callable[[Row], bool], Callable[[Row], bool]]:
    return (wave, lambda r: r.origin != wave, lambda r: r.origin == wave)


def development(data: Path = DATA, kind: str = MODEL, only: frozenset[str] = frozenset()) -> None:
    """The leave-one-source-out protocol: recall at 1% and 3% benign refused, and the AUC.

    `only`, when not empty, names the folds to run (the others are skipped).
    """
    train_rows, tune_rows = load(data)
    every = train_rows + tune_rows
    origins = {r.origin for r in every}
    folds = [_wave_fold(wave) for wave in WAVES[::-1] if wave in origins]
    folds += [
        (
            "neuralchemy",
            lambda r: r.origin != "neuralchemy_core_train",
            lambda r: r.origin == "neuralchemy_core_validation",
        ),
        ("slabs", lambda r: r.origin != "slabs_train", lambda r: r.origin == "slabs_validation"),
        ("tuning rows", lambda r: True, lambda r: r in tune_set),
    ]
    tune_set = set(tune_rows)
    print("model                     fold         recall@1%  recall@3%  AUC", flush=True)
    for name, keep, scored in folds:
        if only and name not in only:
            continue
        model = _fit([r for r in train_rows if keep(r)], kind)
        rows = [r for r in every if scored(r)]
        labels = np.array([r.label for r in rows])
        matrix = _matrix(rows)
        if isinstance(model, Combined):
            first, second = model.linear.margins(matrix), model.network.margins(matrix)
            scored_by = {"linear": first, "network": second}
            scored_by |= {rule: _joined(first, second, rule) for rule in COMBINATION_RULES}
        else:
            scored_by = {kind: model.margins(matrix)}
        for label, margins in scored_by.items():
            print(
                f"{label:24s}  {name:12s}  {_recall_at(labels, margins, 0.01):9.3f}  "
                f"{_recall_at(labels, margins, 0.03):9.3f}  {_auc(labels, margins):.4f}",
                flush=True,
            )


def write(parts: list[array[int]], meta: dict[str, object], out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    raw = b""
    for weights in parts:
        little = array(weights.typecode, weights)
        if sys.byteorder != "little":  # int16 is stored little-endian; int8 has no byte order
            little.byteswap()
        raw += little.tobytes()
    (out / "injection_model.bin").write_bytes(raw)
    (out / "injection_model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


_SETTABLE = (
    "C",
    "NB_ALPHA",
    "HIDDEN",
    "EPOCHS",
    "BATCH",
    "LEARNING_RATE",
    "MEMORY_BENIGN_WEIGHT",
    "MEMORY_INJECTION_WEIGHT",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="print the tuning figures")
    parser.add_argument("--dry-run", action="store_true", help="do not write the model")
    parser.add_argument("--dev", action="store_true", help="run the development protocol only")
    parser.add_argument(
        "--folds", default="", help="with --dev: the folds to run, comma-separated (default all)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a numeric setting of this script (C, NB_ALPHA, HIDDEN, EPOCHS, ...)",
    )
    parser.add_argument(
        "--model",
        choices=("linear", "network", "combined"),
        default=MODEL,
        help="the kind of model (with --dev, combined also prints each part and every rule)",
    )
    args = parser.parse_args()
    for setting in args.set:
        name, _, value = setting.partition("=")
        if name not in _SETTABLE:
            parser.error(f"--set {name}: not one of {', '.join(_SETTABLE)}")
        globals()[name] = type(globals()[name])(value)
    if args.dev:
        development(kind=args.model, only=frozenset(filter(None, args.folds.split(","))))
        return
    parts, meta = train(kind=args.model)
    if not args.dry_run:
        write(parts, meta)
    print(json.dumps({k: v for k, v in meta.items() if not isinstance(v, list | dict)}, indent=2))
    if args.report:
        report(parts, meta)


if __name__ == "__main__":
    main()
