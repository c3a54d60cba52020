"""The privacy methods of `Memory`: consent proposals, the audit trail and retention purge.

A mixin, so `Memory` keeps one concern per file: each method is one plan run at the door
(`run` / `arun`), as in `_memory`.
"""

from __future__ import annotations

from typing import Any

from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.consent import ConsentDecision, Proposal
from langchain_contextchef.memory import _audit, _consent, _consent_apply, _retention
from langchain_contextchef.memory._checks import check_key
from langchain_contextchef.memory._door import Door
from langchain_contextchef.memory.config import COMPILE, DEVELOPER_WRITE
from langchain_contextchef.memory.results import PurgeReport, WriteResult

__all__ = ["PrivacyMethods"]


def _decision(value: Any, description: Any) -> ConsentDecision:
    if value is None:
        return ConsentDecision("approve")
    if not isinstance(value, str) or not value.strip():
        msg = f"value must be a non-empty string to store instead, got {value!r:.60}."
        raise ValueError(msg)
    return ConsentDecision("edit", value, description)


def _settled(result: tuple[Proposal, WriteResult]) -> WriteResult:
    return result[1]


class PrivacyMethods:
    """Consent, audit and retention on one scope (mixed into `Memory`)."""

    def proposals(self: Door) -> list[Proposal]:
        """The model writes that wait for a person's approval, oldest first.

        Example:
            ```python
            from langgraph.store.memory import InMemoryStore
            from langchain_contextchef import Memory, MemoryConfig
            from langchain_contextchef.consent import ConsentPolicy

            memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy()))
            memory.create_memory("city", "Oslo")
            (waiting,) = memory.proposals()
            assert (waiting.action, waiting.key, waiting.value) == ("create", "city", "Oslo")
            memory.reject_proposal(waiting.id, reason="not true")
            assert memory.proposals() == [] and memory.get("city") is None
            ```
        """
        return self.run(_consent.pending(self.context))

    async def aproposals(self: Door) -> list[Proposal]:
        """Async `proposals`."""
        return await self.arun(_consent.pending(self.context))

    def approve_proposal(
        self: Door, id: str, *, value: str | None = None, description: str | None = None
    ) -> WriteResult:
        """Apply a waiting proposal, as proposed or with your `value` (and `description`).

        Raises:
            ValueError: If no proposal `id` waits, or the entry changed since it was made.
        """
        plan = _consent_apply.settle(self.context, id, _decision(value, description))
        return _settled(self.run(plan, fires=DEVELOPER_WRITE))

    async def aapprove_proposal(
        self: Door, id: str, *, value: str | None = None, description: str | None = None
    ) -> WriteResult:
        """Async `approve_proposal`."""
        plan = _consent_apply.settle(self.context, id, _decision(value, description))
        return _settled(await self.arun(plan))

    def reject_proposal(self: Door, id: str, *, reason: str | None = None) -> WriteResult:
        """Drop a waiting proposal; nothing is written but the settled proposal and its audit.

        Raises:
            ValueError: If no proposal `id` waits.
        """
        plan = _consent_apply.settle(self.context, id, ConsentDecision("reject", reason=reason))
        return _settled(self.run(plan, fires=DEVELOPER_WRITE))

    async def areject_proposal(self: Door, id: str, *, reason: str | None = None) -> WriteResult:
        """Async `reject_proposal`."""
        plan = _consent_apply.settle(self.context, id, ConsentDecision("reject", reason=reason))
        return _settled(await self.arun(plan))

    def audit(self: Door, key: str | None = None) -> list[AuditRecord]:
        """The audit trail of this scope (of one key, when given), oldest first."""
        return self.run(_audit.read_audit(self.context, _key(key)))

    async def aaudit(self: Door, key: str | None = None) -> list[AuditRecord]:
        """Async `audit`."""
        return await self.arun(_audit.read_audit(self.context, _key(key)))

    def export_audit(self: Door, key: str | None = None) -> str:
        """The audit trail as JSON lines (one record per line, oldest first).

        Example:
            ```python
            import json
            from langgraph.store.memory import InMemoryStore
            from langchain_contextchef import Memory, MemoryConfig

            memory = Memory(InMemoryStore(), MemoryConfig(audit=True))
            memory.set("tone", "dry")
            memory.delete("tone")
            lines = memory.export_audit().splitlines()
            assert [json.loads(line)["action"] for line in lines] == ["created", "deleted"]
            ```
        """
        records = self.run(_audit.read_audit(self.context, _key(key)))
        return "".join(record.to_json() + "\n" for record in records)

    def purge(self: Door) -> PurgeReport:
        """Apply `MemoryConfig.retention` to this scope now, without a compile.

        Entries past their type's age leave memory (to history, or erased), and history,
        audit records and proposals past their age are deleted. See `purge_store` for every
        scope of a store at once.
        """
        return self.run(_retention.purge(self.context), fires=COMPILE)

    async def apurge(self: Door) -> PurgeReport:
        """Async `purge`."""
        return await self.arun(_retention.purge(self.context))


def _key(key: str | None) -> str | None:
    return check_key(key) if key is not None else None
