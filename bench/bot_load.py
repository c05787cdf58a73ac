"""Bench: the real bot under load, driven through the fake Discord on loopback.

Usage (from the repository root; both forms work)::

    .venv/bin/python bench/bot_load.py [--games 100] [--rates 10,20,200] [--seconds 20]
    .venv/bin/python -m bench.bot_load --games 10 --rates 10 --seconds 5 --saturated-seconds 5

Targets (2-core machine): interaction→response p99 ≤ 100 ms with 100
concurrent games, ≥ 200 durable moves/s, ≤ 100 KB per idle game.

Set-up. One :class:`FakeDiscord` with one guild, ``--games`` text channels
and two members per channel; the real bot runs in this process
(``tests.bot_harness.running_bot``: the bot's own configuration points it at
the fake; a temporary SQLite database). The fake, the bot and this driver
share one process, one event loop and its GIL (the bot draws pictures in
worker threads), so **every figure includes the fake's own cost** (HTTP
server, websocket, multipart parsing, recording) and the driver's (deciding
moves with the computer player). CPU is printed next to wall time.

Games. Each channel holds a two-player Straight match (``/straight new
hands=1 turn_seconds=0``, the guest clicks Join, the host clicks Start). By
default both seats are people (``--opponent human``): every move is then a
slash command whose latency is measured, nothing waits on the bot's
``computer_delay``, and each move costs the bot its full work (the mover's
answer, the hand DM, the channel's turn message). ``--opponent computer``
seats one computer instead (its moves are durable moves too, but not
commands). When a match ends a new one opens in the same channel, so
``--games`` matches are always running.

Moves. One driver task per channel reads the bot's state
(``bot.controller.sessions.in_channel(id).game``), picks the mover's move
with ``bot.ai.straight.choose_move`` and sends it as the slash command a
person would type (``/straight draw|meld|layoff|discard``); one command in
flight per game. Latency comes from the fake's own timestamps: from building
and dispatching the INTERACTION_CREATE (``InteractionRecord.created_at``) to
accepting the bot's initial callback (``Callback.at``). The bot answers a
move after committing it, so this includes the durable write (and, for this
bot, drawing the player's hand panel). An answer later than Discord's 3 s
is refused by the fake: it counts as a failed command, i.e. an infinite
latency, in the percentiles. The driver waits for answers through one waiter
on the fake's notifier (not one per interaction, which would cost O(games)
per change), so the harness's own cost stays flat with the number of games.

Phases.

1. Memory per idle game. After a warm-up game in a spare channel (fonts,
   caches, lazy imports), open all games and let them go idle (started, a
   person to move, every picture and DM published). RSS growth is measured
   over the first ``games - traced`` openings: bot + fake + driver, so an
   upper bound. ``tracemalloc`` (25 frames; it slows everything several
   times, so only over the last ``--traced`` openings, two at a time) gives
   the Python heap kept: all of it, and the bot's share, without the
   allocations that have the fake's code in their traceback.
2. Paced, once per ``--rates`` value: the games together offer that many
   commands/s (each game one command every ``games / rate`` s, staggered, on
   a fixed schedule) for ``--seconds``. Latency at that load, and whether the
   bot keeps up. 10/s is about people's pace (a command per game every 10 s),
   200/s the target throughput.
3. Saturated: every game sends its next command as soon as the last one was
   answered, for ``--saturated-seconds``: the ceiling in durable moves/s.

Durable moves/s counts rows of the ``moves`` table committed during the
window (read with a separate SQLite connection), divided by the window; the
bot writes each move (WAL, ``synchronous=NORMAL``) before answering it. Each
phase also prints the HTTP requests the bot made per move, by route. The
last line starts with ``SUMMARY:``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import gc
import logging
import math
import random
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import discord

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import Spread, load_average, percentile, rss_bytes, verdict
from bot.ai.straight import choose_move
from bot.app import RummyBot
from bot.config import default_render_processes
from bot.engine.game import Move
from bot.engine.moves import Discard, Draw, LayOff, MeldDown
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.fakediscord import Channel, FakeDiscord, InteractionRecord, User

T = TypeVar("T")
TARGET_P99_MS = 100.0
TARGET_MOVES_PER_S = 200.0
TARGET_IDLE_BYTES = 100 * 1024
ANSWER_TIMEOUT = 10.0
ROOT = Path(__file__).resolve().parent.parent
FAKE_CODE = "*/tests/fakediscord/*"
"""Allocations with this code anywhere in their traceback are the fake's, not the bot's."""


def move_command(move: Move) -> tuple[str, dict[str, Any]]:
    """The slash command a person would type for an engine move."""
    if isinstance(move, Draw):
        return "/straight draw", {"source": move.source}
    if isinstance(move, Discard):
        return "/straight discard", {"card": move.card.code}
    if isinstance(move, MeldDown):
        return "/straight meld", {"cards": " | ".join(" ".join(p.code for p, _ in meld)
                                                       for meld in move.melds)}
    if isinstance(move, LayOff):
        return "/straight layoff", {"cards": " ".join(p.code for p, _ in move.cards),
                                    "meld": move.meld}
    raise ValueError(f"no command for {move!r}")


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


class LogCount(logging.Handler):
    """Counts warnings and errors the bot (or discord.py) logs; keeps the first few."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < 3:
            self.first.append(f"{record.levelname} {record.name}: {record.getMessage()[:160]}")


