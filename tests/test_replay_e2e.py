"""End to end: replays and game records on the fake Discord, for every variant.

A short game with computers and a seed is played to its end (the person leaves at
once: the variant's own way out, or a computer takes the seat), then replayed:
the stepper is private to whoever opened it, steps from the deal to the results
with pictures that decode and hands that are the engine's at each step, jumps to
each hand, survives a restart, and its game record replays to the stored game.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.app import RummyBot
from bot.engine.game import Game
from bot.engine.record import final_totals, read_record, replay_record
from bot.registry import VARIANTS
from tests.bot_harness import running_bot
from tests.e2e_helpers import assert_no_hand_in_channel, published, start_game
from tests.fakediscord import FakeDiscord, Message, User

GAMES = {k: v.game for k, v in VARIANTS.items()}

SHORT = {
    # variant: (computers, options for a short game with more than one hand where the
    # variant plays several, so the jump menu has something to jump to)
    "straight": (1, {"hands": 2}),
    "indian": (2, {"format": "deals", "deals": 2}),
    "penang": (2, {}),
    "remi": (1, {"deals": 2}),
    "rummi": (2, {}),
    "rummy500": (1, {"hands": 2}),
    "tiles": (1, {}),
    "gin": (1, {"hands": 2}),
}
FORWARD_CLICKS = 6


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


async def finished_game(fake: FakeDiscord, bot: RummyBot, alice: User, key: str,
                        seed: int = 5) -> int:
    """Alice opens a game with computers, leaves it at once, and the computers finish it."""
    computers, options = SHORT[key]
    session = await start_game(fake, bot, alice, variant=key, computers=computers, seed=seed,
                               **options)
    await (await fake.slash(alice, "/rummy leave")).response()
    await fake.wait_until(lambda: session.status == "finished", timeout=60)
    await fake.wait_until(lambda: results_message(fake) is not None, timeout=20)
    await published(fake, bot)
    return session.game_id


def results_message(fake: FakeDiscord) -> Message | None:
    return fake.find_message(lambda m: "Replay" in m.button_labels,
                             channel=fake.channel("games"))


def replayed_states(game: type[Game], row, moves) -> list[Game]:
    """The engine's own replay: the state after each number of moves (0 = the deal)."""
    state = game.new(len(row.seats), game.options_type.build(**row.options), row.seed)
    states = [state]
    for move in moves:
        state, _ = state.apply(game.move_from_json(move.move))
        states.append(state)
    return states


def state_shown(message: Message, states: list[Game]) -> Game:
    """The engine state the stepper says it shows: after move k, or a hand's deal."""
    text = message.text
    moved = re.search(r"· move (\d+) of \d+", text)
    if moved:
        return states[int(moved[1])]
    dealt = re.search(r"(\w+) (\d+) · the deal", text)
    assert dealt, text
    number = int(dealt[2])
    return next(s for s in states if s.table_view().hand_number == number and not s.is_over)


def check_step(message: Message, viewer: User, states: list[Game], names: list[str]) -> None:
    """A private step whose picture decodes and whose hands are the engine's."""
    assert message.ephemeral and message.visible_to is not None
    assert message.visible_to.id == viewer.id
    picture = next(a for a in message.attachments if a.filename == "replay.png")
    image = Image.open(io.BytesIO(picture.data))
    image.load()
    assert image.width == 1200 and image.height > 200
    if re.search(r"\*\*(The game|\w+ \d+) is over\*\*", message.text):
        assert all(name in message.text for name in names)  # the results, in words
        return
    state = state_shown(message, states)
    for seat, name in enumerate(names):
        hand = sorted(p.code for p in state.hand_view(seat).pieces)
        line = re.search(rf"\*\*{re.escape(name)}\*\* \((\d+)\): ([^\n(]*)", message.text)
        assert line, (name, message.text)
        assert int(line[1]) == len(hand)
        shown = sorted(c for c in line[2].split() if c != "nothing")
        assert shown == hand, (name, shown, hand)


def jump_values(message: Message) -> list[str]:
    menu = next(s for s in message.selects if s["custom_id"].startswith("rps:"))
    return [o["value"] for o in menu["options"]]


