"""Built-in detectors of the write gate: secrets and prompt-injection signatures.

Everything here is pure and deterministic. Patterns are compiled once at import time. Text is
scanned after a light *folding* step (compatibility normalisation, removal of invisible
characters, common Cyrillic/Greek look-alikes mapped to Latin) so that `ｉｇｎｏｒｅ` or
`ig<ZWSP>nore` cannot slip past an English pattern; every span is mapped back to the
original text, so callers can redact exactly what was found.

Each hit carries a `reason` that names the kind of problem and never contains matched text:
reasons are shown to the model.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Hit", "luhn_valid", "scan"]

HitCategory = Literal["secret", "injection"]


@dataclass(frozen=True)
class Hit:
    """One match of a built-in detector in a piece of text.

    Attributes:
        detector: Stable detector name, e.g. `openai_key`.
        category: `secret` or `injection`.
        reason: Noun phrase safe to show the model, e.g. "an API key (OpenAI format)".
        label: Redaction label used in the placeholder `[REDACTED:<label>]`; empty means
            the span is removed rather than replaced (invisible characters).
        start: Start offset in the original text.
        end: End offset (exclusive) in the original text.
    """

    detector: str
    category: HitCategory
    reason: str
    label: str
    start: int
    end: int


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


_ID_LABEL = re.compile(
    r"(?:order|invoice|tracking|ticket|booking|shipment|parcel|case|ref(?:erence)?|sku|"
    r"isbn|ean|upc|serial|transaction|customer)\s*(?:id|no\.?|number|num|#)?\s*[:#]?\s*$",
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
    digits = re.sub(r"[ \-]", "", match.group(0))
    if not 13 <= len(digits) <= 19 or not _card_brand_ok(digits) or not luhn_valid(digits):
        return False
    before = match.string[max(0, match.start() - 40) : match.start()]
    return _ID_LABEL.search(before) is None


def _joiner_misuse(match: re.Match[str]) -> bool:
    # ZWNJ/ZWJ between letters of scripts that need them (Persian, Indic) or inside emoji
    # sequences are legitimate; everything else in this class is a hiding trick.
    run = match.group(0)
    if set(run) - {"\u200c", "\u200d"}:
        return True
    text = match.string
    before = text[match.start() - 1] if match.start() > 0 else ""
    after = text[match.end()] if match.end() < len(text) else ""
    if not before or not after or before.isascii() or after.isascii():
        return True

    def joinable(char: str) -> bool:
        category = unicodedata.category(char)
        return category[0] in "LM" or category == "So" or char == "\ufe0f"

    return not (joinable(before) and joinable(after))


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
        name, category, reason, label, re.compile(pattern, flags), group=group, validate=validate
    )


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
        r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])",
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
        r"(?<![A-Za-z0-9])(?:api[_\-\s]?key|apikey|api[_\-\s]?secret|secret[_\-\s]?key|client[_\-\s]?secret|"
        r"access[_\-\s]?key|access[_\-\s]?token|auth[_\-\s]?token|refresh[_\-\s]?token|"
        r"session[_\-\s]?token|private[_\-\s]?key|signing[_\-\s]?key|token|secret)[\"']?"
        r"\s*(?:[:=]|=>|\bis\b)\s*[\"']?([A-Za-z0-9\-_./+=~]{16,})",
        _I,
        group=1,
        validate=_group_random(1),
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
        r"(?<![\w.\-])(?:\d[ \-]?){12,18}\d(?![\w\-]|\.\d)",
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
        r"<\|\s*[a-z_]{2,30}\s*\|>|\[/?\s*INST\s*\]|<</?\s*SYS\s*>>|<(?:start|end)_of_turn>",
        _I,
    ),
    _d(
        "role_tag",
        "injection",
        "role or tool-call markup",
        "markup",
        r"<\s*/?\s*(?:system|assistant|developer|human|admin|instructions?|user_instructions|"
        r"system[_\-]?(?:prompt|message|reminder)|memory|memories|memory_entry|dynamic_state|"
        r"implicit_context|tool_calls?|tool_result|tool_use|function_calls?|function_results?|"
        r"invoke|im_start|antml:[a-z_]+)\b[^<>]{0,200}>",
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

_INVISIBLE_CLASS = "\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f"

_INVISIBLE = _Detector(
    "hidden_unicode",
    "injection",
    "invisible or text-direction unicode characters",
    "",
    re.compile(f"[{_INVISIBLE_CLASS}]+"),
    validate=_joiner_misuse,
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
    "chat_template_token": (("<|", "inst", "<<", "_of_turn"), False),
    "role_tag": (("<",), False),
    "role_heading": (("#",), False),
    "role_prefix": (("system", "assistant", "developer", "human"), False),
    "role_label": (("system", "developer", "admin"), False),
    "fake_tool_call": (('"',), False),
}
_THREE_DIGITS = re.compile(r"\d{3}")

# --------------------------------------------------------------------------- folding

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")

# Cyrillic and Greek letters that render like Latin ones; enough to defeat the usual
# look-alike spelling of English trigger words without touching real text in those scripts
# (a folded Russian sentence cannot match an English pattern).
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝАВЕКМНОРСТХІЈЅοαιρυνκΟΑΒΕΙΚΜΝΡΤΧΥΖ",
    "aeopcyxijsdqwABEKMHOPCTXIJSoaipuvkOABEIKMNPTXYZ",
)


def _fold(text: str) -> tuple[str, list[int] | None]:
    """Return the folded text and, if it differs from `text`, a map from folded to original."""
    if text.isascii():
        return text, None
    pieces: list[str] = []
    origin: list[int] = []
    position = 0
    for run in _NON_ASCII_RUN.finditer(text):
        pieces.append(text[position : run.start()])
        origin.extend(range(position, run.start()))
        for index in range(run.start(), run.end()):
            char = text[index]
            # Format characters (zero-width, bidi, soft hyphen, tags) only hide text.
            if unicodedata.category(char) == "Cf":
                continue
            folded = unicodedata.normalize("NFKC", char).translate(_LOOKALIKES)
            pieces.append(folded)
            origin.extend([index] * len(folded))
        position = run.end()
    pieces.append(text[position:])
    origin.extend(range(position, len(text)))
    return "".join(pieces), origin


_TRIGGER_SETS: dict[str, tuple[frozenset[str], bool]] = {
    name: (frozenset(words), needs_digits) for name, (words, needs_digits) in _TRIGGERS.items()
}
_TRIGGER_WORDS: frozenset[str] = frozenset().union(*(words for words, _ in _TRIGGER_SETS.values()))


def _run(detector: _Detector, text: str, origin: list[int] | None, out: list[Hit]) -> None:
    for match in detector.pattern.finditer(text):
        if detector.validate is not None and not detector.validate(match):
            continue
        start, end = match.span(detector.group)
        if start == end:
            continue
        if origin is not None:
            start, end = origin[start], origin[end - 1] + 1
        out.append(
            Hit(detector.name, detector.category, detector.reason, detector.label, start, end)
        )


def scan(text: str, *, secrets: bool = True, injection: bool = True) -> list[Hit]:
    """Run the built-in detectors over one piece of text.

    Args:
        text: The text to scan (a value, a description or a key).
        secrets: Run the secret detectors.
        injection: Run the prompt-injection detectors.

    Returns:
        Every hit, ordered by start offset, with spans in `text` itself.
    """
    hits: list[Hit] = []
    folded, origin = _fold(text)
    lowered = folded.lower()
    has_digits = _THREE_DIGITS.search(folded) is not None
    # Each trigger word is looked up once per text, not once per detector that names it.
    present = {word for word in _TRIGGER_WORDS if word in lowered}
    selected = (_SECRET_DETECTORS if secrets else ()) + (_INJECTION_DETECTORS if injection else ())
    for detector in selected:
        words, needs_digits = _TRIGGER_SETS[detector.name]
        if needs_digits and not has_digits:
            continue
        if words and present.isdisjoint(words):
            continue
        _run(detector, folded, origin, hits)
    # Only non-ASCII text (the case where `origin` exists) can hold invisible characters.
    if injection and origin is not None:
        _run(_INVISIBLE, text, None, hits)
    hits.sort(key=lambda hit: (hit.start, -hit.end))
    return hits
