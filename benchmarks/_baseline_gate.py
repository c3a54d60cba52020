"""The write gate as it was at an earlier commit, loaded from git for the cost-per-write ratios.

`bench_gate` compares today's gate with the gate before the learned detector (the "today"
column: `langchain_contextchef/gate/` at `BASELINE_REVISION`) in the same run. Rather than keep
a second copy of the gate's source in the repository, the package is read out of git into a
temporary folder under another name (its own imports renamed), and imported from there. A
checkout without that history (a shallow clone, an sdist) gets `None`, and the bench prints no
"today" column.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REVISION = "c714442"
"""The last commit before the learned injection detector (the gate just made a package)."""

_PACKAGE = "langchain_contextchef.gate"
_NAME = "_contextchef_gate_baseline"


def _git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, check=True).stdout


def load_baseline_gate(revision: str = BASELINE_REVISION) -> ModuleType | None:
    """Import `langchain_contextchef.gate` as it was at `revision`, or `None` without history."""
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    folder = _PACKAGE.replace(".", "/")
    try:
        paths = _git("ls-tree", "-r", "--name-only", revision, folder).decode().split()
    except (OSError, subprocess.CalledProcessError):
        return None
    if not paths:
        return None
    target = Path(tempfile.mkdtemp(prefix="gate-baseline-"))
    for path in paths:
        content = _git("show", f"{revision}:{path}")
        destination = target / _NAME / Path(path).relative_to(folder)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.endswith(".py"):
            content = content.replace(_PACKAGE.encode(), _NAME.encode())
        destination.write_bytes(content)
    sys.path.insert(0, str(target))
    return importlib.import_module(_NAME)
