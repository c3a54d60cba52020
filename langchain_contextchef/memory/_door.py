"""What `Memory`'s mixins need of it: the bound context and the door that runs plans."""

from __future__ import annotations

from typing import Protocol, TypeVar

from langchain_contextchef._plan import Plan
from langchain_contextchef.memory._context import MemoryContext
from langchain_contextchef.memory.config import Hooks

__all__ = ["Door"]

T = TypeVar("T")


class Door(Protocol):
    """`Memory` as its mixins see it (`self: Door` in their methods)."""

    context: MemoryContext

    def run(self, plan: Plan[T], *, fires: Hooks = ()) -> T: ...

    async def arun(self, plan: Plan[T]) -> T: ...
