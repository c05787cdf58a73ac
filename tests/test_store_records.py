"""Store: leaderboard, player stats and history over finished games, on both databases."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ratings import DEFAULT, display
from bot.store import HistoryRow, PlayerStatsRow, ResultRow, SeatRow, StandingRow, Store
from bot.store.records import display_sql

GUILD, OTHER_GUILD, CHANNEL = 10, 11, 20
ANN, BOB, CY = 1001, 1002, 1003
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = 100 * DAY

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(database_url, clock):
    store = await Store.open(database_url, clock=clock)
    yield store
    await store.close()


async def play(store: Store, clock: Clock, at: float, variant: str,
               players: list[tuple[int | None, int, int]], guild: int = GUILD,
               seed: int = 7) -> list[ResultRow]:
    """A whole game finished at ``at``: ``players`` are (user id or None, place, points)."""
    clock.now = at
    seats = [SeatRow(i, user, NAMES.get(user, f"Computer {i}"), user is None)
             for i, (user, _, _) in enumerate(players)]
    game_id = await store.create_game(guild, CHANNEL, variant, {}, seed, ANN, seats[:1])
    await store.start_game(game_id, {}, seats, None)
    return await store.finish_game(game_id, {"over": True}, [
        ResultRow(i, user, user is None, place, points, place == 1)
        for i, (user, place, points) in enumerate(players)])


async def test_leaderboard_of_a_variant(store, clock):
    await play(store, clock, 1 * DAY, "straight", [(ANN, 1, 30), (BOB, 2, 0), (None, 3, -10)])
    await play(store, clock, 2 * DAY, "straight", [(ANN, 1, 20), (BOB, 2, 10)])
    last = await play(store, clock, 3 * DAY, "straight", [(BOB, 1, 40), (ANN, 2, 0)])
    await play(store, clock, 4 * DAY, "indian", [(CY, 1, 0), (BOB, 2, 80)])
    await play(store, clock, 4 * DAY, "straight", [(CY, 1, 99), (BOB, 2, 0)], guild=OTHER_GUILD)

    board = await store.leaderboard(GUILD, "straight")
    assert all(isinstance(row, StandingRow) for row in board)
    assert [row.user_id for row in board] == [ANN, BOB]  # people only, this server only
    ann, bob = board
    assert (ann.games, ann.wins, ann.avg_points) == (3, 2, pytest.approx(50 / 3))
    assert ann.win_rate == pytest.approx(2 / 3)
    assert (bob.games, bob.wins, bob.avg_points) == (3, 1, pytest.approx(50 / 3))
    assert bob.win_rate == pytest.approx(1 / 3)
    assert ann.rating == last[1].rating_after and bob.rating == last[0].rating_after
    assert ann.rating > bob.rating
    assert await store.leaderboard(GUILD, "straight", limit=1) == board[:1]
    assert await store.leaderboard(GUILD, "tiles") == []


async def test_leaderboard_period_counts_recent_results_with_current_ratings(store, clock):
    await play(store, clock, 1 * DAY, "straight", [(ANN, 1, 30), (BOB, 2, 0)])
    await play(store, clock, 10 * DAY, "straight", [(BOB, 1, 10), (CY, 2, 5)])
    await play(store, clock, 11 * DAY, "straight", [(BOB, 1, 20), (ANN, 2, 5)])
    everything = {row.user_id: row for row in await store.leaderboard(GUILD, "straight")}
    week = {row.user_id: row for row in
            await store.leaderboard(GUILD, "straight", since=clock.now - 7 * DAY)}
    assert set(week) == {ANN, BOB, CY}
    assert (week[ANN].games, week[ANN].wins, week[ANN].avg_points) == (1, 0, 5.0)
    assert (everything[ANN].games, everything[ANN].wins) == (2, 1)
    assert week[ANN].rating == everything[ANN].rating
    recent = await store.leaderboard(GUILD, "straight", since=10.5 * DAY)
    assert {row.user_id for row in recent} == {ANN, BOB}


async def test_leaderboard_across_variants(store, clock):
    await play(store, clock, 1 * DAY, "straight", [(ANN, 1, 30), (BOB, 2, 0)])
    await play(store, clock, 2 * DAY, "straight", [(ANN, 1, 20), (BOB, 2, 0)])
    await play(store, clock, 3 * DAY, "indian", [(BOB, 1, 0), (ANN, 2, 80)])
    board = {row.user_id: row for row in await store.leaderboard(GUILD, None)}
    ann = board[ANN]
    assert (ann.games, ann.wins, ann.avg_points) == (3, 2, pytest.approx(130 / 3))
    stats = {row.variant: row for row in await store.player_stats(GUILD, ANN)}
    weighted = (stats["straight"].rating * 2 + stats["indian"].rating * 1) / 3
    assert ann.rating == round(weighted)


async def test_player_stats_per_variant(store, clock):
    await play(store, clock, 1 * DAY, "straight", [(ANN, 2, 0), (BOB, 1, 30), (None, 3, 0)])
    await play(store, clock, 2 * DAY, "straight", [(ANN, 3, -5), (BOB, 1, 30), (None, 2, 0)])
    last = await play(store, clock, 3 * DAY, "straight", [(ANN, 1, 25), (BOB, 2, 0)])
    await play(store, clock, 4 * DAY, "indian", [(ANN, 2, 40), (CY, 1, 0)])
    await play(store, clock, 5 * DAY, "straight", [(ANN, 1, 99), (CY, 2, 0)], guild=OTHER_GUILD)

    stats = await store.player_stats(GUILD, ANN)
    assert [row.variant for row in stats] == ["straight", "indian"]  # most played first
    straight = stats[0]
    assert isinstance(straight, PlayerStatsRow)
    assert (straight.games, straight.wins, straight.best_place) == (3, 1, 1)
    assert straight.avg_points == pytest.approx(20 / 3)
    assert straight.win_rate == pytest.approx(1 / 3)
    assert straight.rating == last[0].rating_after
    assert straight.last_played == 3 * DAY
    assert (stats[1].games, stats[1].wins, stats[1].best_place) == (1, 0, 2)
    assert await store.player_stats(GUILD, 4242) == []


async def test_history_newest_first_with_players_in_place_order(store, clock):
    await play(store, clock, 1 * DAY, "straight", [(ANN, 2, 0), (BOB, 1, 30)], seed=111)
    await play(store, clock, 2 * DAY, "indian", [(CY, 1, 0), (None, 2, 40)], seed=2 ** 64 + 1)
    await play(store, clock, 3 * DAY, "straight", [(ANN, 1, 5), (BOB, 2, 0)], guild=OTHER_GUILD)
    clock.now = 4 * DAY
    cancelled = await store.create_game(GUILD, CHANNEL, "straight", {}, 3, ANN)
    await store.cancel_game(cancelled)

    history = await store.history(GUILD)
    assert all(isinstance(row, HistoryRow) for row in history)
    assert [(h.variant, h.seed, h.finished_at) for h in history] == [
        ("indian", 2 ** 64 + 1, 2 * DAY), ("straight", 111, 1 * DAY)]
    first = history[1]
    assert [(p.name, p.user_id, p.place, p.points, p.won) for p in first.players] == [
        ("Bob", BOB, 1, 30, True), ("Ann", ANN, 2, 0, False)]
    assert first.players[0].rating_after > first.players[0].rating_before == DEFAULT.display
    computer = history[0].players[1]
    assert computer.is_computer and computer.user_id is None and computer.name == "Computer 1"

    assert [h.seed for h in await store.history(GUILD, ANN)] == [111]
    assert [h.seed for h in await store.history(GUILD, CY)] == [2 ** 64 + 1]
    assert len(await store.history(GUILD, limit=1)) == 1
    assert await store.history(GUILD, 4242) == []


async def test_computers_share_a_rating_that_is_not_on_the_leaderboard(store, clock):
    first = await play(store, clock, 1 * DAY, "straight", [(ANN, 1, 10), (None, 2, 0),
                                                           (None, 3, 0)])
    second = await play(store, clock, 2 * DAY, "straight", [(None, 1, 10), (ANN, 2, 0)])
    assert first[1].rating_after == first[2].rating_after  # one shared rating
    assert second[0].rating_before == first[1].rating_after
    assert [row.user_id for row in await store.leaderboard(GUILD, "straight")] == [ANN]


async def test_last_finished_game_of_a_player_in_a_server(store, clock):
    """``/rummy replay``'s default: the player's newest finished game here, one they left too
    (a computer played their seat to the end, so their result row says computer)."""
    assert await store.last_finished_game(GUILD, ANN) is None
    await play(store, clock, 1 * DAY, "straight", [(ANN, 1, 30), (BOB, 2, 0)])
    await play(store, clock, 2 * DAY, "indian", [(BOB, 1, 0), (CY, 2, 80)])
    await play(store, clock, 3 * DAY, "straight", [(ANN, 1, 5), (CY, 2, 0)], guild=OTHER_GUILD)
    game = await store.get_game(await store.last_finished_game(GUILD, ANN) or 0)
    assert game is not None and game.variant == "straight" and game.finished_at == 1 * DAY
    clock.now = 4 * DAY
    seats = [SeatRow(0, ANN, "Ann"), SeatRow(1, None, "Computer 1", True)]
    left = await store.create_game(GUILD, CHANNEL, "remi", {}, 9, ANN, seats[:1])
    await store.start_game(left, {}, seats, None)
    await store.mark_left(left, 0, computer=True)
    await store.finish_game(left, {"over": True}, [ResultRow(0, ANN, True, 2, 0, False),
                                                   ResultRow(1, None, True, 1, 9, True)])
    assert await store.last_finished_game(GUILD, ANN) == left
    assert await store.last_finished_game(GUILD, CY) != left
    assert await store.last_finished_game(OTHER_GUILD, BOB) is None


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.floats(-50, 80), st.floats(0.01, 25)), min_size=1, max_size=50))
async def test_ratings_shown_in_sql_are_the_ones_python_shows(store, ratings):
    """The leaderboard computes ``bot.ratings.display`` in SQL: the two agree."""
    real = "CAST(:{}{} AS DOUBLE PRECISION)"
    values = ", ".join(f"({real.format('mu', i)}, {real.format('sigma', i)}, {i})"
                       for i in range(len(ratings)))
    params = {f"{name}{i}": value for i, pair in enumerate(ratings)
              for name, value in zip(("mu", "sigma"), pair, strict=True)}
    rows = await store._db.fetch(  # the store's own connection: SQL as the store runs it
        f"WITH r (mu, sigma, i) AS (VALUES {values})"
        f" SELECT {display_sql('mu', 'sigma')} FROM r ORDER BY i", params)
    assert [shown for (shown,) in rows] == [display(mu, sigma) for mu, sigma in ratings]
