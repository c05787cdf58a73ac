"""Benchmark: durable record_move per second and its latency, SQLite and PostgreSQL, for
the store as built and for the candidate it was chosen over.

Two ways to reach both databases were measured on the same workload, in the same run:

* ``store``: the store itself, ``bot.store.Store`` (aiosqlite, or asyncpg with a
  pool, behind the thin dialect layer of ``bot/store/backends.py``);
* ``sqlalchemy``: SQLAlchemy 2 Core, async (``sqlite+aiosqlite``,
  ``postgresql+asyncpg``), running the very same SQL as the store, configured as
  the store is: on SQLite the guarded ``UPDATE games … RETURNING move_count``
  and the ``INSERT INTO moves`` in one transaction, on one connection, with
  ``BEGIN IMMEDIATE`` (SQLAlchemy's documented event recipe), WAL and
  ``synchronous=NORMAL``; on PostgreSQL the two as one statement (a
  data-modifying ``WITH``), on a pool of the store's size.

Each (candidate, database) runs two phases over ``--games`` running games, each
game driven by its own task (as the bot's per-game lock does):

* saturated: every game records moves back to back; the ceiling in moves/s, and
  the latency of a move when the database path is the bottleneck;
* paced: the games together offer ``--rate`` moves/s (the bot's target is 200
  with 100 games); the latency a player would see at that load.

The four run in turn, ``--rounds`` times, and the medians over rounds are
printed, with the ratio of the store to the candidate. SQLite is a temporary
file; PostgreSQL a new database on ``TEST_DATABASE_URL``'s server (default the
local service), dropped afterwards. The last line starts with ``SUMMARY:``.

Run: ``.venv/bin/python -m bench.store`` (``pip install -e '.[bench]'`` brings
SQLAlchemy; ``--candidates store`` measures the store alone).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository root, not bench/, on the path
    _HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bench.common import load_average, percentile, postgres_database
from bot.store import SeatRow, Store
from bot.store.backends import POOL_SIZE
from bot.store.store import _MOVE_COLUMNS, _MOVE_UPDATE, _dump

CODES = [rank + suit for suit in "CDHS"
         for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
DATABASES = ("sqlite", "postgres")
CANDIDATES = ("store", "sqlalchemy")

INSERT_MOVE = f"INSERT INTO moves {_MOVE_COLUMNS} VALUES (:id, :seq, :seat, :user, :move, :now)"
ONE_STATEMENT = (f"WITH moved AS ({_MOVE_UPDATE}) INSERT INTO moves {_MOVE_COLUMNS}"
                 " SELECT :id, move_count, :seat, :user, :move, :now FROM moved RETURNING seq")
"""Store.record_move's SQL, for the candidate: two statements, or (PostgreSQL) one."""

Record = Callable[[int, int, int, dict[str, Any], dict[str, Any]], Awaitable[int]]
"""``(game_id, expected_moves, seat, move, state) -> seq``: one durable move."""


def fake_state(move: int, size: int) -> dict[str, object]:
    """A state shaped like an engine game's JSON, about ``size`` bytes once encoded."""
    hands = [CODES[i * 7:(i + 1) * 7] for i in range(4)]
    filler = max(0, size - 600)
    return {"variant": "straight", "turn_serial": move, "hands": hands, "stock": CODES[28:],
            "scores": [0, 0, 0, 0], "log": "x" * filler}


@dataclass
class Result:
    saturated: list[float] = field(default_factory=list)
    """Moves/s of each round."""
    busy: list[float] = field(default_factory=list)
    """Latencies (ms) under saturation, all rounds."""
    paced: list[float] = field(default_factory=list)
    calm: list[float] = field(default_factory=list)


async def drive(record: Record, game_id: int, first: int, moves: int, interval: float,
                offset: float, size: int, latencies: list[float]) -> None:
    start = time.perf_counter() + offset
    for n in range(first, first + moves):
        if interval:
            # games start staggered, so the load is even rather than bursts of len(games)
            await asyncio.sleep(max(0.0, start + (n - first) * interval - time.perf_counter()))
        began = time.perf_counter()
        seq = await record(game_id, n, n % 4, {"kind": "draw", "seat": n % 4},
                           fake_state(n, size))
        latencies.append((time.perf_counter() - began) * 1000)
        assert seq == n + 1


async def phase(record: Record, games: list[int], first: int, moves: int, rate: float | None,
                size: int) -> tuple[float, list[float]]:
    """Moves per second and per-move latencies (ms) of one phase."""
    latencies: list[float] = []
    interval = len(games) / rate if rate else 0.0
    began = time.perf_counter()
    await asyncio.gather(*(drive(record, game, first, moves, interval,
                                 i * interval / len(games), size, latencies)
                           for i, game in enumerate(games)))
    return len(latencies) / (time.perf_counter() - began), latencies


@contextlib.asynccontextmanager
async def database(kind: str) -> AsyncIterator[str | Path]:
    if kind == "postgres":
        async with postgres_database("bench_store") as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as tmp:
            yield Path(tmp) / "bench.sqlite3"


async def new_games(target: str | Path, games: int, size: int) -> list[int]:
    """``games`` running games, made by the store (which also migrates the database)."""
    seats = [SeatRow(i, 1000 + i, f"P{i}") for i in range(4)]
    ids = []
    async with await Store.open(target) as store:
        for channel in range(games):
            game_id = await store.create_game(1, channel, "straight", {}, channel, 1000, seats)
            await store.start_game(game_id, fake_state(0, size), seats, None)
            ids.append(game_id)
    return ids


