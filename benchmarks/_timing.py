"""Shared helpers for the benchmarks: paired median timing, ratios, goals and tables.

Every speed figure in this folder is a ratio against a baseline measured in the same run, on
the same machine and store, so results compare across machines. Timings are interleaved
(baseline, subject, baseline, subject, ...) so that drift (a noisy neighbour, CPU frequency
changes, a growing page cache) hits both sides alike.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "flatten",
    "fmt_bytes",
    "fmt_ratio",
    "fmt_seconds",
    "goal",
    "load_average",
    "median_time",
    "paired_medians",
    "paired_samples",
    "print_goals",
    "print_table",
    "ratio",
]


def _once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn: Callable[[], object], *, repeats: int, warmup: int = 1) -> float:
    """Median wall time of `fn()` in seconds over `repeats` calls, after `warmup` calls."""
    for _ in range(warmup):
        fn()
    return statistics.median(_once(fn) for _ in range(repeats))


def paired_samples(
    fns: Mapping[str, Callable[[], object]], *, repeats: int, warmup: int = 1
) -> dict[str, list[float]]:
    """Wall times (seconds) of each function over `repeats` rounds, measured round-robin.

    Each round calls every function once, in the given order, so slow drift affects all of
    them equally. The garbage collector stays on: a collection that a call's allocations
    trigger is part of what that call costs a long-running process, so it is billed to the
    call that triggered it (pausing the collector hid up to half of a compile's time).
    """
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            samples[name].append(_once(fn))
    return samples


def paired_medians(
    fns: Mapping[str, Callable[[], object]], *, repeats: int, warmup: int = 1
) -> dict[str, float]:
    """Median wall time (seconds) of each function, measured round-robin, collector on
    (see `paired_samples`)."""
    samples = paired_samples(fns, repeats=repeats, warmup=warmup)
    return {name: statistics.median(values) for name, values in samples.items()}


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load averages, where the platform reports them."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def ratio(subject: float, baseline: float) -> float:
    """`subject / baseline`, or infinity when the baseline rounds to zero."""
    return subject / baseline if baseline > 0 else float("inf")


def fmt_ratio(value: float) -> str:
    """A ratio for a table: `1.23x`."""
    return f"{value:.2f}x"


def fmt_seconds(seconds: float) -> str:
    """A duration in the most readable unit: `812 us`, `3.41 ms`, `1.20 s`."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_bytes(count: float) -> str:
    """A byte count for a table: `512 B`, `3.4 KiB`, `12.0 MiB`."""
    if abs(count) < 1024:
        return f"{count:.0f} B"
    if abs(count) < 1024 * 1024:
        return f"{count / 1024:.1f} KiB"
    return f"{count / (1024 * 1024):.1f} MiB"


def goal(name: str, value: float, target: str, met: bool) -> dict[str, Any]:
    """One goal line for a bench result: what was measured, the target, and the verdict."""
    return {"name": name, "value": value, "target": target, "met": bool(met)}


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print a Markdown table (pasteable into a README) under a `###` title."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    print(f"\n### {title}\n")
    print(line(cells[0]))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print(line(row))


def print_goals(goals: Sequence[Mapping[str, Any]]) -> None:
    """Print each goal with its verdict, one per line."""
    for g in goals:
        verdict = "MET" if g["met"] else "MISSED"
        print(f"- goal {g['name']}: {g['value']:.4g} (target {g['target']}) -> {verdict}")


def flatten(result: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """`{"a": {"b": 1}}` -> `[("a.b", 1)]`: a result dict as table rows, for benches
    whose `run` does not print its own table."""
    rows: list[tuple[str, Any]] = []
    for key, value in result.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            rows.extend(flatten(value, path))
        elif isinstance(value, float):
            rows.append((path, f"{value:.4g}"))
        else:
            rows.append((path, value))
    return rows
