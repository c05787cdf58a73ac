"""End to end: Tile Rummy on the fake Discord, through buttons and select menus only.

A 2-player game (one person, one strong computer) played to its end from the
rack panel, and a staged turn on a chosen table: an invalid *Done* refused
(reject) naming the check and the meld, *Undo*, *Arrange* splitting a run, a
restart in the middle of the staged turn (every staging action is saved, so the
staged table survives it), a joker freed with the tile it stands for, a valid
*Done*; and an invalid *Done* in penalty mode.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.ai.tiles import choose_easy
from bot.engine.game import Event, Move
from bot.engine.moves import Done, Draw
from bot.engine.variants.tiles import Arrange, Play, Reset, TilesGame
from bot.registry import Variant
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    choose_in,
    cut_words,
    open_panel,
    pick,
    published,
    start_game,
    turn_message,
)
from tests.fakediscord import CallbackType, FakeDiscord, User
from tests.tiles_helpers import staged_codes, tiles_game, tl


async def play_by_buttons(fake: FakeDiscord, user: User, move: Move) -> str:
    panel = await open_panel(fake, user)
    if isinstance(move, Done):
        return (await (await fake.click(user, panel, "Done")).reply()).text
    if isinstance(move, Draw):
        return (await (await fake.click(user, panel, "Draw")).reply()).text
    if isinstance(move, Reset):
        return (await (await fake.click(user, panel, "Undo")).reply()).text
    assert isinstance(move, Play), move
    await pick(fake, user, panel, [t for t, _ in move.tiles])
    if move.meld is None:
        return (await (await fake.click(user, panel, "New meld")).reply()).text
    return await choose_in(fake, user, panel, "add", str(move.meld))


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_person_and_a_strong_computer_play_a_game_through_buttons(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        lobby = await (await fake_discord.slash(alice, "/tiles new", seed=4,
                                                turn_seconds=0)).reply()
        assert {"Add strong computer", "Add easy computer"} <= set(lobby.button_labels)
        await (await fake_discord.click(alice, lobby, "Add strong computer")).response()
        assert "· strong" in lobby.text
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(channel.id)
        assert session.seats[1].level == "strong"
        rng = random.Random(0)
        kinds: list[str] = []
        for _ in range(1500):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            if session.game.is_over:
                break
            move = choose_easy(session.game, 0, rng)
            kinds.append(move.kind)
            before = session.moves
            answer = await play_by_buttons(fake_discord, alice, move)
            assert session.moves == before + 1, answer
        assert session.game.is_over and "play" in kinds and "done" in kinds
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)


def inject(session: Session, game: TilesGame) -> None:
    """Put the table in a chosen position (saved with the next move)."""
    session.game = game


async def test_a_staged_turn_refused_undone_arranged_restarted_and_done(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["R5 O5 R9 B9 K1 K2", "B1 B2 B3"],
                          table=["R3 R4 R5 R6 R7", "O4 J O6", "K10 K11 K12"], turn=0,
                          turn_seconds=0)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        inject(session, position)
        # An invalid done is refused, naming the check and the meld; Undo puts it back.
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("K1 K2"))
        await (await fake_discord.click(alice, panel, "New meld")).reply()
        refused = await (await fake_discord.click(alice, panel, "Done")).reply()
        assert "meld 4 (K1 K2)" in refused.text and "3 tiles" in refused.text, refused.text
        await (await fake_discord.click(alice, panel, "Undo")).reply()
        assert staged_codes(session.game) == ["R3 R4 R5 R6 R7", "O4 J O6", "K10 K11 K12"]
        # Arrange places R5 by splitting the run.
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("R5"))
        await (await fake_discord.click(alice, panel, "Arrange")).reply()
        staged = staged_codes(session.game)
        assert "R3 R4 R5" in staged and "R5 R6 R7" in staged, staged
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "changed" in turn.text  # the staged table is public, changed melds marked
    async with running_bot(fake_discord, db) as bot:  # a restart mid-turn keeps the stage
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert staged_codes(session.game) == staged
        await published(fake_discord, bot)
        # Free the joker with O5, then complete the joker's new meld from the rack.
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("O5"))
        await choose_in(fake_discord, alice, panel, "release", "2")
        joker_meld = session.game.staged[-1].number
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("R9 B9"))
        await choose_in(fake_discord, alice, panel, "add", str(joker_meld))
        done = await (await fake_discord.click(alice, panel, "Done")).reply()
        game = session.game
        assert game.to_move == 1, done.text
        assert sorted(t.code for t in game.racks[0]) == ["K1", "K2"]


async def test_an_invalid_done_in_penalty_mode_costs_three_tiles(fake_discord: FakeDiscord,
                                                                db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["K1 K2 O1", "B1 B2 B3"], table=["R3 R4 R5"], turn=0,
                          turn_seconds=0, invalid_done="penalty")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob],
                                   invalid_done="penalty")
        inject(session, position)
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("K1 K2"))
        await (await fake_discord.click(alice, panel, "New meld")).reply()
        answer = await (await fake_discord.click(alice, panel, "Done")).reply()
        game = session.game
        assert game.to_move == 1, answer.text
        assert len(game.racks[0]) == 6 and staged_codes(game) == ["R3 R4 R5"]


async def test_tile_rummy_speaks_of_racks(fake_discord: FakeDiscord, db: Path) -> None:
    """UX.md: the Tile Rummy panel is *My rack*; a card game's is *My hand*."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "My rack" in turn.button_labels and "My hand" not in turn.button_labels
        panel = await open_panel(fake_discord, alice)
        assert "**Your rack** (14)" in panel.text
        assert fake_discord.dms(alice)[-1].text.startswith("Your rack in ")


