"""``python -m bot.cluster --processes N``: the bot's shards in N processes, kept running.

1. Reads the configuration as ``python -m bot`` does (``.env`` and the
   environment), then asks Discord once (``GET /gateway/bot``) for the
   recommended shard count (unless ``SHARD_COUNT`` is set) and today's session
   starts. It refuses to start, in one line with status 2, when fewer session
   starts remain than shards to start: past the limit Discord resets the token.
2. Starts N ``python -m bot`` processes with the same environment plus
   ``SHARD_COUNT`` and a contiguous ``SHARD_IDS`` range each (4 shards, 2
   processes: ``0-1`` and ``2-3``). They share the database (``DATABASE_URL``
   or ``DATABASE_PATH``): each owns its shards' games, and their IDENTIFYs
   queue up there by bucket (:mod:`bot.identify`).
3. Restarts a process that exits: after 1 s, then 2, 4, … up to a minute
   while it keeps failing within a minute of starting; after ``--max-restarts``
   such failures in a row it stops the cluster (status 1) rather than loop
   forever, spending a session start per shard each time. A process that
   cannot start (status 2: configuration, token, session starts) stops the
   cluster with status 2; one whose shards another process took over (status
   3) is not restarted.
4. On Ctrl-C or SIGTERM it sends SIGTERM to every process (each lets moves in
   progress finish and closes its database), waits up to ``--stop-timeout``
   seconds, then kills what is left, and exits 0.

The processes run in their own session, so Ctrl-C in a terminal reaches only
the launcher, which stops them in order. On Linux each also gets SIGTERM if
the launcher dies without stopping them (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from .app import EXIT_TAKEN_OVER, point_at
from .config import Config, ConfigError
from .shards import contiguous_ranges, format_shard_ids, identify_budget_problem

if TYPE_CHECKING:  # discord.types cannot be imported first at run time (a circular import)
    from discord.types.gateway import SessionStartLimit

log = logging.getLogger("bot.cluster")

STABLE_SECONDS = 60.0
"""A process that ran this long before exiting was not crash-looping: its backoff resets."""
MAX_RESTART_DELAY = 60.0
EXIT_CANNOT_START = 2


@dataclass(frozen=True, slots=True)
class Plan:
    """How many shards, and which process runs which."""

    shard_count: int
    ranges: list[tuple[int, ...]]


@dataclass
class Worker:
    """One ``python -m bot`` process slot and its restarts."""

    shards: tuple[int, ...]
    shard_count: int
    process: asyncio.subprocess.Process | None = None
    started_at: float = 0.0
    quick_exits: int = 0
    """Exits in a row, each within :data:`STABLE_SECONDS` of starting."""
    history: list[int] = field(default_factory=list)
    """Exit statuses so far."""

    @property
    def name(self) -> str:
        return f"shards {format_shard_ids(self.shards)} of {self.shard_count}"

    def env(self, base: dict[str, str]) -> dict[str, str]:
        return {**base, "SHARD_COUNT": str(self.shard_count),
                "SHARD_IDS": format_shard_ids(self.shards)}


class StartError(Exception):
    """The cluster cannot start; the message is one line for the operator."""


async def ask_discord(config: Config) -> tuple[int, SessionStartLimit]:
    """``GET /gateway/bot``: (recommended shard count, session_start_limit)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(config.token)
        shards, _, limits = await http.get_bot_gateway()
    except discord.LoginFailure:
        raise StartError("Discord refused DISCORD_TOKEN (invalid or reset token); copy the "
                         "token again from the Developer Portal") from None
    except discord.GatewayNotFound:
        raise StartError("Discord did not answer GET /gateway/bot; try again in a "
                         "moment") from None
    finally:
        await http.close()
    return shards, limits


def plan(config: Config, processes: int, recommended: int,
         limits: SessionStartLimit) -> Plan:
    """Split the shards into ``processes`` ranges, or say why the cluster cannot start."""
    if config.shard_ids is not None:
        raise StartError("SHARD_IDS is for one process; the launcher gives each process its "
                         "range: unset SHARD_IDS (keep SHARD_COUNT to choose the count)")
    count = config.shard_count or recommended
    if processes > count:
        raise StartError(f"--processes {processes} is more than the {count} shard(s) to run; "
                         f"use at most {count} or set SHARD_COUNT higher")
    problem = identify_budget_problem(limits["remaining"], count, limits["reset_after"])
    if problem is not None:
        raise StartError(problem)
    return Plan(count, contiguous_ranges(count, processes))


