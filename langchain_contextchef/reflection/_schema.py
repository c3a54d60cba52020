"""The shapes reflection exchanges: what the model proposes, and what the reflector reports.

`ReflectionCandidate` / `ReflectionResult` are the structured-output schema the model fills;
`coerce_result` reads whatever the model's structured output returned into candidates, one
item at a time, so a malformed item is refused on its own. `ReflectionOutcome` /
`ReflectionReport` record what the reflector did with each candidate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from pydantic import BaseModel, Field, ValidationError

from langchain_contextchef._literals import DEFAULT_MEMORY_TYPES
from langchain_contextchef.entry import MemoryEntry

__all__ = [
    "MEMORY_TYPES",
    "ReflectionAction",
    "ReflectionCandidate",
    "ReflectionOutcome",
    "ReflectionReport",
    "ReflectionResult",
    "coerce_result",
]

MEMORY_TYPES: tuple[str, ...] = tuple(DEFAULT_MEMORY_TYPES)
"""Every `MemoryType`, in the order the prompt explains them."""

ReflectionAction: TypeAlias = Literal["created", "updated", "skipped", "quarantined", "refused"]
"""What happened to one candidate (`quarantined`: stored for review by Memory's gate)."""


class ReflectionCandidate(BaseModel):
    """One memory the model proposes.

    The schema is loose on purpose (plain strings and floats): a malformed proposal must
    become a refused candidate in the report, not a parsing error that loses the others.
    """

    key: str = Field(description="Short kebab-case name of the memory, e.g. 'package-manager'.")
    value: str = Field(description="The memory itself, understandable without the chat.")
    type: str = Field(
        description="One of: " + ", ".join(MEMORY_TYPES) + ".",
        json_schema_extra={"enum": list(MEMORY_TYPES)},
    )
    description: str = Field(description="One line: when this memory is useful.")
    evidence: str = Field(description="A word-for-word quote from the user supporting it.")
    confidence: float = Field(description="From 0 to 1: how sure the memory is right.")
    supersedes: list[str] = Field(
        default_factory=list,
        description="Keys of existing memories this one replaces because they no longer hold.",
    )


class ReflectionResult(BaseModel):
    """What the reflection model returns: zero or more candidates."""

    candidates: list[ReflectionCandidate] = Field(
        default_factory=list,
        description="Memories worth keeping; empty when nothing is worth remembering.",
    )


def coerce_result(raw: Any) -> tuple[list[ReflectionCandidate | str], bool]:
    """Turn whatever structured output returned into candidates, or error strings per item.

    Returns:
        `(items, understood)`: each item is a candidate or the reason it is malformed;
        `understood` is `False` when `raw` is not a result at all.
    """
    if raw is None:
        return [], True
    if isinstance(raw, ReflectionResult):
        return list(raw.candidates), True
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if not isinstance(raw, Mapping):
        return [], False
    items = raw.get("candidates", [])
    if not isinstance(items, list):
        return [], False
    parsed: list[ReflectionCandidate | str] = []
    for item in items:
        try:
            parsed.append(ReflectionCandidate.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
            )
            parsed.append(f"the candidate is malformed ({problems})")
    return parsed, True


@dataclass(frozen=True)
class ReflectionOutcome:
    """What the reflector did with one candidate.

    Attributes:
        key: The key written or addressed (an existing key when the candidate matched one).
        action: `created`, `updated`, `skipped`, `quarantined` or `refused`.
        candidate: The candidate as the model proposed it (`None` if it did not parse).
        reason: Why it was skipped, quarantined or refused; `None` for plain writes.
        entry: The stored entry after a write (or a quarantine), else `None`.
    """

    key: str
    action: ReflectionAction
    candidate: ReflectionCandidate | None
    reason: str | None = None
    entry: MemoryEntry | None = None


@dataclass(frozen=True)
class ReflectionReport:
    """Everything one reflection did, candidate by candidate, in the model's order.

    Attributes:
        outcomes: One outcome per proposed candidate.
    """

    outcomes: tuple[ReflectionOutcome, ...] = field(default=())

    def _with(self, action: ReflectionAction) -> list[ReflectionOutcome]:
        return [o for o in self.outcomes if o.action == action]

    @property
    def created(self) -> list[ReflectionOutcome]:
        """Outcomes of candidates stored under a new key."""
        return self._with("created")

    @property
    def updated(self) -> list[ReflectionOutcome]:
        """Outcomes of candidates that rewrote an existing key."""
        return self._with("updated")

    @property
    def skipped(self) -> list[ReflectionOutcome]:
        """Outcomes of candidates that changed nothing (same value, or repeated)."""
        return self._with("skipped")

    @property
    def quarantined(self) -> list[ReflectionOutcome]:
        """Outcomes of candidates stored for review, never injected until approved."""
        return self._with("quarantined")

    @property
    def refused(self) -> list[ReflectionOutcome]:
        """Outcomes of candidates that failed a check; each has a reason."""
        return self._with("refused")

    @property
    def created_keys(self) -> list[str]:
        """Keys created, in order."""
        return [o.key for o in self.created]

    @property
    def updated_keys(self) -> list[str]:
        """Keys updated, in order."""
        return [o.key for o in self.updated]
