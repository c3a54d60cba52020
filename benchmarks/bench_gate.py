"""Benchmark the write gate: corpus figures and the cost of one `check`.

Run with `python benchmarks/bench_gate.py` (add `--quick` for a short run). Speed is reported
as a ratio against a baseline measured in the same run on the same values: `len(value)` plus
one trivial regex search, i.e. the least any write path does with a value.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate
from tests.support.gate_corpus import BENIGN, CORPUS, INJECTIONS, SECRETS

_TRIVIAL = re.compile(r"\d{6}")


def _corpus_figures() -> dict[str, Any]:
    def blocked(items: list[tuple[str, str, str]]) -> int:
        return sum(
            DEFAULT_GATE.check(WriteCandidate(key, value)).action in ("reject", "quarantine")
            for key, value, _ in items
        )

    refused = sum(
        DEFAULT_GATE.check(WriteCandidate(key, value)).action != "allow" for key, value, _ in BENIGN
    )
    return {
        "blocked_secrets": blocked(list(SECRETS)),
        "secrets": len(SECRETS),
        "blocked_injections": blocked(list(INJECTIONS)),
        "injections": len(INJECTIONS),
        "refused_benign": refused,
        "benign": len(BENIGN),
    }


def _median_seconds(fn: Any, values: list[str], repeats: int) -> float:
    """Median over `repeats` passes of the mean time of one call."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for value in values:
            fn(value)
        samples.append((time.perf_counter() - start) / len(values))
    return statistics.median(samples)


def _baseline(value: str) -> object:
    return len(value), _TRIVIAL.search(value)


def _gate(value: str) -> object:
    return DEFAULT_GATE.check(WriteCandidate("bench", value))


def run(quick: bool = False) -> dict[str, Any]:
    """Measure the corpus figures and the per-check cost; return them as a dict."""
    repeats = 5 if quick else 25
    values = [value for _, value, _ in CORPUS]
    # A value at the default size limit: the worst case the gate accepts.
    long_value = (" ".join(value for _, value, _ in BENIGN) * 3)[:4000]
    long_values = [long_value] * 10

    for fn in (_baseline, _gate):  # warm caches before measuring either side
        _median_seconds(fn, values, 1)

    results: dict[str, Any] = _corpus_figures()
    base = _median_seconds(_baseline, values, repeats)
    gate = _median_seconds(_gate, values, repeats)
    base_long = _median_seconds(_baseline, long_values, repeats)
    gate_long = _median_seconds(_gate, long_values, repeats)
    results.update(
        {
            "check_us": gate * 1e6,
            "baseline_us": base * 1e6,
            "ratio": gate / base,
            "check_4000_chars_us": gate_long * 1e6,
            "baseline_4000_chars_us": base_long * 1e6,
            "ratio_4000_chars": gate_long / base_long,
        }
    )
    return results


def main() -> None:
    r = run(quick="--quick" in sys.argv)
    print(f"blocked secrets     {r['blocked_secrets']}/{r['secrets']}")
    print(f"blocked injections  {r['blocked_injections']}/{r['injections']}")
    print(f"refused benign      {r['refused_benign']}/{r['benign']}")
    print(
        f"check, corpus value: median {r['check_us']:.1f} us vs baseline "
        f"{r['baseline_us']:.2f} us -> {r['ratio']:.0f}x"
    )
    print(
        f"check, 4,000 chars:  median {r['check_4000_chars_us']:.1f} us vs baseline "
        f"{r['baseline_4000_chars_us']:.2f} us -> {r['ratio_4000_chars']:.0f}x"
    )


if __name__ == "__main__":
    main()
