"""Store: the game lifecycle, the move log and its durability, on a real SQLite file and a
real PostgreSQL database (``database_url``, tests/databases.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from bot.store import (
    ChannelBusy,
    ConstraintViolation,
    GameNotFound,
    GameStatus,
    ResultRow,
    SeatRow,
    StaleGame,
    Store,
    WrongStatus,
)
from tests.databases import fetch_all

GUILD, CHANNEL, HOST, GUEST = 10, 20, 1001, 1002
SEATS = [SeatRow(0, HOST, "Ann"), SeatRow(1, GUEST, "Bob"), SeatRow(2, None, "Computer 1", True)]


class Clock:
    """A settable clock, so that no test depends on the time of day."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def path(database_url):
    """The database under test: a SQLite file's path or a PostgreSQL URL."""
    return database_url


@pytest.fixture
async def store(path, clock):
    store = await Store.open(path, clock=clock)
    yield store
    await store.close()


async def new_lobby(store: Store, channel: int = CHANNEL, seed: int = 42) -> int:
    return await store.create_game(GUILD, channel, "straight", {"target": 200}, seed, HOST,
                                   SEATS[:1])


async def new_running(store: Store, channel: int = CHANNEL) -> int:
    game_id = await new_lobby(store, channel)
    await store.start_game(game_id, {"turn": 0}, SEATS, deadline=2_000.0)
    return game_id


# -- lobby --------------------------------------------------------------------


async def test_create_game_stores_a_lobby(store, clock):
    game_id = await store.create_game(GUILD, CHANNEL, "straight", {"aces": "high"},
                                      -(2 ** 70), HOST, SEATS[:2])
    game = await store.get_game(game_id)
    assert game is not None
    assert (game.guild_id, game.channel_id, game.variant, game.host_id) == (
        GUILD, CHANNEL, "straight", HOST)
    assert game.options == {"aces": "high"}
    assert game.seed == -(2 ** 70)
    assert game.status is GameStatus.LOBBY and game.is_open
    assert game.state is None and game.turn_deadline is None and game.move_count == 0
    assert game.seats == tuple(SEATS[:2])
    assert game.created_at == game.updated_at == clock.now and game.finished_at is None
    assert await store.open_game_in_channel(CHANNEL) == game
    assert await store.get_game(game_id + 1) is None


async def test_a_channel_holds_one_open_game(store):
    game_id = await new_lobby(store)
    with pytest.raises(ChannelBusy):
        await new_lobby(store)
    await new_lobby(store, channel=CHANNEL + 1)  # another channel is free
    await store.cancel_game(game_id)
    assert await store.open_game_in_channel(CHANNEL) is None
    await new_lobby(store)  # free again once the first is closed


async def test_concurrent_creates_for_one_channel_one_wins(store):
    outcomes = await asyncio.gather(*(new_lobby(store) for _ in range(5)),
                                    return_exceptions=True)
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert sum(isinstance(o, ChannelBusy) for o in outcomes) == 4


async def test_two_connections_racing_for_a_channel_one_wins(path, store):
    """The partial unique index decides, not the store's lock: a second process loses too."""
    other = await Store.open(path)
    try:
        outcomes = await asyncio.gather(new_lobby(store), new_lobby(other),
                                        return_exceptions=True)
    finally:
        await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["ChannelBusy", "int"]


async def test_set_seats_replaces_the_lobby_seats(store, clock):
    game_id = await new_lobby(store)
    clock.now += 5
    await store.set_seats(game_id, SEATS)
    game = await store.get_game(game_id)
    assert game.seats == tuple(SEATS) and game.updated_at == clock.now
    await store.set_seats(game_id, SEATS[:1])
    assert (await store.get_game(game_id)).seats == tuple(SEATS[:1])


