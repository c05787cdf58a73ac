"""IDENTIFY pacing across every process of the bot, through the shared database.

Discord takes one IDENTIFY per 5 seconds in each bucket ``shard_id %
max_concurrency`` (``GET /gateway/bot`` → ``session_start_limit``), counted
across all of a bot's connections, whichever process makes them. discord.py
2.7 knows nothing of buckets: ``AutoShardedClient`` launches its shards one
after another and its default ``before_identify_hook`` sleeps 5 s before every
IDENTIFY but the first, which is too slow with ``max_concurrency`` > 1 and
too fast with two processes. Here each IDENTIFY first reserves the next free
moment of its bucket in the database (``Store.reserve_identify``: one atomic
write, so processes on one SQLite file or one PostgreSQL database queue up
in the order they ask) and sleeps until then. A reservation outlives its
process: one that dies right after identifying still holds the bucket for the
rest of the window, which a lock released by the dying connection would not.
"""

from __future__ import annotations

import asyncio
import logging

from .store import Store

log = logging.getLogger(__name__)

IDENTIFY_MARGIN = 0.1
"""Reserved moments are the window plus this share apart: an IDENTIFY leaves a
little after its moment (the event loop, the socket), and the next one must
not land inside the window Discord counts from the earlier one's arrival."""


class IdentifyPacer:
    """Waits until a shard's bucket may IDENTIFY (``before_identify_hook``)."""

    def __init__(self, store: Store, window: float, max_concurrency: int) -> None:
        self.store = store
        self.window = window
        self.max_concurrency = max(1, max_concurrency)

    def bucket(self, shard_id: int) -> int:
        return shard_id % self.max_concurrency

    async def wait_turn(self, shard_id: int) -> float:
        """Reserve the bucket's next moment and sleep until it; returns the seconds waited."""
        bucket = self.bucket(shard_id)
        delay = await self.store.reserve_identify(bucket, self.window * (1 + IDENTIFY_MARGIN))
        if delay > 0:
            log.info("shard %d identifies in %.1f s (bucket %d of %d)", shard_id, delay, bucket,
                     self.max_concurrency)
            await asyncio.sleep(delay)
        return delay