async def test_a_rack_of_26_tiles_shows_two_pick_menus_and_plays_from_both(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 4: with nothing selected the two pick menus still have their own
    custom_ids (Discord refuses a message that repeats one)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    rack = ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 "
            "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13")
    position = tiles_game(racks=[rack, "O1 O2 O3"], turn=0, turn_seconds=0)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        inject(session, position)
        panel = await open_panel(fake_discord, alice)
        menus = [s for s in panel.selects if ":pick:" in s["custom_id"]]
        assert [m["placeholder"] for m in menus] == ["Pick tiles 1–13…", "Pick tiles 14–26…"]
        assert len({m["custom_id"] for m in menus}) == 2
        await pick(fake_discord, alice, panel, tl("R13 B1"))  # one from each menu
        assert "Selected: R13 B1" in panel.text, panel.text
        await (await fake_discord.click(alice, panel, "New meld")).reply()
        (staged,) = staged_codes(session.game)  # both menus' picks travel in the button
        assert sorted(staged.split()) == ["B1", "R13"]


async def test_a_slow_arrange_is_deferred_and_the_bot_keeps_answering(
        fake_discord: FakeDiscord, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 item 3: a search that outlasts a second is deferred in time (privately),
    and runs off the event loop, so other players are answered meanwhile."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["R5 O5 R9 B9 K1 K2", "B1 B2 B3"],
                          table=["R3 R4 R5 R6 R7"], turn=0, turn_seconds=0)
    search = TilesGame.apply

    def slow(game: TilesGame, move: Move):  # as a long search would take
        if isinstance(move, Arrange):
            time.sleep(1.6)
        return search(game, move)

    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        inject(session, position)
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("R5"))
        monkeypatch.setattr(TilesGame, "apply", slow)
        arrange = await fake_discord.click(alice, panel, "Arrange")
        await asyncio.sleep(0.3)
        rules = await fake_discord.slash(bob, "/rummy rules", variant="tiles")
        await rules.reply()
        assert rules.answer_time is not None and rules.answer_time < 1.0
        deferred = await arrange.response()
        assert deferred.type is CallbackType.DEFERRED_CHANNEL_MESSAGE and deferred.ephemeral
        assert arrange.answer_time is not None and 0.9 < arrange.answer_time < 3
        answer = await arrange.reply()
        assert answer.ephemeral and "arranged the table" in answer.text, answer.text
        assert "R3 R4 R5" in staged_codes(session.game), staged_codes(session.game)


