"""Writing a finished game's results and updating ratings (inside the caller's transaction)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Hashable, Sequence

import aiosqlite

from bot.ratings import COMPUTER_USER_ID, DEFAULT, Entrant, Rating, rate

from .rows import ResultRow


def rating_key(result: ResultRow) -> int:
    """Whose rating a seat's result moves: the player's, or the shared computer one."""
    if result.is_computer:
        return COMPUTER_USER_ID
    if result.user_id is None:
        raise ValueError(f"seat {result.seat}: a human result needs a user id")
    return result.user_id


async def record_results(db: aiosqlite.Connection, game_id: int, guild_id: int, variant: str,
                         results: Sequence[ResultRow], now: float) -> list[ResultRow]:
    """Insert the results and, when a person played, update everybody's rating.

    Returns the results with ``rating_before``/``rating_after`` filled in.
    A game without people (computers only) is recorded but not rated.
    """
    if not results:
        raise ValueError("a finished game needs results")
    keys = [rating_key(r) for r in results]
    if any(key != COMPUTER_USER_ID for key in keys):
        results = await _rate(db, guild_id, variant, results, keys, now)
    await db.executemany(
        "INSERT INTO results (game_id, guild_id, variant, seat, user_id, is_computer, place,"
        " points, won, rating_before, rating_after, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, guild_id, variant, r.seat, r.user_id, r.is_computer, r.place, r.points,
          r.won, r.rating_before, r.rating_after, now) for r in results])
    return list(results)


async def _rate(db: aiosqlite.Connection, guild_id: int, variant: str,
                results: Sequence[ResultRow], keys: list[int], now: float) -> list[ResultRow]:
    rows = await db.execute_fetchall(
        "SELECT user_id, mu, sigma FROM ratings"
        " WHERE guild_id = ? AND variant = ? AND user_id IN (SELECT value FROM json_each(?))",
        (guild_id, variant, json.dumps(sorted(set(keys)))))
    before = {key: DEFAULT for key in keys}
    before.update({user_id: Rating(mu, sigma) for user_id, mu, sigma in rows})
    after = rate([Entrant(key, before[key], r.place) for key, r in zip(keys, results, strict=True)])
    won: dict[Hashable, bool] = {key: False for key in keys}  # keyed as rate()'s result
    for key, r in zip(keys, results, strict=True):
        won[key] = won[key] or r.won
    await db.executemany(
        "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, games, wins, updated_at)"
        " VALUES (?, ?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = games + 1,"
        " wins = wins + excluded.wins, updated_at = excluded.updated_at",
        [(guild_id, variant, key, new.mu, new.sigma, won[key], now)
         for key, new in after.items()])
    return [dataclasses.replace(r, rating_before=before[key].display,
                                rating_after=after[key].display)
            for key, r in zip(keys, results, strict=True)]
