"""Numbers that are secrets: one-time codes, PINs and payment cards, for the write gate.

A card number counts when its length and prefix fit a card brand and it passes the Luhn
checksum, unless an order, invoice or tracking label stands right before it (then it is an
identifier). Codes and PINs count after an English label here; `_multilingual` finds
them in every lexicon language, with the label before or after the number.
"""

from __future__ import annotations

import re

from langchain_contextchef.gate._lexicon import DETECTOR_WORDS
from langchain_contextchef.gate._normalize import fold_word
from langchain_contextchef.gate._patterns import Detector, detector

__all__ = ["CARD", "NUMBER_DETECTORS", "THREE_DIGITS", "luhn_valid"]

_I = re.IGNORECASE

# Three digits, maybe one separator apart: "123", "55 17 21" (cards in pairs). Detectors
# with `needs_digits` run only on views that have such a run.
THREE_DIGITS = re.compile(r"\d[ .\-/]?\d[ .\-/]?\d")


def luhn_valid(digits: str) -> bool:
    """Return whether a string of digits passes the Luhn checksum used by payment cards.

    Args:
        digits: Only the digits, no spaces or dashes.

    Returns:
        `True` when the checksum is valid and the string is non-empty and all digits.
    """
    if not digits or not digits.isdigit():
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


# Order, invoice and tracking labels in the lexicon languages (folded like the text).
_ID_LABEL = re.compile(
    r"(?:"
    + "|".join(
        sorted(
            {re.escape(fold_word(w)) for w in DETECTOR_WORDS.order_labels}, key=len, reverse=True
        )
    )
    + r")\s*(?:id|no\.?|nr\.?|n°|number|num|numero|nummer|#|号)?\s*[:#：]?\s*$",
    re.IGNORECASE,
)


def _card_brand_ok(digits: str) -> bool:
    size = len(digits)
    two = int(digits[:2])
    four = int(digits[:4])
    if digits[0] == "4":
        return size in (13, 16, 19)  # Visa
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return size == 16  # Mastercard
    if two in (34, 37):
        return size == 15  # American Express
    if digits.startswith(("6011", "65")) or 644 <= int(digits[:3]) <= 649:
        return 16 <= size <= 19  # Discover
    if 3528 <= four <= 3589:
        return 16 <= size <= 19  # JCB
    if 300 <= int(digits[:3]) <= 305 or two in (36, 38, 39):
        return 14 <= size <= 19  # Diners Club
    if two == 62:
        return 16 <= size <= 19  # UnionPay
    if two in (50, 56, 57, 58, 63, 67):
        return 12 <= size <= 19  # Maestro
    return False


def _card(match: re.Match[str]) -> bool:
    digits = re.sub(r"[^0-9]", "", match.group(0))
    if not 13 <= len(digits) <= 19 or not _card_brand_ok(digits) or not luhn_valid(digits):
        return False
    before = match.string[max(0, match.start() - 40) : match.start()]
    return _ID_LABEL.search(before) is None


def _labelled_card(match: re.Match[str]) -> bool:
    digits = re.sub(r"[^0-9]", "", match.group(1))
    return 12 <= len(digits) <= 19 and luhn_valid(digits)


NUMBER_DETECTORS: tuple[Detector, ...] = (
    detector(
        "one_time_code",
        "secret",
        "a one-time or verification code",
        "otp",
        r"\b(?:otp|totp|hotp|2fa|mfa|one[\s\-]?time|verification|security|confirmation|login|"
        r"sign[\s\-]?in|auth(?:entication)?|sms|access|backup|recovery|reset)"
        r"\s*(?:(?:code|pin|passcode|password|token)s?\b\s*(?:is|was|[:=#\-])?|(?:is|was|[:=#]))"
        r"\s*:?\s*(\d{4,10}|\d{3}[\s\-]\d{3})(?![\d\-])",
        _I,
        group=1,
        triggers=(
            "otp",
            "2fa",
            "mfa",
            "time",
            "verif",
            "secur",
            "confirm",
            "login",
            "sign",
            "auth",
            "sms",
            "access",
            "backup",
            "recover",
            "reset",
        ),
        needs_digits=True,
    ),
    detector(
        "pin_code",
        "secret",
        "a PIN",
        "otp",
        r"\bpin(?:\s+code)?\s*(?:is|was|[:=])\s*(\d{4,8})(?!\d)",
        _I,
        group=1,
        triggers=("pin",),
        needs_digits=True,
    ),
    detector(
        "payment_card",
        "secret",
        "a payment card number",
        "card_number",
        # Any grouping (4-4-4-4, 4-6-5, 4-4-4-3, ...) with spaces, dashes, dots or slashes.
        r"(?<![\w.\-/])(?:\d(?:[ .\-/]| - )?){12,18}\d(?![\w]|[.\-/]\d)",
        validate=_card,
        needs_digits=True,
        # Six of the thirteen or more digits, with their separators: most numbers in prose
        # (years, prices, times) are shorter, and this search skips to digits in C.
        hint=r"\d(?:(?:[ .\-/]| - )?\d){5}",
    ),
    # A number called a card: any ISO/IEC 7812 length (12 to 19 digits) that passes Luhn,
    # whatever its brand prefix ("my card 3530 1113 3330 000").
    detector(
        "labelled_card",
        "secret",
        "a payment card number",
        "card_number",
        r"(?:card|carte|tarjeta|karte|kaart|cartao|carta|karta|kartu|kart|卡|カード|카드)"
        r"[^\d\n]{0,25}?((?:\d[ .\-]?){11,18}\d)(?![\d])",
        _I,
        group=1,
        validate=_labelled_card,
        triggers=("card", "cart", "tarjeta", "kart", "kaart", "卡", "カード", "카드"),
        needs_digits=True,
    ),
)

CARD = next(d for d in NUMBER_DETECTORS if d.name == "payment_card")
"""The payment card detector alone (the reversed view runs only this one of them)."""
