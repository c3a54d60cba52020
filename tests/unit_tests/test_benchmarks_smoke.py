"""Smoke-run the in-process benchmarks with `quick=True` and check the shape of what they return.

These tests never assert timings (those belong to the benchmark output): they keep the
benches runnable as the package changes, and check the few pure helpers they rely on. The
benches that time SQLite against the file system, or measure in child processes, are smoke-run
by the integration tests (`tests/integration_tests/test_benchmarks_smoke.py`).
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pytest

from benchmarks import bench_cache, bench_dispatch, bench_peers, bench_profiles, bench_recall
from benchmarks.__main__ import main
from benchmarks._cache_blocks import common_prefix
from benchmarks._timing import flatten, fmt_bytes, fmt_ratio, fmt_seconds, paired_medians, ratio
from benchmarks.compare import compare
from tests.support.benches import check_goals, finite_positive


def test_cache_bench_reports_each_strategy_on_each_provider() -> None:
    result = bench_cache.run(quick=True)
    assert result["turns"] == bench_cache.QUICK_TURNS
    by = {(r["strategy"], r["provider"]): r for r in result["rows"]}
    assert set(by) == {(s, p) for s in bench_cache.STRATEGIES for p in bench_cache.PROVIDERS}
    for row in by.values():
        assert 0 < row["reused_bytes"] <= row["limit_bytes"] <= row["sent_bytes"]
        assert 0 < row["worst_turn"] <= row["reuse"] <= 1
    blocks = {r["strategy"]: r for r in result["block_rows"]}
    assert len(blocks) == len(bench_cache.STRATEGIES) + 2
    for row in blocks.values():
        assert 0 < row["reused_bytes"] <= row["limit_bytes"]
        assert 0 <= row["worst_turn"] <= row["reuse"] <= 1
    agent = blocks["before_history_tail (agent, middleware breakpoints)"]
    assert agent["calls"] == 2 * bench_cache.QUICK_AGENT_MESSAGES + 2  # two writes of memory
    assert len(result["goals"]) == 5
    check_goals(result["goals"])


def test_block_cache_reads_only_prefixes_written_at_breakpoints() -> None:
    from benchmarks._cache_blocks import BreakpointCache, serialise

    def body(*texts: str, marked: int) -> dict[str, object]:
        content = [
            {"type": "text", "text": t, **({"cache_control": {}} if i == marked else {})}
            for i, t in enumerate(texts)
        ]
        return {"messages": [{"role": "user", "content": content}]}

    cache = BreakpointCache()
    first = serialise(body("a", "b", "tail-1", marked=1))
    assert cache.request(first) == 0
    # The same prefix, the breakpoint further on: the read stops where the first one wrote.
    second = serialise(body("a", "b", "c", "tail-2", marked=2))
    assert cache.request(second) == first.marks[0] == second.ends[1]
    # Changed inside the second block: nothing written matches any more.
    assert cache.request(serialise(body("a", "B", "c", marked=2))) == 0


def test_recall_bench_shows_the_compact_format_fitting_more_relevant_entries() -> None:
    result = bench_recall.run(quick=True)
    by = {(r["selector"], r["format"]): r for r in result["rows"]}
    for selector in ("Relevant", "Rerank"):
        compact, verbose = by[selector, "compact"], by[selector, "verbose"]
        assert compact["recall"] > verbose["recall"]
        assert compact["entries_shown"] > verbose["entries_shown"]
        assert max(compact["max_tokens"], verbose["max_tokens"]) <= bench_recall.BUDGET
    check_goals(result["goals"])


def test_cache_simulation_changes_memory_every_third_turn() -> None:
    figures = bench_cache.simulate(7)
    changed = figures["before_history_tail"]["anthropic"]["memory_changed_turns"]
    assert changed == [1, 4, 7]
    assert len(figures["baseline"]["openai"]["reused"]) == 6


def test_dispatch_bench_reports_each_operation() -> None:
    result = bench_dispatch.run(quick=True)
    pairs = {(r["store"], r["operation"]) for r in result["rows"]}
    assert pairs == {
        (s, o) for s in ("memory", "filesystem") for o in ("create", "update", "delete")
    }
    for row in result["rows"]:
        assert finite_positive(row["raw_s"]) and finite_positive(row["tool_s"])
        assert finite_positive(row["floor_s"])
        assert row["floor_ratio"] == pytest.approx(row["tool_s"] / row["floor_s"])


def test_peers_bench_reports_both_ratios_on_every_server_less_backend() -> None:
    result = bench_peers.run(quick=True, pg=None, only=("memory", "sqlite"))
    assert [r["store"] for r in result["rows"]] == ["memory", "sqlite"]
    for row in result["rows"]:
        for side in ("write_langmem_s", "write_ours_s", "read_langmem_s", "read_ours_s"):
            assert finite_positive(row[side])
        assert row["write_ratio"] == pytest.approx(row["write_ours_s"] / row["write_langmem_s"])
        assert row["read_ratio"] == pytest.approx(row["read_ours_s"] / row["read_langmem_s"])
    assert len(result["goals"]) == 4


def test_main_writes_results_json(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    assert main(["--quick", "--only", "dispatch", "--output", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["quick"] is True
    assert set(document["benches"]) == {"dispatch"}
    assert document["benches"]["dispatch"]["name"] == "dispatch"
    assert isinstance(document["goals"], list)


def test_gate_bench_reports_the_corpus_figures_and_ratios() -> None:
    from tests.support.gate_corpus import BENIGN, INJECTIONS, SECRETS

    module = importlib.import_module("benchmarks.bench_gate")
    result = module.run(quick=True)
    json.dumps(result, default=str)  # results.json must be able to hold it
    # The default gate blocks the whole corpus (test_gate checks the same thing directly).
    counts = ("secrets", "blocked_secrets", "injections", "blocked_injections", "benign")
    assert [result[name] for name in counts] == [
        len(SECRETS),
        len(SECRETS),
        len(INJECTIONS),
        len(INJECTIONS),
        len(BENIGN),
    ]
    assert result["refused_benign"] <= 0.02 * len(BENIGN)
    for check, baseline, ratio_name in (
        ("check_us", "baseline_us", "ratio"),
        ("check_4000_chars_us", "baseline_4000_chars_us", "ratio_4000_chars"),
    ):
        assert finite_positive(result[check]) and finite_positive(result[baseline])
        assert result[ratio_name] == pytest.approx(result[check] / result[baseline])


def test_relevance_bench_reports_recall_and_latency_for_every_selector(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = importlib.import_module("benchmarks.bench_relevance")
    result = module.run(quick=True)
    json.dumps(result, default=str)
    assert result["name"] == "relevance"
    assert result["questions"] == len(module.QUESTIONS[:: len(module.QUESTIONS) // 15])
    names = [r["selector"] for r in result["rows"]]
    assert names[:7] == [
        "default config, only a budget set",
        "MostRecent",
        "MostImportant",
        "ByType",
        "BM25 baseline",
        "Relevant keyword",
        "Rerank keyword",
    ]
    assert result["query_turns"] == 3  # MemoryConfig's default: the compile builds the query
    for row in result["rows"]:
        assert set(row["recall"]) == set(result["budgets"])
        for figures in row["recall"].values():
            assert 0.0 <= figures["recall"] <= 1.0
            assert set(figures["by_kind"]) <= {
                "direct",
                "paraphrase",
                "update",
                "multi",
                "followup",
            }
        assert finite_positive(row["latency_ratio"])
    by_name = {r["selector"]: r for r in result["rows"]}
    # Relevance beats recency on any sample of the set.
    assert (
        by_name["Relevant keyword"]["recall"][1_000]["recall"]
        > (by_name["MostRecent"]["recall"][1_000]["recall"])
    )
    check_goals(result["goals"])
    assert "| selector" in capsys.readouterr().out


def test_relevance_bench_last_message_only_reads_one_user_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = importlib.import_module("benchmarks.bench_relevance")
    result = module.run(quick=True, conversation=False)
    assert result["query_turns"] == 1
    assert "last 1 user turn" in capsys.readouterr().out


def test_main_passes_options_and_notes_a_bench_it_could_not_run(tmp_path: Path) -> None:
    # Without --baseline the versions bench measures nothing and says why; main records
    # the machine's load around it.
    out = tmp_path / "results.json"
    assert main(["--quick", "--only", "versions", "--output", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    versions = document["benches"]["versions"]
    assert versions["rows"] == [] and "--baseline" in versions["skipped"][0]
    assert document["baseline"] is False
    assert set(versions["load_average"]) == {"before", "after"}


def test_compare_lines_up_the_figures_both_runs_report() -> None:
    before = {
        "benches": {
            "dispatch": {"rows": [{"store": "memory", "operation": "create", "ratio": 16.0}]},
            "gate": {"ratio": 30.0},
        }
    }
    after = {
        "benches": {
            "dispatch": {
                "rows": [
                    {"store": "memory", "operation": "create", "ratio": 40.5},
                    {"store": "memory", "operation": "update", "ratio": 3.0},
                ]
            },
            "cache": {"rows": [{"strategy": "s", "provider": "p", "reuse": 0.5}]},
        }
    }
    # Only what both runs measured: the update row and the cache row are new, the gate gone.
    assert compare(before, after) == [
        ["dispatch", "handle_tool / raw write, memory create", "16.00x", "40.50x"]
    ]


def test_common_prefix() -> None:
    assert common_prefix(b"", b"abc") == 0
    assert common_prefix(b"abc", b"abc") == 3
    assert common_prefix(b"abcX", b"abcY") == 3
    assert common_prefix(b"abc", b"abcdef") == 3
    assert common_prefix(b"Xbc", b"abc") == 0


def test_timing_helpers() -> None:
    calls: list[str] = []
    medians = paired_medians(
        {"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, repeats=3, warmup=1
    )
    assert calls == ["a", "b"] * 4  # round-robin, warm-up included
    assert set(medians) == {"a", "b"}
    assert ratio(3.0, 2.0) == 1.5
    assert ratio(1.0, 0.0) == math.inf
    assert fmt_ratio(1.234) == "1.23x"
    assert (fmt_seconds(5e-6), fmt_seconds(0.0125), fmt_seconds(2.0)) == (
        "5 us",
        "12.50 ms",
        "2.00 s",
    )
    assert (fmt_bytes(10), fmt_bytes(2048), fmt_bytes(3 * 1024 * 1024)) == (
        "10 B",
        "2.0 KiB",
        "3.0 MiB",
    )
    assert flatten({"a": {"b": 1, "c": 0.5}, "d": "x"}) == [("a.b", 1), ("a.c", "0.5"), ("d", "x")]


def test_profiles_bench_reports_tokens_and_times_against_loose_keys() -> None:
    result = bench_profiles.run(quick=True)
    tokens = result["tokens"]
    for measure in ("block_tokens", "call_tokens"):
        assert tokens[measure]["profile"] > 0 and tokens[measure]["loose"] > 0
    assert (
        tokens["block_ratio"] == tokens["block_tokens"]["profile"] / tokens["block_tokens"]["loose"]
    )
    assert [r["store"] for r in result["rows"]] == ["memory", "filesystem", "sqlite"]
    for row in result["rows"]:
        for name in ("compile_loose_s", "compile_profile_s", "edit_loose_s", "edit_profile_s"):
            assert finite_positive(row[name])
    check_goals(result["goals"])


def test_selection_bench_times_the_selector_and_the_compile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = importlib.import_module("benchmarks.bench_selection")
    result = module.run(quick=True)
    json.dumps(result, default=str)
    figures = result["figures"]
    assert result["name"] == "selection" and figures["entries"] == module.QUICK_SIZE
    for query in ("keyword", "hybrid"):
        assert set(figures[query]) == {"unchanged", "after_write", "scratch"}
        assert all(finite_positive(value) for value in figures[query].values())
    assert set(figures["compile"]) == {"plain", "keyword", "hybrid"}
    assert all(finite_positive(value) for value in figures["compile"].values())
    assert result["goals"] == []  # quick runs state no goals
    out = capsys.readouterr().out
    assert "Relevant's own time" in out and "| compile" in out