async def test_a_player_takes_one_seat_only(store):
    game_id = await new_lobby(store)
    with pytest.raises(ConstraintViolation):
        await store.set_seats(game_id, [SeatRow(0, HOST, "Ann"), SeatRow(1, HOST, "Ann again")])
    assert (await store.get_game(game_id)).seats == tuple(SEATS[:1])  # unchanged


async def test_set_messages_changes_only_what_is_given(store):
    game_id = await new_lobby(store)
    await store.set_messages(game_id, lobby=501)
    await store.set_messages(game_id, table=502, turn=503)
    game = await store.get_game(game_id)
    assert (game.lobby_message_id, game.table_message_id, game.turn_message_id) == (501, 502, 503)
    await store.set_messages(game_id, lobby=None)
    game = await store.get_game(game_id)
    assert (game.lobby_message_id, game.table_message_id, game.turn_message_id) == (None, 502, 503)
    with pytest.raises(GameNotFound):
        await store.set_messages(game_id + 1, lobby=1)


async def test_idle_lobbies(store, clock):
    quiet = await new_lobby(store, channel=1)
    clock.now += 100
    busy = await new_lobby(store, channel=2)
    running = await new_running(store, channel=3)
    clock.now += 100
    await store.touch(quiet)
    assert [g.id for g in await store.lobbies_idle_since(clock.now - 50)] == [busy]
    assert [g.id for g in await store.lobbies_idle_since(clock.now + 1)] == [busy, quiet]
    assert running not in [g.id for g in await store.lobbies_idle_since(clock.now + 1)]


# -- running ----------------------------------------------------------------


async def test_start_game_saves_state_seats_and_deadline(store):
    game_id = await new_running(store)
    game = await store.get_game(game_id)
    assert game.status is GameStatus.RUNNING
    assert game.state == {"turn": 0} and game.turn_deadline == 2_000.0
    assert game.seats == tuple(SEATS)
    with pytest.raises(WrongStatus, match="running, not lobby"):
        await store.set_seats(game_id, SEATS[:2])
    with pytest.raises(WrongStatus):
        await store.start_game(game_id, {}, SEATS, None)


async def test_record_move_appends_and_saves_the_state(store, clock):
    game_id = await new_running(store)
    for seq in (1, 2, 3):
        clock.now += 1
        assert await store.record_move(game_id, seq % 3, None if seq == 3 else HOST,
                                       {"kind": "draw", "n": seq}, {"turn": seq},
                                       deadline=2_000.0 + seq, expected_moves=seq - 1) == seq
    game = await store.get_game(game_id)
    assert game.state == {"turn": 3} and game.turn_deadline == 2_003.0 and game.move_count == 3
    moves = await store.moves(game_id)
    assert [(m.seq, m.seat, m.user_id, m.move["n"]) for m in moves] == [
        (1, 1, HOST, 1), (2, 2, HOST, 2), (3, 0, None, 3)]
    assert [m.created_at for m in moves] == [1_001.0, 1_002.0, 1_003.0]


async def test_moves_survive_a_reopen(path, clock):
    store = await Store.open(path, clock=clock)
    game_id = await new_running(store)
    for seq in range(1, 4):
        await store.record_move(game_id, 0, HOST, {"n": seq}, {"turn": seq}, None,
                                expected_moves=seq - 1)
    await store.close()
    async with await Store.open(path, clock=clock) as reopened:
        game = await reopened.get_game(game_id)
        assert game.state == {"turn": 3} and game.move_count == 3
        assert [m.move for m in await reopened.moves(game_id)] == [{"n": 1}, {"n": 2}, {"n": 3}]
        assert await reopened.record_move(game_id, 1, GUEST, {"n": 4}, {"turn": 4}, None,
                                          expected_moves=3) == 4