@contextlib.asynccontextmanager
async def store_candidate(target: str | Path) -> AsyncIterator[Record]:
    async with await Store.open(target) as store:
        async def record(game_id: int, expected: int, seat: int, move: dict[str, Any],
                         state: dict[str, Any]) -> int:
            return await store.record_move(game_id, seat, 1000 + seat, move, state,
                                           time.time() + 90, expected_moves=expected)
        yield record


@contextlib.asynccontextmanager
async def sqlalchemy_candidate(target: str | Path) -> AsyncIterator[Record]:
    from sqlalchemy import event, text
    from sqlalchemy.ext.asyncio import create_async_engine

    if isinstance(target, Path):
        engine = create_async_engine(f"sqlite+aiosqlite:///{target}", pool_size=1,
                                     max_overflow=0)

        @event.listens_for(engine.sync_engine, "connect")
        def connect(dbapi: Any, _record: Any) -> None:
            dbapi.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
            cursor = dbapi.cursor()
            for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @event.listens_for(engine.sync_engine, "begin")
        def begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        # Autocommit: the one statement is its own transaction, as in the store (SQLAlchemy
        # would otherwise wrap it in BEGIN … COMMIT, two more round trips).
        engine = create_async_engine(target.replace("postgresql://", "postgresql+asyncpg://", 1),
                                     pool_size=POOL_SIZE, max_overflow=0,
                                     isolation_level="AUTOCOMMIT")
    update, insert, one = text(_MOVE_UPDATE), text(INSERT_MOVE), text(ONE_STATEMENT)

    async def record(game_id: int, expected: int, seat: int, move: dict[str, Any],
                     state: dict[str, Any]) -> int:
        now = time.time()
        params = {"state": _dump(state), "deadline": now + 90, "now": now, "id": game_id,
                  "expected": expected, "seat": seat, "user": 1000 + seat, "move": _dump(move)}
        if isinstance(target, str):
            async with engine.connect() as connection:
                return int((await connection.execute(one, params)).scalar_one())
        async with engine.begin() as connection:
            seq: int = (await connection.execute(update, params)).scalar_one()
            await connection.execute(insert, {**params, "seq": seq})
        return seq

    try:
        yield record
    finally:
        await engine.dispose()


CANDIDATE = {"store": store_candidate, "sqlalchemy": sqlalchemy_candidate}


async def measure(candidate: str, kind: str, args: argparse.Namespace, result: Result) -> None:
    async with database(kind) as target:
        games = await new_games(target, args.games, args.state_bytes)
        async with CANDIDATE[candidate](target) as record:
            saturated, busy = await phase(record, games, 0, args.moves, None, args.state_bytes)
            paced_moves = max(1, round(args.rate * args.paced_seconds / args.games))
            offered, calm = await phase(record, games, args.moves, paced_moves, args.rate,
                                        args.state_bytes)
    result.saturated.append(saturated)
    result.busy.extend(busy)
    result.paced.append(offered)
    result.calm.extend(calm)


def latency(values: list[float]) -> str:
    return (f"p50 {statistics.median(values):6.2f} ms  p99 {percentile(values, 99):6.2f} ms"
            if values else "—")


async def main(args: argparse.Namespace) -> None:
    print(f"load average {load_average()} at start; {args.games} games, ~{args.state_bytes} B "
          f"state, {args.rounds} rounds (medians over rounds)")
    results = {(c, d): Result() for d in args.databases for c in args.candidates}
    for round_ in range(args.rounds):
        for (candidate, kind), result in results.items():
            await measure(candidate, kind, args, result)
            print(f"  round {round_ + 1}: {candidate:10} on {kind:8} "
                  f"{result.saturated[-1]:6.0f} moves/s saturated", flush=True)
    print(f"{'':24} {'saturated':>10}  {'latency saturated':<30} "
          f"{'latency paced at ' + format(args.rate, 'g') + '/s':<30}")
    for (candidate, kind), result in results.items():
        print(f"{candidate + ' on ' + kind:24} {statistics.median(result.saturated):7.0f}/s  "
              f"{latency(result.busy):<30} {latency(result.calm):<30}")
    summary = []
    for kind in args.databases:
        ours = results.get(("store", kind))
        peer = results.get(("sqlalchemy", kind))
        if ours is None:
            continue
        text = f"{kind} store {statistics.median(ours.saturated):.0f} moves/s"
        if peer is not None:
            ratio = statistics.median(ours.saturated) / statistics.median(peer.saturated)
            text += (f" vs SQLAlchemy {statistics.median(peer.saturated):.0f} ({ratio:.1f}×),"
                     f" paced p99 {percentile(ours.calm, 99):.1f} vs "
                     f"{percentile(peer.calm, 99):.1f} ms")
        summary.append(text)
    print(f"load average {load_average()} at end")
    print(f"SUMMARY: record_move, {args.games} games: " + "; ".join(summary))


def names(allowed: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        chosen = [part.strip() for part in text.split(",") if part.strip()]
        unknown = set(chosen) - set(allowed)
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)}")
        return chosen
    return parse


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=50, help="moves per game, saturated")
    parser.add_argument("--rate", type=float, default=200.0, help="moves/s offered, paced")
    parser.add_argument("--paced-seconds", type=float, default=5.0)
    parser.add_argument("--state-bytes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", type=names(DATABASES), default=list(DATABASES),
                        help="sqlite,postgres")
    parser.add_argument("--candidates", type=names(CANDIDATES), default=list(CANDIDATES),
                        help="store,sqlalchemy")
    asyncio.run(main(parser.parse_args()))
