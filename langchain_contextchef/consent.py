"""Human consent for memory writes: which model writes wait for a person, and their answer.

A `ConsentPolicy` in `MemoryConfig(consent=...)` names the model writes a person must approve
(by memory type, by key pattern, or all of them). Such a write is *proposed* instead of
applied:

* inside a LangGraph graph that has a checkpointer (a `StateGraph` node, `ToolNode`,
  `create_agent`), the write raises LangGraph's `interrupt()` with the proposal as its value
  (`Proposal.to_payload()`: key, old value, new value, type, provenance). The graph pauses;
  resuming it with `Command(resume=...)` carrying `"approve"`, `{"type": "edit", "value":
  ...}` or `{"type": "reject"}` applies, edits or drops the write, and the tool then tells
  the model what the person decided. A resume value that is not a decision raises
  `ValueError` and leaves the question waiting for the next resume;
* anywhere else (a script, a graph without a checkpointer, a background reflector), the
  proposal waits in the store beside the entries, and the model is told that the write awaits
  the user. `Memory.proposals()`, `Memory.approve_proposal(id)` and
  `Memory.reject_proposal(id)` (or `contextchef proposals`, `approve-proposal`,
  `reject-proposal`) settle it later.

The gate and the host's veto run before a proposal is made, so a person is only asked about
writes that would otherwise be stored, and sees the gate's redacted text. Notes
(`context://notes/`) are the model's scratch space and never ask. A rename is a copy and a
delete, so it asks for each half.

Inside a graph, LangGraph runs the paused node again from its start when it resumes, so a
tool call that asks twice (a rename) is replayed up to its second question without writing
anything twice (see `memory._consent`). `create_agent` runs every tool call as a task of
its own, so parallel calls are asked and answered independently. A plain `ToolNode` runs all
tool calls of one model message in one node, in threads: calls that need consent are then
asked one at a time, and LangGraph matches resume values to interrupts by their order in the
node, which thread scheduling decides when the node runs again. With a plain `ToolNode`,
have the model make one memory write per message (or use `create_agent`).

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import Memory, MemoryConfig
    from langchain_contextchef.consent import ConsentPolicy

    memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy(types=["preference"])))
    waiting = memory.create_memory("tone", "dry", type="preference")
    assert waiting.status == "proposed" and memory.get("tone") is None
    (proposal,) = memory.proposals()
    memory.approve_proposal(proposal.id)
    assert memory.get("tone") == "dry"
    assert memory.create_memory("city", "Oslo", type="fact").status == "created"
    ```
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

from langchain_contextchef._context_paths import memory_uri
from langchain_contextchef.entry import Provenance, WrittenBy, format_time, parse_time

__all__ = [
    "ConsentAction",
    "ConsentDecision",
    "ConsentPolicy",
    "DecisionKind",
    "Proposal",
    "ProposalStatus",
    "parse_decision",
]

ConsentAction: TypeAlias = Literal["create", "update", "delete"]
"""The kinds of model write a policy can hold for consent."""

DecisionKind: TypeAlias = Literal["approve", "edit", "reject"]
"""What a person answers to a proposal."""

ProposalStatus: TypeAlias = Literal["pending", "approved", "edited", "rejected"]
"""A proposal waiting in the store, or how it was settled."""

_ACTIONS: tuple[ConsentAction, ...] = ("create", "update", "delete")
_WRITERS: tuple[WrittenBy, ...] = ("model", "developer", "reflection", "import")
_RESUME_HELP = (
    'Resume with Command(resume="approve"), Command(resume={"type": "edit", "value": "..."}) '
    'or Command(resume={"type": "reject"}).'
)


def _strings(name: str, value: Sequence[str] | None, allowed: Sequence[str] | None) -> Any:
    if value is None:
        return None
    items = list(value)
    if isinstance(value, str) or not all(isinstance(v, str) and v for v in items):
        msg = f"ConsentPolicy.{name} must be a list of non-empty strings, got {value!r}."
        raise ValueError(msg)
    unknown = [v for v in items if allowed is not None and v not in allowed]
    if unknown:
        msg = f"ConsentPolicy.{name} has unknown values {unknown!r}; use some of {list(allowed or ())!r}."
        raise ValueError(msg)
    return tuple(dict.fromkeys(items))


@dataclass(frozen=True, kw_only=True)
class ConsentPolicy:
    """Which model writes need a person's approval before they are stored.

    With neither `types` nor `keys`, every write by a listed writer needs consent; otherwise a
    write needs it when its memory type is in `types` or its key matches one of `keys`.

    A write is judged on every entry it changes: an update under both the entry's current
    type and the type it would get, and each entry it retires through `supersedes` as an
    update and as a delete of that entry (so `actions=["delete"]` also holds a write that
    would retire a covered entry).

    Attributes:
        types: Memory types whose writes need consent (an update counts the entry's current
            type and its new one).
        keys: `fnmatch` patterns of keys whose writes need consent, e.g. `"user/*"`.
        actions: Which writes are held: `create`, `update`, `delete`.
        writers: Whose writes are held; the developer path (`Memory.set`) never asks.
        interrupt: Inside a LangGraph graph with a checkpointer, pause the graph with
            `interrupt()`; `False` always queues the proposal in the store instead. A
            reflector's proposals always wait in the store: its write follows its own model
            call in the same node, which a resume would run again.

    Example:
        ```python
        from langchain_contextchef.consent import ConsentPolicy

        policy = ConsentPolicy(keys=["user/*"], actions=["create", "update"])
        assert policy.covers(key="user/city", type=None, action="create", written_by="model")
        assert not policy.covers(key="user/city", type=None, action="delete", written_by="model")
        assert not policy.covers(key="lang", type="fact", action="create", written_by="model")
        ```
    """

    types: Sequence[str] | None = None
    keys: Sequence[str] = ()
    actions: Sequence[ConsentAction] = _ACTIONS
    writers: Sequence[WrittenBy] = ("model", "reflection")
    interrupt: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", _strings("types", self.types, None))
        object.__setattr__(self, "keys", _strings("keys", self.keys, None))
        object.__setattr__(self, "actions", _strings("actions", self.actions, _ACTIONS))
        object.__setattr__(self, "writers", _strings("writers", self.writers, _WRITERS))
        if "developer" in self.writers:
            msg = "ConsentPolicy.writers cannot hold 'developer': Memory.set is the developer path."
            raise ValueError(msg)

    def covers(self, *, key: str, type: str | None, action: ConsentAction, written_by: str) -> bool:
        """Whether this write needs a person's approval."""
        if action not in self.actions or written_by not in self.writers:
            return False
        if self.types is None and not self.keys:
            return True
        if self.types is not None and type is not None and type in self.types:
            return True
        return any(fnmatch.fnmatchcase(key, pattern) for pattern in self.keys)


