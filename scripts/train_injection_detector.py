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
function the gate scores with. The model is an L2-regularised logistic regression (liblinear,
pinned seed), its weights stored as little-endian int16 with one scale. The threshold is the
lowest on a fixed grid at which the tuning rows refuse at most 0.5% of benign memories and at
most 3% of the public benign texts. The test splits of the public datasets and the held-back
memory set are not read here.

    python scripts/train_injection_detector.py --dev    # the development protocol, no writing

`--dev` trains on the training rows without one source and scores that source (all rows of
the fourth and of the third memory wave; each public dataset's validation split, its train
split left out), then the full training rows on the tuning rows, and prints the injections
caught at 1% and at 3% of benign rows refused and the AUC (see benchmarks/README.md, issue 24).
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

from langchain_contextchef.gate._learned import FEATURE_BITS, feature_ids  # noqa: E402
from langchain_contextchef.gate._normalize import fold  # noqa: E402

SEED = 20261201
C = 4.0
MEMORY_BENIGN_WEIGHT = 6.0
MEMORY_INJECTION_WEIGHT = 6.0
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(4, 20))
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


def _matrix(rows: Iterable[Row]) -> csr_matrix:
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for row in rows:
        ids = sorted(feature_ids(fold(row.text).text))
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


def _probabilities(weights: array, scale: float, bias: float, rows: list[Row]) -> list[float]:
    matrix = _matrix(rows)
    dense = np.asarray(weights, dtype=np.float64) * scale
    margins = matrix @ dense + bias
    return list(1.0 / (1.0 + np.exp(-margins)))


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


def _fit(rows: list[Row]) -> LogisticRegression:
    model = LogisticRegression(C=C, solver="liblinear", random_state=SEED, max_iter=1000, tol=1e-4)
    model.fit(_matrix(rows), [r.label for r in rows], sample_weight=[_weight(r) for r in rows])
    return model


def train(data: Path = DATA) -> tuple[array, dict[str, object]]:
    """Fit the model; return the int16 weights and the metadata the package reads."""
    train_rows, tune_rows = load(data)
    model = _fit(train_rows)
    coef = model.coef_[0]
    scale = float(max(abs(coef.max()), abs(coef.min()))) / 32767.0
    weights = array("h", (round(float(w) / scale) for w in coef))
    bias = float(model.intercept_[0])
    probabilities = _probabilities(weights, scale, bias, tune_rows)
    threshold = choose_threshold(probabilities, tune_rows)
    meta: dict[str, object] = {
        "version": f"ngram-lr-{SEED}",
        "feature_bits": FEATURE_BITS,
        "scale": scale,
        "bias": bias,
        "threshold": threshold,
        "seed": SEED,
        "C": C,
        "memory_benign_weight": MEMORY_BENIGN_WEIGHT,
        "memory_injection_weight": MEMORY_INJECTION_WEIGHT,
        "training_rows": len(train_rows),
        "tuning_rows": len(tune_rows),
    }
    return weights, meta


def report(weights: array, meta: dict[str, object], data: Path = DATA) -> None:
    """Print the tuning figures (validation splits and tuning memory rows) per threshold."""
    _, tune_rows = load(data)
    probabilities = _probabilities(weights, float(meta["scale"]), float(meta["bias"]), tune_rows)  # type: ignore[arg-type]
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


def development(data: Path = DATA) -> None:
    """The leave-one-source-out protocol: recall at 1% and 3% benign refused, and the AUC."""
    train_rows, tune_rows = load(data)
    every = train_rows + tune_rows
    folds: list[tuple[str, Callable[[Row], bool], Callable[[Row], bool]]] = [
        ("wave4", lambda r: r.origin != "wave4", lambda r: r.origin == "wave4"),
        ("wave3", lambda r: r.origin != "wave3", lambda r: r.origin == "wave3"),
        (
            "neuralchemy",
            lambda r: r.origin != "neuralchemy_core_train",
            lambda r: r.origin == "neuralchemy_core_validation",
        ),
        ("slabs", lambda r: r.origin != "slabs_train", lambda r: r.origin == "slabs_validation"),
        ("tuning rows", lambda r: True, lambda r: r in tune_set),
    ]
    tune_set = set(tune_rows)
    print("fold          recall@1%  recall@3%  AUC")
    for name, keep, scored in folds:
        model = _fit([r for r in train_rows if keep(r)])
        rows = [r for r in every if scored(r)]
        labels = np.array([r.label for r in rows])
        margins = model.decision_function(_matrix(rows))
        print(
            f"{name:12s}  {_recall_at(labels, margins, 0.01):9.3f}  "
            f"{_recall_at(labels, margins, 0.03):9.3f}  {_auc(labels, margins):.4f}"
        )


def write(weights: array, meta: dict[str, object], out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    little = array("h", weights)
    if sys.byteorder != "little":
        little.byteswap()
    (out / "injection_model.bin").write_bytes(little.tobytes())
    (out / "injection_model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="print the tuning figures")
    parser.add_argument("--dry-run", action="store_true", help="do not write the model")
    parser.add_argument("--dev", action="store_true", help="run the development protocol only")
    args = parser.parse_args()
    if args.dev:
        development()
        return
    weights, meta = train()
    if not args.dry_run:
        write(weights, meta)
    print(json.dumps(meta, indent=2))
    if args.report:
        report(weights, meta)


if __name__ == "__main__":
    main()