def test_acknowledged_moves_survive_a_crash(path):
    """A process that dies right after record_move returns (no close, no checkpoint)."""
    script = textwrap.dedent(f"""
        import asyncio, os
        from bot.store import SeatRow, Store

        async def main():
            store = await Store.open({str(path)!r})
            game_id = await store.create_game(1, 2, "straight", {{}}, 7, 3)
            await store.start_game(game_id, {{"turn": 0}}, [SeatRow(0, 3, "A"),
                                   SeatRow(1, None, "C", True)], None)
            for n in range(1, 6):
                await store.record_move(game_id, n % 2, None, {{"n": n}}, {{"turn": n}}, None,
                                        expected_moves=n - 1)
            os._exit(0)

        asyncio.run(main())
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60,
                   cwd=Path(__file__).resolve().parents[1])

    async def check() -> None:
        async with await Store.open(path) as store:
            (game,) = await store.unfinished_games()
            assert game.state == {"turn": 5}
            assert [m.move["n"] for m in await store.moves(game.id)] == [1, 2, 3, 4, 5]

    asyncio.run(check())


async def test_a_state_that_cannot_be_saved_writes_nothing(store):
    game_id = await new_running(store)
    with pytest.raises(TypeError):
        await store.record_move(game_id, 0, HOST, {"n": 1}, {"bad": object()}, None,
                                expected_moves=0)
    with pytest.raises(ValueError):
        await store.record_move(game_id, 0, HOST, {"n": 1}, {"bad": float("nan")}, None,
                                expected_moves=0)
    assert await store.moves(game_id) == []
    assert (await store.get_game(game_id)).state == {"turn": 0}


async def test_a_move_failing_inside_the_transaction_is_rolled_back_whole(store):
    """The state update runs first; the move insert then fails (no such seat)."""
    game_id = await new_running(store)
    await store.record_move(game_id, 0, HOST, {"n": 1}, {"turn": 1}, 2_001.0, expected_moves=0)
    with pytest.raises(ConstraintViolation):
        await store.record_move(game_id, 9, HOST, {"n": 2}, {"turn": 2}, 2_002.0,
                                expected_moves=1)
    game = await store.get_game(game_id)
    assert (game.state, game.turn_deadline, game.move_count) == ({"turn": 1}, 2_001.0, 1)
    assert len(await store.moves(game_id)) == 1
    assert await store.record_move(game_id, 1, GUEST, {"n": 2}, {"turn": 2}, None,
                                   expected_moves=1) == 2


async def test_moves_only_in_running_games(store):
    lobby = await new_lobby(store)
    with pytest.raises(WrongStatus, match="lobby, not running"):
        await store.record_move(lobby, 0, HOST, {}, {}, None, expected_moves=0)
    with pytest.raises(GameNotFound):
        await store.record_move(lobby + 99, 0, HOST, {}, {}, None, expected_moves=0)


async def test_the_move_log_is_append_only(path, store):
    game_id = await new_running(store)
    await store.record_move(game_id, 0, HOST, {"n": 1}, {"turn": 1}, None, expected_moves=0)
    with pytest.raises((sqlite3.IntegrityError, psycopg.Error), match="append-only"):
        fetch_all(path, "UPDATE moves SET move = '{}'")
    assert [m.move for m in await store.moves(game_id)] == [{"n": 1}]


# -- one writer per game -------------------------------------------------------


async def test_a_second_writer_of_the_same_game_is_refused(path, store):
    """Two stores (two connections, as two processes) hold the same game at move 0: the
    first writer's move is saved; the second's is refused and overwrites nothing."""
    game_id = await new_running(store)
    other = await Store.open(path)
    try:
        assert (await other.get_game(game_id)).move_count == 0  # both read the same state
        assert await store.record_move(game_id, 0, HOST, {"by": "first"}, {"turn": "first"},
                                       None, expected_moves=0) == 1
        with pytest.raises(StaleGame) as refused:
            await other.record_move(game_id, 1, GUEST, {"by": "second"}, {"turn": "second"},
                                    None, expected_moves=0)
        assert (refused.value.expected, refused.value.found) == (0, 1)
        for reader in (store, other):
            game = await reader.get_game(game_id)
            assert (game.state, game.move_count) == ({"turn": "first"}, 1)
            assert [m.move for m in await reader.moves(game_id)] == [{"by": "first"}]
        # the refused writer reloads and carries on from the saved state
        assert await other.record_move(game_id, 1, GUEST, {"by": "second"}, {"turn": 2}, None,
                                       expected_moves=1) == 2
    finally:
        await other.close()


async def test_two_writers_racing_for_one_move_one_wins(path, store):
    game_id = await new_running(store)
    other = await Store.open(path)
    try:
        outcomes = await asyncio.gather(*(
            writer.record_move(game_id, seat, None, {"by": seat}, {"turn": seat}, None,
                               expected_moves=0)
            for seat, writer in enumerate((store, other, store, other))),
            return_exceptions=True)
    finally:
        await other.close()
    assert outcomes.count(1) == 1
    assert [type(o) for o in outcomes if o != 1] == [StaleGame] * 3
    (winner,) = [seat for seat, o in enumerate(outcomes) if o == 1]
    game = await store.get_game(game_id)
    assert (game.state, game.move_count) == ({"turn": winner}, 1)
    assert [m.move for m in await store.moves(game_id)] == [{"by": winner}]


async def test_a_stale_writer_of_a_finished_game_is_told_it_is_over(store):
    game_id = await new_running(store)
    await store.finish_game(game_id, {"over": True}, [ResultRow(0, HOST, False, 1, 0, True),
                                                     ResultRow(1, GUEST, False, 2, 0, False)])
    with pytest.raises(WrongStatus, match="finished, not running"):
        await store.record_move(game_id, 0, HOST, {}, {}, None, expected_moves=5)


async def test_deadline_and_leaving(store):
    game_id = await new_running(store)
    await store.set_deadline(game_id, 3_000.0)
    await store.mark_left(game_id, 1, computer=True)
    game = await store.get_game(game_id)
    assert game.turn_deadline == 3_000.0
    assert game.seats[1] == SeatRow(1, GUEST, "Bob", is_computer=True, left=True)
    with pytest.raises(ValueError, match="no seat 7"):
        await store.mark_left(game_id, 7, computer=False)


async def test_unfinished_games_after_reopen(path, clock):
    async with await Store.open(path, clock=clock) as store:
        lobby = await new_lobby(store, channel=1)
        running = await new_running(store, channel=2)
        cancelled = await new_lobby(store, channel=3)
        await store.cancel_game(cancelled)
        finished = await new_running(store, channel=4)
        await store.finish_game(finished, {"over": True}, [
            ResultRow(0, HOST, False, 1, 10, True), ResultRow(1, GUEST, False, 2, 0, False),
            ResultRow(2, None, True, 3, 0, False)])
    async with await Store.open(path, clock=clock) as store:
        games = await store.unfinished_games()
    assert [(g.id, g.status) for g in games] == [(lobby, GameStatus.LOBBY),
                                                 (running, GameStatus.RUNNING)]
    assert games[1].state == {"turn": 0} and games[1].seats == tuple(SEATS)


# -- the end ----------------------------------------------------------------


async def test_finish_game_records_results_and_ratings(path, store, clock):
    game_id = await new_running(store)
    await store.save_shown_hand(game_id, HOST, ["7H", "8H"], "k1")
    clock.now = 5_000.0
    rated = await store.finish_game(game_id, {"over": True}, [
        ResultRow(0, HOST, False, 1, 25, True), ResultRow(1, GUEST, False, 2, -5, False),
        ResultRow(2, None, True, 3, -20, False)])
    assert [(r.seat, r.rating_before) for r in rated] == [(0, 1000), (1, 1000), (2, 1000)]
    assert rated[0].rating_after > rated[1].rating_after > rated[2].rating_after
    game = await store.get_game(game_id)
    assert game.status is GameStatus.FINISHED and game.finished_at == 5_000.0
    assert game.state == {"over": True} and game.turn_deadline is None
    assert await store.open_game_in_channel(CHANNEL) is None
    assert await store.shown_hand(game_id, HOST) is None
    ratings = fetch_all(path, "SELECT user_id, games, wins FROM ratings ORDER BY user_id")
    results = fetch_all(path, "SELECT seat, place, points, finished_at FROM results ORDER BY seat")
    assert ratings == [(0, 1, 0), (HOST, 1, 1), (GUEST, 1, 0)]  # 0: the computers
    assert results == [(0, 1, 25, 5_000.0), (1, 2, -5, 5_000.0), (2, 3, -20, 5_000.0)]
    with pytest.raises(WrongStatus, match="finished, not running"):
        await store.record_move(game_id, 0, HOST, {}, {}, None, expected_moves=0)


async def test_a_failed_finish_changes_nothing(path, store):
    game_id = await new_running(store)
    with pytest.raises(ConstraintViolation):  # two results for seat 0
        await store.finish_game(game_id, {"over": True}, [
            ResultRow(0, HOST, False, 1, 25, True), ResultRow(0, GUEST, False, 2, 0, False)])
    with pytest.raises(ValueError, match="needs a user id"):
        await store.finish_game(game_id, {}, [ResultRow(0, None, False, 1, 0, True),
                                              ResultRow(1, GUEST, False, 2, 0, False)])
    game = await store.get_game(game_id)
    assert game.status is GameStatus.RUNNING and game.state == {"turn": 0}
    assert fetch_all(path, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert fetch_all(path, "SELECT COUNT(*) FROM results") == [(0,)]


async def test_a_game_of_computers_is_recorded_but_not_rated(store):
    game_id = await store.create_game(GUILD, CHANNEL, "straight", {}, 1, HOST)
    computers = [SeatRow(0, None, "C1", True), SeatRow(1, None, "C2", True)]
    await store.start_game(game_id, {}, computers, None)
    rated = await store.finish_game(game_id, {}, [ResultRow(0, None, True, 1, 5, True),
                                                  ResultRow(1, None, True, 2, 0, False)])
    assert [(r.rating_before, r.rating_after) for r in rated] == [(None, None), (None, None)]


async def test_cancel_game(store):
    game_id = await new_running(store)
    assert await store.cancel_game(game_id) is True
    assert (await store.get_game(game_id)).status is GameStatus.CANCELLED
    assert await store.cancel_game(game_id) is False
    with pytest.raises(GameNotFound):
        await store.cancel_game(game_id + 1)


async def test_a_write_cancelled_as_it_begins_leaves_no_transaction_open(path, clock):
    """A shutdown cancels tasks mid-write: the store still closes (its checkpoint would fail
    with "database table is locked" on a transaction left open) and nothing was written."""
    store = await Store.open(path, clock=clock)
    writing = asyncio.create_task(new_lobby(store))
    await asyncio.sleep(0)  # the write has sent BEGIN and waits for it
    writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
    await store.close()
    reopened = await Store.open(path, clock=clock)
    assert await reopened.unfinished_games() == []
    await reopened.close()


async def test_games_finishing_at_once_rate_one_after_the_other(path, store):
    """Two stores finish two games of one server and variant at the same moment: both seat
    the computers, whose shared rating the second update must build on, not overwrite."""
    other = await Store.open(path)
    try:
        first = await new_running(store, channel=1)
        second = await new_running(other, channel=2)
        rated = await asyncio.gather(*(
            writer.finish_game(game_id, {"over": True}, [
                ResultRow(0, HOST, False, 1, 10, True), ResultRow(1, GUEST, False, 2, 0, False),
                ResultRow(2, None, True, 3, 0, False)])
            for writer, game_id in ((store, first), (other, second))))
    finally:
        await other.close()
    before = {r[2].rating_before: r[2].rating_after for r in rated}  # the computers' seats
    assert 1000 in before and before[1000] in before  # the second began where the first ended
    assert fetch_all(path, "SELECT games FROM ratings WHERE user_id = 0") == [(2,)]
