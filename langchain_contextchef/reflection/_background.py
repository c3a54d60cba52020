"""Background reflection: run the reflector once a conversation has been quiet for a while.

Each conversation (a thread) has at most one pending run. `notify` records the thread's
messages and (re)schedules its run `delay` seconds later, so ten messages in quick
succession cancel nine runs and leave one, after the last. A run reflects only on the
messages no earlier run of the thread has reflected on (by message id, else by position),
so the same messages are never extracted twice. A run that fails is logged and retried
after `retry_delay`, at most `max_attempts` times in all. On `shutdown`, pending runs are
run now (`"flush"`) or dropped (`"drop"`).

Everything the reflector writes goes through `Memory`'s model path, as every reflection
does: allowed keys, the write gate, the veto, consent, audit, and the scope's exclusive
section.

Two drivers share the bookkeeping (`_Threads`):

* `ReflectionScheduler`: a daemon worker thread waits for the next due run. With
  `start=False` nothing runs by itself and `run_due()` runs what is due, so a test drives it
  with a fake clock.
* `AsyncReflectionScheduler`: one asyncio task per pending thread, cancelled by the next
  message; `drain()` waits for every pending run.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal, TypeAlias

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from langchain_contextchef.memory import Memory
from langchain_contextchef.reflection._reflector import MemoryReflector
from langchain_contextchef.reflection._schema import ReflectionReport

__all__ = ["AsyncReflectionScheduler", "OnShutdown", "ReflectionScheduler", "SchedulerStats"]

logger = logging.getLogger(__name__)

OnShutdown: TypeAlias = Literal["flush", "drop"]
"""What `shutdown` does with pending runs: run them now, or drop them."""

Seconds: TypeAlias = "float | timedelta"


def _seconds(name: str, value: Seconds) -> float:
    seconds = value.total_seconds() if isinstance(value, timedelta) else value
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        msg = f"{name} must be a non-negative number of seconds or a timedelta, got {value!r}."
        raise ValueError(msg)
    return float(seconds)


@dataclass
class SchedulerStats:
    """What a scheduler has done so far.

    Attributes:
        runs: Reflections that completed.
        failures: Attempts that raised (each is logged).
        gave_up: Runs dropped after `max_attempts` failures.
        dropped: Pending runs dropped by `shutdown(flush=False)`.
        skipped: Due runs with no new message to reflect on.
    """

    runs: int = 0
    failures: int = 0
    gave_up: int = 0
    dropped: int = 0
    skipped: int = 0


@dataclass
class _Job:
    thread: Hashable
    messages: list[BaseMessage]
    fresh: list[BaseMessage]
    memory: Memory | None
    config: RunnableConfig | None


@dataclass
class _Thread:
    messages: list[BaseMessage] = field(default_factory=list)
    memory: Memory | None = None
    config: RunnableConfig | None = None
    due: float | None = None
    attempts: int = 0
    running: bool = False
    done_ids: set[str] = field(default_factory=set)
    done_count: int = 0


class _Threads:
    """The shared bookkeeping: per thread, its messages, its due time and what was reflected."""

    def __init__(
        self,
        reflector: MemoryReflector,
        *,
        delay: Seconds,
        max_attempts: int,
        retry_delay: Seconds | None,
        on_shutdown: OnShutdown,
        clock: Callable[[], float],
    ) -> None:
        if not isinstance(reflector, MemoryReflector):
            msg = f"A scheduler runs a MemoryReflector, got {type(reflector).__name__}."
            raise TypeError(msg)
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            msg = f"max_attempts must be a positive int, got {max_attempts!r}."
            raise ValueError(msg)
        if on_shutdown not in ("flush", "drop"):
            msg = f'on_shutdown must be "flush" or "drop", got {on_shutdown!r}.'
            raise ValueError(msg)
        self.reflector = reflector
        self.delay = _seconds("delay", delay)
        self.retry_delay = (
            self.delay if retry_delay is None else _seconds("retry_delay", retry_delay)
        )
        self.max_attempts = max_attempts
        self.on_shutdown: OnShutdown = on_shutdown
        self.clock = clock
        self.stats = SchedulerStats()
        self.reports: dict[Hashable, ReflectionReport] = {}
        self._threads: dict[Hashable, _Thread] = {}
        self._lock = threading.RLock()
        self._closed = False

    def _touch(
        self,
        thread: Hashable,
        messages: Sequence[BaseMessage],
        memory: Memory | None,
        config: RunnableConfig | None,
    ) -> float:
        with self._lock:
            if self._closed:
                msg = "This scheduler was shut down; make a new one."
                raise RuntimeError(msg)
            state = self._threads.setdefault(thread, _Thread())
            state.messages = list(messages)
            state.memory, state.config = memory, config
            state.due = self.clock() + self.delay  # a new message cancels and reschedules
            state.attempts = 0
            return state.due

    def pending(self) -> list[Hashable]:
        """The threads with a run scheduled, in the order they were first seen."""
        with self._lock:
            return [t for t, s in self._threads.items() if s.due is not None]

    def _take(self, thread: Hashable, state: _Thread) -> _Job:
        state.due, state.running = None, True
        fresh = [
            m
            for i, m in enumerate(state.messages)
            if (m.id not in state.done_ids if m.id else i >= state.done_count)
        ]
        return _Job(thread, list(state.messages), fresh, state.memory, state.config)

    def _due(self, *, everything: bool = False) -> list[_Job]:
        now = self.clock()
        with self._lock:
            return [
                self._take(t, s)
                for t, s in self._threads.items()
                if s.due is not None and not s.running and (everything or s.due <= now)
            ]

    def _finish(
        self, job: _Job, report: ReflectionReport | None, error: BaseException | None
    ) -> None:
        with self._lock:
            state = self._threads[job.thread]
            state.running = False
            if error is None:
                state.done_ids.update(m.id for m in job.messages if m.id)
                state.done_count = max(state.done_count, len(job.messages))
                if report is not None:
                    self.stats.runs += 1
                    self.reports[job.thread] = report
                else:
                    self.stats.skipped += 1
                state.attempts = 0
                return
            self.stats.failures += 1
            state.attempts += 1
            if state.due is not None:  # a newer message already rescheduled the thread
                return
            if state.attempts < self.max_attempts:
                logger.warning(
                    "Background reflection of thread %r failed (attempt %d of %d); retrying in "
                    "%gs.",
                    job.thread,
                    state.attempts,
                    self.max_attempts,
                    self.retry_delay,
                    exc_info=error,
                )
                state.due = self.clock() + self.retry_delay
            else:
                logger.error(
                    "Background reflection of thread %r failed %d times; giving up on its "
                    "messages until the next one arrives.",
                    job.thread,
                    state.attempts,
                    exc_info=error,
                )
                self.stats.gave_up += 1
                state.attempts = 0

    def _run(self, job: _Job) -> None:
        if not job.fresh:
            self._finish(job, None, None)
            return
        try:
            report = self.reflector.reflect(job.fresh, memory=job.memory, config=job.config)
        except Exception as exc:  # logged and retried: a background run has no caller
            self._finish(job, None, exc)
            return
        self._finish(job, report, None)

    async def _arun(self, job: _Job) -> None:
        if not job.fresh:
            self._finish(job, None, None)
            return
        try:
            report = await self.reflector.areflect(job.fresh, memory=job.memory, config=job.config)
        except Exception as exc:
            self._finish(job, None, exc)
            return
        self._finish(job, report, None)

    def _drop_all(self) -> None:
        with self._lock:
            for state in self._threads.values():
                if state.due is not None:
                    state.due = None
                    self.stats.dropped += 1


class ReflectionScheduler(_Threads):
    """Reflect on each conversation once it has been quiet for `delay` (a worker thread).

    Args:
        reflector: The `MemoryReflector` to run.
        delay: How long a thread must be quiet before its run (seconds or a `timedelta`).
        max_attempts: Attempts per run, the first included, before it is given up (logged).
        retry_delay: Wait before a retry; defaults to `delay`.
        on_shutdown: `"flush"` (run pending work on `shutdown`) or `"drop"`.
        clock: Monotonic seconds; injectable for tests.
        start: Start the worker thread now. With `False`, nothing runs by itself: call
            `run_due()` (with a fake `clock`, a test decides when time passes).

    Example:
        ```python
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
        from langchain_core.messages import HumanMessage
        from langchain_core.runnables import RunnableLambda
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import Memory
        from langchain_contextchef.reflection import (
            MemoryReflector,
            ReflectionResult,
            ReflectionScheduler,
        )


        class Quiet(FakeListChatModel):
            def with_structured_output(self, schema, **kwargs):
                return RunnableLambda(lambda _: ReflectionResult(candidates=[]))


        now = [0.0]
        reflector = MemoryReflector(Quiet(responses=[""]), Memory(InMemoryStore()))
        scheduler = ReflectionScheduler(reflector, delay=30, clock=lambda: now[0], start=False)
        for i in range(10):
            scheduler.notify("thread-1", [HumanMessage(f"message {i}", id=f"m{i}")])
        now[0] = 29.0
        assert scheduler.run_due() == 0
        now[0] = 30.0
        assert scheduler.run_due() == 1 and scheduler.stats.runs == 1
        ```
    """

    def __init__(
        self,
        reflector: MemoryReflector,
        *,
        delay: Seconds = 60.0,
        max_attempts: int = 3,
        retry_delay: Seconds | None = None,
        on_shutdown: OnShutdown = "flush",
        clock: Callable[[], float] = time.monotonic,
        start: bool = True,
    ) -> None:
        super().__init__(
            reflector,
            delay=delay,
            max_attempts=max_attempts,
            retry_delay=retry_delay,
            on_shutdown=on_shutdown,
            clock=clock,
        )
        self._wake = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None
        if start:
            self._worker = threading.Thread(
                target=self._loop, name="contextchef-reflection", daemon=True
            )
            self._worker.start()

    def __enter__(self) -> ReflectionScheduler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def notify(
        self,
        thread: Hashable,
        messages: Sequence[BaseMessage],
        *,
        memory: Memory | None = None,
        config: RunnableConfig | None = None,
    ) -> None:
        """A thread has new messages: (re)schedule its run `delay` from now.

        Args:
            thread: The conversation's id (e.g. the LangGraph `thread_id`).
            messages: The conversation so far (the whole list; what was already reflected
                on is left out when the run comes).
            memory: The `Memory` to write to (the scope of this conversation); `None` uses
                the reflector's.
            config: The run config for the reflection (tracing, `configurable`).
        """
        self._touch(thread, messages, memory, config)
        with self._wake:
            self._wake.notify_all()

    def run_due(self) -> int:
        """Run every run that is due now, in the calling thread; returns how many ran."""
        jobs = self._due()
        for job in jobs:
            self._run(job)
        return len(jobs)

    def flush(self) -> int:
        """Run every pending run now, due or not; returns how many ran."""
        jobs = self._due(everything=True)
        for job in jobs:
            self._run(job)
        return len(jobs)

    def _loop(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                dues = [
                    s.due for s in self._threads.values() if s.due is not None and not s.running
                ]
                wait = None if not dues else max(0.0, min(dues) - self.clock())
                if wait is None or wait > 0:
                    self._wake.wait(wait)
                    continue
            self.run_due()

    def shutdown(self, *, flush: bool | None = None, timeout: float | None = None) -> None:
        """Stop the worker; run pending work first (`flush=True`) or drop it.

        Args:
            flush: Overrides `on_shutdown` for this call.
            timeout: How long to wait for the worker to stop (it finishes a run in progress).
        """
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if self._worker is not None:
            self._worker.join(timeout)
        if flush if flush is not None else self.on_shutdown == "flush":
            self.flush()
        else:
            self._drop_all()


class AsyncReflectionScheduler(_Threads):
    """`ReflectionScheduler` for asyncio: one task per pending thread, no worker thread.

    `notify` must be called with a running event loop. A run in progress is never cancelled
    by a new message: the new run waits for it.

    Args:
        reflector: The `MemoryReflector` to run (`areflect`).
        delay: How long a thread must be quiet before its run.
        max_attempts: Attempts per run before it is given up (logged).
        retry_delay: Wait before a retry; defaults to `delay`.
        on_shutdown: `"flush"` or `"drop"`.
        sleep: The coroutine that waits (injectable for tests).
        clock: Monotonic seconds (for `pending` bookkeeping).
    """

    def __init__(
        self,
        reflector: MemoryReflector,
        *,
        delay: Seconds = 60.0,
        max_attempts: int = 3,
        retry_delay: Seconds | None = None,
        on_shutdown: OnShutdown = "flush",
        sleep: Callable[[float], Coroutine[Any, Any, Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(
            reflector,
            delay=delay,
            max_attempts=max_attempts,
            retry_delay=retry_delay,
            on_shutdown=on_shutdown,
            clock=clock,
        )
        self._sleep = sleep
        self._tasks: set[asyncio.Task[None]] = set()
        self._active: set[asyncio.Task[Any]] = set()  # tasks inside a reflection
        self._waiting: dict[Hashable, asyncio.Task[None]] = {}
        self._guards: dict[Hashable, asyncio.Lock] = {}

    def notify(
        self,
        thread: Hashable,
        messages: Sequence[BaseMessage],
        *,
        memory: Memory | None = None,
        config: RunnableConfig | None = None,
    ) -> None:
        """A thread has new messages: cancel its waiting run and schedule a new one.

        Raises:
            RuntimeError: Without a running event loop (use `ReflectionScheduler` there).
        """
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            msg = (
                "AsyncReflectionScheduler.notify needs a running event loop; outside one, "
                "use ReflectionScheduler (a worker thread)."
            )
            raise RuntimeError(msg) from None
        self._touch(thread, messages, memory, config)
        waiting = self._waiting.get(thread)
        if waiting is not None and waiting not in self._active:
            waiting.cancel()  # a new message cancels the waiting run (never one in progress)
        task = loop.create_task(self._after(thread))
        self._waiting[thread] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after(self, thread: Hashable) -> None:
        wait = self.delay
        while True:
            await self._sleep(wait)
            guard = self._guards.setdefault(thread, asyncio.Lock())
            async with guard:
                with self._lock:
                    state = self._threads[thread]
                    if state.due is None or state.running:
                        return
                    job = self._take(thread, state)
                current = asyncio.current_task()
                if current is not None:
                    self._active.add(current)
                try:
                    await self._arun(job)
                finally:
                    if current is not None:
                        self._active.discard(current)
                with self._lock:
                    if state.due is None or state.attempts == 0:
                        return
            wait = self.retry_delay  # a failed attempt is retried by this same task

    async def _stop_waiting(self) -> None:
        # Cancel the runs still waiting; a reflection in progress is never cut off mid-write.
        tasks = list(self._tasks)
        for task in tasks:
            if task not in self._active:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def drain(self) -> None:
        """Wait until no run is pending or in progress."""
        while True:
            tasks = [t for t in self._tasks if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def flush(self) -> int:
        """Run every pending run now; returns how many ran (a run in progress finishes)."""
        await self._stop_waiting()
        jobs = self._due(everything=True)
        for job in jobs:
            await self._arun(job)
        return len(jobs)

    async def shutdown(self, *, flush: bool | None = None) -> None:
        """Stop: run pending work now (`flush=True`) or drop it."""
        if flush if flush is not None else self.on_shutdown == "flush":
            await self.flush()
        else:
            await self._stop_waiting()
            self._drop_all()
        with self._lock:
            self._closed = True
