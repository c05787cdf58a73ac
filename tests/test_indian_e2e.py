"""End to end: Indian Rummy on the fake Discord — a pool match, checks, confirmations, drops."""

from __future__ import annotations

import functools
import json
import os
import random
from pathlib import Path

import pytest

from bot.ai.indian import choose_move
from bot.engine.cards import RANK_LABELS
from bot.engine.variants.indian import Declare, IndianGame
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    published,
    saved_moves,
    slash_command,
    start_game,
    turn_message,
)
from tests.fakediscord import CallbackType, FakeDiscord, Message, User

PICTURES = os.environ.get("INDIAN_E2E_PICTURES")
"""A directory to save the pictures of the pool match in, for people to look at."""


start = functools.partial(start_game, variant="indian")


def state(session: Session) -> str:
    return json.dumps(session.game.to_json(), sort_keys=True)


async def play_as(fake: FakeDiscord, session: Session, user: User, rng: random.Random) -> str:
    """One move of ``user``'s, chosen by the computer player and typed as a command."""
    move = choose_move(session.game, session.seat_of(user.id), rng)
    name, options = slash_command("indian", move)
    inter = await fake.slash(user, name, **options)
    if not isinstance(move, Declare):
        return (await inter.reply()).text
    question = await inter.reply()
    assert question.ephemeral and question.button_labels == ["Declare", "Cancel"]
    return (await (await fake.click(user, question, "Declare")).reply()).text


# -- a pool match ------------------------------------------------------------------------------


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_pool101_match_with_a_human_and_two_computers(fake_discord: FakeDiscord,
                                                            db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start(fake_discord, bot, alice, computers=2, seed=5, format="pool101")
        game = session.game
        assert isinstance(game, IndianGame) and game.players == 3
        wild = RANK_LABELS[game.wild_rank]
        await published(fake_discord, bot)
        table = await turn_message(fake_discord)
        assert f"wild joker **{game.cut_joker.code}**" in table.text
        dm = fake_discord.dms(alice)[-1]
        assert f"Wild rank: **{wild}**" in dm.text
        assert dm.attachments[0].image().width > 300
        rng = random.Random(0)
        for _ in range(2000):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            if session.game.is_over:
                break
            await play_as(fake_discord, session, alice, rng)
        game = session.game
        assert game.is_over and game.eliminated.count(False) == 1

        def final_message() -> Message | None:
            return fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                             channel=channel)

        await fake_discord.wait_until(lambda: final_message() is not None, timeout=10)
        await published(fake_discord, bot)
        deals = game.deal_number
        assert deals >= 2
        over = [m for m in fake_discord.channel_messages(channel) if " is over.**" in m.text]
        assert [m.text.split(" is over")[0] for m in over] == [
            f"**Deal {n}" for n in range(1, deals)]
        final = final_message()
        assert final is not None and f"Game over after {deals} deals" in final.text
        assert "Seed: `5`" in final.text
        files = {a.filename: a for a in final.attachments}
        assert set(files) == {"results.png", "table.png", "scores.png"}
        for attachment in files.values():
            assert attachment.image().width == 1200
        assert all(m.attachments[0].filename == "results.png" for m in over[-1:])
        view = game.result_view()
        if game.results[-1].notes[game.winners[0]].startswith("valid show"):
            assert view.placings[0].finish is not None
        board = await (await fake_discord.slash(alice, "/rummy leaderboard",
                                                variant="indian")).reply()
        assert f"<@{alice.id}>" in board.text
        history = await (await fake_discord.slash(alice, "/rummy history")).reply()
        assert "Indian Rummy" in history.text and "seed `5`" in history.text
        for dm in fake_discord.dms(alice):
            assert dm.attachments[0].image().height > 200
            assert "Wild rank" in dm.text
        assert_no_hand_in_channel(fake_discord, channel)
        if PICTURES:
            out = Path(PICTURES)
            out.mkdir(parents=True, exist_ok=True)
            for name, attachment in files.items():
                (out / name).write_bytes(attachment.data)
            (out / "dm_hand.png").write_bytes(fake_discord.dms(alice)[-1].attachments[0].data)
            (out / "table.png").write_bytes(table.attachments[0].data)
            (out / "messages.txt").write_text("\n\n".join(
                m.text for m in fake_discord.channel_messages(channel)))


# -- checks, confirmations, drops -------------------------------------------------------------


@pytest.fixture
def three(fake_discord: FakeDiscord) -> list[User]:
    """alice, bob and carol, all in the server."""
    carol = fake_discord.add_user("carol")
    fake_discord.guild("Rummy Club").add_member(carol)
    return [fake_discord.user("alice"), fake_discord.user("bob"), carol]


