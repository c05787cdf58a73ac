"""Running a discord.py client in-process against the fake.

A deployed bot points discord.py at another Discord through its own
configuration (``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``), by setting two
class attributes before ``start()``. ``pointed_at`` does exactly that for
in-process tests and restores them afterwards; ``running`` also starts and
stops the client around a block.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and gateway URL at ``fake`` for the block."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, client: ClientT, *, commands: bool = True, timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``fake``, wait until it is ready, close it after.

    ``commands``: also wait for its first command sync (do it in ``setup_hook``).
    A plain ``discord.Client`` IDENTIFYs at once, so this first waits out
    Discord's identify window since the last IDENTIFY (as a person restarting
    a bot would); the rummy bot paces itself (``bot/identify.py``).
    """
    await asyncio.sleep(fake.gateway.identify_wait(0))
    with pointed_at(fake):
        task = asyncio.create_task(client.start(fake.token))
        ready = asyncio.create_task(fake.wait_until_ready(commands=commands, timeout=timeout))
        try:
            await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
            if ready.done() and ready.exception() is not None:
                # The client is likely failing too, with a clearer error of its own.
                await asyncio.wait({task}, timeout=1.0)
            if task.done():
                ready.cancel()
                task.result()
                raise RuntimeError("the client stopped before it was ready")
            ready.result()
            yield client
        finally:
            ready.cancel()
            await client.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task
