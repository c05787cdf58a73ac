"""Pictures for messages, drawn off the event loop (UX.md §6: answer within 3 seconds).

Drawing a hand or a table is pure Python and Pillow work that mostly holds the
GIL, so threads alone would still slow every interaction down. With
``RENDER_PROCESSES`` > 0 pictures are drawn in worker processes, which use the
machine's other cores; with 0 they are drawn in threads (tests, one-core
machines). Views are plain frozen data, so they cross to a worker by pickling.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

import discord

import cardart
from cardart import RenderedHand, words
from cardart.open_table import render_open_table

from .engine.replay import OpenTableView
from .engine.views import HandView, ResultView, ScoreSeries, TableView
from .i18n import current, say, speaking
from .registry import TITLES
from .texts import with_names_in

log = logging.getLogger(__name__)
T = TypeVar("T")

WORKER_NICENESS = 10
HAND_CACHE_SIZE = 64
"""Recent hand pictures kept: a hand is drawn once for its DM and its private panel."""


class Renderer:
    """Draws every picture the bot sends, in worker processes or threads."""

    def __init__(self, processes: int = 0) -> None:
        self.pool: Executor | None = None
        if processes > 0:
            # spawn: a fresh interpreter, never a fork of the bot, whose threads may hold locks.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(processes, mp_context=context,
                                            initializer=_start_worker, initargs=(os.getpid(),))
        self._hands: OrderedDict[tuple[HandView, str, str, str],
                                 asyncio.Future[RenderedHand]] = OrderedDict()

    async def start(self) -> None:
        """Start the workers now (importing Pillow and the fonts) rather than on first use."""
        if self.pool is not None:
            await self._run(cardart.warm_up)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function`` in a worker, drawing its words in the current language."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, partial(_speaking, current(), function,
                                                             *args, **kwargs))

    async def hand(self, view: HandView, sort: str = "suit", style: str = "four") -> RenderedHand:
        """A hand's picture; asked twice at once (DM and panel), it is drawn once."""
        key = (view, sort, style, current())
        drawing = self._hands.get(key)
        failed = drawing is not None and drawing.done() and (
            drawing.cancelled() or drawing.exception() is not None)
        if drawing is None or failed:
            drawing = asyncio.ensure_future(
                self._run(cardart.render_hand, view, sort=sort, style=style))
            self._hands[key] = drawing
            if len(self._hands) > HAND_CACHE_SIZE:
                self._hands.popitem(last=False)
        else:
            self._hands.move_to_end(key)
        return await asyncio.shield(drawing)

    async def table(self, view: TableView, names: Sequence[str], style: str = "four") -> bytes:
        return await self._run(cardart.render_table, view, list(names), style=style,
                               title=TITLES.get(view.variant))

    async def results(self, view: ResultView, names: Sequence[str]) -> bytes:
        return await self._run(cardart.render_results, with_names_in(view, names),
                               list(names), title=TITLES.get(view.variant))

    async def open_table(self, view: OpenTableView, names: Sequence[str],
                         style: str = "four") -> bytes:
        """A replay's step: the table with every hand open (only ever after the game)."""
        return await self._run(render_open_table, view, list(names), style=style,
                               title=TITLES.get(view.table.variant))

    async def chart(self, series: ScoreSeries, names: Sequence[str]) -> bytes:
        return await self._run(cardart.render_score_chart, series, list(names),
                               title=TITLES.get(series.variant))


def _speaking(language: str, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``function`` in ``language`` (a worker's thread or process has its own context),
    the pictures' words said by the bot's catalogs."""
    words.use(say)
    with speaking(language):
        return function(*args, **kwargs)


def _start_worker(parent: int) -> None:
    """In a worker: yield the CPU to the bot, and exit as soon as the bot is gone.

    Pictures are background work; answering interactions is not, so the worker
    runs at a lower priority. A worker of a bot killed outright would otherwise
    wait for work for ever, holding the bot's stdout and stderr open.
    """
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def as_file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)
