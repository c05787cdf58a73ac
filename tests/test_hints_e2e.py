"""End to end: hints on the fake Discord (issue 24), for every variant.

A hint during a turn names the move the strongest computer would make, privately; the
player then plays it through the bot and the engine accepts it. Hints are refused in one
line out of turn, to someone not seated, before the start and in a game whose lobby set
``hints`` off; the counts survive a restart and reach the results, and a server that does
not rate hinted games records them unrated.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

import bot.controller as controller_module
import bot.hints as hints_module
from bot.ai import straight as straight_ai
from bot.app import RummyBot
from bot.engine.cards import Face, Piece
from bot.engine.game import Move
from bot.hints import Hint
from bot.registry import VARIANTS
from bot.sessions import Session
from tests.bot_harness import running_bot
from tests.e2e_helpers import open_panel, pictured, play_out, published, start_game
from tests.fakediscord import CallbackType, FakeDiscord, Message, User

COMPUTERS = {"straight": 1, "indian": 1, "penang": 2, "remi": 1, "rummi": 2, "rummy500": 1,
             "tiles": 1, "gin": 1}
HINTS = 3
"""Hinted moves played per game (then the player leaves and the computers finish it)."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


@pytest.fixture
def hints_given(monkeypatch: pytest.MonkeyPatch) -> list[Hint]:
    """Every hint the bot gives from now on, as the controller got it."""
    given: list[Hint] = []
    original = controller_module.hint

    async def recording(*args: Any) -> Hint:
        result = await original(*args)
        given.append(result)
        return result

    monkeypatch.setattr(controller_module, "hint", recording)
    return given


# -- moves as a person types them --------------------------------------------------------


def ref(piece: Piece, face: Face | None, tiles: bool) -> str:
    return piece.code if face is None else f"{piece.code}={face.label(tiles=tiles)}"


def refs(items: Any, tiles: bool = False) -> str:
    return " ".join(ref(p, f, tiles) for p, f in items)


def command(key: str, move: Any) -> tuple[str, dict[str, Any]]:
    """The slash command for ``move`` in ``key``'s group (UX.md's table of moves)."""
    kind, tiles = move.kind, key == "tiles"
    if kind == "draw":
        return ("draw", {"source": move.source}) if key in ("straight", "indian", "gin") else \
            ("draw", {})
    if kind == "discard":
        return "discard", {"card": move.card.code}
    if kind == "meld":
        cards = " | ".join(refs(group) for group in move.melds)
        return ("play", {"cards": cards}) if key == "rummi" else ("meld", {"cards": cards})
    if kind == "layoff":
        verb = "play" if key == "rummi" else "layoff"
        return verb, {"cards": refs(move.cards), "meld": move.meld}
    if kind == "take" and not tiles:
        taking: dict[str, Any] = {"card": move.card.code}
        if move.with_cards:
            taking["with"] = " ".join(c.code for c in move.with_cards)
        if move.meld is not None:  # Rummy 500: laid off on a meld (FHR-18)
            taking["meld"] = move.meld
        if move.position is not None:
            taking["pos"] = move.position
        return "take", taking
    if kind in ("done", "drop", "dead", "undo", "pass"):
        return kind, {}
    if kind == "knock":
        return "knock", {"card": move.card.code} if move.card is not None else {}
    if kind == "swap":
        return "swap", {"card": move.card.code, "meld": move.meld}
    if kind == "declare":
        return "declare", {"finish": move.finish.code}
    if kind == "close":
        return "close", {"card": move.card.code}
    if kind == "arrange":
        return "arrange", {"tiles": " ".join(t.code for t in move.tiles)}
    if kind == "play":
        values: dict[str, Any] = {"tiles": refs(move.tiles, True)}
        if move.meld is not None:
            values["meld"] = move.meld
        return "play", values
    if kind == "move":
        values = {"tile": move.tile.code, "from_meld": move.from_meld}
        if move.to_meld is not None:
            values["to_meld"] = move.to_meld
        return "move", values
    if kind == "split":
        return "split", {"meld": move.meld, "at": move.at}
    if kind == "release":
        return "release", {"tile": move.tile.code, "meld": move.meld}
    if kind == "take":
        return "take", {"tile": move.tile.code}
    raise ValueError(f"no command for {move!r}")


async def play_through_bot(fake: FakeDiscord, bot: RummyBot, session: Session, user: User,
                           move: Move) -> None:
    """Type ``move`` as ``user`` (confirming where the bot asks) and check that the engine
    took exactly it as the game's next move."""
    before = session.moves
    name, options = command(session.variant.key, move)
    answer = await (await fake.slash(user, f"/{session.variant.key} {name}",
                                     options=options)).reply()
    if session.moves == before:  # a costly move asks first (declare, close, drop, dead)
        confirm = next(b["label"] for b in answer.buttons if b["label"] != "Cancel")
        await (await fake.click(user, answer, confirm)).response()
    await fake.wait_until(lambda: session.moves > before, timeout=5)
    saved = await bot.store.moves(session.game_id)
    assert saved[before].move == move.to_json() and saved[before].user_id == user.id


