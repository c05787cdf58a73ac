"""A bot killed with SIGKILL mid-match posts nothing twice when it comes back.

The real ``python -m bot`` plays on the fake Discord; the test plays the human
seat with a computer player's choices, reading the game from the database as a
second process would. After ``kill -9`` in hand 2 (Straight) or deal 3 (Indian
pool) and a restart, every results message is in the channel once, the player
has one hand DM (edited in place, never re-sent), and the turn message from
before the crash keeps working while its turn lasts.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
from pathlib import Path

import pytest

from bot.ai import indian as indian_ai
from bot.ai import straight as straight_ai
from bot.engine.game import Game
from bot.registry import variant
from tests.e2e_helpers import slash_command
from tests.fakediscord import FakeDiscord, Message, User
from tests.test_bot_process import bot_process_env, run_module

AI = {"straight": straight_ai.choose_move, "indian": indian_ai.choose_move}


def saved_game(db: Path, key: str) -> tuple[Game, str]:
    """The newest game of the database and its status, read as another process would."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        state, status = con.execute("SELECT state, status FROM games WHERE state IS NOT NULL"
                                    " ORDER BY id DESC LIMIT 1").fetchone()
    return variant(key).game.from_json(json.loads(state)), status


async def play_until(fake: FakeDiscord, db: Path, key: str, user: User, seat: int,
                     hands_over: int) -> Game:
    """Play ``user``'s turns until ``hands_over`` hands have ended and it is their turn."""
    rng = random.Random(seat)
    for _ in range(3000):
        game, _ = saved_game(db, key)
        if len(game.history()) >= hands_over and game.to_move == seat:
            return game
        assert not game.is_over, "the match ended before the planned restart"
        if game.to_move != seat:
            await fake.settle()
            continue
        move = AI[key](game, seat, rng)  # type: ignore[arg-type]
        name, options = slash_command(key, move)
        answer = await (await fake.slash(user, name, **options)).reply()
        if move.kind == "declare":
            await (await fake.click(user, answer, "Declare")).reply()
    raise AssertionError("never reached the planned restart")


