"""End to end: the real bot, over real HTTP and websocket, against the fake Discord."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.ai.straight import choose_move
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import slash_command
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_human_and_two_computers_play_a_match(fake_discord: FakeDiscord,
                                                      db: Path | str) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        opened = await fake_discord.slash(alice, "/straight new", computers=2, seed=7, hands=1,
                                          turn_seconds=0)
        lobby = await opened.reply()
        assert "Straight Rummy" in lobby.text and lobby.button_labels
        started = await fake_discord.click(alice, lobby, "Start")
        await started.response()
        session = bot.controller.sessions.in_channel(channel.id)
        assert session is not None
        rng = random.Random(1)
        for _ in range(400):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=10)
            if session.game.is_over:
                break
            move = choose_move(session.game, 0, rng)
            name, options = slash_command("straight", move)
            inter = await fake_discord.slash(alice, name, channel=channel, **options)
            await inter.response()
        assert session.game.is_over
        await fake_discord.settle()
        dms = fake_discord.dms(alice)
        assert dms, "alice got her hand by DM"
        image = Image.open(io.BytesIO(dms[-1].attachments[0].data))
        assert image.width > 300
        for message in fake_discord.channel_messages(channel):
            assert "#1" not in message.text  # no hand in the channel
        board = await fake_discord.slash(alice, "/rummy leaderboard", channel=channel)
        assert "alice" in (await board.reply()).text or "<@" in (await board.reply()).text
