"""Rummi Tien Hu (RMI-8) is exact: it agrees with an independent brute force.

The reference below checks melds from RMI-10 … RMI-12 directly (it does not
use ``melds.py`` or ``arrange.py``) and tries every partition of a small hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.arrange import covers_all
from bot.engine.cards import JOKER, Card, Piece, card_deck
from bot.engine.melds import read_meld
from bot.engine.rummi_rules import RUMMI_RULES, first_tien_hu, joker_floor, tien_hu
from tests.engine_helpers import cards

DECK = card_deck(2, 8)
NATURALS = [c for c in DECK if not c.is_joker]

E1_HAND = "AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS QS"
E2_HAND = "2S 2S 3S 5S 6S 8S 9S 2H 3H 5H 6H 8H 9H 2D 3D 5D 6D 8C 9C KC"


# ---------------------------------------------------------------------------
# The independent reference
# ---------------------------------------------------------------------------

def reference_meld(group: Sequence[Piece]) -> bool:
    """RMI-10 … RMI-12 read straight from the spec."""
    if len(group) < 3:
        return False
    naturals = [p for p in group if not p.is_joker]
    if not naturals:
        return False  # RMI-12: every meld holds a natural card
    if len({p.rank for p in naturals}) == 1:
        return True  # RMI-11: a kill, suits may repeat, any size
    if len({p.suit for p in naturals}) != 1 or len(group) > 14:
        return False
    # RMI-10: positions 1 (ace low) … 14 (ace high), an unbroken interval that never wraps.
    others = [p.rank for p in naturals if p.rank != 1]
    aces = len(naturals) - len(others)
    if len(set(others)) != len(others):
        return False
    for start in range(1, 16 - len(group)):
        window = range(start, start + len(group))
        if all(r in window for r in others) and aces <= (1 in window) + (14 in window):
            return True
    return False


def reference_divides(hand: Sequence[Piece]) -> bool:
    """Try every partition of the hand into reference melds."""
    return _divides(tuple(sorted(hand, key=lambda p: p.index)))


@cache
def _divides(rest: tuple[Piece, ...]) -> bool:
    if not rest:
        return True
    first, others = rest[0], rest[1:]
    for size in range(2, len(others) + 1):
        for chosen in combinations(range(len(others)), size):
            if not reference_meld([first, *(others[i] for i in chosen)]):
                continue
            if _divides(tuple(p for i, p in enumerate(others) if i not in chosen)):
                return True
    return False


def assert_division(hand: Sequence[Piece], division: Sequence) -> None:
    """A returned division uses every card once, in valid melds."""
    assert Counter(p for meld in division for p in meld.pieces) == Counter(hand)
    for meld in division:
        assert reference_meld(meld.pieces)
        assert read_meld(meld.pieces, RUMMI_RULES) == meld


def agree(hand: list[Piece]) -> bool:
    division = tien_hu(hand)
    expected = reference_divides(hand)
    assert (division is not None) == expected, " ".join(p.code for p in hand)
    if division is not None:
        assert_division(hand, division)
    return expected


# ---------------------------------------------------------------------------
# Small random hands against the reference
# ---------------------------------------------------------------------------

def dense_hand(rng: random.Random, sizes: tuple[int, int] = (6, 9), suits: tuple[int, ...] = (1, 2),
               width: int = 5, most_jokers: int = 3) -> list[Piece]:
    """Cards from few suits and a narrow band of ranks (both copies), so melds are common."""
    chosen = rng.sample(range(4), rng.choice(suits))
    start = rng.randint(1, 13)
    ranks = [(r - 1) % 13 + 1 for r in range(start, start + width)]  # may go round K-A-2
    pool = [Card(r, s) for s in chosen for r in ranks] * 2
    jokers = rng.randint(0, most_jokers)
    size = rng.randint(*sizes)
    return rng.sample(pool, size - jokers) + [JOKER] * jokers


def test_RMI_8_tien_hu_matches_brute_force_on_dense_small_hands() -> None:
    rng = random.Random(8)
    results = Counter(agree(dense_hand(rng)) for _ in range(400))
    # Both answers occur often enough for the comparison to mean something.
    assert results[True] >= 50 and results[False] >= 50


def test_RMI_8_tien_hu_matches_brute_force_on_fourteen_card_hands_with_many_jokers() -> None:
    rng = random.Random(14)
    results = Counter(agree(dense_hand(rng, (12, 14), (2, 3), 6, 6)) for _ in range(50))
    assert results[True] >= 10 and results[False] >= 10


def test_RMI_8_tien_hu_matches_brute_force_on_dealt_small_hands() -> None:
    rng = random.Random(80)
    for _ in range(200):
        jokers = rng.randint(0, 3)
        agree(rng.sample(NATURALS, rng.randint(6, 9) - jokers) + [JOKER] * jokers)


SMALL_UNIVERSE = [Card(r, s) for s in (0, 1) for r in (1, 2, 3, 4, 5, 12, 13)] * 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, len(SMALL_UNIVERSE) - 1), unique=True, min_size=3, max_size=9),
       st.integers(0, 3))
def test_RMI_8_property_tien_hu_equals_brute_force(picks: list[int], jokers: int) -> None:
    hand = [SMALL_UNIVERSE[i] for i in picks][:9 - jokers] + [JOKER] * jokers
    agree(hand)


def test_RMI_8_search_paths_agree_on_dealt_hands() -> None:
    """The fast path and the shared ``covers_all`` give the same answer on 20-card deals."""
    rng = random.Random(20)
    for _ in range(60):
        jokers = rng.randint(0, 8)
        hand = rng.sample(NATURALS, 20 - jokers) + [JOKER] * jokers
        fast = tien_hu(hand)
        assert (fast is None) == (covers_all(hand, RUMMI_RULES) is None)
        if fast is not None:
            assert_division(hand, fast)


# ---------------------------------------------------------------------------
# Named rules and worked examples
# ---------------------------------------------------------------------------

def test_RMI_E1_tien_hu_hand_divides_and_7C_spoils_it() -> None:
    hand = cards(E1_HAND)
    division = tien_hu(hand)
    assert division is not None
    assert_division(hand, division)
    assert len(division) == 6
    assert tien_hu(cards(E1_HAND.replace("QS", "7C"))) is None


def test_RMI_E1_first_in_turn_order_wins() -> None:
    a, c = cards(E1_HAND), cards(E2_HAND.replace("KC", "JK"))
    b = d = cards(E1_HAND.replace("QS", "7C"))
    found = first_tien_hu([a, b, c, d], turn_order=[0, 1, 2, 3])
    assert found is not None and found[0] == 0
    found = first_tien_hu([a, b, c, d], turn_order=[2, 3, 0, 1])
    assert found is not None and found[0] == 2
    assert first_tien_hu([b, d], turn_order=[1, 0]) is None


def test_RMI_E2_six_kills_are_no_tien_hu_but_a_joker_makes_one() -> None:
    assert tien_hu(cards(E2_HAND)) is None
    hand = cards(E2_HAND.replace("KC", "JK"))
    division = tien_hu(hand)
    assert division is not None
    assert_division(hand, division)
    # The division is kills of 2s (with the joker), 3s, 5s, 6s, 8s and 9s.
    assert sorted(m.rank for m in division) == [2, 3, 5, 6, 8, 9]
    assert all(not m.is_run for m in division)


def test_RMI_10_sequences_never_wrap_but_ace_ends_both_ways() -> None:
    assert tien_hu(cards("AS 2S 3S")) is not None
    assert tien_hu(cards("QS KS AS")) is not None
    assert tien_hu(cards("KS AS 2S")) is None
    assert tien_hu(cards("KS AS 2S JK")) is None
    assert tien_hu(cards("JK AS 2S")) is not None


def test_RMI_10_fourteen_card_ace_to_ace_sequence() -> None:
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    hand = cards(run + " 8S 8S 8C 8C 8D 8H")
    division = tien_hu(hand)
    assert division is not None
    assert_division(hand, division)
    # The same 14 hearts with one joker in the middle still divide, as one long sequence.
    assert tien_hu(cards(run.replace("7H", "JK"))) is not None
    # A second 2H has no place: both 2s would need a 3H.
    assert tien_hu(cards(run + " 2H")) is None


def test_RMI_11_kills_repeat_suits_and_have_no_size_limit() -> None:
    assert tien_hu(cards("3S 3S 3H")) is not None
    hand = cards("8S 8S 8H 8H 8D 8D 8C 8C 3D 3D 3C")
    division = tien_hu(hand)
    assert division is not None
    assert_division(hand, division)
    assert tien_hu(cards("3S 3S 4H")) is None


def test_RMI_12_every_meld_needs_a_natural_card() -> None:
    assert tien_hu([JOKER] * 3) is None
    assert tien_hu(cards("5D 6D") + [JOKER] * 4) is not None  # the jokers join the sequence
    hand = cards("5D") + [JOKER] * 7
    division = tien_hu(hand)
    assert division is not None and len(division) == 1  # one natural holds them all


def test_RMI_12_one_natural_and_two_jokers_reads_as_a_sequence() -> None:
    division = tien_hu(cards("5D JK JK"))
    assert division is not None
    (meld,) = division
    assert meld.is_run and [f.rank for f in meld.faces] == [5, 6, 7]


def test_RMI_8_whole_dealt_hand_with_eight_jokers() -> None:
    hand = cards("2S 3S 4S 9H 9H 9D KC QC 5D 5H 7S 10C") + [JOKER] * 8
    division = tien_hu(hand)
    assert division is not None
    assert_division(hand, division)
    # No two of these twelve share a rank or sit within two ranks in a suit, so a meld
    # holding k of them needs at least max(2, 2(k - 1)) >= k jokers: twelve, not eight.
    lonely = cards("AS 4S 7S 10S 2H 5H 8H JH 3D 6D 9D QD")
    assert tien_hu(lonely + [JOKER] * 8) is None


# ---------------------------------------------------------------------------
# The joker floor and whole 20-card hands whose answer is known
# ---------------------------------------------------------------------------

def built_hu(rng: random.Random) -> tuple[list[Piece], int]:
    """A 20-card hand made from a random division (sequences and kills of 3–6), with jokers."""
    while True:
        left = Counter({c: 2 for c in NATURALS})
        melds: list[list[Piece]] = []
        while sum(map(len, melds)) < 20:
            room = 20 - sum(map(len, melds))
            size = room if room <= 6 else rng.randint(3, min(6, room - 3))
            if rng.random() < 0.6:
                suit, start = rng.randrange(4), rng.randint(1, 15 - size)
                meld = [Card(1 if p == 14 else p, suit) for p in range(start, start + size)]
            else:
                rank = rng.randint(1, 13)
                meld = [Card(rank, rng.randrange(4)) for _ in range(size)]
            melds.append(meld)
            left.subtract(meld)
        if min(left.values()) >= 0:
            break
    jokers = rng.randint(0, 8)
    turned = 0
    for meld in melds:
        for i in rng.sample(range(len(meld)), len(meld))[:len(meld) - 1]:
            if turned < jokers and rng.random() < 0.5:
                meld[i] = JOKER
                turned += 1
    return [c for meld in melds for c in meld], turned


def test_RMI_8_every_built_twenty_card_hu_is_found() -> None:
    rng = random.Random(88)
    for _ in range(150):
        hand, jokers = built_hu(rng)
        assert joker_floor(hand) <= jokers + 1e-9
        division = tien_hu(hand)
        assert division is not None, " ".join(p.code for p in hand)
        assert_division(hand, division)


def test_RMI_8_joker_floor_never_refuses_a_hu_of_the_reference() -> None:
    rng = random.Random(81)
    for _ in range(300):
        hand = dense_hand(rng)
        if reference_divides(hand):
            assert joker_floor(hand) <= sum(p.is_joker for p in hand) + 1e-9


def test_RMI_8_joker_floor_values() -> None:
    assert joker_floor(cards("5H 6H 7H 7S 7D")) == 0
    assert joker_floor(cards("5H")) == 2  # one natural needs two jokers
    assert joker_floor(cards("5H 7H")) == 1  # 5H JK 7H: one joker for two cards
    assert joker_floor(cards("5H 5D")) == 1  # a kill of two 5s and a joker
    assert joker_floor(cards("AS 4S 7S 10S 2H 5H 8H JH 3D 6D 9D QD")) == 12
