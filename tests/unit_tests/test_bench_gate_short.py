"""The gate bench's short-value rows: both gates timed on the same ordinary, allowed values."""

from __future__ import annotations

import importlib

import pytest

from benchmarks._gate_before.gate import DEFAULT_GATE as BEFORE_GATE
from benchmarks._gate_before.gate import WriteCandidate as BeforeCandidate
from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate
from tests.support.benches import finite_positive
from tests.support.gate_corpus import BENIGN


def test_short_values_are_ordinary_writes_both_gates_allow() -> None:
    module = importlib.import_module("benchmarks.bench_gate")
    assert len(module.SHORT_VALUES) >= 10
    for key, value in module.SHORT_VALUES:
        assert len(value) <= 100
        assert DEFAULT_GATE.check(WriteCandidate(key, value)).action == "allow", value
        assert BEFORE_GATE.check(BeforeCandidate(key, value)).action == "allow", value


def test_short_cost_rows_report_before_after_and_their_ratio() -> None:
    module = importlib.import_module("benchmarks.bench_gate")
    result = module._short_costs(2)
    assert result["short_values"] == len(module.SHORT_VALUES)
    assert result["look_alike_values"] == sum(len(v) <= 100 for _, v, _ in BENIGN)
    for prefix in ("short", "look_alike"):
        for best in ("", "best_"):
            before = result[f"{best}{prefix}_before_us"]
            after = result[f"{best}{prefix}_after_us"]
            assert finite_positive(before) and finite_positive(after)
            assert result[f"{best}{prefix}_after_vs_before"] == pytest.approx(after / before)


def test_quality_rows_count_every_item_of_both_sets_once() -> None:
    module = importlib.import_module("benchmarks._gate_quality")
    quality = module.measure(limit=15)
    for name in ("public", "heldback"):
        q = quality[name]
        assert q["injections"] + q["benign"] == 30
        assert sum(row[1] for row in q["table"]) == 30
        assert sum(row[2] for row in q["table"]) == q["injections_refused"] + q["benign_refused"]
        # The sweep's first row is the detectors alone; precision and recall are rates.
        assert q["sweep"][0][0].startswith("off")
        assert all(0.0 <= float(cell) <= 1.0 for row in q["sweep"] for cell in row[1:])
    assert sum(row[1] for row in quality["heldback"]["languages"]) == 30
