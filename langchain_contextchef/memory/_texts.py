"""Every sentence about a memory write's outcome: the one module that words them.

Plans report outcomes as data (`Refusal`, a `WriteResult` status); this module turns them
into text, in two registers from one source:

* `reason(...)`: the clause itself, for reports and developer exceptions
  (`developer_message` capitalises it);
* `error(...)`: the model-facing tool result, `"Error: " + reason`.

Texts that name a tool say the tool of the vocabulary the model actually has: every function
whose text would name one takes the `vocabulary` of the tool that was called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from langchain_contextchef._context_paths import memory_uri
from langchain_contextchef._literals import ToolVocabulary
from langchain_contextchef.consent import Proposal
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.gate import GateDecision

__all__ = [
    "Refusal",
    "RefusalKind",
    "already_exists",
    "consent_text",
    "damaged_reason",
    "developer_message",
    "error",
    "not_allowed",
    "nothing_at",
    "reason",
    "superseded",
    "unavailable",
    "unreadable",
    "vetoed",
]

RefusalKind: TypeAlias = Literal[
    "gate", "held", "stale", "type", "self_supersede", "missing_supersede", "damaged", "profile"
]
"""Why a write was refused or held: the gate, a quarantined target, an old compare-and-set
version, an unknown type, an entry superseding itself, a supersede target that is missing, or
a target whose stored data cannot be read, or a profile edit that cannot be applied or does
not fit the profile's schema."""


@dataclass(frozen=True)
class Refusal:
    """Why a write did not happen as asked (or was only stored for review).

    Attributes:
        kind: What stopped it.
        key: The key the refusal is about (the superseded key for `missing_supersede` and
            for `held` on a supersede target).
        decision: The gate's verdict (`gate`: rejected or quarantined).
        current: The entry as it is now (`stale`).
        expected_version: The version the writer passed (`stale`).
        allowed_types: The memory types that are accepted (`type`).
        type: The type that was given (`type`).
        detail: What is wrong with the edit (`profile`), as a clause.
    """

    kind: RefusalKind
    key: str
    decision: GateDecision | None = None
    current: MemoryEntry | None = None
    expected_version: int | None = None
    allowed_types: tuple[str, ...] = ()
    type: str | None = None
    detail: str | None = None


def reason(refusal: Refusal) -> str:
    """The refusal as a clause (no `Error: ` prefix), naming the entry by its address."""
    uri = memory_uri(refusal.key)
    match refusal.kind:
        case "gate":
            assert refusal.decision is not None
            # The gate words its own findings; `error_message` is this clause with the prefix.
            return refusal.decision.reason(uri)
        case "held":
            return (
                f"{uri} is held for review; it cannot be read or changed until the host "
                "approves it. Do not write it again."
            )
        case "stale":
            current = refusal.current
            assert current is not None
            return (
                f"{uri} changed since you read it: you passed version "
                f"{refusal.expected_version}, the current version is {current.version}. Its "
                f"current value is:\n{current.value}\nApply your change to this value and pass "
                f"version {current.version}."
            )
        case "type":
            listed = ", ".join(refusal.allowed_types)
            return f'"{refusal.type}" is not a memory type. Use one of: {listed}.'
        case "self_supersede":
            return f"{uri} cannot supersede itself; list only other keys."
        case "missing_supersede":
            return (
                f"cannot supersede {uri}: nothing is stored there. List only keys that exist "
                "in memory."
            )
        case "damaged":
            return damaged_reason(refusal.key)
        case "profile":
            return f"the profile {uri} was not changed: {refusal.detail}."


def damaged_reason(key: str) -> str:
    """The clause for an entry whose stored data cannot be read."""
    return (
        f"{memory_uri(key)} is damaged: its stored data cannot be read. The host has to "
        "repair it; do not write it again."
    )


def error(refusal: Refusal) -> str:
    """The refusal as a model-facing tool result."""
    return f"Error: {reason(refusal)}"


def developer_message(refusal: Refusal) -> str:
    """The refusal as the message of a developer-facing exception."""
    text = reason(refusal)
    return text[:1].upper() + text[1:]


def not_allowed(key: str, allowed_keys: tuple[str, ...] | None) -> str:
    """The tool result for a key outside `allowed_keys`."""
    if not allowed_keys:
        return f"Error: {memory_uri(key)} cannot be written: no memory keys are allowed."
    listed = ", ".join(allowed_keys)
    return f"Error: {memory_uri(key)} is not an allowed memory key. Allowed keys: {listed}."


def already_exists(uri: str, vocabulary: ToolVocabulary) -> str:
    """The tool result for creating what exists, naming the tools of `vocabulary`."""
    if vocabulary == "legacy":
        return f"Error: {uri} already exists. Use modify_memory to update or delete it."
    return f"Error: {uri} already exists. Use str_replace to edit it, or delete it first."


def nothing_at(uri: str) -> str:
    """The tool result for reading or changing an address that holds nothing."""
    return f"Error: nothing is stored at {uri}."


def vetoed(key: str) -> str:
    """The tool result for a write the host's `on_memory_update` hook refused."""
    return f"Error: the write to {memory_uri(key)} was rejected by the host."


def unreadable(uri: str) -> str:
    """The tool result for reading an entry held for review."""
    # Both read paths (recall_memory and view) answer a held entry with the same text.
    return f"Error: {uri} is quarantined; it cannot be read until the host approves it."


def unavailable(root: str) -> str:
    """The tool result when the tools were built without memory."""
    return (
        f"Error: {root} is not available: these tools were built without memory. "
        "The host has to configure memory to enable it."
    )


def superseded(keys: tuple[str, ...]) -> str:
    """The sentence appended to a successful write that retired other entries."""
    retired = ", ".join(memory_uri(key) for key in keys)
    return f"It supersedes {retired}, which moved to history and is no longer shown to you."


# ---- consent --------------------------------------------------------------------------------


def consent_text(status: str, proposal: Proposal, success: str) -> str | None:
    """The tool result for a write consent held, dropped, or let through after a change.

    Returns `None` when consent changed nothing worth saying (a plain approval keeps the
    usual success text, with a note that the user approved it).
    """
    uri = memory_uri(proposal.key)
    if status == "proposed":
        return (
            f"{uri} was not saved yet: the write awaits the user's approval, and you will "
            "not see it until they approve it. Do not write it again; carry on with the task."
        )
    if status == "rejected":
        why = f" Their reason: {proposal.reason.rstrip('.')}." if proposal.reason else ""
        return (
            f"Error: the user declined this write, so nothing was saved at {uri}.{why} "
            "Do not write it again unless the user asks you to."
        )
    if proposal.status == "edited" and proposal.value is not None:
        return f"{success} The user edited it before saving; {uri} now holds:\n{proposal.value}"
    if proposal.status == "approved":
        return f"{success} The user approved it."
    return None
