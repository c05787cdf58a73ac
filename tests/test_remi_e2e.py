"""End to end: Indonesian Remi on the fake Discord, through buttons and select menus only.

A 3-player match (one person, two computers) to the target, in which the person
takes from position 3 of the spread pile and closes; and a player who times out
three times in a row goes on auto-play until ``/rummy resume``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bot.ai.remi import choose_move
from bot.engine.game import Move
from bot.engine.moves import Discard, Draw
from bot.engine.variants.remi import Close, RemiGame, Take
from bot.engine.views import SeatState
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    choose_in,
    open_panel,
    pick,
    published,
    start_game,
    turn_message,
)
from tests.fakediscord import FakeDiscord, Message, User
from tests.remi_helpers import cards, remi


async def play_by_buttons(fake: FakeDiscord, session: Session, user: User, move: Move) -> str:
    """One move of ``user``'s through the hand panel; the bot's answer."""
    game = session.game
    assert isinstance(game, RemiGame)
    panel = await open_panel(fake, user)
    if isinstance(move, Draw):
        return (await (await fake.click(user, panel, "Draw")).reply()).text
    if isinstance(move, Take):
        await pick(fake, user, panel, move.with_cards)
        return await choose_in(fake, user, panel, "takewith", str(game.position_of(move.card)))
    if isinstance(move, Discard):
        await pick(fake, user, panel, [move.card])
        answer = await (await fake.click(user, panel, "Discard selected")).reply()
        confirm = f"Discard {move.card.code}"
        if confirm in answer.button_labels:  # it breaks the backing of a table set: asked
            return (await (await fake.click(user, answer, confirm)).reply()).text
        return answer.text
    assert isinstance(move, Close)
    await pick(fake, user, panel, [move.card])
    question = await (await fake.click(user, panel, "Close with selected…")).reply()
    assert question.text.startswith(f"**Close with {move.card.code}?**"), question.text
    assert question.button_labels == ["Close", "Cancel"]
    return (await (await fake.click(user, question, "Close")).reply()).text


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_three_player_match_to_the_target_through_buttons(fake_discord: FakeDiscord,
                                                                  db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        # Seed 2: alice takes from position 3 and closes on her way (found by replaying the
        # same choices in the engine alone).
        session = await start_game(fake_discord, bot, alice, variant="remi", computers=2,
                                   seed=2, target=150)
        rng = random.Random(0)
        kinds: list[str] = []
        for _ in range(2000):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            game = session.game
            if game.is_over:
                break
            move = choose_move(game, 0, rng)
            if isinstance(move, Take):
                kinds.append(f"take{game.position_of(move.card)}")
            kinds.append(move.kind)
            before = session.moves
            answer = await play_by_buttons(fake_discord, session, alice, move)
            assert session.moves == before + 1, answer
        game = session.game
        assert game.is_over and max(game.totals) >= 150
        assert "take3" in kinds and "close" in kinds
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        over = [m for m in fake_discord.channel_messages(channel) if " is over.**" in m.text]
        assert len(over) == game.deal_number - 1
        assert all("+" in m.text or "−" in m.text for m in over)  # plus and minus cards
        assert_no_hand_in_channel(fake_discord, channel)


async def test_three_timeouts_put_a_player_on_auto_play_until_resume(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="remi", joiners=[bob],
                                   seed=5, turn_seconds=30)
        sleeper = session.game.to_move
        sleepy = fake_discord.user(session.seats[sleeper].name)
        other = bob if sleepy is alice else alice
        rng = random.Random(1)
        for _ in range(3):  # the sleeper's timer runs out three times; the other one plays
            await fake_discord.wait_until(lambda: session.game.to_move == sleeper, timeout=5)
            session.deadline = time.time()  # as if the turn's time had passed
            bot.controller.schedule(session)
            await fake_discord.wait_until(lambda: session.game.to_move != sleeper
                                          or session.game.auto[sleeper], timeout=5)
            if session.game.auto[sleeper]:
                break
            for _ in range(2):  # the other player's draw and discard, through buttons
                move = choose_move(session.game, 1 - sleeper, rng)
                await play_by_buttons(fake_discord, session, other, move)
        game = session.game
        assert game.auto[sleeper]
        assert game.table_view().players[sleeper].state is SeatState.AUTO
        await published(fake_discord, bot)
        told = [m for m in fake_discord.channel_messages(channel) if "auto-play" in m.text]
        assert told
        # Auto-play plays the sleeper's turns at once: it is the other player's turn.
        assert session.game.to_move == 1 - sleeper
        answer = await (await fake_discord.slash(sleepy, "/rummy resume")).reply()
        assert answer.ephemeral and not session.game.auto[sleeper], answer.text
        refused = await (await fake_discord.slash(sleepy, "/rummy resume")).reply()
        assert refused.text == "you are not on auto-play"
        for _ in range(2):
            move = choose_move(session.game, 1 - sleeper, rng)
            await play_by_buttons(fake_discord, session, other, move)
        assert session.game.to_move == sleeper  # the seat is theirs again


async def test_take_on_the_turn_message_is_a_pile_position_not_a_hand_selection(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 1: *Take 3: 8H* with two cards in hand takes 8H; the 3 is a pile position,
    whatever the hand panel shows (here: two cards, fewer than 3)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="remi", joiners=[bob])
        session.game = remi(2, held=["6H 7H", None], pile="8H JC 9S")
        bot.controller.publisher.wake(session)
        await published(fake_discord, bot)
        panel = await open_panel(fake_discord, alice)
        assert panel.text.count("`#") == 2
        turn = await turn_message(fake_discord)
        assert "Take 3: 8H" in turn.button_labels, turn.button_labels
        answer = await (await fake_discord.click(alice, turn, "Take 3: 8H")).reply()
        game = session.game
        assert game.phase == "discard", answer.text
        assert sorted(c.code for c in game.hands[0]) == ["9S", "JC"]
        assert [c.code for c in game.table[-1].meld.pieces] == ["6H", "7H", "8H"]


async def alice_picks(fake: FakeDiscord, bot, position: RemiGame, picked: str
                      ) -> tuple[Session, Message]:
    """alice and bob's game put in ``position``; alice's panel with ``picked`` selected."""
    alice, bob = fake.user("alice"), fake.user("bob")
    session = await start_game(fake, bot, alice, variant="remi", joiners=[bob])
    session.game = position
    panel = await open_panel(fake, alice)
    await pick(fake, alice, panel, cards(picked))
    return session, panel


async def test_the_close_question_names_the_table_combinations_in_its_total(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 11 (REM-24, REM-25): the total counts the table sequence laid before,
    so the question names it beside the hand's combinations."""
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        _, panel = await alice_picks(fake_discord, bot, remi(
            2, held=["7H 8H 9H QS QD QC 5C", None], table=[(0, "2D 3D 4D")], phase="discard"),
            "5C")
        question = await (await fake_discord.click(alice, panel, "Close with selected…")).reply()
        assert question.text == (
            "**Close with 5C?** You would expose QS QD QC | 7H 8H 9H, beside your table "
            "combination 2D 3D 4D: +110 this deal, +60 (2D 3D 4D | QS QD QC | 7H 8H 9H) "
            "closed with 5C: bonus +50."), question.text


