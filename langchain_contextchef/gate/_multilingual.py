"""Matchers compiled from the multilingual lexicons (`_lexicon`).

Every function here takes a *lowered folded* view (see `_normalize`) and returns hits in
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
from collections.abc import Iterable, Set
from dataclasses import dataclass
from typing import Any

from langchain_contextchef.gate._credentials import (
    CREDENTIAL_LABELS,
    WEAK_COPULAS,
    WORDLIKE,
    loose_bare_value,
    names_something_else,
    other_word,
)
from langchain_contextchef.gate._hit import Hit, HitCategory
from langchain_contextchef.gate._lexicon import LEXICONS
from langchain_contextchef.gate._normalize import fold_word

__all__ = [
    "ANCHORS",
    "GATED",
    "ROLE_LABELS",
    "credential_hits",
    "injection_hits",
    "label_matcher",
    "looks_like_password",
    "otp_hits",
]

_GAP = r"(?:\S+\s+){0,3}?"


def _alternative(word: str) -> str:
    star = word.endswith("*")
    exact = word.endswith(".")
    text = fold_word(word.rstrip("*."))
    return re.escape(text) + (r"\w*" if star else r"(?!\w)" if exact else "")


def _word_regex(word: str, *, end: str) -> str:
    """One lexicon word (with `a|b` alternatives) as a regex; `end` closes bare alternatives."""
    return "(?:" + "|".join(_alternative(alt) + _closing(alt, end) for alt in word.split("|")) + ")"


def _closing(alt: str, end: str) -> str:
    return "" if alt.endswith(("*", ".")) else end


def _entries(
    entry: str, spaced: bool, *, squeezed: bool, stem: bool
) -> list[tuple[str, str, bool]]:
    """One lexicon entry as `(literal, tail, at_word_start)` triples (notation: `_lexicon`).

    The first word's alternatives become separate triples; `literal` is that word folded,
    `tail` the regex for the rest. `_Words` puts the literals in a trie, so the regex engine
    tries a handful of first characters per position instead of every entry.
    """
    inside = entry.startswith("*") or not spaced or squeezed
    words = entry.lstrip("*").replace("_", " ").split()
    # How a bare last word ends: a stem may continue; a word-start word must end there.
    last_end = r"\w*" if stem and not inside else "" if inside else r"(?!\w)"
    separator = r"\s*" if not spaced or squeezed else r"[\s,]+"
    rest = ""
    for index, word in enumerate(words[1:], start=1):
        if word == "…":
            rest += separator + _GAP
            continue
        end = last_end if index == len(words) - 1 else ""
        rest += ("" if rest.endswith(_GAP) else separator) + _word_regex(word, end=end)
    triples: list[tuple[str, str, bool]] = []
    for alt in words[0].split("|"):
        literal = fold_word(alt.rstrip("*."))
        head = r"\w*" if alt.endswith("*") else r"(?!\w)" if alt.endswith(".") else ""
        if len(words) == 1:
            head = head or last_end
        triples.append((literal, head + rest, not inside))
    return triples


def _trie(items: Iterable[tuple[str, str]]) -> str:
    """A regex for `literal + tail` items that shares common literal prefixes."""
    root: dict[str, Any] = {}
    for literal, tail in items:
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node.setdefault("", set()).add(tail)

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        tails: set[str] = node.get("", set())
        # Longer literals first, then this node's tails, the empty tail last.
        branches.extend(sorted(tails, key=lambda t: (-len(t), t)))
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(root)


_WORD = re.compile(r"\w")


def _anchor(entry: str) -> frozenset[str]:
    """Folded text that every match of a lexicon entry contains: one of its words' spellings.

    Every word of an entry (but `…`) is matched literally (a stem as its stem), so any word
    would do; the one whose shortest alternative is longest is the least likely to occur by
    chance ("ahora" rather than "a" in "a partir de ahora").
    """
    words = [word for word in entry.lstrip("*").replace("_", " ").split() if word != "…"]
    options = [frozenset(fold_word(alt.rstrip("*.")) for alt in word.split("|")) for word in words]
    return max(options, key=lambda spellings: min(map(len, spellings)))


class _Words:
    """The entries of one lexicon field across languages, as two compiled tries.

    `anchors` holds, for every entry, the spellings of one of its words: a view that holds
    none of them cannot match, so `absent` lets a caller that knows the view's trigger words
    (`_triggers`) skip the regex passes.
    """

    def __init__(self, entries: list[tuple[str, str, bool]], anchors: frozenset[str]) -> None:
        starts = [(lit, tail) for lit, tail, at_start in entries if at_start]
        inside = [(lit, tail) for lit, tail, at_start in entries if not at_start]
        self.starts = re.compile(_trie(starts)) if starts else None
        self.inside = re.compile(_trie(inside)) if inside else None
        self.anchors = anchors

    def absent(self, present: Set[str] | None) -> bool:
        """Whether no anchor is in `present`, the trigger words of the view (`None`: unknown)."""
        return present is not None and self.anchors.isdisjoint(present)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None, *, overlapping: bool = False
    ) -> list[re.Match[str]]:
        """Matches in `text[pos:endpos]`; word-start entries only at a word start.

        With `overlapping`, a match may start inside an earlier one ("tu codigo" and
        "codigo de verificacion" in "tu codigo de verificacion"): use it on short windows.
        """
        end = len(text) if endpos is None else endpos
        found: list[re.Match[str]] = []
        for pattern, at_start in ((self.starts, True), (self.inside, False)):
            if pattern is None:
                continue
            if overlapping:
                matches: list[re.Match[str]] = []
                at = pos
                while (match := pattern.search(text, at, end)) is not None:
                    matches.append(match)
                    at = match.start() + 1
            else:
                matches = list(pattern.finditer(text, pos, end))
            found.extend(m for m in matches if _counts(m, text, at_start=at_start))
        return found

    def search(self, text: str, pos: int, endpos: int) -> re.Match[str] | None:
        """The first match in `text[pos:endpos]`, or `None` (word-start entries first on a tie).

        Stops at each pattern's first valid match instead of collecting them all.
        """
        best: re.Match[str] | None = None
        for pattern, at_start in ((self.starts, True), (self.inside, False)):
            if pattern is None:
                continue
            for match in pattern.finditer(text, pos, endpos):
                if _counts(match, text, at_start=at_start):
                    if best is None or match.start() < best.start():
                        best = match
                    break
        return best


def _counts(match: re.Match[str], text: str, *, at_start: bool) -> bool:
    """A match counts when it is not empty and, for a word-start entry, starts a word."""
    start = match.start()
    return match.end() > start and (not at_start or start == 0 or not _WORD.match(text[start - 1]))


def _compile(
    field: str,
    *,
    squeezed: bool = False,
    stem: bool = False,
    extra: tuple[tuple[bool, str], ...] = (),
) -> _Words:
    """One lexicon field across languages (and `extra` `(spaced, entry)` pairs) as `_Words`."""
    entries = [(lexicon.spaced, e) for lexicon in LEXICONS for e in getattr(lexicon, field)]
    entries.extend(extra)
    return _Words(
        [t for spaced, e in entries for t in _entries(e, spaced, squeezed=squeezed, stem=stem)],
        frozenset().union(*(_anchor(e) for _, e in entries)),
    )


@dataclass(frozen=True)
class _Kind:
    detector: str
    reason: str
    label: str


_OVERRIDE = _Kind(
    "override_lexicon", "an instruction to ignore previous instructions", "instruction"
)
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

    verbs: _Words
    scope: _Words
    objects: _Words
    phrases: tuple[tuple[_Kind, _Words], ...]


def _injection_set(squeezed: bool) -> _Set:
    phrases = tuple(
        (kind, _compile(field, squeezed=squeezed))
        for kind, field in (
            (_OVERRIDE, "override_phrases"),
            (_ROLE, "role_phrases"),
            (_PROMPT, "prompt_phrases"),
        )
    )
    return _Set(
        verbs=_compile("override_verbs", squeezed=squeezed, stem=True),
        scope=_compile("override_scope", squeezed=squeezed, stem=True),
        objects=_compile("override_objects", squeezed=squeezed, stem=True),
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


def injection_hits(
    view: str, *, squeezed: bool = False, present: Set[str] | None = None
) -> list[Hit]:
    """Instruction overrides, role and system-prompt phrases in any lexicon language.

    Args:
        view: A lowered folded view (or its leetspeak skeleton).
        squeezed: The view has lost its spaces (collapsed spaced-out letters); match stems
            anywhere.
        present: The trigger words in `view` (`_detectors.TRIGGERS.present`), to skip
            the patterns none of whose anchors is there; `None` runs them all.

    Returns:
        Hits in `view` offsets.
    """
    patterns = _SQUEEZED if squeezed else _SPACED
    hits: list[Hit] = []
    if patterns.verbs.absent(present):
        verbs: list[re.Match[str]] = []
    else:
        verbs = patterns.verbs.finditer(view)
    for verb in verbs:
        low, high = _clause(view, verb.start(), verb.end())
        found = patterns.objects.search(view, low, high)
        scope = patterns.scope.search(view, low, high) if found else None
        if found and scope:
            start = min(verb.start(), found.start(), scope.start())
            end = max(verb.end(), found.end(), scope.end())
            hits.append(_hit(_OVERRIDE, start, end))
    for kind, pattern in patterns.phrases:
        if not pattern.absent(present):
            hits.extend(_hit(kind, m.start(), m.end()) for m in pattern.finditer(view))
    return hits


# --------------------------------------------------------------------------- credentials

_STOP_EXACT: frozenset[str] = frozenset(
    fold_word(w) for lex in LEXICONS for w in lex.not_password if not w.endswith("*")
)
_STOP_PREFIX: tuple[str, ...] = tuple(
    fold_word(w[:-1]) for lex in LEXICONS for w in lex.not_password if w.endswith("*")
)
# One match says whether any stop stem starts the value; only then are the stems tried.
_STOP_PREFIX_START = re.compile("|".join(map(re.escape, sorted(_STOP_PREFIX, key=len))))
_PLACEHOLDER_STARTS = ("<", "{", "${", "$(", "%", "os.environ", "env.", "process.env")
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
    if value.startswith(_PLACEHOLDER_STARTS):
        return False
    value = _clean(value)
    if len(value) < 3 or len(set(value)) == 1 or set(value) <= set("*x•·.-_"):
        return False
    if value in _STOP_EXACT or (
        _STOP_PREFIX_START.match(value) is not None
        and any(value.startswith(p) and value[len(p) :].isalpha() for p in _STOP_PREFIX)
    ):
        return False
    if value.isalpha() and not explicit:
        # "The password is strict enough": a word that goes on is prose, not a value.
        return clause_final
    return True


def _copula_regex() -> str:
    spaced = {fold_word(c) for lex in LEXICONS if lex.spaced for c in lex.copulas if c.isalnum()}
    spaced |= CREDENTIAL_LABELS.copulas
    unspaced = {
        fold_word(c) for lex in LEXICONS if not lex.spaced for c in lex.copulas if c.isalnum()
    }
    unspaced |= CREDENTIAL_LABELS.copulas_unspaced
    return (
        r"(?:(?<!\w)(?:"
        + "|".join(map(re.escape, sorted(spaced, key=len, reverse=True)))
        + r")(?!\w)|"
        + "|".join(map(re.escape, sorted(unspaced, key=len, reverse=True)))
        + r"|[—–-](?=\s))"
    )


_COPULA = _copula_regex()
_CONNECTORS = sorted(
    {fold_word(c) for lex in LEXICONS for c in lex.connectors}, key=len, reverse=True
)
# A qualifier stays on the label's line, like the loose one below.
_QUALIFIER = (
    r"(?:[^\S\n]*\([^()\n]{0,30}\)|[^\S\n]+(?:" + "|".join(map(re.escape, _CONNECTORS)) + r")"
    r"(?:[^\S\n]+[^\s:=;,.!?]+){1,4}?)?"
)
# Up to two words with no connector: "Sunucu sifresi", "ПИН-код карты:", "كلمة السر للخادم هي".
# Allowed only before ":"/"=" or after a label in a script without such connectors, and on
# the label's line: in "비밀번호 Rtr#5521kr\n=001" the password is not a qualifier of "=001".
_LOOSE_QUALIFIER = r"(?:[^\S\n]+[^\s:=;,.!?：]+){1,2}?"
_EXPLICIT = r"[:=：]|=>|->|[-–—](?=\s)"
_VALUE = r"[\"'`«“„(\[]?(?P<value>[^\s\"'`»”,;，。、)\]]{3,64})"

_PASSWORD_LABEL = _compile("password_words", stem=True)
# The credential labels of every language (`_credentials`) that the lexicons do not hold:
# "secret key", "API key", "access code" name fields whose value may be prose ("API-Schlüssel:
# liegt im Tresor"), so a value without a digit or symbol counts only at the end of a clause.


def label_matcher(pairs: Iterable[tuple[bool, str]]) -> _Words:
    """A matcher of `(spaced, entry)` labels in the lexicons' notation (stems may continue).

    Args:
        pairs: Each label and whether its language separates words with spaces.

    Returns:
        The compiled matcher; its `anchors` are the words a view must hold for a match.
    """
    pairs = list(pairs)
    return _Words(
        [t for spaced, e in pairs for t in _entries(e, spaced, squeezed=False, stem=True)],
        frozenset().union(*(_anchor(e) for _, e in pairs)),
    )


_CREDENTIAL_LABEL = label_matcher(CREDENTIAL_LABELS.secret)
# Matched at the end of a password label: qualifier, then ":"/"=" or a copula, then the value.
# The separator is on the label's line too ("Passwort fürs Portal Reise#7781\n:001" is a bare
# password followed by a line of its own); the value may start on the next line.
_SEPARATOR = r"[^\S\n]*(?:(?P<explicit>" + _EXPLICIT + r")|(?P<copula>" + _COPULA + r"))\s*"
_PASSWORD_TAIL = re.compile(_QUALIFIER + _SEPARATOR + _VALUE)
_PASSWORD_LOOSE_TAIL = re.compile(_LOOSE_QUALIFIER + r"(?![^\S\n]*\n)" + _SEPARATOR + _VALUE)
# No separator at all ("Passwort fürs Portal Reise#7781", "密码 Rt!8812cn"): only a value
# that mixes letters, digits and a symbol, as chosen passwords do and words do not.
_PASSWORD_BARE_TAIL = re.compile(
    _QUALIFIER + r"\s+(?P<value>(?=[^\s]*\d)(?=[^\s]*[^\W\d_])(?=[^\s]*[!@#$%^&*_\-+=?~])"
    r"[^\s\"'`,;，。、)\]]{6,64})"
)
# No separator and no symbol ("mật khẩu wifi qv7ktr29wz", "मेरा पासवर्ड qv7ktr29wz है"): up to
# three words without digits on the label's line, then a Latin token that mixes letters and
# digits and ends there. `_loose_bare_value` says how long and how mixed it must be.
_PASSWORD_LOOSE_BARE_TAIL = re.compile(
    r"(?:[^\S\n]+[^\s:=;,.!?：\d]+){0,3}?[^\S\n]+"
    r"(?P<value>(?=[^\s]*\d)(?=[^\s]*[a-z])[a-z0-9!#$%^&*_\-+=?~]{6,64})(?![^\s.,;!?)\]])"
)
_SHORT_LABEL = _compile("password_short")
_SHORT_TAIL = re.compile(
    r"(?:\s*(?P<explicit>"
    + _EXPLICIT
    + r")\s*"
    + _VALUE
    + r"|\s+(?P<bare>(?=\S*\d)(?=\S*[^\W\d])[^\s\"',;]{6,64}))"
)
_USER_LABEL = _compile("user_words", stem=True, extra=CREDENTIAL_LABELS.login)
_PAIR_TAIL = re.compile(
    r"\s*[:=]?\s*(?P<user>[^\s/|:\"']{2,64})\s*[/|]\s*(?P<value>[^\s/|\"',;]{3,64})"
)


def _clause_final(view: str, end: int) -> bool:
    after = view[end : end + 1]
    if after == "" or after in ".;!?\n。":
        return True
    rest = view[end : end + 4].lstrip(_TRAIL + _EDGE + " \t")
    return rest == "" or rest[0] == "\n"


_NON_LATIN = 0x0590


def _ascii_part(value: str) -> str:
    """The value up to the first letter of a script passwords are rarely typed in.

    In "パスワードはSakura#2026です" the value ends before "です".
    """
    for index, char in enumerate(value):
        if ord(char) >= _NON_LATIN:
            return value[:index]
    return value


def _value_hit(view: str, match: re.Match[str], group: str) -> Hit:
    value = _ascii_part(match.group(group))
    start = match.start(group)
    stripped = value.rstrip(_TRAIL + _EDGE) or value
    return _hit(_PASSWORD, start, start + len(stripped), "secret")


def credential_hits(view: str, present: Set[str] | None = None) -> list[Hit]:
    """Passwords after a label in any lexicon language, shorthand, and login/secret pairs.

    Args:
        view: A lowered folded view.
        present: The trigger words in `view`, to skip the label lists none of whose anchors
            is there; `None` looks for every label.

    Returns:
        Hits on the secret value, in `view` offsets.
    """
    hits: list[Hit] = []
    if not _PASSWORD_LABEL.absent(present):
        hits.extend(_password_hits(view, _PASSWORD_LABEL))
    if not _CREDENTIAL_LABEL.absent(present):
        hits.extend(_password_hits(view, _CREDENTIAL_LABEL, strict=True))
    if not _SHORT_LABEL.absent(present):
        hits.extend(_short_hits(view))
    # A pair is "login name / secret": without a slash or a bar there is none ("the user
    # prefers ..." is the most common phrase in memory).
    if not _USER_LABEL.absent(present) and ("/" in view or "|" in view):
        hits.extend(_pair_hits(view))
    return hits


def _is_latin(text: str) -> bool:
    return all(ord(c) < _NON_LATIN for c in text)


def _password_hits(view: str, labels: _Words, *, strict: bool = False) -> list[Hit]:
    """Values after `labels`; with `strict`, a plain word counts only at a clause's end."""
    hits: list[Hit] = []
    for label in labels.finditer(view):
        if other_word(label.group(0)):
            continue
        tail = _PASSWORD_TAIL.match(view, label.end())
        loose = False
        if tail is None:
            tail = _PASSWORD_LOOSE_TAIL.match(view, label.end())
            loose = True
            if tail is not None and _is_latin(label.group(0)) and tail.group("explicit") is None:
                tail = None
        if tail is not None and WORDLIKE.fullmatch(_clean(_ascii_part(tail.group("value")))):
            # A word after the label: not a password when it opens a remark ("(rotated
            # monthly)"), when the label names something else, after a copula that is an
            # everyday word elsewhere, or after a dash that follows loose words ("kein
            # Passwort mehr verlangt – nur im Heimnetz").
            copula = tail.group("copula")
            dash = (tail.group("explicit") or "")[:1] in ("-", "–", "—")
            remark = view[tail.start("value") - 1] == "(" and ")" not in tail.group("value")
            if (
                remark
                or (copula is not None and copula.strip() in WEAK_COPULAS)
                or (loose and dash)
                or names_something_else(view, label.start(), label.end())
            ):
                continue
        if tail is None:
            bare = _PASSWORD_BARE_TAIL.match(view, label.end())
            value = _ascii_part(bare.group("value")) if bare else ""
            if bare and looks_like_password(value, explicit=True, clause_final=True):
                hits.append(_value_hit(view, bare, "value"))
            elif (loose_bare := _PASSWORD_LOOSE_BARE_TAIL.match(view, label.end())) and (
                loose_bare_value(loose_bare.group("value"), latin=_is_latin(label.group(0)))
            ):
                hits.append(_value_hit(view, loose_bare, "value"))
            continue
        explicit = tail.group("explicit") is not None and not strict
        value = _ascii_part(tail.group("value"))
        if value.startswith("//"):
            continue  # "API keys to http://host": the colon of a URL, not a separator
        final = _clause_final(view, tail.start("value") + len(value))
        if looks_like_password(value, explicit=explicit, clause_final=final):
            hits.append(_value_hit(view, tail, "value"))
    return hits


