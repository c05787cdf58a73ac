"""Component data the bot never emits gets one line and changes nothing (issue 19, item 6).

Real Discord delivers only the custom_ids and values a message carries, so these
come from a tampered client (``FakeDiscord.forge``): a Unicode digit, ``take:x``,
an empty or unknown value, a 25-digit game id, an unknown action. Each is read
by ``bot.customids.decode`` alone and refused in one private line, with no
traceback; and an interaction whose handling fails anyway is still answered.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.customids import GAME_GONE, UNREADABLE
from bot.interactions import FAILED
from tests.bot_harness import running_bot
from tests.e2e_helpers import open_panel, published, start_game, turn_message
from tests.fakediscord import FakeDiscord
from tests.remi_helpers import remi


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    logged = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not logged, [r.getMessage() for r in logged]


async def answer_to(inter) -> str:
    message = await inter.reply()
    assert message.ephemeral and "\n" not in message.text, message.text
    return message.text


async def test_forged_buttons_are_refused_in_one_line(fake_discord: FakeDiscord, db: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="remi", joiners=[bob])
        session.game = remi(2, held=["6H 7H", None], pile="8H JC 9S")
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        game_id, moves = session.game_id, session.moves
        forged = [
            "rm:١:draw:",                          # a Unicode digit in the game id
            f"rm:{game_id}:take:x",                # a pile position that is not one
            f"rm:{game_id}:take:٣",                # nor in Arabic-Indic digits
            f"rm:{game_id}:take:",                 # nor missing
            "rm:1234567890123456789012345:hand:",  # a 25-digit game id
            f"rm:{game_id}:explode:",              # an action no game has
            f"rm:{game_id}:meld:m1",               # Straight's action, not Remi's
            f"rm:{game_id}:discard:3",             # a hand selection must be one
            f"rm:{game_id}:confirm:t1~99~1-2|x",   # a show that is not one
            f"rm:{game_id}:draw",                  # no argument part at all
            "rm:9223372036854775808:rematch:",     # one past the largest game id
            "",                                    # nothing
            "rpb:1234567890123456789012345:0:next",  # a replay stepper's, 25 digits
            f"rpb:{game_id}:٣:next",               # a step in Arabic-Indic digits
            f"rpb:{game_id}:3:sideways",           # a way no stepper goes
        ]
        for custom_id in forged:
            inter = await fake_discord.forge(alice, turn, custom_id)
            assert await answer_to(inter) == UNREADABLE, custom_id
        assert session.moves == moves and session.game.phase == "acquire"
        # A well-formed id of a game that is not running is told so, and so is Rematch on it.
        gone = await fake_discord.forge(alice, turn, f"rm:{game_id + 1}:draw:")
        assert await answer_to(gone) == GAME_GONE
        rematch = await fake_discord.forge(alice, turn, f"rm:{game_id + 7}:rematch:")
        assert await answer_to(rematch) == "That game cannot be replayed."
    no_tracebacks(caplog)


async def test_forged_select_values_are_refused_in_one_line(
        fake_discord: FakeDiscord, db: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        panel = await open_panel(fake_discord, alice if session.game.to_move == 0 else bob)
        user = alice if session.game.to_move == 0 else bob
        game_id, moves = session.game_id, session.moves
        pick = next(s["custom_id"] for s in panel.selects if ":pick:" in s["custom_id"])
        forged = [
            (pick, ["١"]),                          # a Unicode digit
            (pick, [""]),                           # an empty value
            (pick, ["0"]),                          # no position 0
            (pick, ["1", "1"]),                     # the same value twice
            (pick, [str(n) for n in range(1, 27)]),  # more values than a select has
            (f"rs:{game_id}:take:", ["ZZ@1"]),      # no such tile
            (f"rs:{game_id}:take:", ["R7@x"]),      # a meld that is not a number
            (f"rs:{game_id}:add:", ["999999"]),     # a meld number out of bounds
            (f"rs:{game_id}:add:", []),             # no value where one is needed
            (f"rs:{game_id}:done:", ["1"]),         # a button's action as a select
            (f"rs:{game_id}:pick:m1", ["1"]),       # a pick menu without its number
            (f"rps:{game_id}:0", ["²"]),            # a replay step that is no number
            (f"rps:{game_id}:0", ["1", "2"]),       # two steps at once
        ]
        for custom_id, values in forged:
            inter = await fake_discord.forge(user, panel, custom_id, values)
            assert await answer_to(inter) == UNREADABLE, (custom_id, values)
        assert session.moves == moves
    no_tracebacks(caplog)


async def test_values_the_message_did_not_offer_are_refused(fake_discord: FakeDiscord,
                                                            db: Path) -> None:
    """A select only ever sends options of its message: an unknown value is not one."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        user = alice if session.game.to_move == 0 else bob
        panel = await open_panel(fake_discord, user)
        pick = next(s for s in panel.selects if ":pick:" in s["custom_id"])
        offered = await fake_discord.forge(user, panel, pick["custom_id"], ["14"], offer=False)
        assert "Selected: " in (await offered.reply()).text  # an offered value: read as usual
        unoffered = await fake_discord.forge(user, panel, pick["custom_id"], ["20"],
                                             offer=False)
        assert await answer_to(unoffered) == UNREADABLE


async def test_an_interaction_that_fails_is_still_answered(
        fake_discord: FakeDiscord, db: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])

        def broken(*args: object) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(session.variant.controls, "action", broken)
        mover = alice if session.game.to_move == 0 else bob
        turn = await turn_message(fake_discord)
        answer = await (await fake_discord.click(mover, turn, "Draw from stock")).reply()
        assert answer.ephemeral and answer.text == FAILED
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1 and failures[0].exc_info is not None
