"""TTL upkeep of a `FileSystemStore`: deleting expired items and restarting read items' TTL.

`Expiry.sweep` deletes expired items (`FileSystemStore.sweep_ttl`, and every few minutes in
the thread `start_sweeper` runs); `Expiry.refresh` restarts the TTL of items a read returns.

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

__all__ = ["Expiry", "start_sweeper"]

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


def start_sweeper(
    sweep: Callable[[], int],
    root: str,
    interval_minutes: float,
    stop: threading.Event,
    done: concurrent.futures.Future[None],
) -> threading.Thread:
    """Start a daemon thread that calls `sweep` every `interval_minutes` until `stop` is set.

    A failed sweep is logged and the thread carries on; `done` gets its result when the
    thread ends.
    """

    def loop() -> None:
        while not stop.wait(interval_minutes * 60):
            try:
                count = sweep()
            except Exception:
                logger.exception("TTL sweep of %s failed", root)
            else:
                if count:
                    logger.info("TTL sweep deleted %d expired item(s)", count)
        done.set_result(None)

    thread = threading.Thread(target=loop, name="contextchef-ttl-sweeper", daemon=True)
    thread.start()
    return thread
