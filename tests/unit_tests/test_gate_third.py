"""The gate's third wave, deterministic part: spelled secrets, labels in thirty languages,
base32/base85/ROT13, upside-down and regional-indicator letters, broken words, keys that are
instructions, and the size limit before any scan."""

from __future__ import annotations

import pytest

from langchain_contextchef.gate import WriteCandidate, WriteGate
from langchain_contextchef.gate._credentials import CREDENTIAL_LABELS
from tests.support.gate_corpus import BENIGN, SECRET_TEXT, SECRETS
from tests.support.gate_corpus_third import LABELS, SPELLED
from tests.support.gate_corpus_world import CLASS_OF

# The detectors alone: a catch here is the deterministic part's, not the classifier's.
DETECTORS = WriteGate(injection_threshold=None)
REDACT = WriteGate(secrets="redact", injection_threshold=None)


def _items(cls: str, items: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return [(key, value) for key, value, _ in items if CLASS_OF[key].startswith(cls)]


@pytest.mark.parametrize(("key", "value"), _items(SPELLED, SECRETS))
def test_a_code_spelled_in_words_after_a_label_is_refused_and_cut(key: str, value: str) -> None:
    assert DETECTORS.check(WriteCandidate("k", value)).action == "reject"
    decision = REDACT.check(WriteCandidate("k", value))
    assert decision.action == "redact"
    spelled = SECRET_TEXT[key].split()
    # No three spelled words of the secret survive in a row.
    kept = decision.value.lower()
    assert not any(" ".join(spelled[i : i + 3]) in kept for i in range(len(spelled) - 2))
    assert "spelled_secret" in {f.detector for f in decision.findings}


@pytest.mark.parametrize(
    ("key", "value"),
    _items(f"near-misses: {SPELLED}", BENIGN) + _items(f"near-misses: {LABELS}", BENIGN),
)
def test_numbers_in_prose_and_labels_of_prose_are_stored(key: str, value: str) -> None:
    assert DETECTORS.check(WriteCandidate(key, value)).action == "allow"


def test_a_spelled_card_number_counts_only_when_it_passes_luhn() -> None:
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    card = "4242424242424242"
    spelled = " ".join(words[int(d)] for d in card)
    assert DETECTORS.check(WriteCandidate("k", f"card number {spelled}")).action == "reject"
    # Twelve words that are no card: a number read aloud after "card" that fails Luhn and
    # holds no three-word spelled run after a secret label.
    wrong = spelled[: -len("two")] + "three"
    assert DETECTORS.check(WriteCandidate("k", f"the card game score was {wrong}")).action == (
        "allow"
    )


def test_credential_labels_cover_thirty_languages_as_data() -> None:
    assert len(CREDENTIAL_LABELS.languages) >= 30
    assert len(set(CREDENTIAL_LABELS.languages)) == len(CREDENTIAL_LABELS.languages)


@pytest.mark.parametrize(("key", "value"), _items(LABELS, SECRETS))
def test_a_password_after_a_label_in_each_language_is_refused(key: str, value: str) -> None:
    assert DETECTORS.check(WriteCandidate("k", value)).action == "reject"
    decision = REDACT.check(WriteCandidate("k", value))
    assert decision.action == "redact"
    assert SECRET_TEXT[key] not in decision.value


@pytest.mark.parametrize(
    "text",
    [
        '{"languages": {"xx": {"secret": ["pass_word"], "login": [], "copulas": []}}}',
        '{"languages": {"xx": {"secret": [], "login": [], "copulas": []}}}',
        '{"languages": {"xx": {"secret": ["a"], "login": []}}}',
    ],
)
def test_a_malformed_label_file_fails_with_the_language_named(text: str) -> None:
    from langchain_contextchef.gate._credentials import load_labels

    with pytest.raises(ValueError, match="language 'xx'"):
        load_labels(text)
