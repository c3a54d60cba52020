"""Watching the budget fit from tests: which fits taken again were spliced, not rendered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from langchain_contextchef.budget._again import LastFit


@contextmanager
def spliced_fits() -> Iterator[list[bool]]:
    """Note, for each fit taken again with `line_only`, whether its block was spliced."""
    made: list[bool] = []
    splice = LastFit.spliced

    def noting(self: LastFit, line: str) -> str | None:
        found = splice(self, line)
        made.append(found is not None)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LastFit, "spliced", noting)
        yield made