@dataclass(frozen=True)
class ConsentDecision:
    """A person's answer to a proposal.

    Attributes:
        kind: `approve`, `edit` (store `value` instead) or `reject`.
        value: The text to store instead, for `edit`.
        description: A description to store instead, for `edit` (optional).
        reason: Why, for `reject` (recorded in the audit trail, shown to the model).
    """

    kind: DecisionKind
    value: str | None = None
    description: str | None = None
    reason: str | None = None


def parse_decision(resume: Any) -> ConsentDecision:
    """Read the value a graph was resumed with (or a decision from code) as a decision.

    Accepted: `"approve"`, `"reject"`, a `ConsentDecision`, or a mapping with `type` (or
    `action`) `approve` / `edit` / `reject`, plus `value` (and optionally `description`) for
    `edit` and optionally `reason` (or `message`) for `reject`.

    Raises:
        ValueError: For anything else, naming the accepted forms; nothing is written.

    Example:
        ```python
        from langchain_contextchef.consent import parse_decision

        assert parse_decision("approve").kind == "approve"
        assert parse_decision({"type": "edit", "value": "tea"}).value == "tea"
        try:
            parse_decision({"type": "edit"})
        except ValueError as exc:
            assert "value" in str(exc)
        ```
    """
    if isinstance(resume, ConsentDecision):
        return resume
    if isinstance(resume, str):
        resume = {"type": resume}
    if not isinstance(resume, Mapping):
        msg = f"Cannot read {resume!r:.80} as a consent decision. {_RESUME_HELP}"
        raise ValueError(msg)
    kind = resume.get("type", resume.get("action"))
    if kind not in ("approve", "edit", "reject"):
        msg = f"A consent decision needs type 'approve', 'edit' or 'reject', got {kind!r}. {_RESUME_HELP}"
        raise ValueError(msg)
    value = resume.get("value")
    description = resume.get("description")
    reason = resume.get("reason", resume.get("message"))
    if kind == "edit" and (not isinstance(value, str) or not value.strip()):
        msg = f"An 'edit' decision needs the text to store as a non-empty string 'value'. {_RESUME_HELP}"
        raise ValueError(msg)
    for name, text in (("description", description), ("reason", reason)):
        if text is not None and not isinstance(text, str):
            msg = f"The decision's {name!r} must be a string, got {type(text).__name__}."
            raise ValueError(msg)
    return ConsentDecision(kind, value if kind == "edit" else None, description, reason)


