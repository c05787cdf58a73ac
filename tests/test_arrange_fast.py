"""The search's shortcuts agree with the full search: the no-joker path and the fast exit.

``best_arrangement`` takes a plain-integer search for hands without jokers or
wild-rank cards, and refuses at once a hand that cannot make the runs asked
for. ``full_search`` is the general search alone; on every hand both must give
the same answer, down to the melds chosen among equals.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import arrange
from bot.engine.arrange import best_arrangement, deadwood_value, full_search
from bot.engine.cards import Card, Piece, card_deck, tile_set
from bot.engine.melds import (
    ACES_AROUND,
    ACES_BOTH,
    ACES_HIGH,
    ACES_LOW,
    ACES_SPAN,
    REMI_SEQUENCES,
    TILE_NUMBERS,
    MeldRules,
)
from bot.engine.variants.indian import indian_rules, value_table
from tests.engine_helpers import cards


def pips(piece: Piece) -> int:
    return 25 if piece.is_joker else 15 if piece.rank == 1 else min(piece.rank, 10)


PENANG = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True)
SHAPES: dict[str, tuple[MeldRules, list[Piece]]] = {
    "gin": (MeldRules(runs=ACES_LOW), card_deck(1)),
    "aces-high": (MeldRules(runs=ACES_HIGH), card_deck(1)),
    "around": (MeldRules(runs=ACES_AROUND), card_deck(1)),
    "penang": (PENANG, card_deck(2, 6)),
    "penang-3-packs": (PENANG, card_deck(3, 0)),
    "indian": (indian_rules(7), card_deck(2, 2)),
    "indian-both-aces": (MeldRules(runs=ACES_BOTH, set_max=None, jokers=True,
                                   set_min_naturals=0), card_deck(2, 4)),
    "tiles": (MeldRules(runs=TILE_NUMBERS, jokers=True, tiles=True), tile_set()),
    "remi": (MeldRules(runs=REMI_SEQUENCES), card_deck(1)),
}


def same(pieces: list[Piece], rules: MeldRules, value: Callable[[Piece], int], min_runs: int,
         min_pure: int) -> None:
    found = best_arrangement(pieces, rules, value, min_runs=min_runs, min_pure_runs=min_pure)
    expected = full_search(pieces, rules, value, min_runs=min_runs, min_pure_runs=min_pure)
    assert found == expected
    if not (min_runs or min_pure):
        assert deadwood_value(pieces, rules, value) == (expected.value if expected else None)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_shortcuts_match_the_full_search(shape: str, data: st.DataObject) -> None:
    """Hands with and without jokers, with and without minimums: the same arrangement."""
    rules, deck = SHAPES[shape]
    size = data.draw(st.integers(3, 14), label="size")
    hand = data.draw(st.permutations(deck), label="deck")[:size]
    if data.draw(st.booleans(), label="without jokers"):
        hand = [p for p in hand if not rules.is_joker(p)]
    min_runs = data.draw(st.integers(0, 2), label="min_runs")
    min_pure = data.draw(st.integers(0, min_runs), label="min_pure")
    same(hand, rules, pips, min_runs, min_pure)


@pytest.mark.parametrize("seed", range(4))
def test_indian_hands_with_and_without_jokers(seed: int) -> None:
    """Seeded 13- and 14-card Indian deals under the show's minimums and without."""
    rng = random.Random(seed)
    deck = card_deck(2, 4)
    plain = exited = 0
    for _ in range(60):
        wild = rng.randint(1, 13)
        rules, value = indian_rules(wild), value_table(wild).__getitem__
        hand = rng.sample(deck, rng.choice((13, 14)))
        if rng.random() < 0.3:
            hand = [c for c in hand if not rules.is_joker(c)]
        plain += not any(rules.is_joker(c) for c in hand)
        for min_runs, min_pure in ((2, 1), (1, 1), (1, 0), (0, 0)):
            same(hand, rules, value, min_runs, min_pure)
        search = arrange._Search(hand, rules, value)
        exited += not arrange._minimums_possible(search.pool, rules, 2, 1)
    assert plain and exited  # both shortcuts were taken on some of these hands


def test_fast_exit_refuses_only_hopeless_hands() -> None:
    """Whenever the quick test says no, the full search finds no arrangement either.

    With at most one run beyond the pure ones (Indian's two sequences, one pure;
    Remi's one sequence) the test is exact: it says yes only if one exists.
    """
    rng = random.Random(99)
    deck = card_deck(2, 4)
    refused = 0
    for _ in range(300):
        wild = rng.randint(1, 13)
        rules, value = indian_rules(wild), value_table(wild).__getitem__
        hand = rng.sample(deck, 13)
        for min_runs, min_pure in ((2, 1), (1, 1), (1, 0), (2, 0), (3, 1)):
            pool = arrange._Search(hand, rules, value).pool
            possible = arrange._minimums_possible(pool, rules, min_runs, min_pure)
            found = full_search(hand, rules, value, min_runs=min_runs, min_pure_runs=min_pure)
            if not possible:
                refused += 1
                assert found is None
            elif min_runs - min_pure <= 1:
                assert found is not None
    assert refused > 100


def test_IND_23_one_pure_run_and_a_joker_run_is_possible() -> None:
    """A pure sequence plus a sequence made with the joker meets the show's minimum."""
    rules = indian_rules(7)
    hand = cards("3H 4H 5H 9S 10S JK KD KC 2C 8D")
    value = value_table(7).__getitem__
    result = best_arrangement(hand, rules, value, min_runs=2, min_pure_runs=1)
    assert result is not None and result.runs >= 2 and result.pure_runs >= 1
    assert best_arrangement(cards("3H 4H 5H 9S JS KD KC 2C 8D"), rules, value, min_runs=2,
                            min_pure_runs=1) is None


def test_plain_path_takes_three_copies_and_leaves_four_to_the_full_search() -> None:
    hand = cards("8S 8S 8S 9H 10H JH")
    result = best_arrangement(hand, PENANG, pips)
    assert result is not None and result.value == 0
    assert arrange._PlainSearch.of(hand, PENANG, pips, 0) is not None
    four = [Card(8, 0)] * 4 + cards("9H 10H JH")
    assert arrange._PlainSearch.of(four, PENANG, pips, 0) is None
    assert best_arrangement(four, PENANG, pips) == full_search(four, PENANG, pips)
    assert best_arrangement(four, PENANG, pips).value == 0  # type: ignore[union-attr]
