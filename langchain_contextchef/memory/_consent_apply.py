"""Settling a stored proposal from code or the CLI: approve (as proposed or edited) or reject.

A stored proposal waited outside any graph, so the entry may have changed since: approving
one made against a version that is no longer current is refused (reject it; the model can
propose again), and a create whose key was taken meanwhile likewise. The write and the
settled proposal go in one batch, inside the scope's exclusive section.
"""

from __future__ import annotations

from langchain_contextchef._plan import Io, Plan
from langchain_contextchef.consent import ConsentDecision, Proposal
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._checks import UNSET
from langchain_contextchef.memory._consent import done_status, read_proposal, settled_ops
from langchain_contextchef.memory._context import MemoryContext
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory._write import read_before_write, remove, write
from langchain_contextchef.memory.results import WriteResult

__all__ = ["settle"]


def _refuse(proposal: Proposal, why: str) -> ValueError:
    return ValueError(
        f"Cannot approve proposal {proposal.id} ({proposal.action} {proposal.key!r}): {why} "
        "Reject it with reject_proposal(id); the model can propose the change again."
    )


def _current(proposal: Proposal, existing: MemoryEntry | None) -> None:
    base = existing.version if existing is not None else 0
    if proposal.action == "create" and existing is not None:
        raise _refuse(proposal, "the key was written since the proposal was made.")
    if proposal.action != "create" and existing is None:
        raise _refuse(proposal, "the entry no longer exists.")
    if proposal.action != "create" and base != proposal.base_version:
        raise _refuse(
            proposal,
            f"the entry changed since (version {base}, the proposal saw {proposal.base_version}).",
        )
    if existing is not None and existing.status == "quarantined":
        raise _refuse(proposal, "the entry is held for review by the gate.")


@exclusive
def settle(
    ctx: MemoryContext, pid: str, decision: ConsentDecision
) -> Plan[tuple[Proposal, WriteResult]]:
    """Approve, edit or reject the stored proposal `pid`.

    Raises:
        ValueError: If there is no pending proposal `pid`, if approving it is no longer
            possible (the entry changed), or if a delete is edited. Nothing is written then.
    """
    proposal = yield from read_proposal(ctx, pid)
    if proposal is None or proposal.status != "pending":
        state = "there is no such proposal" if proposal is None else f"it is {proposal.status}"
        msg = f"Cannot settle proposal {pid!r}: {state}. memory.proposals() lists those waiting."
        raise ValueError(msg)
    if proposal.asked_in_graph:
        msg = (
            f"Cannot settle proposal {pid!r} here: it was asked through a LangGraph interrupt. "
            "Resume that graph's thread with Command(resume=...) to answer it."
        )
        raise ValueError(msg)
    if decision.kind == "reject":
        settled, ops = settled_ops(ctx, proposal, decision, "rejected", via="store", version=None)
        yield Io(ops)
        return settled, WriteResult("rejected", proposal.key, proposal=settled)
    if decision.kind == "edit" and proposal.action == "delete":
        msg = "A proposed delete cannot be edited: approve or reject it."
        raise ValueError(msg)
    before = yield from read_before_write(
        ctx,
        proposal.key,
        proposal.supersedes if proposal.action != "delete" else (),
        ttl=UNSET,
        may_be_new=proposal.action == "create",
    )
    existing = before.existing
    _current(proposal, existing)
    status = done_status(proposal.action)
    if proposal.action == "delete":
        assert existing is not None
        settled, ops = settled_ops(
            ctx, proposal, decision, status, via="store", version=existing.version
        )
        yield from remove(ctx, existing, proposal.provenance, extra=ops)
        return settled, WriteResult(status, proposal.key, existing, proposal=settled)
    retire = [old for old in before.retire if old is not None and old.status == "active"]
    version = existing.version + 1 if existing is not None else before.last_version + 1
    settled, ops = settled_ops(ctx, proposal, decision, status, via="store", version=version)
    value = decision.value if decision.kind == "edit" else proposal.value
    described = decision.description if decision.description is not None else proposal.description
    assert value is not None
    entry = yield from write(
        ctx,
        proposal.key,
        value,
        description=described,
        ttl=UNSET,
        importance=None,
        type=proposal.type,
        provenance=proposal.provenance,
        existing=existing,
        turn=before.turn,
        last_version=before.last_version,
        retire=retire,
        extra=ops,
    )
    return settled, WriteResult(status, proposal.key, entry, proposal=settled)