async def test_check_answers_privately_and_changes_nothing(fake_discord: FakeDiscord, db: Path,
                                                           three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=5)
        seat = session.game.to_move
        mover = three[seat]
        before, moves = state(session), await saved_moves(bot, session)
        for user in (mover, three[(seat + 1) % 3]):  # on your turn or not: 13 cards
            reply = await (await fake_discord.slash(user, "/indian check")).reply()
            assert reply.ephemeral and reply.text.startswith("**Check** (only you see this")
            assert not reply.buttons
        await (await fake_discord.slash(mover, "/indian draw", source="closed")).response()
        drawn, moves = state(session), await saved_moves(bot, session)
        reply = await (await fake_discord.slash(mover, "/indian check")).reply()
        verdict = session.game.check_show(seat)
        assert reply.ephemeral and reply.text == (f"**Check** (only you see this; nothing "
                                                  f"changed): {verdict.text}.")
        typed = await (await fake_discord.slash(mover, "/indian check",
                                                groups="AS 2S 3S")).reply()
        assert typed.ephemeral and typed.text.startswith(("your groups name",
                                                          "you do not hold", "you hold"))
        assert state(session) == drawn and await saved_moves(bot, session) == moves
        assert before != drawn
        assert_no_hand_in_channel(fake_discord, fake_discord.channel("games"))


async def test_declare_asks_first_cancel_keeps_all_and_a_wrong_show_costs_80(
        fake_discord: FakeDiscord, db: Path, three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=5)
        seat = session.game.to_move
        mover = three[seat]
        await (await fake_discord.slash(mover, "/indian draw", source="closed")).response()
        game = session.game
        finish = next(c for c in game.hand(seat) if not game.is_joker(c))
        assert not game.declare_verdict(seat, finish).valid  # seed 5: not a show yet
        before, moves = state(session), await saved_moves(bot, session)
        question = await (await fake_discord.slash(mover, "/indian declare",
                                                   finish=finish.code)).reply()
        assert question.ephemeral and question.button_labels == ["Declare", "Cancel"]
        assert question.text.startswith(f"**Declare with {finish.code}?**")
        assert "wrong show" in question.text and "80 points" in question.text
        assert state(session) == before and await saved_moves(bot, session) == moves
        cancel = await fake_discord.click(mover, question, "Cancel")
        assert (await cancel.response()).type is CallbackType.UPDATE_MESSAGE
        assert question.text == "Not declared: nothing changed." and not question.buttons
        assert state(session) == before and await saved_moves(bot, session) == moves
        outsider = await fake_discord.slash(three[(seat + 1) % 3], "/indian declare",
                                            finish=finish.code)
        assert (await outsider.reply()).text in (
            f"It is not your turn: it is {three[seat].name}'s turn.",
            f"you do not hold {finish.code}")
        question = await (await fake_discord.slash(mover, "/indian declare",
                                                   finish=finish.code)).reply()
        answer = await (await fake_discord.click(mover, question, "Declare")).reply()
        assert "Wrong show: 80 points." in answer.text
        game = session.game
        assert game.deal_points[seat] == 80 and not game.active[seat] and not game.is_over
        assert game.open[-1] == finish and game.to_move == (seat + 1) % 3
        assert await saved_moves(bot, session) == moves + 1
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "Wrong show" in turn.text and f"Take {finish.code}" in turn.button_labels


async def test_drop_button_asks_first(fake_discord: FakeDiscord, db: Path,
                                      three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=5)
        seat = session.game.to_move
        mover, waiting = three[seat], three[(seat + 1) % 3]
        turn = await turn_message(fake_discord)
        top = session.game.open[-1].code
        assert turn.button_labels == ["Draw closed", f"Take {top}", "Drop", "My hand"]
        refused = await fake_discord.click(waiting, turn, "Drop")
        assert (await refused.reply()).text == f"It is not your turn: it is {mover.name}'s turn."
        moves = await saved_moves(bot, session)
        question = await (await fake_discord.click(mover, turn, "Drop")).reply()
        assert question.ephemeral and question.text.startswith("**Drop this deal?** A first "
                                                               "drop costs 20 points")
        assert question.button_labels == ["Drop (20)", "Cancel"]
        await (await fake_discord.click(mover, question, "Cancel")).response()
        assert question.text == "Not dropped: nothing changed." and not question.buttons
        assert await saved_moves(bot, session) == moves and session.game.active[seat]
        question = await (await fake_discord.click(mover, turn, "Drop")).reply()
        answer = await (await fake_discord.click(mover, question, "Drop (20)")).reply()
        assert "dropped (first drop): 20 points" in answer.text
        assert session.game.deal_points[seat] == 20 and not session.game.active[seat]
        assert session.game.to_move == (seat + 1) % 3
        typed = await fake_discord.slash(waiting, "/indian drop")  # typing it is the confirmation
        assert "dropped (first drop): 20 points" in (await typed.reply()).text
        assert session.game.is_over  # IND-26: one player left wins the deal (format points)


