"""Property tests: random Remi games with legal and illegal moves (hypothesis).

Whatever is thrown at it, the engine never crashes, a refused move changes
nothing (NOT-13), every card is always in exactly one place, the JSON round
trip is exact, and the same seed and moves replay to the same game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations as subsets

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.remi import choose_move
from bot.engine.cards import JOKER, card_deck
from bot.engine.game import Move, Timeout
from bot.engine.melds import is_meld, read_meld
from bot.engine.moves import Discard, Draw, Resume, placed
from bot.engine.variants.remi import (
    RULES,
    Close,
    RemiGame,
    RemiOptions,
    Take,
    best_score,
    card_order,
    card_value,
    timeout_discard,
)
from tests.random_play import random_play

DECK = card_deck(1)

options_strategy = st.builds(
    RemiOptions, first_player=st.sampled_from(["dealer", "previous_winner"]),
    target=st.integers(50, 150), deals=st.sampled_from([0, 1, 2, 3]),
    turn_seconds=st.sampled_from([0, 30]))


def wild_move(game: RemiGame, rng: random.Random) -> Move:
    """A move that is often illegal: any seat, any cards, pile cards deep down, jokers."""
    seat = rng.randrange(game.players)
    some = rng.sample([*DECK, JOKER], rng.randint(1, 4))
    hand = game.hands[seat]
    kind = rng.randrange(8)
    if kind == 0:
        return Draw(seat, rng.choice(["stock", "discard", "sideways"]))
    if kind == 1:
        return Discard(seat, rng.choice(hand) if hand and rng.random() < 0.5 else some[0])
    if kind == 2 and game.pile:
        held = rng.sample(hand, min(len(hand), rng.randint(0, 3)))
        return Take(seat, rng.choice(game.pile), tuple(held + some[:rng.randint(0, 1)]))
    if kind == 3:
        return Take(seat, some[0], tuple(some[1:]))
    if kind == 4 and hand:
        cards = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
        groups = (placed(*cards), placed(*some)) if rng.random() < 0.3 else (placed(*cards),)
        return Close(seat, rng.choice(hand), groups if rng.random() < 0.5 else None)
    if kind == 5:
        return Resume(seat)
    return Timeout(seat)


def check_invariants(game: RemiGame) -> None:
    assert game.inventory() == Counter(DECK)
    data = json.loads(json.dumps(game.to_json()))
    assert RemiGame.from_json(data) == game
    assert game.is_over or game.to_move is not None
    view = game.table_view()
    assert sum(p.pieces_left for p in view.players) == sum(len(h) for h in game.hands)
    assert view.discard == tuple(game.pile)
    if not game.is_over:
        assert game.hands[game.turn] or game.phase == "acquire"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), players=st.integers(2, 4), options=options_strategy,
       script=st.integers(0, 2**32), steps=st.integers(20, 200))
def test_random_games_keep_every_invariant(seed: int, players: int, options: RemiOptions,
                                           script: int, steps: int) -> None:
    def pick(game: RemiGame, seat: int, rng: random.Random) -> Move:
        roll = rng.random()
        if roll < 0.35:
            return wild_move(game, rng)
        if roll < 0.6:
            return choose_move(game, seat, rng)
        return rng.choice(game.legal_moves(seat))

    random_play(RemiGame.new(players, options, seed), steps, random.Random(script), pick,
                check_invariants)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_legal_moves_are_all_accepted(seed: int, players: int) -> None:
    game = RemiGame.new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.to_move
        moves = game.legal_moves(seat)
        assert moves
        for move in moves:
            game.apply(move)  # raises if a listed move were illegal
        game, _ = game.apply(choose_move(game, seat, rng))


def test_computer_games_reach_the_end_of_a_match() -> None:
    for seed in range(3):
        game = RemiGame.new(3, RemiOptions(target=150), seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.is_over:
                break
            game, _ = game.apply(choose_move(game, game.to_move, rng))
        assert game.is_over and max(game.totals) >= 150
        assert game.result_view().match_over


# -- REM-24 and REM-30 against brute force ----------------------------------------------------


def _all_arrangements(hand: list, melds: list, start: int = 0, used: frozenset = frozenset()):
    """Every choice of disjoint combinations among ``melds`` (lists of hand cards)."""
    yield []
    for i in range(start, len(melds)):
        if used.isdisjoint(melds[i]):
            for rest in _all_arrangements(hand, melds, i + 1, used | set(melds[i])):
                yield [melds[i], *rest]


def _brute_scores(hand: list, table: list) -> list[tuple[int, frozenset]]:
    """(REM-24 score, cards left loose) of every arrangement, computed the long way."""
    melds = [list(c) for size in range(3, len(hand) + 1) for c in subsets(hand, size)
             if is_meld(list(c), RULES)]
    table_melds = [read_meld(m, RULES) for m in table]
    found = []
    for arrangement in _all_arrangements(hand, melds):
        read = [read_meld(m, RULES) for m in arrangement]
        backed = any(m.is_run for m in (*table_melds, *read))
        total = 0
        for meld in (*table_melds, *read):
            sign = 1 if meld.is_run or backed else -1
            total += sign * sum(card_value(c) for c in meld.pieces)
        inside = {c for m in arrangement for c in m}
        loose = frozenset(c for c in hand if c not in inside)
        total -= sum(card_value(c) for c in loose)
        found.append((total, loose))
    return found


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(0, 8), tables=st.integers(0, 2))
def test_REM_24_best_score_is_the_brute_force_maximum(seed: int, size: int,
                                                      tables: int) -> None:
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    table = []
    pool = set(deck)
    for _ in range(tables):  # the seat's own table combinations: a sequence or a set
        if rng.random() < 0.6:
            suit, start = rng.randrange(4), rng.randint(2, 8)
            meld = [c for c in DECK if c.suit == suit and start <= c.rank < start + 3]
        else:
            rank = rng.randint(1, 13)
            meld = [c for c in DECK if c.rank == rank][:3]
        if pool.issuperset(meld):
            table.append(meld)
            pool -= set(meld)
    # Hands dealt from four neighbouring ranks (A, 10-J and J-Q-K included), so sets,
    # sequences and near misses are common.
    low = rng.randint(1, 10)
    near = [c for c in deck if c in pool and low <= c.rank < low + 4]
    hand = near[:size]
    scores = _brute_scores(hand, table)
    best = max(total for total, _ in scores)
    assert best_score(hand, [read_meld(m, RULES) for m in table]).total == best
    if hand:  # REM-30: the highest card loose in some best arrangement, else the best removal
        loose = set().union(*(lo for total, lo in scores if total == best))
        chosen = timeout_discard(hand, [read_meld(m, RULES) for m in table])
        if loose:
            assert chosen == max(loose, key=card_order)
        else:
            after = {c: max(t for t, _ in _brute_scores([x for x in hand if x != c], table))
                     for c in hand}
            assert chosen == max(hand, key=lambda c: (after[c], card_order(c)))
