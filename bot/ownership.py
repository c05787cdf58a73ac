"""Which process owns which shard, decided in the shared database: the newest claim wins.

A process claims each of its shards before it connects it, then restores
that shard's games. Normally that is the only claim (a launcher restarts a
process only once it is gone). But a process can come back late, e.g. after
a pause or during an overlapping deploy, or a reshard can start a cluster with
another shard count while the old one still runs: then two processes hold
the same guilds. The newer claim wins; the older owner finds out from
:meth:`ShardOwnership.taken_over` (checked periodically and whenever a write
of its is refused), stops playing those games and disconnects those shards,
so it cannot keep writing and posting beside the new owner.
"""

from __future__ import annotations

import os
import secrets
import socket

from .shards import ShardSet, overlaps
from .store import ShardClaim, Store


def process_name() -> str:
    """``host:pid:random``: this process, distinct from any before or after it."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class ShardOwnership:
    """This process's claims, out of ``shard_count`` shards."""

    def __init__(self, store: Store, shard_count: int, owner: str | None = None) -> None:
        self.store = store
        self.count = shard_count
        self.owner = owner or process_name()
        self.claims: dict[int, int] = {}
        """Shard id → the id of this process's claim on it."""

    @property
    def shards(self) -> ShardSet:
        """The shards this process owns now."""
        return ShardSet(self.count, tuple(sorted(self.claims)))

    def owns(self, guild_id: int) -> bool:
        return self.shards.owns(guild_id)

    async def claim(self, shard_id: int) -> None:
        self.claims[shard_id] = await self.store.claim_shard(self.count, shard_id, self.owner)

    def release(self, shard_id: int) -> None:
        self.claims.pop(shard_id, None)

    async def taken_over(self) -> dict[int, ShardClaim]:
        """This process's shards that another process claimed since, with that claim.

        A claim under another shard count takes over every shard it shares a
        guild with (a reshard: shard 1 of 2 is taken by shard 1 or 3 of 4).
        """
        if not self.claims:
            return {}
        newer = await self.store.shard_claims_after(min(self.claims.values()))
        lost: dict[int, ShardClaim] = {}
        for shard, mine in self.claims.items():
            for claim in newer:
                if (claim.id > mine and claim.owner != self.owner
                        and overlaps((claim.shard_id, claim.shard_count), (shard, self.count))):
                    lost[shard] = claim
                    break
        return lost
