"""Time and ids for the fake: an injectable clock and a snowflake factory.

The clock is wall time plus an offset that tests move with ``advance`` so the
3-second and 15-minute interaction rules can be exercised without sleeping.
Snowflakes encode the clock's time the way Discord's do, so
``discord.utils.snowflake_time`` on an id gives a sensible datetime.
"""

from __future__ import annotations

import datetime as dt
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Clock:
    """Wall-clock seconds since the Unix epoch, shifted by ``advance``."""

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._offset += seconds

    def iso(self, at: float | None = None) -> str:
        """ISO 8601 timestamp as Discord writes it (``+00:00`` offset)."""
        moment = self.now() if at is None else at
        return dt.datetime.fromtimestamp(moment, dt.UTC).isoformat()


class Snowflakes:
    """Unique, increasing Discord-style ids derived from the clock."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        from_clock = (int(self._clock.now() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(from_clock, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id of a guild on shard ``shard_id`` of ``shard_count``.

        Discord sends a guild's events to shard ``(guild_id >> 22) %
        shard_count``: the id's millisecond part decides, so it is moved
        forward (by less than ``shard_count`` ms) until it lands there.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        snowflake = self.next()
        millis = snowflake >> 22
        step = (shard_id - millis) % shard_count
        if step:
            self._last = snowflake = (millis + step) << 22
        return snowflake
