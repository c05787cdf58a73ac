"""Property tests: random Rummi games with legal and illegal moves (hypothesis).

Whatever is thrown at it, the engine never crashes, a refused move changes
nothing (NOT-13), every card is always in exactly one place (RMI-2, RMI-5),
every table meld stays valid with a natural card (RMI-12), the player to move
always has a play at the start of a turn (RMI-18), the JSON round trip is
exact, the same seed and moves replay to the same game, and the chips of every
game sum to 0 and match its itemised payments (RMI-22).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.rummi import choose_move
from bot.engine.cards import card_deck
from bot.engine.game import Move, Timeout
from bot.engine.melds import extend_meld, read_meld
from bot.engine.moves import MeldDown
from bot.engine.variants.rummi import Leave, RummiGame, RummiOptions, has_play
from tests.random_play import random_play, wild_shedding_move

DECK = card_deck(2, 8)

options_strategy = st.builds(
    RummiOptions, plays_per_turn=st.sampled_from(["one", "many"]),
    hu_chips=st.sampled_from([1, 10, 1000]), tiers=st.sampled_from(["1-2-3", "2-4", "0.5", "0"]),
    games=st.integers(1, 3), turn_seconds=st.sampled_from([0, 30, 90]))


def wild_move(game: RummiGame, rng: random.Random) -> Move:
    """A move that is often illegal: any seat, any cards, any meld number."""
    return wild_shedding_move(game, DECK, rng, lambda seat, rng: Leave(seat))


def check_invariants(game: RummiGame) -> None:
    assert game.inventory() == game.deck()  # every card in exactly one place
    data = json.loads(json.dumps(game.to_json()))
    assert RummiGame.from_json(data) == game
    if not game.is_over:
        seat = game.to_move
        assert seat is not None and not game.out[seat]
        assert len(game.live_seats()) >= 2  # RMI-21
        if game.actions == 0:
            assert has_play(game.hands[seat], game.table, game.passport[seat])  # RMI-18
    for number, table_meld in enumerate(game.table, start=1):
        meld = table_meld.meld
        assert table_meld.number == number
        assert any(not p.is_joker for p in meld.pieces)  # RMI-12
        reread = extend_meld(meld, [], game.rules, number)
        assert reread.faces == meld.faces or not meld.is_run
    for result, payments in zip(game.results, game.payments, strict=True):
        assert sum(result.points) == 0  # RMI-22
        net = [0] * game.players
        for p in payments:
            net[p.payer] -= p.half_chips
            net[p.payee] += p.half_chips
        assert tuple(net) == result.points
    assert sum(game.totals) == 0
    view = game.table_view()
    assert sum(p.pieces_left for p in view.players) == sum(len(h) for h in game.hands)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), players=st.integers(2, 5), options=options_strategy,
       script=st.integers(0, 2**32), steps=st.integers(20, 200))
def test_random_games_keep_every_invariant(seed: int, players: int, options: RummiOptions,
                                           script: int, steps: int) -> None:
    def pick(game: RummiGame, seat: int, rng: random.Random) -> Move:
        roll = rng.random()
        if roll < 0.35:
            return wild_move(game, rng)
        if roll < 0.65:
            return choose_move(game, seat, rng)
        return rng.choice(game.legal_moves(seat))

    random_play(RummiGame.new(players, options, seed), steps, random.Random(script), pick,
                check_invariants)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5),
       many=st.booleans())
def test_legal_moves_are_all_accepted(seed: int, players: int, many: bool) -> None:
    options = RummiOptions(plays_per_turn="many" if many else "one")
    game = RummiGame.new(players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        moves = game.legal_moves(seat)
        assert moves
        for move in moves:
            game.apply(move)  # raises if a listed move were illegal
        game, _ = game.apply(choose_move(game, seat, rng))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_timeouts_alone_finish_a_match(seed: int, players: int) -> None:
    """RMI-31/RMI-32: a table of absent players still ends (auto-play, then out)."""
    game = RummiGame.new(players, RummiOptions(games=2), seed=seed)
    for _ in range(2000):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(Timeout(seat))
        check_invariants(game)
    assert game.is_over and len(game.results) == 2


def test_every_meld_candidate_reads_as_listed() -> None:
    """The new melds listed by legal_moves are 3 cards; before the passport, sequences."""
    game = RummiGame.new(3, seed=4)
    seat = game.to_move
    assert seat is not None and not game.passport[seat]
    for move in game.legal_moves(seat):
        assert isinstance(move, MeldDown)
        (meld,) = move.melds
        assert len(meld) == 3 and read_meld(list(meld), game.rules).is_run
