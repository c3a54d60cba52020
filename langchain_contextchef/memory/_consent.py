"""Consent as plans: propose a model write, ask a person, apply or drop it, remember the answer.

A model write that `MemoryConfig.consent` covers passes every other check first (allowed keys,
type, existence, gate, veto); then, instead of writing, it makes a `Proposal`:

* inside a LangGraph graph with a checkpointer, a `Call` step runs LangGraph's `interrupt()`
  with the proposal. The first time, it raises `GraphInterrupt` (the exclusive section is
  released as the exception leaves it, so nobody waits for the person) and the graph pauses.
  On resume LangGraph runs the node again from the start, and `interrupt()` now returns the
  person's answer. The write is applied, edited or dropped, and the settled proposal is put
  in the same batch as the write;
* elsewhere, the proposal is stored under `scope + ("memory_proposals",)` and waits for
  `approve` or `reject` (from code or the CLI).

Why settled proposals are kept: a node that raises a second interrupt after applying a first
approved write is run again from its start on the next resume. LangGraph hands resume values
back by the order of `interrupt()` calls, so the first write must call `interrupt()` again
(which now returns at once) and must not be applied twice. Its proposal id is derived from
the tool call id (or the graph task), the action and the key, so the re-run finds the settled
proposal (`replay`) and answers with the recorded outcome before any state-dependent check
could answer differently.
"""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.errors import GraphInterrupt
from langgraph.store.base import GetOp, PutOp
from langgraph.types import interrupt

from langchain_contextchef._plan import Call, Io, Plan
from langchain_contextchef._runtime import current_config
from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.consent import (
    ConsentAction,
    ConsentDecision,
    Proposal,
    ProposalStatus,
    parse_decision,
)
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.memory import _audit
from langchain_contextchef.memory._context import PROPOSALS_NAMESPACE, MemoryContext, read_items
from langchain_contextchef.memory._texts import Refusal
from langchain_contextchef.memory.results import WriteResult, WriteStatus

__all__ = [
    "Consent",
    "ask",
    "ask_person",
    "can_interrupt",
    "covers_write",
    "done_status",
    "pending",
    "proposal_id",
    "proposals_ns",
    "read_proposal",
    "replay",
    "settled_ops",
]

_DONE: dict[ConsentAction, WriteStatus] = {
    "create": "created",
    "update": "updated",
    "delete": "deleted",
}
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_SETTLED: dict[str, ProposalStatus] = {
    "approve": "approved",
    "edit": "edited",
    "reject": "rejected",
}


def proposals_ns(ctx: MemoryContext) -> tuple[str, ...]:
    """`scope + ("memory_proposals",)`."""
    return (*ctx.scope, PROPOSALS_NAMESPACE)


def can_interrupt() -> bool:
    """Whether this code runs inside a LangGraph graph run that can pause and resume.

    A graph compiled without a checkpointer could raise an interrupt but never resume it, so
    proposals made there wait in the store instead.
    """
    config = current_config()
    if config is None:
        return False
    return config.get("configurable", {}).get(CONFIG_KEY_CHECKPOINTER) is not None


def _task_token(provenance: Provenance) -> str | None:
    # The same token on every run of the same graph task, and on no other: the task's
    # checkpoint namespace (its id is derived from the step's checkpoint, so it is stable
    # across resumes and new at every step) and the model's tool call id (several calls can
    # share a task). Tool call ids alone are not enough: some models reuse them. Outside a
    # resumable graph nothing is re-run, so there is no token.
    if not can_interrupt():
        return None
    config = current_config()
    namespace = (config or {}).get("configurable", {}).get("checkpoint_ns")
    if not isinstance(namespace, str) or not namespace:
        return None
    return f"task:{namespace}\x1fcall:{provenance.tool_call_id or ''}"


def proposal_id(ctx: MemoryContext, action: ConsentAction, key: str, provenance: Provenance) -> str:
    """A proposal's id: the same whenever the same task asks for the same write."""
    token = _task_token(provenance) or "once:" + uuid.uuid4().hex
    text = "\x1f".join((*ctx.scope, token, action, key))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def read_proposal(ctx: MemoryContext, pid: str) -> Plan[Proposal | None]:
    """The proposal stored under `pid`, or `None`."""
    (item,) = yield Io([GetOp(proposals_ns(ctx), pid, refresh_ttl=False)])
    return Proposal.from_stored(item.value) if item is not None else None


def pending(ctx: MemoryContext) -> Plan[list[Proposal]]:
    """The proposals that wait for a person, oldest first."""
    items = yield from read_items(proposals_ns(ctx))
    found = [Proposal.from_stored(item.value) for item in items]
    # A proposal asked through an interrupt is answered by resuming its graph, not here.
    waiting = [p for p in found if p.status == "pending" and not p.asked_in_graph]
    return sorted(waiting, key=lambda p: (p.proposed_at or _EPOCH, p.id))


