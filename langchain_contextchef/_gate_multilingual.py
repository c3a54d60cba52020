"""Matchers compiled from the multilingual lexicons (`_gate_lexicon`).

Every function here takes a *lowered folded* view (see `_gate_normalize`) and returns hits in
that view's offsets; the scanner maps them back to the original text. Patterns are compiled
once, at import, as one alternation per category across all languages, so the cost of a check
does not grow with the number of languages: at most positions the regex engine fails on the
first character.

Detections:

- instruction override: an override verb, an object ("instructions", "rules") and a scope
  ("previous", "all") in one clause, in any order (verb-final languages put the verb last),
  or one of the whole override phrases;
- role reassignment and system-prompt replacement phrases;
- credentials: a password word, an optional qualifier ("for the staging db", "für den
  Server"), a separator or copula and a value that is not an ordinary word; `pw`/`pass`
  shorthand; `login user / secret` pairs;
- one-time codes: a code phrase before or after a 4-8 digit number (`493817 is your code`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_contextchef._gate_hit import Hit, HitCategory
from langchain_contextchef._gate_lexicon import LEXICONS, Lexicon
from langchain_contextchef._gate_normalize import fold_word

__all__ = [
    "ROLE_LABELS",
    "credential_hits",
    "injection_hits",
    "looks_like_password",
    "otp_hits",
]

_GAP = r"(?:\S+\s+){0,3}?"


def _alternative(word: str) -> str:
    star = word.endswith("*")
    exact = word.endswith(".")
    text = fold_word(word.rstrip("*."))
    return re.escape(text) + (r"\w*" if star else r"(?!\w)" if exact else "")


def _entry(entry: str, spaced: bool, *, squeezed: bool, stem: bool) -> str:
    """One lexicon entry as a regex on the folded view (see the notation in `_gate_lexicon`)."""
    inside = entry.startswith("*") or not spaced or squeezed
    words = entry.lstrip("*").replace("_", " ").split()
    parts: list[str] = []
    for index, word in enumerate(words):
        if word == "…":
            parts.append(_GAP)
            continue
        last = index == len(words) - 1
        alternatives: list[str] = []
        for alt in word.split("|"):
            if last and stem and spaced and not squeezed and not alt.endswith((".", "*")):
                alt += "*"
            alternatives.append(_alternative(alt))
        parts.append("(?:" + "|".join(alternatives) + ")")
    separator = r"\s*" if inside and (not spaced or squeezed) else r"[\s,]+"
    body = separator.join(part for part in parts)
    body = body.replace(_GAP + separator, _GAP)
    if not inside:
        body = r"(?<!\w)" + body
        if not stem and not words[-1].endswith("*"):
            body += r"(?!\w)"
    return body


def _compile(
    field: str, *, squeezed: bool = False, stem: bool = False, only: Iterable[Lexicon] = LEXICONS
) -> re.Pattern[str] | None:
    parts: list[str] = []
    for lexicon in only:
        entries: tuple[str, ...] = getattr(lexicon, field)
        parts.extend(_entry(e, lexicon.spaced, squeezed=squeezed, stem=stem) for e in entries)
    if not parts:
        return None
    # Longest alternatives first, so "password" wins over "pass" at the same position.
    parts.sort(key=len, reverse=True)
    return re.compile("|".join(f"(?:{p})" for p in dict.fromkeys(parts)))


@dataclass(frozen=True)
class _Kind:
    detector: str
    reason: str
    label: str


_OVERRIDE = _Kind("override_lexicon", "an instruction to ignore previous instructions", "instruction")
_ROLE = _Kind("role_lexicon", "an attempt to give the assistant a new role", "instruction")
_PROMPT = _Kind(
    "system_prompt_lexicon",
    "an attempt to replace, reveal or unlock the system prompt",
    "instruction",
)
_PASSWORD = _Kind("password_lexicon", "a password", "password")
_OTP = _Kind("one_time_code_lexicon", "a one-time or verification code", "otp")


@dataclass(frozen=True)
class _Set:
    """The injection patterns of one view flavour (word-start, or squeezed)."""

    verbs: re.Pattern[str]
    scope: re.Pattern[str]
    objects: re.Pattern[str]
    phrases: tuple[tuple[_Kind, re.Pattern[str]], ...]


def _injection_set(squeezed: bool) -> _Set:
    def need(pattern: re.Pattern[str] | None) -> re.Pattern[str]:
        assert pattern is not None  # every category has entries
        return pattern

    phrases = tuple(
        (kind, need(_compile(field, squeezed=squeezed)))
        for kind, field in (
            (_OVERRIDE, "override_phrases"),
            (_ROLE, "role_phrases"),
            (_PROMPT, "prompt_phrases"),
        )
    )
    return _Set(
        verbs=need(_compile("override_verbs", squeezed=squeezed, stem=True)),
        scope=need(_compile("override_scope", squeezed=squeezed, stem=True)),
        objects=need(_compile("override_objects", squeezed=squeezed, stem=True)),
        phrases=phrases,
    )


_SPACED = _injection_set(squeezed=False)
_SQUEEZED = _injection_set(squeezed=True)

_CLAUSE_END = re.compile(r"[.!?;\n。！？；]")
_WINDOW = 90


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around `[start, end)`, at most `_WINDOW` characters each side."""
    low = max(0, start - _WINDOW)
    for match in _CLAUSE_END.finditer(text, low, start):
        low = match.end()
    high = min(len(text), end + _WINDOW)
    stop = _CLAUSE_END.search(text, end, high)
    return low, stop.start() if stop else high


