"""Bench: the real bot under load, driven through the fake Discord on loopback.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/bot_load.py [--games 100] [--rates 20,100,200] [--seconds 20]
    .venv/bin/python bench/bot_load.py --backends sqlite,postgres,postgres-x2  # (the default)
    .venv/bin/python -m bench.bot_load --games 10 --rates 10 --seconds 5 --saturated-seconds 5
    .venv/bin/python bench/bot_load.py --in-process          # one process; tracemalloc memory
    .venv/bin/python bench/bot_load.py --py-spy /tmp/bot.txt  # profile the saturated phase

Targets (2-core machine): interaction→response p99 ≤ 100 ms with 100
concurrent games, ≥ 200 durable moves/s, ≤ 100 KB per idle game.

Columns. ``--backends`` runs the whole bench once per column, in turn, in one
run, and ends with the columns side by side: ``sqlite`` (SQLite ×1: one bot
process on a SQLite file), ``postgres`` (PostgreSQL ×1: one bot process with
``DATABASE_URL`` set to a new database on ``TEST_DATABASE_URL``'s server,
default the local service, dropped afterwards) and ``postgres-x2``
(PostgreSQL ×2: two bot processes, see below). A column is one entry of
:data:`COLUMNS`. Each column also measures **the database's own time per
move**: on PostgreSQL the server's ``pg_stat_database.active_time`` of the
bot's database over the window (every statement the bot ran, commits included,
as the server timed them; the server reports it at most once a second per
connection, so a window's edges blur by about a second), divided by the
durable moves; on SQLite, which runs inside the bot, the CPU of the bot
process's threads other than its event loop (the aiosqlite thread does every
SQLite call; pictures are drawn in the render worker process, so with
``--render-processes 0`` this figure is not the database's and is not shown).
``postgres-nosync`` (not a default) is PostgreSQL ×1 with
``synchronous_commit=off`` on the bot's connections: the difference to
``postgres`` is what waiting for the WAL flush of each commit costs.

Two modes.

``--bot-process`` (the default) runs the bot as deployed: ``python -m bot``
in its own process, configured only by its environment (``fake.bot_env()``:
``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``; plus
``DATABASE_PATH`` in a temporary directory or ``DATABASE_URL``, ``COMPUTER_DELAY``,
``RENDER_PROCESSES``, ``LOG_LEVEL=WARNING``; started in that directory, so no
``.env`` is read), like ``tests/test_bot_process.py`` does. The fake Discord
(HTTP server, websocket, multipart parsing, recording) and this driver
(deciding moves with the computer player) run in this process, so they no
longer share the bot's GIL or event loop: the latencies and the ceiling are
the bot's own as deployed, which is why this is the default. On a 2-core
machine they still share the cores with the bot and its render worker (three
busy processes, two cores), so each phase prints every process's CPU: when
the sum nears 2.00 the machine, not the bot's event loop, is the limit, and
the ceiling is a lower bound for a machine of the bot's own. It ends the bot
with SIGTERM and checks that it exits with 0. The bot's log (stderr) goes to
a file; its warnings and errors are counted (not discord.py's "voice will
NOT be supported").

A column of N processes (``postgres-x2``: PostgreSQL ×2; ``sqlite-x2``, not a
default) runs ``python -m bot.cluster --processes N`` with ``SHARD_COUNT=N``
instead: N bot processes, a shard each, on the one database, as
the README's "Running for many servers" deploys them. The world then has a guild on each shard,
the tables dealt among them in turn, and a warm-up game in each guild (each
process warms its own caches). CPU and RSS of "bot" add up the bot processes;
the launcher and render workers are listed apart.

``--in-process`` runs the bot in this process (``tests.bot_harness.
running_bot``): the fake, the bot and this driver share one event loop and
its GIL, so **every figure includes the fake's own cost** and the driver's.
Useful for profiling with tracemalloc (the memory per idle game below) or
cProfile, and for comparing with earlier runs.

Set-up. One :class:`FakeDiscord` with one guild, ``--games`` text channels
and two members per channel; a new database (per column).

Games. Each channel holds a two-player Straight match (``/straight new
hands=1 turn_seconds=0``, the guest clicks Join, the host clicks Start). By
default both seats are people (``--opponent human``): every move is then a
slash command whose latency is measured, nothing waits on the bot's
``computer_delay``, and each move costs the bot its full work (the mover's
answer, the hand DM, the channel's turn message). ``--opponent computer``
seats one computer instead (its moves are durable moves too, but not
commands). When a match ends a new one opens in the same channel, so
``--games`` matches are always running.

Moves. One driver task per channel reads the game's state, picks the mover's
move with ``bot.ai.straight.choose_move`` and sends it as the slash command a
person would type (``/straight draw|meld|layoff|discard``); one command in
flight per game.

- Where the state comes from. In process mode, from the bot's database,
  which the bot writes (move and state in one transaction) *before* it
  answers: a read-only connection (SQLite: ``file:…?mode=ro``; WAL, so reading
  never blocks the bot's writer; PostgreSQL: psycopg, autocommit) finds the
  channel's open game (``games`` where ``status`` is lobby or running, the
  one-per-channel index), rebuilds it with ``StraightGame.from_json``, and maps
  seats to people with the ``seats`` table. Every statement is read to the end, so no read
  transaction stays open on an old snapshot. Once a command is answered,
  its move is in the database; whether it moved is ``games.move_count``.
  In-process, from ``bot.controller.sessions``.
- Waiting for the bot. A computer's move (``--opponent computer``): poll
  ``move_count`` every 20 ms (in-process: the session). A finished game: the
  bot closes it only after posting the final message (the one with the
  Rematch button), so the driver waits until the channel's last public
  message has it (polled every 50 ms), and asks again if the bot still
  answers "This channel already has a game" (in-process: until the session
  is gone). That final message waits for its pictures behind every picture
  asked before it (one FIFO queue of render work), so an overloaded bot holds
  a finished game's channel for many seconds: the driver waits until the
  phase ends (+25 s) and each phase prints how long finished games took to
  free their channel, and how many were still held when it ended (and whether
  they were freed once publishing settled), instead of counting them as
  tables that "could not open their next game" after a fixed 30 s.
  "Everything published" (before measuring idle memory and
  between phases): in process mode the fake saw no request from the bot
  for 0.5 s (every picture and DM is a request); in-process, no publishing
  task at work.

Latency comes from the fake's own timestamps: from building and dispatching
the INTERACTION_CREATE (``InteractionRecord.created_at``) to accepting the
bot's initial callback (``Callback.at``). The bot answers a move after
committing it, so this includes the durable write. An answer later than
Discord's 3 s is refused by the fake: it counts as a failed command, i.e. an
infinite latency, in the percentiles. The driver waits for answers through
one waiter on the fake's notifier (not one per interaction, which would cost
O(games) per change), so the harness's own cost stays flat with the number
of games.

Phases.

1. Memory per idle game. After a warm-up game in a spare channel (fonts,
   caches, lazy imports), open all games (ten at a time) and let them go
   idle (started, a person to move, every picture and DM published). In
   process mode: the bot process's RSS (``VmRSS``) before and after, divided
   by the number of games; the render workers' RSS separately (their
   caches, not the games' state). In-process: RSS growth over the first
   ``games - traced`` openings (bot + fake + driver, so an upper bound), and
   ``tracemalloc`` (25 frames; it slows everything several times, so only
   over the last ``--traced`` openings, two at a time) for the Python heap
   kept: all of it, and the bot's share, without the allocations that have
   the fake's code in their traceback.
2. Paced, once per ``--rates`` value: the games together offer that many
   commands/s (each game one command every ``games / rate`` s, staggered, on
   a fixed schedule) for ``--seconds``. Latency at that load, and whether the
   bot keeps up. 10/s is about people's pace (a command per game every 10 s),
   40/s where one render worker on two cores is about busy, 200/s the target
   throughput.
3. Saturated: every game sends its next command as soon as the last one was
   answered, for ``--saturated-seconds``: the ceiling in durable moves/s.
   ``--py-spy FILE`` records the bot process (and its render workers) with
   ``py-spy record --subprocesses -f raw`` over this phase and prints where
   its time goes.

Durable moves/s counts rows of the ``moves`` table committed during the
window, divided by the window; the bot writes each move (WAL,
``synchronous=NORMAL``) before answering it. CPU over each window: in process
mode the bot process's (``/proc/<pid>/stat`` utime + stime, all threads) and
each render worker's, and this process's (fake + driver) separately;
in-process, this one process. Each phase also prints the HTTP requests the
bot made per move, by route. The last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import gc
import json
import logging
import math
import os
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import discord

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import (
    Profile,
    Spread,
    cpu_of,
    descendants,
    load_average,
    machine_busy_seconds,
    percentile,
    postgres_database,
    process_cpu_seconds,
    process_label,
    process_rss,
    rss_bytes,
    verdict,
)
from bot.ai.straight import choose_move
from bot.app import RummyBot
from bot.config import default_render_processes
from bot.engine.game import Game
from bot.engine.variants.straight import StraightGame
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.e2e_helpers import slash_command
from tests.fakediscord import Channel, FakeDiscord, InteractionRecord, User
from tests.test_bot_process import bot_process_env

T = TypeVar("T")
TARGET_P99_MS = 100.0
TARGET_MOVES_PER_S = 200.0
TARGET_IDLE_BYTES = 100 * 1024
ANSWER_TIMEOUT = 10.0
START_TIMEOUT = 60.0
"""Seconds for ``python -m bot`` to connect and sync its commands."""
QUIET_SECONDS = 0.5
"""Process mode: no request from the bot for this long means it has published everything."""
ROOT = Path(__file__).resolve().parent.parent
FAKE_CODE = "*/tests/fakediscord/*"
"""Allocations with this code anywhere in their traceback are the fake's, not the bot's."""
VOICE_NOTE = "voice will NOT be supported"
"""discord.py's start-up warning about optional voice packages: not the bot's problem."""
PROJECT = ("bot", "cogs", "cardart")
LOOP_THREAD = "event loop thread"
SAMPLE_RATE = 100
"""py-spy samples per second."""


class Watch:
    """Futures resolved when conditions (over the fake or the bot) come true.

    One task waits on the fake's notifier (re-checked on every change and every
    50 ms) and checks every registered condition, instead of one notifier
    waiter per pending interaction, which would cost O(games) per change.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.items: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self.task: asyncio.Task[None] | None = None
        self.stopping = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="bench-watch")

    async def stop(self) -> None:
        self.stopping = True  # Python 3.11's wait_for can swallow a cancel: the loop checks this
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def until(self, condition: Callable[[], T | None], timeout: float) -> T:
        """``condition()`` once it is truthy; raises TimeoutError after ``timeout`` s."""
        value = condition()
        if value:
            return value
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.items.append((condition, future))
        return await asyncio.wait_for(future, timeout)

    def _check(self) -> bool:
        keep = []
        for condition, future in self.items:
            if future.done():
                continue
            try:
                value = condition()
            except Exception as error:  # handed to the waiter
                future.set_exception(error)
                continue
            if value:
                future.set_result(value)
            else:
                keep.append((condition, future))
        self.items = keep
        return False

    async def _run(self) -> None:
        while not self.stopping:
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_until(self._check, timeout=1.0)


