"""Computer players' moves, the strong level's search kept off the event loop (issue 23).

The standard and easy players answer in milliseconds and run where they are
asked. A strong player searches for up to ``COMPUTER_THINK_SECONDS`` (or a fixed
``COMPUTER_THINK_PLAYOUTS``) per move, which would stall every interaction of
every game if it ran on the event loop and, being pure Python, would still
slow them in a thread (the GIL). It runs in a worker process instead, started
on first use (a bot whose games have no strong computer never starts it) with
``spawn`` (never a fork of the bot, whose threads may hold locks), at a lower
priority than the bot, and shut down with it. The game, the player and its
seeded generator cross to the worker by pickling; the move comes back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from .ai.levels import Budget
from .engine.game import Game, Move
from .registry import ChooseMove
from .render import _start_worker

log = logging.getLogger(__name__)


def budget_of(seconds: float, playouts: int) -> Budget:
    """The strong players' budget: a fixed number of samples when given, else a time."""
    return Budget(playouts=playouts) if playouts > 0 else Budget(seconds=seconds)


def think(chooser: Any, game: Game[Any], seat: int, rng: random.Random, budget: Budget) -> Move:
    """In the worker: the searching player's move (a pure function of its arguments)."""
    move: Move = chooser(game, seat, rng, budget=budget)
    return move


class Thinker:
    """Chooses computer players' moves; searches in worker processes (or a thread)."""

    def __init__(self, processes: int = 1, budget: Budget | None = None) -> None:
        self.processes = processes
        self.budget = budget if budget is not None else Budget(seconds=1.0)
        self.pool: Executor | None = None
        self.closed = False

    @staticmethod
    def searches(chooser: ChooseMove) -> bool:
        """Whether ``chooser`` is slow enough to be sent to a worker (a search)."""
        return bool(getattr(chooser, "searches", False))

    async def choose(self, chooser: ChooseMove, game: Game[Any], seat: int,
                     rng: random.Random) -> Move:
        """``chooser``'s move for ``seat``, without holding up the event loop."""
        if not self.searches(chooser):  # quick, but Tile Rummy's best play may take a while
            return await asyncio.to_thread(chooser, game, seat, rng)
        job = partial(think, chooser, game, seat, rng, self.budget)
        if self.processes <= 0:
            return await asyncio.to_thread(job)
        if self.closed:
            raise RuntimeError("the bot is shutting down")
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(self.processes, mp_context=context,
                                            initializer=_start_worker,
                                            initargs=(os.getpid(),))
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, job)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): start a new one next time, and let
            # this move be the standard player's rather than leave the game stuck.
            log.exception("the search worker died; the standard player moves this time")
            self.pool = None
            standard: ChooseMove = chooser.standard  # type: ignore[attr-defined]
            return standard(game, seat, rng)

    def close(self) -> None:
        """Stop the workers: a search in progress is abandoned (its game is not played on)."""
        self.closed = True
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