@pytest.mark.parametrize("key", sorted(VARIANTS))
async def test_replay_steps_from_the_deal_to_the_results_and_its_record_replays(
        fake_discord: FakeDiscord, db: Path, key: str) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("games")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        game_id = await finished_game(fake_discord, bot, alice, key)
        row = await bot.store.get_game(game_id)
        moves = await bot.store.moves(game_id)
        states = replayed_states(GAMES[key], row, moves)
        names = [s.name for s in row.seats]

        # /rummy replay with no game: alice's last game here (she left it, it is hers).
        stepper = await (await fake_discord.slash(alice, "/rummy replay")).reply()
        assert f"game #{game_id}" in stepper.text and "the deal" in stepper.text
        assert {a.filename for a in stepper.attachments} == {"replay.png",
                                                             f"rummy-game-{game_id}.txt"}
        check_step(stepper, alice, states, names)
        record = next(a for a in stepper.attachments if a.filename.endswith(".txt")).data
        total = int(re.search(r"Step 1 of (\d+)", stepper.text)[1])

        # ▶ a few steps: each shows a move, its picture, and every hand as the engine has it.
        for expected in range(2, min(FORWARD_CLICKS, total) + 1):
            stepper = await (await fake_discord.click(alice, stepper, "Next")).reply()
            assert f"Step {expected} of {total}" in stepper.text
            check_step(stepper, alice, states, names)
            assert any(a.filename.endswith(".txt") for a in stepper.attachments)  # kept
        # The jump menu: every hand's deal, then the results; ◀ back from the results.
        for value in jump_values(stepper):
            current = next(s for s in stepper.selects if s["custom_id"].startswith("rps:"))
            stepper = await (await fake_discord.select(alice, stepper, [value],
                                                       custom_id=current["custom_id"])).reply()
            assert f"Step {int(value) + 1} of {total}" in stepper.text
            check_step(stepper, alice, states, names)
        assert "The game is over" in stepper.text
        assert [b["disabled"] for b in stepper.buttons] == [False, False, True, True]
        stepper = await (await fake_discord.click(alice, stepper, "Back")).reply()
        check_step(stepper, alice, states, names)
        stepper = await (await fake_discord.click(alice, stepper, "Start")).reply()
        assert "Step 1 of" in stepper.text and "the deal" in stepper.text

        # The Replay button on the final results: a stepper only bob sees.
        mine = await (await fake_discord.click(bob, results_message(fake_discord),
                                               "Replay")).reply()
        check_step(mine, bob, states, names)
        assert mine.id != stepper.id

        # The record replays to the stored game: same final state, same final scores.
        parsed = read_record(record.decode("utf-8"), GAMES)
        final = replay_record(parsed)
        assert json.loads(json.dumps(final.to_json())) == row.state
        results = await bot.store.history(row.guild_id)
        stored = {p.seat: p.points for p in results[0].players}
        scale = GAMES[key].points_scale
        assert final_totals(final) == tuple(stored[s] / scale for s in range(len(names)))

        # No public message ever carries a hand or a replay step.
        assert_no_hand_in_channel(fake_discord, channel)
        for message in fake_discord.messages:
            if "Every hand, open" in message.text or any(
                    a.filename == "replay.png" for a in message.attachments):
                assert message.ephemeral and message.visible_to is not None


async def test_a_stepper_keeps_working_after_a_restart(fake_discord: FakeDiscord,
                                                       db: Path) -> None:
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        game_id = await finished_game(fake_discord, bot, alice, "straight")
        stepper = await (await fake_discord.slash(alice, "/rummy replay",
                                                  game=str(game_id))).reply()
        stepper = await (await fake_discord.click(alice, stepper, "Next")).reply()
        assert "Step 2 of" in stepper.text
    async with running_bot(fake_discord, db) as bot:  # nothing of the replay in memory
        assert not bot.controller.replays._cache
        stepper = await (await fake_discord.click(alice, stepper, "Next")).reply()
        assert "Step 3 of" in stepper.text and "move 2 of" in stepper.text
        assert any(a.filename == "replay.png" for a in stepper.attachments)