async def poll(condition: Callable[[], Awaitable[T | None]], timeout: float,
               every: float) -> T:
    """``await condition()`` once it is truthy, checked every ``every`` s; TimeoutError
    after."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := await condition()):
        if loop.time() >= deadline:
            raise TimeoutError
        await asyncio.sleep(every)
    return value


class LogCount(logging.Handler):
    """Counts warnings and errors the bot (or discord.py) logs; keeps the first few."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if VOICE_NOTE in text:
            return
        self.count += 1
        if len(self.first) < 3:
            self.first.append(f"{record.levelname} {record.name}: {text[:160]}")


@dataclass
class Table:
    """One channel, its two players (``None`` for a computer seat) and the driver's dice."""

    index: int
    channel: Channel
    players: list[User | None]
    rng: random.Random
    games: int = 0
    """Games opened here so far."""

    def user(self, user_id: int | None) -> User | None:
        return next((p for p in self.players if p is not None and p.id == user_id), None)


@dataclass
class Seen:
    """A channel's open game as the driver sees it."""

    game_id: int
    status: str
    """``lobby`` or ``running`` (in-process also ``finished`` until the session closes)."""
    game: Game | None
    moves: int
    """Moves saved so far (``games.move_count``)."""
    users: list[int | None]
    """The person in each seat (``None``: a computer)."""
    session: Session | None = None
    """In-process only: the bot's live session."""


# -- the bot under test: in this process, or as its own -------------------------------


@dataclass(frozen=True)
class Column:
    """One way of running the bot, measured in its own turn and shown side by side."""

    name: str
    backend: str
    """``sqlite`` or ``postgres``."""
    settings: str = ""
    """PostgreSQL: server settings for the bot's connections, as ``DATABASE_URL``'s query."""
    processes: int = 1
    """Bot processes: 1 runs ``python -m bot``; more run ``python -m bot.cluster``, a shard
    each, with a guild on each shard."""


COLUMNS = {
    "sqlite": Column("SQLite ×1", "sqlite"),
    "postgres": Column("PostgreSQL ×1", "postgres"),
    "postgres-x2": Column("PostgreSQL ×2", "postgres", processes=2),
    # Two processes on one SQLite file: correct (WAL, BEGIN IMMEDIATE), but their writes
    # queue on the file's lock. Not a default column.
    "sqlite-x2": Column("SQLite ×2", "sqlite", processes=2),
    # Where PostgreSQL's time per move goes: the same without waiting for the WAL flush at
    # each commit (a move is then safe from the bot's crash, as on SQLite with
    # synchronous=NORMAL, but not from the database server's). Not a default column.
    "postgres-nosync": Column("PostgreSQL ×1 unflushed", "postgres",
                              "synchronous_commit=off"),
}
"""The columns ``--backends`` chooses from."""
DEFAULT_COLUMNS = ["sqlite", "postgres", "postgres-x2"]


