"""What memory operations report back: `WriteResult`, `CompileRead`, `ForgetReceipt`.

Results are data. A `WriteResult` says exactly what a model-path write did; its texts for
the model come from `memory._texts`, the one module that words outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeAlias

from langchain_contextchef._context_paths import memory_uri
from langchain_contextchef._literals import ToolVocabulary
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import _texts as texts
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.memory._texts import Refusal

if TYPE_CHECKING:
    from langchain_contextchef.consent import Proposal

__all__ = [
    "CompileRead",
    "ForgetReceipt",
    "PurgeReport",
    "PurgeSummary",
    "Refusal",
    "WriteResult",
    "WriteStatus",
]

WriteStatus: TypeAlias = Literal[
    "created",
    "updated",
    "deleted",
    "quarantined",
    "not_allowed",
    "not_found",
    "already_exists",
    "vetoed",
    "refused",
    "stale",
    "proposed",
    "rejected",
]


@dataclass(frozen=True)
class WriteResult:
    """What a model-path write did.

    Attributes:
        status: `created`, `updated`, `deleted` (success); `quarantined` (stored for review,
            never shown to the model); or `not_allowed`, `not_found`, `already_exists`,
            `vetoed`, `refused` (the gate, a bad type or supersede target), `stale` (a
            compare-and-set named an old version), which leave the store unchanged;
            `proposed` (held for a person's consent: stored as a proposal, not applied) or
            `rejected` (the person declined it).
        key: The key the write addressed (for `not_allowed`, the key that is not allowed).
        entry: The entry after the write; for `already_exists` and `stale` the current one.
        allowed_keys: The allowed keys, for `not_allowed` messages.
        refusal: Why a `refused`, `stale` or `quarantined` write did not happen as asked.
        notice: For a successful write the gate redacted: a note for the model.
        superseded: Keys this write retired into history.
        proposal: The consent proposal behind a `proposed` or `rejected` write, or behind a
            write a person approved or edited.
    """

    status: WriteStatus
    key: str
    entry: MemoryEntry | None = None
    allowed_keys: tuple[str, ...] | None = None
    refusal: Refusal | None = None
    notice: str | None = None
    superseded: tuple[str, ...] = ()
    proposal: Proposal | None = None

    @property
    def ok(self) -> bool:
        """Whether the write happened and the model may see it."""
        return self.status in ("created", "updated", "deleted")

    @property
    def stored(self) -> bool:
        """Whether the store changed (a quarantined write is stored but not `ok`)."""
        return self.ok or self.status == "quarantined"

    @property
    def message(self) -> str | None:
        """For `refused`, `quarantined` and `stale`: the `Error: ...` text for the model."""
        return texts.error(self.refusal) if self.refusal is not None else None

    def for_model(self, success: str, *, vocabulary: ToolVocabulary) -> str:
        """The tool result for this write: `success` plus notes, or the `Error: ...` text.

        Args:
            success: What to say when the write happened, e.g. `Created context://memory/k.`
            vocabulary: The tools the model has (`legacy` for `create_memory` and
                `modify_memory`, `unified` for `context`); a text that names a tool names
                one of these.

        Returns:
            The text to hand back to the model.
        """
        if self.refusal is not None and not self.ok:  # gate, type, supersede, stale, held
            return texts.error(self.refusal)
        uri = memory_uri(self.key)
        done = success
        if self.superseded:
            done += " " + texts.superseded(self.superseded)
        if self.notice:
            done += " " + self.notice
        if self.proposal is not None:
            consented = texts.consent_text(self.status, self.proposal, done)
            if consented is not None:
                return consented
        match self.status:
            case "not_allowed":
                return texts.not_allowed(self.key, self.allowed_keys)
            case "already_exists":
                return texts.already_exists(uri, vocabulary)
            case "not_found":
                return texts.nothing_at(uri)
            case "vetoed":
                return texts.vetoed(self.key)
        return done


@dataclass(frozen=True)
class ForgetReceipt:
    """Proof of `Memory.forget`: what was deleted, and a re-read showing nothing is left.

    Attributes:
        scope: The scope that was forgotten.
        deleted: Items deleted per namespace label (`memory`, `memory_history`, ...).
        remaining: Items found per label by the re-read after the deletes (all zero if verified).
        verified: Whether the re-read found nothing left in any of the namespaces.
    """

    scope: tuple[str, ...]
    deleted: dict[str, int]
    remaining: dict[str, int]
    verified: bool

    @property
    def total(self) -> int:
        """How many items were deleted in all."""
        return sum(self.deleted.values())


@dataclass(frozen=True)
class CompileRead:
    """What one compile learned from memory, after sweep, advance and selection.

    Attributes:
        selected: The entries to inject, in the selector's order.
        entries: Every surviving entry, in creation order.
        expired_keys: Keys the sweep deleted, in creation order.
        turn: The turn clock after this compile advanced it (= compiles completed).
        unselected: Active entries the selector left out, in creation order.
        omitted: Why each surviving entry is not in `selected`: `"selector"`, its status
            (`"quarantined"`), or `"damaged"`.
        evicted_keys: Keys evicted (over `max_entries`) since the previous compile.
        damaged_keys: Keys whose stored data cannot be read; skipped (see `DamagedEntryError`).
        repaired: Scope items this compile found damaged and rewrote: `"clock"` when the turn
            clock was not a turn (recovered from the entries, see `CompileMeta.repaired`).
        reuse: When the selection above is the one kept for the scope's entries as they
            stand, the process's slot that keeps it: later steps may keep what they derive
            from it there too (`reuse.remember`). `None` when anything changed.
        reuse_key: What the kept selection depends on besides the entries (the config, and
            the query for a relevance selector): a step keeping what it derives from the
            selection keys it by this too.
    """

    selected: Sequence[MemoryEntry]
    entries: list[MemoryEntry]
    expired_keys: list[str]
    turn: int
    unselected: list[MemoryEntry] = field(default_factory=list)
    omitted: dict[str, str] = field(default_factory=dict)
    evicted_keys: list[str] = field(default_factory=list)
    damaged_keys: list[str] = field(default_factory=list)
    reuse: ScopeSlot | None = field(default=None, repr=False, compare=False)
    repaired: list[str] = field(default_factory=list)
    reuse_key: object = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class PurgeReport:
    """What a retention purge removed from one scope.

    Attributes:
        scope: The scope.
        removed: Keys of the entries retired (to history, or erased).
        erased: Whether they were erased (no history kept) rather than retired to history.
        history: History records dropped.
        audit: Audit records dropped.
        proposals: Consent proposals dropped (settled, or never answered).
    """

    scope: tuple[str, ...]
    removed: tuple[str, ...] = ()
    erased: bool = False
    history: int = 0
    audit: int = 0
    proposals: int = 0

    @property
    def total(self) -> int:
        """How many items the purge removed in all."""
        return len(self.removed) + self.history + self.audit + self.proposals


@dataclass(frozen=True)
class PurgeSummary:
    """What `purge_store` did across a store.

    Attributes:
        scopes: How many scopes were examined.
        reports: One report per scope that lost something, in scope order.
    """

    scopes: int
    reports: list[PurgeReport] = field(default_factory=list)

    @property
    def removed(self) -> int:
        """Entries retired across every scope."""
        return sum(len(r.removed) for r in self.reports)

    @property
    def total(self) -> int:
        """Items removed across every scope (entries, history, audit, proposals)."""
        return sum(r.total for r in self.reports)
