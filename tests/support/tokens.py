"""Deterministic fake credentials: seeded pseudo-random tokens and Luhn-valid card numbers.

The gate corpora, the gate property tests and the detect-secrets measure build their secrets
from these, so one seed always gives the same text everywhere.
"""

from __future__ import annotations

import hashlib

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DIGITS = "0123456789"


def token(seed: str | int, size: int, alphabet: str = ALNUM) -> str:
    """A pseudo-random token of `size` characters of `alphabet`; the same seed, the same text."""
    out: list[str] = []
    counter = 0
    while len(out) < size:
        digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
        out.extend(alphabet[byte % len(alphabet)] for byte in digest)
        counter += 1
    return "".join(out[:size])


def luhn_complete(partial: str) -> str:
    """`partial` with the check digit appended that makes it pass the Luhn test."""
    for check in DIGITS:
        digits = partial + check
        total = 0
        for index, char in enumerate(reversed(digits)):
            value = int(char) * (2 if index % 2 else 1)
            total += value - 9 if value > 9 else value
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable: one of ten check digits always fits")
