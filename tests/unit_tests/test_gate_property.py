"""Property: a secret of any key format, wrapped in random prose, encoded or hidden by any of
the Unicode tricks of issue 14, is never stored in the clear by `Memory.create_memory`.

Checked through the public model-write path on LangGraph's `InMemoryStore`, with the default
gate (the write is refused) and with a redacting gate (the write is stored, the secret is
not). The secrets are random (drawn from a seed), like real keys; derandomised so a run is
repeatable.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef.gate import WriteGate
from tests.support.tokens import ALNUM, B64, BASE32, DIGITS, URLSAFE, luhn_complete, token

# Each format: seed -> (the secret, the text that carries it). The carrying text is what a
# model would write: a bare named key, or a label and a value.
Format = Callable[[int], tuple[str, str]]


def _named(prefix: str, size: int, alphabet: str) -> Format:
    def make(seed: int) -> tuple[str, str]:
        secret = prefix + token(seed, size, alphabet)
        return secret, secret

    return make


def _labelled(label: str, make_secret: Callable[[int], str]) -> Format:
    def make(seed: int) -> tuple[str, str]:
        secret = make_secret(seed)
        return secret, f"{label}{secret}"

    return make


def _password(seed: int) -> str:
    return token(seed, 6, ALNUM) + "!" + token(seed + 1, 3, DIGITS)


def _code(seed: int) -> str:
    return token(seed, 6, DIGITS)


def _card(seed: int) -> str:
    digits = luhn_complete("4" + token(seed, 14, DIGITS))
    return " ".join(digits[i : i + 4] for i in range(0, 16, 4))


FORMATS: dict[str, Format] = {
    "openai": _named("sk-proj-", 48, URLSAFE),
    "anthropic": _named("sk-ant-api03-", 80, URLSAFE),
    "github": _named("ghp_", 36, ALNUM),
    "gitlab": _named("glpat-", 20, URLSAFE),
    "aws_id": _named("AKIA", 16, BASE32),
    "stripe": _named("sk_live_", 24, ALNUM),
    "google": _named("AIza", 35, URLSAFE),
    "slack": _named("xoxb-", 40, ALNUM),
    "huggingface": _named("hf_", 34, ALNUM),
    "aws_secret_bare": _named("", 40, B64),
    "password_en": _labelled("password: ", _password),
    "password_es": _labelled("contraseña: ", _password),
    "password_de": _labelled("Das Passwort ist ", _password),
    "password_ru": _labelled("пароль: ", _password),
    "password_zh": _labelled("密码是", _password),
    "password_ja": _labelled("パスワード：", _password),
    "password_short": _labelled("pw: ", _password),
    "login_pair": _labelled("login bob / ", _password),
    "otp_en": _labelled("verification code: ", _code),
    "otp_fr": _labelled("code de vérification : ", _code),
    "otp_ko": _labelled("인증번호 ", _code),
    "card": _labelled("card ", _card),
    "api_key_field": _labelled("api_key = ", lambda seed: token(seed, 32, ALNUM)),
}


def _vs(data: bytes) -> str:
    return "".join(chr(0xFE00 + b) if b < 16 else chr(0xE0100 + b - 16) for b in data)


def _insert(text: str, char: str, every: int) -> str:
    return char.join(text[i : i + every] for i in range(0, len(text), every))


_FULLWIDTH = {
    c: chr(ord(c) + 0xFEE0)
    for c in "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~"
}
_CYRILLIC = str.maketrans("aeopcxyAEOPCXKMHT", "аеорсхуАЕОРСХКМНТ")

# Each trick: the carrying text -> what is written. All keep the content recoverable.
TRICKS: dict[str, Callable[[str], str]] = {
    "plain": lambda t: t,
    "base64": lambda t: base64.b64encode(t.encode()).decode(),
    "base64_url": lambda t: base64.urlsafe_b64encode(t.encode()).decode(),
    "hex": lambda t: t.encode().hex(),
    "percent": lambda t: "".join(f"%{b:02X}" for b in t.encode()),
    "percent_quote": lambda t: quote(t, safe=""),
    "reversed": lambda t: t[::-1],
    "zero_width": lambda t: _insert(t, "\u200b", 3),
    "soft_hyphen": lambda t: _insert(t, "\u00ad", 4),
    "word_joiner": lambda t: _insert(t, "\u2060", 5),
    "fullwidth": lambda t: "".join(_FULLWIDTH.get(c, c) for c in t),
    "cyrillic": lambda t: t.translate(_CYRILLIC),
    "selectors_after_emoji": lambda t: "😀" + _vs(t.encode()),
    "tags": lambda t: "".join(chr(0xE0000 + ord(c)) for c in t if ord(c) < 0x7F),
    # Spelled out: one character at a time, with gaps of any width and kind.
    "spaced": " ".join,
    "spaced_wide": "    ".join,
    "tabs": "\t".join,
    "newlines": "\n".join,
    # Blank fillers and format characters that render as nothing.
    "hangul_filler": lambda t: _insert(t, "\u3164", 3),
    "choseong_filler": lambda t: _insert(t, "\u115f", 4),
    "halfwidth_filler": lambda t: _insert(t, "\uffa0", 3),
    "braille_blank": lambda t: _insert(t, "\u2800", 5),
    "grapheme_joiner": lambda t: _insert(t, "\u034f", 2),
    "arabic_letter_mark": lambda t: _insert(t, "\u061c", 3),
    "mongolian_vowel_separator": lambda t: _insert(t, "\u180e", 4),
    # Combining marks on the characters of the secret (an accent, a dot below, a macron).
    "combining_marks": lambda t: "".join(
        c + "\u0301\u0323\u0304"[i % 3] if c.isascii() and c.isalnum() else c
        for i, c in enumerate(t)
    ),
}


def _groups(secret: str) -> str:
    """The secret cut into groups of four, as a key is often printed (`ghp_ aB3d E5gH ...`)."""
    bare = secret.replace(" ", "")
    return " ".join(bare[i : i + 4] for i in range(0, len(bare), 4))


# Tricks on the secret alone: the label stays readable, as a model would write it.
SECRET_TRICKS: dict[str, Callable[[str], str]] = {"groups_of_4": _groups}


def _hide(trick: str, carrier: str, secret: str) -> str:
    if trick in SECRET_TRICKS:
        return carrier.replace(secret, SECRET_TRICKS[trick](secret))
    return TRICKS[trick](carrier)


_PROSE = (
    "Notes from the planning call.",
    "The team prefers small pull requests.",
    "Remember the offsite is in June.",
    "Priya owns the release checklist.",
    "Coffee order: two flat whites.",
    "Deploys happen on Tuesdays.",
    "Ask Tomasz about the staging database.",
    "The new office is near the station.",
)
prose = st.lists(st.sampled_from(_PROSE), max_size=3).map(" ".join)


def _stored_text(memory: Memory) -> str:
    """Every key and every text field of every item in the store (timestamps left out)."""
    parts: list[str] = []

    def walk(node: Any, name: str = "") -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, str(key))
        elif isinstance(node, list):
            for value in node:
                walk(value, name)
        elif isinstance(node, str) and not name.endswith("_at"):
            parts.append(node)

    for item in memory.store.search((), limit=100_000):
        parts.append(item.key)
        walk(item.value)
    return "\n".join(parts)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    fmt=st.sampled_from(sorted(FORMATS)),
    seed=st.integers(min_value=0, max_value=2**32),
    trick=st.sampled_from(sorted([*TRICKS, *SECRET_TRICKS])),
    before=prose,
    after=prose,
)
def test_a_secret_is_never_stored_in_the_clear(
    fmt: str, seed: int, trick: str, before: str, after: str
) -> None:
    secret, carrier = FORMATS[fmt](seed)
    written = _hide(trick, carrier, secret)
    value = f"{before} {written} {after}".strip()

    default = Memory(InMemoryStore())
    result = default.create_memory("note", value)
    assert result.status == "refused", (fmt, trick, value)
    assert secret not in (result.message or "")
    assert secret not in _stored_text(default)

    lenient = Memory(
        InMemoryStore(), MemoryConfig(gate=WriteGate(secrets="redact", injection="redact"))
    )
    kept = lenient.create_memory("note", value)
    assert kept.status == "created", (fmt, trick, kept.message)
    stored = _stored_text(lenient)
    assert secret not in stored, (fmt, trick, stored)
    assert written not in stored
    assert "[REDACTED:" in stored


def test_every_format_under_every_trick() -> None:
    """The whole grid, two seeds each (the random test above samples it)."""
    missed = []
    for fmt, make in sorted(FORMATS.items()):
        for trick in sorted([*TRICKS, *SECRET_TRICKS]):
            for seed in (7, 1_000_003):
                secret, carrier = make(seed)
                hidden = _hide(trick, carrier, secret)
                value = f"Notes from the call. {hidden} Deploys happen on Tuesdays."
                memory = Memory(InMemoryStore())
                result = memory.create_memory("note", value)
                if result.status != "refused" or secret in _stored_text(memory):
                    missed.append((fmt, trick, seed))
    assert missed == []
