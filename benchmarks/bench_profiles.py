"""A typed profile against the same facts stored as loose keys: tokens per call, compile, edit.

Ten facts about one user are stored two ways in the same run:

* `profile`: `MemoryConfig(profiles={"user": UserProfile})`, one entry of type `profile`
  whose value is the JSON of the ten set fields;
* `loose keys`: ten entries `user_name`, `user_city`, ... with the same values.

Figures, each a ratio profile / loose keys:

* tokens of the `<memory>` block, and tokens one model call carries because of memory (the
  messages over the same conversation without memory, plus the tool schemas as
  `count_tokens_approximately(tools=...)` counts them; the profile's
  side includes the lines that tell the model its schema);
* the time of one `chef.compile(messages)` on each store (back to back on one chef, as an
  application calls it, interleaved with the other setup);
* the time of one model edit of one fact: `edit_profile("user", {"city": ...})` (read,
  merge, validate, gate the changed field, write) against `update_memory("user_city", ...)`.

Tokens are LangChain's `count_tokens_approximately`, as in `bench_tokens`.

Goals (issue 27): the profile's `<memory>` block costs no more tokens than the loose keys
(ratio <= 1.0), and its compile at most 1.2x theirs. The per-call figure is reported without
a goal: it also carries the profile's schema (about 45 tokens of instruction and one line
per profile, static across calls, so a cached prefix holds it), which the loose keys do not
tell the model at all.
"""

from __future__ import annotations

import itertools
import tempfile
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from pydantic import BaseModel

from benchmarks._fixtures import STORE_KINDS, open_store
from benchmarks._timing import (
    fmt_ratio,
    fmt_seconds,
    goal,
    paired_medians,
    print_goals,
    print_table,
    ratio,
)
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.memory import Memory

TOKEN_GOAL = 1.0
COMPILE_GOAL = 1.2

MESSAGES: list[BaseMessage] = [
    SystemMessage("You are a careful coding assistant."),
    HumanMessage("Add a test for the date parser."),
]


class UserProfile(BaseModel):
    """Ten facts about a user, each optional."""

    name: str | None = None
    city: str | None = None
    timezone: str | None = None
    language: str | None = None
    editor: str | None = None
    shell: str | None = None
    package_manager: str | None = None
    indentation: str | None = None
    answer_length: str | None = None
    test_framework: str | None = None


FACTS: dict[str, str] = {
    "name": "Ada",
    "city": "Oslo",
    "timezone": "Europe/Oslo",
    "language": "Python",
    "editor": "vim",
    "shell": "zsh",
    "package_manager": "uv",
    "indentation": "tabs",
    "answer_length": "short",
    "test_framework": "pytest",
}


def _profile_chef(store: Any) -> ContextChef:
    chef = ContextChef(
        store=store, memory=MemoryConfig(profiles={"user": UserProfile}), scope=("p",)
    )
    chef.get_memory().set_profile("user", UserProfile(**FACTS))
    return chef


def _loose_chef(store: Any) -> ContextChef:
    chef = ContextChef(store=store, memory=MemoryConfig(), scope=("k",))
    memory = chef.get_memory()
    for field, value in FACTS.items():
        memory.set(f"user_{field}", value)
    return chef


def _block(chef: ContextChef) -> str:
    text = "\n".join(str(m.content) for m in chef.compile(MESSAGES).messages)
    start, end = text.index("<memory>"), text.index("</memory>") + len("</memory>")
    return text[start:end]


def _call_tokens(chef: ContextChef) -> int:
    payload = chef.compile(MESSAGES)
    schemas = count_tokens_approximately([], tools=payload.tools) if payload.tools else 0
    added = count_tokens_approximately(payload.messages) - count_tokens_approximately(MESSAGES)
    return added + schemas


