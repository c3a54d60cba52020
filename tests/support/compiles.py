"""One check for the tests that compare a cached process's compile with a fresh process's."""

from __future__ import annotations

from langchain_contextchef import CompiledPayload


def assert_same_compile(cached: CompiledPayload, fresh: CompiledPayload) -> None:
    """Assert two compiles agree on everything a caller reads: messages, keys, tokens, omitted.

    Used where a process that kept state across writes must compile exactly what a new
    process compiles from the same stored data.
    """
    assert cached.messages == fresh.messages
    assert cached.meta.injected_keys == fresh.meta.injected_keys
    assert cached.meta.indexed_keys == fresh.meta.indexed_keys
    assert cached.meta.tokens == fresh.meta.tokens
    assert dict(cached.meta.omitted) == dict(fresh.meta.omitted)
