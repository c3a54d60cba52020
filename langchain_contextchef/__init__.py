"""Persistent, governed memory for LangChain and LangGraph agents.

Memory lives in a LangGraph store, is spliced into every prompt by a prompt-building runnable,
and is written by the model through LangChain tools.
"""

from __future__ import annotations

from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.ttl import Turns

__version__ = "0.1.0"

__all__ = [
    "MemoryChangeEvent",
    "MemoryEntry",
    "Provenance",
    "Turns",
    "__version__",
]
