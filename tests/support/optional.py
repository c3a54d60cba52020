"""What a test needs beyond the core dependencies: skip without it, fail under `CI=true`.

A developer who installed only part of the `test` group still gets a green run with the
reason of each skip; CI installs everything (`.ci/run`), so there a missing package or server
is a broken set-up and the test fails instead of hiding it.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

__all__ = ["fail_in_ci_else_skip", "require"]


def fail_in_ci_else_skip(reason: str) -> NoReturn:
    """Skip with `reason`, or fail with it when `CI=true`."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}: CI must run this test.")
    pytest.skip(reason, allow_module_level=True)


def require(module: str, install: str) -> ModuleType:
    """Import `module` for a test; without it skip (fail under `CI=true`) saying `install`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        fail_in_ci_else_skip(f"{module} is not installed ({install})")
