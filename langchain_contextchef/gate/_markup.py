"""Markup addressed to a model: the write gate's role, template, hidden-text and tool-call checks.

A memory entry is spliced into a prompt, so text shaped like a chat turn (`System:`,
`<assistant>`, `<|im_start|>`), a comment or hidden HTML that talks to the model, or a tool
call in JSON, vendor or Python syntax could pass for something the model or the developer
wrote. Labels that also name facts ("System: Ubuntu 22.04") count only when the line speaks
to the model (`DETECTOR_WORDS.cue_words`), and hidden comments only when they do.
"""

from __future__ import annotations

import re

from langchain_contextchef.gate._hit import Hit
from langchain_contextchef.gate._lexicon import DETECTOR_WORDS
from langchain_contextchef.gate._multilingual import ROLE_LABELS
from langchain_contextchef.gate._normalize import fold_word
from langchain_contextchef.gate._patterns import Detector, detector

__all__ = ["MARKUP_DETECTORS", "tool_call_hits"]

_I = re.IGNORECASE
_M = re.MULTILINE

# Words that mark a line or a comment as addressed to a model rather than stating a fact:
# whole words (folded), and in scripts without spaces, anywhere (as written).
_CUE = re.compile(
    r"(?<!\w)(?:"
    + "|".join(
        sorted({re.escape(fold_word(w)) for w in DETECTOR_WORDS.cue_words}, key=len, reverse=True)
    )
    + r")(?!\w)|"
    + "|".join(map(re.escape, DETECTOR_WORDS.cue_words_unspaced)),
)
# Labels that only ever open a chat turn; "System", "User", "Developer", "Model" and their
# translations also label facts ("System: Ubuntu 22.04", "Developer: Tomasz").
_STRONG_ROLES = frozenset(fold_word(w) for w in DETECTOR_WORDS.chat_turn_labels)
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


