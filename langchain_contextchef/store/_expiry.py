"""TTL upkeep of a `FileSystemStore`: deleting expired items and restarting read items' TTL.

`Expiry.sweep` deletes expired items (`FileSystemStore.sweep_ttl`, and every few minutes in
the thread a `Sweeper` runs); `Expiry.refresh` restarts the TTL of items a read returns.

Reads already skip expired items; a sweep deletes their files. Both a sweep and a refresh
decide outside any lock, then re-check each item under its folder's write lock (a writer may
have changed it meanwhile) and commit without a journal: their items are independent, so a
crash half way leaves each item either old or new, and a later sweep or read does the rest.
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Callable

from langchain_contextchef.store._reads import live
from langchain_contextchef.store._records import (
    EXPIRES_TS,
    KEY,
    NS,
    PATH,
    TTL,
    UPDATED,
    Record,
    is_expired,
    value_of,
    vectors_of,
)
from langchain_contextchef.store._view import DiskView
from langchain_contextchef.store._writer import Write, Writer

__all__ = ["Expiry", "Sweeper"]

logger = logging.getLogger("langchain_contextchef.store.filesystem")


class Expiry:
    """Sweeps and TTL refreshes for one store.

    Args:
        view: The store's cached view of its files.
        writer: The store's writer (locks and commits).
        clock: The wall clock, in POSIX seconds (the store's, so tests can replace it).
    """

    def __init__(self, view: DiskView, writer: Writer, clock: Callable[[], float]) -> None:
        self._view = view
        self._writer = writer
        self._clock = clock

    def sweep(self) -> int:
        """Delete every expired item under the root; returns how many were deleted."""
        by_dir: dict[tuple[str, ...], list[Record]] = {}
        now = self._clock()
        for listing in self._view.walk(self._writer.root):
            for record in self._view.entries(listing):
                if is_expired(record, now):
                    by_dir.setdefault(self._view.dir_of(record[NS])[1], []).append(record)
        deleted = 0
        for parts, records in by_dir.items():
            with self._writer.locked([parts]):
                writes = []
                for rec in records:
                    # Re-check under the lock: a writer may have refreshed the item meanwhile.
                    current = self._view.load(rec[PATH])
                    if current is not None and is_expired(current, self._clock()):
                        writes.append(Write(rec[NS], rec[KEY], None))
                deleted += self._writer.commit(writes, self._clock(), journal=False)
        return deleted

    def refresh(self, hits: list[Record], now: float) -> None:
        """Restart the TTL of items just read, rewriting only when it moves noticeably."""
        due: dict[tuple[str, ...], list[Record]] = {}
        for rec in hits:
            ttl = rec[TTL]
            if ttl is None:
                continue
            ttl_s = ttl * 60
            # Rewriting a file on every read would make reads as costly as writes; an expiry
            # that moves by less than 5% of the TTL (at most a minute) is left as it is.
            slack = min(ttl_s * 0.05, 60.0)
            expires = rec[EXPIRES_TS]
            if expires is not None and now + ttl_s - expires < slack:
                continue
            due.setdefault(self._view.dir_of(rec[NS])[1], []).append(rec)
        for parts, records in due.items():
            with self._writer.locked([parts]):
                writes = []
                for rec in records:
                    current = live(self._view.load(rec[PATH]), rec[NS], rec[KEY], self._clock())
                    if current is None or current[TTL] is None:
                        continue
                    writes.append(
                        Write(
                            current[NS],
                            current[KEY],
                            value_of(current),
                            ttl_minutes=current[TTL],
                            vectors=vectors_of(current),
                            updated_at=current[UPDATED],
                        )
                    )
                self._writer.commit(writes, self._clock(), journal=False)


class Sweeper:
    """The daemon thread that calls a store's `sweep` every few minutes, started and stopped."""

    def __init__(self, sweep: Callable[[], int], root: str) -> None:
        self._sweep = sweep
        self._root = root
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self, interval_minutes: float) -> concurrent.futures.Future[None]:
        """Start sweeping (once: a running sweeper is kept); cancelling the future stops it.

        A failed sweep is logged and the thread carries on; the future completes when the
        thread ends.
        """
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        future.add_done_callback(lambda f: self._stop.set() if f.cancelled() else None)
        if self.running:
            logger.info("The TTL sweeper is already running.")
            return future
        self._stop.clear()
        stop = self._stop

        def loop() -> None:
            while not stop.wait(interval_minutes * 60):
                try:
                    count = self._sweep()
                except Exception:
                    logger.exception("TTL sweep of %s failed", self._root)
                else:
                    if count:
                        logger.info("TTL sweep deleted %d expired item(s)", count)
            future.set_result(None)

        self._thread = threading.Thread(target=loop, name="contextchef-ttl-sweeper", daemon=True)
        self._thread.start()
        return future

    @property
    def running(self) -> bool:
        """Whether the sweeping thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float | None) -> bool:
        """Stop the thread; `False` if it is still running when `timeout` passes."""
        thread = self._thread
        if thread is None or not thread.is_alive():
            return True
        self._stop.set()
        thread.join(timeout)
        if thread.is_alive():
            logger.warning("Timed out waiting for the TTL sweeper to stop.")
            return False
        self._thread = None
        return True
