"""The write gate's size and count limits, and how a finding about one is worded.

Limits always reject: a value too long to store has nothing a placeholder could fix. Each
reason states the size, the limit and what to do instead, with thousands separators, and
never quotes the write.
"""

from __future__ import annotations

from benchmarks._gate_today._types import Finding, WriteCandidate

__all__ = ["limit_findings"]


def _format_count(number: int) -> str:
    return f"{number:,}"


def _limit_finding(name: str, what: str, size: int, limit: int, advice: str) -> Finding:
    return Finding(
        detector=name,
        category="limit",
        reason=(
            f"the {what} is {_format_count(size)} characters; the limit is "
            f"{_format_count(limit)}. {advice}"
        ),
        field="description" if what == "description" else "value",
    )


def limit_findings(
    candidate: WriteCandidate,
    *,
    max_value_chars: int | None,
    max_description_chars: int | None,
    max_entries: int | None,
    max_note_chars: int | None,
) -> list[Finding]:
    """The limits `candidate` breaks, as findings (`None` turns a limit off).

    Args:
        candidate: The write, with the entry count the entry limit needs.
        max_value_chars: Longest memory value.
        max_description_chars: Longest description.
        max_entries: Most entries a scope may hold; only new memory keys count against it.
        max_note_chars: Longest note; notes are held to this limit only.

    Returns:
        One finding per broken limit, in the order above (notes: at most one).
    """
    found: list[Finding] = []
    if candidate.kind == "notes":
        if max_note_chars is not None and len(candidate.value) > max_note_chars:
            found.append(
                _limit_finding(
                    "max_note_chars",
                    "note",
                    len(candidate.value),
                    max_note_chars,
                    "Split it into several notes.",
                )
            )
        return found
    if max_value_chars is not None and len(candidate.value) > max_value_chars:
        found.append(
            _limit_finding(
                "max_value_chars",
                "value",
                len(candidate.value),
                max_value_chars,
                "Store a summary, or split it into several entries.",
            )
        )
    description = candidate.description or ""
    if max_description_chars is not None and len(description) > max_description_chars:
        found.append(
            _limit_finding(
                "max_description_chars",
                "description",
                len(description),
                max_description_chars,
                "Say in one sentence what the entry is for.",
            )
        )
    if max_entries is not None and candidate.is_new and candidate.entry_count >= max_entries:
        found.append(
            Finding(
                detector="max_entries",
                category="limit",
                reason=(
                    f"memory holds {_format_count(candidate.entry_count)} entries; the limit "
                    f"is {_format_count(max_entries)}. Update an existing entry, or "
                    "delete one that is no longer needed, then try again."
                ),
            )
        )
    return found
