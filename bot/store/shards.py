"""Queries for processes that share the database: IDENTIFY pacing and shard claims.

Functions of an open connection inside the store's transaction, like
:mod:`.records` and :mod:`.results`; :class:`~bot.store.Store` wraps them.
"""

from __future__ import annotations

import aiosqlite

from .rows import ShardClaim


async def reserve_identify(db: aiosqlite.Connection, bucket: int, spacing: float,
                           now: float) -> float:
    """Reserve the bucket's next moment at least ``spacing`` after the last; return it."""
    rows = list(await db.execute_fetchall(
        "INSERT INTO identify_slots (bucket, identify_at) VALUES (:bucket, :now)"
        " ON CONFLICT (bucket) DO UPDATE SET"
        "  identify_at = MAX(:now, identify_slots.identify_at + :spacing)"
        " RETURNING identify_at", {"bucket": bucket, "now": now, "spacing": spacing}))
    at: float = rows[0][0]
    return at


async def claim_shard(db: aiosqlite.Connection, shard_count: int, shard_id: int, owner: str,
                      now: float) -> int:
    """Record ``owner``'s claim on a shard; older claims on the same shard go. Returns its id."""
    rows = list(await db.execute_fetchall(
        "INSERT INTO shard_claims (shard_count, shard_id, owner, claimed_at)"
        " VALUES (?, ?, ?, ?) RETURNING id", (shard_count, shard_id, owner, now)))
    claim: int = rows[0][0]
    await db.execute("DELETE FROM shard_claims WHERE shard_count = ? AND shard_id = ? AND id < ?",
                     (shard_count, shard_id, claim))
    return claim


async def claims_after(db: aiosqlite.Connection, claim: int) -> list[ShardClaim]:
    """Claims newer than ``claim``, oldest first."""
    rows = await db.execute_fetchall(
        "SELECT id, shard_count, shard_id, owner, claimed_at FROM shard_claims"
        " WHERE id > ? ORDER BY id", (claim,))
    return [ShardClaim(*row) for row in rows]
