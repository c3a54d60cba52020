"""One reflection in progress: what it has seen so far, and the verdict on each candidate.

A reflection judges the model's candidates in order, and each verdict depends on the ones
before it: a key written by an earlier candidate exists for the later ones, and a second
candidate for the same (normalised) key is skipped. `ReflectionRun` keeps that state in one
visible place instead of threading it through parameters, and `ReflectionRun.judge` is the
per-candidate plan: check the form, find the evidence, resolve the key, apply the gate,
write through `Memory`'s model path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

import langchain_contextchef.memory._texts as texts
from langchain_contextchef._plan import Plan
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.gate import WriteCandidate, WriteGate
from langchain_contextchef.memory import Memory, WriteResult
from langchain_contextchef.memory._plans import edit_profile, model_write
from langchain_contextchef.memory._texts import Refusal
from langchain_contextchef.profiles import (
    ProfileEditError,
    apply_edit,
    field_edit,
    load_document,
    parse_edit,
    validate_document,
)
from langchain_contextchef.reflection._evidence import find_source, normalise_key, source_of
from langchain_contextchef.reflection._schema import (
    MEMORY_TYPES,
    ReflectionAction,
    ReflectionCandidate,
    ReflectionOutcome,
)

__all__ = ["ReflectionRun"]


@dataclass
class ReflectionRun:
    """The state of one reflection over one conversation, and the plan that judges a candidate.

    Attributes:
        memory: The memory written to.
        messages: The conversation the evidence must come from.
        gate: The gate the reflector applies itself (`None`: Memory's own gate judges).
        evidence_roles: Message types the evidence must occur in (`None`: no check).
        min_confidence: Candidates below this confidence are refused.
        existing: Key -> entry as stored now; a write in this run replaces the entry, so a
            later candidate sees it.
        by_norm: Normalised key -> stored key, so another spelling becomes an update.
        seen: Normalised keys an earlier candidate of this run already addressed.
    """

    memory: Memory
    messages: Sequence[BaseMessage]
    gate: WriteGate | None
    evidence_roles: tuple[str, ...] | None
    min_confidence: float
    existing: dict[str, MemoryEntry] = field(default_factory=dict)
    by_norm: dict[str, str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    def know(self, entries: Sequence[MemoryEntry]) -> None:
        """Take in what the memory holds before the first candidate."""
        for entry in entries:
            self.existing[entry.key] = entry
            self.by_norm[normalise_key(entry.key)] = entry.key

    def judge(self, candidate: ReflectionCandidate) -> Plan[ReflectionOutcome]:
        """Decide one candidate, write it when it passes, and remember what was written."""
        outcome = yield from self._decide(candidate)
        if outcome.entry is not None:
            self.existing[outcome.key] = outcome.entry
            self.by_norm.setdefault(normalise_key(outcome.key), outcome.key)
        return outcome

    # ---- the steps of one verdict -------------------------------------------------------------

    def _decide(self, candidate: ReflectionCandidate) -> Plan[ReflectionOutcome]:
        def refuse(reason: str, key: str | None = None) -> ReflectionOutcome:
            return ReflectionOutcome(key or candidate.key, "refused", candidate, reason)

        key = candidate.key.strip()
        value = candidate.value.strip()
        kind = candidate.type.strip().lower()
        norm = normalise_key(key)
        profiles = self.memory.config.profile_schemas
        profile = profiles.split(key) if profiles is not None else None
        # A profile carries its own type: the candidate's type is not checked against it.
        problem = self._malformed(
            candidate, key, value, kind if profile is None else MEMORY_TYPES[0], norm
        )
        if problem is not None:
            return refuse(problem)

        if self.evidence_roles is not None:
            source_message = find_source(candidate.evidence, self.messages, self.evidence_roles)
            if source_message is None:
                roles = ", ".join(self.evidence_roles)
                return refuse(
                    f"the evidence quote does not occur in any message of role {roles}; "
                    "memories must rest on what was actually said there"
                )
        else:
            source_message = find_source(candidate.evidence, self.messages, ("human", "ai"))

        if profile is not None:
            return (yield from self._profile(candidate, profile, value, source_message))

        # An existing key, spelled exactly or differently, turns the candidate into an update.
        target = key if key in self.existing else self.by_norm.get(norm, key)
        if norm in self.seen:
            return ReflectionOutcome(
                target, "skipped", candidate, "an earlier candidate already wrote this key"
            )
        self.seen.add(norm)
        current = self.existing.get(target)
        if current is not None and current.value.strip() == value:
            return ReflectionOutcome(target, "skipped", candidate, "the value is unchanged")

        provenance = Provenance(
            written_by="reflection",
            confidence=candidate.confidence,
            source=source_of(candidate.evidence, source_message),
        )
        description: str | None = candidate.description.strip() or None
        if self.gate is not None:
            decision = self.gate.check(
                WriteCandidate(
                    key=target,
                    value=value,
                    description=description,
                    type=kind,
                    provenance=provenance,
                    written_by="reflection",
                    is_new=current is None,
                    entry_count=len(self.existing),
                )
            )
            if decision.action == "reject":
                return refuse(texts.reason(Refusal("gate", target, decision=decision)), target)
            if decision.action == "quarantine":
                # Only a Memory with its own gate can hold an entry for review.
                return refuse(
                    "the write gate would quarantine it for review, and this Memory cannot "
                    "hold entries for review, so nothing was stored",
                    target,
                )
            value, description = decision.value, decision.description

        result: WriteResult = yield from model_write(
            self.memory.context,
            target,
            value,
            description=description,
            provenance=provenance,
            must_exist=current is not None,
            type=kind,
            # Only a new key retires others: an update of a key already replaces its fact.
            supersedes=self._retired(candidate, target) if current is None else (),
        )
        for retired in result.superseded:  # gone from memory: later candidates cannot use it
            self.existing.pop(retired, None)
        return _outcome_of(result, target, candidate)

    def _profile(
        self,
        candidate: ReflectionCandidate,
        profile: tuple[str, str],
        value: str,
        source_message: BaseMessage | None,
    ) -> Plan[ReflectionOutcome]:
        """Fill or update a profile: the value is an edit, or one field's value."""
        name, field = profile
        try:
            edits = field_edit(field, value) if field else [parse_edit(value)]
            if self._unchanged(name, edits):
                return ReflectionOutcome(name, "skipped", candidate, "the profile is unchanged")
        except ProfileEditError as problem:
            return ReflectionOutcome(
                name, "refused", candidate, f"the profile {name} was not changed: {problem}"
            )
        provenance = Provenance(
            written_by="reflection",
            confidence=candidate.confidence,
            source=source_of(candidate.evidence, source_message),
        )
        result = yield from edit_profile(
            self.memory.context, name, edits, provenance=provenance, gate=self.gate
        )
        return _outcome_of(result, name, candidate)

    def _unchanged(self, name: str, edits: Sequence[Any]) -> bool:
        """Whether the first edit that fits leaves the stored profile as it is."""
        current = self.existing.get(name)
        schemas = self.memory.config.profile_schemas
        if current is None or schemas is None:
            return False
        before = load_document(current.value)
        for edit in edits:
            try:
                return validate_document(schemas[name], apply_edit(before, edit)) == current.value
            except ProfileEditError:
                continue
        return False

    def _retired(self, candidate: ReflectionCandidate, target: str) -> tuple[str, ...]:
        # Keys the proposal names as replaced, spelled as they exist; unknown ones are dropped
        # (a reflector guessing a key must not turn a good memory into a refused one).
        found = (self.by_norm.get(normalise_key(k), k) for k in candidate.supersedes)
        return tuple(dict.fromkeys(k for k in found if k in self.existing and k != target))

    def _malformed(
        self, candidate: ReflectionCandidate, key: str, value: str, kind: str, norm: str
    ) -> str | None:
        """Why the candidate cannot be a memory as written, or `None` when it is well formed."""
        if not norm or "\x00" in key:
            return "the key is empty or has no letters or digits"
        if not value:
            return "the value is empty"
        allowed_types = self.memory.memory_types or MEMORY_TYPES
        if kind not in allowed_types:
            return f"the type {candidate.type!r} is not one of {', '.join(allowed_types)}"
        confidence = candidate.confidence
        if not 0.0 <= confidence <= 1.0:
            return f"the confidence {confidence!r} is outside 0..1"
        if confidence < self.min_confidence:
            return f"the confidence {confidence:g} is below {self.min_confidence:g}"
        return None


def _outcome_of(
    result: WriteResult, target: str, candidate: ReflectionCandidate
) -> ReflectionOutcome:
    """Word what the model-path write did as the candidate's outcome."""
    if result.status == "quarantined":
        # Stored for review by Memory's own gate; never injected until approved.
        reason = texts.reason(result.refusal) if result.refusal else "held for review"
        return ReflectionOutcome(target, "quarantined", candidate, reason, result.entry)
    if result.status == "proposed" and result.proposal is not None:
        reason = f"awaits the user's approval (proposal {result.proposal.id})"
        return ReflectionOutcome(target, "refused", candidate, reason)
    if not result.ok:
        if result.refusal is not None:
            reason = texts.reason(result.refusal)
        else:
            reason = f"memory refused the write ({result.status})"
            if result.allowed_keys is not None and result.status == "not_allowed":
                reason += f"; the allowed keys are {', '.join(result.allowed_keys)}"
        return ReflectionOutcome(target, "refused", candidate, reason)
    action: ReflectionAction = "created" if result.status == "created" else "updated"
    return ReflectionOutcome(target, action, candidate, None, result.entry)