BACKED_BY_HAND = remi(2, held=["2D 3D 4D KS 9C", None], table=[(0, "8D 8S 8H")],
                      phase="discard")
"""REM-E5/E15: alice's set on the table was taken while 2D 3D 4D in hand backed it."""

async def test_a_discard_that_leaves_a_taken_set_unbacked_asks_first(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 11 (REM-A2, REM-E15): 3D is the last sequence backing the set taken
    with it; discarding it is allowed but costs the set, so the panel asks first."""
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        session, panel = await alice_picks(fake_discord, bot, BACKED_BY_HAND, "3D")
        question = await (await fake_discord.click(alice, panel, "Discard selected")).reply()
        assert question.text == (
            "**Discard 3D?** It breaks the last sequence in your hand, which backs your table "
            "set 8S 8H 8D: with no sequence, a set counts minus at the end of the deal."), \
            question.text
        assert question.button_labels == ["Discard 3D", "Cancel"]
        cancelled = await (await fake_discord.click(alice, question, "Cancel")).reply()
        assert cancelled.text == "Not discarded: nothing changed."
        assert session.game.phase == "discard" and len(session.game.hands[0]) == 5
        question = await (await fake_discord.click(alice, panel, "Discard selected")).reply()
        done = await (await fake_discord.click(alice, question, "Discard 3D")).reply()
        assert "discarded 3D" in done.text and session.game.to_move == 1, done.text


async def test_a_discard_that_keeps_the_backing_is_made_at_once(fake_discord: FakeDiscord,
                                                                db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        session, panel = await alice_picks(fake_discord, bot, BACKED_BY_HAND, "KS")
        done = await (await fake_discord.click(alice, panel, "Discard selected")).reply()
        assert "discarded KS" in done.text and session.game.to_move == 1, done.text
