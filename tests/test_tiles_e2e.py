"""End to end: Tile Rummy on the fake Discord, through buttons and select menus only.

A 2-player game (one person, one strong computer) played to its end from the
rack panel, and a staged turn on a chosen table: an invalid *Done* refused
(reject) naming the check and the meld, *Undo*, *Arrange* splitting a run, a
restart in the middle of the staged turn (every staging action is saved, so the
staged table survives it), a joker freed with the tile it stands for, a valid
*Done*; and an invalid *Done* in penalty mode.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.ai.tiles import choose_easy
from bot.engine.game import Move
from bot.engine.moves import Done, Draw
from bot.engine.variants.tiles import Play, Reset, TilesGame
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import choose_in, open_panel, pick, published, start_game, turn_message
from tests.fakediscord import FakeDiscord, User
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
