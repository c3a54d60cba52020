"""How the commands write what they found: times, TTLs, clipped values and aligned tables."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from langchain_contextchef.entry import MemoryEntry


def short_time(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")


def ttl_text(entry: MemoryEntry, turn: int) -> str:
    parts: list[str] = []
    if entry.expires_at_turn is not None:
        left = entry.expires_at_turn - turn
        parts.append(f"turn {entry.expires_at_turn} ({max(left, 0)} left)")
    if entry.expires_at is not None:
        parts.append(f"until {short_time(entry.expires_at)}")
    return ", ".join(parts) or "never"


def clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def entry_json(entry: MemoryEntry) -> dict[str, Any]:
    return {"key": entry.key, **entry.to_stored()}


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