def _tokens() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder, open_store("memory", folder) as store:
        profile, loose = _profile_chef(store), _loose_chef(store)
        blocks = {"profile": _block(profile), "loose": _block(loose)}
        block = {k: count_tokens_approximately([HumanMessage(v)]) for k, v in blocks.items()}
        call = {"profile": _call_tokens(profile), "loose": _call_tokens(loose)}
    return {
        "block_tokens": block,
        "call_tokens": call,
        "block_ratio": ratio(block["profile"], block["loose"]),
        "call_ratio": ratio(call["profile"], call["loose"]),
    }


def _timings(kind: str, quick: bool) -> dict[str, Any]:
    repeats = 3 if quick else 40
    counter = itertools.count()
    with tempfile.TemporaryDirectory() as folder, open_store(kind, folder) as store:
        profile, loose = _profile_chef(store), _loose_chef(store)
        compiled = paired_medians(
            {
                "loose": lambda: loose.compile(MESSAGES),
                "profile": lambda: profile.compile(MESSAGES),
            },
            repeats=repeats,
        )
        pm: Memory = profile.get_memory()
        lm: Memory = loose.get_memory()

        def edit_profile() -> None:
            result = pm.edit_profile("user", {"city": f"City {next(counter)}"})
            assert result.ok, result.message

        def edit_loose() -> None:
            result = lm.update_memory("user_city", f"City {next(counter)}")
            assert result.ok, result.message

        edited = paired_medians({"loose": edit_loose, "profile": edit_profile}, repeats=repeats)
    return {
        "store": kind,
        "compile_loose_s": compiled["loose"],
        "compile_profile_s": compiled["profile"],
        "compile_ratio": ratio(compiled["profile"], compiled["loose"]),
        "edit_loose_s": edited["loose"],
        "edit_profile_s": edited["profile"],
        "edit_ratio": ratio(edited["profile"], edited["loose"]),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure a ten-field profile against ten loose keys; print the tables.

    Args:
        quick: Few repetitions: a smoke run, not a measurement.

    Returns:
        `{"name", "tokens", "rows", "goals", "notes"}`.
    """
    tokens = _tokens()
    rows = [_timings(kind, quick) for kind in STORE_KINDS]
    print_table(
        "Tokens: a ten-field profile vs the same ten facts as loose keys",
        ["measure", "profile", "loose keys", "ratio"],
        [
            [
                "<memory> block",
                tokens["block_tokens"]["profile"],
                tokens["block_tokens"]["loose"],
                fmt_ratio(tokens["block_ratio"]),
            ],
            [
                "per model call (messages + tool schemas)",
                tokens["call_tokens"]["profile"],
                tokens["call_tokens"]["loose"],
                fmt_ratio(tokens["call_ratio"]),
            ],
        ],
    )
    print_table(
        "Compile and one edit: profile vs loose keys",
        [
            "store",
            "compile loose",
            "compile profile",
            "ratio",
            "edit loose",
            "edit profile",
            "ratio",
        ],
        [
            [
                r["store"],
                fmt_seconds(r["compile_loose_s"]),
                fmt_seconds(r["compile_profile_s"]),
                fmt_ratio(r["compile_ratio"]),
                fmt_seconds(r["edit_loose_s"]),
                fmt_seconds(r["edit_profile_s"]),
                fmt_ratio(r["edit_ratio"]),
            ]
            for r in rows
        ],
    )
    goals = [
        goal(
            "<memory> block tokens, profile / loose keys",
            tokens["block_ratio"],
            f"<= {TOKEN_GOAL}x",
            tokens["block_ratio"] <= TOKEN_GOAL,
        )
    ]
    if not quick:
        goals += [
            goal(
                f"compile, profile / loose keys ({r['store']})",
                r["compile_ratio"],
                f"<= {COMPILE_GOAL}x",
                r["compile_ratio"] <= COMPILE_GOAL,
            )
            for r in rows
        ]
        print_goals(goals)
    return {
        "name": "profiles",
        "tokens": tokens,
        "rows": rows,
        "goals": goals,
        "notes": [
            "ten facts: one profile entry (JSON of the set fields) vs ten entries",
            "tokens: count_tokens_approximately, tool schemas included",
            "times: medians, interleaved, same store and run",
        ],
    }
