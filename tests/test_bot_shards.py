"""The real bot on several shards, in one or several bots sharing one database.

In process (several ``RummyBot`` objects in one event loop, each pointed at
the same fake Discord as a separate process would be): shard settings, the
identify pacing against the fake's strict limits, each process restoring and
sweeping only its shards' games, and a process whose shards another claimed
standing down. ``tests/test_cluster.py`` runs the launcher and real processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ai import straight as straight_ai
from bot.app import EXIT_TAKEN_OVER, RummyBot, StartRefused
from bot.controller import MOVED_ON
from bot.engine.variants.straight import StraightGame
from bot.identify import IDENTIFY_MARGIN, LEAST_MARGIN, IdentifyPacer
from bot.ownership import ShardOwnership
from bot.shards import shard_of
from bot.store import Store
from bot.store.backends import SQLiteBackend
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import start_game, turn_message
from tests.fakediscord import FakeDiscord, Message, User

WINDOW = 0.3


def sharded_world(shard_count: int, **options: Any) -> FakeDiscord:
    """A guild on each shard ("Club 0", …) with a channel "games-N" and alice/bob N."""
    fake = FakeDiscord(identify_window=WINDOW, **options)
    for shard in range(shard_count):
        guild = fake.add_guild(f"Club {shard}", shard=(shard, shard_count))
        guild.add_text_channel(f"games-{shard}")
        for name in ("alice", "bob"):
            guild.add_member(fake.add_user(f"{name}{shard}"))
    return fake


@contextlib.asynccontextmanager
async def started(shard_count: int, **options: Any) -> AsyncIterator[FakeDiscord]:
    fake = sharded_world(shard_count, **options)
    async with fake:
        yield fake
        await fake.settle()
    fake.assert_clean()


async def open_game(fake: FakeDiscord, bot: RummyBot, shard: int) -> int:
    """A running two-player Straight game in guild ``shard``'s channel; its id."""
    channel = fake.channel(f"games-{shard}")
    session = await start_game(fake, bot, fake.user(f"alice{shard}"), channel=channel,
                               joiners=[fake.user(f"bob{shard}")])
    return session.game_id


def to_move(fake: FakeDiscord, turn: Message, shard: int) -> User:
    """The player of guild ``shard`` whose turn the turn message announces."""
    return next(fake.user(name) for name in (f"alice{shard}", f"bob{shard}")
                if f"<@{fake.user(name).id}>" in turn.text)


async def draw_in(fake: FakeDiscord, shard: int, owner: RummyBot, game_id: int) -> None:
    """The player to move in guild ``shard`` draws; ``owner``, and only it, plays it."""
    turn = await turn_message(fake, fake.channel(f"games-{shard}"))
    drawn = await (await fake.click(to_move(fake, turn, shard), turn,
                                    "Draw from stock")).reply()
    assert "You drew" in drawn.text
    session = owner.controller.sessions.by_id(game_id)
    assert session is not None and session.moves == 1


def identify_gaps(fake: FakeDiscord, max_concurrency: int) -> list[float]:
    """Seconds between consecutive IDENTIFYs of each bucket."""
    gaps = []
    for bucket in range(max_concurrency):
        times = [t for t, (shard, _) in fake.gateway.identified
                 if shard % max_concurrency == bucket]
        gaps += [b - a for a, b in itertools.pairwise(times)]
    return gaps


async def test_one_process_runs_every_shard_and_paces_its_identifies(tmp_path: Path) -> None:
    async with started(4, max_concurrency=2) as fake, \
            running_bot(fake, tmp_path / "db.sqlite3", shard_count=4) as bot:
        assert bot.shard_count == 4 and set(bot.shards) == {0, 1, 2, 3}
        for shard in range(4):
            lobby = await (await fake.slash(fake.user(f"alice{shard}"), "/straight new",
                                            channel=fake.channel(f"games-{shard}"))).reply()
            assert "Join" in lobby.button_labels
        guilds = {guild.id: guild.shard_id for guild in bot.guilds}
        assert guilds == {g.id: shard_of(g.id, 4) for g in fake.world.guilds.values()}

    assert sorted(shard for _, (shard, count) in fake.gateway.identified) == [0, 1, 2, 3]
    assert min(identify_gaps(fake, 2)) >= WINDOW  # and the fake saw no identify problem


async def test_without_a_shard_count_it_takes_discords_recommendation(tmp_path: Path) -> None:
    async with started(3, shards=3) as fake, running_bot(fake, tmp_path / "db.sqlite3") as bot:
        assert bot.shard_count == 3 and fake.gateway.connected_shards(3) == {0, 1, 2}


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_restarted_bot_waits_for_its_identify_bucket(db: Path | str) -> None:
    database = db
    async with started(1) as fake:
        async with running_bot(fake, database):
            pass
        async with running_bot(fake, database):
            pass
    (first, _), (second, _) = fake.gateway.identified
    assert second - first >= WINDOW


