"""The write gate: code, not the model, decides what memory may store.

The package (this face holds `WriteGate`, `CustomCheck`, `seed_policy` and `DEFAULT_GATE`)::

    _types                   what it judges and says: `WriteCandidate`, `Finding`, `GateDecision`
    _scan                    the scanner: every detector family over every view of a text
    _normalize, _views       the folded view, mapped back; reversed, de-spaced, decoded views
    _unhide                  upside-down, hyphen-broken and ROT13 views; identifiers as words
    _triggers                the prefilter: which trigger words a view holds, in one pass
    _detectors, _patterns    the detector families; what a pattern detector is
    _hit                     `Hit`, the span in the original text that every detector returns
    _secrets, _entropy       named key formats, labelled credentials; bare random tokens, seeds
    _numbers                 one-time codes, PINs and payment cards
    _instructions, _markup   instructions in English prose; markup addressed to a model
    _lexicon, _multilingual  the word lists (`_data/lexicons.json`); their matchers
    _credentials, _spelled   credential labels in 30+ languages; codes spelled in words
    _limits, _redact         size and count limits; what a finding lets the gate cut
    _seed                    the check behind `seed_policy`
    _model                   `ModelCheck`, the optional second line (a model judges the write)
    _learned                 the trained injection classifier (`_data/injection_model.*`)
    _ownership               the user's own rules and personas: the classifier decides them
    _mention                 attack phrases a memory quotes, roles it gives for the user

Every model write passes through a `WriteGate` before it reaches the store: memory entries
and notes, and every field of them (key, value, description, type). The gate runs built-in
detectors for secrets (API keys, private keys, JWTs, passwords, one-time codes, payment cards,
long random tokens) and prompt-injection signatures (instruction overrides, role and tool-call
markup, hidden comments, invisible unicode), enforces size limits, and runs your own checks.
It returns a `GateDecision`: allow, redact (store with placeholders), quarantine (store for
review, never inject) or reject. The deterministic part is pure: no I/O, no model calls, the
same answer every time. It reads fifteen languages (credential labels in 57) and undoes the
usual hiding tricks (look-alike, upside-down and flag letters, combining marks, invisible
characters, leetspeak, words broken by hyphens, base64/base32/base85/hex/percent encodings,
ROT13, reversed or spaced-out text).

What each family of findings gets (the `secrets` and `injection` policies; defaults reject):

| finding | category | default | under `redact` |
|---|---|---|---|
| named key formats, labelled credentials, passwords in 15 languages, codes, cards | secret | reject | the value is replaced |
| codes, PINs and cards spelled in words or NATO letters after a label | secret | reject | the spelled run is replaced |
| bare random tokens, key bodies without their PEM header | secret | reject | the token is replaced |
| anything found only once decoded, reversed or de-spaced | as found | reject | the whole encoded run is replaced |
| overrides, new roles, system-prompt changes (15 languages, leetspeak) | injection | reject | the phrase is replaced |
| role lines, chat-template tokens, hidden comments, forged tool calls | injection | reject | the markup is replaced |
| collapsed blocks, event handlers, template links, role fences and documents | injection | reject | the markup is replaced |
| what the trained classifier scores at or over `injection_threshold` | injection | reject | the whole text is replaced |
| a key cut across lines, or between description and value | secret | reject | reject (no single span) |
| invisible characters (Cf, bidi, tags, selectors outside emoji, fillers) | injection | reject | the characters are removed |
| anything in the key or the type | as found | reject | reject (a key cannot be rewritten) |

The trained classifier (on by default, `WriteGate(injection_threshold=None)` turns it off)
reads what no detector recognised: paraphrases, other languages, instructions dressed as
preferences. It is a linear model and a small one-hidden-layer network over hashed n-grams,
their probabilities averaged, whose weights ship with the package (no network access, no
dependency), trained by `scripts/train_injection_detector.py`; the README gives its measured
precision and recall at several thresholds.

It is hygiene against common leaks and injections, not a security boundary: a determined
writer can phrase an instruction neither the patterns nor the classifier know. `ModelCheck` adds an optional second line,
a model that judges what the patterns let through (off by default; it costs a model call per
write and sends the redacted write to that model).

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
from dataclasses import dataclass, replace
from typing import TypeAlias

from langchain_contextchef.gate._hit import Hit
from langchain_contextchef.gate._learned import default_threshold
from langchain_contextchef.gate._limits import limit_findings
from langchain_contextchef.gate._model import Judgement, ModelCheck, OnError, SecondLineVerdict
from langchain_contextchef.gate._numbers import luhn_valid
from langchain_contextchef.gate._redact import Span, effective_action, redact, repeats
from langchain_contextchef.gate._scan import LEARNED, remainder_hit, scan, scan_identifier
from langchain_contextchef.gate._seed import seed_findings
from langchain_contextchef.gate._types import (
    POLICIES,
    RANK,
    Finding,
    FindingField,
    GateAction,
    GateDecision,
    Policy,
    WriteCandidate,
    WriteKind,
)

__all__ = [
    "DEFAULT_GATE",
    "DEFAULT_INJECTION_THRESHOLD",
    "Check",
    "CheckFunction",
    "CustomCheck",
    "Finding",
    "FindingField",
    "GateAction",
    "GateDecision",
    "Judgement",
    "ModelCheck",
    "OnError",
    "Policy",
    "SecondLineVerdict",
    "WriteCandidate",
    "WriteGate",
    "WriteKind",
    "luhn_valid",
    "seed_policy",
]

# The data classes live in private modules (no import cycle with the second line); this is
# their public home, for reprs, docs and pickling.
for _public in (Finding, WriteCandidate, GateDecision, ModelCheck, SecondLineVerdict, Judgement):
    _public.__module__ = __name__


DEFAULT_INJECTION_THRESHOLD: float = default_threshold()
"""The trained injection detector's default threshold, chosen by its training script on
tuning data (at most 0.5% of benign memories and 3% of benign public texts refused there)."""

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
        if self.policy not in POLICIES:
            msg = f"CustomCheck {self.name!r} has policy {self.policy!r}; use one of {POLICIES}."
            raise ValueError(msg)


Check: TypeAlias = CustomCheck
"""The type `WriteGate(checks=...)` accepts."""


class WriteGate:
    """The checks every model write passes before it is stored, and an optional second line.

    Defaults (also the configuration of `DEFAULT_GATE`): secrets and injection attempts are
    rejected; values over 4,000 characters and descriptions over 500 are rejected; notes have
    no size limit; there is no entry limit; no custom checks; no second line; developer writes
    (`written_by="developer"`) bypass the gate.

    Every field of a write is scanned: key, value, description and type. When several
    findings apply, the strictest action wins: reject > quarantine > redact > allow. Limits
    always reject. Redaction replaces every occurrence of each flagged text with a placeholder
    such as `[REDACTED:api_key]` (invisible characters are removed); findings in the key or the
    type, or without a span, cannot be redacted and reject instead.

    Invisible and smuggled characters (zero-width and bidirectional controls, tag characters,
    variation selectors outside emoji, blank fillers) are injection findings, so the
    `injection` policy applies to them: rejected by default, removed under `redact`.

    Args:
        secrets: Policy for credentials, passwords, one-time codes and card numbers.
        injection: Policy for prompt-injection signatures and hidden unicode.
        max_value_chars: Longest memory value accepted, or `None` for no limit.
        max_description_chars: Longest description accepted, or `None` for no limit.
        max_entries: Most entries a scope may hold; only new memory keys count against it.
        checks: Your own checks, run after the built-in ones.
        gate_developer_writes: Also check developer writes (off: `Memory.set` is trusted).
        second_line: A `ModelCheck` to run after the deterministic checks, on writes they did
            not reject (it sees the redacted text). `None` (the default) turns it off.
        max_note_chars: Longest note accepted (`kind="notes"`): 100,000 characters (about
            25,000 tokens) by default, or `None` for no limit. A note is read back whole by one
            `view`, so this bounds that tool result too.
        injection_threshold: The trained injection classifier's threshold on its score (0 to
            1]: texts that score at or over it are injection findings. Lower refuses more
            injections and more of your users' own preferences; `None` turns it off. Defaults
            to `DEFAULT_INJECTION_THRESHOLD`, chosen by the training script.

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
        second_line: ModelCheck | None = None,
        max_note_chars: int | None = 100_000,
        injection_threshold: float | None = DEFAULT_INJECTION_THRESHOLD,
    ) -> None:
        if injection_threshold is not None and (
            isinstance(injection_threshold, bool)
            or not isinstance(injection_threshold, int | float)
            or not 0.0 < injection_threshold <= 1.0
        ):
            msg = (
                f"WriteGate(injection_threshold={injection_threshold!r}) must be a number in "
                "(0, 1], or None to turn the trained injection detector off."
            )
            raise ValueError(msg)
        for name, policy in (("secrets", secrets), ("injection", injection)):
            if policy not in POLICIES:
                msg = f"WriteGate({name}={policy!r}) is not a policy; use one of {POLICIES}."
                raise ValueError(msg)
        for name, limit in (
            ("max_value_chars", max_value_chars),
            ("max_description_chars", max_description_chars),
            ("max_entries", max_entries),
            ("max_note_chars", max_note_chars),
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
        if second_line is not None and not isinstance(second_line, ModelCheck):
            msg = (
                f"WriteGate(second_line=...) takes a ModelCheck, got {second_line!r}; wrap "
                "your model as ModelCheck(model, timeout=5, on_error='reject')."
            )
            raise TypeError(msg)
        self.secrets: Policy = secrets
        self.injection: Policy = injection
        self.max_value_chars = max_value_chars
        self.max_description_chars = max_description_chars
        self.max_entries = max_entries
        self.checks: tuple[CustomCheck, ...] = tuple(checks)
        self.gate_developer_writes = gate_developer_writes
        self.second_line = second_line
        self.max_note_chars = max_note_chars
        self.injection_threshold = injection_threshold

    def __repr__(self) -> str:
        return (
            f"WriteGate(secrets={self.secrets!r}, injection={self.injection!r}, "
            f"max_value_chars={self.max_value_chars!r}, "
            f"max_description_chars={self.max_description_chars!r}, "
            f"max_entries={self.max_entries!r}, checks={[c.name for c in self.checks]!r}, "
            f"gate_developer_writes={self.gate_developer_writes!r}, "
            f"second_line={self.second_line!r}, max_note_chars={self.max_note_chars!r}, "
            f"injection_threshold={self.injection_threshold!r})"
        )

    # ----------------------------------------------------------------- the whole gate

    def check(self, candidate: WriteCandidate) -> GateDecision:
        """Judge one write: the deterministic checks, then the second line if there is one.

        With a second line this blocks for up to its timeout; in async code use `acheck`,
        and in a plan run `second_line` as a step (see `second_line_input`).

        Args:
            candidate: The write, with the context the limits need.

        Returns:
            The decision; store `decision.value`/`decision.description` unless it rejects.

        Raises:
            TypeError: If a custom check returns something other than findings.
        """
        decision = self.check_deterministic(candidate)
        review = self.second_line_input(candidate, decision)
        if review is None or self.second_line is None:
            return decision
        return self.combine(decision, self.second_line.invoke(review))

    async def acheck(self, candidate: WriteCandidate) -> GateDecision:
        """Async `check`: the second line runs with `ainvoke`.

        Args:
            candidate: The write, with the context the limits need.

        Returns:
            The decision, as for `check`.
        """
        decision = self.check_deterministic(candidate)
        review = self.second_line_input(candidate, decision)
        if review is None or self.second_line is None:
            return decision
        return self.combine(decision, await self.second_line.ainvoke(review))

    # ----------------------------------------------------------------- the parts, for plans

    def second_line_input(
        self, candidate: WriteCandidate, decision: GateDecision
    ) -> WriteCandidate | None:
        """What the second line should judge after `decision`, or `None` to skip it.

        `None` when there is no second line, for trusted developer writes, and when the
        deterministic checks already rejected the write. Otherwise the candidate with the
        redacted value and description, so secrets already cut out never reach the model.

        Args:
            candidate: The write as submitted.
            decision: `check_deterministic(candidate)`.

        Returns:
            The input for `self.second_line` (a `Runnable`), or `None`.
        """
        if self.second_line is None or decision.action == "reject":
            return None
        if candidate.written_by == "developer" and not self.gate_developer_writes:
            return None
        return replace(candidate, value=decision.value, description=decision.description)

    @staticmethod
    def combine(decision: GateDecision, verdict: SecondLineVerdict) -> GateDecision:
        """The decision after the second line: the stricter action, and both sets of findings.

        Args:
            decision: The deterministic decision.
            verdict: What `second_line` returned for `second_line_input(...)`.

        Returns:
            A new decision; its value stays the (redacted) deterministic one.
        """
        action = verdict.action if RANK[verdict.action] > RANK[decision.action] else decision.action
        return replace(decision, action=action, findings=decision.findings + verdict.findings)

    def check_deterministic(self, candidate: WriteCandidate) -> GateDecision:
        """Judge one write with the deterministic checks only: pure, no model, no I/O.

        Args:
            candidate: The write, with the context the limits need.

        Returns:
            The decision of the first line.

        Raises:
            TypeError: If a custom check returns something other than findings.
        """
        if candidate.written_by == "developer" and not self.gate_developer_writes:
            return GateDecision(
                "allow", candidate.value, candidate.description, kind=candidate.kind
            )

        limits = limit_findings(
            candidate,
            max_value_chars=self.max_value_chars,
            max_description_chars=self.max_description_chars,
            max_entries=self.max_entries,
            max_note_chars=self.max_note_chars,
        )
        if limits:
            # Limits always reject: nothing is scanned (a 10 MB value is refused at once).
            return GateDecision(
                "reject", candidate.value, candidate.description, tuple(limits), kind=candidate.kind
            )
        judged: list[tuple[Finding, GateAction]] = []
        fields: list[tuple[FindingField, str]] = [
            ("key", candidate.key),
            ("value", candidate.value),
        ]
        if candidate.description:
            fields.append(("description", candidate.description))
        if candidate.type:
            fields.append(("type", candidate.type))
        texts = dict(fields)
        redactions: dict[FindingField, list[Span]] = {}
        scored: list[tuple[FindingField, Hit]] = []
        for field_name, text in fields:
            # Keys and types are identifiers, also read as words ("ignore_all_previous..."):
            # the trained detector reads them only as prose (four words or more).
            if field_name in ("value", "description"):
                found = scan(text, injection_threshold=self.injection_threshold)
            else:
                found = scan_identifier(text, injection_threshold=self.injection_threshold)
            for hit in found:
                if hit.detector == LEARNED:
                    scored.append((field_name, hit))
                    continue
                policy = self.secrets if hit.category == "secret" else self.injection
                finding = Finding(
                    hit.detector, hit.category, hit.reason, (hit.start, hit.end), field_name
                )
                action = effective_action(finding, policy)
                if action == "redact":
                    redactions.setdefault(field_name, []).append((hit.start, hit.end, hit.label))
                judged.append((finding, action))
            if field_name in redactions and field_name in ("value", "description"):
                self._judge_remainder(field_name, text, redactions, judged)
        if not any(f.category == "secret" for f, _ in judged):
            # Nothing whole was found: look for a secret cut across lines or fields.
            split = _split_secrets(candidate)
            judged.extend((f, effective_action(f, self.secrets)) for f in split)
        for check in self.checks:
            for finding in _as_findings(check, check.fn(candidate)):
                action = effective_action(finding, check.policy)
                if action == "redact" and finding.span is not None:
                    start, end = finding.span
                    redactions.setdefault(finding.field, []).append((start, end, check.name))
                judged.append((finding, action))
        if redactions:
            judged.extend(repeats(texts, redactions, judged))
        # The classifier's findings count in fields without a secret (a secret's field, copies
        # included, is the secret detectors' to judge: see `_scan`).
        with_secret = {f.field for f, _ in judged if f.category == "secret"}
        for field_name, hit in scored:
            if field_name in with_secret:
                continue
            finding = Finding(
                hit.detector, hit.category, hit.reason, (hit.start, hit.end), field_name
            )
            action = effective_action(finding, self.injection)
            if action == "redact":
                redactions.setdefault(field_name, []).append((hit.start, hit.end, hit.label))
            judged.append((finding, action))

        verdict: GateAction = "allow"
        for _, finding_action in judged:
            if RANK[finding_action] > RANK[verdict]:
                verdict = finding_action
        value = redact(candidate.value, redactions.get("value", []))
        description = candidate.description
        if description is not None:
            description = redact(description, redactions.get("description", []))
        return GateDecision(
            verdict, value, description, tuple(f for f, _ in judged), kind=candidate.kind
        )

    def _judge_remainder(
        self,
        field_name: FindingField,
        text: str,
        redactions: dict[FindingField, list[Span]],
        judged: list[tuple[Finding, GateAction]],
    ) -> None:
        """Under `redact`, cut the whole field when what the cuts left still instructs.

        A redacted write never stores half an order: the classifier reads the rest of the
        field, and when it still scores at or over the threshold the field goes whole.
        """
        threshold = self.injection_threshold
        if threshold is None or self.injection != "redact":
            return
        left = redact(text, redactions[field_name])
        hit = remainder_hit(left, threshold)
        if hit is None:
            return
        finding = Finding(hit.detector, hit.category, hit.reason, (0, len(text)), field_name)
        redactions[field_name].append((0, len(text), hit.label))
        judged.append((finding, "redact"))


# Detectors of unlabelled randomness would read any joined list of ids as one token.
_UNJOINABLE = frozenset({"bare_token", "key_body", "seed_phrase"})


def _split_secrets(candidate: WriteCandidate) -> list[Finding]:
    """Secrets cut in two: across the lines of the value, or between description and value.

    Each piece alone may be too short for any format; joined, the key is whole. Only hits that
    cross a joint count (the rest was judged field by field); they have no span in one field,
    so they reject even under `redact`.
    """
    value, description = candidate.value, candidate.description or ""
    joins: list[tuple[str, list[int], str]] = []
    if "\n" in value:
        pieces = value.split("\n")
        joints = [sum(len(p) for p in pieces[: i + 1]) for i in range(len(pieces) - 1)]
        joins.append(("".join(pieces), joints, "split across lines"))
    if description.strip():
        before, after = description.rstrip(), value.lstrip()
        joins.append((before + after, [len(before)], "split between description and value"))
        before, after = value.rstrip(), description.lstrip()
        joins.append((before + after, [len(before)], "split between value and description"))
    found: list[Finding] = []
    for text, joints, how in joins:
        for hit in scan(text, injection=False):
            if hit.detector in _UNJOINABLE or not any(hit.start < j < hit.end for j in joints):
                continue
            found.append(Finding(hit.detector, "secret", f"{hit.reason}, {how}", None, "value"))
            break
    if description.strip() and 0 < len(value.split()) <= _LABELLED_VALUE_WORDS:
        found.extend(_labelled_by_description(description.strip(), value.strip()))
    return found


# A value the description labels is a token or two ("Qv7ktr29wz", "bob / Qv7ktr29wz"); prose
# values are not read again behind their description.
_LABELLED_VALUE_WORDS = 3


def _labelled_by_description(description: str, value: str) -> list[Finding]:
    """A secret in the value that only its description labels ("home wifi password").

    The description and the value are read as one text, with a space between: a hit that
    lies in the value, and that the value alone does not have, is a secret the label made.
    """
    offset = len(description) + 1
    alone = {(h.start, h.end) for h in scan(value, injection=False)}
    for hit in scan(f"{description} {value}", injection=False):
        span = (hit.start - offset, hit.end - offset)
        if hit.detector in _UNJOINABLE or span[0] < 0 or span in alone:
            continue
        reason = f"{hit.reason}, labelled by the description"
        return [Finding(hit.detector, "secret", reason, None, "value")]
    return []


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
    """A ready check that admits only writes which say where a fact came from and how sure it is.

    A write passes only if it carries provenance, its confidence is at least
    `min_confidence`, its sensitivity is not `restricted`, and (by default) it names a source.
    Everything else is refused with a reason that tells the model what is missing.

    Args:
        min_confidence: Lowest accepted `Provenance.confidence`, from 0 to 1.
        require_source: Also require `Provenance.source` (the message or document it came from).
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
    return CustomCheck("seed_policy", seed_findings(min_confidence, require_source), policy)


DEFAULT_GATE = WriteGate()
"""A gate with the documented defaults: secrets and injection rejected, values up to 4,000
characters, descriptions up to 500, no entry limit, developer writes trusted."""
