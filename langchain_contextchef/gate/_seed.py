"""The check behind `seed_policy`: provenance, a source, enough confidence, not restricted data.

`gate.seed_policy` wraps this check in a `CustomCheck`. Each reason tells the model what the
write lacks and what to do about it, so a refused write can be retried correctly.
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_contextchef.gate._types import Finding, WriteCandidate

__all__ = ["seed_findings"]


def seed_findings(
    min_confidence: float, require_source: bool
) -> Callable[[WriteCandidate], list[Finding]]:
    """The `seed_policy` check (arguments as `gate.seed_policy`, already checked there)."""

    def check(candidate: WriteCandidate) -> list[Finding]:
        provenance = candidate.provenance
        if provenance is None:
            return [
                Finding(
                    "seed_policy",
                    "policy",
                    "the write has no provenance; record where the fact came from and how "
                    "confident you are in it",
                )
            ]
        found: list[Finding] = []
        if require_source and not provenance.source:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    "the write names no source; say which message or document the fact comes from",
                )
            )
        confidence = provenance.confidence
        if confidence is None:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    f"the write has no confidence; the minimum is {min_confidence:g}. Store "
                    "only facts the user stated or confirmed",
                )
            )
        elif confidence < min_confidence:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    f"the confidence is {confidence:g}; the minimum is {min_confidence:g}. "
                    "Store only facts the user stated or confirmed, or ask the user first",
                )
            )
        if (provenance.sensitivity or "").strip().lower() == "restricted":
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    "the data is marked restricted; restricted data is never stored in memory",
                )
            )
        return found

    return check