MARKUP_DETECTORS: tuple[Detector, ...] = (
    detector(
        "chat_template_token",
        "injection",
        "chat-template control tokens",
        "markup",
        r"<\|[^|<>\n]{1,40}\|>|\[/?\s*INST\s*\]|<</?\s*SYS\s*>>|<(?:start|end)_of_turn>"
        r"|\[/?(?:TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS|SYSTEM_PROMPT)\]",
        _I,
        triggers=("<|", "inst", "<<", "_of_turn", "[tool", "[available", "[system"),
    ),
    detector(
        "role_tag",
        "injection",
        "role or tool-call markup",
        "markup",
        r"<\s*/?\s*(?:system|assistant|developer|human|admin|instructions?|user_instructions|"
        r"system[_\-]?(?:prompt|message|reminder)|memory|memories|memory_entry|dynamic_state|"
        r"implicit_context|tool_calls?|tool_result|tool_use|tools|function_calls?|function_results?|"
        r"invoke|im_start|antml:[a-z_]+|function=[\w.\-]+)\b[^<>]{0,200}>",
        _I,
        triggers=("<",),
    ),
    detector(
        "role_heading",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*#{1,6}[ \t]*(?:system|instructions?|assistant|developer|human|response)"
        r"(?:[ \t]+(?:prompt|message))?[ \t]*:",
        _I | _M,
        triggers=("#",),
    ),
    detector(
        "role_prefix",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*(?:SYSTEM|ASSISTANT|DEVELOPER)[ \t]*:|(?:^|\n)\n(?:Human|Assistant):",
        _M,
        triggers=("system", "assistant", "developer", "human"),
    ),
    detector(
        "role_label",
        "injection",
        "role markup",
        "markup",
        r"^[ \t]*(?:system|developer)[ \t]+(?:prompt|message|override|note|instruction)[ \t]*:|"
        r"\[\s*(?:system(?:\s+(?:prompt|message|note|override|instruction))?|admin|"
        r"developer(?:\s+message)?)\s*\]",
        _I | _M,
        triggers=("system", "developer", "admin"),
    ),
    detector(
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
        triggers=('"',),
    ),
    detector(
        "role_line",
        "injection",
        "role markup",
        "markup",
        _ROLE_LINE_RE,
        _I | _M,
        validate=_role_line,
        triggers=(":", "："),
    ),
    detector(
        "hidden_comment",
        "injection",
        "a hidden comment addressed to the model",
        "markup",
        r"<!--(?:(?!-->)[\s\S]){0,2000}(?:-->)?|^[ \t]*\[(?://|comment|_|#|note)\]:\s*(?:#|<>)?\s*[(\"'][^\n]*",
        _I | _M,
        validate=_addressed_to_model,
        triggers=("<!--", "]:"),
    ),
    detector(
        "hidden_html",
        "injection",
        "hidden text addressed to the model",
        "markup",
        r"<[a-z][a-z0-9]*[^<>]{0,200}?(?:display\s*:\s*none|visibility\s*:\s*hidden|"
        r"font-size\s*:\s*0|opacity\s*:\s*0|\shidden(?=[\s>=]))[^<>]{0,200}>[^<]{0,300}",
        _I,
        validate=_addressed_to_model,
        triggers=("none", "hidden", "font-size", "opacity"),
    ),
    # Structure that hides text or carries it out, whatever the words: a collapsed block, an
    # HTML event handler, a link or image whose URL is a template to fill with the chat, a
    # code fence labelled with a role, a YAML or TOML document that sets a role or a mode.
    detector(
        "collapsed_html",
        "injection",
        "text hidden in a collapsed HTML block",
        "markup",
        r"<details\b[^<>]{0,200}>[\s\S]{0,2000}?(?:</details\s*>|<summary\b)"
        r"|<summary\b[^<>]{0,200}>[\s\S]{0,400}?</summary\s*>",
        _I,
        triggers=("<details", "<summary"),
    ),
    detector(
        "html_event_handler",
        "injection",
        "an HTML event handler",
        "markup",
        r"<[a-z][a-z0-9]{0,20}\b[^<>]{0,300}?\son[a-z]{3,24}\s*=[^<>]{0,400}>?",
        _I,
        triggers=("<",),
    ),
    detector(
        "template_link",
        "injection",
        "a link or image whose query is a template to fill",
        "markup",
        r"!?\[[^\]\n]{0,200}\]\(\s*<?[a-z][a-z0-9+.\-]*:[^()\s?#]{0,300}[?#][^()\s]{0,300}?"
        r"(?:\{[^{}\s]{0,60}\}|%7b|\$\{|\$[A-Z_]{3,}|<[A-Za-z_]{2,40}>|\[[A-Za-z_ ]{2,40}\])"
        r"[^()\s]{0,300}\)",
        _I,
        triggers=("](",),
    ),
    detector(
        "role_fence",
        "injection",
        "a code block labelled with a chat role",
        "markup",
        r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{?\.?(?:system|assistant|developer|instructions?|"
        r"system[_\-]?prompt|tool|function)\b",
        _I | _M,
        triggers=("```", "~~~"),
    ),
    detector(
        "role_document",
        "injection",
        "a configuration that sets a chat role or mode",
        "markup",
        r"(?:^|[{,])[ \t\-]*[\"']?(?:role|speaker|author)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?:system|developer|assistant)\b"
        r"|^[ \t]*\[[ \t]*(?:system|developer|admin)(?:[._][a-z_]+)?[ \t]*\][ \t]*\n"
        r"[ \t]*[a-z_]+[ \t]*="
        # An assistant table may hold the user's settings ("[assistant_prefs]" with
        # "reply_length"); it is structure addressed to the model when a key sets its role,
        # mode, prompt, rules or safety.
        r"|^[ \t]*\[[ \t]*assistant(?:[._][a-z_]+)?[ \t]*\][ \t]*\n"
        r"(?:[ \t]*[a-z_]+[ \t]*=[^\n]*\n){0,20}?[ \t]*(?:[a-z_]*[._])?"
        r"(?:role|mode|persona|prompt|system_prompt|instructions?|rules|polic(?:y|ies)|safety|"
        r"filters?|guardrails?|restrictions?|censor\w*|jailbreak|unrestricted)[ \t]*="
        r"|(?:^|[{,])[ \t\-]*[\"']?(?:mode|persona|safety|filters?|guardrails?|restrictions?)[\"']?"
        r"[ \t]*[:=][ \t]*[\"']?(?:unrestricted|jailbreak|jailbroken|developer|god|dan|off|none|"
        r"disabled|false)\b",
        _I | _M,
        triggers=(
            "role",
            "speaker",
            "author",
            "[",
            "mode",
            "persona",
            "safety",
            "filter",
            "guard",
            "restrict",
        ),
    ),
    detector(
        "vendor_tool_call",
        "injection",
        "a forged tool call",
        "markup",
        r"\bto=functions\.\w+|✿FUNCTION✿|✿ARGS✿|^[ \t]*Action:[ \t]*\w+[ \t]*\n[ \t]*Action Input:"
        r"|\"(?:functionCall|toolUse|tool_use_id|tool_call_id)\"\s*:"
        r"|\"type\"\s*:\s*\"(?:function|tool_use|tool_call|function_call)\"",
        _I | _M,
        triggers=("functions.", "✿", "action", "type", "function", "tool"),
    ),
)
"""Markup first seen in chat formats, then markup inside prose; on one span the first wins."""
