"""Test-session settings shared by the unit and integration tests.

Under pytest-xdist (`make test` runs `-n 2 --dist loadgroup`), every test marked `slow` (the
multi-process, crash, restart and server tests) joins one group and so one worker: they
start processes of their own and are sensitive to load, so two of them never run at once.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.xdist_group("processes"))
