"""Commands at a game's end: a leave that ends the game, and commands racing the end.

Each gets one true line and no traceback: the bot logs no error and never says
"Something went wrong".
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.engine.game import Game
from bot.lobby import OVER
from tests.bot_harness import running_bot
from tests.e2e_helpers import published, start_game
from tests.fakediscord import FakeDiscord


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


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
    """The game has just finished; the publisher has not closed it yet (held back here)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    caplog.set_level(logging.ERROR)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="indian", joiners=[bob])
        publisher = bot.controller.publisher
        woken: list[object] = []
        publisher.wake = woken.append  # type: ignore[method-assign]
        await (await fake_discord.slash(alice, "/rummy leave")).reply()
        assert session.status == "finished" and woken
        assert bot.controller.sessions.by_id(session.game_id) is session
        final: Game = session.game
        answer = await (await fake_discord.slash(bob, f"/rummy {command}")).reply()
        assert answer.ephemeral and answer.text == OVER[command]
        assert session.game is final and session.status == "finished"
        del publisher.wake
        publisher.wake(session)
        await published(fake_discord, bot)
        assert bot.controller.sessions.by_id(session.game_id) is None
    no_errors(caplog)