def _short_hits(view: str) -> list[Hit]:
    hits: list[Hit] = []
    for label in _SHORT_LABEL.finditer(view):
        tail = _SHORT_TAIL.match(view, label.end())
        if tail is None:
            continue
        group = "value" if tail.group("explicit") else "bare"
        if looks_like_password(_ascii_part(tail.group(group)), explicit=True, clause_final=True):
            hits.append(_value_hit(view, tail, group))
    return hits


def _pair_hits(view: str) -> list[Hit]:
    hits: list[Hit] = []
    for label in _USER_LABEL.finditer(view):
        tail = _PAIR_TAIL.match(view, label.end())
        if tail is None:
            continue
        value = _clean(tail.group("value"))
        if not any(c.isdigit() or not c.isalnum() for c in value):
            continue  # "login page / dashboard": two words, not a login and its secret
        if looks_like_password(_ascii_part(tail.group("value")), explicit=True, clause_final=True):
            hits.append(_value_hit(view, tail, "value"))
    return hits


# --------------------------------------------------------------------------- one-time codes

_OTP_WORDS = _compile("otp_phrases")
_OTP_WEAK = _compile("otp_weak")
# ASCII boundaries only: in "验证码是482913" or "인증번호는 371920입니다" the code touches letters.
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_+])(?:\d{3}[ \-]\d{3}|\d{4,8})(?![A-Za-z0-9_]|[\-.:/]\d|,\d{3}(?!\d))"
)
_LINK_STOP = re.compile(r"[\d\n.;!?。！？]")
_TIGHT_LINK = re.compile(
    r"\s*[\[(「\])」]?\s*(?:[:=#：\-–—]|" + _COPULA + r")?\s*[:=#：]?\s*[\[(「\])」]?\s*"
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_REACH = 24


# A Latin letter on each side of the joint: "otp" in a reversed "laptop" is inside a word.
_GLUED_BEFORE = re.compile(r"(?<=[a-z])[a-z]")
_GLUED_AFTER = re.compile(r"[a-z](?=[a-z])")


def _glued(view: str, phrase: re.Match[str]) -> bool:
    """Whether a Latin code phrase is part of a longer word ("otp" in a reversed "laptop").

    Phrases of scripts without spaces may match inside words; Latin ones may not.
    """
    start, end = phrase.span()
    return bool(_GLUED_BEFORE.match(view, start) or _GLUED_AFTER.match(view, end - 1, end + 1))


def otp_hits(view: str, present: Set[str] | None = None) -> list[Hit]:
    """One-time codes with the code phrase before or after the number, in any language.

    Args:
        view: A lowered folded view.
        present: The trigger words in `view`; with no code phrase among them nothing can
            count, and the numbers are not looked at. `None` looks anyway.

    Returns:
        Hits on the number, in `view` offsets.
    """
    hits: list[Hit] = []
    if _OTP_WORDS.absent(present) and _OTP_WEAK.absent(present):
        return hits
    for number in _NUMBER.finditer(view):
        start, end = number.span()
        year = _YEAR.fullmatch(number.group(0)) is not None
        # Phrase before: the link between phrase and number has no digit or sentence end.
        low = max(0, start - _REACH - 40)
        before = [
            m
            for m in _OTP_WORDS.finditer(view, low, start, overlapping=True)
            if start - m.end() <= _REACH and not _glued(view, m)
        ]
        found = any(
            _TIGHT_LINK.fullmatch(view[m.end() : start]) is not None and not _glued(view, m)
            for m in _OTP_WEAK.finditer(view, max(0, start - 12), start, overlapping=True)
        )
        for phrase in before:
            link = view[phrase.end() : start]
            if _LINK_STOP.search(link):
                continue
            tight = _TIGHT_LINK.fullmatch(link) is not None
            if tight or (not year and len(link.strip()) <= 12):
                found = True
                break
        if not found and not year:
            # Phrase after: "493817 is your verification code".
            high = min(len(view), end + _REACH + 40)
            for phrase in _OTP_WORDS.finditer(view, end, high, overlapping=True):
                link = view[end : phrase.start()]
                if _glued(view, phrase):
                    continue
                if phrase.start() - end <= _REACH and not _LINK_STOP.search(link):
                    found = True
                    break
        if found:
            hits.append(_hit(_OTP, start, end, "secret"))
    return hits


GATED: tuple[_Words, ...] = (
    _SPACED.verbs,
    *(pattern for _, pattern in _SPACED.phrases),
    _SQUEEZED.verbs,
    *(pattern for _, pattern in _SQUEEZED.phrases),
    _PASSWORD_LABEL,
    _CREDENTIAL_LABEL,
    _SHORT_LABEL,
    _USER_LABEL,
    _OTP_WORDS,
    _OTP_WEAK,
)
"""Every matcher that a `present` set may skip: the verbs and phrases of both injection
flavours, the credential labels and the code phrases (scope and object words are looked for
only near a verb, so they need no prefilter)."""

ANCHORS: frozenset[str] = frozenset().union(*(words.anchors for words in GATED))
"""The anchors of every matcher in `GATED` (words for the prefilter)."""

ROLE_LABELS: frozenset[str] = frozenset(fold_word(w) for lex in LEXICONS for w in lex.role_labels)
"""Local words for system/assistant/user, lowered and folded, for line-label detection."""
