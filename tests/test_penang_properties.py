"""Property tests: random Penang games with legal and illegal moves (hypothesis).

Whatever is thrown at it, the engine never crashes, a refused move changes
nothing (NOT-13), every card is always in exactly one place (PEN-5, PEN-7),
every table meld stays valid with a natural card (PEN-10), the JSON round
trip is exact, and the same seed and moves replay to the same game.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.penang import choose_move
from bot.engine.cards import card_deck
from bot.engine.game import Move, Timeout
from bot.engine.melds import extend_meld, read_meld
from bot.engine.moves import MeldDown
from bot.engine.variants.penang import DeclareDead, PenangGame, PenangOptions, has_action
from tests.random_play import random_play, wild_shedding_move

DECK = card_deck(3, 8)

options_strategy = st.builds(
    PenangOptions, jokers=st.sampled_from([6, 8]), ace_low=st.booleans(),
    dealer_rule=st.sampled_from(["winner", "loser"]), games=st.integers(1, 3),
    turn_seconds=st.sampled_from([0, 30, 120]))


def wild_move(game: PenangGame, rng: random.Random) -> Move:
    """A move that is often illegal: any seat, any cards, any meld number."""
    return wild_shedding_move(game, DECK, rng,
                              lambda seat, rng: DeclareDead(seat, leave=rng.random() < 0.3))


def check_invariants(game: PenangGame) -> None:
    assert game.inventory() == game.deck()  # every card in exactly one place
    data = json.loads(json.dumps(game.to_json()))
    assert PenangGame.from_json(data) == game
    if not game.is_over:
        seat = game.to_move
        assert seat is not None and not game.out[seat]
        if game.actions == 0:
            assert has_action(game.hands[seat], game.table, game.rules, game.passport[seat])
    rules = game.rules
    for number, table_meld in enumerate(game.table, start=1):
        meld = table_meld.meld
        assert table_meld.number == number
        assert any(not p.is_joker for p in meld.pieces)  # PEN-10
        reread = extend_meld(meld, [], rules, number)
        assert reread.faces == meld.faces or not meld.is_run
    view = game.table_view()
    assert sum(p.pieces_left for p in view.players) == sum(len(h) for h in game.hands)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), players=st.integers(2, 5), options=options_strategy,
       script=st.integers(0, 2**32), steps=st.integers(20, 200))
def test_random_games_keep_every_invariant(seed: int, players: int, options: PenangOptions,
                                           script: int, steps: int) -> None:
    def pick(game: PenangGame, seat: int, rng: random.Random) -> Move:
        roll = rng.random()
        if roll < 0.35:
            return wild_move(game, rng)
        if roll < 0.65:
            return choose_move(game, seat, rng)
        return rng.choice([m for m in game.legal_moves(seat)
                           if not isinstance(m, DeclareDead) or rng.random() < 0.1])

    random_play(PenangGame.new(players, options, seed), steps, random.Random(script), pick,
                check_invariants)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), jokers=st.sampled_from([6, 8]))
def test_legal_moves_are_all_accepted(seed: int, players: int, jokers: int) -> None:
    game = PenangGame.new(players, PenangOptions(jokers=jokers), seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_over:
            break
        moves = game.legal_moves(game.to_move)
        assert moves
        for move in moves:
            game.apply(move)  # raises if a listed move were illegal
        game, _ = game.apply(choose_move(game, game.to_move, rng))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_timeouts_alone_finish_a_match(seed: int, players: int) -> None:
    """PEN-30/PEN-31: a table of absent players still ends (auto-play, then Dead)."""
    game = PenangGame.new(players, PenangOptions(games=2), seed=seed)
    for _ in range(2000):
        if game.is_over:
            break
        game, _ = game.apply(Timeout(game.to_move))
        check_invariants(game)
    assert game.is_over and len(game.results) == 2


def test_every_meld_candidate_reads_as_listed() -> None:
    """The moves listed by legal_moves read as the melds they name."""
    game = PenangGame.new(3, PenangOptions(jokers=8), seed=4)
    for move in game.legal_moves(game.to_move):
        if isinstance(move, MeldDown):
            (meld,) = move.melds
            assert len(read_meld(list(meld), game.rules)) == 3
