"""Credential labels in many languages, read once from `gate/_data/credential_labels.json`.

The file holds, per language, the words for a password, PIN, passcode, access code, secret
key and API key (`secret`), the words for a login or user name (`login`), and the words for
"is" that may stand between a label and its value (`copulas`). `_multilingual` compiles the
labels into the same label-separator-value matcher as the lexicons' password words (with a
stricter rule for the value: see `credential_hits` there), and `_spelled` reads them as the
labels before a secret spelled in words.

Labels are turned into the lexicons' notation here (`_` for a space inside one entry); a
label written in a script without spaces between words (Chinese, Japanese, Korean, Thai,
Arabic, Persian, Urdu) is matched inside words too, as the lexicons do for those languages.
A malformed file fails at import with a `ValueError` that names the language and field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, NoReturn

from langchain_contextchef.gate._normalize import fold_word

__all__ = [
    "CREDENTIAL_LABELS",
    "WEAK_COPULAS",
    "WORDLIKE",
    "CredentialLabels",
    "load_labels",
    "loose_bare_value",
    "names_something_else",
    "other_word",
]

_SOURCE = "langchain_contextchef/gate/_data/credential_labels.json"
_FIELDS = ("secret", "login", "copulas")

# Blocks of scripts written without spaces between words, or whose particles attach to the
# word (a label there is matched inside a longer word).
_UNSPACED = (
    (0x0590, 0x05FF),  # Hebrew (articles and prepositions attach: "הסיסמה")
    (0x0600, 0x06FF),  # Arabic, Persian, Urdu
    (0x0E00, 0x0E7F),  # Thai
    (0x1100, 0x11FF),  # Hangul jamo
    (0x3040, 0x30FF),  # kana
    (0x3400, 0x9FFF),  # CJK
    (0xAC00, 0xD7AF),  # Hangul syllables
)


@dataclass(frozen=True)
class CredentialLabels:
    """The credential labels of every language, in the lexicons' notation.

    Attributes:
        languages: The language codes, in file order.
        secret: `(spaced, entry)` for every secret label (`spaced` is `False` for a label
            matched inside words).
        login: `(spaced, entry)` for every login label.
        copulas: The folded words for "is", across languages, matched as whole words.
        copulas_unspaced: The same in scripts without spaces (Thai), matched anywhere.
    """

    languages: tuple[str, ...]
    secret: tuple[tuple[bool, str], ...]
    login: tuple[tuple[bool, str], ...]
    copulas: frozenset[str]
    copulas_unspaced: frozenset[str]


_NO_SPACES = ((0x0E00, 0x0E7F), (0x3040, 0x30FF), (0x3400, 0x9FFF))  # Thai, kana, CJK


def _fail(where: str, what: str) -> NoReturn:
    msg = f"{_SOURCE}: {where} {what}; fix the data file."
    raise ValueError(msg)


def _spaced(label: str) -> bool:
    return not any(low <= ord(c) <= high for c in label for low, high in _UNSPACED)


def _entries(where: str, value: object, *, allow_empty: bool) -> list[str]:
    if not isinstance(value, list) or (not value and not allow_empty):
        _fail(where, "must be a list of strings")
    for item in value:
        if not isinstance(item, str) or not item or item != item.strip() or "_" in item:
            _fail(where, f"holds {item!r}; every entry is a trimmed string without `_`")
    return list(value)


def load_labels(text: str) -> CredentialLabels:
    """Check and build the credential labels from the text of a `credential_labels.json`.

    Args:
        text: The JSON document: `{"languages": {code: {"secret": [...], "login": [...],
            "copulas": [...]}}}` (an `about` key is allowed).

    Returns:
        The labels of every language.

    Raises:
        ValueError: If the document is not shaped as described; the message names the
            language and field at fault.

    Example:
        ```python
        from langchain_contextchef.gate._credentials import load_labels

        labels = load_labels(
            '{"languages": {"fr": {"secret": ["mot de passe"], "login": ["identifiant"],'
            ' "copulas": []}, "ja": {"secret": ["暗証番号"], "login": [], "copulas": []}}}'
        )
        assert labels.secret == ((True, "mot_de_passe"), (False, "暗証番号"))
        ```
    """
    document: Any = json.loads(text)
    if not isinstance(document, dict) or set(document) - {"about"} != {"languages"}:
        _fail("the document", "must be an object with `languages`")
    languages = document["languages"]
    if not isinstance(languages, dict) or not languages:
        _fail("`languages`", "must be a non-empty object keyed by language code")
    secret: list[tuple[bool, str]] = []
    login: list[tuple[bool, str]] = []
    copulas: set[str] = set()
    unspaced: set[str] = set()
    for code, entry in languages.items():
        if not isinstance(entry, dict) or set(entry) != set(_FIELDS):
            _fail(f"language {code!r}", f"must be an object with exactly {list(_FIELDS)}")
        for name, out in (("secret", secret), ("login", login)):
            words = _entries(f"language {code!r}, field {name!r},", entry[name], allow_empty=True)
            out.extend((_spaced(w), w.replace(" ", "_")) for w in words)
        words = _entries(f"language {code!r}, field 'copulas',", entry["copulas"], allow_empty=True)
        copulas.update(fold_word(w) for w in words)
        unspaced.update(
            fold_word(w)
            for w in words
            if any(low <= ord(c) <= high for c in w for low, high in _NO_SPACES)
        )
        if not entry["secret"]:
            _fail(f"language {code!r}", "needs at least one `secret` label")
    return CredentialLabels(
        tuple(languages),
        tuple(secret),
        tuple(login),
        frozenset(copulas - unspaced),
        frozenset(unspaced),
    )


CREDENTIAL_LABELS = load_labels(
    (files("langchain_contextchef.gate") / "_data" / "credential_labels.json").read_text(
        encoding="utf-8"
    )
)
"""The labels shipped with the package."""


# Words that make a nearby credential label part of the name of something else: a password
# manager, policy, generator or vault ("Mijn wachtwoordbeheerder is Bitwarden", "Política de
# senhas da empresa: mínimo 14 caracteres"). Lowered and folded, as the views are.
_ABOUT_PASSWORDS = re.compile(
    r"manager|beheerder|hanterare|verwalter|gestor|gestionnaire|menedzer|менеджер|manajer|"
    r"yonetici|gerenciador|pengelola|pengurus|menecer|menejer|quan ly|مینیجر|मनजर|मयानजर|"
    r"মযানেজার|meheджep|"  # the folded forms of Hindi, Nepali, Bengali and Kazakh "manager"
    r"policy|policies|politi[ck]|polisi|kebijakan|richtlinie|beleid|polityk|политик|"
    r"generator|vault|tresor|kluis|hint|requirement|anforderung|requisit|regras|regole|regeln"
)
_ABOUT_REACH = 24


def names_something_else(view: str, start: int, end: int) -> bool:
    """Whether the credential label at `[start, end)` is part of another thing's name.

    The caller uses it only when the value after the label is a plain word: a label next to
    "manager", "policy", "generator" or "vault" (in its compound, or within 24 characters
    either side on its line) names that thing, and the word after it is not a password.

    Args:
        view: The lowered folded view.
        start: Where the label starts.
        end: Where it ends.

    Returns:
        True when such a word is next to the label.

    Example:
        ```python
        from langchain_contextchef.gate._credentials import names_something_else

        text = "mijn wachtwoordbeheerder is bitwarden"
        assert names_something_else(text, 5, 24)
        assert not names_something_else("mijn wachtwoord is zon", 5, 15)
        ```
    """
    low = max(0, start - _ABOUT_REACH)
    high = min(len(view), end + _ABOUT_REACH)
    line_start = view.rfind("\n", low, start) + 1
    line_end = view.find("\n", end, high)
    around = view[max(low, line_start) : high if line_end < 0 else line_end]
    return _ABOUT_PASSWORDS.search(around) is not None


WORDLIKE = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
"""A value of letters only (hyphens and apostrophes inside words allowed): a word, a name, a
network ("Wi-Fi"), which some label contexts do not let count as a password."""

WEAK_COPULAS = frozenset({"la", "je", "e"})
"""Copulas that are also everyday words elsewhere once accents are folded: Vietnamese "là" is
"la" (French, Spanish, Romanian, Swahili "the"/"of"), Czech "je" is French "I". After them only
a value with a digit or a symbol counts."""

# "pin" is a stem for "pincode", "pinnummer"; other continuations are other words ("pins",
# "pinterest", "pinball").
_PIN_COMPOUNDS = ("code", "kode", "kod", "nummer", "number", "numero", "nr", "no")
_MIN_LATIN_BARE = 8
_MIN_MIXED = 2


def loose_bare_value(value: str, *, latin: bool) -> bool:
    """Whether a token after a label, with no separator between, is a chosen password.

    After a label in a non-Latin script, a Latin token of letters and digits stands out as
    typed in; after a Latin label it must be longer and hold two letters and two digits
    (a model name such as "AX1800" is neither).

    Args:
        value: The token (letters and digits, checked by the caller's pattern).
        latin: Whether the label is written in Latin letters.

    Returns:
        True when the token counts as a password.

    Example:
        ```python
        from langchain_contextchef.gate._credentials import loose_bare_value

        assert loose_bare_value("qv7ktr29wz", latin=True)
        assert not loose_bare_value("ax1800", latin=True)
        assert loose_bare_value("qv7k29", latin=False)
        ```
    """
    if not latin:
        return len(value) >= _MIN_LATIN_BARE - 2
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    return len(value) >= _MIN_LATIN_BARE and digits >= _MIN_MIXED and letters >= _MIN_MIXED


def other_word(label: str) -> bool:
    """Whether a match of the label stem "pin" is another word ("pins", "pinterest").

    Args:
        label: The matched label, lowered and folded.

    Returns:
        True unless the label is "pin" itself or a code or number compound ("pincode").

    Example:
        ```python
        from langchain_contextchef.gate._credentials import other_word

        assert other_word("pins") and other_word("pinterest")
        assert not other_word("pin") and not other_word("pincode")
        ```
    """
    return (
        label.startswith("pin")
        and len(label) > len("pin")
        and not label[3:].lstrip("-").startswith(_PIN_COMPOUNDS)
    )
