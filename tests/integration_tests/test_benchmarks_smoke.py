"""Smoke-run the benches that need more than `InMemoryStore` in one process, with `quick=True`.

The compile and store benches time SQLite and the file system; the memory, scale, tenants and
versions benches measure in child processes of their own (the PostgreSQL rows against the
test server). The other benches are smoke-run by
`tests/unit_tests/test_benchmarks_smoke.py`; like those, these tests never assert timings or
sizes, only the shape of what a bench returns.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from benchmarks import bench_compile, bench_memory, bench_scale, bench_tenants, bench_versions
from benchmarks._pg import ENV_URI
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


_SCALE_TIMES = ("unchanged_s", "unchanged_mean_s", "reference_s", "probed_s", "after_own_write_s")


def _check_scale_row(row: dict[str, object]) -> None:
    for name in (*_SCALE_TIMES, "growth", "probed_growth", "after_own_write_ratio"):
        assert finite_positive(row[name]), name
    assert row["growth"] == pytest.approx(row["unchanged_s"] / row["reference_s"])  # type: ignore[operator]
    # A compile that injects nothing would be cheap for the wrong reason.
    assert isinstance(row["injected"], int) and row["injected"] > 0
    assert finite_positive(row["cold_ratio"])
    assert row["cold_ratio"] == pytest.approx(row["cold_s"] / row["floor_s"])  # type: ignore[operator]
    assert isinstance(row["retained_bytes"], int) and isinstance(row["values_bytes"], int)
    assert row["values_bytes"] > 0
    # The goal's denominator is the stored JSON (issue 28), not the parsed dicts.
    assert isinstance(row["json_bytes"], int) and row["json_bytes"] > 0
    assert row["retained_ratio"] == pytest.approx(row["retained_bytes"] / row["json_bytes"])  # type: ignore[operator]


def test_scale_bench_measures_every_local_backend_and_notes_the_missing_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    result = bench_scale.run(quick=True)
    json.dumps(result)
    pairs = [(r["store"], r["entries"]) for r in result["rows"]]
    assert pairs == [
        (k, n) for k in ("memory", "filesystem", "sqlite") for n in bench_scale.QUICK_SIZES
    ]
    for row in result["rows"]:
        _check_scale_row(row)
        # A second store object over the same data exists for every backend but InMemoryStore.
        assert ("after_other_write_s" in row) is (row["store"] != "memory")
    assert result["goals"] == []  # a quick run judges nothing
    assert any("--pg" in note for note in result["skipped"])
    out = capsys.readouterr().out
    assert "| store" in out and "PostgreSQL rows skipped" in out


def test_scale_and_tenants_benches_measure_postgres_given_a_server(pg_server_uri: str) -> None:
    scale = bench_scale.run(quick=True, pg=pg_server_uri, kinds=["postgres"])
    assert [r["store"] for r in scale["rows"]] == ["postgres"] * len(bench_scale.QUICK_SIZES)
    for row in scale["rows"]:
        _check_scale_row(row)
        assert finite_positive(row["after_other_write_s"])
    assert scale["skipped"] == []
    tenants = bench_tenants.run(quick=True, pg=pg_server_uri, kinds=["postgres"])
    assert [r["store"] for r in tenants["rows"]] == ["postgres"]


def test_tenants_bench_compiles_every_tenant_round_robin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URI, raising=False)
    result = bench_tenants.run(quick=True)
    json.dumps(result)
    assert [r["store"] for r in result["rows"]] == ["memory", "sqlite"]
    assert result["tenants"] == bench_tenants.QUICK["tenants"]
    for row in result["rows"]:
        # Every tenant's scope is cached after the run: none was evicted at this size.
        assert row["cached_scopes"] == bench_tenants.QUICK["tenants"]
        assert (
            row["cached_entries"] >= bench_tenants.QUICK["tenants"] * bench_tenants.QUICK["entries"]
        )
        for name in ("cold_first_s", "cold_last_s", "second_s", "warm_first_s", "warm_last_s"):
            assert finite_positive(row[name]), name
        assert row["last_vs_first"] == pytest.approx(row["warm_last_s"] / row["warm_first_s"])
        assert len(row["round_medians_s"]) == bench_tenants.QUICK["rounds"] - 1
    assert any("--pg" in note for note in result["skipped"])


def test_versions_bench_compares_two_package_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    # The repository itself stands in for the earlier version: this checks the machinery
    # (children on PYTHONPATH, alternation, the table), not any figure.
    monkeypatch.delenv(ENV_URI, raising=False)
    root = Path(bench_versions.__file__).resolve().parents[1]
    result = bench_versions.run(quick=True, baseline=root)
    json.dumps(result)
    pairs = [(r["store"], r["operation"]) for r in result["rows"]]
    assert pairs == [
        (k, op) for k in ("memory", "filesystem", "sqlite") for op in bench_versions.OPERATIONS
    ]
    for row in result["rows"]:
        assert finite_positive(row["baseline_s"]) and finite_positive(row["current_s"])
        assert row["ratio"] == pytest.approx(row["current_s"] / row["baseline_s"])
    assert any("--pg" in note for note in result["skipped"])


def test_versions_bench_refuses_a_folder_without_the_package(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="holds no langchain_contextchef package"):
        bench_versions.run(quick=True, baseline=tmp_path)
