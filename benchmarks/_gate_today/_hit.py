"""What every detector of the write gate returns: a `Hit`, a span in the original text.

Detectors run on several views of one text (folded, reversed, decoded, collapsed); each view
maps its offsets back to the original, so a hit always points into the text the caller holds
and redaction cuts exactly what was found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Hit", "HitCategory"]

HitCategory = Literal["secret", "injection"]


@dataclass(frozen=True)
class Hit:
    """One match of a built-in detector in a piece of text.

    Attributes:
        detector: Stable detector name, e.g. `openai_key`.
        category: `secret` or `injection`.
        reason: Noun phrase safe to show the model, e.g. "an API key (OpenAI format)".
        label: Redaction label used in the placeholder `[REDACTED:<label>]`; empty means
            the span is removed rather than replaced (invisible characters).
        start: Start offset in the original text.
        end: End offset (exclusive) in the original text.
    """

    detector: str
    category: HitCategory
    reason: str
    label: str
    start: int
    end: int

    def moved(self, start: int, end: int, *, reason: str | None = None) -> Hit:
        """The same finding at another span (a view's offsets mapped back), maybe reworded."""
        return Hit(
            self.detector,
            self.category,
            self.reason if reason is None else reason,
            self.label,
            start,
            end,
        )
