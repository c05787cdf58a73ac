"""Commands at a game's end: a leave that ends the game, and commands racing the end.

Each gets one true line and no traceback: the bot logs no error and never says
"Something went wrong".
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.lobby import OVER
from tests.bot_harness import running_bot
from tests.e2e_helpers import published, start_game
from tests.fakediscord import FakeDiscord


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_leave_that_ends_a_two_player_game_is_answered_and_recorded(
        fake_discord: FakeDiscord, db: Path, caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    caplog.set_level(logging.ERROR)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="indian", joiners=[bob])
        left = await (await fake_discord.slash(bob, "/rummy leave")).reply()
        assert left.ephemeral
        assert left.text == "You left, and that ended the game: the results are in the channel."
        assert session.status == "finished" and session.game.is_over
        await published(fake_discord, bot)
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        places = {p.name: p.place for p in history[0].players}
        assert places == {"alice": 1, "bob": 2}
        again = await (await fake_discord.slash(bob, "/rummy leave")).reply()
        assert again.text.startswith("There is no game in this channel.")
    no_errors(caplog)


@pytest.mark.parametrize("command", ["leave", "cancel", "join", "start"])
async def test_commands_racing_the_end_of_a_game_get_a_true_answer(
        fake_discord: FakeDiscord, db: Path, caplog: pytest.LogCaptureFixture,
        command: str) -> None:
    """A command that found the game just before its last move waits for that move, then
    answers truthfully; the channel is free for a new game as soon as the game is over."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    caplog.set_level(logging.ERROR)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="indian", joiners=[bob])
        game = session.game
        async with session.lock:  # the game's last move is being made…
            racing = await fake_discord.slash(bob, f"/rummy {command}")
            await asyncio.sleep(0.05)  # …while the command waits for it
            await bot.controller.play(session, game.forfeit_move(0), alice.id)
        assert session.status == "finished"
        answer = await racing.reply()
        assert answer.ephemeral and answer.text == OVER[command]
        assert session.game.is_over
        assert bot.controller.sessions.in_channel(fake_discord.channel("games").id) is None
        await published(fake_discord, bot)
        again = await (await fake_discord.slash(bob, f"/rummy {command}")).reply()
        assert again.text.startswith("There is no game in this channel.")
    no_errors(caplog)


async def test_a_final_post_that_discord_refuses_still_frees_the_channel(
        fake_discord: FakeDiscord, db: Path) -> None:
    """403 on the results message: logged, and the channel takes a new game all the same."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="indian", joiners=[bob])
        fake_discord.fail_next("POST /channels/{channel_id}/messages", status=403,
                               code=50013, times=5)
        await (await fake_discord.slash(alice, "/rummy leave")).reply()
        await published(fake_discord, bot)
        assert session.status == "finished" and not session.tasks
        lobby = await (await fake_discord.slash(bob, "/straight new")).reply()
        assert "Open lobby" in lobby.text
