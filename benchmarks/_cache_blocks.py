"""Anthropic prompt caching at content-block granularity, for the cache bench.

Anthropic caches a request prefix only where a breakpoint can sit: at the end of a content
block (a tool definition, a system block, a message's text, tool-use or tool-result block).
A request reads the cache when a prefix that an earlier request wrote (at one of its
breakpoints) ends at a block boundary at or before one of this request's breakpoints, looking
back at most about 20 blocks from each breakpoint. Byte-level common prefixes overstate this:
reuse stops at the last block boundary, not at the last equal byte.

`serialise` writes an Anthropic request body (`tools`, `system`, `messages`, the order
Anthropic caches them in) as compact JSON with every `cache_control` marker removed (markers
move between requests; the cached content does not) and a string content (of a message, or
of a `tool_result`) written as the one text block it stands for in the API, and records where
each block ends and which blocks carry a breakpoint. `BreakpointCache` replays requests
against that model of the cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

LOOKBACK = 20
"""How many blocks before a breakpoint Anthropic checks for an earlier cache entry."""


@dataclass(frozen=True)
class Serialised:
    """A request body as bytes, with its block boundaries and its breakpoints.

    Attributes:
        data: The body, without `cache_control` markers.
        ends: The byte offset just after each content block, in order.
        marks: The offsets (members of `ends`) of the blocks that carry a breakpoint.
    """

    data: bytes
    ends: tuple[int, ...]
    marks: tuple[int, ...]


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass
class _Writer:
    parts: list[bytes] = field(default_factory=list)
    size: int = 0
    ends: list[int] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)

    def raw(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)

    def block(self, block: Any) -> None:
        marked = isinstance(block, dict) and "cache_control" in block
        self.raw(_dumps(normal(block)))
        self.ends.append(self.size)
        if marked:
            self.marks.append(self.size)

    def blocks(self, content: Any) -> None:
        if isinstance(content, str):  # shorthand for one text block
            content = [{"type": "text", "text": content}]
        self.raw(b"[")
        for index, block in enumerate(content or []):
            if index:
                self.raw(b",")
            self.block(block)
        self.raw(b"]")


def normal(block: Any) -> Any:
    """The block as the cache sees it: no markers, string contents as one text block."""
    if not isinstance(block, dict):
        return block
    out = {k: v for k, v in block.items() if k != "cache_control"}
    inner = out.get("content")
    if out.get("type") == "tool_result" and inner is not None:
        if isinstance(inner, str):
            inner = [{"type": "text", "text": inner}]
        out["content"] = [normal(b) for b in inner]
    return out


def serialise(body: dict[str, Any]) -> Serialised:
    """An Anthropic request body in cache order, with block boundaries and breakpoints."""
    out = _Writer()
    out.raw(b"[")
    out.blocks(body.get("tools") or [])
    out.raw(b",")
    out.blocks(body.get("system") or [])
    out.raw(b",[")
    for index, message in enumerate(body["messages"]):
        if index:
            out.raw(b",")
        out.raw(b'{"role":' + _dumps(message["role"]) + b',"content":')
        out.blocks(message["content"])
        out.raw(b"}")
    out.raw(b"]]")
    marks = list(out.marks)
    if body.get("cache_control") and out.ends:
        marks.append(out.ends[-1])  # top-level cache_control: the last block of the request
    return Serialised(b"".join(out.parts), tuple(out.ends), tuple(sorted(set(marks))))


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the longest common prefix of two byte strings (binary search on slices)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def last_boundary(ends: tuple[int, ...], limit: int) -> int:
    """The largest block boundary at or before `limit` (0 if none): the most a breakpoint
    anywhere could have reused of a common prefix `limit` bytes long."""
    return max((end for end in ends if end <= limit), default=0)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


@dataclass
class BreakpointCache:
    """Which prefixes earlier requests wrote, and what a new request reads from them."""

    written: set[bytes] = field(default_factory=set)

    def request(self, body: Serialised) -> int:
        """Send one request: the bytes it reads from the cache; then it writes its own."""
        hit = 0
        for mark in body.marks:
            index = body.ends.index(mark)
            for j in range(index, max(-1, index - LOOKBACK - 1), -1):
                end = body.ends[j]
                if end <= hit:
                    break
                if _digest(body.data[:end]) in self.written:
                    hit = end
                    break
        self.written.update(_digest(body.data[:mark]) for mark in body.marks)
        return hit
