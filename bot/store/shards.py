"""Queries for processes that share the database: IDENTIFY pacing and shard claims.

Functions of an open connection inside the store's transaction, like
:mod:`.records` and :mod:`.results`; :class:`~bot.store.Store` wraps them.
"""

from __future__ import annotations

import aiosqlite

from .rows import ShardClaim


async def take_identify(db: aiosqlite.Connection, bucket: int, spacing: float,
                        now: float) -> float | None:
    """Take the bucket for an IDENTIFY now if its last one is ``spacing`` seconds old;
    ``None`` when taken, else the time of that last IDENTIFY."""
    rows = list(await db.execute_fetchall(
        "INSERT INTO identify_slots (bucket, identify_at) VALUES (:bucket, :now)"
        " ON CONFLICT (bucket) DO UPDATE SET identify_at = :now"
        " WHERE identify_slots.identify_at <= :now - :spacing"
        " RETURNING identify_at", {"bucket": bucket, "now": now, "spacing": spacing}))
    if rows:
        return None
    (last,), = await db.execute_fetchall(
        "SELECT identify_at FROM identify_slots WHERE bucket = ?", (bucket,))
    at: float = last
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