@dataclass
class Table:
    """One channel, its two players (``None`` for a computer seat) and the driver's dice."""

    index: int
    channel: Channel
    players: list[User | None]
    rng: random.Random
    games: int = 0


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


@dataclass
class PhaseResult:
    phase: Phase
    games: int
    seconds: float
    cpu_seconds: float
    durable: int
    routes: Counter[str]
    """HTTP requests the bot made to the fake during the window, by route."""
    uploaded: int
    """Bytes of files (pictures) in those requests."""

    @property
    def durable_rate(self) -> float:
        return self.durable / self.seconds

    @property
    def offered(self) -> float:
        return self.games / self.phase.interval if self.phase.interval else math.nan

    @property
    def latency(self) -> Spread:
        return Spread.of(self.phase.latencies)


class LoadBench:
    def __init__(self, fake: FakeDiscord, bot: RummyBot, tables: list[Table], database: Path,
                 args: argparse.Namespace) -> None:
        self.fake = fake
        self.bot = bot
        self.tables = tables
        self.database = database
        self.args = args
        self.watch = Watch(fake)

    # -- the bot's state ----------------------------------------------------------

    def session(self, table: Table) -> Session | None:
        return self.bot.controller.sessions.in_channel(table.channel.id)

    def durable_moves(self) -> int:
        """Rows in the moves table (committed transactions only; WAL lets us read alongside)."""
        with contextlib.closing(sqlite3.connect(self.database, timeout=5)) as db:
            return int(db.execute("SELECT count(*) FROM moves").fetchone()[0])

    def published(self) -> bool:
        """No game has a publishing task at work."""
        return all(t.done() for t in self.bot.controller.publisher.tasks.values())

    # -- games --------------------------------------------------------------------

    async def open_game(self, table: Table) -> None:
        """``/straight new``, Join (two people), Start; returns once the game runs."""
        host, guest = table.players
        assert host is not None
        table.games += 1
        computers = 1 if guest is None else 0
        opened = await self.fake.slash(host, "/straight new", channel=table.channel,
                                       hands=self.args.hands_per_game, turn_seconds=0,
                                       computers=computers,
                                       seed=self.args.seed + 1000 * table.index + table.games)
        lobby = await opened.reply(timeout=ANSWER_TIMEOUT)
        if guest is not None:
            await self.answered(await self.fake.click(guest, lobby, "Join"))
        await self.answered(await self.fake.click(host, lobby, "Start"))
        session = self.session(table)
        assert session is not None and session.status == "running", "the game did not start"

    async def answered(self, inter: InteractionRecord) -> None:
        """Wait for the bot's answer to a lobby action; fail loudly if there is none."""
        with contextlib.suppress(TimeoutError):
            await self.watch.until(lambda: inter.callback or inter.problems, ANSWER_TIMEOUT)
        if inter.callback is None:
            raise RuntimeError(f"no answer to {inter} after {ANSWER_TIMEOUT} s: {inter.problems}")

    async def replace_game(self, table: Table) -> None:
        """Wait for a finished game to close, then open the next one."""
        if self.session(table) is not None:
            await self.watch.until(lambda: self.session(table) is None, 30)
        await self.open_game(table)

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
            await self.watch.until(self.published, 60)
        await self.fake.settle(timeout=10)

    # -- moves --------------------------------------------------------------------

    async def drive(self, table: Table, phase: Phase, offset: float) -> None:
        """Play ``table``'s games until the phase ends (one move in flight at a time)."""
        loop = asyncio.get_running_loop()
        next_at = loop.time() + offset
        while loop.time() < phase.end:
            session = self.session(table)
            game = session.game if session is not None else None
            if session is None or game is None or game.is_over or session.status != "running":
                try:
                    await self.replace_game(table)
                except (TimeoutError, RuntimeError, AssertionError) as error:
                    phase.stalled.append(f"table {table.index}: {str(error)[:120]}")
                    return  # an overloaded bot lost the lobby: this table sits the phase out
                phase.lobbies += 1
                next_at = max(next_at, loop.time())
                continue
            seat = game.to_move
            if seat is None or table.players[seat] is None:  # the computer's turn
                with contextlib.suppress(TimeoutError):
                    await self.watch.until(lambda s=session, g=game: s.game is not g, 30)
                continue
            if phase.interval is not None:
                await asyncio.sleep(max(0.0, next_at - loop.time()))
                next_at += phase.interval
                if loop.time() >= phase.end:
                    break
                if session.game is not game:
                    continue
            before = session.moves
            started = time.perf_counter()
            move = choose_move(game, seat, table.rng)
            phase.decide_seconds += time.perf_counter() - started
            name, options = move_command(move)
            player = table.players[seat]
            assert player is not None
            inter = await self.fake.slash(player, name, channel=table.channel, **options)
            phase.sent += 1
            try:
                await self.watch.until(lambda i=inter: i.callback or i.problems, ANSWER_TIMEOUT)
            except TimeoutError:
                phase.unanswered += 1
                phase.latencies.append(math.inf)
                continue
            self.record(phase, inter, session.moves > before)

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

    async def run_phase(self, phase: Phase, seconds: float) -> PhaseResult:
        loop = asyncio.get_running_loop()
        n = len(self.tables)
        stagger = (phase.interval or 0.0) / n
        durable0 = self.durable_moves()
        requests0 = len(self.fake.recorder.requests)
        w0, c0 = time.perf_counter(), time.process_time()
        phase.end = loop.time() + seconds
        drivers = [asyncio.create_task(self.drive(t, phase, i * stagger))
                   for i, t in enumerate(self.tables)]
        await asyncio.sleep(seconds)
        durable1 = self.durable_moves()
        requests = self.fake.recorder.requests[requests0:]
        w1, c1 = time.perf_counter(), time.process_time()
        done, late = await asyncio.wait(drivers, timeout=30)
        for task in late:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        await self.settle()
        routes = Counter(r.route or f"{r.method} {r.path}" for r in requests)
        uploaded = sum(len(f.data) for r in requests for f in r.files)
        return PhaseResult(phase, n, w1 - w0, c1 - c0, durable1 - durable0, routes, uploaded)


