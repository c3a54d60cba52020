"""Secrets without a label: bare random tokens and key bodies without their PEM armour.

A named format (`sk-...`, `ghp_...`) or a label (`password:`) tells the other detectors what
they see. A bare 40-character AWS secret key has neither, so this module judges the token
itself: long, drawn from a base64-like alphabet, mixing upper case, lower case and digits,
with high character entropy, frequent changes of character class (random text changes class
at about two adjacent pairs in three) and little of it inside word-like runs (CamelCase
names are mostly `Word` runs).

Look-alikes that must pass, and the rule that lets each through: hex hashes and UUIDs (hex
only), phone numbers, postcodes and ISBNs (no letters), ordinary words and identifiers (no
digits or no case mix, few class changes), URLs without credentials and file paths (tokens
inside a URL or a path are skipped), base64 of readable text (the decoding view judges what
it says instead).
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
from importlib import resources

from langchain_contextchef.gate._hit import Hit

__all__ = [
    "bare_token_hits",
    "base85_token_hits",
    "decodes_to_text",
    "has_long_run",
    "key_body_hits",
    "seed_phrase_hits",
]

# Sixteen characters of the base64/URL-safe alphabet in a row. Every token, key body, base64
# or hex run the gate looks at holds one, and most prose does not (words are shorter), so one
# search of this per view lets the scanner skip those detectors, and the decoders, at once.
_LONG_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16}")


def has_long_run(view: str) -> bool:
    """Whether `view` holds 16 characters of the base64 or URL-safe alphabet in a row."""
    return _LONG_RUN.search(view) is not None


_MIN_TOKEN = 30
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-.%])[A-Za-z0-9+/_\-]{30,256}={0,2}(?![A-Za-z0-9+/=_\-])")
_HEX = frozenset("0123456789abcdefABCDEF-")
_MIN_ENTROPY = 3.9
_MIN_CHANGES = 0.35
_MAX_WORD_COVER = 0.7
_WORDLIKE = re.compile(r"[A-Z]?[a-z]{2,}")


def _entropy(token: str) -> float:
    counts: dict[str, int] = {}
    for char in token:
        counts[char] = counts.get(char, 0) + 1
    size = len(token)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _class(char: str) -> int:
    if char.isdigit():
        return 0
    if char.isupper():
        return 1
    if char.islower():
        return 2
    return 3


def _class_changes(token: str) -> float:
    changes = sum(_class(a) != _class(b) for a, b in zip(token, token[1:], strict=False))
    return changes / (len(token) - 1)


def decodes_to_text(token: str) -> bool:
    """Whether a base64 (standard or URL-safe) token decodes to readable UTF-8 text."""
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return False
    padded = body + "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return False
    return _is_text(raw)


def _is_text(raw: bytes) -> bool:
    try:
        text = raw.decode("utf-8")
    except ValueError:
        return False
    printable = sum(c.isprintable() or c in "\n\t\r" for c in text)
    return bool(text) and printable >= 0.9 * len(text) and sum(c.isalpha() for c in text) >= 3


def _base85_text(token: str) -> bool:
    """Whether a base85 token (Ascii85, with or without `<~ ~>`, or RFC 1924) is readable."""
    for decode in (base64.b85decode, base64.a85decode):
        try:
            raw = decode(token)
        except (binascii.Error, ValueError):
            continue
        if _is_text(raw):
            return True
    try:
        return token.startswith("<~") and _is_text(base64.a85decode(token, adobe=True))
    except (binascii.Error, ValueError):
        return False


_PUBLIC_PREFIXES = (
    "sha256:",
    "sha384:",
    "sha512:",
    "sha1:",
    "md5:",
    "sha256-",
    "sha384-",
    "sha512-",
)
_PUBLIC_KEY_LINE = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+$"
)


def _in_url_or_path(text: str, start: int, end: int) -> bool:
    low = start
    while low > 0 and not text[low - 1].isspace():
        low -= 1
    high = end
    while high < len(text) and not text[high].isspace():
        high += 1
    word = text[low:high]
    lowered = word.lower().lstrip("\"'([{<`")
    if "://" in word or lowered.startswith(("www.", "data:")) or "base64," in word:
        return True
    # Public material: SSH public keys, key fingerprints, subresource-integrity hashes.
    if lowered.startswith(_PUBLIC_PREFIXES) or _PUBLIC_KEY_LINE.search(text, max(0, low - 40), low):
        return True
    # A path: the token is one segment of a slash-separated word ("/usr/lib/...").
    return text[start - 1 : start] in ("/", "\\") or text[end : end + 1] in ("/", "\\")


_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_MIN_BASE32 = 32
_MIN_BASE32_ENTROPY = 4.0


def _random_base32(token: str) -> bool:
    """A base32 key (TOTP seeds, some API keys): one case, letters and the digits 2-7."""
    upper = token.upper()
    if len(token) < _MIN_BASE32 or token not in (upper, token.lower()) or not set(upper) <= _BASE32:
        return False
    digits = sum(c.isdigit() for c in token)
    return 2 <= digits <= len(token) // 2 and _entropy(upper) >= _MIN_BASE32_ENTROPY


def _random(token: str) -> bool:
    if set(token) <= _HEX:
        return False  # hashes, git SHAs, UUIDs
    if _random_base32(token):
        return True
    # Upper and lower case, and digits or symbols: a random 40-character base64 key lacks
    # digits one time in a thousand, but digits and "+/" together one time in four thousand.
    if not (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and any(c.isdigit() or c in "+/_-" for c in token)
    ):
        return False
    return (
        _entropy(token) >= _MIN_ENTROPY
        and _class_changes(token) >= _MIN_CHANGES
        and _word_cover(token) < _MAX_WORD_COVER
    )


def _word_cover(token: str) -> float:
    """Share of the token inside word-like runs (`Account`, `settings`).

    Near 1 for CamelCase names, below 0.7 for random text of 30 characters or more.
    """
    return sum(len(m.group(0)) for m in _WORDLIKE.finditer(token)) / len(token)


def _path_like(token: str) -> bool:
    """Every slash-separated segment reads as a name: `src/gate_utils/LongModuleName`."""
    return all(
        len(part) < 4
        or part.islower()
        or part.isupper()
        or not any(c.isalpha() for c in part)
        or _word_cover(part) >= _MAX_WORD_COVER
        for part in token.split("/")
        if part
    )


_BARE_REASON = "a long random token that looks like a secret key"


def bare_token_hits(view: str, *, long_run: bool | None = None) -> list[Hit]:
    """Long random tokens with no label (see the module docstring).

    Args:
        view: A folded view, case kept.
        long_run: `has_long_run(view)` if the caller knows it (a token is a long run).

    Returns:
        Hits in `view` offsets.
    """
    hits: list[Hit] = []
    if len(view) < _MIN_TOKEN or not (has_long_run(view) if long_run is None else long_run):
        return hits
    for match in _TOKEN.finditer(view):
        token = match.group(0).rstrip("=")
        if "/" in token and _path_like(token):
            continue  # a path or a URL fragment, not a key that happens to hold a slash
        if not _random(token) or _in_url_or_path(view, match.start(), match.end()):
            continue
        if decodes_to_text(match.group(0)):
            continue  # base64 of readable text: the decoded view judges its content
        hits.append(Hit("bare_token", "secret", _BARE_REASON, "token", *match.span()))
    return hits


# A base85 key (RFC 1924 or Ascii85 alphabet): a run of printable characters between spaces
# that mixes cases, digits and at least three symbols base64 has not, and is as random as a key.
_BASE85_TOKEN = re.compile(r"(?<!\S)[!-~]{30,200}(?!\S)")
_BASE85_SYMBOLS = frozenset("!#$%&()*;<>?@^`{|}~")
_MIN_BASE85_ENTROPY = 4.5


def base85_token_hits(view: str) -> list[Hit]:
    """Long base85 keys with no label: random runs of the base85 alphabets.

    Args:
        view: A folded view, case kept.

    Returns:
        Hits in `view` offsets.
    """
    hits: list[Hit] = []
    if len(view) < _MIN_TOKEN:
        return hits
    for match in _BASE85_TOKEN.finditer(view):
        token = match.group(0).strip("\"'`.,;:()[]{}<>")
        if len(_BASE85_SYMBOLS.intersection(token)) < 3 or "://" in token:
            continue
        if not (
            any(c.isupper() for c in token)
            and any(c.islower() for c in token)
            and any(c.isdigit() for c in token)
        ):
            continue
        if _entropy(token) < _MIN_BASE85_ENTROPY or _word_cover(token) >= 0.5:
            continue
        if not _base85_text(match.group(0)):  # readable text: the decoded view judges it
            hits.append(Hit("bare_token", "secret", _BARE_REASON, "token", *match.span()))
    return hits


_KEY_BODY = re.compile(
    # Two or more lines of a base64 body (the inside of a PEM block without its armour).
    r"(?:^|(?<=\n))[ \t]*(?:[A-Za-z0-9+/]{40,80}={0,2}[ \t]*(?:\n|$)[ \t]*){2,}"
    # DER sequences start "MII" in base64; OpenSSH keys start with "openssh-key-v1".
    r"|(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{60,}={0,2}|b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=]{20,})"
    # The END line alone, or a PuTTY key file.
    r"|-----END[ A-Z0-9]{0,40} PRIVATE KEY(?: BLOCK)?-----"
    r"|PuTTY-User-Key-File-\d|Private-Lines:\s*\d+",
    re.MULTILINE,
)
# What the alternatives of `_KEY_BODY` that hold no long run need: a view with neither these
# nor a long run is not searched (a regex pass that would try every position of the view).
_KEY_LINES = ("-----END", "PuTTY-User-Key-File-", "Private-Lines:")


def key_body_hits(view: str, *, long_run: bool | None = None) -> list[Hit]:
    """Private key material without a BEGIN line.

    Args:
        view: A folded view, case kept.
        long_run: `has_long_run(view)` if the caller knows it (a body line is a long run).

    Returns:
        Hits in `view` offsets.
    """
    hits: list[Hit] = []
    if not (has_long_run(view) if long_run is None else long_run) and not any(
        line in view for line in _KEY_LINES
    ):
        return hits
    for match in _KEY_BODY.finditer(view):
        start, end = match.span()
        body = view[start:end].strip()
        if not body:
            continue
        start = view.index(body, start)
        hits.append(
            Hit(
                "key_body",
                "secret",
                "private key material (a PEM body without its header)",
                "private_key",
                start,
                start + len(body),
            )
        )
    return hits


# --------------------------------------------------------------------------- seed phrases

# A wallet's recovery phrase: 12 to 24 words of the BIP-39 list in a row, separated by spaces,
# commas or numbering ("1. abandon 2. ability ..."). Prose rarely strings more than seven of
# these words together; twelve is the shortest phrase a wallet issues.
_SEED_WORDS = 12
_LETTERS = re.compile(r"(?<![a-z])[a-z]{3,8}(?![a-z])")
_SEED_GAP = re.compile(r"[\s,;\-]*(?:\d{1,2}[.):]?[\s,;\-]*)?")
_SEED_REASON = "a wallet recovery phrase (BIP-39 words)"
# Twelve words of three letters or more, each apart from the next: a shorter text holds none.
_SEED_MIN_CHARS = _SEED_WORDS * 3 + _SEED_WORDS - 1


@functools.cache
def _bip39() -> frozenset[str]:
    data = resources.files("langchain_contextchef.gate") / "_data" / "bip39_english.txt"
    return frozenset(data.read_text(encoding="utf-8").split())


def seed_phrase_hits(lowered: str) -> list[Hit]:
    """Runs of at least twelve BIP-39 words (a recovery phrase), in `lowered` offsets.

    Args:
        lowered: The folded, lower-cased view.

    Returns:
        One hit per run, covering the whole run.

    Example:
        ```python
        from langchain_contextchef.gate._entropy import seed_phrase_hits

        phrase = (
            "abandon ability able about above absent absorb abstract absurd abuse access accident"
        )
        assert len(seed_phrase_hits(f"my seed: {phrase}")) == 1
        assert seed_phrase_hits("the average person will spend about six years dreaming") == []
        ```
    """
    hits: list[Hit] = []
    if len(lowered) < _SEED_MIN_CHARS:
        return hits
    words = _bip39()
    if sum(map(words.__contains__, _LETTERS.findall(lowered))) < _SEED_WORDS:
        return hits  # too few list words in the whole text for a run of twelve
    start = end = count = 0
    for match in _LETTERS.finditer(lowered):
        joined = count > 0 and _SEED_GAP.fullmatch(lowered, end, match.start()) is not None
        if match.group(0) in words:
            if not joined:
                if count >= _SEED_WORDS:
                    hits.append(Hit("seed_phrase", "secret", _SEED_REASON, "secret", start, end))
                start, count = match.start(), 0
            count += 1
            end = match.end()
            continue
        if count >= _SEED_WORDS:
            hits.append(Hit("seed_phrase", "secret", _SEED_REASON, "secret", start, end))
        count = 0
    if count >= _SEED_WORDS:
        hits.append(Hit("seed_phrase", "secret", _SEED_REASON, "secret", start, end))
    return hits
