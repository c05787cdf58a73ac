"""Answering interactions: one private line whatever was sent already, and waiting for a
busy game without letting Discord's 3 seconds run out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord

log = logging.getLogger(__name__)

DEFER_AFTER = 1.0
"""Seconds to wait for a busy game before deferring an interaction (Discord allows 3)."""
FAILED = ("Something went wrong on my side. Please try again; `/rummy table` shows where "
          "the game stands.")
"""The answer to an interaction that failed unexpectedly (the error is logged)."""


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """A private answer (unless ``ephemeral=False``), whatever has already been sent."""
    kwargs.setdefault("ephemeral", True)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


@contextlib.asynccontextmanager
async def hold(lock: asyncio.Lock, interaction: discord.Interaction | None = None,
               *, ephemeral: bool = True) -> AsyncIterator[None]:
    """Hold a game's lock; an interaction kept waiting is deferred before Discord gives up."""
    if interaction is not None and lock.locked():
        acquiring = asyncio.ensure_future(lock.acquire())
        try:
            await asyncio.wait_for(asyncio.shield(acquiring), DEFER_AFTER)
        except TimeoutError:
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            await acquiring
    else:
        await lock.acquire()
    try:
        yield
    finally:
        lock.release()
