"""Which guilds a process owns: Discord's shard arithmetic, shard lists and ranges.

Discord sends a guild's events and interactions to shard ``(guild_id >> 22) %
shard_count`` and events without a guild (DMs) to shard 0. A process runs a
set of shards (``SHARD_COUNT``, ``SHARD_IDS``) and owns exactly the games of
those shards' guilds. Pure functions and values: no Discord, no database.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

_PART = re.compile(r"(\d+)(?:-(\d+))?")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events."""
    return (guild_id >> 22) % shard_count


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether some guild is on both shards, each given as ``(shard_id, shard_count)``.

    A guild on shard ``i`` of ``n`` and ``j`` of ``m`` has ``guild_id >> 22``
    ≡ i (mod n) and ≡ j (mod m); such a number exists exactly when i ≡ j
    (mod gcd(n, m)). So shard 1 of 2 overlaps shards 1 and 3 of 4, not 0 or 2.
    """
    (i, n), (j, m) = a, b
    return (i - j) % math.gcd(n, m) == 0


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards one process runs, out of ``count``."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def every(cls, count: int) -> ShardSet:
        return cls(count, tuple(range(count)))

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shard{'s' if len(self.ids) != 1 else ''} {format_shard_ids(self.ids)} " \
               f"of {self.count}"


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``"0-3"``, ``"4,5"``, ``"0-3,8"`` → sorted shard ids; ``ValueError`` says what is wrong.

    Every id must be below ``count`` and appear once.
    """
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        match = _PART.fullmatch(part)
        if match is None:
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ValueError(f"the range {part} runs backwards (write {last}-{first})")
        ids.extend(range(first, last + 1))
    too_big = [i for i in ids if i >= count]
    if too_big:
        raise ValueError(f"shard {too_big[0]} is not below the shard count {count} "
                         f"(shards are numbered 0 to {count - 1})")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"shard {twice[0]} is listed twice")
    return tuple(sorted(ids))


def format_shard_ids(ids: Iterable[int]) -> str:
    """Sorted ids as ranges: ``(0, 1, 2, 3, 8)`` → ``"0-3,8"`` (what SHARD_IDS reads)."""
    parts: list[str] = []
    run: list[int] = []
    for shard in sorted(ids):
        if run and shard != run[-1] + 1:
            parts.append(_run_text(run))
            run = []
        run.append(shard)
    if run:
        parts.append(_run_text(run))
    return ",".join(parts)


def _run_text(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def contiguous_ranges(count: int, processes: int) -> list[tuple[int, ...]]:
    """``count`` shards in ``processes`` contiguous ranges whose sizes differ by at most one.

    ``contiguous_ranges(4, 2)`` → ``[(0, 1), (2, 3)]``; ``(5, 2)`` → ``[(0, 1, 2), (3, 4)]``.
    """
    if not 1 <= processes <= count:
        raise ValueError(f"cannot split {count} shards into {processes} processes")
    size, extra = divmod(count, processes)
    ranges, start = [], 0
    for index in range(processes):
        end = start + size + (1 if index < extra else 0)
        ranges.append(tuple(range(start, end)))
        start = end
    return ranges


def identify_budget_problem(remaining: int, needed: int, reset_after_ms: int) -> str | None:
    """Why starting ``needed`` shards would exceed today's session starts, or ``None``.

    Each shard's IDENTIFY spends one of the day's session starts (1,000 for
    most bots); past the limit Discord resets the bot's token.
    """
    if remaining >= needed:
        return None
    hours, minutes = divmod(math.ceil(reset_after_ms / 60_000), 60)
    return (f"Discord allows {remaining} more session start(s) today and starting "
            f"{needed} shard(s) needs {needed}; the limit resets in {hours} h {minutes} min")
