"""The data of the write gate: what it judges and what it says.

`WriteCandidate` is what it judges; `Finding` and `GateDecision` are what it says. Public
through `benchmarks._gate_today`; kept apart so the second-line check (`_model`)
and the gate itself can both use them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from langchain_contextchef.entry import Provenance, WrittenBy

__all__ = [
    "Finding",
    "FindingField",
    "GateAction",
    "GateDecision",
    "Policy",
    "WriteCandidate",
    "WriteKind",
]

GateAction: TypeAlias = Literal["allow", "redact", "quarantine", "reject"]
"""What happens to a write: stored as is, stored with placeholders, held for review, refused."""

Policy: TypeAlias = Literal["redact", "quarantine", "reject"]
"""What a category of findings does to a write."""

FindingField: TypeAlias = Literal["value", "description", "key", "type"]
"""The part of the write a finding points into."""

WriteKind: TypeAlias = Literal["memory", "notes"]
"""Where the write goes: a memory entry (`context://memory/...`) or a note
(`context://notes/...`)."""

RANK: dict[GateAction, int] = {"allow": 0, "redact": 1, "quarantine": 2, "reject": 3}
POLICIES = ("redact", "quarantine", "reject")


@dataclass(frozen=True)
class Finding:
    """One problem the gate found in a write.

    Attributes:
        detector: Name of the detector or check, e.g. `openai_key` or `max_value_chars`.
        category: `secret`, `injection`, `limit`, `policy`, `review` (the second line could
            not judge), or a custom category.
        reason: Text safe to show the model; it never contains the matched text. For `secret`
            and `injection` findings it is a noun phrase ("an API key (OpenAI format)") that
            messages render as "the value contains ..."; for every other category it is a
            full clause, ideally saying what to do instead.
        span: `(start, end)` of the problem in the checked field, or `None` when the finding
            is about the write as a whole. A finding without a span cannot be redacted.
        field: Which part of the write the span refers to.
    """

    detector: str
    category: str
    reason: str
    span: tuple[int, int] | None = None
    field: FindingField = "value"


@dataclass(frozen=True)
class WriteCandidate:
    """A write the gate is asked to judge, before it reaches the store.

    Attributes:
        key: The entry's key; for a note, its path inside `notes/` (e.g. `plans/q3.md`).
        value: The text to remember; for a note, the whole text after the edit.
        description: What the entry is for, if given.
        type: The memory type (`preference`, `fact`, `rule`, ...), if given.
        provenance: Where the fact came from, if known.
        written_by: Who is writing: the model, the developer, a reflector or an import.
        is_new: Whether the key does not exist yet in the scope (an insert, not an update).
        entry_count: How many entries the scope held before this write.
        kind: `memory` for an entry, `notes` for a note (notes have no description or type,
            do not count against `max_entries`, and are limited by `max_note_chars`).

    Example:
        ```python
        from benchmarks._gate_today import DEFAULT_GATE, WriteCandidate

        note = WriteCandidate.note("plans/q3.md", "Ship the importer, then the CLI.")
        assert note.kind == "notes" and note.key == "plans/q3.md"
        assert DEFAULT_GATE.check(note).action == "allow"
        ```
    """

    key: str
    value: str
    description: str | None = None
    type: str | None = None
    provenance: Provenance | None = None
    written_by: WrittenBy = "model"
    is_new: bool = True
    entry_count: int = 0
    kind: WriteKind = "memory"

    @classmethod
    def note(
        cls,
        path: str,
        text: str,
        *,
        provenance: Provenance | None = None,
        written_by: WrittenBy = "model",
        is_new: bool = True,
    ) -> WriteCandidate:
        """A note write: `path` inside `notes/` and the note's whole text after the edit.

        Args:
            path: The note's path without the `context://notes/` root, e.g. `plans/q3.md`.
            text: The complete text the note will hold (for `str_replace`/`insert`, the
                result of the edit, so a secret assembled piece by piece is still seen).
            provenance: Where the write came from, if known.
            written_by: Who is writing.
            is_new: Whether the note does not exist yet.

        Returns:
            The candidate, with `kind="notes"`.
        """
        return cls(
            key=path,
            value=text,
            provenance=provenance,
            written_by=written_by,
            is_new=is_new,
            kind="notes",
        )


_SECRET_ADVICE = (
    "Secrets are never stored in memory; store a reference to where the secret lives instead "
    "(for example the vault entry or environment variable that holds it)."
)
_INJECTION_ADVICE = (
    "Memory holds facts, preferences and decisions, not instructions to the assistant; restate "
    "the fact in plain words, without role or tool-call markup, override phrases or hidden "
    "characters."
)
_CONTAINS_CATEGORIES = ("secret", "injection")
_NOTE_FIELDS = {"value": "note", "key": "path"}


def _join_phrases(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def _describe(findings: Sequence[Finding], kind: WriteKind) -> tuple[list[str], set[str]]:
    """Turn findings into model-facing clauses (deduplicated, in order) and their categories."""
    contains: dict[str, list[str]] = {}
    clauses: list[str] = []
    slots: dict[str, int] = {}
    for finding in findings:
        if finding.category in _CONTAINS_CATEGORIES:
            phrases = contains.setdefault(finding.field, [])
            if finding.reason not in phrases:
                phrases.append(finding.reason)
            if finding.field not in slots:
                slots[finding.field] = len(clauses)
                clauses.append("")
        else:
            clause = finding.reason.rstrip(". ")
            if clause not in clauses:
                clauses.append(clause)
    for name, index in slots.items():
        noun = _NOTE_FIELDS.get(name, name) if kind == "notes" else name
        clauses[index] = f"the {noun} contains {_join_phrases(contains[name])}"
    return clauses, {finding.category for finding in findings}


@dataclass(frozen=True)
class GateDecision:
    """The gate's verdict on one write.

    Attributes:
        action: `allow`, `redact`, `quarantine` or `reject` (the strictest finding wins).
        value: The value to store: the original, or with placeholders such as
            `[REDACTED:api_key]` where a redact policy applied.
        description: The description to store, redacted the same way.
        findings: Every problem found, in field and position order.
        kind: Whether the write was a memory entry or a note (only changes the wording).
    """

    action: GateAction
    value: str
    description: str | None
    findings: tuple[Finding, ...] = field(default=())
    kind: WriteKind = "memory"

    @property
    def stored(self) -> bool:
        """Whether the write reaches the store at all (anything but `reject`)."""
        return self.action != "reject"

    @property
    def injectable(self) -> bool:
        """Whether the stored entry may be shown to the model (`allow` or `redact`)."""
        return self.action in ("allow", "redact")

    def reason(self, address: str) -> str:
        """Why a refused or quarantined write was blocked, as a bare clause (no `Error: `).

        It says what was wrong and what to do, and never contains the offending text. Callers
        that compose their own sentence use this; a tool result uses `error_message`.

        Args:
            address: How the model names the entry, e.g. `context://memory/api-notes`.

        Returns:
            The clause, starting with "the write to <address> was refused" (or "quarantined").

        Raises:
            ValueError: If the write was allowed or redacted; use `notice()` for those.

        Example:
            ```python
            from benchmarks._gate_today import WriteCandidate, WriteGate

            candidate = WriteCandidate(key="aws", value="deploy key AKIAABCDEFGHIJKLMNOP")
            decision = WriteGate().check(candidate)
            clause = decision.reason("context://memory/aws")
            assert clause.startswith("the write to context://memory/aws was refused: ")
            assert "AKIA" not in clause
            assert decision.error_message("context://memory/aws") == "Error: " + clause
            ```
        """
        self._refuse_unblocked("reason")
        clauses, categories = _describe(self.findings, self.kind)
        verb = "refused" if self.action == "reject" else "quarantined"
        parts = [f"the write to {address} was {verb}: {'; '.join(clauses)}."]
        if "secret" in categories:
            parts.append(_SECRET_ADVICE)
        if "injection" in categories:
            parts.append(_INJECTION_ADVICE)
        if self.action == "quarantine":
            parts.append(
                "It is held for review and stays out of memory until a developer approves it; "
                "do not write it again."
            )
        return " ".join(parts)

    def error_message(self, address: str) -> str:
        """Model-facing text for a refused or quarantined write: `"Error: "` + `reason`.

        Args:
            address: How the model names the entry, e.g. `context://memory/api-notes`.

        Returns:
            The message to return as the tool result.

        Raises:
            ValueError: If the write was allowed or redacted; use `notice()` for those.
        """
        self._refuse_unblocked("error_message")
        return "Error: " + self.reason(address)

    def _refuse_unblocked(self, method: str) -> None:
        if self.action in ("allow", "redact"):
            msg = (
                f"GateDecision.{method}() is only for rejected or quarantined writes; this "
                f"write was {self.action}ed. Call notice() to tell the model about redactions."
            )
            raise ValueError(msg)

    def notice(self, address: str) -> str | None:
        """Model-facing note for a redacted write, or `None` when there is nothing to say.

        Args:
            address: How the model names the entry, e.g. `context://memory/api-notes`.

        Returns:
            For `redact`, a sentence saying what was replaced; otherwise `None`.
        """
        if self.action != "redact":
            return None
        clauses, _ = _describe(self.findings, self.kind)
        return (
            f"Note: the write to {address} was stored with parts replaced by [REDACTED:...] "
            f"placeholders because {'; '.join(clauses)}. Secrets and instructions are never "
            f"kept in memory."
        )