def _hit(kind: _Kind, start: int, end: int, category: HitCategory = "injection") -> Hit:
    return Hit(kind.detector, category, kind.reason, kind.label, start, end)


def injection_hits(view: str, *, squeezed: bool = False) -> list[Hit]:
    """Instruction overrides, role and system-prompt phrases in any lexicon language.

    Args:
        view: A lowered folded view (or its leetspeak skeleton).
        squeezed: The view has lost its spaces (collapsed spaced-out letters); match stems
            anywhere.

    Returns:
        Hits in `view` offsets.
    """
    patterns = _SQUEEZED if squeezed else _SPACED
    hits: list[Hit] = []
    for verb in patterns.verbs.finditer(view):
        low, high = _clause(view, verb.start(), verb.end())
        found = patterns.objects.search(view, low, high)
        scope = patterns.scope.search(view, low, high) if found else None
        if found and scope:
            start = min(verb.start(), found.start(), scope.start())
            end = max(verb.end(), found.end(), scope.end())
            hits.append(_hit(_OVERRIDE, start, end))
    for kind, pattern in patterns.phrases:
        hits.extend(_hit(kind, m.start(), m.end()) for m in pattern.finditer(view) if m.end() > m.start())
    return hits


# --------------------------------------------------------------------------- credentials


def _words(field: str, *, spaced_only: bool | None = None) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []
    for lexicon in LEXICONS:
        if spaced_only is not None and lexicon.spaced != spaced_only:
            continue
        out.extend((entry, lexicon.spaced) for entry in getattr(lexicon, field))
    return out


def _alternation(entries: list[tuple[str, bool]], *, stem: bool) -> str:
    parts = sorted(
        {_entry(entry, spaced, squeezed=False, stem=stem) for entry, spaced in entries},
        key=len,
        reverse=True,
    )
    return "(?:" + "|".join(parts) + ")"


_STOP_EXACT: frozenset[str] = frozenset(
    fold_word(w) for lex in LEXICONS for w in lex.not_password if not w.endswith("*")
)
_STOP_PREFIX: tuple[str, ...] = tuple(
    fold_word(w[:-1]) for lex in LEXICONS for w in lex.not_password if w.endswith("*")
)
_PLACEHOLDER_STARTS = ("[redacted", "<", "{", "${", "$(", "%", "os.environ", "env.", "process.env")
_EDGE = "\"'`«»“”„‘’()[]<>"
_TRAIL = ".,;:!?)]}。，、；：！？"


def _clean(value: str) -> str:
    return value.strip(_EDGE).rstrip(_TRAIL).strip(_EDGE)


def looks_like_password(value: str, *, explicit: bool, clause_final: bool) -> bool:
    """Whether `value`, found after a password label, is a disclosed secret.

    Args:
        value: The candidate, lower-cased and folded.
        explicit: The label was followed by `:`/`=` (a field), not a copula ("is").
        clause_final: Nothing but punctuation or the end follows the value in its clause.

    Returns:
        `False` for placeholders, masks, references and ordinary words ("required").
    """
    value = _clean(value)
    if len(value) < 3 or len(set(value)) == 1:
        return False
    if value.startswith(_PLACEHOLDER_STARTS) or set(value) <= set("*x•·.-_"):
        return False
    if value in _STOP_EXACT or any(
        value.startswith(p) and value[len(p) :].isalpha() for p in _STOP_PREFIX
    ):
        return False
    if value.isalpha() and not explicit:
        # "The password is strict enough": a word that goes on is prose, not a value.
        return clause_final
    return True


def _copula_alternation() -> str:
    spaced = sorted(
        {fold_word(c) for lex in LEXICONS if lex.spaced for c in lex.copulas if c.isalnum()},
        key=len,
        reverse=True,
    )
    unspaced = sorted(
        {fold_word(c) for lex in LEXICONS if not lex.spaced for c in lex.copulas if c.isalnum()},
        key=len,
        reverse=True,
    )
    return (
        r"(?:(?<!\w)(?:" + "|".join(map(re.escape, spaced)) + r")(?!\w)|"
        + "|".join(map(re.escape, unspaced))
        + r"|[—–-](?=\s))"
    )


