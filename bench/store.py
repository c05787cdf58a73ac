"""Benchmark: durable record_move throughput and latency on a temporary database.

Two phases over ``--games`` running games, each driven by its own task (as the
bot's per-game lock does):

* saturated: every game records moves back to back; gives the ceiling in
  moves/s, and the latency of a move when the store is the bottleneck;
* paced: the games together offer ``--rate`` moves/s (the bot's target is 200
  with 100 games); gives the latency a player sees at that load.

Prints one summary line at the end. Run: ``.venv/bin/python -m bench.store``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import SeatRow, Store

CODES = [rank + suit for suit in "CDHS"
         for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def fake_state(move: int, size: int) -> dict[str, object]:
    """A state shaped like an engine game's JSON, about ``size`` bytes once encoded."""
    hands = [CODES[i * 7:(i + 1) * 7] for i in range(4)]
    filler = max(0, size - 600)
    return {"variant": "straight", "turn_serial": move, "hands": hands, "stock": CODES[28:],
            "scores": [0, 0, 0, 0], "log": "x" * filler}


async def drive(store: Store, game_id: int, moves: int, interval: float, offset: float,
                size: int, latencies: list[float]) -> None:
    start = time.perf_counter() + offset
    for n in range(moves):
        if interval:
            # games start staggered, so the load is even rather than bursts of len(games)
            await asyncio.sleep(max(0.0, start + n * interval - time.perf_counter()))
        began = time.perf_counter()
        await store.record_move(game_id, n % 4, 1000 + n % 4, {"kind": "draw", "seat": n % 4},
                                fake_state(n, size), deadline=time.time() + 90)
        latencies.append(time.perf_counter() - began)


async def phase(store: Store, games: list[int], moves: int, rate: float | None,
                size: int) -> tuple[float, list[float]]:
    """Moves per second and per-move latencies (seconds) of one phase."""
    latencies: list[float] = []
    interval = len(games) / rate if rate else 0.0
    began = time.perf_counter()
    await asyncio.gather(*(drive(store, game, moves, interval, i * interval / len(games), size,
                                 latencies) for i, game in enumerate(games)))
    return len(latencies) / (time.perf_counter() - began), latencies


def summary(latencies: list[float]) -> str:
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, round(0.99 * len(ms)))]
    return f"median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms"


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        seats = [SeatRow(i, 1000 + i, f"P{i}") for i in range(4)]
        games = []
        for channel in range(args.games):
            game_id = await store.create_game(1, channel, "straight", {}, channel, 1000, seats)
            await store.start_game(game_id, fake_state(0, args.state_bytes), seats, None)
            games.append(game_id)
        saturated, busy = await phase(store, games, args.moves, None, args.state_bytes)
        paced_moves = max(1, round(args.rate * args.paced_seconds / args.games))
        offered, calm = await phase(store, games, paced_moves, args.rate, args.state_bytes)
        await store.close()
    print(f"record_move, {args.games} games, ~{args.state_bytes} B state: "
          f"saturated {saturated:.0f} moves/s ({len(busy)} moves, {summary(busy)}); "
          f"paced at {offered:.0f} moves/s ({len(calm)} moves, {summary(calm)})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=50, help="moves per game, saturated")
    parser.add_argument("--rate", type=float, default=200.0, help="moves/s offered, paced")
    parser.add_argument("--paced-seconds", type=float, default=5.0)
    parser.add_argument("--state-bytes", type=int, default=2000)
    asyncio.run(main(parser.parse_args()))
