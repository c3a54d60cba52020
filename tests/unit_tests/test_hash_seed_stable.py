"""A compile is the same in every process, whatever `PYTHONHASHSEED` says.

The memory block is meant to be byte-stable for a given scope and conversation, so workers
share prompt-cache hits and a compile equals a fresh process's compile. Python salts the
hash of every `str` per process, so anything ordered by a set of strings (or by a float sum
taken in such an order) can differ between processes while looking stable inside one. These
tests build the same scope in real subprocesses under several hash seeds and compare what
each compile produced.

The scope holds entries that tie exactly in relevance: each holds the question's four words
with the counts 1, 2, 3 and 4 in another arrangement (and the same length), so their BM25
scores are sums of the same four numbers, and only the order those are added in can tell them
apart. Around them: hundreds of unrelated entries (more than the token budget holds), entries
with a turn TTL, a time TTL and an importance, superseded ones and recalled ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]

_CHILD = r"""
import hashlib, itertools, json
from datetime import datetime, timedelta, timezone

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig

start = datetime(2026, 1, 1, tzinfo=timezone.utc)
ticks = [0]


def clock():
    ticks[0] += 1
    return start + timedelta(seconds=ticks[0])


SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze"]


def word(n):
    # A made-up word per n, so the filler entries share nothing with the questions.
    out = ""
    for _ in range(3):
        out += SYLLABLES[n % 10]
        n //= 10
    return out + "x"


ASKED = ["harbour", "lantern", "orchard", "quarry"]
QUESTIONS = [
    "harbour lantern orchard quarry?",
    "What about the quarry, the orchard, the lantern and the harbour?",
    "lantern quarry harbour orchard",
    "Tell me about the orchard and the harbour, then the quarry and the lantern.",
]
digests = []
for memory_format, recall in [("compact", "index"), ("verbose", "index"), ("compact", "inline")]:
    config = MemoryConfig(memory_format=memory_format, recall=recall)
    chef = ContextChef(store=InMemoryStore(), memory=config, clock=clock)
    memory = chef.get_memory()
    n = 0
    for p, counts in enumerate(itertools.permutations((1, 2, 3, 4))):
        words = [w for w, c in zip(ASKED, counts) for _ in range(c)]
        words += [word(n + k) for k in range(6)]
        n += 6
        memory.set(f"tied_{p:02d}", " ".join(words), ttl=40 if p % 5 == 0 else None)
    for i in range(220):
        extra = {}
        if i % 7 == 0:
            extra["ttl"] = 30 + i % 4
        if i % 11 == 0:
            extra["ttl"] = timedelta(days=30)
        if i % 9 == 0:
            extra["importance"] = 0.5
        text = " ".join(word(n + k) for k in range(12))
        n += 12
        memory.set(f"other_{i:03d}", text, **extra)
        if i % 37 == 36:
            memory.set(f"newer_{i:03d}", text + " " + word(n), supersedes=[f"other_{i:03d}"])
            n += 1
        if i % 29 == 0:
            memory.recall(f"other_{i:03d}")
    for q, question in enumerate(QUESTIONS):
        messages = [SystemMessage("You help."), HumanMessage(QUESTIONS[q - 1]), AIMessage("Noted.")]
        payload = chef.compile(messages + [HumanMessage(question)])
        shown = json.dumps([[m.type, m.content] for m in payload.messages], sort_keys=True)
        meta = payload.meta
        facts = [meta.injected_keys, meta.indexed_keys, sorted(meta.omitted.items()), meta.turn]
        blob = shown + json.dumps(facts, default=str)
        digests.append(hashlib.sha256(blob.encode()).hexdigest())
print(json.dumps(digests))
"""


def _compiles(seed: int) -> list[str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = str(seed)
    env["PYTHONPATH"] = os.pathsep.join([str(_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        env=env,
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    digests: list[str] = json.loads(done.stdout)
    return digests


def test_the_same_scope_and_conversation_compile_alike_under_every_hash_seed() -> None:
    seeds = (0, 1, 2, 3)
    runs = {seed: _compiles(seed) for seed in seeds}
    first = runs[seeds[0]]
    # Three formats, four conversations each, every compile different from the others (the
    # questions differ), so equal runs are not equal by being empty or constant.
    assert len(first) == len(set(first)) == 12
    for seed in seeds[1:]:
        differ = [i for i, (a, b) in enumerate(zip(first, runs[seed], strict=True)) if a != b]
        assert not differ, f"PYTHONHASHSEED={seed} compiled {differ} differently from {seeds[0]}"
