"""The launcher and real bot processes: ``python -m bot.cluster`` on the fake Discord.

Four guilds, one on each of 4 shards, a game in each (a person against a
computer). Two processes of two shards each share one PostgreSQL database (the
test run's, ``tests/databases.py``: never skipped in CI). One process
is killed with SIGKILL while its players are mid-turn; the launcher restarts
it and every game carries on: nothing acknowledged is lost, nothing is
posted twice. A reshard stops a cluster of 2 shards and starts one of 4 on
the same database: each game carries on with its new owner. The fake
Discord checks every IDENTIFY against Discord's limits throughout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.ai.straight import choose_move
from bot.engine.moves import Discard, Draw
from bot.engine.variants.straight import StraightGame
from bot.panels import hand_key
from bot.shards import shard_of
from bot.store import Store
from tests.databases import is_postgres
from tests.e2e_helpers import slash_command, turn_message
from tests.fakediscord import Channel, FakeDiscord, Message, User
from tests.test_bot_process import bot_process_env

STARTED = re.compile(r"started shards (\S+) of (\d+) as pid (\d+)")


@dataclass
class Table:
    """One guild's channel, its player and the game being played there."""

    shard: int
    channel: Channel
    player: User
    game_id: int = 0
    acknowledged: int = 0
    """Moves the bot answered (people's and the computer's) as far as the test knows."""


def cluster_world(guild_shards: int) -> tuple[FakeDiscord, list[Table]]:
    """One guild on each shard of ``guild_shards``, each with a channel and a player."""
    fake = FakeDiscord()
    tables = []
    for shard in range(guild_shards):
        guild = fake.add_guild(f"Club {shard}", shard=(shard, guild_shards))
        player = fake.add_user(f"player{shard}")
        guild.add_member(player)
        tables.append(Table(shard, guild.add_text_channel(f"games-{shard}"), player))
    return fake, tables


def database_env(database: Path | str) -> dict[str, str]:
    """Where the processes keep their shared database: a PostgreSQL URL or a SQLite file."""
    if is_postgres(database):
        return {"DATABASE_URL": str(database)}
    return {"DATABASE_PATH": str(database)}


def alive(pid: int) -> bool:
    """Whether a process (not necessarily our child) runs: it exists and is no zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class Launcher:
    """``python -m bot.cluster`` with its log (and its processes' logs) in one file."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log
        self.expect_status = 0
        """The launcher's exit status the test expects (after SIGTERM: 0)."""

    def started(self) -> list[tuple[str, int]]:
        """(shard range, pid) of every process started so far, in order."""
        return [(m[1], int(m[3])) for m in STARTED.finditer(self.log.read_text(errors="replace"))]

    def pid_of(self, shards: str) -> int:
        return [pid for name, pid in self.started() if name == shards][-1]

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@contextlib.asynccontextmanager
async def launcher(fake: FakeDiscord, tmp_path: Path, database: Path | str, *args: str,
                   shard_count: int, **env: str) -> AsyncIterator[Launcher]:
    """Start the launcher, wait for every shard; SIGTERM at the end (status 0 expected)."""
    environment = bot_process_env({**fake.bot_env(), "COMPUTER_DELAY": "0.05",
                                   "RENDER_PROCESSES": "0", "SHARD_COUNT": str(shard_count),
                                   **env}, tmp_path)
    environment.pop("DATABASE_PATH", None)
    environment.update(database_env(database))
    log = tmp_path / f"cluster-{len(list(tmp_path.glob('cluster-*.log')))}.log"
    since = len(fake.gateway.sessions)
    with open(log, "wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cluster", *args, env=environment, cwd=tmp_path,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out)
    running = Launcher(process, log)
    try:
        await fake.wait_until_ready(timeout=60, shards=range(shard_count),
                                    shard_count=shard_count, since_session=since)
        yield running
    except BaseException:
        print(running.tail())
        raise
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), 60)
    assert process.returncode == running.expect_status, running.tail()


async def open_game(fake: FakeDiscord, store: Store, table: Table) -> None:
    """``/straight new`` with a computer, started; the person moves first or soon."""
    lobby = await (await fake.slash(table.player, "/straight new", channel=table.channel,
                                    computers=1, turn_seconds=0, target=500,
                                    seed=100 + table.shard)).reply()
    await (await fake.click(table.player, lobby, "Start")).response()
    row = await store.open_game_in_channel(table.channel.id)
    assert row is not None and row.status == "running"
    table.game_id = row.id


async def saved(store: Store, table: Table) -> StraightGame:
    row = await store.get_game(table.game_id)
    assert row is not None and row.state is not None
    table.acknowledged = row.move_count
    return StraightGame.from_json(row.state)