async def test_the_add_menu_offers_only_melds_the_picked_tiles_fit(fake_discord: FakeDiscord,
                                                                   db: Path) -> None:
    """Issue 19 item 10: R6 goes on R3 R4 R5 and nowhere else, so only meld 1 is offered."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["R6 O7 K1 K2", "B1 B2 B3"],
                          table=["R3 R4 R5", "K7 B7 R7", "B10 B11 B12"], turn=0,
                          turn_seconds=0)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        inject(session, position)
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("R6"))
        (menu,) = [s for s in panel.selects if ":add:" in s["custom_id"]]
        assert [o["value"] for o in menu["options"]] == ["1"], menu["options"]
        await pick(fake_discord, alice, panel, tl("O7"))  # the set takes O7, the runs do not
        (menu,) = [s for s in panel.selects if ":add:" in s["custom_id"]]
        assert [o["value"] for o in menu["options"]] == ["2"], menu["options"]
        await pick(fake_discord, alice, panel, tl("K1 K2"))  # no meld takes both
        assert not [s for s in panel.selects if ":add:" in s["custom_id"]]


async def test_a_turn_message_whose_staged_table_a_penalty_undid_loses_its_picture(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 10: after a penalty restores the table (TIL-19), the retired turn message
    no longer shows the staged melds as if they had stood; a valid turn keeps its picture."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["K1 K2 O1 R8 R9 R10", "B1 B2 B3 B5"], table=["R3 R4 R5"],
                          turn=0, turn_seconds=0, invalid_done="penalty")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob],
                                   invalid_done="penalty")
        inject(session, position)
        bot.controller.publisher.wake(session)
        await published(fake_discord, bot)
        panel = await open_panel(fake_discord, alice)
        await pick(fake_discord, alice, panel, tl("K1 K2"))
        await (await fake_discord.click(alice, panel, "New meld")).reply()
        await published(fake_discord, bot)
        staged = await turn_message(fake_discord)
        assert "K1 K2" in staged.text and staged.attachments
        await (await fake_discord.click(alice, panel, "Done")).reply()
        assert session.game.to_move == 1 and staged_codes(session.game) == ["R3 R4 R5"]
        await published(fake_discord, bot)
        assert not staged.buttons and not staged.attachments
        assert "were not kept" in staged.text and not staged.embeds[0].get("image")
        # Bob's valid turn: his turn message keeps the picture of what he laid.
        panel = await open_panel(fake_discord, bob)
        await pick(fake_discord, bob, panel, tl("B1 B2 B3"))
        await (await fake_discord.click(bob, panel, "New meld")).reply()
        await published(fake_discord, bot)
        laid = await turn_message(fake_discord)
        await (await fake_discord.click(bob, panel, "Done")).reply()
        await published(fake_discord, bot)
        assert laid.attachments and "not kept" not in laid.text


async def test_the_first_turn_tells_the_first_player_draw(fake_discord: FakeDiscord, db: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Issue 19 item 10 (TIL-4): what the engine reports of setting up the first game is in
    the first turn message, and no state note is cut short in its picture.

    ``Game.opening`` is the engine's report; Tile Rummy's engine is to fill it with its
    first-player draw (the events its ``_start`` makes today and drops), as stated here.
    """
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    draw = (Event("first_draw", "First-player draw: {p0} O9, {p1} R4."),)
    monkeypatch.setattr(TilesGame, "opening", lambda game: draw)
    cut = cut_words(monkeypatch)
    async with running_bot(fake_discord, db) as bot:
        await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        assert "First-player draw: alice O9, bob R4." in turn.text, turn.text
    assert "no initial meld yet" not in cut and not cut, cut


