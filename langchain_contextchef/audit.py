"""The audit trail: who or what changed each memory entry, and when.

With `MemoryConfig(audit=True)`, every change to an entry appends one `AuditRecord` under
`scope + ("memory_audit",)`, written in the same store batch as the change itself (inside
the write's exclusive section), so there is no change without its record and no record
without its change. Records name the actor (`model`, `developer`, `reflection`, `import`,
`user` for a consent decision, `retention`, `expiry`, `eviction` for an entry dropped over
`max_entries`), the model's tool call id when a tool
call caused it, the action, the key and the version; never the value, so the trail holds no
memory text.

Records are never rewritten. They leave the store only through `Memory.forget()` (the whole
scope) or a retention purge (records past the age of their entry's type).
`Memory.audit()` reads them back in order; `Memory.export_audit()` and `contextchef audit`
write them as JSON lines.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import Memory, MemoryConfig

    memory = Memory(InMemoryStore(), MemoryConfig(audit=True))
    memory.set("tone", "dry")
    memory.update_memory("tone", "warm")
    assert [(r.action, r.actor, r.version) for r in memory.audit()] == [
        ("created", "developer", 1),
        ("updated", "model", 2),
    ]
    ```
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeAlias

from langchain_contextchef.entry import format_time, parse_time

__all__ = ["AuditAction", "AuditRecord"]

AuditAction: TypeAlias = Literal[
    "created",
    "updated",
    "deleted",
    "superseded",
    "expired",
    "retained_out",
    "held",
    "approved",
    "proposed",
    "proposal_approved",
    "proposal_edited",
    "proposal_rejected",
    "restored",
]
"""What happened to the entry: written, removed, retired, held by the gate, or a consent step."""


@dataclass(frozen=True)
class AuditRecord:
    """One change to one entry.

    Attributes:
        at: When it happened.
        action: What happened.
        key: The entry's key.
        actor: Who or what did it: `model`, `developer`, `reflection`, `import`, `user`,
            `retention`, `expiry` or `eviction`.
        version: The entry's version after (or, for a removal, at) the change.
        type: The entry's memory type, so retention can age the record like its entry.
        tool_call_id: The model's tool call id, when a tool call caused the change.
        proposal_id: The consent proposal involved, if any.
        note: Free text, e.g. the retention rule or the reason of a rejection.
        scope: The memory's scope.
    """

    at: datetime
    action: AuditAction
    key: str
    actor: str
    version: int | None = None
    type: str | None = None
    tool_call_id: str | None = None
    proposal_id: str | None = None
    note: str | None = None
    scope: tuple[str, ...] = ()

    def to_stored(self) -> dict[str, Any]:
        """The JSON object stored as the audit item's value."""
        return {
            "at": format_time(self.at),
            "action": self.action,
            "key": self.key,
            "actor": self.actor,
            "version": self.version,
            "type": self.type,
            "tool_call_id": self.tool_call_id,
            "proposal_id": self.proposal_id,
            "note": self.note,
            "scope": list(self.scope),
        }

    def to_json(self) -> str:
        """One JSON line (no newline), keys sorted."""
        return json.dumps(self.to_stored(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> AuditRecord:
        """Rebuild a record from its stored form.

        Raises:
            ValueError: If the value is not an audit record.
        """
        at, key, action = data.get("at"), data.get("key"), data.get("action")
        if not isinstance(at, str) or not isinstance(key, str) or not isinstance(action, str):
            msg = "Not a memory audit record: it needs string 'at', 'key' and 'action' fields."
            raise ValueError(msg)
        return cls(
            at=parse_time(at),
            action=action,  # type: ignore[arg-type]
            key=key,
            actor=str(data.get("actor")),
            version=data.get("version"),
            type=data.get("type"),
            tool_call_id=data.get("tool_call_id"),
            proposal_id=data.get("proposal_id"),
            note=data.get("note"),
            scope=tuple(data.get("scope") or ()),
        )