async def my_turn(fake: FakeDiscord, session: Session, seat: int) -> bool:
    """Wait for ``seat``'s turn; False when the game ended first."""
    await fake.wait_until(lambda: session.game.is_over or session.status != "running"
                          or (session.game.to_move == seat and not session.lock.locked()),
                          timeout=30)
    return not session.game.is_over and session.status == "running"


def private_to(message: Message, user: User) -> None:
    assert message.ephemeral and message.visible_to is not None
    assert message.visible_to.id == user.id


def final_results(fake: FakeDiscord) -> Message | None:
    return fake.find_message(lambda m: "Rematch" in m.button_labels,
                             channel=fake.channel("games"))


# -- every variant --------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(VARIANTS))
async def test_a_hint_names_a_move_the_engine_accepts_privately_and_is_counted(
        fake_discord: FakeDiscord, db: Path, hints_given: list[Hint], key: str) -> None:
    alice = fake_discord.user("alice")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        results = pictured(bot, "results")
        session = await start_game(fake_discord, bot, alice, variant=key,
                                   computers=COMPUTERS[key], seed=21)
        seat = session.seat_of(alice.id)
        assert seat is not None
        for number in range(HINTS):
            if not await my_turn(fake_discord, session, seat):
                break
            if number == 0:  # the Hint button on the hand panel
                panel = await open_panel(fake_discord, alice)
                assert "Hint" in panel.button_labels
                answer = await (await fake_discord.click(alice, panel, "Hint")).reply()
            else:
                answer = await (await fake_discord.slash(alice, "/rummy hint")).reply()
            private_to(answer, alice)
            given = hints_given[-1]
            assert answer.text == f"💡 {given.text}"
            assert "\n" not in answer.text and len(answer.text) < 600
            await play_through_bot(fake_discord, bot, session, alice, given.move)
        used = len(hints_given)
        assert used >= 1 and session.seats[seat].hints == used
        assert (await bot.store.get_game(session.game_id)).seats[seat].hints == used

        await (await fake_discord.slash(alice, "/rummy leave")).response()
        await fake_discord.wait_until(lambda: session.status == "finished", timeout=60)
        await fake_discord.wait_until(lambda: final_results(fake_discord) is not None,
                                      timeout=20)
        await published(fake_discord, bot)
        text = final_results(fake_discord).text
        count = f"{used} hint" + ("s" if used > 1 else "")
        alice_line = next(line for line in text.splitlines() if "**alice**" in line)
        assert count in alice_line and "Not rated" not in text
        placing = next(p for p in results[-1].placings if p.seat == seat)
        assert count in placing.note  # the results picture shows it too
        for message in fake_discord.channel_messages(channel):
            assert "💡" not in message.text


# -- refusals --------------------------------------------------------------------------------


async def test_out_of_turn_not_seated_and_before_the_start_are_refused_in_one_line(
        fake_discord: FakeDiscord, db: Path, hints_given: list[Hint]) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.add_user("carol")
    fake_discord.guild("Rummy Club").add_member(carol)
    async with running_bot(fake_discord, db) as bot:
        lobby = await (await fake_discord.slash(alice, "/straight new", seed=3)).reply()
        early = await (await fake_discord.slash(alice, "/rummy hint")).reply()
        assert early.text == "The game has not started yet: hints come on your turn."
        private_to(early, alice)
        await (await fake_discord.click(bob, lobby, "Join")).response()
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        game = session.game
        waiting = bob if game.to_move == session.seat_of(alice.id) else alice
        mover = alice if waiting is bob else bob
        refused = await (await fake_discord.slash(waiting, "/rummy hint")).reply()
        private_to(refused, waiting)
        assert refused.text == (f"It is not your turn: it is {mover.name}'s turn. Hints come "
                                "on your turn.")
        stranger = await (await fake_discord.slash(carol, "/rummy hint")).reply()
        assert stranger.text == ("You are not playing in this game, so there is no hint for "
                                 "you.")
        panel = await open_panel(fake_discord, waiting)
        assert "Hint" not in panel.button_labels  # only on your turn
        assert not hints_given and all(s.hints == 0 for s in session.seats)
        assert session.moves == 0 and session.game is game  # nothing changed


async def test_a_game_with_hints_off_refuses_them_in_one_line(
        fake_discord: FakeDiscord, db: Path, hints_given: list[Hint]) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        lobby = await (await fake_discord.slash(alice, "/straight new", computers=1, seed=4,
                                                hints=False)).reply()
        assert "**hints: off**" in lobby.embeds[0]["fields"][3]["value"]
        await (await fake_discord.click(alice, lobby, "Start")).response()
        session = bot.controller.sessions.in_channel(fake_discord.channel("games").id)
        assert not session.hints and not (await bot.store.get_game(session.game_id)).hints
        seat = session.seat_of(alice.id)
        assert await my_turn(fake_discord, session, seat)
        refused = await (await fake_discord.slash(alice, "/rummy hint")).reply()
        private_to(refused, alice)
        assert refused.text == "Hints are off in this game (the lobby's hints option)."
        panel = await open_panel(fake_discord, alice)
        assert "Hint" not in panel.button_labels
        assert not hints_given and session.seats[seat].hints == 0


