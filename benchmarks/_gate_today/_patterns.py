"""What a pattern detector of the write gate is, and how one runs over a view.

A `Detector` is a compiled regex with the words that must occur before it is worth running
(its prefilter), an optional check on each match, and the noun phrase shown to the model. The
families of detectors live beside this module: named secret formats (`_secrets`),
numbers that are secrets (`_numbers`), instructions in prose (`_instructions`) and
markup addressed to a model (`_markup`); `_detectors` runs them.

Everything here is pure: patterns are compiled once, at import.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from benchmarks._gate_today._hit import Hit, HitCategory

__all__ = ["Detector", "Validator", "detector", "lower_same_length", "run_detector"]

Validator = Callable[[re.Match[str]], bool]
"""A check on one match; the match counts only when it returns `True`."""


@dataclass(frozen=True)
class Detector:
    """One pattern detector.

    Attributes:
        name: Stable detector name, e.g. `openai_key`.
        category: `secret` or `injection`.
        reason: Noun phrase safe to show the model; never contains matched text.
        label: Redaction label for the placeholder `[REDACTED:<label>]`.
        pattern: The compiled regex, run on a folded view with the case kept.
        triggers: Cheap substring tests on the lower-cased view; any one of them must succeed
            before the regex runs (none: always run).
        needs_digits: Also require a run of three digits in the view.
        needs_long_run: Every match holds 16 characters of the base64/URL-safe alphabet in a
            row (`_entropy.has_long_run`), so a view without such a run is skipped. A
            fact about the pattern, unlike `needs_digits`, which is a policy.
        group: The regex group whose span is the hit.
        validate: A check on each match, or `None`.
        fast: The same pattern without IGNORECASE, for the lower-cased view: case-insensitive
            matching defeats the regex engine's literal prefix scan, so candidates are found
            on the lowered text and confirmed with `pattern` at the same offset.
        hint: A cheap regex that finds something in every text `pattern` matches in (a part
            every match contains); when it finds nothing the detector is skipped. For
            patterns that open with a lookbehind, which the engine tries at every position.
    """

    name: str
    category: HitCategory
    reason: str
    label: str
    pattern: re.Pattern[str]
    triggers: frozenset[str] = frozenset()
    needs_digits: bool = False
    needs_long_run: bool = False
    group: int = 0
    validate: Validator | None = None
    fast: re.Pattern[str] | None = None
    hint: re.Pattern[str] | None = None


def detector(
    name: str,
    category: HitCategory,
    reason: str,
    label: str,
    pattern: str,
    flags: int = 0,
    *,
    triggers: Sequence[str] = (),
    needs_digits: bool = False,
    needs_long_run: bool = False,
    group: int = 0,
    validate: Validator | None = None,
    hint: str | None = None,
) -> Detector:
    """Compile one detector (see `Detector` for the arguments)."""
    return Detector(
        name,
        category,
        reason,
        label,
        re.compile(pattern, flags),
        triggers=frozenset(triggers),
        needs_digits=needs_digits,
        needs_long_run=needs_long_run,
        group=group,
        validate=validate,
        fast=re.compile(pattern, flags & ~re.IGNORECASE)
        if _lowercase_safe(pattern, flags)
        else None,
        hint=re.compile(hint, flags) if hint is not None else None,
    )


def _lowercase_safe(pattern: str, flags: int) -> bool:
    """Whether a case-insensitive pattern matches lower-cased text without IGNORECASE.

    True when no upper-case letter stands outside escapes and no character class holds
    upper case only.
    """
    if not flags & re.IGNORECASE:
        return False
    bare = re.sub(r"\\.", "", pattern)
    classes = re.findall(r"\[[^\]]*\]", bare)
    if any(re.search("[A-Z]", c) and not re.search("[a-z]", c) for c in classes):
        return False
    return re.search("[A-Z]", re.sub(r"\[[^\]]*\]", "", bare)) is None


def run_detector(detector: Detector, text: str, out: list[Hit], lowered: str | None = None) -> None:
    """Append the hits of one detector in `text` to `out`.

    Args:
        detector: The detector to run (its prefilter is the caller's business).
        text: A folded view, case kept.
        out: Where the hits go, in `text` offsets.
        lowered: `lower_same_length(text)`, to use the detector's fast pattern; `None` runs
            the case-insensitive pattern directly.
    """
    if detector.hint is not None and detector.hint.search(text) is None:
        return
    if detector.fast is not None and lowered is not None:
        confirmed = (
            detector.pattern.match(text, m.start()) for m in detector.fast.finditer(lowered)
        )
        matches: Iterable[re.Match[str] | None] = confirmed
    else:
        matches = detector.pattern.finditer(text)
    for match in matches:
        if match is None:
            continue
        if detector.validate is not None and not detector.validate(match):
            continue
        start, end = match.span(detector.group)
        if start < end:
            out.append(
                Hit(detector.name, detector.category, detector.reason, detector.label, start, end)
            )


def lower_same_length(text: str) -> str:
    """`text.lower()`, keeping offsets: characters whose lower case is longer stay as they are."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