async def test_jokers_on_the_open_deck_cannot_be_taken(fake_discord: FakeDiscord, db: Path,
                                                       three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=5)
        seat = session.game.to_move
        mover, nxt = three[seat], three[(seat + 1) % 3]
        await (await fake_discord.slash(mover, "/indian draw", source="closed")).response()
        joker = next(c for c in session.game.hand(seat) if session.game.is_joker(c))
        await (await fake_discord.slash(mover, "/indian discard", card=joker.code)).response()
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert turn.button(f"Take {joker.code}").get("disabled")
        before = state(session)
        refused = await fake_discord.slash(nxt, "/indian draw", source="open")
        reply = await refused.reply()
        assert reply.ephemeral and reply.text == "jokers cannot be taken from the open deck"
        assert state(session) == before


async def test_the_first_open_card_joker_rule_follows_the_option(fake_discord: FakeDiscord,
                                                                 db: Path,
                                                                 three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=7,
                              first_open_joker_pickup=False)
        assert session.game.open[-1].code == "JK"  # seed 7 starts the open deck with a joker
        mover = three[session.game.to_move]
        assert (await turn_message(fake_discord)).button("Take JK").get("disabled")
        refused = await fake_discord.slash(mover, "/indian draw", source="open")
        assert (await refused.reply()).text == "jokers cannot be taken from the open deck"


async def test_phone_player_uses_the_hand_panel(fake_discord: FakeDiscord, db: Path,
                                                three: list[User]) -> None:
    alice, bob, carol = three
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob, carol], seed=5)
        seat = session.game.to_move
        mover = three[seat]
        turn = await turn_message(fake_discord)
        panel = await (await fake_discord.click(mover, turn, "Draw closed")).reply()
        assert panel.ephemeral and "You drew" in panel.text and "Wild rank: **10**" in panel.text
        assert panel.button_labels == ["Discard selected", "Declare…", "Check show", "Hint",
                                       "Refresh"]
        assert panel.button("Declare…").get("disabled")
        check = await (await fake_discord.click(mover, panel, "Check show")).reply()
        assert check.ephemeral and check.text.startswith("**Check**")
        await (await fake_discord.select(mover, panel, ["1"])).response()
        question = await (await fake_discord.click(mover, panel, "Declare…")).reply()
        assert question.ephemeral and question.button_labels == ["Declare", "Cancel"]
        await (await fake_discord.click(mover, question, "Cancel")).response()
        first = panel.text.split("`#1` ")[1].split()[0]
        done = await (await fake_discord.click(mover, panel, "Discard selected")).reply()
        assert f"discarded {first}" in done.text
        assert session.game.open[-1].code == first and session.game.to_move != seat


async def test_autocomplete_offers_only_the_players_cards(fake_discord: FakeDiscord,
                                                          db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start(fake_discord, bot, alice, joiners=[bob], seed=3)
        hand = {c.code for c in session.game.hand(0)}
        for command, option in (("/indian discard", "card"), ("/indian declare", "finish")):
            choices = await fake_discord.autocomplete(alice, command, option, "")
            assert {c.value for c in choices} == hand
        typed = sorted(hand)[0]
        more = await fake_discord.autocomplete(alice, "/indian check", "groups", typed + " ")
        assert more and all(c.value.startswith(typed + " ") for c in more)
        assert {c.value.split()[-1] for c in more} <= hand
        outsider = fake_discord.add_user("dave")
        fake_discord.guild("Rummy Club").add_member(outsider)
        assert await fake_discord.autocomplete(outsider, "/indian discard", "card", "") == []


async def test_leaving_mid_game_drops_and_records_the_leaver_last(fake_discord: FakeDiscord,
                                                                  db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start(fake_discord, bot, alice, computers=2, seed=9)
        leave = await (await fake_discord.slash(alice, "/rummy leave")).reply()
        assert "You left the game" in leave.text
        assert not session.game.active[0] and session.game.left[0]
        assert session.seats[0].is_computer and session.seats[0].left
        await fake_discord.wait_until(lambda: session.status == "finished", timeout=30)
        await published(fake_discord, bot)
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        places = {p.name: p.place for p in history[0].players}
        assert places["alice"] == 3
        assert session.game.results[-1].notes[0].startswith("left, first drop")