class Database:
    """The bot's database as the driver reads it: a SQLite file's path or a PostgreSQL URL.

    Queries use ``?`` placeholders (numbered for asyncpg). SQLite is read in place
    (a local file: microseconds); PostgreSQL over asyncpg, so that a read waiting for
    the server never holds up the fake Discord, which shares this event loop."""

    def __init__(self, target: Path | str) -> None:
        self.target = target
        self._sqlite: sqlite3.Connection | None = None
        self._postgres: asyncpg.Pool | None = None

    @property
    def postgres(self) -> bool:
        return isinstance(self.target, str)

    async def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Every row (read to the end, so no read transaction stays open on a snapshot)."""
        if isinstance(self.target, str):
            if self._postgres is None:
                self._postgres = await asyncpg.create_pool(self.target, min_size=1, max_size=4)
            pieces = sql.split("?")
            numbered = pieces[0] + "".join(f"${i}{piece}" for i, piece in enumerate(pieces[1:], 1))
            return list(await self._postgres.fetch(numbered, *params))
        if self._sqlite is None:  # opened once the bot has made the file
            self._sqlite = sqlite3.connect(f"{self.target.as_uri()}?mode=ro", uri=True,
                                           timeout=5)
        return self._sqlite.execute(sql, params).fetchall()

    async def server_stats(self) -> tuple[float, int] | None:
        """PostgreSQL: seconds the server spent running this database's statements so far
        (``pg_stat_database.active_time``) and transactions committed; SQLite has no
        server (``None``)."""
        if not self.postgres:
            return None
        rows = await self.query("SELECT active_time, xact_commit FROM pg_stat_database"
                                " WHERE datname = current_database()")
        return float(rows[0][0]) / 1000, int(rows[0][1])

    async def server_processes(self) -> tuple[list[int], list[int]]:
        """PostgreSQL on this machine: pids of the backends serving the bot's database
        (the driver's included) and of the server's shared processes (WAL writer,
        checkpointer, …); SQLite: none."""
        if not self.postgres:
            return [], []
        rows = await self.query("SELECT pid, datname = current_database() FROM"
                                " pg_stat_activity WHERE datname = current_database()"
                                " OR datname IS NULL")
        return [pid for pid, ours in rows if ours], [pid for pid, ours in rows if not ours]

    async def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._postgres is not None:
            await self._postgres.close()
        self._sqlite = self._postgres = None


class BotUnderTest:
    """What the driver needs from the bot, wherever it runs."""

    label = ""

    def __init__(self, fake: FakeDiscord, database: Database) -> None:
        self.fake = fake
        self.database = database

    async def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return await self.database.query(sql, params)

    async def close_db(self) -> None:
        await self.database.close()

    async def durable_moves(self) -> int:
        """Rows in the moves table (committed transactions only; WAL lets us read alongside)."""
        return int((await self.query("SELECT count(*) FROM moves"))[0][0])

    async def seen(self, table: Table) -> Seen | None:
        raise NotImplementedError

    async def moves(self, seen: Seen) -> int:
        raise NotImplementedError

    async def wait_moved(self, seen: Seen, timeout: float) -> None:
        """Until the game has moved on from ``seen`` (a computer's move)."""
        raise NotImplementedError

    async def wait_closed(self, table: Table, timeout: float) -> None:
        """Until the bot has closed the table's finished game (it can open another)."""
        raise NotImplementedError

    async def published(self, watch: Watch, timeout: float) -> None:
        """Until the bot has published everything (channel and DMs)."""
        raise NotImplementedError


class InProcessBot(BotUnderTest):
    label = "fake Discord, bot and driver in one process"

    def __init__(self, fake: FakeDiscord, database: Database, bot: RummyBot,
                 watch: Watch) -> None:
        super().__init__(fake, database)
        self.bot = bot
        self.watch = watch

    def session(self, table: Table) -> Session | None:
        return self.bot.controller.sessions.in_channel(table.channel.id)

    async def seen(self, table: Table) -> Seen | None:
        session = self.session(table)
        if session is None:
            return None
        return Seen(session.game_id, session.status, session.game, session.moves,
                    [None if s.is_computer else s.user_id for s in session.seats], session)

    async def moves(self, seen: Seen) -> int:
        assert seen.session is not None
        return seen.session.moves

    async def wait_moved(self, seen: Seen, timeout: float) -> None:
        session = seen.session
        assert session is not None
        await self.watch.until(lambda: session.game is not seen.game, timeout)

    async def wait_closed(self, table: Table, timeout: float) -> None:
        if self.session(table) is not None:
            await self.watch.until(lambda: self.session(table) is None, timeout)

    async def published(self, watch: Watch, timeout: float) -> None:
        tasks = self.bot.controller.publisher.tasks
        await watch.until(lambda: all(t.done() for t in tasks.values()), timeout)


class ProcessBot(BotUnderTest):
    """``python -m bot``, seen through its database and the fake."""

    label = "bot in its own process (python -m bot); fake Discord and driver in this one"

    def __init__(self, fake: FakeDiscord, database: Database,
                 process: asyncio.subprocess.Process,
                 log_path: Path, launcher: bool = False) -> None:
        super().__init__(fake, database)
        self.process = process
        self.pid = process.pid
        self.root_label = "launcher" if launcher else "bot"
        """What ``pid`` runs: ``python -m bot``, or ``python -m bot.cluster`` (whose
        children are the bot processes)."""
        self.log_path = log_path
        self._seats: dict[int, list[int | None]] = {}
        self._parsed: dict[int, tuple[int, int, Game]] = {}
        """Per channel: the game id, move count and game last rebuilt (no re-parsing)."""
        self.read_seconds = 0.0
        """Time spent reading and rebuilding states (the driver's cost)."""

    async def seen(self, table: Table) -> Seen | None:
        started = time.perf_counter()
        try:
            rows = await self.query("SELECT id, status, move_count, CAST(state AS TEXT) FROM games "
                              "WHERE channel_id = ? AND status IN ('lobby', 'running')",
                              (table.channel.id,))
            if not rows:
                return None
            game_id, status, moves, state = rows[0]
            cached = self._parsed.get(table.channel.id)
            game: Game | None = None
            if cached is not None and cached[:2] == (game_id, moves):
                game = cached[2]
            elif state is not None:
                game = StraightGame.from_json(json.loads(state))
                self._parsed[table.channel.id] = (game_id, moves, game)
            users = self._seats.get(game_id) if status == "running" else None
            if users is None:
                users = [None if computer else user_id for _, user_id, computer in await self.query(
                    "SELECT seat, user_id, is_computer FROM seats WHERE game_id = ? "
                    "ORDER BY seat", (game_id,))]
                if status == "running":  # seats are final once the game starts
                    self._seats[game_id] = users
            return Seen(game_id, status, game, moves, users)
        finally:
            self.read_seconds += time.perf_counter() - started

    async def moves(self, seen: Seen) -> int:
        rows = await self.query("SELECT move_count FROM games WHERE id = ?", (seen.game_id,))
        return int(rows[0][0]) if rows else seen.moves

    async def wait_moved(self, seen: Seen, timeout: float) -> None:
        async def moved() -> bool:
            return await self.moves(seen) != seen.moves

        await poll(moved, timeout, 0.02)

    def final_shown(self, table: Table) -> bool:
        """The channel's last public message is a final one (with the Rematch button)."""
        for message in reversed(self.fake.world.messages.values()):
            if message.channel is table.channel and not message.ephemeral:
                return "Rematch" in message.button_labels
        return False

    async def wait_closed(self, table: Table, timeout: float) -> None:
        if table.games:
            async def shown() -> bool:
                return self.final_shown(table)

            await poll(shown, timeout, 0.05)

    async def published(self, watch: Watch, timeout: float) -> None:
        requests = self.fake.recorder.requests
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        count, since = len(requests), loop.time()
        while loop.time() - since < QUIET_SECONDS:
            if loop.time() >= deadline:
                raise TimeoutError
            await asyncio.sleep(0.1)
            if len(requests) != count:
                count, since = len(requests), loop.time()

    # -- the process --------------------------------------------------------------

    def processes(self) -> dict[int, str]:
        """The bot process and its descendants (render workers, resource tracker)."""
        found = {self.pid: self.root_label}
        for pid in descendants(self.pid):
            found[pid] = process_label(pid)
        return found

    def bot_rss(self, sizes: dict[int, tuple[str, int]]) -> int:
        """The bot processes' RSS together (one, or a cluster's)."""
        return sum(size for label, size in sizes.values() if label == "bot")

    def cpu(self) -> dict[int, tuple[str, float]]:
        """CPU seconds so far of the bot, its event loop (main) thread (key ``-pid``) and
        each of its descendants."""
        seconds = {}
        for pid, label in self.processes().items():
            with contextlib.suppress(OSError):
                seconds[pid] = (label, process_cpu_seconds(pid))
                if label == "bot":
                    seconds[-pid] = (LOOP_THREAD, process_cpu_seconds(pid, pid))
        return seconds

    def rss(self) -> dict[int, tuple[str, int]]:
        sizes = {}
        for pid, label in self.processes().items():
            with contextlib.suppress(OSError):
                sizes[pid] = (label, process_rss(pid))
        return sizes

    def check_alive(self) -> None:
        if self.process.returncode is not None:
            raise RuntimeError(f"the bot exited with {self.process.returncode}:\n"
                               f"{self.log_tail()}")

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def log_problems(self) -> list[str]:
        """Warning and error lines of the bot's log (discord.py's format), and tracebacks."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return []
        return [line for line in text.splitlines()
                if (re.search(r"\] \[(WARNING|ERROR|CRITICAL)", line) and VOICE_NOTE not in line)
                or line.startswith("Traceback")]


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, directory: Path, database: Path | str,
                      args: argparse.Namespace, processes: int = 1
                      ) -> AsyncIterator[ProcessBot]:
    """``python -m bot`` against the fake, configured by its environment; SIGTERM after.

    ``processes`` > 1: ``python -m bot.cluster --processes N`` with ``SHARD_COUNT=N``,
    one shard per process.
    """
    env = bot_process_env(fake.bot_env(), directory)
    env.update(COMPUTER_DELAY=str(args.computer_delay),
               RENDER_PROCESSES=str(args.render_processes), LOG_LEVEL="WARNING")
    if isinstance(database, str):
        env["DATABASE_URL"] = database
    else:
        env["DATABASE_PATH"] = str(database)
    command = ["-m", "bot"]
    if processes > 1:
        command = ["-m", "bot.cluster", "--processes", str(processes)]
        env["SHARD_COUNT"] = str(processes)
    log_path = directory / "bot.log"
    with open(log_path, "wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, *command, env=env, cwd=directory, stdin=asyncio.subprocess.DEVNULL,
            stdout=log, stderr=log)
    bot = ProcessBot(fake, Database(database), process, log_path, launcher=processes > 1)
    try:
        ready = asyncio.create_task(fake.wait_until_ready(commands=True, timeout=START_TIMEOUT))
        exited = asyncio.create_task(process.wait())
        await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            raise RuntimeError(f"python -m bot exited with {process.returncode} before it was "
                               f"ready:\n{bot.log_tail()}")
        ready.result()
        yield bot
    finally:
        await bot.close_db()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()
                print("the bot did not stop within 20 s of SIGTERM: killed")
        if process.returncode != 0:
            print(f"the bot exited with {process.returncode} after SIGTERM (expected 0):\n"
                  f"{bot.log_tail()}")
        else:
            print("the bot exited with 0 after SIGTERM")


# -- measuring ----------------------------------------------------------------------


@dataclass
class Phase:
    """What the drivers did during one measured window."""

    name: str
    interval: float | None
    """Seconds between one game's moves; ``None``: as soon as the last was answered."""
    end: float = 0.0
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    refused: int = 0
    unanswered: int = 0
    lobbies: int = 0
    decide_seconds: float = 0.0
    refusals: list[str] = field(default_factory=list)
    stalled: list[str] = field(default_factory=list)
    """Tables whose next game could not be opened."""
    closing: list[float] = field(default_factory=list)
    """Seconds from the driver seeing a game end to the bot's final message (channel free)."""
    held: list[Table] = field(default_factory=list)
    """Tables whose finished game was still unpublished, so still held, when the phase ended."""


@dataclass
class PhaseResult:
    phase: Phase
    games: int
    seconds: float
    cpu_seconds: float
    """This process's CPU (in-process: everything; else the fake and the driver)."""
    bot_cpu: list[tuple[str, float]] | None
    """Process mode: CPU seconds of the bot and of each of its descendants."""
    read_seconds: float
    """Process mode: the driver's time reading and rebuilding states."""
    durable: int
    routes: Counter[str]
    """HTTP requests the bot made to the fake during the window, by route."""
    uploaded: int
    """Bytes of files (pictures) in those requests."""
    held_later: str = ""
    """What became of the held tables once publishing settled after the phase."""
    server: tuple[float, int] | None = None
    """PostgreSQL: the server's time running the bot's statements during the window, and
    the transactions it committed (the driver's reads included)."""
    machine: float = math.nan
    """CPU seconds the whole machine was busy during the window (every process)."""
    postgres_cpu: tuple[float, float] = (0.0, 0.0)
    """PostgreSQL on this machine: CPU seconds of the bot database's backends, and of
    the server's shared processes (WAL writer, checkpointer…), during the window."""

    @property
    def durable_rate(self) -> float:
        return self.durable / self.seconds

    def cpu_ms_per_move(self) -> dict[str, float]:
        """Process mode: CPU milliseconds each part spent per durable move (with the
        machine's cores, what caps the rate where the machine is the limit)."""
        if self.bot_cpu is None:
            return {}
        moves = max(self.durable, 1)
        bot = sum(s for label, s in self.bot_cpu if label != LOOP_THREAD)
        postgres = sum(self.postgres_cpu)
        parts = {"bot and its workers": bot, "PostgreSQL": postgres,
                 "fake and driver": self.cpu_seconds}
        parts["all of them"] = sum(parts.values())
        return {part: seconds * 1000 / moves for part, seconds in parts.items()}

    def others_cores(self) -> float:
        """Cores other processes on the machine used during the window."""
        ours = self.cpu_ms_per_move().get("all of them", 0.0) * max(self.durable, 1) / 1000
        return max(self.machine - ours, 0.0) / self.seconds

    def database_ms_per_move(self, render_processes: int) -> tuple[float, str]:
        """The database's own time per durable move (ms), and what it is."""
        moves = max(self.durable, 1)
        if self.server is not None:
            seconds, commits = self.server
            return seconds * 1000 / moves, (f"PostgreSQL active time; {commits / moves:.1f} "
                                            "transactions per move, the driver's reads included")
        if self.bot_cpu is None or render_processes == 0:
            return math.nan, "not measured (in-process, or pictures drawn in threads)"
        others = sum(s for label, s in self.bot_cpu if label == "bot") - sum(
            s for label, s in self.bot_cpu if label == LOOP_THREAD)
        return others * 1000 / moves, "CPU of the bot's non-loop threads (aiosqlite)"

    @property
    def offered(self) -> float:
        return self.games / self.phase.interval if self.phase.interval else math.nan

    @property
    def latency(self) -> Spread:
        return Spread.of(self.phase.latencies)

    @property
    def bot_cores(self) -> float:
        """The bot's main process(es), in cores (in-process: this whole process)."""
        if self.bot_cpu is None:
            return self.cpu_seconds / self.seconds
        return sum(s for label, s in self.bot_cpu if label == "bot") / self.seconds


class LoadBench:
    def __init__(self, fake: FakeDiscord, bot: BotUnderTest, watch: Watch, tables: list[Table],
                 args: argparse.Namespace) -> None:
        self.fake = fake
        self.bot = bot
        self.tables = tables
        self.args = args
        self.watch = watch

    # -- games --------------------------------------------------------------------

    async def open_game(self, table: Table) -> None:
        """``/straight new``, Join (two people), Start; returns once the game runs."""
        host, guest = table.players
        assert host is not None
        computers = 1 if guest is None else 0
        for attempt in range(50):
            table.games += 1
            opened = await self.fake.slash(host, "/straight new", channel=table.channel,
                                           hands=self.args.hands_per_game, turn_seconds=0,
                                           computers=computers,
                                           seed=self.args.seed + 1000 * table.index + table.games)
            lobby = await opened.reply(timeout=ANSWER_TIMEOUT)
            if "Start" in lobby.button_labels:
                break
            if "already has a game" not in lobby.text or attempt == 49:
                raise RuntimeError(f"no lobby: {lobby.text[:120]}")
            await asyncio.sleep(0.05)  # the last game is still closing
        if guest is not None:
            await self.answered(await self.fake.click(guest, lobby, "Join"))
        await self.answered(await self.fake.click(host, lobby, "Start"))
        seen = await self.bot.seen(table)
        assert seen is not None and seen.status == "running", "the game did not start"

    async def answered(self, inter: InteractionRecord) -> None:
        """Wait for the bot's answer to a lobby action; fail loudly if there is none."""
        with contextlib.suppress(TimeoutError):
            await self.watch.until(lambda: inter.callback or inter.problems, ANSWER_TIMEOUT)
        if inter.callback is None:
            raise RuntimeError(f"no answer to {inter} after {ANSWER_TIMEOUT} s: {inter.problems}")

    async def replace_game(self, table: Table, phase: Phase | None = None) -> bool:
        """Wait for a finished game to close, then open the next one.

        The bot frees a channel only once its final message (results, Rematch) is
        out, and that waits for its pictures behind every picture asked before: an
        overloaded bot may hold a finished game's channel for longer than a phase.
        Within a phase the wait lasts until the phase ends (plus 25 s, within the 30 s
        ``run_phase`` allows): a table still waiting then is *held*, not failed, and
        is counted apart. Returns whether a game was opened.
        """
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        timeout = 30.0 if phase is None else max(phase.end - loop.time(), 0.0) + 25.0
        try:
            await self.bot.wait_closed(table, timeout)
        except TimeoutError:
            if phase is not None:
                phase.held.append(table)
                return False
            raise TimeoutError(f"not closed after {timeout:.0f} s: {self.describe(table)}"
                               ) from None
        if phase is not None and table.games:
            phase.closing.append(time.perf_counter() - started)
            if loop.time() >= phase.end:
                return False
        try:
            await self.open_game(table)
        except TimeoutError:
            raise TimeoutError(f"no lobby ({time.perf_counter() - started:.1f} s after the game "
                               f"ended): {self.describe(table)}") from None
        return True

    def describe(self, table: Table) -> str:
        """What the channel shows: its public messages from the end (for a stalled table)."""
        shown = []
        for message in reversed(self.fake.world.messages.values()):
            if message.channel is table.channel and not message.ephemeral:
                shown.append(f"{message.text[:40]!r} {message.button_labels}")
                if len(shown) == 3:
                    break
        return " | ".join(shown) or "no public message"

    async def open_all(self, tables: list[Table], limit: int) -> None:
        """Open a game on each table, ``limit`` at a time, and wait until all are published."""
        gate = asyncio.Semaphore(limit)

        async def one(table: Table) -> None:
            async with gate:
                await self.open_game(table)

        await asyncio.gather(*(one(t) for t in tables))
        await self.settle()

    async def settle(self) -> None:
        """Wait for publishing to finish; then the fake notes what is still unanswered."""
        with contextlib.suppress(TimeoutError):
            await self.bot.published(self.watch, 60)
        await self.fake.settle(timeout=10)

    # -- moves --------------------------------------------------------------------

    async def drive(self, table: Table, phase: Phase, offset: float) -> None:
        """Play ``table``'s games until the phase ends (one move in flight at a time)."""
        loop = asyncio.get_running_loop()
        next_at = loop.time() + offset
        while loop.time() < phase.end:
            seen = await self.bot.seen(table)
            game = seen.game if seen is not None else None
            if seen is None or game is None or game.is_over or seen.status != "running":
                try:
                    if not await self.replace_game(table, phase):
                        return  # the phase ended while the bot was still closing the game
                except (TimeoutError, RuntimeError, AssertionError) as error:
                    phase.stalled.append(f"table {table.index}: {type(error).__name__} "
                                         f"{str(error)[:300]}")
                    return  # an overloaded bot lost the lobby: this table sits the phase out
                phase.lobbies += 1
                next_at = max(next_at, loop.time())
                continue
            seat = game.to_move
            player = table.user(seen.users[seat]) if seat is not None else None
            if player is None:  # the computer's turn
                with contextlib.suppress(TimeoutError):
                    await self.bot.wait_moved(seen, 30)
                continue
            if phase.interval is not None:
                await asyncio.sleep(max(0.0, next_at - loop.time()))
                next_at += phase.interval
                if loop.time() >= phase.end:
                    break
                if await self.bot.moves(seen) != seen.moves:
                    continue
            started = time.perf_counter()
            move = choose_move(game, seat, table.rng)
            phase.decide_seconds += time.perf_counter() - started
            name, options = slash_command("straight", move)
            inter = await self.fake.slash(player, name, channel=table.channel, **options)
            phase.sent += 1
            try:
                await self.watch.until(lambda i=inter: i.callback or i.problems, ANSWER_TIMEOUT)
            except TimeoutError:
                phase.unanswered += 1
                phase.latencies.append(math.inf)
                continue
            self.record(phase, inter, await self.bot.moves(seen) > seen.moves)

    @staticmethod
    def record(phase: Phase, inter: InteractionRecord, moved: bool) -> None:
        callback = inter.callback
        if callback is None:
            phase.unanswered += 1  # Discord refused the answer (e.g. after 3 s)
            phase.latencies.append(math.inf)
            return
        phase.latencies.append((callback.at - inter.created_at) * 1000)
        if not moved:
            phase.refused += 1
            if len(phase.refusals) < 3:
                phase.refusals.append(f"{inter.action}: {(callback.data or {}).get('content')}")

    async def run_phase(self, phase: Phase, seconds: float,
                        profile: Path | None = None) -> PhaseResult:
        loop = asyncio.get_running_loop()
        n = len(self.tables)
        stagger = (phase.interval or 0.0) / n
        process = self.bot if isinstance(self.bot, ProcessBot) else None
        durable0 = await self.bot.durable_moves()
        server0 = await self.bot.database.server_stats()
        requests0 = len(self.fake.recorder.requests)
        read0 = process.read_seconds if process else 0.0
        bot0 = process.cpu() if process else {}
        backends, shared = await self.bot.database.server_processes()
        pg0 = cpu_of(backends), cpu_of(shared)
        machine0 = machine_busy_seconds()
        w0, c0 = time.perf_counter(), time.process_time()
        phase.end = loop.time() + seconds
        drivers = [asyncio.create_task(self.drive(t, phase, i * stagger))
                   for i, t in enumerate(self.tables)]
        spy = await start_py_spy(process.pid, seconds, profile) if process and profile else None
        await asyncio.sleep(seconds)
        durable1 = await self.bot.durable_moves()
        server1 = await self.bot.database.server_stats()
        requests = self.fake.recorder.requests[requests0:]
        w1, c1 = time.perf_counter(), time.process_time()
        bot1 = process.cpu() if process else {}
        pg1 = cpu_of(backends), cpu_of(shared)
        machine1 = machine_busy_seconds()
        read1 = process.read_seconds if process else 0.0
        done, late = await asyncio.wait(drivers, timeout=30)
        for task in late:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        if spy is not None:
            await finish_py_spy(spy, profile)  # type: ignore[arg-type]
        if process:
            process.check_alive()
        await self.settle()
        routes = Counter(r.route or f"{r.method} {r.path}" for r in requests)
        uploaded = sum(len(f.data) for r in requests for f in r.files)
        bot_cpu = None
        if process:
            bot_cpu = [(label, seconds - bot0.get(pid, (label, 0.0))[1])
                       for pid, (label, seconds) in bot1.items()]
        held_later = ""
        if phase.held:
            freed = 0
            for table in phase.held:
                with contextlib.suppress(TimeoutError):
                    await self.bot.wait_closed(table, 0)
                    freed += 1
            held_later = (f"{freed} of {len(phase.held)} freed by the end of settling (so the "
                          "bot was slow, not stuck)" if freed == len(phase.held) else
                          f"only {freed} of {len(phase.held)} freed by the end of settling: "
                          f"{self.describe(next(iter(phase.held)))}")
        server = None if server0 is None or server1 is None else (
            server1[0] - server0[0], server1[1] - server0[1])
        backends_cpu, shared_cpu = (sum(after[pid] - before[pid] for pid in after
                                        if pid in before)
                                    for before, after in zip(pg0, pg1, strict=True))
        return PhaseResult(phase, n, w1 - w0, c1 - c0, bot_cpu, read1 - read0,
                           durable1 - durable0, routes, uploaded, held_later, server,
                           machine=machine1 - machine0,
                           postgres_cpu=(backends_cpu, shared_cpu))


# -- py-spy ------------------------------------------------------------------------


async def start_py_spy(pid: int, seconds: float, out: Path) -> asyncio.subprocess.Process:
    """``py-spy record`` of the bot and its render workers over the next ``seconds``."""
    py_spy = Path(sys.executable).with_name("py-spy")
    return await asyncio.create_subprocess_exec(
        str(py_spy if py_spy.exists() else "py-spy"), "record", "-p", str(pid), "--subprocesses",
        "-d", str(max(1, round(seconds))), "-r", str(SAMPLE_RATE), "-f", "raw", "-o", str(out),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def finish_py_spy(spy: asyncio.subprocess.Process, out: Path) -> None:
    try:
        output, _ = await asyncio.wait_for(spy.communicate(), 30)
    except TimeoutError:
        spy.kill()
        output = b"(py-spy did not finish)"
    if spy.returncode != 0 or not out.exists():
        print(f"py-spy failed ({spy.returncode}): {output.decode(errors='replace')[-300:]}")


def print_profile(path: Path, seconds: float) -> None:
    """Where the bot's time went, from a raw py-spy profile.

    py-spy leaves out idle samples, but a process short of CPU is often caught
    runnable in ``select`` or a queue's ``get()``: such samples (``Stack.waiting``)
    are counted apart, and the shares are of the working samples.
    """
    everything = Profile.read(str(path))
    profile = everything.working()
    possible = SAMPLE_RATE * seconds

    def share(counts: Counter[str], total: int, top: int) -> str:
        return ", ".join(f"{name} {count / total:.0%}" for name, count in counts.most_common(top))

    processes = profile.samples()
    waiting = everything.samples() - processes
    print(f"py-spy profile of the saturated phase ({path}; {SAMPLE_RATE}/s over {seconds:g} s): "
          f"samples py-spy saw working (running, or runnable and waiting for a core), per "
          f"process, in threads' worth; blocked in select, queues, locks apart: " + ", ".join(
              f"{name or '?'} {count / possible:.2f} (+{waiting[name] / possible:.2f} waiting)"
              for name, count in processes.most_common()))
    for process in ("bot", "render worker"):
        total = processes.get(process, 0)
        if not total:
            continue
        print(f"  {process} ({total} working samples = 100%):")
        print(f"    by thread: {share(profile.samples(process), total, 5)}")
        print(f"    self time by package: "
              f"{share(profile.self_time(process, packages=True), total, 10)}")
        print(f"    self time by function: {share(profile.self_time(process), total, 12)}")
        print(f"    inside the project's functions (inclusive): "
              f"{share(profile.inclusive(process, PROJECT, skip=('bot/__main__.py',)), total, 14)}")


# -- reporting ---------------------------------------------------------------------


def print_phase(result: PhaseResult, games: int, render_processes: int) -> None:
    phase = result.phase
    print(f"{phase.name} ({games} games, {result.seconds:.1f} s): "
          f"{result.durable_rate:.0f} durable moves/s ({result.durable} committed), "
          f"{phase.sent} commands sent, {phase.lobbies} new games opened")
    values = phase.latencies
    print(f"    interaction→response p50 {ms(percentile(values, 50), 1)}, p90 "
          f"{ms(percentile(values, 90), 1)}, p99 {ms(percentile(values, 99), 1)}, max "
          f"{ms(max(values, default=math.nan), 1)} over {len(values)} commands, of which "
          f"{phase.unanswered} had no answer in Discord's 3 s (counted as failed)")
    wall = result.seconds
    if result.bot_cpu is None:
        print(f"    CPU {result.cpu_seconds:.1f} s over {wall:.1f} s wall "
              f"({result.cpu_seconds / wall:.2f} cores, all threads); deciding moves "
              f"(choose_move, the driver's) {phase.decide_seconds:.1f} s; moves the bot refused "
              f"{phase.refused}")
    else:
        loop = sum(seconds for label, seconds in result.bot_cpu if label == LOOP_THREAD)
        others = ", ".join(f"{label} {seconds / wall:.2f}" for label, seconds in result.bot_cpu
                           if label not in ("bot", LOOP_THREAD))
        bots = sum(1 for label, _ in result.bot_cpu if label == "bot")
        print(f"    CPU in cores: bot process{'es' if bots > 1 else ''} {result.bot_cores:.2f} "
              f"(all threads; event loop thread{'s' if bots > 1 else ''} {loop / wall:.2f})"
              f"{'; ' + others if others else ''}; this process (fake + driver) "
              f"{result.cpu_seconds / wall:.2f}, of which deciding moves (choose_move) "
              f"{phase.decide_seconds / wall:.2f}, and time waiting for reads of the database "
              f"(summed over tables) {result.read_seconds / wall:.2f}; moves the bot refused "
              f"{phase.refused}")
    own, what = result.database_ms_per_move(render_processes)
    print(f"    the database's own time per durable move: {own:.2f} ms ({what})")
    if result.bot_cpu is not None and not math.isnan(result.machine):
        cost = result.cpu_ms_per_move()
        backends, shared = result.postgres_cpu
        postgres = (f"PostgreSQL {backends / wall:.2f} (+ its shared processes "
                    f"{shared / wall:.2f}), " if backends or shared else "")
        print(f"    the machine: {result.machine / wall:.2f} of {os.cpu_count()} cores busy; "
              f"the bench's processes {cost['all of them'] * result.durable / 1000 / wall:.2f} "
              f"({postgres}bot and its workers, fake and driver), other processes on the "
              f"machine {result.others_cores():.2f}; CPU per durable move: " + ", ".join(
                  f"{part} {ms_:.1f} ms" for part, ms_ in cost.items()))
    moves = max(result.durable, 1)
    routes = ", ".join(f"{route} {count / moves:.2f}"
                       for route, count in result.routes.most_common(7))
    print(f"    requests to Discord per committed move: {result.routes.total() / moves:.1f} "
          f"({routes}); {result.uploaded / moves / 1024:.0f} KB of pictures uploaded per move")
    for text in phase.refusals + phase.stalled[:2]:
        print(f"    {text}")
    if phase.stalled:
        print(f"    {len(phase.stalled)} tables could not open their next game")
    if phase.closing:
        print(f"    finished games: final message (which frees the channel) "
              f"{Spread.of(phase.closing).text('s', 1)} after the driver saw the end")
    if phase.held:
        print(f"    {len(phase.held)} finished games still unpublished, their channels held, "
              f"when the phase ended (+25 s): {result.held_later}")


@dataclass
class Memory:
    per_game: float
    """Bytes per idle game, judged against the target."""
    what: str
    """What ``per_game`` is, for the target line."""
    other: str = ""
    """The other figures, for the target line."""


def heap_delta(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, exclude: bool
               ) -> tuple[int, tuple[tracemalloc.Snapshot, tracemalloc.Snapshot]]:
    """Net growth of the traced heap (without the fake's allocations if ``exclude``)."""
    if exclude:
        filters = [tracemalloc.Filter(False, FAKE_CODE, all_frames=True)]
        before, after = before.filter_traces(filters), after.filter_traces(filters)
    stats = after.compare_to(before, "filename")
    return sum(s.size_diff for s in stats), (before, after)


def growth_by_site(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot
                   ) -> list[tuple[str, int]]:
    """Net growth grouped by the innermost line of the bot's own code (else the library file)."""
    ours = ("/bot/", "/cogs/", "/cardart/")

    def site(trace: tracemalloc.Trace) -> str:
        frames = list(trace.traceback)  # oldest first
        for frame in reversed(frames):
            if any(part in frame.filename for part in ours):
                return f"{_short(frame.filename)}:{frame.lineno}"
        return _short(frames[-1].filename)

    growth: dict[str, int] = {}
    for sign, snapshot in ((-1, before), (1, after)):
        for trace in snapshot.traces:
            key = site(trace)
            growth[key] = growth.get(key, 0) + sign * trace.size
    return sorted(growth.items(), key=lambda item: -item[1])


async def measure_idle_traced(bench: LoadBench, traced: int, frames: int) -> Memory:
    """In-process: RSS over the first idle games, tracemalloc over the last ``traced``.

    tracemalloc with deep tracebacks slows the process several times over, so
    it watches only a few game openings (two at a time, well inside Discord's
    3-second answer window); RSS needs no tracing and watches the others.
    """
    plain, watched = bench.tables[:-traced], bench.tables[-traced:]
    gc.collect()
    rss0 = rss_bytes()
    await bench.open_all(plain, limit=10)
    gc.collect()
    rss = rss_bytes() - rss0
    tracemalloc.start(frames)
    before = tracemalloc.take_snapshot()
    await bench.open_all(watched, limit=2)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    bot_heap, filtered = heap_delta(before, after, exclude=True)
    heap, _ = heap_delta(before, after, exclude=False)
    per_game = bot_heap / len(watched)
    rss_per_game = rss / len(plain) if plain else math.nan
    top = ", ".join(f"{site} {size / len(watched) / 1024:.1f}"
                    for site, size in growth_by_site(*filtered)[:8])
    print(f"memory per idle game: bot heap {per_game / 1024:.1f} KB "
          f"(tracemalloc over {len(watched)} games, traces through the fake's "
          f"code excluded); whole heap {heap / len(watched) / 1024:.1f} KB (incl. the fake); RSS "
          f"{rss_per_game / 1024:.1f} KB (over {len(plain)} games; bot + fake + driver)")
    print(f"    where (innermost line of bot code, else library), KB per game: {top}")
    return Memory(per_game, "bot heap", f"RSS {rss_per_game / 1024:.1f} KB incl. the fake")


async def measure_idle_process(bench: LoadBench, bot: ProcessBot) -> Memory:
    """Process mode: the bot processes' RSS before and after opening every game."""
    before = bot.rss()
    await bench.open_all(bench.tables, limit=10)
    after = bot.rss()
    n = len(bench.tables)
    main0, main1 = bot.bot_rss(before), bot.bot_rss(after)
    per_game = (main1 - main0) / n
    others = [f"{label} {size / 2**20:.1f} → {after[pid][1] / 2**20:.1f} MB "
              f"({(after[pid][1] - size) / n / 1024:+.1f} KB per game)"
              for pid, (label, size) in before.items() if label != "bot" and pid in after]
    print(f"memory per idle game: bot process RSS {per_game / 1024:.1f} KB (VmRSS "
          f"{main0 / 2**20:.1f} → {main1 / 2**20:.1f} MB over {n} games opened); "
          + ("; ".join(others) or "no child processes"))
    return Memory(per_game, "bot process RSS",
                  "the fake and the driver are in the other process")


def _short(filename: str) -> str:
    """A source path relative to the repository or to site-packages."""
    path = Path(filename)
    if "site-packages" in path.parts:
        return "/".join(path.parts[path.parts.index("site-packages") + 1:])
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


# -- the run ---------------------------------------------------------------------


def build_world(fake: FakeDiscord, games: int, opponent: str, shards: int = 1
                ) -> tuple[list[Table], list[tuple[Channel, User]]]:
    """The tables, spread over one guild per shard (round robin), and a warm-up seat
    (channel and player) in each guild, so every process warms up."""
    guilds = [fake.add_guild("Load Club" if shards == 1 else f"Load Club {shard}",
                             shard=(shard, shards)) for shard in range(shards)]
    tables = []
    for i in range(games):
        guild = guilds[i % shards]
        channel = guild.add_text_channel(f"table-{i}")
        host = fake.add_user(f"host{i}")
        guild.add_member(host)
        guest: User | None = None
        if opponent == "human":
            guest = fake.add_user(f"guest{i}")
            guild.add_member(guest)
        tables.append(Table(i, channel, [host, guest], random.Random(f"driver:{i}")))
    warm = []
    for shard, guild in enumerate(guilds):
        user = fake.add_user(f"warmup{shard}")
        guild.add_member(user)
        warm.append((guild.add_text_channel("warm-up"), user))
    return tables, warm


async def warm_up(bench: LoadBench, channel: Channel, user: User) -> None:
    """A short game against a computer: loads fonts, caches and lazy imports."""
    table = Table(-1, channel, [user, None], random.Random(f"warm-up:{channel.id}"))
    phase = Phase("warm-up", None)
    phase.end = asyncio.get_running_loop().time() + 3.0
    await bench.drive(table, phase, 0.0)
    if phase.stalled:
        raise RuntimeError(f"the warm-up game did not start: {phase.stalled[0]}")
    await bench.settle()


@contextlib.asynccontextmanager
async def bot_under_test(fake: FakeDiscord, watch: Watch, directory: Path, column: Column,
                         args: argparse.Namespace) -> AsyncIterator[BotUnderTest]:
    async with contextlib.AsyncExitStack() as stack:
        database: Path | str = directory / "load.sqlite3"
        if column.backend == "postgres":
            database = await stack.enter_async_context(postgres_database("bench_load"))
        bot_database = f"{database}?{column.settings}" if column.settings else database
        if args.bot_process:
            async with bot_process(fake, directory, bot_database, args,
                                   column.processes) as process:
                yield process
            return
        async with running_bot(fake, bot_database, computer_delay=args.computer_delay,
                               render_processes=args.render_processes) as bot:
            in_process = InProcessBot(fake, Database(database), bot, watch)
            try:
                yield in_process
            finally:
                await in_process.close_db()


@dataclass
class ColumnResult:
    column: Column
    memory: Memory
    phases: list[PhaseResult]
    summary: str = ""


async def run(args: argparse.Namespace) -> None:
    """Every column in turn, then the columns side by side."""
    done = []
    for key in args.backends:
        column = COLUMNS[key]
        print(f"== {column.name} ==", flush=True)
        done.append(await run_column(args, column))
    if len(done) > 1:
        print_side_by_side(args, done)
    print("SUMMARY: " + " || ".join(f"{c.column.name}: {c.summary}" for c in done))


async def run_column(args: argparse.Namespace, column: Column) -> ColumnResult:
    counter = LogCount()
    logging.getLogger().addHandler(counter)
    logging.getLogger().setLevel(logging.WARNING)
    fake = FakeDiscord()
    tables, warm = build_world(fake, args.games, args.opponent, column.processes)
    results: list[PhaseResult] = []
    bot_log: list[str] = []
    watch = Watch(fake)
    with tempfile.TemporaryDirectory() as tmp:
        async with fake:
            watch.start()
            try:
                async with bot_under_test(fake, watch, Path(tmp), column, args) as bot:
                    bench = LoadBench(fake, bot, watch, tables, args)
                    await asyncio.gather(*(warm_up(bench, c, u) for c, u in warm))
                    if isinstance(bot, ProcessBot):
                        print(f"{bot.root_label} {bot.pid}: " + ", ".join(
                            f"{label} {pid}" for pid, label in bot.processes().items()
                            if pid != bot.pid))
                        memory = await measure_idle_process(bench, bot)
                        rss_before = bot.bot_rss(bot.rss())
                    else:
                        memory = await measure_idle_traced(
                            bench, min(args.traced, args.games // 2), args.frames)
                        rss_before = rss_bytes()
                    phases = [Phase(f"paced {rate:g}/s", args.games / rate)
                              for rate in args.rates]
                    if args.saturated_seconds > 0:
                        phases.append(Phase("saturated", None))
                    for phase in phases:
                        seconds = args.seconds if phase.interval else args.saturated_seconds
                        profile = args.py_spy if phase.interval is None else None
                        results.append(await bench.run_phase(phase, seconds, profile))
                        print_phase(results[-1], args.games, args.render_processes)
                    moved = sum(r.durable for r in results)
                    if isinstance(bot, ProcessBot):
                        sizes = bot.rss()
                        grown = bot.bot_rss(sizes) - rss_before
                        print(f"bot process{'es' if column.processes > 1 else ''} RSS grew "
                              f"{grown / 2**20:.1f} MB during the load "
                              f"phases ({moved} moves; {grown / max(moved, 1) / 1024:.1f} KB "
                              f"per move); now " + ", ".join(
                                  f"{label} {size / 2**20:.0f} MB"
                                  for label, size in sizes.values()))
                        bot_log = bot.log_problems()
                    else:
                        grown = rss_bytes() - rss_before
                        views = sum(isinstance(o, discord.ui.View) for o in gc.get_objects())
                        print(f"discord.ui.View objects alive after the load: {views}; asyncio "
                              f"tasks: {len(asyncio.all_tasks())} (views of ephemeral answers "
                              f"stay stored, each with a timeout task, for discord.py's 15 "
                              f"minutes)")
                        print(f"RSS grew {grown / 2**20:.1f} MB during the load phases ({moved} "
                              f"moves; {grown / max(moved, 1) / 1024:.1f} KB per move: bot + "
                              f"fake, which keeps every message, picture and request)")
            finally:
                await watch.stop()
            problems = fake.recorder.unexpected()
    warnings = counter.count + len(bot_log)
    print(f"fake Discord problems: {len(problems)}; bot log warnings/errors: {warnings}")
    for line in [str(p)[:200] for p in problems[:2]] + counter.first[:2] + bot_log[:3]:
        print(f"    {line[:240]}")
    logging.getLogger().removeHandler(counter)
    if args.py_spy is not None and args.py_spy.exists():
        print_profile(args.py_spy, args.saturated_seconds)
    return ColumnResult(column, memory, results, report(args, column, memory, results))


def print_side_by_side(args: argparse.Namespace, columns: list[ColumnResult]) -> None:
    """One row per figure, one column per way of running the bot."""
    width = max(16, *(len(c.column.name) + 2 for c in columns))
    rows: list[tuple[str, list[str]]] = []
    rows.append(("durable moves/s (best window)", [
        f"{max(r.durable_rate for r in c.phases):.0f}" for c in columns]))
    for rate in args.rates:
        paced = [next((r for r in c.phases if r.phase.name == f"paced {rate:g}/s"), None)
                 for c in columns]
        rows.append((f"p50 / p99 at {rate:g} moves/s", [
            "—" if r is None else f"{ms(r.latency.median)} / {ms(r.latency.p99)}"
            for r in paced]))
        rows.append((f"  durable moves/s at {rate:g}/s", [
            "—" if r is None else f"{r.durable_rate:.0f}" for r in paced]))
    rows.append(("memory per idle game", [f"{c.memory.per_game / 1024:.1f} KB"
                                          for c in columns]))
    best = [max(c.phases, key=lambda r: r.durable_rate) for c in columns]
    rows.append(("database time per move (best window)", [
        f"{r.database_ms_per_move(args.render_processes)[0]:.2f} ms" for r in best]))
    rows.append(("bot process cores (best window)", [f"{r.bot_cores:.2f}" for r in best]))
    costs = [r.cpu_ms_per_move() for r in best]
    for part in ("bot and its workers", "PostgreSQL", "fake and driver", "all of them"):
        rows.append((f"CPU ms per move: {part}", [
            "—" if not cost else f"{cost[part]:.1f}" for cost in costs]))
    rows.append(("machine busy / others' share (cores)", [
        "—" if math.isnan(r.machine) else f"{r.machine / r.seconds:.2f} / "
        f"{r.others_cores():.2f}" for r in best]))
    width = max(width, *(len(v) + 2 for _, values in rows for v in values))
    label_width = max(len(label) for label, _ in rows) + 2
    print("side by side (database time: " + "; ".join(
        f"{c.column.name}: {r.database_ms_per_move(args.render_processes)[1]}"
        for c, r in zip(columns, best, strict=True)) + "):")
    print(" " * label_width + "".join(f"{c.column.name:>{width}}" for c in columns))
    for label, values in rows:
        print(f"{label:<{label_width}}" + "".join(f"{v:>{width}}" for v in values))


def report(args: argparse.Namespace, column: Column, memory: Memory,
           results: list[PhaseResult]) -> str:
    paced = [r for r in results if r.phase.interval is not None]
    best = max(results, key=lambda r: r.durable_rate)
    ceiling = best.durable_rate
    per_game = memory.per_game
    scale = "" if args.games == 100 else f" (at {args.games} games; the target is for 100)"
    mode, who = "in-process", "the one process"
    if args.bot_process:
        many = column.processes > 1
        mode = f"{column.processes} bot processes" if many else "bot process"
        who = f"{column.processes} bot processes" if many else "bot"
    for r in paced:
        print(f"target p99 ≤ {TARGET_P99_MS:.0f} ms, {args.games} games offering "
              f"{r.offered:g} moves/s: {ms(r.latency.p99)}, "
              f"{verdict(r.latency.p99 <= TARGET_P99_MS)}{scale}")
    print(f"target ≥ {TARGET_MOVES_PER_S:.0f} durable moves/s: best window {ceiling:.0f}/s "
          f"({best.phase.name}, {who} at {best.bot_cores:.2f} cores), "
          f"{verdict(ceiling >= TARGET_MOVES_PER_S)}")
    print(f"target ≤ {TARGET_IDLE_BYTES // 1024} KB per idle game: {memory.what} "
          f"{per_game / 1024:.1f} KB, {verdict(per_game <= TARGET_IDLE_BYTES)} ({memory.other})")
    print(f"load average {load_average()} at end")
    latency = "; ".join(f"{r.offered:g}/s offered: p50 {ms(r.latency.median)} p99 "
                        f"{ms(r.latency.p99)} ({verdict(r.latency.p99 <= TARGET_P99_MS)}), "
                        f"{r.durable_rate:.0f} durable/s" for r in paced)
    closing = [s for r in results for s in r.phase.closing]
    held = sum(len(r.phase.held) for r in results)
    stalled = sum(len(r.phase.stalled) for r in results)
    own, _ = best.database_ms_per_move(args.render_processes)
    return (f"bot_load {args.games} games ({args.opponent}s, {mode}) · {latency} · "
            f"ceiling {ceiling:.0f} durable moves/s ({verdict(ceiling >= TARGET_MOVES_PER_S)}; "
            f"{who} {best.bot_cores:.2f} cores; database {own:.2f} ms per move) · idle game "
            f"{per_game / 1024:.0f} KB {memory.what} ({verdict(per_game <= TARGET_IDLE_BYTES)}) "
            f"· finished games freed their channel in {Spread.of(closing).median:.1f} s "
            f"median, {held} still held at a phase end, {stalled} tables failed")


def ms(value: float, digits: int = 0) -> str:
    """Milliseconds, or "failed" when some answer never came (Discord's 3 s window)."""
    return "failed" if math.isinf(value) else f"{value:.{digits}f} ms"


def rates(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def backends(text: str) -> list[str]:
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    if not chosen or set(chosen) - set(COLUMNS):
        raise argparse.ArgumentTypeError(f"choose from {', '.join(COLUMNS)}")
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (channels)")
    parser.add_argument("--backends", type=backends, default=DEFAULT_COLUMNS,
                        help=f"columns, measured in turn and shown side by side: "
                             f"{','.join(COLUMNS)} (default {','.join(DEFAULT_COLUMNS)})")
    parser.add_argument("--rates", type=rates, default=rates("20,100,200"),
                        help="moves/s offered by all games together, one paced phase each")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of a paced phase")
    parser.add_argument("--saturated-seconds", type=float, default=15.0,
                        help="saturated phase length (0 to skip)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--bot-process", dest="bot_process", action="store_true", default=True,
                      help="run the bot as its own process, python -m bot (the default)")
    mode.add_argument("--in-process", dest="bot_process", action="store_false",
                      help="run the bot in this process (tracemalloc memory; it shares the "
                           "fake's and the driver's GIL)")
    parser.add_argument("--opponent", choices=("human", "computer"), default="human",
                        help="the second seat: another person, or a computer")
    parser.add_argument("--computer-delay", type=float, default=0.05,
                        help="the bot's computer_delay setting (seconds)")
    parser.add_argument("--render-processes", type=int, default=default_render_processes(),
                        help="the bot's RENDER_PROCESSES setting (0 = draw in threads)")
    parser.add_argument("--hands-per-game", type=int, default=1,
                        help="the hands option of each match")
    parser.add_argument("--frames", type=int, default=25,
                        help="--in-process: tracemalloc frames per trace")
    parser.add_argument("--traced", type=int, default=16,
                        help="--in-process: idle games opened under tracemalloc (at most half "
                             "of --games)")
    parser.add_argument("--py-spy", type=Path, default=None, metavar="FILE",
                        help="bot process: py-spy record it (and its render workers) over the "
                             "saturated phase into FILE (raw format) and print a summary")
    parser.add_argument("--timeout", type=float, default=900,
                        help="dump every thread's stack and exit if the run takes longer")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.py_spy is not None and not args.bot_process:
        parser.error("--py-spy profiles the bot process: it needs --bot-process")
    if args.py_spy is not None and args.saturated_seconds <= 0:
        parser.error("--py-spy records the saturated phase: give --saturated-seconds")
    if not args.bot_process and any(COLUMNS[key].processes > 1 for key in args.backends):
        parser.error("columns of several bot processes need --bot-process: choose "
                     "--backends without them")
    where = (ProcessBot if args.bot_process else InProcessBot).label
    print(f"load average {load_average()} at start; {args.games} games, opponent "
          f"{args.opponent}; {where}; {os.cpu_count()} cores")
    faulthandler.dump_traceback_later(args.timeout, exit=True)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
