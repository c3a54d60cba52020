"""The pattern detectors of the write gate: named secret formats and injection markup.

Everything here is pure and deterministic. Patterns are compiled once at import time and run
on a *folded* view of the text (`_gate_normalize`), so `ｉｇｎｏｒｅ` or `ig<ZWSP>nore`
cannot slip past them; `core_hits` adds the multilingual lexicons (`_gate_multilingual`) and
the label-free secret checks (`_gate_entropy`). The scanner (`_gate_scan`) runs `core_hits`
on every view of a text and maps the spans back.

Each hit carries a `reason` that names the kind of problem and never contains matched text:
reasons are shown to the model.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from langchain_contextchef._gate_entropy import bare_token_hits, key_body_hits
from langchain_contextchef._gate_hit import Hit, HitCategory
from langchain_contextchef._gate_multilingual import (
    ROLE_LABELS,
    credential_hits,
    injection_hits,
    otp_hits,
)
from langchain_contextchef._gate_normalize import fold_word, leet_lines, skeleton

__all__ = ["core_hits", "luhn_valid"]


Validator = Callable[[re.Match[str]], bool]


@dataclass(frozen=True)
class _Detector:
    name: str
    category: HitCategory
    reason: str
    label: str
    pattern: re.Pattern[str]
    group: int = 0
    validate: Validator | None = None
    # The same pattern without IGNORECASE, for the lower-cased view: case-insensitive
    # matching defeats the regex engine's literal prefix scan, so candidates are found on
    # the lowered text and confirmed with `pattern` at the same offset.
    fast: re.Pattern[str] | None = None


# --------------------------------------------------------------------------- helpers


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


def _entropy(text: str) -> float:
    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _looks_random(token: str, *, min_entropy: float = 3.0) -> bool:
    # Real credentials mix letters and digits; identifiers and placeholders rarely do both
    # with this much entropy ("YOUR_API_KEY_HERE", "my_variable_name").
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    return has_digit and has_alpha and _entropy(token) >= min_entropy


def _group_random(group: int) -> Validator:
    def check(match: re.Match[str]) -> bool:
        token = match.group(group)
        return not token.startswith("[REDACTED") and _looks_random(token)

    return check


_UPPER_DIGIT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz") | _UPPER_DIGIT


def _after(forbidden: frozenset[str]) -> Validator:
    """The match must not continue a word made of `forbidden` characters on its left.

    Written as a check after the match rather than a look-behind in the pattern: a pattern
    that starts with literals lets the regex engine skip ahead to where they occur.
    """

    def check(match: re.Match[str]) -> bool:
        start = match.start()
        return start == 0 or match.string[start - 1] not in forbidden

    return check


def _both(first: Validator, second: Validator) -> Validator:
    def check(match: re.Match[str]) -> bool:
        return first(match) and second(match)

    return check


def _mixed(match: re.Match[str]) -> bool:
    token = match.group(0)
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def _jwt_header(match: re.Match[str]) -> bool:
    header = match.group(0).split(".", 1)[0]
    padded = header + "=" * (-len(header) % 4)
    try:
        decoded = json.loads(base64.urlsafe_b64decode(padded))
    except (binascii.Error, ValueError):
        return False
    return isinstance(decoded, dict) and "alg" in decoded


# Words that follow "password is" in prose about passwords rather than in a disclosure.
_NOT_A_PASSWORD_WORDS = """
    a an the this that it not no none null nil n/a na tbd todo unknown empty blank missing
    required needed mandatory optional set unset reset changed rotated expired expiring
    invalid wrong incorrect correct weak strong long short too very being been in on at by
    with from into for of to as stored saved kept managed handled hashed salted encrypted
    secret private sensitive same different case-sensitive also still now never always only
    shared known forgotten lost locked there here your my our their his her its
