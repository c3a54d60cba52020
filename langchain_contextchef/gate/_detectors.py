"""Every detector family of the write gate, run over one view of a text.

The scanner (`_scan`) folds a text (`_normalize`), derives the views that undo the
hiding tricks, and calls these functions on each view; they return hits in that view's offsets.
The families:

- named secret formats and labelled credentials (`_secrets`), numbers that are secrets
  (`_numbers`): regex detectors;
- instructions in English prose (`_instructions`) and markup addressed to a model
  (`_markup`): regex detectors, plus forged Python-style tool calls;
- passwords, codes and instructions in every lexicon language, and in leetspeak
  (`_multilingual`);
- secrets with no label at all: bare random tokens and key bodies (`_entropy`).

A regex detector runs only when one of its trigger words occurs in the lowered view (Python's
`re` tries an alternation at every position, so skipping detectors whose anchor words are
absent keeps a 4,000-character check fast), and a lexicon matcher only when an anchor of one
of its entries does (a word every match contains). One prefilter pass (`TRIGGERS`, see
`_triggers`) answers both questions for a view and for the view written backwards, and
`probe` keeps the answer with the lowered view: on a short benign value most families never
start. Order matters: on one span and category the first detector wins, so named formats run
before the generic ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from langchain_contextchef.gate._entropy import (
    bare_token_hits,
    base85_token_hits,
    has_long_run,
    key_body_hits,
    seed_phrase_hits,
)
from langchain_contextchef.gate._hit import Hit
from langchain_contextchef.gate._instructions import INSTRUCTION_DETECTORS, device_setting
from langchain_contextchef.gate._markup import MARKUP_DETECTORS, tool_call_hits
from langchain_contextchef.gate._multilingual import (
    ANCHORS,
    credential_hits,
    injection_hits,
    otp_hits,
)
from langchain_contextchef.gate._normalize import leet_lines, skeleton
from langchain_contextchef.gate._numbers import CARD, NUMBER_DETECTORS, THREE_DIGITS
from langchain_contextchef.gate._patterns import lower_same_length, run_detector
from langchain_contextchef.gate._secrets import SECRET_FORMATS
from langchain_contextchef.gate._spelled import SPELLED_ANCHORS, spelled_hits
from langchain_contextchef.gate._triggers import Triggers

__all__ = [
    "TRIGGERS",
    "Probe",
    "core_hits",
    "probe",
    "probe_both",
    "reversed_hits",
    "squeezed_hits",
]

_SECRET_SET = SECRET_FORMATS + NUMBER_DETECTORS
_INJECTION_SET = INSTRUCTION_DETECTORS + MARKUP_DETECTORS

_ALL = _SECRET_SET + _INJECTION_SET
_SECRETS_END = len(_SECRET_SET)

TRIGGERS = Triggers(ANCHORS.union(SPELLED_ANCHORS, *(d.triggers for d in _ALL)))
"""Every word whose absence lets a family skip a view: detector triggers, lexicon anchors."""

# Which detectors (by position in `_ALL`) each trigger word wakes, as a bit mask, and those
# that always run.
_WAKES: dict[str, int] = {
    word: sum(1 << i for i, d in enumerate(_ALL) if word in d.triggers)
    for word in TRIGGERS.literals
}
_UNTRIGGERED = tuple(i for i, d in enumerate(_ALL) if not d.triggers)
_UNTRIGGERED_MASK = sum(1 << i for i in _UNTRIGGERED)
# The detector positions of each mask seen so far: views of ordinary text wake the same few
# combinations over and over. Bounded: past the limit, masks are decoded each time.
_DECODED: dict[int, tuple[int, ...]] = {}
_DECODED_LIMIT = 4096


def _woken(present: set[str], *, always: bool) -> Sequence[int]:
    """Positions in `_ALL`, in order, of the detectors a trigger in `present` wakes.

    With `always`, also the detectors that have no trigger word (they run on every view).
    The order is the detectors' own: on one span the first detector wins.
    """
    mask = _UNTRIGGERED_MASK if always else 0
    for word in present:
        mask |= _WAKES.get(word, 0)
    positions = _DECODED.get(mask)
    if positions is None:
        positions = tuple(i for i in range(len(_ALL)) if mask >> i & 1)
        if len(_DECODED) < _DECODED_LIMIT:
            _DECODED[mask] = positions
    return positions


class Probe(NamedTuple):
    """What the detectors need to know about one folded view, worked out once.

    A named tuple: two are built per scanned text, and a tuple builds fastest.

    Attributes:
        view: The folded view, case kept.
        lowered: `lower_same_length(view)`.
        present: The trigger words and anchors in `lowered` (`TRIGGERS.present`).
        has_digits: Whether the view holds a run of three digits (`THREE_DIGITS`).
        long_run: Whether it holds 16 base64-alphabet characters in a row (`has_long_run`):
            tokens, key bodies and encoded runs all do.
    """

    view: str
    lowered: str
    present: set[str]
    has_digits: bool
    long_run: bool


def probe(view: str) -> Probe:
    """Lower a folded view and find its trigger words."""
    lowered = lower_same_length(view)
    return Probe(
        view,
        lowered,
        TRIGGERS.present(lowered),
        THREE_DIGITS.search(view) is not None,
        has_long_run(view),
    )


def probe_both(view: str) -> tuple[Probe, Probe]:
    """`probe(view)` and `probe(view[::-1])`, with one trigger pass and one search of each kind.

    Runs of digits and of the base64 alphabet read the same both ways. The
    reversed view's lowered text is the lowered text reversed except where lower case depends
    on the neighbours (a Greek final sigma); then the reversed view gets its own pass.
    """
    lowered = lower_same_length(view)
    backwards = view[::-1]
    back_lowered = lower_same_length(backwards)
    has_digits = THREE_DIGITS.search(view) is not None
    long_run = has_long_run(view)
    if back_lowered == lowered[::-1]:
        present, back_present = TRIGGERS.present_both(lowered)
    else:
        present, back_present = TRIGGERS.present(lowered), TRIGGERS.present(back_lowered)
    return (
        Probe(view, lowered, present, has_digits, long_run),
        Probe(backwards, back_lowered, back_present, has_digits, long_run),
    )


def core_hits(probed: Probe, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """Run every detector over one folded view (no derived views, no invisible characters).

    Args:
        probed: The view, from `probe` or `probe_both`.
        secrets: Run the secret detectors.
        injection: Run the prompt-injection detectors.

    Returns:
        Hits in view offsets, unordered.
    """
    hits: list[Hit] = []
    view, lowered, present, has_digits, long_run = probed
    for index in _woken(present, always=True):
        if not (secrets if index < _SECRETS_END else injection):
            continue
        detector = _ALL[index]
        if (detector.needs_digits and not has_digits) or (detector.needs_long_run and not long_run):
            continue
        run_detector(detector, view, hits, lowered)
    # The lexicon matchers look only at their anchors; most values hold none of them.
    lexical = present & ANCHORS
    if secrets:
        if lexical:
            hits.extend(credential_hits(lowered, lexical))
            if has_digits:
                hits.extend(otp_hits(lowered, lexical))
        if not SPELLED_ANCHORS.isdisjoint(present):
            hits.extend(spelled_hits(lowered, present))
        hits.extend(bare_token_hits(view, long_run=long_run))
        hits.extend(base85_token_hits(view))
        hits.extend(key_body_hits(view, long_run=long_run))
        hits.extend(seed_phrase_hits(lowered))
    if injection:
        if lexical:
            hits.extend(injection_hits(lowered, present=lexical))
        hits.extend(_leet_hits(lowered))
        if "(" in view:
            hits.extend(tool_call_hits(view))
        if any(h.detector in _MODE_DETECTORS for h in hits):
            hits = [h for h in hits if not _device_mode(h, lowered)]
    return hits


_MODE_DETECTORS = frozenset({"obey_override", "system_prompt_lexicon"})


def _device_mode(hit: Hit, lowered: str) -> bool:
    """Whether a hit is only a developer-mode phrase about a phone, a browser or a game."""
    return hit.detector in _MODE_DETECTORS and device_setting(lowered, hit.start, hit.end)


def squeezed_hits(view: str) -> list[Hit]:
    """Instruction lexicon hits in a view whose spaces are gone ("ignoreallprevious...")."""
    lowered = lower_same_length(view)
    hits = _lexicon_injection_hits(lowered, squeezed=True)
    hits.extend(_leet_hits(lowered, squeezed=True))
    return hits


def _lexicon_injection_hits(lowered: str, *, squeezed: bool) -> list[Hit]:
    """`injection_hits` on a view not probed yet, skipped when the view holds no anchor."""
    lexical = TRIGGERS.present(lowered) & ANCHORS
    return injection_hits(lowered, squeezed=squeezed, present=lexical) if lexical else []


def _leet_hits(lowered: str, *, squeezed: bool = False) -> list[Hit]:
    """Instruction lexicon hits in the leetspeak skeleton of the lines that hold leetspeak."""
    hits: list[Hit] = []
    for start, end in leet_lines(lowered):
        for hit in _lexicon_injection_hits(skeleton(lowered[start:end]), squeezed=squeezed):
            hits.append(hit.moved(hit.start + start, hit.end + start))
    return hits


def reversed_hits(probed: Probe, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """The detectors worth running on a text written backwards.

    The lexicons cover instructions, passwords and codes in every language (English included),
    the card check needs the digits in order, and named key formats are matched only when
    their trigger words occur backwards. The English injection regexes are skipped (the
    lexicons say the same things) to keep the cost of this view low.

    Args:
        probed: The reversed view (the second probe of `probe_both`).
        secrets: Run the secret detectors.
        injection: Run the prompt-injection detectors.

    Returns:
        Hits in the reversed view's offsets.
    """
    hits: list[Hit] = []
    view, lowered, present = probed.view, probed.lowered, probed.present
    lexical = present & ANCHORS
    if secrets:
        # Named key formats too: a reversed "glpat-..." is too short for the entropy check.
        # Their trigger words ("glpat-", "akia") rarely occur in reversed prose, so the
        # prefilter skips almost all of them.
        for index in _woken(present, always=False):
            detector = _ALL[index]
            if index < _SECRETS_END and (probed.long_run or not detector.needs_long_run):
                run_detector(detector, view, hits, lowered)
        if lexical:
            hits.extend(credential_hits(lowered, lexical))
        if probed.has_digits:
            if lexical:
                hits.extend(otp_hits(lowered, lexical))
            run_detector(CARD, view, hits)
    if injection and lexical:
        hits.extend(injection_hits(lowered, present=lexical))
    return hits
