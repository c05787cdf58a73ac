"""Computer levels (issue 23): easy, standard and strong in every variant.

The strong player searches over samples of the hidden cards
(``Game.redeal_unseen``), so it must choose the same move in a game whose hidden
cards were dealt differently: it sees nothing its seat could not see. With a
budget in samples it is deterministic for a seed.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.ai.levels import Budget, Easy, Strong, candidate_moves, pick
from bot.engine.game import Game
from bot.engine.rng import Rng
from bot.registry import LEVEL_ORDER, VARIANTS
from bot.thinker import Thinker

KEYS = sorted(VARIANTS)
BUDGET = Budget(playouts=3)


def position(key: str, seed: int, steps: int) -> Game[Any]:
    """A position a few moves into a two-player game played by standard computers."""
    kind = VARIANTS[key]
    game = kind.game.new(2 if key not in ("penang", "rummi") else 3, None, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = game.to_move
        if game.is_over or seat is None:
            break
        after, _ = game.apply(kind.computer("standard")(game, seat, rng))
        if after.is_over:
            break
        game = after
    return game


def playable(key: str) -> list[Game[Any]]:
    """Positions where the seat to move has a choice (found from a few seeds)."""
    found = []
    for seed in range(40):
        game = position(key, seed, 4 + seed % 7)
        seat = game.to_move
        if not game.is_over and seat is not None and len(game.legal_moves(seat)) > 1:
            found.append(game)
        if len(found) == 3:
            break
    assert found, key
    return found


@pytest.mark.parametrize("key", KEYS)
def test_every_variant_offers_three_levels_standard_by_default(key: str) -> None:
    kind = VARIANTS[key]
    assert kind.levels == list(LEVEL_ORDER)
    assert kind.default_level == "standard"
    assert isinstance(kind.computer("strong"), Strong)
    assert kind.computer(None) is kind.computer("standard")


@pytest.mark.parametrize("key", KEYS)
def test_strong_sees_nothing_its_seat_cannot_see(key: str) -> None:
    """Its choice in a game with every hidden card redealt is the same move."""
    strong = VARIANTS[key].computer("strong")
    for game in playable(key):
        seat = game.to_move
        assert seat is not None
        chosen = strong(game, seat, random.Random(5), budget=BUDGET)
        for sample in range(2):
            other = game.redeal_unseen(seat, Rng(1000 + sample))
            assert other.hand_view(seat) == game.hand_view(seat)
            assert strong(other, seat, random.Random(5), budget=BUDGET) == chosen


@pytest.mark.parametrize("key", KEYS)
def test_strong_is_deterministic_for_a_seed_and_plays_legal_moves(key: str) -> None:
    strong = VARIANTS[key].computer("strong")
    for game in playable(key):
        seat = game.to_move
        assert seat is not None
        first = strong(game, seat, random.Random(9), budget=BUDGET)
        assert strong(game, seat, random.Random(9), budget=BUDGET) == first
        game.apply(first)  # legal: raises otherwise


@pytest.mark.parametrize("key", KEYS)
def test_easy_plays_legal_moves_and_a_whole_game(key: str) -> None:
    kind = VARIANTS[key]
    easy = kind.computer("easy")
    game = kind.game.new(2 if key not in ("penang", "rummi") else 3, None, 3)
    rng = random.Random(3)
    for _ in range(3000):
        seat = game.to_move
        if game.is_over or seat is None:
            break
        game, _ = game.apply(easy(game, seat, rng))
    assert game.is_over or len(game.history()) >= 1


def test_easy_misses_some_standard_moves_but_never_a_kind_the_standard_would_not_make() -> None:
    kind = VARIANTS["straight"]
    standard, easy = kind.computer("standard"), kind.computer("easy")
    assert isinstance(easy, Easy)
    differs = 0
    for game in (position("straight", seed, 6 + seed % 5) for seed in range(40)):
        seat = game.to_move
        if game.is_over or seat is None:
            continue
        mine = standard(game, seat, random.Random(1))
        theirs = easy(game, seat, random.Random(1))
        assert theirs in game.legal_moves(seat)
        assert theirs.kind == mine.kind or theirs.kind == "done"
        differs += theirs != mine
    assert differs > 0


def test_candidates_put_the_standard_move_first_and_mix_kinds() -> None:
    for game in playable("straight"):
        seat = game.to_move
        assert seat is not None
        base = VARIANTS["straight"].computer("standard")(game, seat, random.Random(0))
        found = candidate_moves(game, seat, base)
        assert found[0] == base and len(set(found)) == len(found)
        legal_kinds = {m.kind for m in game.legal_moves(seat)}
        assert {m.kind for m in found} == legal_kinds or len(found) == 6


def test_the_standard_move_is_kept_unless_another_is_clearly_better() -> None:
    assert pick([[0.5, 0.5], [0.5, 0.5]]) == 0
    assert pick([[0.4, 0.6, 0.5], [0.6, 0.4, 0.55]]) == 0  # within the noise
    assert pick([[0.2, 0.3, 0.25, 0.2], [0.8, 0.9, 0.85, 0.8]]) == 1
    assert pick([[0.5], [0.9]]) == 0  # one sample proves nothing


@pytest.mark.parametrize("processes", [0, 1])
def test_the_thinker_gives_the_same_move_in_a_worker_as_here(processes: int) -> None:
    """Off the event loop (a worker process, or a thread) with a budget in samples: the
    move is the one the player chooses in this process for the same seed."""
    kind = VARIANTS["indian"]
    game = playable("indian")[0]
    seat = game.to_move
    assert seat is not None
    strong = kind.computer("strong")
    expected = strong(game, seat, random.Random(4), budget=BUDGET)
    thinker = Thinker(processes, BUDGET)

    async def ask() -> Any:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.001)
                ticks += 1

        ticker = asyncio.ensure_future(tick())
        try:
            move = await thinker.choose(strong, game, seat, random.Random(4))
        finally:
            ticker.cancel()
        return move, ticks

    try:
        move, ticks = asyncio.run(ask())
    finally:
        thinker.close()
    assert move == expected
    if processes:
        assert ticks > 0  # the loop went on running while the worker thought
    assert thinker.pool is None


def test_beaten_computers_read_strongest_first() -> None:
    from bot.texts import beaten_text

    assert beaten_text({"easy": 1, "strong": 2}) == "beat 2 strong computers, 1 easy computer"
    assert beaten_text({"standard": 0}) == ""


def test_think_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import Config, ConfigError
    from bot.thinker import budget_of

    monkeypatch.setenv("DISCORD_TOKEN", "RmFrZUJvdA.RmFrZQ.ZmFrZS1ib3QtdG9rZW4")
    for key in ("COMPUTER_THINK_SECONDS", "COMPUTER_THINK_PLAYOUTS", "COMPUTER_THINK_PROCESSES",
                "SHARD_COUNT", "SHARD_IDS", "IDENTIFY_WINDOW", "DISCORD_GATEWAY_URL"):
        monkeypatch.delenv(key, raising=False)
    default = Config.from_env(env_file=None)
    assert (default.think_seconds, default.think_playouts, default.think_processes) == (1.0, 0, 1)
    assert budget_of(default.think_seconds, default.think_playouts) == Budget(seconds=1.0)
    monkeypatch.setenv("COMPUTER_THINK_SECONDS", "0.5")
    monkeypatch.setenv("COMPUTER_THINK_PLAYOUTS", "12")
    monkeypatch.setenv("COMPUTER_THINK_PROCESSES", "0")
    settings = Config.from_env(env_file=None)
    assert (settings.think_seconds, settings.think_playouts, settings.think_processes) == (
        0.5, 12, 0)
    assert budget_of(settings.think_seconds, settings.think_playouts) == Budget(playouts=12)
    monkeypatch.setenv("COMPUTER_THINK_SECONDS", "-1")
    with pytest.raises(ConfigError):
        Config.from_env(env_file=None)


def test_a_dead_worker_costs_one_standard_move_then_a_new_worker_searches() -> None:
    import os
    import signal

    kind = VARIANTS["straight"]
    game = playable("straight")[0]
    seat = game.to_move
    assert seat is not None
    strong = kind.computer("strong")
    thinker = Thinker(1, BUDGET)

    async def story() -> Any:
        await thinker.choose(strong, game, seat, random.Random(1))
        pool = thinker.pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)  # the worker this test started
        fallback = await thinker.choose(strong, game, seat, random.Random(2))
        assert thinker.pool is None
        again = await thinker.choose(strong, game, seat, random.Random(3))
        return fallback, again

    try:
        fallback, again = asyncio.run(story())
    finally:
        thinker.close()
    assert fallback == kind.computer("standard")(game, seat, random.Random(2))
    assert again == strong(game, seat, random.Random(3), budget=BUDGET)