async def test_a_running_game_a_cancelled_one_and_nonsense_are_refused_in_one_line(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        nothing = await (await fake_discord.slash(alice, "/rummy replay")).reply()
        assert nothing.text == ("You have no finished game in this server yet: pick one with "
                                "the game option.")
        session = await start_game(fake_discord, bot, alice, computers=1, hands=1)
        running = await (await fake_discord.slash(
            bob, "/rummy replay", game=str(session.game_id))).reply()
        assert running.ephemeral and running.text == (
            f"Game #{session.game_id} is still being played: replay it once it is over.")
        await (await fake_discord.slash(alice, "/rummy cancel")).response()
        cancelled = await (await fake_discord.slash(
            bob, "/rummy replay", game=f"#{session.game_id}")).reply()
        assert "was cancelled before it ended" in cancelled.text
        unknown = await (await fake_discord.slash(bob, "/rummy replay", game="999")).reply()
        assert unknown.text == "There is no game #999."
        words = await (await fake_discord.slash(bob, "/rummy replay", game="the good one")
                       ).reply()
        assert words.text.startswith("Pick a game from the list")
        for answer in (nothing, running, cancelled, unknown, words):
            assert answer.ephemeral and "\n" not in answer.text


async def test_autocomplete_offers_this_servers_finished_games_and_another_server_is_refused(
        fake_discord: FakeDiscord, db: Path) -> None:
    alice = fake_discord.user("alice")
    other = fake_discord.add_guild("Other Club")
    elsewhere = other.add_text_channel("tables")
    other.add_member(alice)
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        first = await finished_game(fake_discord, bot, alice, "straight", seed=5)
        second = await finished_game(fake_discord, bot, alice, "rummi", seed=6)
        choices = await fake_discord.autocomplete(alice, "/rummy replay", "game", "")
        assert [c.value for c in choices] == [str(second), str(first)]  # newest first
        label = choices[1].name
        assert label.startswith(f"#{first} · Straight Rummy · alice, Ada (bot) · ")
        assert label.endswith(" · seed 5") and len(label) <= 100
        narrowed = await fake_discord.autocomplete(alice, "/rummy replay", "game", "rummi 6")
        assert [c.value for c in narrowed] == [str(second)]
        assert await fake_discord.autocomplete(alice, "/rummy replay", "game", "penang") == []
        mine = await (await fake_discord.slash(alice, "/rummy replay")).reply()
        assert f"game #{second}" in mine.text  # her last game here
        await (await fake_discord.slash(alice, "/rummy replay", game=str(first))).reply()
        assert first in bot.controller.replays._cache
        assert await fake_discord.autocomplete(alice, "/rummy replay", "game", "",
                                               channel=elsewhere) == []
        refused = await (await fake_discord.slash(alice, "/rummy replay", channel=elsewhere,
                                                  game=str(first))).reply()
        assert refused.ephemeral and refused.text == (
            f"Game #{first} was not played in this server.")
        bot.controller.replays._cache.clear()  # cached a moment ago, or read from the store
        again = await (await fake_discord.slash(alice, "/rummy replay", channel=elsewhere,
                                                game=str(first))).reply()
        assert again.text == refused.text


async def test_quick_clicks_end_on_the_last_one(fake_discord: FakeDiscord, db: Path) -> None:
    """▶ then ⏭ before the first answer: the stepper ends on ⏭'s step, whichever is drawn
    first (a slower earlier step never overwrites a later one)."""
    alice = fake_discord.user("alice")
    async with running_bot(fake_discord, db, computer_delay=0.001) as bot:
        await finished_game(fake_discord, bot, alice, "straight")
        stepper = await (await fake_discord.slash(alice, "/rummy replay")).reply()
        total = int(re.search(r"Step 1 of (\d+)", stepper.text)[1])
        forward = await fake_discord.click(alice, stepper, "Next")
        end = await fake_discord.click(alice, stepper, "End")
        await forward.response()
        await end.response()
        await fake_discord.wait_until(lambda: f"Step {total} of {total}" in stepper.text,
                                      timeout=10)
        await fake_discord.settle()
        assert f"Step {total} of {total}" in fake_discord.message(stepper.id).text