async def test_TIL_4_the_first_turn_message_shows_the_real_first_player_draw(
        fake_discord: FakeDiscord, db: Path) -> None:
    """Issue 19 item 10: the engine's own opening (no stand-in) reaches the first turn
    message, with the players' names and who plays first."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord)
        draws = [e.text for e in session.game.opening() if e.kind == "first_draw"]
        assert draws and "First-player draw: alice " in turn.text, turn.text
        first = session.names[session.game.turn]
        assert f"Game 1: {first} plays first" in turn.text, turn.text


async def test_TIL_20_arrange_then_done_on_a_run_holding_a_joker(fake_discord: FakeDiscord,
                                                                  db: Path) -> None:
    """Issue 19 item 2, as players met it: table meld O9 O10 J(=O11) O12 O13, default joker
    rules, ``/tiles arrange tiles:O11``, then ``/tiles done``: the turn is committed. And an
    arrangement that frees a joker with a rack tile is done the same way."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    position = tiles_game(racks=["O11 K8 O8 R7 B1", "B2 B3 B4"],
                          table=["O9 O10 J=O11 O12 O13", "R4 R5 R6 J=R7"], turn=0,
                          turn_seconds=0)
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="tiles", joiners=[bob])
        inject(session, position)
        arranged = await (await fake_discord.slash(alice, "/tiles arrange",
                                                   tiles="O11")).reply()
        assert "arranged the table" in arranged.text, arranged.text
        done = await (await fake_discord.slash(alice, "/tiles done")).reply()
        assert session.game.to_move == 1, done.text
        assert sorted(t.code for t in session.game.racks[0]) == ["B1", "K8", "O8", "R7"]
        table = [" ".join(t.code for t in m.tiles) for m in session.game.table]
        assert "R4 R5 R6 J" in table and sorted(
            t for m in table if m != "R4 R5 R6 J" for t in m.split()) == sorted(
            ["O9", "O10", "O11", "O12", "O13", "J"]), table
        # Bob draws; alice frees the other joker by arranging K8 O8 R7 around it.
        await (await fake_discord.slash(bob, "/tiles draw")).reply()
        arranged = await (await fake_discord.slash(alice, "/tiles arrange",
                                                   tiles="K8 O8 R7")).reply()
        assert "arranged the table" in arranged.text, arranged.text
        done = await (await fake_discord.slash(alice, "/tiles done")).reply()
        assert session.game.to_move == 1, done.text
        assert [t.code for t in session.game.racks[0]] == ["B1"]
        await published(fake_discord, bot)


async def test_a_computer_that_searches_long_does_not_hold_up_other_answers(
        fake_discord: FakeDiscord, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 item 3: a computer's turn may search (its best play, an Arrange); it runs off
    the event loop, so a command sent meanwhile is answered at once."""
    alice = fake_discord.user("alice")
    choose = Variant.choose_move
    on_loop: list[bool] = []

    def slow(variant: Variant, game, seat: int, rng, level=None):  # as a long search would
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # a worker thread: the loop answers others meanwhile
            on_loop.append(False)
        time.sleep(1.6)
        return choose(variant, game, seat, rng, level)

    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        lobby = await (await fake_discord.slash(alice, "/tiles new", seed=4,
                                                turn_seconds=0)).reply()
        await (await fake_discord.click(alice, lobby, "Add strong computer")).response()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        await fake_discord.wait_until(lambda: session.game.to_move == 0, timeout=30)
        monkeypatch.setattr(Variant, "choose_move", slow)
        await play_by_buttons(fake_discord, alice, Draw(0, "pool"))
        await fake_discord.wait_until(lambda: bool(on_loop), timeout=10)
        rules = await fake_discord.slash(alice, "/rummy rules", variant="tiles")
        await rules.reply()
        assert rules.answer_time is not None and rules.answer_time < 1.0
        await fake_discord.wait_until(lambda: session.game.to_move == 0, timeout=30)
        assert on_loop and not any(on_loop)