async def test_a_process_starts_no_shard_without_enough_session_starts(tmp_path: Path) -> None:
    async with started(2, session_starts_remaining=1) as fake:
        with pytest.raises(StartRefused, match="allows 1 more session start"):
            async with running_bot(fake, tmp_path / "db.sqlite3", shard_count=2):
                pass
    assert fake.gateway.identifies == 0


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_each_process_restores_times_and_sweeps_only_its_shards_games(
        db: Path | str) -> None:
    database = db
    async with started(2) as fake:
        async with running_bot(fake, database, shard_count=2) as both:
            games = [await open_game(fake, both, shard) for shard in (0, 1)]
            for shard in (0, 1):  # and an idle lobby in a second channel of each guild
                lounge = fake.guild(f"Club {shard}").add_text_channel(f"lounge-{shard}")
                await fake.wait_until(lambda c=lounge: both.get_channel(c.id))
                await (await fake.slash(fake.user(f"alice{shard}"), "/straight new",
                                        channel=lounge)).reply()
        async with running_bot(fake, database, shard_count=2, shard_ids=(0,)) as first, \
                running_bot(fake, database, shard_count=2, shard_ids=(1,)) as second:
            mine = [{s.game_id for s in bot.controller.sessions.all()}
                    for bot in (first, second)]
            assert games[0] in mine[0] and games[1] in mine[1] and not mine[0] & mine[1]
            assert all(shard_of(s.guild_id, 2) == 0 for s in first.controller.sessions.all())
            later = time.time() + 16 * 60
            closed = await first.controller.lobby.close_idle_lobbies(later,
                                                                      first.ownership.shards)
            assert closed == 1  # its own idle lobby; the other guild's is not its to close
            assert second.controller.sessions.in_channel(fake.channel("lounge-1").id)
            for shard, bot in ((0, first), (1, second)):  # each game plays on in its owner
                await draw_in(fake, shard, bot, games[shard])


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_process_whose_shards_were_taken_over_stands_down(db: Path | str) -> None:
    database = db
    async with started(2) as fake, running_bot(fake, database, shard_count=2) as old:
        game = await open_game(fake, old, 1)
        fake.allow_errors(kinds=("identify",))  # two connections on a shard, for a while
        async with running_bot(fake, database, shard_count=2) as new:
            assert not old.is_closed()
            await old.check_ownership()

            assert old.is_closed() and old.exit_code == EXIT_TAKEN_OVER
            assert not old.controller.sessions.all()  # no timer, computer or publisher left
            await draw_in(fake, 1, new, game)  # answered once, by the new owner
    owners = fake.take_problems(kind="identify")
    assert owners and all("two processes own" in p.detail for p in owners)


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_process_gives_up_only_the_shards_taken_and_plays_on(db: Path | str) -> None:
    database = db
    async with started(2) as fake, running_bot(fake, database, shard_count=2) as old:
        games = [await open_game(fake, old, shard) for shard in (0, 1)]
        fake.allow_errors(kinds=("identify",))
        async with running_bot(fake, database, shard_count=2, shard_ids=(1,)) as new:
            await old.check_ownership()

            assert not old.is_closed() and old.exit_code == 0
            assert list(old.ownership.claims) == [0]
            assert old.get_shard(1) is not None and old.get_shard(1).is_closed()
            assert [s.game_id for s in old.controller.sessions.all()] == [games[0]]
            assert [s.game_id for s in new.controller.sessions.all()] == [games[1]]
            for shard, owner in ((0, old), (1, new)):
                await draw_in(fake, shard, owner, games[shard])
    fake.take_problems(kind="identify")


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_rolling_reshard_the_old_process_stands_down_for_the_new_count(
        db: Path | str) -> None:
    database = db
    # A guild on each shard of 4, so two on each shard of 2.
    async with started(4) as fake, running_bot(fake, database, shard_count=2) as old:
        games = [await open_game(fake, old, shard) for shard in range(4)]
        async with running_bot(fake, database, shard_count=4) as new:
            await old.check_ownership()
            assert old.is_closed() and old.exit_code == EXIT_TAKEN_OVER
            assert sorted(s.game_id for s in new.controller.sessions.all()) == games
            for shard in range(4):
                await draw_in(fake, shard, new, games[shard])


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_move_refused_as_stale_makes_the_process_check_its_claims_at_once(
        db: Path | str) -> None:
    async with started(2) as fake, running_bot(fake, db, shard_count=2) as old:
        session = await start_game(fake, old, fake.user("alice1"), channel=fake.channel("games-1"),
                                   joiners=[fake.user("bob1")], turn_seconds=60)
        game_id = session.game_id
        assert "turn" in session.tasks  # its turn timer
        turn = await turn_message(fake, fake.channel("games-1"))
        async with await Store.open(db) as elsewhere:  # another process took shard 1 over
            await ShardOwnership(elsewhere, 2, owner="newer").claim(1)
            row = await elsewhere.get_game(game_id)  # and played the next move there
            assert row is not None and row.state is not None
            game = StraightGame.from_json(row.state)
            seat = game.to_move
            assert seat is not None
            move = straight_ai.choose_move(game, seat, random.Random(1))
            after, _ = game.apply(move)
            await elsewhere.record_move(game_id, seat, None, move.to_json(), after.to_json(),
                                        None, expected_moves=row.move_count)
        answer = await (await fake.click(to_move(fake, turn, 1), turn, "Draw from stock")).reply()

        assert MOVED_ON in answer.text  # nothing was written over the other process's move
        await fake.wait_until(lambda: list(old.ownership.claims) == [0], timeout=5,
                              what="the claims checked at once, not in 15 s")
        assert old.controller.sessions.by_id(game_id) is None and not old.is_closed()
        assert session.status == "moved" and not session.tasks  # no turn timer left armed
        shard = old.get_shard(1)
        assert shard is not None and shard.is_closed()


