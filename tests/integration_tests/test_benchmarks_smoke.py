"""Smoke-run the benches that need more than `InMemoryStore` in one process, with `quick=True`.

The compile and store benches time SQLite and the file system; the memory bench measures each
side in a child process of its own. The other benches are smoke-run by
`tests/unit_tests/test_benchmarks_smoke.py`; like those, these tests never assert timings or
sizes, only the shape of what a bench returns.
"""

from __future__ import annotations

import importlib
import json

import pytest

from benchmarks import bench_compile, bench_memory
from tests.support.benches import check_goals, finite_positive

pytestmark = pytest.mark.slow


def test_compile_bench_reports_every_store_and_size(capsys: pytest.CaptureFixture[str]) -> None:
    result = bench_compile.run(quick=True)
    assert result["name"] == "compile"
    pairs = {(r["store"], r["entries"]) for r in result["rows"]}
    assert pairs == {(s, n) for s in ("memory", "filesystem", "sqlite") for n in (10, 100)}
    for row in result["rows"]:
        assert finite_positive(row["floor_s"]) and finite_positive(row["compile_s"])
        assert row["ratio"] == pytest.approx(row["compile_s"] / row["floor_s"])
    assert set(result["growth"]["by_store"]) == {"memory", "filesystem", "sqlite"}
    check_goals(result["goals"])
    assert "| store" in capsys.readouterr().out


def test_store_bench_times_both_stores_and_their_ratio() -> None:
    module = importlib.import_module("benchmarks.bench_store")
    result = module.run(quick=True)
    json.dumps(result, default=str)  # results.json must be able to hold it
    assert list(result["sizes"]) == [1000]
    figures = result["sizes"][1000]
    assert set(figures) == {"fs", "sqlite", "ratio"}
    operations = {"get", "put", "search", "search limit=10", "search cold"}
    for side in ("fs", "sqlite"):
        assert set(figures[side]) == operations
        assert all(finite_positive(figures[side][op]) for op in operations)
    for op in operations:
        assert figures["ratio"][op] == pytest.approx(figures["fs"][op] / figures["sqlite"][op])


def test_memory_bench_measures_both_sides_in_children() -> None:
    result = bench_memory.run(quick=True)
    assert result["entries"] == bench_memory.QUICK_ENTRIES
    assert [r["store"] for r in result["rows"]] == ["memory", "filesystem", "sqlite"]
    for row in result["rows"]:
        assert row["floor_peak"] > 0 and row["compile_peak"] > 0
        assert row["floor_rss_delta"] >= 0 and row["compile_rss_delta"] >= 0
