"""Read-only queries behind ``/rummy leaderboard``, ``/rummy stats`` and ``/rummy history``.

Only people's results count (``NOT is_computer``). Ratings are the current
display ratings, computed in SQL by :func:`display_sql`, which writes
:func:`bot.ratings.display` as SQL from the same constants.

With ``variant=None`` the leaderboard aggregates games, wins and average points
over every variant, and a player's rating is the mean of their per-variant
ratings weighted by rated games: it reflects where they actually play, and
unlike the best of several ratings it does not reward dabbling in many
variants.
"""

from __future__ import annotations

from itertools import groupby

from bot.ratings import DEFAULT, DISPLAY_BASE, DISPLAY_SCALE, DISPLAY_Z

from .backends import Tx
from .rows import HistoryPlayer, HistoryRow, PlayerStatsRow, StandingRow


def display_sql(mu: str, sigma: str) -> str:
    """:func:`bot.ratings.display` in SQL that both databases run (NULL for NULL).

    openskill's ordinal is linear, ``scale · (mu − z · sigma) + base``. ROUND over
    NUMERIC rounds half away from zero on both databases (Python's ``round`` rounds
    half to even, which differs only on an exact .5); ``tests/test_store_records.py``
    checks that the two agree.
    """
    return (f"CAST(ROUND(CAST({DISPLAY_SCALE!r} * ({mu} - {DISPLAY_Z!r} * {sigma})"
            f" + {DISPLAY_BASE!r} AS NUMERIC)) AS BIGINT)")


# The variant filter is one of two constant fragments (never a value): a query
# that names the variant can then use the (guild, variant, finished_at) indexes.
_VARIANT_FILTER = {True: "AND variant = :variant", False: ""}

_LEADERBOARD = """
WITH played AS (
    SELECT user_id, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins,
           AVG(CAST(points AS DOUBLE PRECISION)) AS avg_points
    FROM results
    WHERE guild_id = :guild AND finished_at >= :since AND NOT is_computer {variant_filter}
    GROUP BY user_id
), rated AS (
    SELECT user_id, CAST(SUM({display} * games) AS DOUBLE PRECISION) / SUM(games) AS rating
    FROM ratings
    WHERE guild_id = :guild {variant_filter}
    GROUP BY user_id
)
SELECT p.user_id, COALESCE(r.rating, :default) AS rating, p.games, p.wins, p.avg_points
FROM played AS p LEFT JOIN rated AS r USING (user_id)
ORDER BY rating DESC, p.wins DESC, p.games DESC, p.user_id
LIMIT :limit
"""


async def leaderboard(tx: Tx, guild_id: int, variant: str | None,
                      since: float | None, limit: int) -> list[StandingRow]:
    """Best-rated players who finished a game since ``since`` (``None``: ever)."""
    sql = _LEADERBOARD.format(variant_filter=_VARIANT_FILTER[variant is not None],
                              display=display_sql("mu", "sigma"))
    rows = await tx.fetch(sql, {
        "guild": guild_id, "variant": variant, "limit": limit, "default": DEFAULT.display,
        "since": float("-inf") if since is None else since})
    return [StandingRow(user_id=user_id, rating=round(rating), games=games, wins=wins,
                        win_rate=wins / games, avg_points=avg_points)
            for user_id, rating, games, wins, avg_points in rows]


async def player_stats(tx: Tx, guild_id: int, user_id: int) -> list[PlayerStatsRow]:
    """One player's record per variant, most played first."""
    rows = await tx.fetch(
        "SELECT r.variant, COUNT(*) AS games, COUNT(*) FILTER (WHERE r.won),"
        "       AVG(CAST(r.points AS DOUBLE PRECISION)), MIN(r.place),"
        f"      COALESCE({display_sql('t.mu', 't.sigma')}, :default), MAX(r.finished_at)"
        " FROM results AS r LEFT JOIN ratings AS t"
        "   ON t.guild_id = r.guild_id AND t.variant = r.variant AND t.user_id = r.user_id"
        " WHERE r.guild_id = :guild AND r.user_id = :user AND NOT r.is_computer"
        " GROUP BY r.variant, t.mu, t.sigma ORDER BY games DESC, r.variant",  # one rating each
        {"guild": guild_id, "user": user_id, "default": DEFAULT.display})
    return [PlayerStatsRow(variant=variant, games=games, wins=wins, win_rate=wins / games,
                           avg_points=avg_points, best_place=best, rating=rating,
                           last_played=last)
            for variant, games, wins, avg_points, best, rating, last in rows]


async def computers_beaten(tx: Tx, guild_id: int, user_id: int
                           ) -> list[tuple[str, str | None, int]]:
    """(variant, level, count): the computer players one person finished ahead of, by
    variant and level (issue 23: "beat 2 strong computers"). A level ``None`` is a
    computer seated before levels were recorded: its variant's default. A person who
    left and whose seat a computer finished is no computer here (it has a user)."""
    rows = await tx.fetch(
        "SELECT r.variant, s.level, COUNT(*)"
        " FROM results AS r"
        " JOIN results AS c ON c.game_id = r.game_id AND c.is_computer AND c.user_id IS NULL"
        "   AND c.place > r.place"
        " JOIN seats AS s ON s.game_id = c.game_id AND s.seat = c.seat"
        " WHERE r.guild_id = :guild AND r.user_id = :user AND NOT r.is_computer"
        " GROUP BY r.variant, s.level ORDER BY r.variant, s.level",
        {"guild": guild_id, "user": user_id})
    return [(str(variant), level, int(count)) for variant, level, count in rows]


_PICK_GAMES = {
    # a member's games, through the (guild, user, finished_at) index
    True: "SELECT game_id FROM results"
          " WHERE guild_id = :guild AND user_id = :user AND NOT is_computer"
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


async def history(tx: Tx, guild_id: int, user_id: int | None,
                  limit: int) -> list[HistoryRow]:
    """Finished games of the server (or of one member), newest first."""
    sql = _HISTORY.format(pick=_PICK_GAMES[user_id is not None])
    rows = await tx.fetch(sql, {"guild": guild_id, "user": user_id, "limit": limit})
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
