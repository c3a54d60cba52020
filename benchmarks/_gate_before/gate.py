"""The deterministic write gate: code, not the model, decides what memory may store.

Every model write passes through a `WriteGate` before it reaches the store. The gate runs
built-in detectors for secrets (API keys, private keys, JWTs, passwords, one-time codes,
payment cards) and prompt-injection signatures (instruction overrides, role and tool-call
markup, hidden unicode), enforces size limits, and runs your own checks. It returns a
`GateDecision`: allow, redact (store with placeholders), quarantine (store for review, never
inject) or reject. The gate is pure: no I/O, no model calls, the same answer every time.

Memory that keeps a secret or an injected instruction is worse than no memory, so the defaults
reject both. Reasons shown to the model name the kind of problem and never echo the text.

Example:
    ```python
    from langchain_contextchef.gate import WriteCandidate, WriteGate

    gate = WriteGate()
    decision = gate.check(WriteCandidate(key="lang", value="Prefers Python for scripts"))
    assert decision.action == "allow"

    leaked = WriteCandidate(key="aws", value="deploy key AKIAABCDEFGHIJKLMNOP")
    decision = gate.check(leaked)
    assert decision.action == "reject"
    assert "AKIA" not in decision.error_message("context://memory/aws")
    ```
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from benchmarks._gate_before._detectors import luhn_valid, scan
from langchain_contextchef.entry import Provenance, WrittenBy

__all__ = [
    "DEFAULT_GATE",
    "Check",
    "CheckFunction",
    "CustomCheck",
    "Finding",
    "FindingField",
    "GateAction",
    "GateDecision",
    "Policy",
    "WriteCandidate",
    "WriteGate",
    "luhn_valid",
    "seed_policy",
]

GateAction: TypeAlias = Literal["allow", "redact", "quarantine", "reject"]
"""What happens to a write: stored as is, stored with placeholders, held for review, refused."""

Policy: TypeAlias = Literal["redact", "quarantine", "reject"]
"""What a category of findings does to a write."""

FindingField: TypeAlias = Literal["value", "description", "key"]
"""The part of the write a finding points into."""

_RANK: dict[GateAction, int] = {"allow": 0, "redact": 1, "quarantine": 2, "reject": 3}
_POLICIES = ("redact", "quarantine", "reject")


@dataclass(frozen=True)
class Finding:
    """One problem the gate found in a write.

    Attributes:
        detector: Name of the detector or check, e.g. `openai_key` or `max_value_chars`.
        category: `secret`, `injection`, `limit`, `policy`, or a custom category.
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
        key: The entry's key.
        value: The text to remember.
        description: What the entry is for, if given.
        type: The memory type (`preference`, `fact`, `rule`, ...), if given.
        provenance: Where the fact came from, if known.
        written_by: Who is writing: the model, the developer, a reflector or an import.
        is_new: Whether the key does not exist yet in the scope (an insert, not an update).
        entry_count: How many entries the scope held before this write.
    """

    key: str
    value: str
    description: str | None = None
    type: str | None = None
    provenance: Provenance | None = None
    written_by: WrittenBy = "model"
    is_new: bool = True
    entry_count: int = 0


CheckFunction: TypeAlias = Callable[[WriteCandidate], "Finding | Iterable[Finding] | None"]
"""A custom check: returns nothing when the write is fine, else one or more findings."""


@dataclass(frozen=True)
class CustomCheck:
    """A check of your own, run beside the built-in detectors.

    Args:
        name: A short name used in logs and errors.
        fn: Called with the candidate; returns `None`, a `Finding` or several findings.
            Reasons must be safe to show the model: never put the checked text in them.
        policy: What the check's findings do to the write. `redact` needs findings with a
            span in `value` or `description`; a finding without one escalates to `reject`.

    Example:
        ```python
        from langchain_contextchef.gate import CustomCheck, Finding, WriteCandidate, WriteGate


        def no_competitors(candidate: WriteCandidate) -> Finding | None:
            if "acme corp" in candidate.value.lower():
                return Finding(
                    "no_competitors",
                    "policy",
                    "memory may not mention competitors; leave the name out",
                )
            return None


        gate = WriteGate(checks=[CustomCheck("no_competitors", no_competitors)])
        candidate = WriteCandidate(key="k", value="Acme Corp is cheaper")
        assert gate.check(candidate).action == "reject"
        ```
    """

    name: str
    fn: CheckFunction
    policy: Policy = "reject"

    def __post_init__(self) -> None:
        if self.policy not in _POLICIES:
            msg = f"CustomCheck {self.name!r} has policy {self.policy!r}; use one of {_POLICIES}."
            raise ValueError(msg)


Check: TypeAlias = CustomCheck
"""The type `WriteGate(checks=...)` accepts."""


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


def _join_phrases(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def _describe(findings: Sequence[Finding]) -> tuple[list[str], set[str]]:
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
        clauses[index] = f"the {name} contains {_join_phrases(contains[name])}"
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
    """

    action: GateAction
    value: str
    description: str | None
    findings: tuple[Finding, ...] = field(default=())

    @property
    def stored(self) -> bool:
        """Whether the write reaches the store at all (anything but `reject`)."""
        return self.action != "reject"

    @property
    def injectable(self) -> bool:
        """Whether the stored entry may be shown to the model (`allow` or `redact`)."""
        return self.action in ("allow", "redact")

    def error_message(self, address: str) -> str:
        """Model-facing text for a refused or quarantined write, starting with `Error: `.

        It says what was wrong and what to do, and never contains the offending text.

        Args:
            address: How the model names the entry, e.g. `context://memory/api-notes`.

        Returns:
            The message to return as the tool result.

        Raises:
            ValueError: If the write was allowed or redacted; use `notice()` for those.
        """
        if self.action in ("allow", "redact"):
            msg = (
                f"GateDecision.error_message() is only for rejected or quarantined writes; this "
                f"write was {self.action}ed. Call notice() to tell the model about redactions."
            )
            raise ValueError(msg)
        clauses, categories = _describe(self.findings)
        verb = "refused" if self.action == "reject" else "quarantined"
        parts = [f"Error: the write to {address} was {verb}: {'; '.join(clauses)}."]
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

    def notice(self, address: str) -> str | None:
        """Model-facing note for a redacted write, or `None` when there is nothing to say.

        Args:
            address: How the model names the entry, e.g. `context://memory/api-notes`.

        Returns:
            For `redact`, a sentence saying what was replaced; otherwise `None`.
        """
        if self.action != "redact":
            return None
        clauses, _ = _describe(self.findings)
        return (
            f"Note: the write to {address} was stored with parts replaced by [REDACTED:...] "
            f"placeholders because {'; '.join(clauses)}. Secrets and instructions are never "
            f"kept in memory."
        )


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


