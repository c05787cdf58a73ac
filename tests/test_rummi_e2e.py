"""End to end: Singapore Rummi on the fake Discord, through buttons and select menus only.

A 4-player game (one person, three computers) played to its settlement from the
hand panel, and a dealt Tien Hu that ends the game before play with its payments.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.ai.rummi import choose_move
from bot.engine.game import Move
from bot.engine.moves import Done, LayOff, MeldDown
from bot.engine.rummi_chips import hand_points
from bot.engine.variants.rummi import RummiGame, RummiOptions
from bot.texts import scores_text
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    choose_in,
    open_panel,
    pick,
    pictured,
    published,
    start_game,
    turn_message,
)
from tests.fakediscord import FakeDiscord, User


async def play_by_buttons(fake: FakeDiscord, user: User, move: Move) -> str:
    if isinstance(move, Done):
        turn = await turn_message(fake)
        return (await (await fake.click(user, turn, "Done")).reply()).text
    panel = await open_panel(fake, user)
    if isinstance(move, MeldDown):
        (meld,) = move.melds
        await pick(fake, user, panel, [p for p, _ in meld])
        return (await (await fake.click(user, panel, "Play selected")).reply()).text
    assert isinstance(move, LayOff)
    await pick(fake, user, panel, [p for p, _ in move.cards])
    return await choose_in(fake, user, panel, "layoff", str(move.meld))


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_four_players_one_human_play_to_the_settlement(fake_discord: FakeDiscord,
                                                             db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, variant="rummi", computers=3,
                                   seed=8)
        assert isinstance(session.game, RummiGame) and session.game.players == 4
        rng = random.Random(0)
        kinds: list[str] = []
        for _ in range(500):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            game = session.game
            if game.is_over:
                break
            move = choose_move(game, 0, rng)
            kinds.append(move.kind)
            before = session.moves
            answer = await play_by_buttons(fake_discord, alice, move)
            assert session.moves == before + 1, answer
        assert session.game.is_over and "meld" in kinds
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        assert " pays " in final.text  # who pays whom, for settling real chips
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        assert sum(p.points for p in history[0].players) == 0  # RMI-22: chips sum to 0
        assert_no_hand_in_channel(fake_discord, channel)


async def test_a_dealt_tien_hu_ends_the_game_before_play_with_its_payments(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Seed 125 deals seat 0 (the host) a Tien Hu with four players (RMI-7, RMI-8, RMI-23)."""
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        lobby = await (await fake_discord.slash(alice, "/rummi new", seed=125, computers=3,
                                                turn_seconds=0)).reply()
        drawn = pictured(bot, "results")
        await (await fake_discord.click(alice, lobby, "Start")).response()
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        assert "Tien Hu" in final.text
        for name in ("Ada (standard bot)", "Babbage (standard bot)", "Turing (standard bot)"):
            assert f"{name} pays alice 10 (Tien Hu)" in final.text
        assert "{p" not in final.text  # names, not placeholders
        # Rummi's words, in the message and its picture: sequence and kill (RMI-10, RMI-11),
        # not Indian Rummy's pure sequence and set (issue 19, item 9).
        assert "Sequence " in final.text and "Kill " in final.text, final.text
        assert "Pure sequence" not in final.text and "Set " not in final.text
        (view,) = drawn
        titles = {view.group_title(g) for p in view.placings for g in p.groups}
        assert titles == {"Sequence", "Kill"}, titles
        history = await bot.store.history(fake_discord.guild("Rummy Club").id)
        places = {p.name: (p.place, p.points) for p in history[0].players}
        assert places["alice"][0] == 1
        assert sum(points for _, points in places.values()) == 0
        assert await bot.store.moves(history[0].game_id) == []  # no play was made
        # Records read in chips (stored as exact half-chips, RMI-22), not half-chips.
        won = places["alice"][1] / 2
        assert won >= 30  # Tien Hu: 10 from each of three
        stats = await (await fake_discord.slash(alice, "/rummy stats")).reply()
        assert "Rummi (Singapore)" in stats.text and f"avg {won:g} chips" in stats.text
        board = await (await fake_discord.slash(alice, "/rummy leaderboard",
                                                variant="rummi")).reply()
        assert f"avg {won:g} chips" in board.text
        every = await (await fake_discord.slash(alice, "/rummy leaderboard")).reply()
        assert "1 game, 1 win" in every.text and "avg" not in every.text
        recent = await (await fake_discord.slash(alice, "/rummy history")).reply()
        assert f"1. alice ({won:g})" in recent.text


