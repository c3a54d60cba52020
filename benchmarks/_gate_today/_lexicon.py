"""The write gate's word lists: read once, at import, from `gate/_data/lexicons.json`.

The words are data, shipped in the package beside the code; this module only checks them and
builds the objects the matchers use. `languages` holds one `Lexicon` per language, compiled by
`_multilingual` into matchers; `detectors` holds the `DetectorWords` that single pattern
detectors use. Adding a language is adding an object to `languages` (and its words to the
`detectors` lists that apply), plus its corpus lines in `tests/support/gate_corpus_world.py`
(`LANGUAGES` and the per-language templates), which `tests/unit_tests/test_gate_world.py`
checks category by category.

Notation, for every word list of a `Lexicon`:

- a plain word matches that word at a word start and may continue (`instruc` matches
  `instructions`), because most of these languages inflect at the end; a trailing `.` ends
  the word there (`ignore.` does not match `ignored`);
- a leading `*` lets it match inside a word too (German compounds: `*anweisung` in
  `Systemanweisungen`); languages written without spaces (`"spaced": false`) always match
  inside;
- `_` stands for a space inside one entry of a list of single words (`mot_de_passe`), in
  every list a matcher is compiled from (all but `copulas`, `connectors`, `not_password` and
  `role_labels`, which are compared word for word);
- in `*_phrases`, words are separated by spaces (any run of spaces in the text), a word ending
  in `*` may continue, `a|b` is either word, and `…` stands for up to three other words.

In `not_password`, a trailing `*` marks a stem (`obligatori*`); other words are exact.

Words are folded like the text (accents and case dropped, look-alike letters mapped), so write
them in their ordinary spelling. A malformed file fails at import with a `ValueError` that
names the language and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from importlib.resources import files
from typing import Any, NoReturn

__all__ = ["DETECTOR_WORDS", "LEXICONS", "DetectorWords", "Lexicon", "load_words"]

_SOURCE = "langchain_contextchef/gate/_data/lexicons.json"


@dataclass(frozen=True)
class Lexicon:
    """The trigger words of one language.

    Attributes:
        code: ISO 639-1 code.
        spaced: Whether words are separated by spaces (word-start matching).
        override_verbs: "ignore", "disregard", "forget", "skip", ...
        override_scope: "previous", "above", "all", "prior", "original", "system", ...
        override_objects: "instructions", "rules", "prompt", "guidelines", ...
        override_phrases: Whole phrases that override on their own ("forget everything").
        role_phrases: Phrases that give the reader a new identity ("you are now").
        prompt_phrases: Replacement or extraction of the system prompt, unlock modes.
        password_words: Words for a password, PIN or passphrase.
        password_short: Shorthand that counts only before `:`/`=` or a value with a digit.
        user_words: Words for a login or user name (for `login x / y` pairs).
        copulas: Words meaning "is"/"was" between a label and its value.
        connectors: Words that open a qualifier after a label ("for", "of", "für").
        not_password: Words that follow "the password is" without being one.
        otp_phrases: Phrases for a one-time, verification or security code.
        otp_weak: Words for "code" that count only right before the number ("код 290184"),
            because they also name error and status codes.
        role_labels: Local words for system/assistant/user used as line labels.
    """

    code: str
    spaced: bool = True
    override_verbs: tuple[str, ...] = ()
    override_scope: tuple[str, ...] = ()
    override_objects: tuple[str, ...] = ()
    override_phrases: tuple[str, ...] = ()
    role_phrases: tuple[str, ...] = ()
    prompt_phrases: tuple[str, ...] = ()
    password_words: tuple[str, ...] = ()
    password_short: tuple[str, ...] = ()
    user_words: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()
    connectors: tuple[str, ...] = ()
    not_password: tuple[str, ...] = ()
    otp_phrases: tuple[str, ...] = ()
    otp_weak: tuple[str, ...] = ()
    role_labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class DetectorWords:
    """Words of single pattern detectors, across languages (taken as written, no notation).

    Attributes:
        not_a_password: English words that follow "password is" or "password:" in prose
            about passwords rather than in a disclosure; compared as written.
        order_labels: Labels of order, invoice and tracking numbers; a card-like number right
            after one is an identifier, not a card. Folded, matched as whole words.
        cue_words: Words and phrases that mark a line or a comment as addressed to a model
            ("you", "must", "obey"). Folded, matched as whole words.
        cue_words_unspaced: The same for scripts written without spaces; matched anywhere,
            as written.
        chat_turn_labels: Role labels that only ever open a chat turn ("assistant"), unlike
            "System" or "User", which also label facts. Folded.
    """

    not_a_password: tuple[str, ...]
    order_labels: tuple[str, ...]
    cue_words: tuple[str, ...]
    cue_words_unspaced: tuple[str, ...]
    chat_turn_labels: tuple[str, ...]


# Lists of single words: no spaces inside an entry (`_` stands for one).
_WORD_FIELDS = frozenset(
    {
        "override_verbs",
        "override_scope",
        "override_objects",
        "password_words",
        "password_short",
        "user_words",
        "copulas",
        "connectors",
        "not_password",
        "otp_weak",
        "role_labels",
    }
)
_LIST_FIELDS = tuple(f.name for f in fields(Lexicon) if f.name not in ("code", "spaced"))


def _fail(where: str, what: str) -> NoReturn:
    msg = f"{_SOURCE}: {where} {what}; fix the data file."
    raise ValueError(msg)


def _words(where: str, value: object, *, single: bool) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        _fail(where, "must be a non-empty list of strings (leave the field out if empty)")
    for item in value:
        if not isinstance(item, str) or not item or item != item.strip():
            _fail(where, f"holds {item!r}; every entry is a non-empty trimmed string")
        if single and " " in item:
            _fail(where, f"holds {item!r}; this field takes one word per entry")
    return tuple(value)


def _lexicon(entry: object, index: int) -> Lexicon:
    if not isinstance(entry, dict):
        _fail(f"languages[{index}]", "must be an object")
    code = entry.get("code")
    if not isinstance(code, str) or not code:
        _fail(f"languages[{index}]", "needs a `code` (ISO 639-1)")
    spaced = entry.get("spaced", True)
    if not isinstance(spaced, bool):
        _fail(f"language {code!r}", "has a `spaced` that is not true or false")
    unknown = set(entry) - {"code", "spaced", *_LIST_FIELDS}
    if unknown:
        _fail(f"language {code!r}", f"has unknown fields {sorted(unknown)}")
    lists = {
        name: _words(
            f"language {code!r}, field {name!r},", entry[name], single=name in _WORD_FIELDS
        )
        for name in _LIST_FIELDS
        if name in entry
    }
    return Lexicon(code=code, spaced=spaced, **lists)


def _detector_words(section: object) -> DetectorWords:
    names = [f.name for f in fields(DetectorWords)]
    if not isinstance(section, dict) or set(section) != set(names):
        _fail("`detectors`", f"must be an object with exactly the lists {names}")
    lists = {
        name: _words(f"detectors, list {name!r},", section[name], single=False) for name in names
    }
    return DetectorWords(**lists)


def load_words(text: str) -> tuple[tuple[Lexicon, ...], DetectorWords]:
    """Check and build the gate's word lists from the text of a `lexicons.json` file.

    Args:
        text: The JSON document: `{"languages": [...], "detectors": {...}}` (an `about` key
            is allowed for a note to readers).

    Returns:
        The lexicons in file order, and the detector word lists.

    Raises:
        ValueError: If the document is not shaped as described in this module; the message
            names the language and field at fault.

    Example:
        ```python
        from benchmarks._gate_today._lexicon import load_words

        detectors = (
            '"detectors": {"not_a_password": ["a"], "order_labels": ["order"], '
            '"cue_words": ["you"], "cue_words_unspaced": ["你"], "chat_turn_labels": ["assistant"]}'
        )
        lexicons, words = load_words(
            '{"languages": [{"code": "en", "password_words": ["password"]}], ' + detectors + "}"
        )
        assert lexicons[0].password_words == ("password",) and lexicons[0].spaced
        assert words.cue_words == ("you",)

        try:
            load_words('{"languages": [{"code": "en", "pasword_words": ["x"]}], ' + detectors + "}")
        except ValueError as error:
            assert "language 'en' has unknown fields ['pasword_words']" in str(error)
        else:
            raise AssertionError("a misspelt field must fail at import")
        ```
    """
    document: Any = json.loads(text)
    if not isinstance(document, dict) or set(document) - {"about"} != {"languages", "detectors"}:
        _fail("the document", "must be an object with `languages` and `detectors`")
    languages = document["languages"]
    if not isinstance(languages, list) or not languages:
        _fail("`languages`", "must be a non-empty list")
    lexicons = tuple(_lexicon(entry, index) for index, entry in enumerate(languages))
    codes = [lexicon.code for lexicon in lexicons]
    if len(set(codes)) != len(codes):
        _fail("`languages`", f"repeats a language code: {codes}")
    return lexicons, _detector_words(document["detectors"])


# Read through importlib.resources, so the words load from a wheel, a zip or a source tree.
# The languages, in file order: English, Chinese, Spanish, German, Russian, French, Japanese,
# Portuguese, Italian, Korean, Arabic and Turkish.
LEXICONS, DETECTOR_WORDS = load_words(
    (files("benchmarks._gate_today") / "_data" / "lexicons.json").read_text(encoding="utf-8")
)