async def play(fake: FakeDiscord, store: Store, table: Table, *, turns: int) -> None:
    """Play the person's seat (seat 0) for ``turns`` whole turns, then draw once more:
    the game is left mid-turn, the draw acknowledged."""
    rng = random.Random(table.shard)
    finished = 0
    for _ in range(400):
        game = await saved(store, table)
        if game.to_move != 0:
            await asyncio.sleep(0.02)  # the computer's turn, in the owning process
            continue
        move = choose_move(game, 0, rng)
        if isinstance(move, Draw) and finished == turns:
            break
        await move_and_check(fake, store, table, move)
        finished += isinstance(move, Discard)
    else:
        raise AssertionError("the game did not reach the planned turn")
    await move_and_check(fake, store, table, move)
    assert (await saved(store, table)).phase == "play"  # drawn: mid-turn


async def move_and_check(fake: FakeDiscord, store: Store, table: Table, move) -> str:
    """Send the person's move as a slash command; it is saved before the answer comes."""
    before = table.acknowledged
    name, options = slash_command("straight", move)
    answer = await (await fake.slash(table.player, name, channel=table.channel,
                                     **options)).reply()
    await saved(store, table)
    assert answer.ephemeral and table.acknowledged > before, answer.text
    return answer.text


async def quiet(fake: FakeDiscord, store: Store, tables: list[Table]) -> None:
    """Until every game's channel and DMs are published and the bot noted so."""

    async def noted() -> bool:
        for table in tables:
            row = await store.get_game(table.game_id)
            assert row is not None and row.state is not None
            game = StraightGame.from_json(row.state)
            turn = await turn_message(fake, table.channel)
            dm = row.published.get("dms", {}).get(str(table.player.id), [0, ""])
            if (row.turn_message_id != turn.id or row.published.get("serial") != game.turn_serial
                    or dm[1] != hand_key(game.hand(0)) or len(fake.dms(table.player)) != 1):
                return False
        return True

    for _ in range(500):
        if await noted():
            await fake.settle()
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the bots never finished publishing")


def shown(fake: FakeDiscord, tables: list[Table]) -> list[tuple[int, int]]:
    """How many public messages each channel has, and DMs each player got."""
    return [(len(fake.channel_messages(t.channel)), len(fake.dms(t.player))) for t in tables]


def turn_of(fake: FakeDiscord, table: Table) -> Message:
    message = fake.find_message(lambda m: "My hand" in m.button_labels, channel=table.channel)
    assert message is not None
    return message


async def finish_turn(fake: FakeDiscord, store: Store, table: Table) -> None:
    """The person discards (ending the turn begun before), then the computer moves."""
    game = await saved(store, table)
    assert game.to_move == 0 and game.phase == "play"  # the draw survived
    before = table.acknowledged
    move = choose_move(game, 0, random.Random(table.shard))
    while not isinstance(move, Discard):  # meld or lay off first, as the computer would
        await move_and_check(fake, store, table, move)
        game = await saved(store, table)
        move = choose_move(game, 0, random.Random(table.shard))
    assert "discarded" in await move_and_check(fake, store, table, move)
    for _ in range(500):  # the computer (in the process that owns the game now) answers
        game = await saved(store, table)
        if game.to_move == 0 and table.acknowledged >= before + 3:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"the computer never moved in {table.channel.name}")


async def claimed_by(store: Store, shard_count: int) -> dict[int, int]:
    """Shard id → the pid of the process whose claim on it is the newest."""
    owners = {}
    for claim in await store.shard_claims_after(0):
        if claim.shard_count == shard_count:
            owners[claim.shard_id] = int(claim.owner.split(":")[-2])
    return owners


def assert_dms_carry_no_components(fake: FakeDiscord, tables: list[Table]) -> None:
    """DMs reach shard 0 only, which may be another process: no button may live there."""
    for table in tables:
        assert all(not m.components for m in fake.dms(table.player))


async def test_launcher_refuses_when_todays_session_starts_are_too_few(tmp_path: Path) -> None:
    fake = FakeDiscord(shards=4, session_starts_remaining=3)
    async with fake:
        env = bot_process_env(fake.bot_env(), tmp_path)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cluster", "--processes", "2", env=env, cwd=tmp_path,
            stderr=asyncio.subprocess.PIPE)
        _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert stderr.decode().strip().splitlines() == [
        "error: Discord allows 3 more session start(s) today and starting 4 shard(s) needs 4; "
        "the limit resets in 24 h 0 min"]
    assert fake.gateway.identifies == 0


@pytest.mark.parametrize(("env", "args", "message"), [
    ({"SHARD_COUNT": "2"}, ["--processes", "3"], "--processes 3 is more than the 2 shard(s)"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, ["--processes", "2"],
     "SHARD_IDS is for one process"),
    ({"DISCORD_TOKEN": "AAAA.BBBB.CCCC"}, [], "Discord refused DISCORD_TOKEN"),
])
async def test_launcher_refusals_are_one_line(tmp_path: Path, env: dict[str, str],
                                              args: list[str], message: str) -> None:
    async with FakeDiscord() as fake:
        environment = bot_process_env({**fake.bot_env(), **env}, tmp_path)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cluster", *args, env=environment, cwd=tmp_path,
            stderr=asyncio.subprocess.PIPE)
        _, stderr = await asyncio.wait_for(process.communicate(), 30)
        fake.take_problems(kind="refused")
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2 and len(lines) == 1 and message in lines[0], lines