async def test_RMI_25_malformed_tiers_are_refused_in_one_line(fake_discord: FakeDiscord,
                                                             db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db) as bot:
        refused = await (await fake_discord.slash(alice, "/rummi new", tiers="5 3 x")).reply()
        assert refused.ephemeral and "\n" not in refused.text and "tiers" in refused.text
        assert bot.controller.sessions.in_channel(fake_discord.channel("games").id) is None
        lobby = await (await fake_discord.slash(alice, "/rummi new", tiers="2-4")).reply()
        assert "tiers: 2-4" in lobby.text



def test_RMI_22_results_told_without_a_picture_read_in_chips() -> None:
    """Games that ended before the latest one (told after a restart, or when a Tien Hu is
    dealt right after a game) are told in chips, not the stored half-chips."""
    game = RummiGame.new(4, RummiOptions(games=3), seed=3)
    rng = random.Random(0)
    while not game.history():
        game, _ = game.apply(choose_move(game, game.to_move, rng))
    (first,) = game.history()
    names = ["alice", "bob", "carol", "dave"]
    text = scores_text(first, names, game.points_unit, game.points_scale)
    assert text.startswith(f"Chips: alice {first.points[0] / 2:g} (")
    for name, points in zip(names, first.points, strict=True):
        assert f"{name} {points / 2:g} (" in text
    assert "{p" not in text and "gets" in text  # the notes name the players
    assert sum(first.points) == 0 and any(first.points)


async def test_a_leaver_is_recorded_last_and_collects_no_tier_chips(fake_discord: FakeDiscord,
                                                                   db: Path) -> None:
    """Issue 19 item 7: the player with fewer points leaves a 2-player game, which ends it.
    The leaver pays the tier instead of collecting it, and every record has one order:
    the one who stayed first, the leaver last (results message, records, /rummy history)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="rummi", joiners=[bob],
                                   seed=5)
        points = [hand_points(hand) for hand in session.game.hands]
        leaver = min(range(2), key=points.__getitem__)
        assert points[leaver] < points[1 - leaver]  # by points the leaver would place 1st
        user = alice if session.seats[leaver].user_id == alice.id else bob
        stayer = session.seats[1 - leaver].name
        left = await (await fake_discord.slash(user, "/rummy leave")).reply()
        assert "ended the game" in left.text
        assert session.game.is_over
        await published(fake_discord, bot)
        summary = session.game.history()[-1].summary
        assert f"{{p{leaver}}} pays {{p{1 - leaver}}} 1 (tier)" in summary, summary
        final = fake_discord.find_message(lambda m: "Rematch" in m.button_labels,
                                          channel=channel)
        assert final is not None
        lines = [line for line in final.text.splitlines() if line[:2] in ("1.", "2.")]
        assert lines[0].startswith(f"1. **{stayer}**") and lines[1].startswith("2. "), lines
        history = await (await fake_discord.slash(alice, "/rummy history")).reply()
        assert f"1. {stayer} (" in history.text and f"2. {user.name} (" in history.text, \
            history.text
        (game,) = await bot.store.history(fake_discord.guild("Rummy Club").id)
        assert sorted((p.place, p.won, p.name) for p in game.players) == [
            (1, True, stayer), (2, False, user.name)]
