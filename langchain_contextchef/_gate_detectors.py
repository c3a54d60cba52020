"""Every detector family of the write gate, run over one view of a text.

The scanner (`_gate_scan`) folds a text (`_gate_normalize`), derives the views that undo the
hiding tricks, and calls these functions on each view; they return hits in that view's offsets.
The families:

- named secret formats and labelled credentials (`_gate_secrets`), numbers that are secrets
  (`_gate_numbers`): regex detectors;
- instructions in English prose (`_gate_instructions`) and markup addressed to a model
  (`_gate_markup`): regex detectors, plus forged Python-style tool calls;
- passwords, codes and instructions in every lexicon language, and in leetspeak
  (`_gate_multilingual`);
- secrets with no label at all: bare random tokens and key bodies (`_gate_entropy`).

A regex detector runs only when one of its trigger words occurs in the lowered view (Python's
`re` tries an alternation at every position, so skipping detectors whose anchor words are
absent keeps a 4,000-character check fast). Order matters: on one span and category the
first detector wins, so named formats run before the generic ones.
"""

from __future__ import annotations

from langchain_contextchef._gate_entropy import bare_token_hits, key_body_hits
from langchain_contextchef._gate_hit import Hit
from langchain_contextchef._gate_instructions import INSTRUCTION_DETECTORS
from langchain_contextchef._gate_markup import MARKUP_DETECTORS, tool_call_hits
from langchain_contextchef._gate_multilingual import credential_hits, injection_hits, otp_hits
from langchain_contextchef._gate_normalize import leet_lines, skeleton
from langchain_contextchef._gate_numbers import CARD, NUMBER_DETECTORS, THREE_DIGITS
from langchain_contextchef._gate_patterns import lower_same_length, run_detector
from langchain_contextchef._gate_secrets import SECRET_FORMATS

__all__ = ["core_hits", "reversed_hits", "squeezed_hits"]

_SECRET_SET = SECRET_FORMATS + NUMBER_DETECTORS
_INJECTION_SET = INSTRUCTION_DETECTORS + MARKUP_DETECTORS
_TRIGGER_WORDS: frozenset[str] = frozenset().union(
    *(d.triggers for d in _SECRET_SET + _INJECTION_SET)
)
_SECRET_TRIGGER_WORDS: frozenset[str] = frozenset().union(*(d.triggers for d in _SECRET_SET))


def core_hits(view: str, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """Run every detector over one folded view (no derived views, no invisible characters).

    Args:
        view: A folded text (`_gate_normalize.fold(...).text`), case kept.
        secrets: Run the secret detectors.
        injection: Run the prompt-injection detectors.

    Returns:
        Hits in `view` offsets, unordered.
    """
    hits: list[Hit] = []
    lowered = lower_same_length(view)
    has_digits = THREE_DIGITS.search(view) is not None
    # Each trigger word is looked up once per text, not once per detector that names it.
    present = {word for word in _TRIGGER_WORDS if word in lowered}
    selected = (_SECRET_SET if secrets else ()) + (_INJECTION_SET if injection else ())
    for detector in selected:
        if detector.needs_digits and not has_digits:
            continue
        if detector.triggers and present.isdisjoint(detector.triggers):
            continue
        run_detector(detector, view, hits, lowered)
    if secrets:
        hits.extend(credential_hits(lowered))
        if has_digits:
            hits.extend(otp_hits(lowered))
        hits.extend(bare_token_hits(view))
        hits.extend(key_body_hits(view))
    if injection:
        hits.extend(injection_hits(lowered))
        hits.extend(_leet_hits(lowered))
        if "(" in view:
            hits.extend(tool_call_hits(view))
    return hits


def squeezed_hits(view: str) -> list[Hit]:
    """Instruction lexicon hits in a view whose spaces are gone ("ignoreallprevious...")."""
    lowered = lower_same_length(view)
    hits = injection_hits(lowered, squeezed=True)
    hits.extend(_leet_hits(lowered, squeezed=True))
    return hits


def _leet_hits(lowered: str, *, squeezed: bool = False) -> list[Hit]:
    """Instruction lexicon hits in the leetspeak skeleton of the lines that hold leetspeak."""
    hits: list[Hit] = []
    for start, end in leet_lines(lowered):
        for hit in injection_hits(skeleton(lowered[start:end]), squeezed=squeezed):
            hits.append(hit.moved(hit.start + start, hit.end + start))
    return hits


def reversed_hits(view: str, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """The detectors worth running on a text written backwards.

    The lexicons cover instructions, passwords and codes in every language (English included),
    the card check needs the digits in order, and named key formats are matched only when
    their trigger words occur backwards. The English injection regexes are skipped (the
    lexicons say the same things) to keep the cost of this view low.
    """
    hits: list[Hit] = []
    lowered = lower_same_length(view)
    if secrets:
        # Named key formats too: a reversed "glpat-..." is too short for the entropy check.
        # Their trigger words ("glpat-", "akia") rarely occur in reversed prose, so the
        # prefilter skips almost all of them.
        present = {word for word in _SECRET_TRIGGER_WORDS if word in lowered}
        for detector in _SECRET_SET:
            if detector.triggers and not present.isdisjoint(detector.triggers):
                run_detector(detector, view, hits, lowered)
        hits.extend(credential_hits(lowered))
        if THREE_DIGITS.search(view) is not None:
            hits.extend(otp_hits(lowered))
            run_detector(CARD, view, hits)
    if injection:
        hits.extend(injection_hits(lowered))
    return hits