async def test_a_reshard_claim_takes_over_the_shards_that_share_guilds(database_url: str) -> None:
    database = database_url
    async with await Store.open(database) as store:
        old = ShardOwnership(store, 2, owner="old")
        for shard in (0, 1):
            await old.claim(shard)
        new = ShardOwnership(store, 4, owner="new")
        await new.claim(3)  # shard 3 of 4 holds some of shard 1 of 2's guilds
        lost = await old.taken_over()
        assert set(lost) == {1} and lost[1].owner == "new" and lost[1].shard_count == 4
        await old.claim(0)  # its own newer claim takes nothing from itself
        assert set(await old.taken_over()) == {1}
        assert await new.taken_over() == {}
        assert old.owns(next(g for g in range(1 << 22, 1 << 30, 1 << 22) if shard_of(g, 2) == 1))


async def test_identify_buckets_are_taken_in_the_database_every_process_shares(
        database_url: str) -> None:
    database = database_url
    async with await Store.open(database) as one, await Store.open(database) as two:
        assert await one.take_identify(0, 1.0) == 0  # bucket 0 is taken: identify now
        assert await two.take_identify(1, 1.0) == 0  # another bucket, at once
        wait = await two.take_identify(0, 1.0)  # the other process must wait for bucket 0
        assert 0.9 < wait <= 1.0
        assert 0.9 < await one.take_identify(0, 1.0) <= 1.0  # waiting took nothing
        await asyncio.sleep(wait)
        assert await two.take_identify(0, 1.0) == 0
        assert await one.take_identify(0, 1.0) > 0.9


async def test_the_pacer_waits_until_its_bucket_is_taken() -> None:
    class Buckets:
        def __init__(self) -> None:
            self.asked: list[tuple[int, float]] = []

        async def take_identify(self, bucket: int, spacing: float) -> float:
            self.asked.append((bucket, spacing))
            return 0.05 if len(self.asked) == 1 else 0.0

    buckets = Buckets()
    pacer = IdentifyPacer(buckets, 5.0, 16)  # type: ignore[arg-type]
    waited = await pacer.wait_turn(17)
    assert waited >= 0.05
    assert buckets.asked == [(1, 5.0 + 5.0 * IDENTIFY_MARGIN)] * 2
    assert IdentifyPacer(buckets, 0.5, 1).spacing == 0.5 + LEAST_MARGIN  # type: ignore[arg-type]


async def test_the_bot_disconnects_even_when_closing_its_database_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with started(1) as fake, running_bot(fake, tmp_path / "db.sqlite3") as bot:
        store = bot.store
        assert store is not None

        async def busy() -> None:
            await Store.close(store)
            raise sqlite3.OperationalError("database is locked")

        monkeypatch.setattr(store, "close", busy)
        await asyncio.wait_for(bot.close(), 10)
        assert bot.is_closed() and not fake.gateway.connected_shards()


async def test_the_sqlite_store_closes_even_when_another_process_holds_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes closing at once: one's housekeeping meets "database is locked". Its
    connection must close anyway, or its worker thread keeps the process from exiting."""
    backend = await SQLiteBackend.connect(tmp_path / "db.sqlite3")
    connection = backend._db
    execute = connection.execute

    def busy(sql: str, *args: object) -> object:
        if sql.startswith("PRAGMA optimize"):
            raise sqlite3.OperationalError("database is locked")
        return execute(sql, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(connection, "execute", busy)
    await backend.close()
    connection._thread.join(5)
    assert not connection._thread.is_alive()