def _redact(text: str, spans: list[tuple[int, int, str]]) -> str:
    """Replace spans (start, end, label) with placeholders; overlapping spans are merged."""
    if not spans:
        return text
    merged: list[tuple[int, int, str]] = []
    for start, end, label in sorted(spans):
        if merged and start < merged[-1][1]:
            last_start, last_end, last_label = merged[-1]
            merged[-1] = (last_start, max(last_end, end), last_label or label)
            continue
        merged.append((start, end, label))
    out: list[str] = []
    position = 0
    for start, end, label in merged:
        out.append(text[position:start])
        # An empty label marks characters that are simply dropped (invisible unicode).
        out.append(f"[REDACTED:{label}]" if label else "")
        position = end
    out.append(text[position:])
    return "".join(out)


class WriteGate:
    """Deterministic checks every model write passes before it is stored.

    Defaults (also the configuration of `DEFAULT_GATE`): secrets and injection attempts are
    rejected; values over 4,000 characters and descriptions over 500 are rejected; there is no
    entry limit; no custom checks; developer writes (`written_by="developer"`) bypass the gate.

    When several findings apply, the strictest action wins: reject > quarantine > redact >
    allow. Limits always reject. Redaction replaces each flagged span with a placeholder such
    as `[REDACTED:api_key]` (invisible characters are removed); findings in the key, or
    without a span, cannot be redacted and reject instead.

    Args:
        secrets: Policy for credentials, passwords, one-time codes and card numbers.
        injection: Policy for prompt-injection signatures and hidden unicode.
        max_value_chars: Longest value accepted, or `None` for no limit.
        max_description_chars: Longest description accepted, or `None` for no limit.
        max_entries: Most entries a scope may hold; only new keys count against it.
        checks: Your own checks, run after the built-in ones.
        gate_developer_writes: Also check developer writes (off: `Memory.set` is trusted).

    Example:
        ```python
        from langchain_contextchef.gate import WriteCandidate, WriteGate

        gate = WriteGate(secrets="redact", max_entries=50)
        decision = gate.check(WriteCandidate(key="db", value="db password: Tr0ub4dor&3"))
        assert decision.action == "redact"
        assert decision.value == "db password: [REDACTED:password]"
        ```
    """

    def __init__(
        self,
        *,
        secrets: Policy = "reject",
        injection: Policy = "reject",
        max_value_chars: int | None = 4000,
        max_description_chars: int | None = 500,
        max_entries: int | None = None,
        checks: Sequence[CustomCheck] = (),
        gate_developer_writes: bool = False,
    ) -> None:
        for name, policy in (("secrets", secrets), ("injection", injection)):
            if policy not in _POLICIES:
                msg = f"WriteGate({name}={policy!r}) is not a policy; use one of {_POLICIES}."
                raise ValueError(msg)
        for name, limit in (
            ("max_value_chars", max_value_chars),
            ("max_description_chars", max_description_chars),
            ("max_entries", max_entries),
        ):
            if limit is not None and (isinstance(limit, bool) or limit < 1):
                msg = f"WriteGate({name}={limit!r}) must be a positive int, or None for no limit."
                raise ValueError(msg)
        for check in checks:
            if not isinstance(check, CustomCheck):
                msg = (
                    f"WriteGate(checks=...) takes CustomCheck objects, got {check!r}; wrap your "
                    "function as CustomCheck(name, fn, policy)."
                )
                raise TypeError(msg)
        self.secrets: Policy = secrets
        self.injection: Policy = injection
        self.max_value_chars = max_value_chars
        self.max_description_chars = max_description_chars
        self.max_entries = max_entries
        self.checks: tuple[CustomCheck, ...] = tuple(checks)
        self.gate_developer_writes = gate_developer_writes

    def __repr__(self) -> str:
        return (
            f"WriteGate(secrets={self.secrets!r}, injection={self.injection!r}, "
            f"max_value_chars={self.max_value_chars!r}, "
            f"max_description_chars={self.max_description_chars!r}, "
            f"max_entries={self.max_entries!r}, checks={[c.name for c in self.checks]!r}, "
            f"gate_developer_writes={self.gate_developer_writes!r})"
        )

    def check(self, candidate: WriteCandidate) -> GateDecision:
        """Judge one write.

        Args:
            candidate: The write, with the context the limits need.

        Returns:
            The decision; store `decision.value`/`decision.description` unless it rejects.

        Raises:
            TypeError: If a custom check returns something other than findings.
        """
        if candidate.written_by == "developer" and not self.gate_developer_writes:
            return GateDecision("allow", candidate.value, candidate.description)

        judged: list[tuple[Finding, GateAction]] = []
        judged.extend((f, "reject") for f in self._limit_findings(candidate))
        fields: list[tuple[FindingField, str]] = [
            ("key", candidate.key),
            ("value", candidate.value),
        ]
        if candidate.description:
            fields.append(("description", candidate.description))
        redactions: dict[FindingField, list[tuple[int, int, str]]] = {}
        for field_name, text in fields:
            for hit in scan(text):
                policy = self.secrets if hit.category == "secret" else self.injection
                finding = Finding(
                    hit.detector, hit.category, hit.reason, (hit.start, hit.end), field_name
                )
                action = self._effective(finding, policy)
                if action == "redact":
                    redactions.setdefault(field_name, []).append((hit.start, hit.end, hit.label))
                judged.append((finding, action))
        for check in self.checks:
            for finding in _as_findings(check, check.fn(candidate)):
                action = self._effective(finding, check.policy)
                if action == "redact" and finding.span is not None:
                    start, end = finding.span
                    redactions.setdefault(finding.field, []).append((start, end, check.name))
                judged.append((finding, action))

        verdict: GateAction = "allow"
        for _, finding_action in judged:
            if _RANK[finding_action] > _RANK[verdict]:
                verdict = finding_action
        value = _redact(candidate.value, redactions.get("value", []))
        description = candidate.description
        if description is not None:
            description = _redact(description, redactions.get("description", []))
        return GateDecision(verdict, value, description, tuple(f for f, _ in judged))

    @staticmethod
    def _effective(finding: Finding, policy: Policy) -> GateAction:
        # A key cannot be rewritten and a finding without a span has nothing to cut out.
        if policy == "redact" and (finding.span is None or finding.field == "key"):
            return "reject"
        return policy

    def _limit_findings(self, candidate: WriteCandidate) -> list[Finding]:
        found: list[Finding] = []
        if self.max_value_chars is not None and len(candidate.value) > self.max_value_chars:
            found.append(
                _limit_finding(
                    "max_value_chars",
                    "value",
                    len(candidate.value),
                    self.max_value_chars,
                    "Store a summary, or split it into several entries.",
                )
            )
        description = candidate.description or ""
        if self.max_description_chars is not None and len(description) > self.max_description_chars:
            found.append(
                _limit_finding(
                    "max_description_chars",
                    "description",
                    len(description),
                    self.max_description_chars,
                    "Say in one sentence what the entry is for.",
                )
            )
        if (
            self.max_entries is not None
            and candidate.is_new
            and candidate.entry_count >= self.max_entries
        ):
            found.append(
                Finding(
                    detector="max_entries",
                    category="limit",
                    reason=(
                        f"memory holds {_format_count(candidate.entry_count)} entries; the limit "
                        f"is {_format_count(self.max_entries)}. Update an existing entry, or "
                        "delete one that is no longer needed, then try again."
                    ),
                )
            )
        return found