async def test_a_process_failing_at_every_start_stops_the_cluster(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        environment = bot_process_env(fake.bot_env(), tmp_path)
        environment["DATABASE_PATH"] = str(tmp_path)  # a directory: every start fails
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cluster", "--restart-delay", "0.05", "--max-restarts",
            "2", env=environment, cwd=tmp_path, stderr=asyncio.subprocess.PIPE)
        _, stderr = await asyncio.wait_for(process.communicate(), 120)
    log = stderr.decode()
    assert process.returncode == 1
    assert len(STARTED.findall(log)) == 3 and log.count("restarting it in") == 2
    assert "shards 0 of 1 exited 3 times in a row" in log and "rather than restarting it" in log


async def test_the_processes_stop_when_the_launcher_is_killed(tmp_path: Path) -> None:
    fake, _ = cluster_world(2)
    async with fake, launcher(fake, tmp_path, tmp_path / "rummy.sqlite3", "--processes", "2",
                              shard_count=2) as cluster:
        pids = [pid for _, pid in cluster.started()]
        assert all(alive(pid) for pid in pids)
        cluster.process.send_signal(signal.SIGKILL)
        await cluster.process.wait()
        await fake.wait_until(lambda: not any(alive(pid) for pid in pids), timeout=60,
                              what=f"bot processes {pids} to stop after their launcher died")
        cluster.expect_status = -signal.SIGKILL


async def test_a_killed_process_is_restarted_and_every_game_carries_on(
        tmp_path: Path, postgres_url: str) -> None:
    fake, tables = cluster_world(4)
    async with fake, await Store.open(postgres_url) as store:
        async with launcher(fake, tmp_path, postgres_url, "--processes", "2", "--restart-delay",
                            "0.2", shard_count=4) as cluster:
            assert [name for name, _ in cluster.started()] == ["0-1", "2-3"]
            for table in tables:
                await open_game(fake, store, table)
                await play(fake, store, table, turns=2)
            await quiet(fake, store, tables)
            before = shown(fake, tables)
            acknowledged = [t.acknowledged for t in tables]
            victim = cluster.pid_of("0-1")
            sessions = len(fake.gateway.sessions)

            os.kill(victim, signal.SIGKILL)
            await fake.wait_until_ready(timeout=60, shards=(0, 1), shard_count=4,
                                        since_session=sessions)
            assert cluster.pid_of("0-1") != victim and len(cluster.started()) == 3
            first, second = cluster.pid_of("0-1"), cluster.pid_of("2-3")
            assert await claimed_by(store, 4) == {0: first, 1: first, 2: second, 3: second}
            for table in tables[:2]:  # the restarted process tells so on the same message
                await fake.wait_until(lambda t=table: "restarted" in turn_of(fake, t).text,
                                      timeout=20)
            await fake.settle()
            assert shown(fake, tables) == before  # nothing posted again
            for table in tables:
                await saved(store, table)
            assert [t.acknowledged for t in tables] == acknowledged  # nothing lost

            for table in tables:  # every game carries on, in whichever process owns it now
                await finish_turn(fake, store, table)
                await play(fake, store, table, turns=1)
            assert_dms_carry_no_components(fake, tables)
        await fake.settle()
    fake.assert_clean()  # no identify limit broken, no interaction unanswered


async def test_a_reshard_from_2_to_4_shards_carries_every_game_to_its_new_owner(
        tmp_path: Path, postgres_url: str) -> None:
    fake, tables = cluster_world(4)
    async with fake, await Store.open(postgres_url) as store:
        async with launcher(fake, tmp_path, postgres_url, "--processes", "2",
                            shard_count=2) as old:
            assert [name for name, _ in old.started()] == ["0", "1"]
            for table in tables:
                await open_game(fake, store, table)
                await play(fake, store, table, turns=1)
            await quiet(fake, store, tables)
            acknowledged = [t.acknowledged for t in tables]
        async with launcher(fake, tmp_path, postgres_url, "--processes", "2",
                            shard_count=4) as new:
            assert [name for name, _ in new.started()] == ["0-1", "2-3"]
            for table in tables:
                await saved(store, table)
            assert [t.acknowledged for t in tables] == acknowledged
            for table in tables:
                await finish_turn(fake, store, table)
                await play(fake, store, table, turns=1)
            owners = await claimed_by(store, 4)  # each game's guild is on its new owner's shard
            for table in tables:
                assert table.channel.guild is not None
                shard = shard_of(table.channel.guild.id, 4)
                assert owners[shard] == new.pid_of("0-1" if shard < 2 else "2-3")
            assert_dms_carry_no_components(fake, tables)
        await fake.settle()
    fake.assert_clean()