def _parent_death_signal() -> Callable[[], None] | None:
    """On Linux, a ``preexec_fn`` that has the child get SIGTERM when the launcher dies.

    The C function is looked up here, before any fork: the child only calls it.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def set_signal() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM)

    return set_signal


class Cluster:
    """Starts, restarts and stops the processes of a :class:`Plan`."""

    def __init__(self, shards: Plan, *, base_env: dict[str, str], restart_delay: float,
                 max_restarts: int, stop_timeout: float) -> None:
        self.workers = [Worker(r, shards.shard_count) for r in shards.ranges]
        self.base_env = base_env
        self.restart_delay = restart_delay
        self.max_restarts = max_restarts
        self.stop_timeout = stop_timeout
        self.stopping = asyncio.Event()
        self._preexec = _parent_death_signal()

    async def run(self) -> int:
        """Until a signal (0), a process that cannot start (2) or a crash loop (1)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stop)
        supervisors = [asyncio.create_task(self.supervise(w), name=w.name)
                       for w in self.workers]
        status = 0
        try:
            pending = set(supervisors)
            while pending and not self.stopping.is_set():
                stop = asyncio.create_task(self.stopping.wait())
                done, pending = await asyncio.wait(pending | {stop},
                                                   return_when=asyncio.FIRST_COMPLETED)
                stop.cancel()
                pending.discard(stop)
                for task in done - {stop}:
                    outcome = task.result()
                    if outcome is not None and outcome != EXIT_TAKEN_OVER:
                        status = outcome
                        self.stop()
            if not self.stopping.is_set():  # every process was taken over by others
                log.warning("other processes took over every shard: nothing left to run")
                status = EXIT_TAKEN_OVER
        finally:
            self.stop()
            await self.stop_all()
            await asyncio.gather(*supervisors, return_exceptions=True)
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
        return status

    def stop(self) -> None:
        if not self.stopping.is_set():
            log.info("stopping every process")
            self.stopping.set()

    async def supervise(self, worker: Worker) -> int | None:
        """Run and restart one process; returns a status that ends the cluster, or
        ``None`` when the cluster is stopping."""
        while not self.stopping.is_set():
            await self.spawn(worker)
            assert worker.process is not None
            status = await worker.process.wait()
            worker.history.append(status)
            if self.stopping.is_set():
                return None
            ran = time.monotonic() - worker.started_at
            if status == EXIT_CANNOT_START:
                log.error("%s (pid %d) could not start (status 2, see its error above); "
                          "stopping the cluster", worker.name, worker.process.pid)
                return EXIT_CANNOT_START
            if status == EXIT_TAKEN_OVER:
                log.warning("%s (pid %d): other processes took its shards over; not "
                            "restarting it", worker.name, worker.process.pid)
                return EXIT_TAKEN_OVER
            worker.quick_exits = worker.quick_exits + 1 if ran < STABLE_SECONDS else 1
            if worker.quick_exits > self.max_restarts:
                log.error("%s exited %d times in a row within %.0f s of starting (last status "
                          "%d); stopping the cluster rather than restarting it forever",
                          worker.name, worker.quick_exits, STABLE_SECONDS, status)
                return 1
            delay = min(self.restart_delay * 2 ** (worker.quick_exits - 1), MAX_RESTART_DELAY)
            log.warning("%s (pid %d) exited with status %d after %.0f s; restarting it in "
                        "%.1f s", worker.name, worker.process.pid, status, ran, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), delay)
        return None

    async def spawn(self, worker: Worker) -> None:
        worker.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=worker.env(self.base_env),
            stdin=asyncio.subprocess.DEVNULL, start_new_session=True,
            preexec_fn=self._preexec)
        worker.started_at = time.monotonic()
        log.info("started %s as pid %d", worker.name, worker.process.pid)

    async def stop_all(self) -> None:
        """SIGTERM to every running process, then wait; kill those still running after
        ``stop_timeout`` seconds."""
        running = [w.process for w in self.workers
                   if w.process is not None and w.process.returncode is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        waits = [asyncio.create_task(p.wait()) for p in running]
        if not waits:
            return
        _, late = await asyncio.wait(waits, timeout=self.stop_timeout)
        for process in running:
            if process.returncode is None:
                log.warning("pid %d did not stop within %.0f s of SIGTERM: killing it",
                            process.pid, self.stop_timeout)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        if late:
            await asyncio.wait(late)


async def launch(config: Config, args: argparse.Namespace) -> int:
    recommended, limits = await ask_discord(config)
    shards = plan(config, args.processes, recommended, limits)
    log.info("%d shard(s) in %d process(es): %s (max_concurrency %d, %d session starts left "
             "today)", shards.shard_count, len(shards.ranges),
             ", ".join(format_shard_ids(r) for r in shards.ranges),
             limits["max_concurrency"], limits["remaining"])
    cluster = Cluster(shards, base_env=dict(os.environ), restart_delay=args.restart_delay,
                      max_restarts=args.max_restarts, stop_timeout=args.stop_timeout)
    return await cluster.run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.cluster",
                                     description="Run the bot's shards in several processes.")
    parser.add_argument("--processes", type=int, default=1,
                        help="processes to start, each a contiguous range of shards (default 1)")
    parser.add_argument("--restart-delay", type=float, default=1.0,
                        help="seconds before restarting a process that exited; doubles while "
                             "it keeps failing (default 1)")
    parser.add_argument("--max-restarts", type=int, default=5,
                        help="quick failures in a row before the cluster gives up (default 5)")
    parser.add_argument("--stop-timeout", type=float, default=30.0,
                        help="seconds to wait after SIGTERM before killing (default 30)")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CANNOT_START
    discord.utils.setup_logging(level=config.log_level, root=True)
    point_at(config)
    try:
        return asyncio.run(launch(config, args))
    except StartError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CANNOT_START


if __name__ == "__main__":
    sys.exit(main())