def _as_findings(check: CustomCheck, result: object) -> list[Finding]:
    if result is None:
        return []
    if isinstance(result, Finding):
        return [result]
    if isinstance(result, str | bytes) or not isinstance(result, Iterable):
        msg = (
            f"CustomCheck {check.name!r} returned {type(result).__name__}; return None, a "
            "Finding, or an iterable of Finding."
        )
        raise TypeError(msg)
    findings = list(result)
    for item in findings:
        if not isinstance(item, Finding):
            msg = (
                f"CustomCheck {check.name!r} yielded {type(item).__name__}; every item must "
                "be a Finding."
            )
            raise TypeError(msg)
    return findings


def seed_policy(
    min_confidence: float = 0.9, *, require_source: bool = True, policy: Policy = "reject"
) -> CustomCheck:
    """The write policy from the context-engineering seed, as a ready check.

    A write passes only if it carries provenance, its confidence is at least
    `min_confidence`, its sensitivity is not `restricted`, and (by default) it names a source.
    Everything else is refused with a reason that tells the model what is missing.

    Args:
        min_confidence: Lowest accepted `Provenance.confidence`, from 0 to 1.
        require_source: Also require `Provenance.source` (the seed's `sourceRef`).
        policy: What a failing write gets; `reject` by default, `quarantine` to review it.

    Returns:
        A `CustomCheck` named `seed_policy` for `WriteGate(checks=[...])`.

    Raises:
        ValueError: If `min_confidence` is outside [0, 1] or `policy` is `redact` (there is
            nothing to cut out of a write that lacks provenance).

    Example:
        ```python
        from langchain_contextchef.entry import Provenance
        from langchain_contextchef.gate import WriteCandidate, WriteGate, seed_policy

        gate = WriteGate(checks=[seed_policy(0.9)])
        sure = Provenance(written_by="model", source="msg-12", confidence=0.95)
        unsure = Provenance(written_by="model", source="msg-12", confidence=0.6)
        assert gate.check(WriteCandidate("city", "Sydney", provenance=sure)).action == "allow"
        assert gate.check(WriteCandidate("city", "Sydney", provenance=unsure)).action == "reject"
        ```
    """
    if not 0.0 <= min_confidence <= 1.0:
        msg = f"seed_policy(min_confidence={min_confidence!r}) must be between 0 and 1."
        raise ValueError(msg)
    if policy not in ("quarantine", "reject"):
        msg = f"seed_policy(policy={policy!r}) must be 'reject' or 'quarantine'."
        raise ValueError(msg)

    def check(candidate: WriteCandidate) -> list[Finding]:
        provenance = candidate.provenance
        if provenance is None:
            return [
                Finding(
                    "seed_policy",
                    "policy",
                    "the write has no provenance; record where the fact came from and how "
                    "confident you are in it",
                )
            ]
        found: list[Finding] = []
        if require_source and not provenance.source:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    "the write names no source; say which message or document the fact comes from",
                )
            )
        confidence = provenance.confidence
        if confidence is None:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    f"the write has no confidence; the minimum is {min_confidence:g}. Store "
                    "only facts the user stated or confirmed",
                )
            )
        elif confidence < min_confidence:
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    f"the confidence is {confidence:g}; the minimum is {min_confidence:g}. "
                    "Store only facts the user stated or confirmed, or ask the user first",
                )
            )
        if (provenance.sensitivity or "").strip().lower() == "restricted":
            found.append(
                Finding(
                    "seed_policy",
                    "policy",
                    "the data is marked restricted; restricted data is never stored in memory",
                )
            )
        return found

    return CustomCheck("seed_policy", check, policy)


DEFAULT_GATE = WriteGate()
"""A gate with the documented defaults: secrets and injection rejected, values up to 4,000
characters, descriptions up to 500, no entry limit, developer writes trusted."""