# -- counts after a restart, and a server that does not rate hinted games -------------------------


async def test_counts_survive_a_restart_and_a_server_may_leave_hinted_games_unrated(
        fake_discord: FakeDiscord, db: Path, hints_given: list[Hint]) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.add_user("carol")
    fake_discord.guild("Rummy Club").add_member(carol, manage_guild=True)
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        refused = await (await fake_discord.slash(bob, "/rummy settings",
                                                  rate_hinted_games=False)).reply()
        assert refused.text == ("Only a member with Manage Server can change this server's "
                                "settings.")
        assert await bot.store.get_server_settings(fake_discord.guild("Rummy Club").id) == {}
        done = await (await fake_discord.slash(carol, "/rummy settings",
                                               rate_hinted_games=False)).reply()
        assert done.text == ("Games in which someone used a hint are recorded but not rated in "
                             "this server.")
        session = await start_game(fake_discord, bot, alice, computers=1, seed=8, hands=1)
        seat = session.seat_of(alice.id)
        assert await my_turn(fake_discord, session, seat)
        await (await fake_discord.slash(alice, "/rummy hint")).reply()
        await play_through_bot(fake_discord, bot, session, alice, hints_given[-1].move)
        game_id = session.game_id
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = bot.controller.sessions.by_id(game_id)
        assert session is not None and session.seats[seat].hints == 1
        await play_out(fake_discord, session, alice, straight_ai.choose_move)
        await fake_discord.wait_until(lambda: session.status == "finished", timeout=60)
        await fake_discord.wait_until(lambda: final_results(fake_discord) is not None,
                                      timeout=20)
        text = final_results(fake_discord).text
        assert "1 hint" in next(line for line in text.splitlines() if "**alice**" in line)
        assert text.endswith("Not rated: hints were used, and this server does not rate games "
                             "with hints.")
        history = await bot.store.history(session.guild_id)
        assert history[0].game_id == game_id
        assert all(p.rating_before is None and p.rating_after is None
                   for p in history[0].players)
        board = await bot.store.leaderboard(session.guild_id)
        assert [r.games for r in board if r.user_id == alice.id] == [1]  # recorded


async def test_by_default_a_game_with_hints_is_rated(fake_discord: FakeDiscord, db: Path,
                                                     hints_given: list[Hint]) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, computers=1, seed=8, hands=1)
        seat = session.seat_of(alice.id)
        assert await my_turn(fake_discord, session, seat)
        await (await fake_discord.slash(alice, "/rummy hint")).reply()
        await play_through_bot(fake_discord, bot, session, alice, hints_given[-1].move)
        await play_out(fake_discord, session, alice, straight_ai.choose_move)
        await fake_discord.wait_until(lambda: final_results(fake_discord) is not None,
                                      timeout=20)
        text = final_results(fake_discord).text
        assert "1 hint" in next(line for line in text.splitlines() if "**alice**" in line)
        assert "Not rated" not in text
        history = await bot.store.history(session.guild_id)
        assert all(p.rating_after is not None for p in history[0].players)
        over = await (await fake_discord.slash(alice, "/rummy hint")).reply()
        assert over.text.startswith("There is no game in this channel.")  # it is over
        assert "\n" not in over.text
        stepper = await (await fake_discord.slash(alice, "/rummy replay")).reply()
        record = next(a for a in stepper.attachments if a.filename.endswith(".txt"))
        assert "\nHints: alice 1\n" in record.data.decode("utf-8")  # the game record


async def test_a_slow_hint_is_deferred_privately_and_still_answered(
        fake_discord: FakeDiscord, db: Path, hints_given: list[Hint],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A strong player that searches for 1.6 s: the answer is deferred (privately) within
    Discord's 3 s, and the rest of the turn is left for the player to ask again."""
    alice = fake_discord.user("alice")
    original = hints_module.hint_move

    async def searching(*args: Any) -> Move:
        await asyncio.to_thread(time.sleep, 1.6)
        return await original(*args)

    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        session = await start_game(fake_discord, bot, alice, computers=1, seed=8)
        assert await my_turn(fake_discord, session, session.seat_of(alice.id))
        monkeypatch.setattr(hints_module, "hint_move", searching)
        asked = await fake_discord.slash(alice, "/rummy hint")
        deferred = await asked.response()
        assert deferred.type is CallbackType.DEFERRED_CHANNEL_MESSAGE and deferred.ephemeral
        answer = await asked.reply()
        private_to(answer, alice)
        assert answer.text == f"💡 {hints_given[-1].text}"
        assert answer.text.endswith("Then ask again for the rest of your turn.") or \
            answer.text.endswith("Then ask again: what to keep depends on what you draw.")
        assert asked.answer_time is not None and asked.answer_time < 3
