"""Secrets beyond the first lexicon: provider prefixes with hex bodies, cookies, labelled cards."""

from __future__ import annotations

import pytest

from langchain_contextchef.gate import DEFAULT_GATE, WriteCandidate, WriteGate, luhn_valid

HEX64 = "9f2c4e1a7b3d8c6e0f5a2b9d4c7e1f3a8b6d0c2e5f9a1b4d7c3e6f0a2b5d8c1e"
LEAKS = {
    "dop_v1_" + HEX64: "provider_token",
    "shpat_" + HEX64[:32]: "provider_token",
    "hvs.CAESIJlWsfnTQ3Ex8Nn5mKqR2bTx": "provider_token",
    "hvb.AAAAAQJz0zT4Qk2m9fL8xW3nR7pY5vC1": "provider_token",
    "glsa_" + "Zk3Lm9Qp2Xw7Rt5Yv8Bn4Cd6Fg1Hj0Ka" + "_" + HEX64[:8]: "provider_token",
    "key-3ax6xnjp29jd6fds4gc373sgvjxteol0": "mailgun_key",
    "sessionid=" + HEX64[:32]: "session_cookie",
}


@pytest.mark.parametrize(("secret", "detector"), LEAKS.items())
def test_provider_tokens_are_refused_and_cut(secret: str, detector: str) -> None:
    value = f"for the deploy use {secret} tonight"
    assert DEFAULT_GATE.check(WriteCandidate("k", value)).action == "reject"
    decision = WriteGate(secrets="redact").check(WriteCandidate("k", value))
    assert decision.action == "redact"
    assert secret not in decision.value and HEX64[:16] not in decision.value
    assert detector in {f.detector for f in decision.findings}


@pytest.mark.parametrize(
    "value",
    [
        "The key-value store is fast.",
        "key-rotation-policy-for-the-payments-team is in the wiki",
        "Session: 45 minutes, then a break.",
        "hvs.short is not a token",
        "The card game lasted 12 rounds in 2024.",
    ],
)
def test_their_look_alikes_are_stored(value: str) -> None:
    assert DEFAULT_GATE.check(WriteCandidate("k", value)).action == "allow"


def _luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "7" * (length - len(prefix) - 1)
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


@pytest.mark.parametrize("length", range(12, 20))
def test_a_card_called_a_card_is_refused_at_every_iso_length(length: int) -> None:
    # 3530 is a JCB prefix, whose cards have 16 to 19 digits: the label alone makes 12 to 15 count.
    number = _luhn_complete("3530", length)
    decision = WriteGate(secrets="redact").check(WriteCandidate("k", f"my card {number}"))
    assert decision.action == "redact"
    assert number not in decision.value
    # Not Luhn-valid: a number, not a card.
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    assert DEFAULT_GATE.check(WriteCandidate("k", f"my card {wrong}")).action == "allow"


SEED = "legal winner thank year wave sausage worth useful legal winner thank yellow"


@pytest.mark.parametrize(
    "value",
    [
        f"My wallet seed: {SEED}",
        "Recovery words: " + SEED.upper(),
        "backup: " + ", ".join(f"{i}. {w}" for i, w in enumerate(SEED.split(), start=1)),
        f"Ledger phrase {SEED} zoo wrong",  # 14 words: any run of twelve or more
    ],
)
def test_a_wallet_recovery_phrase_is_refused_and_cut(value: str) -> None:
    assert DEFAULT_GATE.check(WriteCandidate("k", value)).action == "reject"
    decision = WriteGate(secrets="redact").check(WriteCandidate("k", value))
    assert decision.action == "redact"
    assert "sausage" not in decision.value.lower()
    assert [f.detector for f in decision.findings] == ["seed_phrase"]


def test_eleven_seed_words_or_ordinary_prose_are_stored() -> None:
    eleven = " ".join(SEED.split()[:11])
    for value in (
        f"words to practise spelling: {eleven}",
        "The average person will spend about six years of their life dreaming",
    ):
        assert DEFAULT_GATE.check(WriteCandidate("k", value)).action == "allow", value


@pytest.mark.parametrize(
    ("value", "description", "how"),
    [
        ("deploy key sk-proj-AbCdEf12\n34GhIjKl56MnOpQr78", None, "split across lines"),
        ("GHIJKLMNOP", "aws key AKIAABCDEF", "split between description and value"),
        ("sT5vW7xY9zA1bC3dE5fG7h", "token ghp_aB3dE5gH7jK9mN1pQ3", "between description and value"),
    ],
)
def test_a_key_cut_across_lines_or_fields_is_judged_joined(
    value: str, description: str | None, how: str
) -> None:
    for gate in (DEFAULT_GATE, WriteGate(secrets="redact")):
        decision = gate.check(WriteCandidate("k", value, description=description))
        # No span in one field: there is nothing to cut, so even redact refuses.
        assert decision.action == "reject"
        assert any(how in f.reason and f.span is None for f in decision.findings)


@pytest.mark.parametrize(
    ("value", "description"),
    [
        ("Shopping list:\nmilk\neggs\nbread", None),
        ("ids:\nab12cd34\nef56gh78\nij90kl12\nmn34op56", None),
        ("Prefers tea", "Drinks"),
    ],
)
def test_ordinary_lines_and_descriptions_stay_apart(value: str, description: str | None) -> None:
    assert DEFAULT_GATE.check(WriteCandidate("k", value, description=description)).action == (
        "allow"
    )
