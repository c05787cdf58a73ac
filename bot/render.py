"""Pictures for messages, drawn in a worker thread so the event loop stays free (UX.md §6)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

import discord

import cardart
from cardart import RenderedHand

from .engine.views import HandView, ResultView, ScoreSeries, TableView


async def hand_picture(view: HandView, sort: str = "suit", style: str = "four") -> RenderedHand:
    return await asyncio.to_thread(cardart.render_hand, view, sort=sort, style=style)


async def table_picture(view: TableView, names: Sequence[str], style: str = "four") -> bytes:
    return await asyncio.to_thread(cardart.render_table, view, list(names), style=style)


async def results_picture(view: ResultView, names: Sequence[str]) -> bytes:
    return await asyncio.to_thread(cardart.render_results, view, list(names))


async def chart_picture(series: ScoreSeries, names: Sequence[str]) -> bytes:
    return await asyncio.to_thread(cardart.render_score_chart, series, list(names))


def as_file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)
