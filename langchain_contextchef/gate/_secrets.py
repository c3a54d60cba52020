"""Named secret formats and labelled credentials: the write gate's key and password patterns.

Vendor key and token formats (`sk-...`, `AKIA...`, `ghp_...`, JWTs, PEM private keys, ...),
credentials in HTTP headers and URLs, and values assigned to key, token or password fields.
Each detector names the kind of secret in its reason and never the secret itself. Numbers
that are secrets (codes, PINs, cards) are `_numbers`; passwords after a label in any
language are `_multilingual`; tokens with no label at all are `_entropy`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re

from langchain_contextchef.gate._credentials import names_something_else
from langchain_contextchef.gate._lexicon import DETECTOR_WORDS
from langchain_contextchef.gate._patterns import Detector, Validator, detector

__all__ = ["SECRET_FORMATS"]

_I = re.IGNORECASE
_L = r"(?<![A-Za-z0-9_\-])"  # token must not continue a longer word on the left
_R = r"(?![A-Za-z0-9_\-])"


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
_NOT_A_PASSWORD = frozenset(DETECTOR_WORDS.not_a_password)


_WORDLIKE = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")


def _opens_remark(raw: str) -> bool:
    """Whether a value opens a parenthesis that goes on past it: "(rotated monthly)"."""
    return raw.startswith("(") and ")" not in raw


_AROUND = 32


def _names_something_else(match: re.Match[str], group: int) -> bool:
    """`names_something_else` on the label of `match`, lowering only the text around it."""
    low = max(0, match.start() - _AROUND)
    window = match.string[low : match.start(group) + _AROUND].lower()
    return names_something_else(window, match.start() - low, match.start(group) - low)


def _password_value(group: int) -> Validator:
    def check(match: re.Match[str]) -> bool:
        value = match.group(group).strip("\"'`()[]").rstrip(".,;:!?)")
        lowered = value.lower()
        if len(value) < 3 or lowered in _NOT_A_PASSWORD:
            return False
        if value.startswith(("[REDACTED", "<", "{", "${", "$(", "%", "os.environ", "env.")):
            return False
        if _WORDLIKE.fullmatch(value) and (
            _opens_remark(match.group(group)) or _names_something_else(match, group)
        ):
            # "Policy aziendale sulle password: almeno 12 caratteri"; "password: (rotated
            # monthly)" opens a remark, not a value.
            return False
        # Masked ("********") and placeholder ("xxxxxx") values are not secrets.
        return len(set(lowered)) > 1

    return check


_SEED_MIN_LETTERS = 4


def _base32_seed(group: int) -> Validator:
    """A base32 seed holds digits (2-7) and letters; words and spaced prose hold no digit."""

    def check(match: re.Match[str]) -> bool:
        token: str = match.group(group).replace(" ", "").replace("-", "")
        digits = sum(c.isdigit() for c in token)
        return digits >= 1 and len(token) - digits >= _SEED_MIN_LETTERS

    return check


def _url_password(match: re.Match[str]) -> bool:
    value = match.group(1)
    if "[REDACTED" in match.group(0) or value.startswith(("$", "{", "<", "%")):
        return False
    if len(set(value)) == 1:
        return False
    return value.lower() not in {"password", "pass", "pwd", "secret", "xxx", "changeme"}


SECRET_FORMATS: tuple[Detector, ...] = (
    detector(
        "private_key",
        "secret",
        "a private key (PEM block)",
        "private_key",
        r"-----BEGIN[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)",
        triggers=("-----begin",),
    ),
    detector(
        "anthropic_key",
        "secret",
        "an API key (Anthropic format)",
        "api_key",
        _L + r"sk-ant-[A-Za-z0-9_\-]{20,}",
        triggers=("sk-ant-",),
    ),
    detector(
        "openai_key",
        "secret",
        "an API key (OpenAI format)",
        "api_key",
        _L + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
        validate=_mixed,
        triggers=("sk-",),
    ),
    detector(
        "aws_access_key_id",
        "secret",
        "an AWS access key id",
        "aws_key",
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])",
        validate=_after(_UPPER_DIGIT),
        triggers=("akia", "asia", "abia", "acca"),
    ),
    detector(
        "aws_secret_key",
        "secret",
        "an AWS secret access key",
        "aws_secret",
        r"(?:aws[^\n]{0,25}?secret|secret_access_key)[^\n]{0,25}?(?:[:=]|\bis\b)\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        _I,
        group=1,
        validate=_group_random(1),
        triggers=("secret",),
    ),
    detector(
        "github_token",
        "secret",
        "an access token (GitHub format)",
        "token",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})",
        triggers=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    detector(
        "gitlab_token",
        "secret",
        "an access token (GitLab format)",
        "token",
        _L + r"gl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_\-]{20,}",
        triggers=("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-"),
    ),
    detector(
        "slack_token",
        "secret",
        "a Slack token",
        "token",
        _L + r"xox[abposr]-[A-Za-z0-9\-]{10,}",
        triggers=("xox",),
    ),
    detector(
        "slack_webhook",
        "secret",
        "a Slack webhook URL",
        "token",
        r"https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+",
        triggers=("hooks.slack.com",),
    ),
    detector(
        "google_api_key",
        "secret",
        "an API key (Google format)",
        "api_key",
        _L + r"AIza[0-9A-Za-z_\-]{35}" + _R,
        triggers=("aiza",),
    ),
    detector(
        "stripe_key",
        "secret",
        "an API key (Stripe format)",
        "api_key",
        _L + r"(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[A-Za-z0-9]{24,})",
        triggers=("_live_", "_test_", "whsec_"),
    ),
    detector(
        "twilio_api_key",
        "secret",
        "an API key (Twilio format)",
        "api_key",
        _L + r"SK[0-9a-fA-F]{32}" + _R,
        triggers=("sk",),
        needs_digits=True,
        needs_long_run=True,  # woken by "ask", "task" and, backwards, "works"
    ),
    detector(
        "twilio_auth_token",
        "secret",
        "an auth token (Twilio)",
        "token",
        r"twilio[^\n]{0,40}?token\s*(?:[:=]|\bis\b)\s*[\"']?([0-9a-f]{32})(?![0-9a-z])",
        _I,
        group=1,
        triggers=("twilio",),
    ),
    detector(
        "sendgrid_key",
        "secret",
        "an API key (SendGrid format)",
        "api_key",
        _L + r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}",
        triggers=("sg.",),
    ),
    detector(
        "npm_token",
        "secret",
        "an access token (npm format)",
        "token",
        _L + r"npm_[A-Za-z0-9]{36}",
        triggers=("npm_",),
    ),
    # Formats found by measuring detect-secrets' provider plugins on the corpus
    # (benchmarks/measure_detect_secrets.py): the only ones it caught and the gate did not.
    detector(
        "discord_bot_token",
        "secret",
        "a bot token (Discord format)",
        "token",
        r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}(?![A-Za-z0-9_\-])",
        validate=_both(_after(_ALNUM | frozenset("_-.")), _mixed),
        triggers=(".",),
        needs_long_run=True,  # woken by every full stop
    ),
    detector(
        "mailchimp_key",
        "secret",
        "an API key (Mailchimp format)",
        "api_key",
        r"(?<![0-9a-z])[0-9a-f]{32}-us[0-9]{1,2}(?![0-9a-z])",
        triggers=("-us",),
        needs_long_run=True,  # woken by "non-us", "co-user"
    ),
    detector(
        "telegram_bot_token",
        "secret",
        "a bot token (Telegram format)",
        "token",
        r"(?<![\d:])\d{8,10}:[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])",
        triggers=(":",),
        needs_digits=True,
        needs_long_run=True,  # woken by every colon
    ),
    # Provider prefixes whose random part is hex or base62 (DigitalOcean, Shopify, Vault,
    # Grafana service accounts, Square, Slack app tokens), and Mailgun's `key-` keys.
    detector(
        "provider_token",
        "secret",
        "an access token (known provider prefix)",
        "token",
        _L + r"(?:do[por]_v1_[0-9a-f]{64}|shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}"
        r"|hv[sbr]\.[A-Za-z0-9_\-]{24,}|glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8}"
        r"|sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,43}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{20,})" + _R,
        triggers=(
            "dop_v1_",
            "doo_v1_",
            "dor_v1_",
            "shpat_",
            "shpss_",
            "shpca_",
            "shppa_",
            "hvs.",
            "hvb.",
            "hvr.",
            "glsa_",
            "sq0atp-",
            "sq0csp-",
            "xapp-",
        ),
    ),
    detector(
        "mailgun_key",
        "secret",
        "an API key (Mailgun format)",
        "api_key",
        _L + r"key-[0-9a-zA-Z]{32}" + _R,
        validate=_mixed,
        triggers=("key-",),
    ),
    detector(
        "session_cookie",
        "secret",
        "a session cookie",
        "token",
        r"(?:sessionid|session_id|session|sid|phpsessid|jsessionid|connect\.sid)\s*[=:]\s*"
        r"[\"']?([0-9A-Za-z%._\-]{24,})",
        _I,
        group=1,
        validate=_group_random(1),
        triggers=("session", "sid"),
    ),
    detector(
        "pypi_token",
        "secret",
        "an API token (PyPI format)",
        "token",
        _L + r"pypi-AgE[A-Za-z0-9_\-]{50,}",
        triggers=("pypi-",),
    ),
    detector(
        "huggingface_token",
        "secret",
        "an access token (Hugging Face format)",
        "token",
        _L + r"hf_[A-Za-z0-9]{30,}",
        triggers=("hf_",),
    ),
    detector(
        "jwt",
        "secret",
        "a JSON Web Token",
        "jwt",
        _L + r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*",
        validate=_jwt_header,
        triggers=("eyj",),
    ),
    detector(
        "bearer_token",
        "secret",
        "a bearer token",
        "token",
        r"\bbearer\s+([A-Za-z0-9\-._~+/]{20,}=*)",
        _I,
        group=1,
        validate=_group_random(1),
        triggers=("bearer",),
    ),
    detector(
        "basic_auth",
        "secret",
        "HTTP basic-auth credentials",
        "password",
        r"\bauthorization\s*:\s*basic\s+([A-Za-z0-9+/]{12,}={0,2})",
        _I,
        group=1,
        triggers=("basic",),
    ),
    detector(
        "url_password",
        "secret",
        "a password inside a URL",
        "password",
        r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]{0,64}:([^\s:/@]{2,128})@",
        _I,
        group=1,
        validate=_url_password,
        triggers=("://",),
    ),
    detector(
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
        triggers=("key", "token", "secret"),
    ),
    detector(
        "password_assignment",
        "secret",
        "a password",
        "password",
        r"(?<![A-Za-z0-9])(?:password|passwd|passwort|pwd|passphrase|pass[_\-]word|db[_\-]?pass|pw)[\"']?"
        r"\s*(?:[:=]|=>)\s*[\"']?([^\s\"',;]+)",
        _I,
        group=1,
        validate=_password_value(1),
        triggers=("pass", "pwd", "pw"),
    ),
    detector(
        "totp_seed",
        "secret",
        "a one-time-password seed (base32)",
        "token",
        r"\b(?:2fa|mfa|t?otp|authenticator|authy)(?![a-z])[^\n]{0,40}?"
        r"(?<![A-Za-z0-9])([A-Z2-7]{16,64}|[A-Z2-7]{4}(?:[ \-][A-Z2-7]{4}){3,15})(?![A-Za-z0-9])",
        _I,
        group=1,
        validate=_base32_seed(1),
        triggers=("2fa", "mfa", "otp", "authenticator", "authy"),
    ),
    detector(
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
        triggers=("pass", "pin", "pwd"),
    ),
)
"""Key formats first, then labelled credentials: on the same span, the first detector wins."""