def _decision(answer: Any, action: ConsentAction) -> ConsentDecision:
    decision = parse_decision(answer)
    if decision.kind == "edit" and action == "delete":
        msg = "A delete cannot be edited: resume with 'approve' or 'reject'."
        raise ValueError(msg)
    return decision


def ask_person(payload: dict[str, Any], action: ConsentAction) -> ConsentDecision:
    """Pause the graph with `payload` until a person answers with a decision; return it.

    LangGraph keeps every resume value of a task and hands them back by the order of the
    `interrupt()` calls that asked. An answer that is not a decision is therefore skipped by
    asking again: with a later resume value at hand, that is the answer; without one, the
    resume that brought the bad answer fails with `ValueError`, and the question stays
    pending, so the next resume (plain, or addressed to the interrupt's id) is read in turn.
    A rerun of the task skips the same bad answers, so it consumes the same resume values.

    Raises:
        GraphInterrupt: The first time (LangGraph pauses the graph).
        ValueError: If the newest answer is not a decision; nothing is written.
    """
    answer = interrupt(payload)
    while True:
        try:
            return _decision(answer, action)
        except ValueError as bad:
            try:
                answer = interrupt(payload)
            except GraphInterrupt:
                msg = (
                    f"{bad} Nothing was written, and the question is still waiting: resume "
                    "the thread again with a decision."
                )
                raise ValueError(msg) from None


def _covered(
    ctx: MemoryContext, action: ConsentAction, key: str, type_: str | None, provenance: Provenance
) -> bool:
    policy = ctx.config.consent
    return policy is not None and policy.covers(
        key=key, type=type_, action=action, written_by=provenance.written_by
    )


_RETIRING: tuple[ConsentAction, ...] = ("update", "delete")
"""What retiring an entry through `supersedes` counts as: it changes the entry and removes it."""


def covers_write(
    ctx: MemoryContext,
    action: ConsentAction,
    key: str,
    type_: str | None,
    provenance: Provenance,
    existing: MemoryEntry | None,
    supersedes: Sequence[MemoryEntry] = (),
) -> bool:
    """Whether the policy covers any entry this write changes.

    The entry itself is judged under its new type and, when it exists, its current one (an
    update that changes the type must not escape a policy on either). Every entry the write
    retires through `supersedes` is judged too, as an update and as a delete of that entry.
    """
    types = {type_ if type_ is not None else (existing.type if existing else None)}
    if existing is not None:
        types.add(existing.type)
    if any(_covered(ctx, action, key, each, provenance) for each in types):
        return True
    return any(
        _covered(ctx, retiring, old.key, old.type, provenance)
        for old in supersedes
        for retiring in _RETIRING
    )


def _outcome(proposal: Proposal) -> WriteResult:
    status: WriteStatus = proposal.result.get("status", "proposed")
    if status == "stale":
        refusal = Refusal("stale_approval", proposal.key, expected_version=proposal.base_version)
        return WriteResult(status, proposal.key, refusal=refusal, proposal=proposal)
    return WriteResult(status, proposal.key, proposal=proposal)


def replay(
    ctx: MemoryContext, action: ConsentAction, key: str, provenance: Provenance
) -> Plan[WriteResult | None]:
    """The recorded outcome when this task already proposed this write, else `None`.

    A proposal settled through an interrupt calls `interrupt()` again first: LangGraph
    matches resume values to interrupts by their order within the task.
    """
    policy = ctx.config.consent
    # Not filtered by `action`: a write the policy does not hold by its own action may still
    # be held for an entry it retires (see `covers_write`).
    if policy is None or provenance.written_by not in policy.writers:
        return None
    if _task_token(provenance) is None:  # no stable identity: every proposal is new
        return None
    proposal = yield from read_proposal(ctx, proposal_id(ctx, action, key, provenance))
    if proposal is None or proposal.asked_in_graph:  # not settled yet: ask (again) below
        return None
    if proposal.result.get("via") == "interrupt" and can_interrupt():
        yield Call(ask_person, (proposal.to_payload(), action), "consent")
    return _outcome(proposal)


@dataclass(frozen=True)
class Consent:
    """What consent decided about one write.

    Attributes:
        proposal: The proposal that was made.
        outcome: The result to return right away (the write waits, or was rejected), or
            `None` when the write goes ahead.
        value: The text to write (the person's, for an edit).
        description: The description to write.
        extra: Ops to put in the write's batch: the settled proposal and its audit record.
    """

    proposal: Proposal
    outcome: WriteResult | None
    value: str | None
    description: str | None
    extra: list[PutOp] = field(default_factory=list)

    def finish(self, result: WriteResult) -> WriteResult:
        """`result` with the settled proposal attached, so the tool result can say so."""
        return dataclasses.replace(result, proposal=self.proposal)


