"""Instructions in English prose: overrides, new roles, standing orders, exfiltration.

The write gate's hand-written patterns for the ways an English text tells its reader to drop
its instructions, take a new role, obey the writer, reveal the system prompt or send data
elsewhere. The same ideas in fifteen languages, and in leetspeak, are the lexicon matchers of
`_multilingual`; markup that addresses a model is `_markup`.
"""

from __future__ import annotations

import re

from langchain_contextchef.gate._patterns import Detector, detector

__all__ = ["INSTRUCTION_DETECTORS", "device_setting"]

_I = re.IGNORECASE

_OVERRIDE_NOUN = (
    r"(?:instructions?|prompts?|rules|directions?|directives?|guidelines?|guidance|commands?|"
    r"constraints?|policies|programming|context|messages?)"
)

INSTRUCTION_DETECTORS: tuple[Detector, ...] = (
    detector(
        "instruction_override",
        "injection",
        "an instruction to ignore previous instructions",
        "instruction",
        r"\b(?:ignore|disregard|forget|neglect|abandon|bypass)\s+"
        r"(?:(?:all|any|each|every|the|your|my|of|these|those|its)\s+){0,3}"
        r"(?:(?:previous|prior|above|earlier|preceding|former|original|initial|system|"
        r"developer|safety)\s+){1,2}(?:\w+\s+)?" + _OVERRIDE_NOUN + r"\b",
        _I,
        triggers=("ignore", "disregard", "forget", "neglect", "abandon", "bypass"),
    ),
    detector(
        "instruction_override_all",
        "injection",
        "an instruction to ignore previous instructions",
        "instruction",
        r"\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:your\s+|the\s+|my\s+)?"
        r"(?:\w+\s+)?(?:instructions?|prompts?|directives?)\b",
        _I,
        triggers=("ignore", "disregard", "forget"),
    ),
    detector(
        "forget_everything",
        "injection",
        "an instruction to forget what the assistant was told",
        "instruction",
        r"\bforget\s+(?:about\s+)?(?:everything|all|anything|what)\s+(?:that\s+)?you\s*"
        r"(?:were|have\s+been|'ve\s+been|’ve\s+been|was|know|learned|have\s+learned)\b",
        _I,
        triggers=("forget",),
    ),
    detector(
        "do_not_follow",
        "injection",
        "an instruction not to follow the assistant's instructions",
        "instruction",
        r"\bdo\s+not\s+(?:follow|obey|listen\s+to)\s+(?:(?:your|the|any|previous|prior|original|"
        r"system|above|earlier)\s+){1,3}(?:instructions?|rules|prompts?|guidelines?)\b",
        _I,
        triggers=("not",),
    ),
    detector(
        "role_reassignment",
        "injection",
        "an attempt to give the assistant a new role",
        "instruction",
        r"\byou\s*(?:are|'re|’re)\s+now\s+(?:(?:a|an|the|my|no\s+longer|called|named|known\s+as|"
        r"free|unrestricted|unfiltered|uncensored|jailbroken|dan|acting|operating|"
        r"in\s+(?:\w+\s+){0,2}mode)\b|[a-z]*gpt\b)",
        _I,
        triggers=("now",),
    ),
    detector(
        "persona_switch",
        "injection",
        "an attempt to give the assistant a new role",
        "instruction",
        r"\b(?:act|behave|respond)\s+as\s+(?:if|though)\s+you\s*(?:are|were|have|'re|’re)\b|"
        r"\bpretend\s+(?:that\s+)?you\s*(?:are|were|have|'re|’re)\b|\broleplay\s+as\b",
        _I,
        triggers=("act", "behave", "respond", "pretend", "roleplay"),
    ),
    detector(
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
        triggers=(
            "instruction",
            "directive",
            "prompt",
            "orders",
            "role",
            "task",
            "purpose",
            "goal",
        ),
    ),
    detector(
        "from_now_on",
        "injection",
        "a standing order addressed to the assistant",
        "instruction",
        r"\bfrom\s+now\s+on\s*,?\s+(?:you|the\s+(?:assistant|ai|model|agent|bot))\s+"
        r"(?:must|shall|will|are\s+(?:to|required|going)|have\s+to|need\s+to|should\s+always|"
        r"should\s+never|may\s+only|can\s+only)\b",
        _I,
        triggers=("now",),
    ),
    detector(
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
        triggers=("obey", "comply", "follow", "override", "mode"),
    ),
    detector(
        "prompt_extraction",
        "injection",
        "a request to reveal the system prompt",
        "instruction",
        r"\b(?:reveal|print|repeat|output|leak|dump|disclose|expose)\s+(?:\w+\s+){0,3}?"
        r"(?:system\s+prompt|developer\s+message|hidden\s+instructions|"
        r"(?:initial|original)\s+instructions)\b",
        _I,
        triggers=("prompt", "developer", "instructions"),
    ),
    detector(
        "exfiltration",
        "injection",
        "an instruction to send data elsewhere",
        "instruction",
        r"\b(?:send|forward|post|upload|exfiltrate|leak|email|transmit)\s+(?:[\w'’]+\s+){0,4}?"
        r"(?:memor(?:y|ies)|conversations?|chat\s+history|secrets?|credentials?|api\s+keys?|"
        r"passwords?|tokens?|system\s+prompt|user\s+data|personal\s+data)\b"
        r"[^\n]{0,60}?(?:https?://|\bto\s+[\w.+\-]+@[\w\-]+\.)",
        _I,
        triggers=("://", "@"),
    ),
    detector(
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
        triggers=("this",),
    ),
)


# "Developer mode" is also a setting of phones, browsers, cars and games. The words below are
# lowered and folded (accents off), as the views are; a mode phrase whose clause names one of
# them is that setting, not an attempt to unlock the model.
_MODE = re.compile(
    r"mode|modus|modo|modalita|режим|tryb|rezim|وضع|模式|モード|모드|modu\b|pengembang"
)
_DEVICE = re.compile(
    r"(?<!\w)(?:phones?|smartphones?|android|iphone|ipad|ios|pixel|samsung|xiaomi|tablets?|"
    r"laptops?|macbook|chrome|firefox|browsers?|windows|macos|linux|router|tesla|cars?|tv|"
    r"xbox|playstation|console|kindle|watch|game|games|cheats?|telephone|telefon\w*|"
    r"telefoon|telefone|telefono|handy|smartfon\w*|телефон\w*|смартфон\w*|браузер\w*|"
    r"navegador|navigateur|appareil|gerat|dispositivo|spiel|jeu|juego|gioco)(?!\w)|"
    r"هاتف|جوال|手机|手機|电话|ブラウザ|スマホ|携帯|端末|휴대폰|폰|브라우저"
)
_STOPS = re.compile(r"[.!?;\n。！？；]")
_REACH = 80


def device_setting(lowered: str, start: int, end: int) -> bool:
    """Whether a developer-, god- or other mode phrase at `[start, end)` is a device setting.

    Args:
        lowered: The lowered folded view the phrase was found in.
        start: Where the phrase starts.
        end: Where it ends.

    Returns:
        True when the phrase names a mode and its sentence (at most 80 characters either
        side) names a phone, browser, car, game or other device.
    """
    if _MODE.search(lowered, start, end) is None:
        return False
    low = max(0, start - _REACH)
    for stop in _STOPS.finditer(lowered, low, start):
        low = stop.end()
    high = min(len(lowered), end + _REACH)
    after = _STOPS.search(lowered, end, high)
    return _DEVICE.search(lowered, low, after.start() if after else high) is not None
