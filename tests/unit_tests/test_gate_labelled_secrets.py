"""Labelled secrets the detectors missed before: no separator after the label, a TOTP seed,
a card number of any ISO/IEC 7812 length, a label in the description and the secret in the
value, a key cut across lines or fields.

Checked with the classifier off: these are the deterministic detectors' job.
"""

from __future__ import annotations

import pytest

from langchain_contextchef.gate import WriteCandidate, WriteGate
from tests.support.tokens import luhn_complete

DETECTORS_ONLY = WriteGate(injection_threshold=None)
SECRET = "Qv7ktr29wz"

NO_SEPARATOR = (
    # Vietnamese: label, qualifier, value, no connector word and no colon.
    f"mật khẩu wifi {SECRET}",
    f"Mật khẩu wifi nhà mình {SECRET}",
    # Hindi, Persian and Urdu: the copula comes after the value, or there is none.
    f"मेरा पासवर्ड {SECRET} है",
    f"पासवर्ड {SECRET}",
    f"رمز عبور من {SECRET} است",
    f"رمز عبور {SECRET}",
    f"میرا پاس ورڈ {SECRET} ہے",
    f"پاس ورڈ {SECRET}",
    # Latin labels with a qualifier and no colon.
    f"Passwort Heimserver {SECRET}",
    f"wifi password at the cabin {SECRET}",
)

TOTP_SEEDS = (
    "2FA seed JBSWY3DPEHPK3PXP",
    "otp seed jbswy3dpehpk3pxp",
    "my authenticator key is JBSWY3DPEHPK3PXP",
    "MFA setup key: JBSW Y3DP EHPK 3PXP",
    "TOTP for the VPN GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
)

BENIGN = (
    "mật khẩu wifi đã đổi hôm qua",
    "पासवर्ड बदलना है, अगले हफ्ते",
    "رمز عبور را فردا عوض می‌کنم",
    "Password policy v2 applies from March",
    "Passwort Heimserver ändern",
    "wifi password at the cabin is on the fridge",
    "The router model is AX1800 and the password is on its sticker",
    "2FA is enabled with the ENABLED authenticator app",
    "Set up MFA on the HOMEASSISTANT account",
    "TOTP codes rotate every 30 seconds",
)


@pytest.mark.parametrize("value", NO_SEPARATOR)
def test_a_password_after_a_label_without_separator_is_refused(value: str) -> None:
    decision = DETECTORS_ONLY.check(WriteCandidate("note", value))
    assert decision.action == "reject"
    assert {f.category for f in decision.findings} == {"secret"}


@pytest.mark.parametrize("value", TOTP_SEEDS)
def test_a_base32_totp_seed_after_a_label_is_refused(value: str) -> None:
    decision = DETECTORS_ONLY.check(WriteCandidate("note", value))
    assert decision.action == "reject"
    assert {f.category for f in decision.findings} == {"secret"}


@pytest.mark.parametrize("value", BENIGN)
def test_the_same_labels_without_a_secret_are_stored(value: str) -> None:
    decision = DETECTORS_ONLY.check(WriteCandidate("note", value))
    assert (decision.action, decision.findings) == ("allow", ())


@pytest.mark.parametrize("size", range(12, 20))
@pytest.mark.parametrize("label", ["my card", "card number:", "Kartennummer", "carte bancaire"])
def test_a_labelled_card_number_of_any_iso_length_is_refused(size: int, label: str) -> None:
    # A prefix no brand uses at these lengths: only the label and the checksum say "card".
    number = luhn_complete("9" + "3141592653589793238"[: size - 2])
    assert len(number) == size
    decision = DETECTORS_ONLY.check(WriteCandidate("note", f"{label} {number}"))
    assert decision.action == "reject"


@pytest.mark.parametrize("size", range(12, 20))
def test_a_labelled_number_that_fails_luhn_is_stored(size: int) -> None:
    number = luhn_complete("9" + "3141592653589793238"[: size - 2])
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    decision = DETECTORS_ONLY.check(WriteCandidate("note", f"card number {wrong}"))
    assert decision.action == "allow"


def test_a_label_in_the_description_and_the_password_in_the_value_is_refused() -> None:
    candidate = WriteCandidate("wifi", SECRET, description="home wifi password")
    decision = DETECTORS_ONLY.check(candidate)
    assert decision.action == "reject"
    assert "description" in decision.findings[0].reason


def test_a_description_that_only_names_the_value_is_stored() -> None:
    candidate = WriteCandidate("wifi", "changed last week", description="home wifi password")
    assert DETECTORS_ONLY.check(candidate).action == "allow"


@pytest.mark.parametrize(
    ("description", "value"),
    [
        ("token, first half: ghp_AbCdEfGhIjKlMnOp", "QrStUvWxYz0123456789ab"),
        ("", "ghp_AbCdEfGhIjKlMnOp\nQrStUvWxYz0123456789ab"),
        ("", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv\nWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123"),
    ],
)
def test_a_key_cut_across_fields_or_lines_is_refused(description: str, value: str) -> None:
    candidate = WriteCandidate("k", value, description=description or None)
    assert DETECTORS_ONLY.check(candidate).action == "reject"
