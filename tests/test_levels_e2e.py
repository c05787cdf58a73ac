"""Issue 23 end to end: in every variant a person plays a whole game against a strong
computer, opened with ``/<variant> new computers:1 level:strong``, through the fake Discord.

The strong computer searches in the bot's worker process (``think_playouts`` fixes its
thinking, as tests must not depend on time); the person's answers are timed by the fake
(any answer after Discord's 3 s fails the test, tests/fakediscord/plugin.py). The level
shows beside the computer's name in the lobby, the turn messages and the results, and in
the person's ``/rummy stats``.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.registry import VARIANTS
from bot.sessions import Session
from tests import test_penang_e2e, test_remi_e2e, test_rummi_e2e, test_tiles_e2e
from tests.bot_harness import running_bot
from tests.e2e_helpers import published, slash_command
from tests.fakediscord import FakeDiscord, User
from tests.test_indian_e2e import play_as

OPTIONS: dict[str, dict[str, Any]] = {
    "straight": {"hands": 1}, "indian": {}, "penang": {}, "remi": {"deals": 1},
    "rummi": {}, "tiles": {},
}
"""One hand or game of each variant (Straight and Remi play matches by default)."""
SEEDS = {"tiles": 4}
"""A Tile Rummy deal whose game is short enough for the suite (the default seed is 21)."""

Play = Callable[[FakeDiscord, Session, User, random.Random, list[Any]], Awaitable[object]]


async def typed(fake: FakeDiscord, session: Session, user: User, rng: random.Random,
                panels: list[Any]) -> object:
    move = session.variant.computer("standard")(session.game, 0, rng)
    name, options = slash_command(session.variant.key, move)
    return await (await fake.slash(user, name, **options)).response()


async def by_buttons(fake: FakeDiscord, session: Session, user: User, rng: random.Random,
                     panels: list[Any]) -> object:
    """One move through the variant's buttons; ``panels``: Penang's hand panels this turn
    (its *Done* is pressed on the panel, where it is already enabled). The person plays
    Tile Rummy as the easy computer does: the button helper places tiles from the rack."""
    key = session.variant.key
    move = session.variant.computer("easy" if key == "tiles" else "standard")(
        session.game, 0, rng)
    if key == "penang":
        return await test_penang_e2e.play_by_buttons(fake, user, move, panels)
    if key == "remi":
        return await test_remi_e2e.play_by_buttons(fake, session, user, move)
    if key == "rummi":
        return await test_rummi_e2e.play_by_buttons(fake, user, move)
    return await test_tiles_e2e.play_by_buttons(fake, user, move)


async def indian(fake: FakeDiscord, session: Session, user: User, rng: random.Random,
                 panels: list[Any]) -> object:
    return await play_as(fake, session, user, rng)


PLAYS: dict[str, Play] = {"straight": typed, "indian": indian, "penang": by_buttons,
                          "remi": by_buttons, "rummi": by_buttons, "tiles": by_buttons}


NOT_YET = {"rummy500", "gin"}
"""Merged while this file was written: their moves need their own typed commands here (their
strong computers are covered by tests/test_levels.py; Gin's e2e in tests/test_gin_e2e.py
plays a whole game against its standard computer)."""


def test_every_variant_is_played_here() -> None:
    assert set(PLAYS) == set(VARIANTS) - NOT_YET == set(OPTIONS)


@pytest.mark.timeout(300)  # a whole game of Tile Rummy is hundreds of staging moves
@pytest.mark.parametrize("key", sorted(PLAYS))
async def test_a_person_plays_a_whole_game_against_a_strong_computer(
        fake_discord: FakeDiscord, db: Path, key: str) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        lobby = await (await fake_discord.slash(alice, f"/{key} new", computers=1,
                                                level="strong", seed=SEEDS.get(key, 21),
                                                turn_seconds=0,
                                                **OPTIONS[key])).reply()
        assert "Ada (strong bot)" in lobby.text
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(channel.id)
        assert session is not None and session.seats[1].level == "strong"
        rng = random.Random(0)
        panels: list[Any] = []
        for _ in range(3000):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=60)
            if session.game.is_over:
                break
            before, turn = session.moves, session.game.turn_serial
            answer = await PLAYS[key](fake_discord, session, alice, rng, panels)
            assert session.moves == before + 1, answer
            if session.game.turn_serial != turn:
                panels.clear()
        assert session.game.is_over
        assert bot.controller.thinker.pool is not None  # the search ran in the worker
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=30)
        await published(fake_discord, bot)
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        shown = [m.text for m in fake_discord.channel_messages(channel)]
        assert any("Ada (strong bot)" in text for text in shown if text != lobby.text)
        assert "Ada (strong bot)" in final.text or "Ada (strong bot)" in lobby.text
        stats = await (await fake_discord.slash(alice, "/rummy stats")).reply()
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        person, = (p for p in history[0].players if not p.is_computer)
        computer, = (p for p in history[0].players if p.is_computer)
        beaten = person.place < computer.place
        assert ("beat 1 strong computer" in stats.text) == beaten, stats.text
    mine = [r.answer_time for r in fake_discord.world.interactions.values()
            if r.user.id == alice.id and r.answer_time is not None]
    assert mine  # each answered within 3 s, or the fake fails the test (plugin.py)
    print(f"{key}: {len(mine)} answers to alice, median {statistics.median(mine):.3f} s, "
          f"max {max(mine):.3f} s")


async def test_a_person_is_answered_while_the_strong_computer_thinks(fake_discord: FakeDiscord,
                                                                    db: Path) -> None:
    """The search runs in the worker without the game's lock: ``/rummy hand`` and the
    hand panel are answered before the computer's move is played, not after it."""
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001, think_playouts=60) as bot:
        lobby = await (await fake_discord.slash(alice, "/straight new", computers=1,
                                                level="strong", seed=3, hands=1,
                                                turn_seconds=0)).reply()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert session is not None
        rng = random.Random(0)
        while session.game.to_move == 0:  # alice's turn (draw, then discard), if first
            await typed(fake_discord, session, alice, rng, [])
        assert session.game.to_move == 1
        before = session.moves
        hand = await (await fake_discord.slash(alice, "/rummy hand")).reply()
        assert hand.ephemeral and session.moves == before  # answered while it thinks
        await fake_discord.wait_until(lambda: session.moves > before, timeout=120)
        await published(fake_discord, bot)
