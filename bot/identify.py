"""IDENTIFY pacing across every process of the bot, through the shared database.

Discord takes one IDENTIFY per 5 seconds in each bucket ``shard_id %
max_concurrency`` (``GET /gateway/bot`` → ``session_start_limit``), counted
across all of a bot's connections, whichever process makes them. discord.py
2.7 knows nothing of buckets: ``AutoShardedClient`` launches its shards one
after another and its default ``before_identify_hook`` sleeps 5 s before every
IDENTIFY but the first, which is too slow with ``max_concurrency`` > 1 and
too fast with two processes. Here a shard takes its bucket in the database
(``Store.take_identify``: one atomic write, which succeeds only if the
bucket's last IDENTIFY, by any process, is old enough) and identifies at once;
otherwise it sleeps until the bucket frees and tries again. The moment written
is the moment of the IDENTIFY, not one planned earlier, so a slow wake-up
cannot bring two IDENTIFYs closer; and it outlives its process, so one that
dies right after identifying still holds the bucket for the rest of the
window (a lock released by the dying connection would not).
"""

from __future__ import annotations

import asyncio
import logging

from .store import Store

log = logging.getLogger(__name__)

IDENTIFY_MARGIN = 0.1
"""IDENTIFYs of a bucket are the window plus this share of it apart (at least
:data:`LEAST_MARGIN`): Discord counts from when each one arrives, and one can
spend longer on the way than the next."""
LEAST_MARGIN = 0.25
"""Seconds of margin at least, whatever the window."""


class IdentifyPacer:
    """Waits until a shard's bucket may IDENTIFY (``before_identify_hook``)."""

    def __init__(self, store: Store, window: float, max_concurrency: int) -> None:
        self.store = store
        self.window = window
        self.max_concurrency = max(1, max_concurrency)
        self.spacing = window + max(window * IDENTIFY_MARGIN, LEAST_MARGIN)
        """Seconds between two IDENTIFYs of one bucket."""

    def bucket(self, shard_id: int) -> int:
        return shard_id % self.max_concurrency

    async def wait_turn(self, shard_id: int) -> float:
        """Sleep until this shard's bucket is taken for it; returns the seconds waited."""
        bucket = self.bucket(shard_id)
        loop = asyncio.get_running_loop()
        started = loop.time()
        while (wait := await self.store.take_identify(bucket, self.spacing)) > 0:
            log.info("shard %d waits %.1f s to identify (bucket %d of %d)", shard_id, wait,
                     bucket, self.max_concurrency)
            await asyncio.sleep(wait)
        return loop.time() - started
