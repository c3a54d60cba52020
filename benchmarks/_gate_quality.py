"""The gate bench's quality figures on data nobody here trained or tuned on.

- The public TEST splits of the two prompt-injection datasets whose train and validation splits
  train the detector (`benchmarks/data/prompt_injection/`, licenses there): injections refused
  and benign texts refused, per category.
- The held-back memory-style set (`benchmarks/data/gate_heldback/`, written for this project
  without sight of the gate): benign memories refused and injections refused, per kind and per
  language.

A write counts as refused when the gate does anything but allow it. Public texts are checked
as values with the size limit off (some prompts are longer than a memory value may be; the
limit would refuse them for their size, not for what they say).

The threshold sweep reuses one deterministic pass per text (`injection_threshold=None`) and the
detector's score on the folded text, so it shows what each setting would do without rerunning
the whole gate; the default row is the real gate.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from langchain_contextchef.gate import WriteCandidate, WriteGate
from langchain_contextchef.gate._learned import load_model
from langchain_contextchef.gate._normalize import fold

DATA = Path(__file__).resolve().parent / "data"
PUBLIC = DATA / "prompt_injection"
HELDBACK = DATA / "gate_heldback"
SWEEP = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def public_rows() -> list[tuple[str, int, str]]:
    """(text, label, category) of both public test splits."""
    csv.field_size_limit(1 << 26)
    rows: list[tuple[str, int, str]] = []
    with (PUBLIC / "slabs_test.csv").open(encoding="utf-8", newline="") as handle:
        for r in csv.DictReader(handle):
            label = int(r["label"])
            rows.append((r["text"], label, "slabs: " + ("injection" if label else "benign")))
    with (PUBLIC / "neuralchemy_core_test.csv").open(encoding="utf-8", newline="") as handle:
        for r in csv.DictReader(handle):
            rows.append((r["text"], int(r["label"]), "neuralchemy: " + r["category"]))
    return rows


def heldback_rows() -> list[tuple[str, int, str, str]]:
    """(text, label, kind, lang) of the held-back memory set."""
    rows: list[tuple[str, int, str, str]] = []
    for name in ("benign.jsonl", "injections.jsonl"):
        for line in (HELDBACK / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                rows.append((item["text"], int(item["label"]), item["kind"], item["lang"]))
    return rows


def _judge(texts: list[str], gate: WriteGate) -> tuple[list[bool], list[bool], list[float]]:
    """Per text: refused by `gate`, refused by its deterministic part, folded-view score."""
    plain = WriteGate(max_value_chars=None, injection_threshold=None)
    model = load_model()
    refused = [gate.check(WriteCandidate("bench", t)).action != "allow" for t in texts]
    deterministic = [plain.check(WriteCandidate("bench", t)).action != "allow" for t in texts]
    scores = [model.score(fold(t).text) for t in texts]
    return refused, deterministic, scores


def _sweep(labels: list[int], deterministic: list[bool], scores: list[float]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for threshold in (None, *SWEEP):
        flagged = [
            d or (threshold is not None and s >= threshold)
            for d, s in zip(deterministic, scores, strict=True)
        ]
        tp = sum(f and y == 1 for f, y in zip(flagged, labels, strict=True))
        fp = sum(f and y == 0 for f, y in zip(flagged, labels, strict=True))
        positives = sum(labels)
        negatives = len(labels) - positives
        rows.append(
            [
                "off (deterministic only)" if threshold is None else f"{threshold:.2f}",
                f"{tp / max(1, tp + fp):.3f}",
                f"{tp / max(1, positives):.3f}",
                f"{fp / max(1, negatives):.3f}",
            ]
        )
    return rows


def _table(groups: dict[str, list[bool]]) -> list[list[Any]]:
    return [
        [name, len(flags), sum(flags), f"{sum(flags) / max(1, len(flags)):.1%}"]
        for name, flags in sorted(groups.items())
    ]


def measure(limit: int | None = None) -> dict[str, Any]:
    """Every quality figure; `limit` keeps the first rows of each set (for a quick run)."""
    gate = WriteGate(max_value_chars=None)
    public = public_rows()
    heldback = heldback_rows()
    if limit is not None:
        public = public[:limit] + public[-limit:]
        heldback = heldback[:limit] + heldback[-limit:]
    results: dict[str, Any] = {}
    for name, texts, labels, groups in (
        ("public", [r[0] for r in public], [r[1] for r in public], [r[2] for r in public]),
        (
            "heldback",
            [r[0] for r in heldback],
            [r[1] for r in heldback],
            [("benign: " if r[1] == 0 else "injection: ") + r[2] for r in heldback],
        ),
    ):
        refused, deterministic, scores = _judge(texts, gate)
        by_group: dict[str, list[bool]] = defaultdict(list)
        for group, flag in zip(groups, refused, strict=True):
            by_group[group].append(flag)
        injections = [f for f, y in zip(refused, labels, strict=True) if y == 1]
        benign = [f for f, y in zip(refused, labels, strict=True) if y == 0]
        results[name] = {
            "injections": len(injections),
            "injections_refused": sum(injections),
            "benign": len(benign),
            "benign_refused": sum(benign),
            "table": _table(by_group),
            "sweep": _sweep(labels, deterministic, scores),
        }
        if name == "heldback":
            by_lang: dict[str, list[bool]] = defaultdict(list)
            for row, flag in zip(heldback, refused, strict=True):
                by_lang[("benign " if row[1] == 0 else "injection ") + row[3]].append(flag)
            results[name]["languages"] = _table(by_lang)
    return results
