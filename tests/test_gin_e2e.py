"""End to end: Gin Rummy on the fake Discord, through buttons only (GIN-40, GIN-41).

A game against the computer played to its end by clicks: the upcard offer on
the turn message, draws, discards and knocks from the hand panel (*Knock with
selected…* asks first and shows the melds and deadwood as they would score);
the results show both hands grouped. A restart in the middle of a hand keeps
the hand, and the game carries on by buttons.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.ai.gin import choose_move
from bot.engine.game import Move
from bot.engine.moves import Discard, Draw
from bot.engine.variants.gin import GinGame, Knock, Pass
from bot.engine.views import ResultView
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    open_panel,
    pick,
    pictured,
    published,
    start_game,
)
from tests.fakediscord import FakeDiscord, User
from tests.gin_helpers import gin


async def play_by_buttons(fake: FakeDiscord, session: Session, user: User, move: Move) -> str:
    """One move of ``user``'s through the hand panel (*My hand*); the bot's answer."""
    game = session.game
    assert isinstance(game, GinGame)
    panel = await open_panel(fake, user)
    if isinstance(move, Draw | Pass):
        label = ("Pass" if isinstance(move, Pass) else "Draw" if move.source == "stock"
                 else f"Take {game.pile[-1].code}")
        assert label in panel.button_labels, (label, panel.button_labels)
        return (await (await fake.click(user, panel, label)).reply()).text
    if isinstance(move, Discard):
        await pick(fake, user, panel, [move.card])
        return (await (await fake.click(user, panel, "Discard selected")).reply()).text
    assert isinstance(move, Knock) and move.card is not None
    await pick(fake, user, panel, [move.card])
    question = await (await fake.click(user, panel, "Knock with selected…")).reply()
    preview = game.knock_preview(game.turn, move.card)
    assert question.text.startswith(f"**Knock with {move.card.code}?**"), question.text
    assert preview.grouping.text in question.text  # the melds and deadwood as scored
    assert question.button_labels == ["Knock", "Cancel"]
    return (await (await fake.click(user, question, "Knock")).reply()).text


async def test_a_game_against_the_computer_through_buttons_only(fake_discord: FakeDiscord,
                                                                db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        results = pictured(bot, "results")
        session = await start_game(fake_discord, bot, alice, variant="gin", computers=1,
                                   seed=3, target=40)
        rng = random.Random(0)
        kinds: set[str] = set()
        for _ in range(3000):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            game = session.game
            if game.is_over:
                break
            move = choose_move(game, 0, rng)
            kinds.add(move.kind)
            before = session.moves
            answer = await play_by_buttons(fake_discord, session, alice, move)
            assert session.moves == before + 1, answer
        game = session.game
        assert game.is_over and max(game.running) >= 40
        assert {"draw", "discard", "knock"} <= kinds
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        knocked = [m for m in fake_discord.channel_messages(channel)
                   if "**Knock**" in m.text or "**Gin**" in m.text]
        assert knocked and all("scores" in m.text or "nobody" in m.text for m in knocked)
        shown = [v for v in results if isinstance(v, ResultView)]
        assert any(all(p.grouped for p in v.placings) for v in shown)  # both hands grouped
        assert_no_hand_in_channel(fake_discord, channel)


async def test_a_restart_in_the_middle_of_a_hand(fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="gin", joiners=[bob],
                                   seed=4)
        rng = random.Random(2)
        for _ in range(5):  # the offer and a few turns, by buttons
            seat = session.game.to_move
            user = alice if session.seats[seat].name == "alice" else bob
            await play_by_buttons(fake_discord, session, user, choose_move(session.game, seat,
                                                                           rng))
        state = session.game.to_json()
        assert session.game.hand_number == 1 and not session.game.is_over
    async with running_bot(fake_discord, db) as bot:
        restored = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert restored is not None and restored.game.to_json() == state
        await published(fake_discord, bot)
        for _ in range(4):
            seat = restored.game.to_move
            user = alice if restored.seats[seat].name == "alice" else bob
            before = restored.moves
            answer = await play_by_buttons(fake_discord, restored, user,
                                           choose_move(restored.game, seat, rng))
            assert restored.moves == before + 1, answer
        waiting = bob if restored.seats[restored.game.to_move].name == "alice" else alice
        panel = await open_panel(fake_discord, waiting)
        assert "It is not your turn yet." in panel.text, panel.text


async def test_GIN_40_typed_commands_check_gin_and_refusals(fake_discord: FakeDiscord,
                                                          db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="gin", joiners=[bob])
        names = {s.name: i for i, s in enumerate(session.seats)}
        session.game = gin(held=["2S 3S 4S 8H 8D 8C JD QD KD 4C KH", None],
                           turn=names["alice"])
        before = session.game.to_json()
        check = await (await fake_discord.slash(alice, "/gin check")).reply()
        assert check.ephemeral and "Discarding KH leaves deadwood 4" in check.text, check.text
        refused = await (await fake_discord.slash(alice, "/gin gin", card="KH")).reply()
        assert refused.text == "that is not gin: deadwood 4"
        early = await (await fake_discord.slash(bob, "/gin pass")).reply()
        assert "turn" in early.text.lower()
        assert session.game.to_json() == before  # nothing changed
        done = await (await fake_discord.slash(alice, "/gin knock", card="KH")).reply()
        assert session.game.results and "knock" in done.text.lower(), done.text
