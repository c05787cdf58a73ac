"""Answering interactions: one private line whatever was sent already, and never letting
Discord's 3 seconds run out, whether the game is busy or the work is slow."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import discord

from .engine.i18n import tr
from .i18n import say

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER = 1.0
"""Seconds after an interaction arrives by which it is deferred if its answer is not ready
(Discord allows 3)."""
FAILED = (tr("Something went wrong on my side. Please try again; `/rummy table` shows where "
             "the game stands."))
"""The answer to an interaction that failed unexpectedly (the error is logged)."""


async def reply(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """A private answer (unless ``ephemeral=False``), whatever has already been sent; a
    message (``tr``, an engine refusal) is said in the current language."""
    kwargs.setdefault("ephemeral", True)
    text = say(text) if text else text
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text or discord.utils.MISSING, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


def received(interaction: discord.Interaction) -> float:
    """When the bot started on ``interaction`` (monotonic seconds), noted on first ask."""
    started: float = interaction.extras.setdefault("received", time.monotonic())
    return started


def waited(interaction: discord.Interaction) -> float:
    """Seconds ``interaction`` has been waiting for its answer: since the bot saw it, or
    since Discord made it when that reads longer (it arrives late on a busy bot)."""
    seen = time.monotonic() - received(interaction)
    made = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(seen, made)


async def patiently(interaction: discord.Interaction | None, work: Awaitable[T], *,
                    ephemeral: bool = True) -> T:
    """Await ``work``; if it is still running ``DEFER_AFTER`` s after the interaction
    arrived, defer the interaction first (privately unless ``ephemeral=False``).

    Slow work must not block the event loop (run it in a thread or a process), or
    nothing, this deferral included, happens until it ends.
    """
    task = asyncio.ensure_future(work)
    if interaction is None or interaction.response.is_done():
        return await task
    left = DEFER_AFTER - waited(interaction)
    done, _ = await asyncio.wait({task}, timeout=max(left, 0.0))
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id, exc_info=True)
    return await task


@contextlib.asynccontextmanager
async def hold(lock: asyncio.Lock, interaction: discord.Interaction | None = None,
               *, ephemeral: bool = True) -> AsyncIterator[None]:
    """Hold a game's lock; an interaction kept waiting is deferred before Discord gives up."""
    if interaction is not None and lock.locked():
        await patiently(interaction, lock.acquire(), ephemeral=ephemeral)
    else:
        await lock.acquire()
    try:
        yield
    finally:
        lock.release()