# -- reporting ---------------------------------------------------------------------


def print_phase(result: PhaseResult, games: int) -> None:
    phase = result.phase
    print(f"{phase.name} ({games} games, {result.seconds:.1f} s): "
          f"{result.durable_rate:.0f} durable moves/s ({result.durable} committed), "
          f"{phase.sent} commands sent, {phase.lobbies} new games opened")
    values = phase.latencies
    print(f"    interaction→response p50 {ms(percentile(values, 50), 1)}, p90 "
          f"{ms(percentile(values, 90), 1)}, p99 {ms(percentile(values, 99), 1)}, max "
          f"{ms(max(values, default=math.nan), 1)} over {len(values)} commands, of which "
          f"{phase.unanswered} had no answer in Discord's 3 s (counted as failed)")
    print(f"    CPU {result.cpu_seconds:.1f} s over {result.seconds:.1f} s wall "
          f"({result.cpu_seconds / result.seconds:.2f} cores, all threads); deciding moves "
          f"(choose_move, the driver's) {phase.decide_seconds:.1f} s; moves the bot refused "
          f"{phase.refused}")
    moves = max(result.durable, 1)
    routes = ", ".join(f"{route} {count / moves:.2f}"
                       for route, count in result.routes.most_common(7))
    print(f"    requests to Discord per committed move: {result.routes.total() / moves:.1f} "
          f"({routes}); {result.uploaded / moves / 1024:.0f} KB of pictures uploaded per move")
    for text in phase.refusals + phase.stalled[:2]:
        print(f"    {text}")
    if phase.stalled:
        print(f"    {len(phase.stalled)} tables could not open their next game")


