"""Read-only queries behind ``/rummy leaderboard``, ``/rummy stats`` and ``/rummy history``.

Only people's results count (``is_computer = 0``). Ratings are the current
display ratings, computed in SQL by ``display_rating(mu, sigma)``, which
:func:`register_functions` binds to :func:`bot.ratings.display` so the formula
lives in one place.

With ``variant=None`` the leaderboard aggregates games, wins and average points
over every variant, and a player's rating is the mean of their per-variant
ratings weighted by rated games: it reflects where they actually play, and
unlike the best of several ratings it does not reward dabbling in many
variants.
"""

from __future__ import annotations

from itertools import groupby

import aiosqlite

from bot.ratings import DEFAULT, display

from .rows import HistoryPlayer, HistoryRow, PlayerStatsRow, StandingRow


async def register_functions(db: aiosqlite.Connection) -> None:
    await db.create_function("display_rating", 2, _display_or_null, deterministic=True)


def _display_or_null(mu: float | None, sigma: float | None) -> int | None:
    return None if mu is None or sigma is None else display(mu, sigma)


# The variant filter is one of two constant fragments (never a value): a query
# that names the variant can then use the (guild, variant, finished_at) indexes.
_VARIANT_FILTER = {True: "AND variant = :variant", False: ""}

_LEADERBOARD = """
WITH played AS (
    SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, AVG(points) AS avg_points
    FROM results
    WHERE guild_id = :guild AND finished_at >= :since AND is_computer = 0 {variant_filter}
    GROUP BY user_id
), rated AS (
    SELECT user_id, SUM(display_rating(mu, sigma) * games) * 1.0 / SUM(games) AS rating
    FROM ratings
    WHERE guild_id = :guild {variant_filter}
    GROUP BY user_id
)
SELECT p.user_id, COALESCE(r.rating, :default) AS rating, p.games, p.wins, p.avg_points
FROM played AS p LEFT JOIN rated AS r USING (user_id)
ORDER BY rating DESC, p.wins DESC, p.games DESC, p.user_id
LIMIT :limit
"""


async def leaderboard(db: aiosqlite.Connection, guild_id: int, variant: str | None,
                      since: float | None, limit: int) -> list[StandingRow]:
    """Best-rated players who finished a game since ``since`` (``None``: ever)."""
    sql = _LEADERBOARD.format(variant_filter=_VARIANT_FILTER[variant is not None])
    rows = await db.execute_fetchall(sql, {
        "guild": guild_id, "variant": variant, "limit": limit, "default": DEFAULT.display,
        "since": float("-inf") if since is None else since})
    return [StandingRow(user_id=user_id, rating=round(rating), games=games, wins=wins,
                        win_rate=wins / games, avg_points=avg_points)
            for user_id, rating, games, wins, avg_points in rows]


async def player_stats(db: aiosqlite.Connection, guild_id: int,
                       user_id: int) -> list[PlayerStatsRow]:
    """One player's record per variant, most played first."""
    rows = await db.execute_fetchall(
        "SELECT r.variant, COUNT(*) AS games, SUM(r.won), AVG(r.points), MIN(r.place),"
        "       COALESCE(display_rating(t.mu, t.sigma), :default), MAX(r.finished_at)"
        " FROM results AS r LEFT JOIN ratings AS t"
        "   ON t.guild_id = r.guild_id AND t.variant = r.variant AND t.user_id = r.user_id"
        " WHERE r.guild_id = :guild AND r.user_id = :user AND r.is_computer = 0"
        " GROUP BY r.variant ORDER BY games DESC, r.variant",
        {"guild": guild_id, "user": user_id, "default": DEFAULT.display})
    return [PlayerStatsRow(variant=variant, games=games, wins=wins, win_rate=wins / games,
                           avg_points=avg_points, best_place=best, rating=rating,
                           last_played=last)
            for variant, games, wins, avg_points, best, rating, last in rows]


_PICK_GAMES = {
    # a member's games, through the (guild, user, finished_at) index
    True: "SELECT game_id FROM results"
          " WHERE guild_id = :guild AND user_id = :user AND is_computer = 0"
          " ORDER BY finished_at DESC, game_id DESC LIMIT :limit",
    # the whole server's, through the finished-games index
    False: "SELECT id AS game_id FROM games WHERE guild_id = :guild AND status = 'finished'"
           " ORDER BY finished_at DESC, id DESC LIMIT :limit",
}

_HISTORY = """
WITH picked AS ({pick})
SELECT g.id, g.variant, g.finished_at, g.seed,
       r.seat, s.name, r.user_id, r.is_computer, r.place, r.points, r.won,
       r.rating_before, r.rating_after
FROM picked AS p
JOIN games AS g ON g.id = p.game_id
JOIN results AS r ON r.game_id = g.id
JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
ORDER BY g.finished_at DESC, g.id DESC, r.place, r.seat
"""


async def history(db: aiosqlite.Connection, guild_id: int, user_id: int | None,
                  limit: int) -> list[HistoryRow]:
    """Finished games of the server (or of one member), newest first."""
    sql = _HISTORY.format(pick=_PICK_GAMES[user_id is not None])
    rows = await db.execute_fetchall(sql, {"guild": guild_id, "user": user_id, "limit": limit})
    games = []
    for (game_id, variant, finished_at, seed), seats in groupby(rows, key=lambda r: tuple(r[:4])):
        players = tuple(
            HistoryPlayer(seat=seat, name=name, user_id=user, is_computer=bool(computer),
                          place=place, points=points, won=bool(won),
                          rating_before=before, rating_after=after)
            for *_, seat, name, user, computer, place, points, won, before, after in seats)
        games.append(HistoryRow(game_id=game_id, variant=variant, finished_at=finished_at,
                                seed=int(seed), players=players))
    return games
