"""A separate process for the restart tests: compiles Memory on a FileSystemStore root.

Usage: `python memory_worker.py ROOT COUNT [GO_FILE [PAUSE_MS]]`. Waits for GO_FILE to exist
when given (so several workers start together), runs `read_for_compile()` COUNT times, and
prints one JSON object per compile: the selected keys, the expired keys and the turn after the
compile. PAUSE_MS makes the selector sleep, outside any store lock, so that two workers'
compiles interleave instead of one worker finishing before the other gets the clock's lock.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore


def main(argv: list[str]) -> None:
    root, count = Path(argv[0]), int(argv[1])
    if len(argv) > 2:
        go = Path(argv[2])
        deadline = time.monotonic() + 60
        while not go.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"gave up waiting for {go}")
            time.sleep(0.005)
    pause = float(argv[3]) / 1000 if len(argv) > 3 else 0.0

    def selector(entries: list[MemoryEntry]) -> list[MemoryEntry]:
        time.sleep(pause)
        return entries

    memory = Memory(FileSystemStore(root), MemoryConfig(selector=selector))
    for _ in range(count):
        read = memory.read_for_compile()
        row = {
            "selected": [e.key for e in read.selected],
            "expired": read.expired_keys,
            "turn": read.turn,
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
