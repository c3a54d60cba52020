"""One process for the clock-record tests: it opens its own store and compiles or writes.

`run(kind, where, scope, scenario, n, barrier)`: `"turns"` compiles `n` times (sync API) and
returns each compile's `(meta.turn, injected keys)`; `"aturns"` does the same through the
async API (`AsyncSqliteStore`, `AsyncPostgresStore`); `"ttl"` stores an entry whose TTL counts
`n` turns and returns the turn it was written at.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import HumanMessage

from langchain_contextchef import ContextChef, Memory, Turns
from tests.integration_tests._concurrency_worker import aopen_store, open_store

MESSAGES = [HumanMessage("hi", id="u1")]


def run(
    kind: str, where: str, scope: tuple[str, ...], scenario: str, n: int, barrier: Any
) -> list[tuple[int, list[str]]] | int:
    """Run one scenario in this process and return what it saw."""
    if scenario == "aturns":
        return asyncio.run(_aturns(kind, where, scope, n, barrier))
    with open_store(kind, where) as store:
        if scenario == "ttl":
            memory = Memory(store, scope=scope)
            memory.set("brief", "counts turns", ttl=Turns(n))
            return memory.turn
        if scenario == "turns":
            chef = ContextChef(store=store, scope=scope)
            if barrier is not None:
                barrier.wait()
            seen = []
            for _ in range(n):
                meta = chef.compile(MESSAGES).meta
                seen.append((meta.turn, list(meta.injected_keys)))
            return seen
    raise ValueError(scenario)


async def _aturns(
    kind: str, where: str, scope: tuple[str, ...], n: int, barrier: Any
) -> list[tuple[int, list[str]]]:
    async with aopen_store(kind, where) as store:
        chef = ContextChef(store=store, scope=scope)
        if barrier is not None:
            await asyncio.to_thread(barrier.wait)
        seen = []
        for _ in range(n):
            meta = (await chef.acompile(MESSAGES)).meta
            seen.append((meta.turn, list(meta.injected_keys)))
        return seen
