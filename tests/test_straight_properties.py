"""Property tests: random Straight games with legal and illegal moves (hypothesis).

Whatever is thrown at it, the engine never crashes, a refused move changes
nothing (NOT-13), every card is always in exactly one place, the JSON round
trip is exact, and the same seed and moves replay to the same game.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.straight import choose_move
from bot.engine.cards import card_deck
from bot.engine.game import Move, Timeout
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, placed
from bot.engine.variants.straight import StraightGame, StraightOptions
from tests.engine_helpers import all_cards
from tests.random_play import random_play

DECK = card_deck(1)

options_strategy = st.builds(
    StraightOptions,
    one_meld_per_turn=st.booleans(), meld_before_layoff=st.booleans(),
    no_discard_of_taken_card=st.booleans(), stock_out=st.sampled_from(["reshuffle", "end"]),
    rummy_bonus=st.sampled_from(["double", "ten"]),
    aces=st.sampled_from(["low", "high", "both", "around"]),
    discard_to_go_out=st.booleans(), penalty_scoring=st.booleans(),
    target=st.integers(1, 80), hands=st.sampled_from([None, 1, 2, 3]),
    turn_seconds=st.sampled_from([0, 30]))


def wild_move(game: StraightGame, rng: random.Random) -> Move:
    """A move that is often illegal: any seat, any card, any meld number."""
    seat = rng.randrange(game.players)
    some = rng.sample(DECK, rng.randint(1, 4))
    kind = rng.randrange(6)
    if kind == 0:
        return Draw(seat, rng.choice(["stock", "discard", "sideways"]))
    if kind == 1:
        return Discard(seat, some[0])
    if kind == 2:
        return MeldDown(seat, (placed(*some),))
    if kind == 3:
        return LayOff(seat, placed(*some), rng.randint(0, 5))
    if kind == 4:
        return Timeout(seat)
    hand = game.hands[seat]
    return Discard(seat, rng.choice(hand)) if hand else Timeout(seat)


def check_invariants(game: StraightGame) -> None:
    assert all_cards(game) == Counter(DECK)
    data = json.loads(json.dumps(game.to_json()))
    assert StraightGame.from_json(data) == game
    assert game.is_over or game.to_move is not None
    view = game.table_view()
    assert sum(p.pieces_left for p in view.players) == sum(len(h) for h in game.hands)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), players=st.integers(2, 6), options=options_strategy,
       script=st.integers(0, 2**32), steps=st.integers(20, 260))
def test_random_games_keep_every_invariant(seed: int, players: int, options: StraightOptions,
                                           script: int, steps: int) -> None:
    def pick(game: StraightGame, seat: int, rng: random.Random) -> Move:
        roll = rng.random()
        if roll < 0.3:
            return wild_move(game, rng)
        if roll < 0.65:
            return choose_move(game, seat, rng)
        return rng.choice(game.legal_moves(seat))

    random_play(StraightGame.new(players, options, seed), steps, random.Random(script), pick,
                check_invariants)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_legal_moves_are_all_accepted(seed: int, players: int) -> None:
    game = StraightGame.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_over:
            break
        moves = game.legal_moves(game.to_move)
        assert moves
        for move in moves:
            game.apply(move)  # raises if a listed move were illegal
        game, _ = game.apply(choose_move(game, game.to_move, rng))


def test_computer_games_reach_the_end_of_a_match() -> None:
    for seed in range(3):
        game = StraightGame.new(4, StraightOptions(target=60), seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.is_over:
                break
            game, _ = game.apply(choose_move(game, game.to_move, rng))
        assert game.is_over and max(game.scores) >= 60
        assert game.result_view().match_over
