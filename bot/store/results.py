"""Writing a finished game's results and updating ratings (inside the caller's transaction)."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence

from bot.ratings import COMPUTER_USER_ID, DEFAULT, Entrant, Rating, rate

from .backends import Backend, Tx
from .rows import ResultRow


def rating_key(result: ResultRow) -> int:
    """Whose rating a seat's result moves: the player's, or the shared computer one."""
    if result.is_computer:
        return COMPUTER_USER_ID
    if result.user_id is None:
        raise ValueError(f"seat {result.seat}: a human result needs a user id")
    return result.user_id


async def record_results(tx: Tx, dialect: Backend, game_id: int, guild_id: int, variant: str,
                         results: Sequence[ResultRow], now: float, *,
                         rated: bool = True) -> list[ResultRow]:
    """Insert the results and, when a person played, update everybody's rating.

    Returns the results with ``rating_before``/``rating_after`` filled in.
    A game without people (computers only), or one not ``rated``, is recorded but not rated.
    """
    if not results:
        raise ValueError("a finished game needs results")
    keys = [rating_key(r) for r in results]
    if rated and any(key != COMPUTER_USER_ID for key in keys):
        results = await _rate(tx, dialect, guild_id, variant, results, keys, now)
    await tx.executemany(
        "INSERT INTO results (game_id, guild_id, variant, seat, user_id, is_computer, place,"
        " points, won, rating_before, rating_after, finished_at)"
        " VALUES (:game, :guild, :variant, :seat, :user, :computer, :place, :points, :won,"
        " :before, :after, :now)",
        [{"game": game_id, "guild": guild_id, "variant": variant, "seat": r.seat,
          "user": r.user_id, "computer": r.is_computer, "place": r.place, "points": r.points,
          "won": r.won, "before": r.rating_before, "after": r.rating_after, "now": now}
         for r in results])
    return list(results)


async def _rate(tx: Tx, dialect: Backend, guild_id: int, variant: str,
                results: Sequence[ResultRow], keys: list[int], now: float) -> list[ResultRow]:
    # Two games of this server and variant finishing at once share players (the
    # computers at least): the second reads the ratings only after the first has written.
    await tx.serialize(f"ratings:{guild_id}:{variant}")
    rows = await tx.fetch(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = :guild AND variant = :variant"
        f" AND {dialect.in_ids('user_id', 'keys')}",
        {"guild": guild_id, "variant": variant, "keys": dialect.ids(sorted(set(keys)))})
    before = {key: DEFAULT for key in keys}
    before.update({user_id: Rating(mu, sigma) for user_id, mu, sigma in rows})
    after = rate([Entrant(key, before[key], r.place) for key, r in zip(keys, results, strict=True)])
    won: dict[Hashable, bool] = {key: False for key in keys}  # keyed as rate()'s result
    for key, r in zip(keys, results, strict=True):
        won[key] = won[key] or r.won
    await tx.executemany(
        "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, games, wins, updated_at)"
        " VALUES (:guild, :variant, :user, :mu, :sigma, 1, :wins, :now)"
        " ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1,"
        " wins = ratings.wins + excluded.wins, updated_at = excluded.updated_at",
        [{"guild": guild_id, "variant": variant, "user": key, "mu": new.mu,
          "sigma": new.sigma, "wins": int(won[key]), "now": now}
         for key, new in after.items()])
    return [dataclasses.replace(r, rating_before=before[key].display,
                                rating_after=after[key].display)
            for key, r in zip(keys, results, strict=True)]
