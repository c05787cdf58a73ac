"""One writer per game: a move saved by another process first is never overwritten.

Two processes may hold the same game for a moment (a reshard, a process that came back
late). Here the other process is a second store on the same database (its own
connection); the bot's next move in that game is refused by the database, the bot adopts
the saved game and tells the player the truth, and play goes on from there.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.ai.straight import choose_move
from bot.controller import MOVED_ON
from bot.store import Store
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import start_game, text_of, turn_message
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_move_saved_elsewhere_first_wins_and_the_player_is_told(
        fake_discord: FakeDiscord, db: Path | str) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, joiners=[bob])
        seat = session.game.to_move
        mover = fake_discord.user(session.seats[seat].name)
        async with await Store.open(db) as elsewhere:  # another process holding the game
            row = await elsewhere.get_game(session.game_id)
            game = session.variant.game.from_json(row.state)
            move = choose_move(game, seat, random.Random(1))
            moved, _ = game.apply(move)
            await elsewhere.record_move(session.game_id, seat, mover.id, move.to_json(),
                                        moved.to_json(), None, expected_moves=row.move_count)
        turn = await turn_message(fake_discord)
        refused = await fake_discord.click(mover, turn, "Draw from stock")
        told = await text_of(refused)
        assert MOVED_ON in told
        saved = await bot.store.get_game(session.game_id)
        assert saved.state == moved.to_json() and saved.move_count == 1  # nothing overwritten
        assert [m.move for m in await bot.store.moves(session.game_id)] == [move.to_json()]
        assert session.moves == 1 and session.game.to_json() == moved.to_json()  # adopted
        # play goes on from the saved game
        card = session.game.hand(seat)[0]
        answer = await fake_discord.slash(mover, "/straight discard", card=card.code)
        assert MOVED_ON not in await text_of(answer)
        assert (await bot.store.get_game(session.game_id)).move_count == 2
