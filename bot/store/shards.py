"""Queries for processes that share the database: IDENTIFY pacing and shard claims.

Functions of a transaction (:class:`~bot.store.backends.Tx`), like
:mod:`.records` and :mod:`.results`; :class:`~bot.store.Store` wraps them. The
SQL is the dialect both databases speak (``ON CONFLICT … DO UPDATE … WHERE``,
``RETURNING``); the claims' ids come from each dialect's own counter (see
migration 0003).
"""

from __future__ import annotations

from .backends import Tx
from .rows import ShardClaim


async def take_identify(tx: Tx, bucket: int, spacing: float, now: float) -> float | None:
    """Take the bucket for an IDENTIFY now if its last one is ``spacing`` seconds old;
    ``None`` when taken, else the time of that last IDENTIFY."""
    rows = await tx.fetch(
        "INSERT INTO identify_slots (bucket, identify_at) VALUES (:bucket, :now)"
        " ON CONFLICT (bucket) DO UPDATE SET identify_at = :now"
        " WHERE identify_slots.identify_at <= :earliest"
        " RETURNING identify_at",
        {"bucket": bucket, "now": now, "earliest": now - spacing})
    if rows:
        return None
    rows = await tx.fetch("SELECT identify_at FROM identify_slots WHERE bucket = :bucket",
                          {"bucket": bucket})
    last: float = rows[0][0]
    return last


async def claim_shard(tx: Tx, shard_count: int, shard_id: int, owner: str, now: float) -> int:
    """Record ``owner``'s claim on a shard; older claims on the same shard go. Returns its id."""
    rows = await tx.fetch(
        "INSERT INTO shard_claims (shard_count, shard_id, owner, claimed_at)"
        " VALUES (:count, :shard, :owner, :now) RETURNING id",
        {"count": shard_count, "shard": shard_id, "owner": owner, "now": now})
    claim: int = rows[0][0]
    await tx.execute("DELETE FROM shard_claims WHERE shard_count = :count AND shard_id = :shard"
                     " AND id < :claim", {"count": shard_count, "shard": shard_id, "claim": claim})
    return claim


async def claims_after(tx: Tx, claim: int) -> list[ShardClaim]:
    """Claims newer than ``claim``, oldest first."""
    rows = await tx.fetch(
        "SELECT id, shard_count, shard_id, owner, claimed_at FROM shard_claims"
        " WHERE id > :claim ORDER BY id", {"claim": claim})
    return [ShardClaim(*row) for row in rows]