@dataclass(frozen=True)
class Proposal:
    """A model write held for a person's approval.

    Attributes:
        id: Stable across a graph's re-execution: derived from the tool call (or graph task),
            the action and the key.
        action: `create`, `update` or `delete`.
        key: The entry's key.
        value: The text the write would store (`None` for a delete), after the gate.
        old_value: The value stored now (`None` for a create).
        type: The memory type the entry would have.
        old_type: The memory type the entry has now (`None` for a create).
        description: The description the write would store.
        provenance: Who proposed it (the model's tool call id, ...).
        scope: The memory's scope.
        supersedes: Keys the write would retire.
        base_version: The version of the entry the proposal was made against (0: none),
            shown to the person as `version`; an approval after the entry changed is refused
            (a stored proposal's, and one given through an interrupt).
        proposed_at: When the write was proposed.
        status: `pending`, or how it was settled.
        decided_at: When it was settled.
        reason: The person's reason, for a rejection.
        result: How it was settled: the write's status and `via` (`interrupt` or `store`).
    """

    id: str
    action: ConsentAction
    key: str
    value: str | None
    old_value: str | None
    type: str | None
    description: str | None
    provenance: Provenance
    scope: tuple[str, ...]
    supersedes: tuple[str, ...] = ()
    old_type: str | None = None
    base_version: int = 0
    proposed_at: datetime | None = None
    status: ProposalStatus = "pending"
    decided_at: datetime | None = None
    reason: str | None = None
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def asked_in_graph(self) -> bool:
        """Whether this proposal waits on a LangGraph interrupt (answered by resuming it)."""
        return self.status == "pending" and self.result == {"via": "interrupt"}

    def to_payload(self) -> dict[str, Any]:
        """The JSON-ready value of the LangGraph interrupt that asks for this decision."""
        return {
            "kind": "contextchef_memory_write",
            "id": self.id,
            "action": self.action,
            "key": self.key,
            "uri": memory_uri(self.key),
            "old_value": self.old_value,
            "version": self.base_version,
            "new_value": self.value,
            "type": self.type,
            "old_type": self.old_type,
            "description": self.description,
            "supersedes": list(self.supersedes),
            "provenance": self.provenance.to_stored(),
            "scope": list(self.scope),
            "how_to_answer": _RESUME_HELP,
        }

    def to_stored(self) -> dict[str, Any]:
        """The JSON object stored for a waiting or settled proposal."""
        return {
            "id": self.id,
            "action": self.action,
            "key": self.key,
            "value": self.value,
            "old_value": self.old_value,
            "type": self.type,
            "old_type": self.old_type,
            "description": self.description,
            "provenance": self.provenance.to_stored(),
            "scope": list(self.scope),
            "supersedes": list(self.supersedes),
            "base_version": self.base_version,
            "proposed_at": format_time(self.proposed_at) if self.proposed_at else None,
            "status": self.status,
            "decided_at": format_time(self.decided_at) if self.decided_at else None,
            "reason": self.reason,
            "result": dict(self.result),
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Proposal:
        """Rebuild a proposal from its stored form.

        Raises:
            ValueError: If the value is not a stored proposal.
        """
        if not isinstance(data.get("id"), str) or data.get("action") not in _ACTIONS:
            msg = "Not a stored memory proposal: it needs a string 'id' and an 'action'."
            raise ValueError(msg)
        proposed, decided = data.get("proposed_at"), data.get("decided_at")
        return cls(
            id=data["id"],
            action=data["action"],
            key=str(data.get("key")),
            value=data.get("value"),
            old_value=data.get("old_value"),
            type=data.get("type"),
            description=data.get("description"),
            provenance=Provenance.from_stored(data.get("provenance") or {}),
            scope=tuple(data.get("scope") or ()),
            supersedes=tuple(data.get("supersedes") or ()),
            old_type=data.get("old_type"),
            base_version=int(data.get("base_version") or 0),
            proposed_at=parse_time(proposed) if isinstance(proposed, str) else None,
            status=data.get("status", "pending"),
            decided_at=parse_time(decided) if isinstance(decided, str) else None,
            reason=data.get("reason"),
            result=dict(data.get("result") or {}),
        )
