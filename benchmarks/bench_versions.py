"""The cost of atomic writes and the exact turn clock, against an earlier version (issue 13).

Needs a checkout of the package as it was before (the `baseline` argument, `--baseline PATH`
on the command line: a folder whose `langchain_contextchef/` is the earlier code, e.g. a git
worktree at an older commit). Without one the bench prints a note and measures nothing.

Each side runs in child processes of its own (`benchmarks/_versions_child.py`, with
`PYTHONPATH` set to the side's folder), alternating baseline, current, current, baseline, ...
so drift hits both alike. A child fills one scope with 100 entries through the package, then
times rounds of: `handle_tool` create of a new key, `handle_tool` update of it (both now
inside the scope's exclusive section with the stamp advance), a compile right after those
writes, and a compile of the unchanged scope (both now claiming their turn inside the
section), and a compile of a second scope of 100 entries written straight into the store
(no stamp: data from before this version, or written behind the package's back; the current
version gives it one at its first compile and reuses its cache from then on). The figure
per backend and operation is the median over children of each child's
median, and the ratio current / baseline. Garbage collector on.

No goal: issue 13 asks for the cost to be shown. PostgreSQL rows need a server (`pg`,
`--pg URI` or `CONTEXTCHEF_PG_URI`); every child gets a scratch database of its own.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks._fixtures import ALL_KINDS
from benchmarks._pg import NO_SERVER_NOTE, pg_uri, scratch_database
from benchmarks._timing import fmt_ratio, fmt_seconds, print_table, ratio

OPERATIONS = (
    "create",
    "update",
    "compile after write",
    "compile unchanged",
    "compile, written behind",
)
ENTRIES = 100
_ROOT = Path(__file__).resolve().parents[1]
_CHILD = Path(__file__).resolve().parent / "_versions_child.py"

NO_BASELINE_NOTE = (
    "Baseline comparison skipped: no baseline given (pass --baseline PATH, a folder holding "
    "the earlier langchain_contextchef package)."
)


def _spawn(root: Path, kind: str, spec: dict[str, Any], server: str | None) -> dict[str, Any]:
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        db = stack.enter_context(scratch_database(server)) if kind == "postgres" else None
        payload = json.dumps({**spec, "kind": kind, "folder": folder, "db": db})
        env = {**os.environ, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, str(_CHILD), payload],
            cwd=folder,  # nothing of this repository on the path but what PYTHONPATH names
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"versions child ({root.name}, {kind}) failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["package"]).resolve() != root.resolve():
        raise RuntimeError(
            f"the child imported the package from {result['package']}, not {root}: "
            "is the other copy installed in a way that shadows PYTHONPATH?"
        )
    return result


def run(
    quick: bool = False, pg: str | None = None, baseline: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """Time model writes and compiles, baseline vs current, per backend; print a table.

    Args:
        quick: One child per side and a few rounds: a smoke run, not a measurement.
        pg: A PostgreSQL server URI (else `CONTEXTCHEF_PG_URI`; without either the
            PostgreSQL rows are skipped with a note).
        baseline: The folder holding the earlier `langchain_contextchef` package; without it
            nothing is measured and the result says why.

    Returns:
        `{"name", "rows", "goals", "notes", "skipped"}`; each row has `store`, `operation`,
        `baseline_s`, `current_s` and `ratio`.
    """
    skipped: list[str] = []
    if baseline is None:
        print(f"\n- {NO_BASELINE_NOTE}")
        return {
            "name": "versions",
            "rows": [],
            "goals": [],
            "notes": [],
            "skipped": [NO_BASELINE_NOTE],
        }
    base = Path(baseline).resolve()
    if not (base / "langchain_contextchef" / "__init__.py").is_file():
        raise ValueError(f"{base} holds no langchain_contextchef package; pass its parent folder")
    server = pg_uri(pg)
    if server is None:
        skipped.append(NO_SERVER_NOTE)
    kinds = [k for k in ALL_KINDS if k != "postgres" or server is not None]
    spec = {"entries": 20 if quick else ENTRIES, "rounds": 3 if quick else 40}
    pairs = 1 if quick else 3
    sides = {"baseline": base, "current": _ROOT}
    rows: list[dict[str, Any]] = []
    for kind in kinds:
        medians: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
        for pair in range(pairs):
            order = ("baseline", "current") if pair % 2 == 0 else ("current", "baseline")
            for side in order:
                medians[side].append(_spawn(sides[side], kind, spec, server)["medians"])
        for op in OPERATIONS:
            before = statistics.median(m[op] for m in medians["baseline"])
            now = statistics.median(m[op] for m in medians["current"])
            rows.append(
                {
                    "store": kind,
                    "operation": op,
                    "baseline_s": before,
                    "current_s": now,
                    "ratio": ratio(now, before),
                }
            )
    notes = [
        f"{spec['entries']} entries written through the package; {spec['rounds']} rounds per "
        f"child; {pairs} children per side, alternating; median of the children's medians.",
        "create/update: chef.handle_tool; now inside the scope's exclusive section, with the "
        "scope's stamp advanced in the same batch.",
        "compile after write: the first compile after those writes; compile unchanged: the "
        "next one. Both now claim their turn inside the section; the current version also "
        "reuses its cache of the scope.",
        "compile, written behind: a scope whose entries were put straight into the store "
        "(as by an earlier version): it has no stamp; the current version gives it one at its "
        "first compile and then reuses its cache.",
        *skipped,
    ]
    print_table(
        "Atomic writes and the exact clock: baseline vs current (per backend)",
        ["store", "operation", "baseline", "current", "current / baseline"],
        [
            [
                r["store"],
                r["operation"],
                fmt_seconds(r["baseline_s"]),
                fmt_seconds(r["current_s"]),
                fmt_ratio(r["ratio"]),
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    return {"name": "versions", "rows": rows, "goals": [], "notes": notes, "skipped": skipped}


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_versions")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", default=None)
    parser.add_argument("--pg", default=None)
    options = parser.parse_args()
    run(quick=options.quick, pg=options.pg, baseline=options.baseline)
