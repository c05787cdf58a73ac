"""The contract every registered variant keeps, checked for each one in the registry.

Random games mixing legal moves, the computer's moves and moves that are
often illegal (stale moves from earlier positions, moves of seats not to move,
timeouts out of turn): nothing crashes, a refusal is one line and changes
nothing, ``apply`` never mutates its input, no piece is lost or created, the
JSON round trip is exact, the views agree with the hands, and the seed plus
the moves replay the same game. A new variant gets all of this by being
registered. The slash command ``/<variant> new`` is held equal to the engine's
option specs (the engine declares options once; the cog types them).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from discord import AppCommandOptionType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.game import Game, Move, Timeout
from bot.engine.views import SeatState
from bot.registry import VARIANTS, Variant
from bot.rules_text import SUMMARIES
from cogs.base import LOBBY_OPTIONS
from tests.random_play import random_play

KEYS = sorted(VARIANTS)


def wrong_move(game: Game, seen: list[Move], rng: random.Random) -> Move:
    """A move that is often illegal now: stale, out of turn, or a timeout of another seat."""
    roll = rng.random()
    if seen and roll < 0.5:
        return rng.choice(seen)
    others = [s for s in range(game.players) if s != game.to_move]
    seat = rng.choice(others)
    if roll < 0.8:
        moves = game.legal_moves(seat)
        if moves:
            return rng.choice(moves)
    return Timeout(seat)


def check_position(game: Game, start: Counter) -> None:
    assert game.inventory() == start, "a piece was lost or created"
    data = json.loads(json.dumps(game.to_json()))
    assert type(game).from_json(data) == game
    assert game.is_over or game.to_move is not None
    panels = game.table_view().players
    for seat in range(game.players):  # Tile Rummy shows the rack less what is staged
        assert not Counter(game.hand_view(seat).pieces) - Counter(game.hand(seat))
    for panel in panels:  # a dropped or winning hand may count as shown (Indian)
        if panel.state is SeatState.PLAYING and not game.is_over:
            assert panel.pieces_left == len(game.hand(panel.seat))


def play_randomly(kind: Variant, players: int, seed: int, script: int, steps: int) -> None:
    game = kind.game.new(players, seed=seed)
    start = game.inventory()
    seen: list[Move] = []

    def pick(game: Game, seat: int, rng: random.Random) -> Move:
        legal = game.legal_moves(seat)
        assert legal, f"seat {seat} has no legal move"
        seen.extend(rng.sample(legal, min(3, len(legal))))
        roll = rng.random()
        if roll < 0.25:
            return wrong_move(game, seen, rng)
        if roll < 0.6:
            return kind.choose_move(game, seat, rng)
        return rng.choice(legal)

    random_play(game, steps, random.Random(script), pick,
                lambda game: check_position(game, start))


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32), script=st.integers(0, 2**32),
       steps=st.integers(20, 200))
def test_random_play_keeps_the_contract(key: str, data: st.DataObject, seed: int, script: int,
                                        steps: int) -> None:
    kind = VARIANTS[key]
    players = data.draw(st.integers(kind.game.min_players, kind.game.max_players))
    play_randomly(kind, players, seed, script, steps)


@pytest.mark.parametrize("key", KEYS)
def test_registry_entry_is_complete(key: str) -> None:
    kind = VARIANTS[key]
    assert kind.game.variant == key
    assert kind.computers and kind.summary == SUMMARIES[key]
    assert kind.extension == f"cogs.{key}"
    assert kind.rules().startswith(f"## {kind.title}")
    game = kind.game.new(kind.game.min_players, seed=1)
    assert isinstance(kind.controls.turn_buttons(game), list)


def _cog_new_command(key: str):
    module = __import__(VARIANTS[key].extension, fromlist=["setup"])
    cogs = [v for v in vars(module).values()
            if isinstance(v, type) and getattr(v, "key", None) == key]
    (cog,) = cogs
    return next(c for c in cog.__cog_app_commands__ if c.name == "new")


@pytest.mark.parametrize("key", KEYS)
def test_new_command_offers_exactly_the_engine_options(key: str) -> None:
    kind = VARIANTS[key]
    params = {p.name: p for p in _cog_new_command(key).parameters}
    specs = {s.name: s for s in kind.game.options_type.specs()}
    assert set(params) == set(specs) | {"computers", "seed"} | set(LOBBY_OPTIONS)
    hints = params["hints"]  # every lobby's own option, added once for every variant
    assert hints.type is AppCommandOptionType.boolean and not hints.required
    for name, spec in specs.items():
        param = params[name]
        assert not param.required, name
        if spec.kind == "bool":
            assert param.type is AppCommandOptionType.boolean, name
        elif spec.kind == "text":  # parsed by the engine (Rummi tiers), typed as a string
            assert param.type is AppCommandOptionType.string, name
        elif spec.kind == "choice":
            assert [str(c.value) for c in param.choices] == list(spec.choices or ()), name
        elif param.choices:  # a fixed set of integers (Indian deals)
            assert {c.value for c in param.choices} == set(spec.also), name
        else:
            low, high = spec.bounds or (min(spec.also), max(spec.also))
            assert param.min_value == min((low, *spec.also)), name
            assert param.max_value == high, name
    computers = params["computers"]
    assert computers.min_value == 0 and computers.max_value == kind.game.max_players - 1
