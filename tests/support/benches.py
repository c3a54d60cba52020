"""Checks shared by the smoke runs of the benchmarks (shape only, never timings)."""

from __future__ import annotations

import math
from typing import Any


def finite_positive(value: Any) -> bool:
    """Whether `value` is a float a timing or size can be: finite and above zero."""
    return isinstance(value, float) and math.isfinite(value) and value > 0


def check_goals(goals: list[dict[str, Any]]) -> None:
    """Every goal a bench reports has a name, value, target and a boolean `met`."""
    for g in goals:
        assert set(g) == {"name", "value", "target", "met"}
        assert isinstance(g["met"], bool)