def recorded(db: Path) -> tuple[int | None, int]:
    """The turn message and the count of results the bot noted as posted."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        turn, published = con.execute("SELECT turn_message_id, published FROM games"
                                       " ORDER BY id DESC LIMIT 1").fetchone()
    return turn, json.loads(published).get("results", 0)


def results_posted(fake: FakeDiscord) -> list[str]:
    return [m.text.split(" is over.**")[0] for m in fake.channel_messages(fake.channel("games"))
            if " is over.**" in m.text]


def turn_messages(fake: FakeDiscord) -> list[Message]:
    return [m for m in fake.channel_messages(fake.channel("games")) if "My hand" in m.button_labels]


@pytest.mark.parametrize("key, options, hands_over", [
    ("straight", {"seed": 3, "computers": 1, "target": 500}, 1),
    ("indian", {"seed": 4, "computers": 2, "format": "pool201"}, 2),
])
async def test_a_killed_bot_posts_nothing_twice(fake_discord: FakeDiscord, tmp_path: Path,
                                                key: str, options: dict, hands_over: int) -> None:
    alice = fake_discord.user("alice")
    db = tmp_path / "rummy.sqlite3"
    env = bot_process_env({**fake_discord.bot_env(), "COMPUTER_DELAY": "0.01"}, tmp_path)
    first = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        lobby = await (await fake_discord.slash(alice, f"/{key} new", turn_seconds=0,
                                                **options)).reply()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        await play_until(fake_discord, db, key, alice, 0, hands_over)
        await fake_discord.wait_until(lambda: len(results_posted(fake_discord)) == hands_over
                                      and len(fake_discord.dms(alice)) == 1, timeout=20)
        label = "Hand" if key == "straight" else "Deal"
        current = f"<@{alice.id}>, it's your turn"
        await fake_discord.wait_until(lambda: any(
            current in m.text and f"{label.lower()} {hands_over + 1}" in m.text
            for m in turn_messages(fake_discord)), timeout=20)
        before = turn_messages(fake_discord)
        assert len(before) == 1
        # Quiet: the bot has written down what it posted (a kill between Discord taking a
        # message and the database noting it would post that one message again).
        await fake_discord.wait_until(lambda: recorded(db) == (before[0].id, hands_over),
                                      timeout=20)
        posted_before = len(fake_discord.channel_messages(fake_discord.channel("games")))
    finally:
        first.send_signal(signal.SIGKILL)
        await first.wait()
    second = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        await fake_discord.wait_until(lambda: any(  # the restart is told on the same message
            "restarted" in m.text for m in turn_messages(fake_discord)), timeout=20)
        await fake_discord.settle()
        assert results_posted(fake_discord) == [f"**{label} {n}" for n in
                                                range(1, hands_over + 1)]
        assert len(fake_discord.dms(alice)) == 1
        assert len(fake_discord.channel_messages(fake_discord.channel("games"))) == posted_before
        (turn,) = turn_messages(fake_discord)
        assert turn.id == before[0].id  # the same message, its buttons still there
        draw = "Draw from stock" if key == "straight" else "Draw closed"
        drawn = await (await fake_discord.click(alice, turn, draw)).reply()
        assert "You drew" in drawn.text
        game, _ = saved_game(db, key)
        assert len(game.hand(0)) == (11 if key == "straight" else 14)
    finally:
        second.send_signal(signal.SIGTERM)
        _, stderr = await second.communicate()
    assert second.returncode == 0, stderr.decode()[-2000:]


async def test_a_bot_killed_between_posting_and_saving_a_turn_message_posts_it_once(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Issue 19 item 5: Discord made the turn message, the bot died before saving that it
    did. Back up, the bot sends the same post again (the same enforced nonce, saved before
    the send), gets that message back, and carries on with it: one turn message, its
    buttons the live ones."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    env = bot_process_env({**fake_discord.bot_env(), "COMPUTER_DELAY": "0.01"}, tmp_path)
    first = await run_module(env, tmp_path)
    stall = None
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        lobby = await (await fake_discord.slash(alice, "/straight new", seed=21,
                                                turn_seconds=0)).reply()
        await (await fake_discord.click(bob, lobby, "Join")).response()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        await fake_discord.wait_until(lambda: len(turn_messages(fake_discord)) == 1
                                      and fake_discord.dms(alice) and fake_discord.dms(bob))
        (turn,) = turn_messages(fake_discord)
        mover, other = (alice, bob) if f"<@{alice.id}>" in turn.text else (bob, alice)
        panel = await (await fake_discord.click(mover, turn, "Draw from stock")).reply()
        card = panel.text.split("`#1` ")[1].split()[0]
        stall = fake_discord.stall("POST /channels/{channel_id}/messages")
        await (await fake_discord.slash(mover, "/straight discard", card=card)).reply()
        await stall.reached()  # Discord has made the next turn message; the bot waits
        held = fake_discord.find_message(lambda m: f"<@{other.id}>" in m.content,
                                         channel=channel)
        assert held is not None and "My hand" in held.button_labels
    finally:
        first.kill()
        await first.wait()
        if stall is not None:
            stall.release()
    second = await run_module(env, tmp_path)
    try:
        await fake_discord.wait_until_ready(commands=True, timeout=20)
        await fake_discord.wait_until(lambda: "restarted" in held.text, timeout=20)
        await fake_discord.settle()
        theirs = [m for m in fake_discord.channel_messages(channel)
                  if f"<@{other.id}>, it's your turn" in m.content]
        assert [m.id for m in theirs] == [held.id]  # made once
        assert [m.id for m in turn_messages(fake_discord)] == [held.id]  # the live one
        drawn = await (await fake_discord.click(other, held, "Draw from stock")).reply()
        assert "You drew" in drawn.text
    finally:
        second.send_signal(signal.SIGTERM)
        _, stderr = await second.communicate()
    assert second.returncode == 0, stderr.decode()[-2000:]