@dataclass
class Memory:
    traced_games: int
    bot_heap: int
    heap: int
    rss_games: int
    rss: int

    @property
    def bot_heap_per_game(self) -> float:
        return self.bot_heap / self.traced_games

    @property
    def rss_per_game(self) -> float:
        return self.rss / self.rss_games if self.rss_games else float("nan")


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


async def measure_idle(bench: LoadBench, traced: int, frames: int) -> Memory:
    """Memory of idle games: RSS over the first ones, tracemalloc over the last ``traced``.

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
    memory = Memory(len(watched), bot_heap, heap, len(plain), rss)
    top = ", ".join(f"{site} {size / len(watched) / 1024:.1f}"
                    for site, size in growth_by_site(*filtered)[:8])
    print(f"memory per idle game: bot heap {memory.bot_heap_per_game / 1024:.1f} KB "
          f"(tracemalloc over {len(watched)} games, traces through the fake's "
          f"code excluded); whole heap {heap / len(watched) / 1024:.1f} KB (incl. the fake); RSS "
          f"{memory.rss_per_game / 1024:.1f} KB (over {len(plain)} games; bot + fake + driver)")
    print(f"    where (innermost line of bot code, else library), KB per game: {top}")
    return memory


def _short(filename: str) -> str:
    """A source path relative to the repository or to site-packages."""
    path = Path(filename)
    if "site-packages" in path.parts:
        return "/".join(path.parts[path.parts.index("site-packages") + 1:])
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


# -- the run ---------------------------------------------------------------------


def build_world(fake: FakeDiscord, games: int, opponent: str) -> tuple[list[Table], Channel,
                                                                       User]:
    guild = fake.add_guild("Load Club")
    tables = []
    for i in range(games):
        channel = guild.add_text_channel(f"table-{i}")
        host = fake.add_user(f"host{i}")
        guild.add_member(host)
        guest: User | None = None
        if opponent == "human":
            guest = fake.add_user(f"guest{i}")
            guild.add_member(guest)
        tables.append(Table(i, channel, [host, guest], random.Random(f"driver:{i}")))
    warm_channel = guild.add_text_channel("warm-up")
    warm_user = fake.add_user("warmup")
    guild.add_member(warm_user)
    return tables, warm_channel, warm_user


async def warm_up(bench: LoadBench, channel: Channel, user: User) -> None:
    """A short game against a computer: loads fonts, caches and lazy imports."""
    table = Table(-1, channel, [user, None], random.Random("warm-up"))
    phase = Phase("warm-up", None)
    phase.end = asyncio.get_running_loop().time() + 3.0
    await bench.drive(table, phase, 0.0)
    await bench.settle()


async def run(args: argparse.Namespace) -> None:
    counter = LogCount()
    logging.getLogger().addHandler(counter)
    logging.getLogger().setLevel(logging.WARNING)
    fake = FakeDiscord()
    tables, warm_channel, warm_user = build_world(fake, args.games, args.opponent)
    results: list[PhaseResult] = []
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "load.sqlite3"
        async with fake, running_bot(fake, database, computer_delay=args.computer_delay,
                                     render_processes=args.render_processes) as bot:
            bench = LoadBench(fake, bot, tables, database, args)
            bench.watch.start()
            try:
                await warm_up(bench, warm_channel, warm_user)
                memory = await measure_idle(bench, min(args.traced, args.games // 2),
                                             args.frames)
                rss_before = rss_bytes()
                phases = [Phase(f"paced {rate:g}/s", args.games / rate) for rate in args.rates]
                if args.saturated_seconds > 0:
                    phases.append(Phase("saturated", None))
                for phase in phases:
                    seconds = args.seconds if phase.interval else args.saturated_seconds
                    results.append(await bench.run_phase(phase, seconds))
                    print_phase(results[-1], args.games)
                moved = sum(r.durable for r in results)
                grown = rss_bytes() - rss_before
                views = sum(isinstance(o, discord.ui.View) for o in gc.get_objects())
                print(f"discord.ui.View objects alive after the load: {views}; asyncio tasks: "
                      f"{len(asyncio.all_tasks())} (views of ephemeral answers stay stored, "
                      f"each with a timeout task, for discord.py's 15 minutes)")
                print(f"RSS grew {grown / 2**20:.1f} MB during the load phases ({moved} moves; "
                      f"{grown / max(moved, 1) / 1024:.1f} KB per move: bot + fake, which keeps "
                      f"every message, picture and request)")
            finally:
                await bench.watch.stop()
            problems = fake.recorder.unexpected()
    print(f"fake Discord problems: {len(problems)}; bot log warnings/errors: {counter.count}")
    for line in [str(p)[:200] for p in problems[:2]] + counter.first[:2]:
        print(f"    {line}")
    report(args, memory, results)


def report(args: argparse.Namespace, memory: Memory, results: list[PhaseResult]) -> None:
    paced = [r for r in results if r.phase.interval is not None]
    ceiling = max(r.durable_rate for r in results)
    per_game = memory.bot_heap_per_game
    scale = "" if args.games == 100 else f" (at {args.games} games; the target is for 100)"
    for r in paced:
        print(f"target p99 ≤ {TARGET_P99_MS:.0f} ms, {args.games} games offering "
              f"{r.offered:g} moves/s: {ms(r.latency.p99)}, "
              f"{verdict(r.latency.p99 <= TARGET_P99_MS)}{scale}")
    print(f"target ≥ {TARGET_MOVES_PER_S:.0f} durable moves/s: best window {ceiling:.0f}/s, "
          f"{verdict(ceiling >= TARGET_MOVES_PER_S)}")
    print(f"target ≤ {TARGET_IDLE_BYTES // 1024} KB per idle game: bot heap "
          f"{per_game / 1024:.1f} KB, {verdict(per_game <= TARGET_IDLE_BYTES)} (RSS "
          f"{memory.rss_per_game / 1024:.1f} KB incl. the fake)")
    print(f"load average {load_average()} at end")
    latency = "; ".join(f"{r.offered:g}/s offered: p50 {ms(r.latency.median)} p99 "
                        f"{ms(r.latency.p99)} ({verdict(r.latency.p99 <= TARGET_P99_MS)}), "
                        f"{r.durable_rate:.0f} durable/s" for r in paced)
    print(f"SUMMARY: bot_load {args.games} games ({args.opponent}s) · {latency} · ceiling "
          f"{ceiling:.0f} durable moves/s ({verdict(ceiling >= TARGET_MOVES_PER_S)}) · idle game "
          f"{per_game / 1024:.0f} KB ({verdict(per_game <= TARGET_IDLE_BYTES)})")


def ms(value: float, digits: int = 0) -> str:
    """Milliseconds, or "failed" when some answer never came (Discord's 3 s window)."""
    return "failed" if math.isinf(value) else f"{value:.{digits}f} ms"


def rates(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (channels)")
    parser.add_argument("--rates", type=rates, default=rates("10,20,200"),
                        help="moves/s offered by all games together, one paced phase each")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of a paced phase")
    parser.add_argument("--saturated-seconds", type=float, default=15.0,
                        help="saturated phase length (0 to skip)")
    parser.add_argument("--opponent", choices=("human", "computer"), default="human",
                        help="the second seat: another person, or a computer")
    parser.add_argument("--computer-delay", type=float, default=0.05,
                        help="the bot's computer_delay setting (seconds)")
    parser.add_argument("--render-processes", type=int, default=default_render_processes(),
                        help="the bot's RENDER_PROCESSES setting (0 = draw in threads)")
    parser.add_argument("--hands-per-game", type=int, default=1,
                        help="the hands option of each match")
    parser.add_argument("--frames", type=int, default=25, help="tracemalloc frames per trace")
    parser.add_argument("--traced", type=int, default=16,
                        help="idle games opened under tracemalloc (at most half of --games)")
    parser.add_argument("--timeout", type=float, default=900,
                        help="dump every thread's stack and exit if the run takes longer")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average {load_average()} at start; {args.games} games, opponent "
          f"{args.opponent}, fake Discord and bot in one process")
    faulthandler.dump_traceback_later(args.timeout, exit=True)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
