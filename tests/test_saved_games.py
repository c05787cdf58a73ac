"""Games saved before the draw-and-discard core still load, replay and play on.

The fixtures in ``fixtures/saved_games/`` were recorded with ``main`` before
the core existed (see each file's ``note``): for Straight, Indian and Remi,
mid-match, the options, seed, the move log as the bot stores it
(``Move.to_json``) and the state snapshot (``Game.to_json``, version 1, each
variant's own field names). A snapshot must load into today's classes; the
old move log must load into today's moves and replay, from the seed, to the
same game; and the loaded game must play on exactly as the replayed one.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.ai import indian as indian_ai
from bot.ai import remi as remi_ai
from bot.ai import straight as straight_ai
from bot.engine.drawdiscard import DrawDiscardGame
from bot.engine.variants.indian import IndianGame
from bot.engine.variants.remi import RemiGame
from bot.engine.variants.straight import StraightGame

FIXTURES = Path(__file__).parent / "fixtures" / "saved_games"
GAMES: dict[str, tuple[type[DrawDiscardGame], Any]] = {
    "straight": (StraightGame, straight_ai.choose_move),
    "indian": (IndianGame, indian_ai.choose_move),
    "remi": (RemiGame, remi_ai.choose_move),
}
CASES = [(variant, i) for variant in GAMES
         for i in range(len(json.loads((FIXTURES / f"{variant}.json").read_text())["cases"]))]


def case(variant: str, index: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{variant}.json").read_text())
    found: dict[str, Any] = data["cases"][index]
    return found


def replayed(cls: type[DrawDiscardGame], saved: dict[str, Any]) -> DrawDiscardGame:
    game = cls.new(saved["players"], cls.options_type.build(**saved["options"]), saved["seed"])
    for data in saved["moves"]:
        game, _ = game.apply(cls.move_from_json(data))
    return game


def without_knowledge(game: DrawDiscardGame, saved: dict[str, Any]) -> DrawDiscardGame:
    """The game less what only serves to know which cards are where: ``known``, and
    ``taken`` where the variant's old snapshots did not keep it (Indian, Remi)."""
    if "taken" in saved["snapshot"]:
        return dataclasses.replace(game, known=[])
    return dataclasses.replace(game, known=[], taken=None)


@pytest.mark.parametrize(("variant", "index"), CASES)
def test_a_version_1_snapshot_loads_as_the_replayed_game(variant: str, index: int) -> None:
    cls, _ = GAMES[variant]
    saved = case(variant, index)
    assert "version" not in saved["snapshot"]  # recorded before the core: version 1
    loaded = cls.from_json(saved["snapshot"])
    game = replayed(cls, saved)
    assert without_knowledge(loaded, saved) == without_knowledge(game, saved)
    for seat in range(game.players):  # what the old snapshot could not say is simply unknown
        assert not Counter(loaded.known[seat]) - Counter(game.known[seat])
    assert cls.from_json(json.loads(json.dumps(loaded.to_json()))) == loaded
    assert loaded.to_json()["version"] == cls.snapshot_version


@pytest.mark.parametrize(("variant", "index"), CASES)
def test_an_old_move_log_loads_into_todays_moves(variant: str, index: int) -> None:
    cls, _ = GAMES[variant]
    for data in case(variant, index)["moves"]:
        move = cls.move_from_json(data)
        again = move.to_json()
        assert {k: again[k] for k in data} == data  # new fields only add defaults
        assert all(again[k] is None or again[k] == () for k in again.keys() - data.keys())


@pytest.mark.parametrize(("variant", "index"), CASES)
def test_a_loaded_game_plays_on_like_the_replayed_one(variant: str, index: int) -> None:
    cls, choose = GAMES[variant]
    saved = case(variant, index)
    loaded = cls.from_json(saved["snapshot"])
    game = replayed(cls, saved)
    rng = random.Random(index)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        move = choose(game, seat, rng)
        game, events = game.apply(move)
        loaded, loaded_events = loaded.apply(move)
        assert events == loaded_events
        assert without_knowledge(loaded, saved) == without_knowledge(game, saved)


def test_a_snapshot_of_a_newer_version_is_refused() -> None:
    game = StraightGame.new(2, seed=3)
    data = {**game.to_json(), "version": StraightGame.snapshot_version + 1}
    with pytest.raises(ValueError, match="cannot be read"):
        StraightGame.from_json(data)
