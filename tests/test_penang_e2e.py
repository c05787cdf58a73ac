"""End to end: Penang Rummy on the fake Discord, played through buttons and select menus only.

The human seat is played with the computer player's choices, each turned into
what a phone player does: *My hand*, pick cards in the menus (two menus for a
hand over 25), *Meld selected*, a lay-off menu, the *Swap* menu, *Done*, *Dead…*.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.ai.penang import choose_move
from bot.engine.game import Move
from bot.engine.moves import Done, LayOff, MeldDown, Swap
from bot.engine.variants.penang import DeclareDead, PenangGame
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    choose_in,
    cut_words,
    open_panel,
    pick,
    pictured,
    published,
    shown_codes,
    start_game,
    turn_message,
)
from tests.fakediscord import FakeDiscord, Message, User
from tests.penang_helpers import penang


async def play_by_buttons(fake: FakeDiscord, user: User, move: Move,
                          panels: list[Message] | None = None) -> str:
    """One action of ``user``'s, made through buttons and menus only; the bot's answer.

    ``panels`` keeps the hand panel in use: after an action the player presses
    *Done* on it, where it is already enabled, as a person would.
    """
    panels = panels if panels is not None else []
    if isinstance(move, Done):
        where = panels[-1] if panels else await turn_message(fake)
        return (await (await fake.click(user, where, "Done")).reply()).text
    if isinstance(move, DeclareDead):
        turn = await turn_message(fake)
        question = await (await fake.click(user, turn, "Dead…")).reply()
        assert question.button_labels == ["Dead", "Cancel"]
        return (await (await fake.click(user, question, "Dead")).reply()).text
    panel = await open_panel(fake, user)
    panels.append(panel)
    if isinstance(move, Swap):
        return await choose_in(fake, user, panel, "swap", f"{move.card.code}@{move.meld}")
    if isinstance(move, MeldDown):
        (meld,) = move.melds
        await pick(fake, user, panel, [p for p, _ in meld])
        return (await (await fake.click(user, panel, "Meld selected")).reply()).text
    assert isinstance(move, LayOff)
    await pick(fake, user, panel, [p for p, _ in move.cards])
    return await choose_in(fake, user, panel, "layoff", str(move.meld))


async def play_human_seat(fake: FakeDiscord, session: Session, user: User) -> dict[str, int]:
    """Play ``user``'s seat to the end of the match; counts what was used."""
    seat = session.seat_of(user.id)
    rng = random.Random(seat)
    used: dict[str, int] = {}
    panels: list[Message] = []
    for _ in range(3000):
        await fake.wait_until(lambda: session.game.is_over or session.game.to_move == seat,
                              timeout=30)
        game = session.game
        if game.is_over:
            return used
        move = choose_move(game, seat, rng)
        used[move.kind] = used.get(move.kind, 0) + 1
        before, turn = session.moves, game.turn_serial
        answer = await play_by_buttons(fake, user, move, panels)
        assert session.moves == before + 1, answer
        if session.game.turn_serial != turn:
            panels.clear()  # a new turn: the player opens My hand afresh
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_four_players_one_human_play_a_match_through_buttons(fake_discord: FakeDiscord,
                                                                   db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, variant="penang", computers=3,
                                   seed=8, games=2)
        game = session.game
        assert isinstance(game, PenangGame) and game.players == 4
        dealt = sum(map(len, game.hands)) + sum(len(m.meld.pieces) for m in game.table)
        assert dealt == 80  # PEN-5: 20 each
        used = await play_human_seat(fake_discord, session, alice)
        assert used.get("meld") and used.get("done") and used.get("layoff"), used
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        assert "Seed: `8`" in final.text
        assert {a.filename for a in final.attachments} >= {"results.png", "table.png"}
        over = [m for m in fake_discord.channel_messages(channel) if " is over.**" in m.text]
        assert [m.text.split(" is over")[0] for m in over] == ["**Game 1"]
        assert_no_hand_in_channel(fake_discord, channel)
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        assert history[0].variant == "penang" and len(history[0].players) == 4


async def test_three_players_play_25_card_hands_from_one_menu(fake_discord: FakeDiscord,
                                                        db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, variant="penang", computers=2,
                                   seed=3)
        assert len(session.game.hand(0)) == 25  # PEN-5: 25 each with 3 players
        await published(fake_discord, bot)
        panel = await open_panel(fake_discord, alice)
        menus = [s for s in panel.selects if ":pick:" in s["custom_id"]]
        assert [len(m["options"]) for m in menus] == [25]  # exactly Discord's limit
        assert len(shown_codes(panel)) == 25
        dm = fake_discord.dms(alice)[-1]
        assert dm.attachments[0].image().height > 500  # two rows of cards
        await play_human_seat(fake_discord, session, alice)
        assert session.game.is_over


async def test_a_restart_mid_turn_keeps_the_actions_made(fake_discord: FakeDiscord,
                                                         db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="penang", joiners=[bob],
                                   seed=2)
        seat = session.game.to_move
        mover = fake_discord.user(session.seats[seat].name)
        move = choose_move(session.game, seat, random.Random(0))
        assert isinstance(move, MeldDown)  # the passport
        await play_by_buttons(fake_discord, mover, move)
        state, table = session.game.to_json(), len(session.game.table)
        assert session.game.actions == 1 and session.game.to_move == seat
    async with running_bot(fake_discord, db) as bot:
        restored = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert restored.game.to_json() == state and len(restored.game.table) == table
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert not turn.button("Done").get("disabled")  # an action was made this turn
        done = await (await fake_discord.click(mover, turn, "Done")).reply()
        assert restored.game.to_move != seat, done.text


async def test_leaving_makes_the_leaver_dead_and_says_so(fake_discord: FakeDiscord,
                                                         db: Path) -> None:
    """Issue 19 item 8: Penang's way out is Dead (PEN-18); the answer and the channel say
    that, not that a computer plays the seat."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="penang", joiners=[bob],
                                   computers=1)
        seat = session.seat_of(bob.id)
        left = await (await fake_discord.slash(bob, "/rummy leave")).reply()
        assert left.text == ("You left the game, so you are Dead: you make no more plays, and "
                             "the cards you hold count against you at the end. You are "
                             "recorded last."), left.text
        assert session.game.out[seat] and not session.game.is_over
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "bob is Dead (left)." in turn.text and "computer plays" not in turn.text


async def test_a_dead_player_who_wins_on_points_is_shown_dead_not_won_by_no_play(
        fake_discord: FakeDiscord, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 item 9: when everyone is Dead the lowest hand wins (PEN-21, PEN-25); the final
    table picture says that winner was Dead, not "won · no play"."""
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=5) as bot:
        session = await start_game(fake_discord, bot, alice, variant="penang", computers=2)
        session.game = penang(3, held=["2S 3D", "KS QD JC", "KH QC JD"], turn=0)
        drawn = pictured(bot, "table")
        cut = cut_words(monkeypatch)
        turn = await turn_message(fake_discord)
        question = await (await fake_discord.click(alice, turn, "Dead…")).reply()
        await (await fake_discord.click(alice, question, "Dead")).reply()
        assert session.game.is_over
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        final = drawn[-1].players  # the final table picture's players panel
        assert [(p.state.value, p.note) for p in final] == [
            ("won", "Dead (conceded)"), ("dead", "no play"), ("dead", "no play")], final
        assert not cut, cut  # and the picture has the room to say it
