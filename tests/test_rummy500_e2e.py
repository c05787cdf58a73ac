"""End to end: Rummy 500 on the fake Discord, through buttons and select menus only.

A whole game (one person, one computer) to the target, the person taking from
the spread pile with *Take…* (FHR-34), melding, laying off and discarding from
the hand panel; and a restart in the middle of a hand, after a deep take.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.ai.rummy500 import choose_move
from bot.controls.rummy500 import _label
from bot.engine.game import Move
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, Take
from bot.engine.variants.rummy500 import Rummy500Game
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.databases import BACKENDS
from tests.e2e_helpers import (
    assert_no_hand_in_channel,
    choose_in,
    open_panel,
    pick,
    published,
    shown_codes,
    start_game,
    turn_message,
)
from tests.fakediscord import FakeDiscord, User
from tests.rummy500_helpers import rummy500


async def take_by_buttons(fake: FakeDiscord, session: Session, user: User, move: Take) -> str:
    """*Take…* on the panel, *Take N: card*, then the use asked for when there are several."""
    game = session.game
    assert isinstance(game, Rummy500Game)
    position = move.position or game.position_of(move.card)
    before = session.moves
    panel = await open_panel(fake, user)
    menu = await (await fake.click(user, panel, "Take…")).reply()
    label = f"Take {position}: {move.card.code}"
    assert label in menu.button_labels, (label, menu.button_labels)
    answer = await (await fake.click(user, menu, label)).reply()
    if session.moves > before:  # one way to use it: taken at once
        return answer.text
    use = _label(move)
    assert use in answer.button_labels, (use, answer.button_labels)
    return (await (await fake.click(user, answer, use)).reply()).text


async def play_by_buttons(fake: FakeDiscord, session: Session, user: User, move: Move) -> int:
    """``user``'s move through the hand panel; how many moves the bot recorded for it."""
    before = session.moves
    if isinstance(move, Take):
        await take_by_buttons(fake, session, user, move)
        return session.moves - before
    if isinstance(move, MeldDown):  # one meld a click
        for meld in move.melds:
            panel = await open_panel(fake, user)
            await pick(fake, user, panel, [p for p, _ in meld])
            await (await fake.click(user, panel, "Meld selected")).reply()
        return session.moves - before
    panel = await open_panel(fake, user)
    if isinstance(move, Draw):
        await (await fake.click(user, panel, "Draw")).reply()
    elif isinstance(move, LayOff):
        await pick(fake, user, panel, [p for p, _ in move.cards])
        await choose_in(fake, user, panel, "layoff", str(move.meld))
    else:
        assert isinstance(move, Discard)
        await pick(fake, user, panel, [move.card])
        await (await fake.click(user, panel, "Discard selected")).reply()
    return session.moves - before


@pytest.mark.parametrize("db", BACKENDS, indirect=True)
async def test_a_whole_game_to_the_target_through_buttons(fake_discord: FakeDiscord,
                                                          db: Path) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, variant="rummy500", computers=1,
                                   seed=3, target=150)
        rng = random.Random(0)
        kinds: list[str] = []
        for _ in range(3000):
            await fake_discord.wait_until(
                lambda: session.game.is_over or session.game.to_move == 0, timeout=30)
            game = session.game
            if game.is_over:
                break
            move = choose_move(game, 0, rng)
            kinds.append(move.kind)
            done = await play_by_buttons(fake_discord, session, alice, move)
            assert done == (len(move.melds) if isinstance(move, MeldDown) else 1), move
        game = session.game
        assert isinstance(game, Rummy500Game)
        assert game.is_over and max(game.totals) >= 150
        assert {"take", "meld", "discard", "draw"} <= set(kinds), kinds
        await fake_discord.wait_until(lambda: fake_discord.find_message(
            lambda m: "Rematch" in m.button_labels, channel=channel) is not None, timeout=20)
        await published(fake_discord, bot)
        texts = [m.text for m in fake_discord.channel_messages(channel)]
        assert any("drew from the stock" in t for t in texts)  # FHR-36
        assert any(" from position " in t for t in texts)
        assert_no_hand_in_channel(fake_discord, channel)  # FHR-37


async def test_take_offers_only_the_depths_the_hand_can_use_and_a_restart_keeps_the_hand(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="rummy500", joiners=[bob])
        session.game = rummy500(held=["4H 6H 9C 2S KD", "3C 8D JS QS"],
                                pile="7D 5H KC 2D QH")
        bot.controller.publisher.wake(session)
        await published(fake_discord, bot)
        turn = await turn_message(fake_discord, channel)
        assert turn.button_labels[:2] == ["Draw", "Take…"]
        refused = await (await fake_discord.click(bob, turn, "Take…")).reply()
        assert refused.text == "It is not your turn: it is alice's turn." and session.moves == 0
        menu = await (await fake_discord.click(alice, turn, "Take…")).reply()
        assert menu.ephemeral
        assert menu.button_labels == ["Take 4: 5H"]  # no other pile card fits alice's hand
        answer = await (await fake_discord.click(alice, menu, "Take 4: 5H")).reply()
        game = session.game
        assert game.phase == "play", answer.text
        assert game.table[0].meld.codes == "4H 5H 6H" and [c.code for c in game.pile] == ["7D"]
        state = game.to_json()
    async with running_bot(fake_discord, db) as bot:
        restored = bot.controller.sessions.in_channel(channel.id)
        assert restored is not None and restored.game.to_json() == state
        await published(fake_discord, bot)
        panel = await open_panel(fake_discord, alice)
        assert "Meld selected" in panel.button_labels
        game = restored.game
        assert isinstance(game, Rummy500Game)
        moves = restored.moves
        await pick(fake_discord, alice, panel, [c for c in game.hands[0] if c.code == "9C"])
        await (await fake_discord.click(alice, panel, "Discard selected")).reply()
        assert restored.moves == moves + 1 and restored.game.to_move == 1


async def test_typed_take_meld_and_refusals(fake_discord: FakeDiscord, db: Path) -> None:
    """FHR-34: ``/rummy500 take card [with] [meld] [pos]``; a refusal is one line and changes
    nothing (NOT-13)."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db) as bot:
        session = await start_game(fake_discord, bot, alice, variant="rummy500", joiners=[bob])
        session.game = rummy500(held=["4H 6H 9C 2S KD", "3C 8D JS QS"],
                                pile="7D 5H KC 2D QH")
        refused = await (await fake_discord.slash(alice, "/rummy500 take", card="5H")).reply()
        assert refused.text == ("say how you use 5H: with:<cards> for a new meld or meld:<n> "
                                "to lay it off") and session.moves == 0
        wrong = await (await fake_discord.slash(alice, "/rummy500 take", card="5H",
                                                **{"with": "4H 7H"})).reply()
        assert "7H" in wrong.text and "\n" not in wrong.text and session.moves == 0
        shown = {code: n for n, code in shown_codes(await open_panel(fake_discord, alice)).items()}
        await (await fake_discord.slash(alice, "/rummy500 take", card="5H",
                                        **{"with": f"#{shown['4H']} 6H"})).reply()
        game = session.game
        assert game.table[0].meld.codes == "4H 5H 6H" and session.moves == 1
        await (await fake_discord.slash(alice, "/rummy500 discard", card="KC")).reply()
        assert session.game.to_move == 1 and session.moves == 2
