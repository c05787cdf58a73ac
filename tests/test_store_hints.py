"""Store: a game's hints option, each seat's hint count, and results recorded unrated, on a
real SQLite file and a real PostgreSQL database (``database_url``, tests/databases.py)."""

from __future__ import annotations

import pytest

from bot.store import GameNotFound, ResultRow, SeatRow, Store
from tests.databases import fetch_all

GUILD, CHANNEL, HOST, GUEST = 10, 20, 1001, 1002
SEATS = [SeatRow(0, HOST, "Ann"), SeatRow(1, GUEST, "Bob")]


@pytest.fixture
async def store(database_url):
    store = await Store.open(database_url)
    yield store
    await store.close()


async def test_a_lobby_keeps_its_hints_option(store: Store) -> None:
    on = await store.create_game(GUILD, CHANNEL, "straight", {}, 1, HOST, SEATS[:1])
    off = await store.create_game(GUILD, CHANNEL + 1, "straight", {}, 1, HOST, SEATS[:1],
                                  hints=False)
    assert (await store.get_game(on)).hints is True
    assert (await store.get_game(off)).hints is False


async def test_hints_are_counted_per_seat_only_while_the_game_runs(store: Store) -> None:
    game_id = await store.create_game(GUILD, CHANNEL, "straight", {}, 1, HOST, SEATS[:1])
    with pytest.raises(GameNotFound):  # a lobby gives no hints
        await store.use_hint(game_id, 0)
    await store.start_game(game_id, {}, SEATS, None)
    assert await store.use_hint(game_id, 1) == 1
    assert await store.use_hint(game_id, 1) == 2
    assert [s.hints for s in (await store.get_game(game_id)).seats] == [0, 2]
    with pytest.raises(GameNotFound):
        await store.use_hint(game_id, 5)  # no such seat


async def test_a_game_not_rated_is_recorded_and_moves_no_rating(store: Store,
                                                               database_url) -> None:
    game_id = await store.create_game(GUILD, CHANNEL, "straight", {}, 1, HOST, SEATS[:1])
    await store.start_game(game_id, {}, SEATS, None)
    await store.use_hint(game_id, 0)
    results = await store.finish_game(game_id, {}, [ResultRow(0, HOST, False, 1, 10, True),
                                                    ResultRow(1, GUEST, False, 2, 0, False)],
                                      rated=False)
    assert [(r.rating_before, r.rating_after) for r in results] == [(None, None)] * 2
    assert fetch_all(database_url, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert fetch_all(database_url, "SELECT seat, points FROM results ORDER BY seat") == \
        [(0, 10), (1, 0)]
    with pytest.raises(GameNotFound):  # finished: no more hints
        await store.use_hint(game_id, 0)
