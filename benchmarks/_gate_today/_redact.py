"""Redaction for the write gate: what a finding lets it cut, and cutting every repeat.

Under a `redact` policy the gate stores the write with each flagged span replaced by a
placeholder such as `[REDACTED:api_key]`. A secret written twice must not survive in its
second copy, so every other occurrence of a redacted text, in any field and in any spelling
that folds to the same characters (fullwidth, zero-width spaces inside), is cut too. The key
and the type of a write cannot be rewritten, so a finding there rejects instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeAlias

from benchmarks._gate_today._normalize import fold
from benchmarks._gate_today._types import Finding, FindingField, GateAction, Policy

__all__ = ["Span", "effective_action", "redact", "repeats"]

Span: TypeAlias = tuple[int, int, str]
"""A cut: start, end (exclusive) and the placeholder label; an empty label drops the text."""

# Shorter repeats would cut ordinary words that happen to equal a short secret.
_MIN_LITERAL = 3


def effective_action(finding: Finding, policy: Policy) -> GateAction:
    """What `policy` does to the write for this finding.

    A key or a type cannot be rewritten and a finding without a span has nothing to cut, so
    `redact` becomes `reject` for them.
    """
    if policy == "redact" and (finding.span is None or finding.field in ("key", "type")):
        return "reject"
    return policy


def redact(text: str, spans: list[Span]) -> str:
    """Replace spans with placeholders; overlapping spans are merged."""
    if not spans:
        return text
    merged: list[Span] = []
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


def _occurrences(text: str, literal: str) -> list[tuple[int, int]]:
    """Every span of `text` that reads as `literal` once both are folded.

    So a repeat in fullwidth, or with a zero-width space inside, is found too.
    """
    if not text or not literal:
        return []
    folded, needle = fold(text), fold(literal).text
    if len(needle) < _MIN_LITERAL:
        return []
    spans: list[tuple[int, int]] = []
    at = folded.text.find(needle)
    while at >= 0:
        spans.append(folded.span(at, at + len(needle)))
        at = folded.text.find(needle, at + len(needle))
    return spans


def repeats(
    texts: dict[FindingField, str],
    redactions: dict[FindingField, list[Span]],
    judged: list[tuple[Finding, GateAction]],
) -> list[tuple[Finding, GateAction]]:
    """Redact every other occurrence of each redacted literal, in every field.

    A repeat in the value or description is cut like the first one (added to `redactions`);
    a repeat in the key or type cannot be cut, so it rejects.

    Args:
        texts: Each field of the write that was scanned, by name.
        redactions: The cuts so far, by field; extended in place.
        judged: The findings so far with their actions, to find each cut's finding.

    Returns:
        A finding and its action for each repeat found.
    """
    literals: dict[str, tuple[str, Finding]] = {}
    by_span = {(f.field, f.span): f for f, _ in judged if f.span is not None}
    for field_name, spans in redactions.items():
        for start, end, label in spans:
            literal = texts[field_name][start:end]
            finding = by_span.get((field_name, (start, end)))
            if label and len(literal.strip()) >= _MIN_LITERAL and finding is not None:
                literals.setdefault(literal, (label, finding))
    extra: list[tuple[Finding, GateAction]] = []
    for literal, (label, source) in literals.items():
        for field_name, text in texts.items():
            for start, end in _occurrences(text, literal):
                if any(s <= start and end <= e for s, e, _ in redactions.get(field_name, [])):
                    continue
                finding = replace(source, span=(start, end), field=field_name)
                if field_name in ("key", "type"):
                    extra.append((finding, "reject"))
                else:
                    redactions.setdefault(field_name, []).append((start, end, label))
                    extra.append((finding, "redact"))
    return extra
