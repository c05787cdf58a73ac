"""The best-arrangement search is exact: it agrees with brute force on every rule shape."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.arrange import INFINITY, best_arrangement, covers_all, deadwood_value
from bot.engine.cards import JOKER, Piece, card_deck, tile_set
from bot.engine.errors import IllegalMove
from bot.engine.melds import (
    ACES_AROUND,
    ACES_BOTH,
    ACES_HIGH,
    ACES_LOW,
    ACES_SPAN,
    REMI_SEQUENCES,
    TILE_NUMBERS,
    MeldRules,
    read_meld,
)
from tests.engine_helpers import cards, tiles


def brute_force(pieces: list[Piece], rules: MeldRules, value: Callable[[Piece], int],
                min_runs: int = 0, min_pure: int = 0) -> int:
    """Try every partition into valid melds (small hands only)."""
    pieces = sorted(pieces, key=lambda p: p.index)
    best = INFINITY

    def walk(rest: list[Piece], cost: int, runs: int, pure: int) -> None:
        nonlocal best
        if cost >= best:
            return
        if not rest:
            if runs >= min_runs and pure >= min_pure:
                best = cost
            return
        first, others = rest[0], rest[1:]
        walk(others, cost + value(first), runs, pure)
        for size in range(2, len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                group = [first, *(others[i] for i in chosen)]
                try:
                    meld = read_meld(group, rules)
                except IllegalMove:
                    continue
                left = [others[i] for i in range(len(others)) if i not in chosen]
                is_run = meld.kind == "run"
                walk(left, cost, runs + is_run, pure + (is_run and meld.pure))

    walk(pieces, 0, 0, 0)
    return best


def straight_value(piece: Piece) -> int:
    return 0 if piece.is_joker else min(piece.rank, 10)


def penang_value(piece: Piece) -> int:
    return 20 if piece.is_joker else 15 if piece.rank == 1 else min(piece.rank, 10)


def indian_value(piece: Piece) -> int:
    return 0 if piece.is_joker or piece.rank == 7 else 10 if piece.rank in (1, 11, 12, 13) \
        else piece.rank


SHAPES = {
    "straight-low": (MeldRules(runs=ACES_LOW), card_deck(1), straight_value, 0, 0),
    "straight-high": (MeldRules(runs=ACES_HIGH), card_deck(1), straight_value, 0, 0),
    "straight-around": (MeldRules(runs=ACES_AROUND), card_deck(1), straight_value, 0, 0),
    "penang": (MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True),
               card_deck(2, 6), penang_value, 0, 0),
    "indian-show": (MeldRules(runs=ACES_BOTH, set_max=None, jokers=True, wild_rank=7,
                              set_min_naturals=0), card_deck(2, 2), indian_value, 2, 1),
    "tiles": (MeldRules(runs=TILE_NUMBERS, jokers=True, tiles=True), tile_set(),
              lambda p: 30 if p.is_joker else p.rank, 0, 0),
    "remi-backed": (MeldRules(runs=REMI_SEQUENCES), card_deck(1),
                    lambda p: 15 if p.rank == 1 else 10 if p.rank > 10 else 5, 1, 0),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_search_matches_brute_force(shape: str, data: st.DataObject) -> None:
    rules, deck, value, min_runs, min_pure = SHAPES[shape]
    size = data.draw(st.integers(3, 8), label="size")
    hand = data.draw(st.permutations(deck), label="deck")[:size]
    found = best_arrangement(hand, rules, value, min_runs=min_runs, min_pure_runs=min_pure)
    expected = brute_force(list(hand), rules, value, min_runs, min_pure)
    assert (INFINITY if found is None else found.value) == expected
    if found is not None:
        # The arrangement is real: valid melds, every piece used once, the value right.
        used = [p for m in found.melds for p in m.pieces] + list(found.deadwood)
        assert Counter(used) == Counter(hand)
        for meld in found.melds:
            read_meld(meld.pieces, rules)
        assert found.runs >= min_runs and found.pure_runs >= min_pure
        assert sum(value(p) for p in found.deadwood) == found.value


def test_long_runs_and_big_sets_split_into_cores() -> None:
    rules = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True)
    hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 8S 8S 8C 8C 8D 8H")
    assert deadwood_value(hand, rules, penang_value) == 0


def test_leftover_jokers_are_absorbed_where_they_cost_points() -> None:
    rules = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True)
    result = best_arrangement(cards("5H 6H 7H") + [JOKER] * 3, rules, penang_value)
    assert result is not None and result.value == 0 and len(result.melds[0]) == 6


def test_tile_sets_have_no_room_past_four() -> None:
    rules = MeldRules(runs=TILE_NUMBERS, jokers=True, tiles=True)
    rack = tiles("R5 B5 K5 O5 J")
    result = best_arrangement(rack, rules, lambda p: 30 if p.is_joker else p.rank)
    # A set holds at most four tiles, so the joker (30) takes a 5's place and one 5 is left.
    assert result is not None and result.value == 5 and len(result.melds[0]) == 4


def test_minimums_that_cannot_be_met() -> None:
    rules = MeldRules(runs=ACES_BOTH, set_max=None, jokers=True, set_min_naturals=0)
    assert best_arrangement(cards("KS KH KD QD QC QS"), rules, straight_value,
                            min_runs=1) is None


def test_covers_all_finds_a_tien_hu_division() -> None:
    """RMI-E1's hand divides completely; with 7C instead of QS it does not (RMI-8)."""
    rules = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True)
    hand = cards("AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS QS")
    division = covers_all(hand, rules)
    assert division is not None and not division.deadwood
    assert covers_all(cards("AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS 7C"),
                      rules) is None