def settled_ops(
    ctx: MemoryContext,
    proposal: Proposal,
    decision: ConsentDecision,
    status: WriteStatus,
    *,
    via: str,
    version: int | None,
) -> tuple[Proposal, list[PutOp]]:
    """The settled proposal and the ops that store it with its audit record."""
    now = ctx.now()
    settled = dataclasses.replace(
        proposal,
        status=_SETTLED[decision.kind],
        decided_at=now,
        reason=decision.reason,
        value=decision.value if decision.kind == "edit" else proposal.value,
        result={"status": status, "via": via},
    )
    ops = [PutOp(proposals_ns(ctx), proposal.id, settled.to_stored(), index=False)]
    action = f"proposal_{settled.status}"
    record = AuditRecord(
        at=now,
        action=action,  # type: ignore[arg-type]
        key=proposal.key,
        actor="user",
        version=version,
        type=proposal.type,
        tool_call_id=proposal.provenance.tool_call_id,
        proposal_id=proposal.id,
        note=decision.reason,
        scope=ctx.scope,
    )
    return settled, ops + _audit.record_ops(ctx, record)


def ask(
    ctx: MemoryContext,
    action: ConsentAction,
    key: str,
    *,
    value: str | None,
    description: str | None,
    type: str | None,
    provenance: Provenance,
    existing: MemoryEntry | None,
    supersedes: Sequence[MemoryEntry] = (),
    version: int | None = None,
) -> Plan[Consent | None]:
    """Ask for consent when the policy covers this write; `None` when it does not.

    Args:
        ctx: The scope.
        action: `create`, `update` or `delete`.
        key: The entry's key.
        value: The text the write would store (`None` for a delete).
        description: The description it would store.
        type: The type the entry would have.
        provenance: Who asks.
        existing: The entry stored now.
        supersedes: Entries the write would retire.
        version: The version the write would give the entry.

    Raises:
        ValueError: If the graph was resumed with something that is not a decision.
    """
    entry_type = type if type is not None else (existing.type if existing else None)
    if not covers_write(ctx, action, key, type, provenance, existing, supersedes):
        return None
    policy = ctx.config.consent
    assert policy is not None
    proposal = Proposal(
        id=proposal_id(ctx, action, key, provenance),
        action=action,
        key=key,
        value=value,
        old_value=existing.value if existing is not None else None,
        type=entry_type,
        old_type=existing.type if existing is not None else None,
        description=description,
        provenance=provenance,
        scope=ctx.scope,
        supersedes=tuple(e.key for e in supersedes),
        proposed_at=ctx.now(),
        base_version=existing.version if existing is not None else 0,
    )
    # Only a model's tool call pauses the graph: a reflector's write comes after its own
    # model call in the same node, which LangGraph would run (and pay for) again on resume,
    # perhaps proposing something else; its proposals wait in the store instead.
    interrupting = policy.interrupt and provenance.written_by == "model" and can_interrupt()
    if not interrupting:
        ops: list[Any] = [PutOp(proposals_ns(ctx), proposal.id, proposal.to_stored(), index=False)]
        record = AuditRecord(
            at=ctx.now(),
            action="proposed",
            key=key,
            actor=provenance.written_by,
            version=proposal.base_version,
            type=entry_type,
            tool_call_id=provenance.tool_call_id,
            proposal_id=proposal.id,
            scope=ctx.scope,
        )
        yield Io(ops + _audit.record_ops(ctx, record))
        return Consent(proposal, WriteResult("proposed", key, proposal=proposal), None, None)
    # What the person is shown is recorded before the graph pauses: LangGraph reruns this
    # task on resume against the store as it is then, and an approval applies only to the
    # version the person saw.
    shown = yield from read_proposal(ctx, proposal.id)
    if shown is None or not shown.asked_in_graph:
        shown = dataclasses.replace(proposal, result={"via": "interrupt"})
        yield Io([PutOp(proposals_ns(ctx), shown.id, shown.to_stored(), index=False)])
    decision: ConsentDecision = yield Call(ask_person, (shown.to_payload(), action), "consent")
    current = existing.version if existing is not None else 0
    if decision.kind != "reject" and current != shown.base_version:
        why = ConsentDecision(
            "reject",
            reason=(
                f"the entry changed since the user was asked (version {current}, they saw "
                f"version {shown.base_version}); nothing was written"
            ),
        )
        settled, extra = settled_ops(ctx, shown, why, "stale", via="interrupt", version=None)
        yield Io(extra)
        refusal = Refusal(
            "stale_approval", key, current=existing, expected_version=shown.base_version
        )
        result = WriteResult("stale", key, existing, refusal=refusal, proposal=settled)
        return Consent(settled, result, None, None)
    done: WriteStatus = "rejected" if decision.kind == "reject" else done_status(action)
    settled, extra = settled_ops(ctx, proposal, decision, done, via="interrupt", version=version)
    if decision.kind == "reject":
        yield Io(extra)
        return Consent(settled, WriteResult("rejected", key, proposal=settled), None, None)
    if decision.kind == "edit":
        described = decision.description if decision.description is not None else description
        return Consent(settled, None, decision.value, described, extra)
    return Consent(settled, None, value, description, extra)


def done_status(action: ConsentAction) -> WriteStatus:
    return _DONE[action]