"""
_NOT_A_PASSWORD = frozenset(_NOT_A_PASSWORD_WORDS.split())


def _password_value(group: int) -> Validator:
    def check(match: re.Match[str]) -> bool:
        value = match.group(group).strip("\"'`").rstrip(".,;:!?)")
        lowered = value.lower()
        if len(value) < 3 or lowered in _NOT_A_PASSWORD:
            return False
        if value.startswith(("[REDACTED", "<", "{", "${", "$(", "%", "os.environ", "env.")):
            return False
        # Masked ("********") and placeholder ("xxxxxx") values are not secrets.
        return len(set(lowered)) > 1

    return check


def _url_password(match: re.Match[str]) -> bool:
    value = match.group(1)
    if "[REDACTED" in match.group(0) or value.startswith(("$", "{", "<", "%")):
        return False
    if len(set(value)) == 1:
        return False
    return value.lower() not in {"password", "pass", "pwd", "secret", "xxx", "changeme"}


# Order, invoice and tracking labels in the lexicon languages (folded like the text).
_ID_WORDS = (
    "order invoice tracking ticket booking shipment parcel case ref reference sku isbn ean "
    "upc serial transaction customer pedido factura orden bestellung rechnung auftrag "
    "sendung заказ счет commande facture ordine fattura ordem fatura siparis fatura "
    "订单 订单号 发票 注文 注文番号 請求書 주문 주문번호 طلب فاتورة"
)
_ID_LABEL = re.compile(
    r"(?:"
    + "|".join(sorted({re.escape(fold_word(w)) for w in _ID_WORDS.split()}, key=len, reverse=True))
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


# --------------------------------------------------------------------------- patterns

_I = re.IGNORECASE
_M = re.MULTILINE
_L = r"(?<![A-Za-z0-9_\-])"  # token must not continue a longer word on the left
_R = r"(?![A-Za-z0-9_\-])"


def _d(
    name: str,
    category: HitCategory,
    reason: str,
    label: str,
    pattern: str,
    flags: int = 0,
    *,
    group: int = 0,
    validate: Validator | None = None,
) -> _Detector:
    return _Detector(
        name,
        category,
        reason,
        label,
        re.compile(pattern, flags),
        group=group,
        validate=validate,
        fast=re.compile(pattern, flags & ~re.IGNORECASE)
        if _lowercase_safe(pattern, flags)
        else None,
    )


def _lowercase_safe(pattern: str, flags: int) -> bool:
    """Whether a case-insensitive pattern matches lower-cased text without IGNORECASE.

    True when no upper-case letter stands outside escapes and no character class holds
    upper case only.
    """
    if not flags & re.IGNORECASE:
        return False
    bare = re.sub(r"\\.", "", pattern)
    classes = re.findall(r"\[[^\]]*\]", bare)
    if any(re.search("[A-Z]", c) and not re.search("[a-z]", c) for c in classes):
        return False
    return re.search("[A-Z]", re.sub(r"\[[^\]]*\]", "", bare)) is None


_SECRET_DETECTORS: tuple[_Detector, ...] = (
    _d(
        "private_key",
        "secret",
        "a private key (PEM block)",
        "private_key",
        r"-----BEGIN[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)",
    ),
    _d(
        "anthropic_key",
        "secret",
        "an API key (Anthropic format)",
        "api_key",
        _L + r"sk-ant-[A-Za-z0-9_\-]{20,}",
    ),
    _d(
        "openai_key",
        "secret",
        "an API key (OpenAI format)",
        "api_key",
        _L + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
        validate=_mixed,
    ),
    _d(
        "aws_access_key_id",
        "secret",
        "an AWS access key id",
        "aws_key",
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])",
        validate=_after(_UPPER_DIGIT),
    ),
    _d(
        "aws_secret_key",
        "secret",
        "an AWS secret access key",
        "aws_secret",
        r"(?:aws[^\n]{0,25}?secret|secret_access_key)[^\n]{0,25}?(?:[:=]|\bis\b)\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        _I,
        group=1,
        validate=_group_random(1),
    ),
    _d(
        "github_token",
        "secret",
        "an access token (GitHub format)",
        "token",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})",
    ),
    _d(
        "gitlab_token",
        "secret",
        "an access token (GitLab format)",
        "token",
        _L + r"gl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_\-]{20,}",
    ),
    _d(
        "slack_token",
        "secret",
        "a Slack token",
        "token",
        _L + r"xox[abposr]-[A-Za-z0-9\-]{10,}",
    ),
    _d(
        "slack_webhook",
        "secret",
        "a Slack webhook URL",
        "token",
        r"https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+",
    ),
    _d(
        "google_api_key",
        "secret",
        "an API key (Google format)",
        "api_key",
        _L + r"AIza[0-9A-Za-z_\-]{35}" + _R,
    ),
    _d(
        "stripe_key",
        "secret",
        "an API key (Stripe format)",
        "api_key",
        _L + r"(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[A-Za-z0-9]{24,})",
    ),
    _d(
        "twilio_api_key",
        "secret",
        "an API key (Twilio format)",
        "api_key",
        _L + r"SK[0-9a-fA-F]{32}" + _R,
    ),
    _d(
        "twilio_auth_token",
        "secret",
        "an auth token (Twilio)",
        "token",
        r"twilio[^\n]{0,40}?token\s*(?:[:=]|\bis\b)\s*[\"']?([0-9a-f]{32})(?![0-9a-z])",
        _I,
        group=1,
    ),
    _d(
        "sendgrid_key",
        "secret",
        "an API key (SendGrid format)",
        "api_key",
        _L + r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}",
    ),
    _d("npm_token", "secret", "an access token (npm format)", "token", _L + r"npm_[A-Za-z0-9]{36}"),
    # Formats found by measuring detect-secrets' provider plugins on the corpus
    # (benchmarks/measure_detect_secrets.py): the only ones it caught and the gate did not.
    _d(
        "discord_bot_token",
        "secret",
        "a bot token (Discord format)",
        "token",
        r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}(?![A-Za-z0-9_\-])",
        validate=_both(_after(_ALNUM | frozenset("_-.")), _mixed),
    ),
    _d(
        "mailchimp_key",
        "secret",
        "an API key (Mailchimp format)",
        "api_key",
        r"(?<![0-9a-z])[0-9a-f]{32}-us[0-9]{1,2}(?![0-9a-z])",
    ),
    _d(
        "telegram_bot_token",
        "secret",
        "a bot token (Telegram format)",
        "token",
        r"(?<![\d:])\d{8,10}:[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])",
    ),
    _d(
        "pypi_token",
        "secret",
        "an API token (PyPI format)",
        "token",
        _L + r"pypi-AgE[A-Za-z0-9_\-]{50,}",
    ),
    _d(
        "huggingface_token",
        "secret",
        "an access token (Hugging Face format)",
        "token",
        _L + r"hf_[A-Za-z0-9]{30,}",
    ),
    _d(
        "jwt",
        "secret",
        "a JSON Web Token",
        "jwt",
        _L + r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*",
        validate=_jwt_header,
    ),
    _d(
        "bearer_token",
        "secret",
        "a bearer token",
        "token",
        r"\bbearer\s+([A-Za-z0-9\-._~+/]{20,}=*)",
        _I,
        group=1,
        validate=_group_random(1),
    ),
    _d(
        "basic_auth",
        "secret",
        "HTTP basic-auth credentials",
        "password",
        r"\bauthorization\s*:\s*basic\s+([A-Za-z0-9+/]{12,}={0,2})",
        _I,
        group=1,
    ),
    _d(
        "url_password",
        "secret",
        "a password inside a URL",
        "password",
        r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]{0,64}:([^\s:/@]{2,128})@",
        _I,
        group=1,
        validate=_url_password,
    ),
    _d(
        "credential_assignment",
        "secret",
        "a credential assigned to a key or token field",
        "token",
        r"(?:api[_\-\s]?key|apikey|api[_\-\s]?secret|secret[_\-\s]?key|client[_\-\s]?secret|"
        r"access[_\-\s]?key|access[_\-\s]?token|auth[_\-\s]?token|refresh[_\-\s]?token|"
        r"session[_\-\s]?token|private[_\-\s]?key|signing[_\-\s]?key|token|secret)[\"']?"
        r"\s*(?:[:=]|=>|\bis\b)\s*[\"']?([A-Za-z0-9\-_./+=~]{16,})",
        _I,
        group=1,
        validate=_both(_after(_ALNUM), _group_random(1)),
    ),
    _d(
        "password_assignment",
        "secret",
        "a password",
        "password",
        r"(?<![A-Za-z0-9])(?:password|passwd|passwort|pwd|passphrase|pass[_\-]word|db[_\-]?pass|pw)[\"']?"
        r"\s*(?:[:=]|=>)\s*[\"']?([^\s\"',;]+)",
        _I,
        group=1,
        validate=_password_value(1),
    ),
    _d(
        "password_statement",
        "secret",
        "a password",
        "password",
        r"\b(?:password|passcode|passphrase|pin|pwd)\b"
        r"(?:\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w.@\-]+(?:\s+[\w.@\-]+)?)?"
        r"\s+(?:is|was)\s*:?\s+[\"'`]?([^\s\"'`]+?)[\"'`]?(?=[\s,;!?)]|[.](?:\s|$)|$)",
        _I,
        group=1,
        validate=_password_value(1),
    ),
    _d(
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
    ),
    _d(
        "pin_code",
        "secret",
        "a PIN",
        "otp",
        r"\bpin(?:\s+code)?\s*(?:is|was|[:=])\s*(\d{4,8})(?!\d)",
        _I,
        group=1,
    ),
    _d(
        "payment_card",
        "secret",
        "a payment card number",
        "card_number",
        # Any grouping (4-4-4-4, 4-6-5, 4-4-4-3, ...) with spaces, dashes, dots or slashes.
        r"(?<![\w.\-/])(?:\d(?:[ .\-/]| - )?){12,18}\d(?![\w]|[.\-/]\d)",
        validate=_card,
    ),
)

_OVERRIDE_NOUN = (
    r"(?:instructions?|prompts?|rules|directions?|directives?|guidelines?|guidance|commands?|"
    r"constraints?|policies|programming|context|messages?)"
)

_INJECTION_DETECTORS: tuple[_Detector, ...] = (
    _d(
        "instruction_override",
        "injection",
        "an instruction to ignore previous instructions",
        "instruction",
        r"\b(?:ignore|disregard|forget|neglect|abandon|bypass)\s+"
        r"(?:(?:all|any|each|every|the|your|my|of|these|those|its)\s+){0,3}"
        r"(?:(?:previous|prior|above|earlier|preceding|former|original|initial|system|"
        r"developer|safety)\s+){1,2}(?:\w+\s+)?" + _OVERRIDE_NOUN + r"\b",
        _I,
    ),
    _d(
        "instruction_override_all",
        "injection",
        "an instruction to ignore previous instructions",
        "instruction",
        r"\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:your\s+|the\s+|my\s+)?"
        r"(?:\w+\s+)?(?:instructions?|prompts?|directives?)\b",
        _I,
    ),
    _d(
        "forget_everything",
        "injection",
        "an instruction to forget what the assistant was told",
        "instruction",
        r"\bforget\s+(?:about\s+)?(?:everything|all|anything|what)\s+(?:that\s+)?you\s*"
        r"(?:were|have\s+been|'ve\s+been|’ve\s+been|was|know|learned|have\s+learned)\b",
        _I,
    ),
    _d(
        "do_not_follow",
        "injection",
        "an instruction not to follow the assistant's instructions",
        "instruction",
        r"\bdo\s+not\s+(?:follow|obey|listen\s+to)\s+(?:(?:your|the|any|previous|prior|original|"
        r"system|above|earlier)\s+){1,3}(?:instructions?|rules|prompts?|guidelines?)\b",
        _I,
    ),
    _d(
        "role_reassignment",
        "injection",
        "an attempt to give the assistant a new role",
        "instruction",
        r"\byou\s*(?:are|'re|’re)\s+now\s+(?:(?:a|an|the|my|no\s+longer|called|named|known\s+as|"
        r"free|unrestricted|unfiltered|uncensored|jailbroken|dan|acting|operating|"
        r"in\s+(?:\w+\s+){0,2}mode)\b|[a-z]*gpt\b)",
        _I,
    ),
    _d(
        "persona_switch",
        "injection",
        "an attempt to give the assistant a new role",
        "instruction",
        r"\b(?:act|behave|respond)\s+as\s+(?:if|though)\s+you\s*(?:are|were|have|'re|’re)\b|"
        r"\bpretend\s+(?:that\s+)?you\s*(?:are|were|have|'re|’re)\b|\broleplay\s+as\b",
        _I,
    ),
    _d(
        "new_instructions",
        "injection",
        "a block of replacement instructions",
        "instruction",
        r"\b(?:new|hidden|secret|real|actual|true|override)\s+(?:system\s+)?"
        r"(?:instructions?|directives?|system\s+prompt|orders)\s*[:\-]|"
        r"\bbegin\s+(?:new\s+)?instructions?\b|"
        r"\byour\s+(?:new|real|true|actual)\s+(?:system\s+)?(?:prompt|instructions?|role|task|"
        r"purpose|goal|objective)\s+(?:is|are)\b",
        _I,
    ),
    _d(
        "from_now_on",
        "injection",
        "a standing order addressed to the assistant",
        "instruction",
        r"\bfrom\s+now\s+on\s*,?\s+(?:you|the\s+(?:assistant|ai|model|agent|bot))\s+"
        r"(?:must|shall|will|are\s+(?:to|required|going)|have\s+to|need\s+to|should\s+always|"
        r"should\s+never|may\s+only|can\s+only)\b",
        _I,
    ),
    _d(
        "obey_override",
        "injection",
        "an attempt to override the assistant's rules",
        "instruction",
        r"\byou\s+must\s+(?:now\s+)?(?:obey|comply\s+with|follow)\s+(?:only\s+)?"
        r"(?:me|these|this|the\s+following|my|new)\b|"
        r"\bsystem\s*(?:prompt\s*)?:?\s*override\b|"
        r"\b(?:developer|god|admin|dan|jailbreak|sudo|unrestricted)\s+mode\s+"
        r"(?:is\s+)?(?:enabled|activated|on)\b|"
        r"\b(?:enable|activate|enter)\s+(?:developer|god|dan|jailbreak|unrestricted)\s+mode\b",
        _I,
    ),
    _d(
        "prompt_extraction",
        "injection",
        "a request to reveal the system prompt",
        "instruction",
        r"\b(?:reveal|print|repeat|output|leak|dump|disclose|expose)\s+(?:\w+\s+){0,3}?"
        r"(?:system\s+prompt|developer\s+message|hidden\s+instructions|"
        r"(?:initial|original)\s+instructions)\b",
        _I,
    ),
    _d(
        "exfiltration",
        "injection",
        "an instruction to send data elsewhere",
        "instruction",
        r"\b(?:send|forward|post|upload|exfiltrate|leak|email|transmit)\s+(?:[\w'’]+\s+){0,4}?"
        r"(?:memor(?:y|ies)|conversations?|chat\s+history|secrets?|credentials?|api\s+keys?|"
        r"passwords?|tokens?|system\s+prompt|user\s+data|personal\s+data)\b"
        r"[^\n]{0,60}?(?:https?://|\bto\s+[\w.+\-]+@[\w\-]+\.)",
        _I,
    ),
    _d(
        "reader_trigger",
        "injection",
        "a message addressed to the model that reads it",
        "instruction",
        r"\b(?:when|whenever|once|if)\s+you\s+(?:read|see|load|recall|retrieve|process)\s+"
        r"this(?:\s+(?:memory|message|note|entry|text))?\s*,?\s*(?:you\s+)?(?:must|should|will|"
        r"need|have|always|never|immediately|ignore|forget|send|say|tell|reply|respond|call|"
        r"run|execute)|"
        r"\b(?:ai|assistant|llm|language\s+model|agent|chatbot)s?\s+(?:reading|processing|that\s+"
        r"reads?)\s+this\b",
        _I,
    ),
    _d(
        "chat_template_token",
        "injection",
        "chat-template control tokens",
        "markup",
        r"<\|[^|<>\n]{1,40}\|>|\[/?\s*INST\s*\]|<</?\s*SYS\s*>>|<(?:start|end)_of_turn>"
        r"|\[/?(?:TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS|SYSTEM_PROMPT)\]",
        _I,
    ),
    _d(
        "role_tag",
        "injection",
        "role or tool-call markup",
        "markup",
        r"<\s*/?\s*(?:system|assistant|developer|human|admin|instructions?|user_instructions|"
        r"system[_\-]?(?:prompt|message|reminder)|memory|memories|memory_entry|dynamic_state|"
        r"implicit_context|tool_calls?|tool_result|tool_use|tools|function_calls?|function_results?|"
        r"invoke|im_start|antml:[a-z_]+|function=[\w.\-]+)\b[^<>]{0,200}>",
        _I,
    ),
    _d(
        "role_heading",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*#{1,6}[ \t]*(?:system|instructions?|assistant|developer|human|response)"
        r"(?:[ \t]+(?:prompt|message))?[ \t]*:",
        _I | _M,
    ),
    _d(
        "role_prefix",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*(?:SYSTEM|ASSISTANT|DEVELOPER)[ \t]*:|(?:^|\n)\n(?:Human|Assistant):",
        _M,
    ),
    _d(
        "role_label",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*(?:system|developer)[ \t]+(?:prompt|message|override|note|instruction)[ \t]*:|"
        r"\[\s*(?:system(?:\s+(?:prompt|message|note|override|instruction))?|admin|"
        r"developer(?:\s+message)?)\s*\]",
        _I | _M,
    ),
    _d(
        "fake_tool_call",
        "injection",
        "a forged tool call",
        "markup",
        r"\{\s*\"(?:name|tool|tool_name|function|recipient_name)\"\s*:\s*\"[^\"\n]{1,80}\"\s*,\s*"
        r"\"(?:arguments|args|parameters|input|params)\"\s*:|"
        r"\{\s*\"(?:arguments|parameters|input)\"\s*:\s*\{[^{}]{0,400}\}\s*,\s*\"name\"\s*:|"
        r"\"(?:tool_calls|function_call|tool_use)\"\s*:|"
        r"\"role\"\s*:\s*\"(?:system|developer|assistant|tool)\"",
        _I,
    ),
)


# --------------------------------------------------------------------------- prefilter

# Cheap substring tests (on the lower-cased, folded text) that must succeed before a detector's
# regex runs; any one of them is enough. Python's `re` tries an alternation at every position,
# so skipping detectors whose anchor words are absent keeps a 4,000-character check fast.
# `True` in the second slot also requires a run of three digits.
_TRIGGERS: dict[str, tuple[tuple[str, ...], bool]] = {
    "private_key": (("-----begin",), False),
    "anthropic_key": (("sk-ant-",), False),
    "openai_key": (("sk-",), False),
    "aws_access_key_id": (("akia", "asia", "abia", "acca"), False),
    "aws_secret_key": (("secret",), False),
    "github_token": (("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), False),
    "gitlab_token": (("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-"), False),
    "slack_token": (("xox",), False),
    "slack_webhook": (("hooks.slack.com",), False),
    "google_api_key": (("aiza",), False),
    "stripe_key": (("_live_", "_test_", "whsec_"), False),
    "twilio_api_key": (("sk",), True),
    "twilio_auth_token": (("twilio",), False),
    "sendgrid_key": (("sg.",), False),
    "npm_token": (("npm_",), False),
    "discord_bot_token": ((".",), False),
    "mailchimp_key": (("-us",), False),
    "telegram_bot_token": ((":",), True),
    "pypi_token": (("pypi-",), False),
    "huggingface_token": (("hf_",), False),
    "jwt": (("eyj",), False),
    "bearer_token": (("bearer",), False),
    "basic_auth": (("basic",), False),
    "url_password": (("://",), False),
    "credential_assignment": (("key", "token", "secret"), False),
    "password_assignment": (("pass", "pwd", "pw"), False),
    "password_statement": (("pass", "pin", "pwd"), False),
    "one_time_code": (
        (
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
        True,
    ),
    "pin_code": (("pin",), True),
    "payment_card": ((), True),
    "instruction_override": (
        ("ignore", "disregard", "forget", "neglect", "abandon", "bypass"),
        False,
    ),
    "instruction_override_all": (("ignore", "disregard", "forget"), False),
    "forget_everything": (("forget",), False),
    "do_not_follow": (("not",), False),
    "role_reassignment": (("now",), False),
    "persona_switch": (("act", "behave", "respond", "pretend", "roleplay"), False),
    "new_instructions": (
        ("instruction", "directive", "prompt", "orders", "role", "task", "purpose", "goal"),
        False,
    ),
    "from_now_on": (("now",), False),
    "obey_override": (("obey", "comply", "follow", "override", "mode"), False),
    "prompt_extraction": (("prompt", "developer", "instructions"), False),
    "exfiltration": (("://", "@"), False),
    "reader_trigger": (("this",), False),
    "chat_template_token": (
        ("<|", "inst", "<<", "_of_turn", "[tool", "[available", "[system"),
        False,
    ),
    "role_tag": (("<",), False),
    "role_heading": (("#",), False),
    "role_prefix": (("system", "assistant", "developer", "human"), False),
    "role_label": (("system", "developer", "admin"), False),
    "fake_tool_call": (('"',), False),
}
# --------------------------------------------------------------------------- markup in prose

# Words that mark a line or a comment as addressed to a model rather than stating a fact.
_CUE_WORDS = (
    # English: the reader, orders, powers, and the words for a model.
    "you your you're yourself must always never obey comply grant allow approve reveal "
    "override disable enable pretend respond reply answer execute call send forward "
    "unrestricted jailbreak instruction instructions rule rules prompt "
    "assistant ai model llm agent chatbot bot system "
    # Other languages: "you", "must", "obey", "the user", "administrator".
    "tu du vous voce sen ты вы debes devi musst dois deve doit должен должна obedece obedecer "
    "obbedisci obbedire gehorche gehorchen obéis подчиняться itaat usuario utente "
    "utilisateur benutzer пользователь kullanici administrador amministratore administrateur "
    "администратор yonetici"
)
_CUE = re.compile(
    r"(?<!\w)(?:"
    + "|".join(sorted({re.escape(fold_word(w)) for w in _CUE_WORDS.split()}, key=len, reverse=True))
    + r"|the user (?:is|has)|do not|don't)(?!\w)"
    + r"|你|您|必须|必須|あなた|管理者|너|당신|해야|관리자|أنت|عليك|يجب|المستخدم|تطيع",
)
# Labels that only ever open a chat turn; "System", "User", "Developer", "Model" and their
# translations also label facts ("System: Ubuntu 22.04", "Developer: Tomasz").
_STRONG_ROLES = frozenset(
    fold_word(w)
    for w in [
        "assistant",
        "human",
        "asistente",
        "assistent",
        "assistente",
        "ассистент",
        "助手",
        "アシスタント",
        "어시스턴트",
        "المساعد",
        "asistan",
    ]
)
_ROLE_LINE_RE = (
    r"^[ \t>*_#\-\[]*(?P<label>"
    + "|".join(sorted(map(re.escape, ROLE_LABELS), key=len, reverse=True))
    + r")[\]*_ \t]*(?:\([^)\n]{0,30}\))?[ \t]*[:：]"
)
_ROLE_LINE_ANY = re.compile(_ROLE_LINE_RE, re.IGNORECASE | re.MULTILINE)


def _role_line(match: re.Match[str]) -> bool:
    """A role label at the start of a line: "System:", "assistant:", "ＵＳＥＲ:"...

    Labels that only ever start a chat turn (assistant, human) always count. "System:",
    "User:" or "Developer:" also label facts ("System: Ubuntu 22.04"), so they count when the
    label is shouted (`SYSTEM:`), stands alone on its line, when the line speaks to the model
    (a cue word such as "you", "must", "obey"), or when the text holds a second role line (a
    transcript).
    """
    label = match.group("label")
    lowered = label.lower()
    if lowered in _STRONG_ROLES or (label.isupper() and len(label) > 2):
        return True
    text = match.string
    line_end = text.find("\n", match.end())
    rest = text[match.end() : line_end if line_end >= 0 else len(text)]
    if not rest.strip() and line_end >= 0:
        return True  # "System:" alone on its line opens a block
    if _CUE.search(_MARKER.sub("", rest.lower())):
        return True
    return sum(1 for _ in _ROLE_LINE_ANY.finditer(text)) > 1


def _addressed_to_model(match: re.Match[str]) -> bool:
    return _CUE.search(_MARKER.sub("", match.group(0).lower())) is not None


# The gate's own placeholder, lower-cased: its label ("instruction") is not a cue.
_MARKER = re.compile(r"\[redacted:[a-z_]{0,40}\]")


# Python-style calls of tool names: `functions.send_email(`, the package's own tools with
# keyword arguments, and action-named functions with keyword arguments
# (`transfer_funds(amount=...)`). Found from each "(" backwards: "(" is rare in prose, so
# this costs far less than a pattern tried at every position.
_CALL_NAME = re.compile(
    r"(?:(?<![\w.])(?:functions|tools?)\.[A-Za-z_]\w*"
    r"|(?<![\w.])(?P<own>create_memory|modify_memory|recall_memory|delete_memory|update_memory|"
    r"context|memory)"
    r"|(?<![\w.])(?P<action>(?:send|transfer|delete|remove|execute|exec|run|call|invoke|post|wire|"
    r"pay|email|upload|download|fetch|write|drop|grant|approve|purchase|buy|forward|reset|update|"
    r"create|make|open|share|export)_[a-z_]+))\s*$",
    re.IGNORECASE,
)
_KEYWORD_ARG = re.compile(r"\s*[a-z_]+\s*=\s*[\"'\d\[{]", re.IGNORECASE)
_OWN_ARG = re.compile(
    r"\s*(?:command|key|value|path|name|old_str|new_str|file_text)\s*=", re.IGNORECASE
)
_PAREN = re.compile(r"\(")


def tool_call_hits(view: str) -> list[Hit]:
    """Python-style forged tool calls (see `_CALL_NAME`), in `view` offsets."""
    hits: list[Hit] = []
    for paren in _PAREN.finditer(view):
        at = paren.start()
        name = _CALL_NAME.search(view, max(0, at - 60), at)
        if name is None:
            continue
        if name.group("own") is not None and not _OWN_ARG.match(view, at + 1):
            continue
        if name.group("action") is not None and not _KEYWORD_ARG.match(view, at + 1):
            continue
        hits.append(
            Hit(
                "python_tool_call",
                "injection",
                "a forged tool call",
                "markup",
                name.start(),
                at + 1,
            )
        )
    return hits


_MARKUP_DETECTORS: tuple[_Detector, ...] = (
    _d(
        "role_line",
        "injection",
        "role markup",
        "markup",
        _ROLE_LINE_RE,
        _I | _M,
        validate=_role_line,
    ),
    _d(
        "hidden_comment",
        "injection",
        "a hidden comment addressed to the model",
        "markup",
        r"<!--(?:(?!-->)[\s\S]){0,2000}(?:-->)?|^[ \t]*\[(?://|comment|_|#|note)\]:\s*(?:#|<>)?\s*[(\"'][^\n]*",
        _I | _M,
        validate=_addressed_to_model,
    ),
    _d(
        "hidden_html",
        "injection",
        "hidden text addressed to the model",
        "markup",
        r"<[a-z][a-z0-9]*[^<>]{0,200}?(?:display\s*:\s*none|visibility\s*:\s*hidden|"
        r"font-size\s*:\s*0|opacity\s*:\s*0|\shidden(?=[\s>=]))[^<>]{0,200}>[^<]{0,300}",
        _I,
        validate=_addressed_to_model,
    ),
    _d(
        "vendor_tool_call",
        "injection",
        "a forged tool call",
        "markup",
        r"\bto=functions\.\w+|✿FUNCTION✿|✿ARGS✿|^[ \t]*Action:[ \t]*\w+[ \t]*\n[ \t]*Action Input:"
        r"|\"(?:functionCall|toolUse|tool_use_id|tool_call_id)\"\s*:"
        r"|\"type\"\s*:\s*\"(?:function|tool_use|tool_call|function_call)\"",
        _I | _M,
    ),
)

_MARKUP_TRIGGERS: dict[str, tuple[tuple[str, ...], bool]] = {
    "role_line": ((":", "："), False),
    "hidden_comment": (("<!--", "]:"), False),
    "hidden_html": (("none", "hidden", "font-size", "opacity"), False),
    "vendor_tool_call": (("functions.", "✿", "action", "type", "function", "tool"), False),
}
_TRIGGERS.update(_MARKUP_TRIGGERS)

# --------------------------------------------------------------------------- running them

# Three digits, maybe one separator apart: "123", "55 17 21" (cards in pairs).
_THREE_DIGITS = re.compile(r"\d[ .\-/]?\d[ .\-/]?\d")
_TRIGGER_SETS: dict[str, tuple[frozenset[str], bool]] = {
    name: (frozenset(words), needs_digits) for name, (words, needs_digits) in _TRIGGERS.items()
}
_TRIGGER_WORDS: frozenset[str] = frozenset().union(*(words for words, _ in _TRIGGER_SETS.values()))
_SECRET_SET = _SECRET_DETECTORS
_INJECTION_SET = _INJECTION_DETECTORS + _MARKUP_DETECTORS


def _run(detector: _Detector, text: str, out: list[Hit], lowered: str | None = None) -> None:
    if detector.fast is not None and lowered is not None:
        confirmed = (
            detector.pattern.match(text, m.start()) for m in detector.fast.finditer(lowered)
        )
        matches: Iterable[re.Match[str] | None] = confirmed
    else:
        matches = detector.pattern.finditer(text)
    for match in matches:
        if match is None:
            continue
        if detector.validate is not None and not detector.validate(match):
            continue
        start, end = match.span(detector.group)
        if start < end:
            out.append(
                Hit(detector.name, detector.category, detector.reason, detector.label, start, end)
            )


def lower_same_length(text: str) -> str:
    """`text.lower()`, keeping offsets: characters whose lower case is longer stay as they are."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def core_hits(view: str, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """Run every detector over one folded view (no derived views, no invisible characters).

    Args:
        view: A folded text (`_gate_normalize.fold(...).text`), case kept.
        secrets: Run the secret detectors.
        injection: Run the prompt-injection detectors.

    Returns:
        Hits in `view` offsets, unordered.
    """
    hits: list[Hit] = []
    lowered = lower_same_length(view)
    has_digits = _THREE_DIGITS.search(view) is not None
    # Each trigger word is looked up once per text, not once per detector that names it.
    present = {word for word in _TRIGGER_WORDS if word in lowered}
    selected = (_SECRET_SET if secrets else ()) + (_INJECTION_SET if injection else ())
    for detector in selected:
        words, needs_digits = _TRIGGER_SETS[detector.name]
        if needs_digits and not has_digits:
            continue
        if words and present.isdisjoint(words):
            continue
        _run(detector, view, hits, lowered)
    if secrets:
        hits.extend(credential_hits(lowered))
        if has_digits:
            hits.extend(otp_hits(lowered))
        hits.extend(bare_token_hits(view))
        hits.extend(key_body_hits(view))
    if injection:
        hits.extend(injection_hits(lowered))
        hits.extend(_leet_hits(lowered))
        if "(" in view:
            hits.extend(tool_call_hits(view))
    return hits


def squeezed_hits(view: str) -> list[Hit]:
    """Instruction lexicon hits in a view whose spaces are gone ("ignoreallprevious...")."""
    lowered = lower_same_length(view)
    hits = injection_hits(lowered, squeezed=True)
    hits.extend(_leet_hits(lowered, squeezed=True))
    return hits


def _leet_hits(lowered: str, *, squeezed: bool = False) -> list[Hit]:
    """Instruction lexicon hits in the leetspeak skeleton of the lines that hold leetspeak."""
    hits: list[Hit] = []
    for start, end in leet_lines(lowered):
        for hit in injection_hits(skeleton(lowered[start:end]), squeezed=squeezed):
            hits.append(hit.moved(hit.start + start, hit.end + start))
    return hits


_CARD = next(d for d in _SECRET_DETECTORS if d.name == "payment_card")
_SECRET_TRIGGER_WORDS: frozenset[str] = frozenset().union(
    *(_TRIGGER_SETS[d.name][0] for d in _SECRET_SET)
)


def reversed_hits(view: str, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """The detectors worth running on a text written backwards.

    The lexicons cover instructions, passwords and codes in every language (English included),
    the card check needs the digits in order, and named key formats are matched only when
    their trigger words occur backwards. The English injection regexes are skipped (the
    lexicons say the same things) to keep the cost of this view low.
    """
    hits: list[Hit] = []
    lowered = lower_same_length(view)
    if secrets:
        # Named key formats too: a reversed "glpat-..." is too short for the entropy check.
        # Their trigger words ("glpat-", "akia") rarely occur in reversed prose, so the
        # prefilter skips almost all of them.
        present = {word for word in _SECRET_TRIGGER_WORDS if word in lowered}
        for detector in _SECRET_SET:
            words, _ = _TRIGGER_SETS[detector.name]
            if words and not present.isdisjoint(words):
                _run(detector, view, hits, lowered)
        hits.extend(credential_hits(lowered))
        if _THREE_DIGITS.search(view) is not None:
            hits.extend(otp_hits(lowered))
            _run(_CARD, view, hits)
    if injection:
        hits.extend(injection_hits(lowered))
    return hits