_CONNECTORS = sorted(
    {fold_word(c) for lex in LEXICONS for c in lex.connectors}, key=len, reverse=True
)
_QUALIFIER = (
    r"(?:\s*\([^()\n]{0,30}\)|\s+(?:" + "|".join(map(re.escape, _CONNECTORS)) + r")"
    r"(?:\s+[^\s:=;,.!?]+){1,3}?)?"
)
_EXPLICIT = r"[:=]|=>|->"
_VALUE = r"[\"'`«“„(\[]?(?P<value>[^\s\"'`»”,;，。、)\]]{3,64})"

_PASSWORD_RE = re.compile(
    r"(?P<label>" + _alternation(_words("password_words"), stem=True) + r")"
    + _QUALIFIER
    + r"\s*(?:(?P<explicit>" + _EXPLICIT + r")|(?P<copula>" + _copula_alternation() + r"))\s*"
    + _VALUE
)
_SHORT_RE = re.compile(
    r"(?<![\w/])(?:" + "|".join(sorted({fold_word(w) for lex in LEXICONS for w in lex.password_short}, key=len, reverse=True)) + r")(?!\w)"
    r"(?:\s*(?P<explicit>" + _EXPLICIT + r")\s*" + _VALUE + r"|\s+(?P<bare>(?=[^\s]*\d)(?=[^\s]*[^\W\d])[^\s\"',;]{6,64}))"
)
_PAIR_RE = re.compile(
    _alternation(_words("user_words"), stem=True)
    + r"\s*[:=]?\s*(?P<user>[^\s/|:\"']{2,64})\s*[/|]\s*(?P<value>[^\s/|\"',;]{3,64})"
)


def _clause_final(view: str, end: int) -> bool:
    rest = view[end : end + 3].lstrip(_TRAIL + _EDGE + " \t")
    return rest == "" or rest[0] == "\n" or view[end : end + 1] in ".;!?\n。" or end >= len(view)


def credential_hits(view: str) -> list[Hit]:
    """Passwords after a label in any lexicon language, shorthand, and login/secret pairs.

    Args:
        view: A lowered folded view.

    Returns:
        Hits on the secret value, in `view` offsets.
    """
    hits: list[Hit] = []
    for match in _PASSWORD_RE.finditer(view):
        value = match.group("value")
        explicit = match.group("explicit") is not None
        if looks_like_password(value, explicit=explicit, clause_final=_clause_final(view, match.end())):
            start = match.start("value")
            hits.append(_hit(_PASSWORD, start, start + len(_clean_end(value)), "secret"))
    for match in _SHORT_RE.finditer(view):
        group = "value" if match.group("explicit") else "bare"
        value = match.group(group)
        if value and looks_like_password(value, explicit=True, clause_final=True):
            start = match.start(group)
            hits.append(_hit(_PASSWORD, start, start + len(_clean_end(value)), "secret"))
    for match in _PAIR_RE.finditer(view):
        value = match.group("value")
        if not any(c.isdigit() or not c.isalnum() for c in _clean(value)):
            continue  # "login page / dashboard": two words, not a login and its secret
        if looks_like_password(value, explicit=True, clause_final=True):
            start = match.start("value")
            hits.append(_hit(_PASSWORD, start, start + len(_clean_end(value)), "secret"))
    return hits


def _clean_end(value: str) -> str:
    """The value without trailing punctuation (its start is already exact)."""
    stripped = value.rstrip(_TRAIL + _EDGE)
    return stripped or value


# --------------------------------------------------------------------------- one-time codes

_OTP_WORDS = _alternation(_words("otp_phrases"), stem=False)
_NUMBER = r"(?<![\w+])(?P<num>\d{3}[ \-]\d{3}|\d{4,8})(?![\w]|[\-.,:/]\d)"
_LINK = r"(?P<link>[^\d\n.;!?。！？]{0,24}?)"
_OTP_BEFORE = re.compile("(?:" + _OTP_WORDS + ")" + _LINK + r"[\[(「]?" + _NUMBER)
_OTP_AFTER = re.compile(_NUMBER + r"[\])」]?" + _LINK + "(?:" + _OTP_WORDS + ")")
_SHORT_LINK = re.compile(
    r"^\s*(?:[:=#：\-–—]|" + _copula_alternation() + r")?\s*[:=#：]?\s*$"
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def otp_hits(view: str) -> list[Hit]:
    """One-time codes with the code phrase before or after the number, in any language.

    Args:
        view: A lowered folded view.

    Returns:
        Hits on the number, in `view` offsets.
    """
    hits: list[Hit] = []
    for pattern, after in ((_OTP_BEFORE, False), (_OTP_AFTER, True)):
        for match in pattern.finditer(view):
            number = match.group("num")
            link = match.group("link")
            tight = _SHORT_LINK.match(link) is not None
            if _YEAR.match(number) and (after or not tight):
                continue  # "the 2024 security code review", "2FA since 2024"
            if not after and not tight and len(link.strip()) > 12:
                continue
            hits.append(_hit(_OTP, match.start("num"), match.end("num"), "secret"))
    return hits


ROLE_LABELS: frozenset[str] = frozenset(fold_word(w) for lex in LEXICONS for w in lex.role_labels)
"""Local words for system/assistant/user, lowered and folded, for line-label detection."""
