"""The shared meld reader, under every variant's parameters (NOT-8, NOT-12, NOT-13).

Variant-specific rules are tested again in each variant's own tests; these
check that one implementation serves them all.
"""

from __future__ import annotations

import pytest

from bot.engine.cards import JOKER, TILE_JOKER, Face, Suit
from bot.engine.errors import IllegalMove
from bot.engine.melds import (
    ACES_AROUND,
    ACES_BOTH,
    ACES_HIGH,
    ACES_HIGH_ONLY,
    ACES_LOW,
    ACES_SPAN,
    REMI_SEQUENCES,
    RUN,
    SET,
    TILE_NUMBERS,
    MeldRules,
    describe,
    extend_meld,
    read_meld,
)
from bot.engine.notation import CARDS, TILES, parse_list
from tests.engine_helpers import cards

STRAIGHT = MeldRules(runs=ACES_LOW)
PENANG = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True)
RUMMI = MeldRules(runs=ACES_SPAN, set_max=None, distinct_suits=False, jokers=True,
                  run_word="sequence", set_word="kill")
TILES_RULES = MeldRules(runs=TILE_NUMBERS, jokers=True, tiles=True)
REMI = MeldRules(runs=REMI_SEQUENCES, run_word="sequence")


def indian(wild: int | None) -> MeldRules:
    return MeldRules(runs=ACES_BOTH, set_max=None, jokers=True, wild_rank=wild,
                     set_min_naturals=0, run_word="sequence")


def read(text: str, rules: MeldRules, **kw):
    refs = parse_list(text, TILES if rules.tiles else CARDS)
    return read_meld([(r.piece, r.stands_for) for r in refs], rules, **kw)


def refused(text: str, rules: MeldRules) -> str:
    with pytest.raises(IllegalMove) as error:
        read(text, rules)
    assert "\n" not in str(error.value)
    return str(error.value)


def test_NOT_8_joker_fills_the_gap_in_a_run() -> None:
    meld = read("9C JK JC", PENANG)
    assert meld.faces[1] == Face(10, Suit.C)
    assert describe(meld, PENANG) == "9C JK(=10C) JC"


def test_NOT_8_joker_extends_upward_else_downward() -> None:
    assert read("5D 6D JK", PENANG).faces[-1] == Face(7, Suit.D)
    assert read("5D JK JK", PENANG).faces == (Face(5, Suit.D), Face(6, Suit.D), Face(7, Suit.D))
    # Upward is impossible past the top of the line: the joker goes below.
    low_only = MeldRules(runs=ACES_LOW, jokers=True)
    meld = read("QH KH JK", low_only)
    assert meld.faces[0] == Face(11, Suit.H) and meld.pieces[0] is JOKER


def test_NOT_8_several_jokers_go_up_one_at_a_time() -> None:
    """NOT-8 (clarified): each joker goes up while it can, else down: KD JK JK is QD KD AD."""
    def shown(text: str, rules: MeldRules) -> str:
        return describe(read(text, rules), rules)

    high = MeldRules(runs=ACES_BOTH, jokers=True)
    assert shown("KD JK JK", high) == "JK(=QD) KD JK(=AD)"
    assert shown("KD JK JK", PENANG) == "JK(=QD) KD JK(=AD)"
    assert shown("QD JK JK", high) == "QD JK(=KD) JK(=AD)"
    assert shown("QD JK JK JK", high) == "JK(=JD) QD JK(=KD) JK(=AD)"
    assert shown("JD KD JK JK", high) == "JD JK(=QD) KD JK(=AD)"  # the gap first, then up
    assert shown("KD JK JK", MeldRules(runs=ACES_AROUND, jokers=True)) == "KD JK(=AD) JK(=2D)"
    assert shown("KD JK JK", MeldRules(runs=ACES_LOW, jokers=True)) == "JK(=JD) JK(=QD) KD"
    assert shown("KD 7D 7H", indian(7)) == "7D(=QD) KD 7H(=AD)"  # wild cards as jokers too


def test_NOT_8_joker_in_a_set_stands_for_the_rank_with_the_suit_open() -> None:
    meld = read("QS QH JK", PENANG)
    assert meld.kind == SET
    assert meld.faces[-1] == Face(12, -1)


def test_NOT_8_annotation_decides_what_the_joker_is() -> None:
    assert read("JK=8H 9H 10H", PENANG).faces[0] == Face(8, Suit.H)
    set_reading = read("5D JK=5 JK", PENANG)
    assert set_reading.kind == SET
    tile = read("R9 R10 J=R8", TILES_RULES)
    assert tile.faces[0] == Face(8, 0)
    with pytest.raises(IllegalMove, match="7D is not a joker"):
        read("7D=8D 9D 10D", PENANG)


def test_NOT_8_jokers_keep_their_face_when_a_run_grows() -> None:
    meld = read("5H JK 7H", RUMMI)
    grown = extend_meld(meld, cards("8H"), RUMMI, 2)
    assert describe(grown, RUMMI) == "5H JK(=6H) 7H 8H"
    with pytest.raises(IllegalMove, match="6H does not fit meld 2: JK holds its place"):
        extend_meld(meld, cards("6H"), RUMMI, 2)


def test_NOT_12_run_and_set_wording_and_variant_parameters() -> None:
    # Same cards: suits may repeat in a Penang set, not in a Straight set.
    assert read("8H 8H 8C 8S", PENANG).kind == SET
    assert "two 8H in a set" in refused("8H 8H 8C", STRAIGHT)
    assert "is not a kill" in refused("8H 9C 8S 8D 7D", RUMMI)
    assert "is not a sequence" in refused("3H 4H 6H", REMI)
    assert "is not a run" in refused("3H 4H 6H", STRAIGHT)


@pytest.mark.parametrize("rules, text, reason", [
    (STRAIGHT, "3H 4H 6H", "3H 4H 6H is not a run: 5H is missing"),
    (STRAIGHT, "QH KH AH", "QH KH AH is not a run: aces are low"),
    (MeldRules(runs=ACES_HIGH), "AH 2H 3H", "AH 2H 3H is not a run: aces are high"),
    (MeldRules(runs=ACES_BOTH), "KH AH 2H", "an ace cannot sit between K and 2"),
    (STRAIGHT, "7H 8S 9H", "7H 8S 9H is not a run: 8S is not a heart"),
    (STRAIGHT, "7H 7S 8D", "7H 7S 8D is not a set: 8D is not a 7"),
    (STRAIGHT, "7S 7S 7H", "two 7S in a set"),
    (STRAIGHT, "7H 8H", "7H 8H is not a valid meld: 3 cards needed"),
    (STRAIGHT, "5H 9H 6H", "7H and 8H are missing"),
    (PENANG, "KH AH 2H", "KH AH 2H is not a run: it cannot wrap from K through A to 2"),
    (PENANG, "JK JK JK", "a meld needs at least one natural card"),
    (MeldRules(runs=ACES_HIGH_ONLY, jokers=True), "AH 2H 3H", "an Ace is high only"),
    (TILES_RULES, "O12 O13 O1", "O12 O13 O1 is not a run: 1 can only come before 2"),
    (TILES_RULES, "R4 R4 B4", "R4 R4 B4 is not a set: red appears twice"),
    (TILES_RULES, "K7 K8", "K7 K8 is not a valid meld: 3 tiles needed"),
    (REMI, "10S JS QS", "10S JS QS is not a sequence: 10 and J are not adjacent"),
    (REMI, "AH 2H 3H", "an ace cannot be in a sequence"),
    (REMI, "QD KD AD", "an ace cannot be in a sequence"),
    (indian(4), "KH JK 2H", "an ace cannot sit between K and 2"),
])
def test_NOT_13_refusals_name_the_offending_part(rules: MeldRules, text: str,
                                                 reason: str) -> None:
    assert reason in refused(text, rules)


def test_NOT_13_jokers_where_there_are_none() -> None:
    no_jokers = MeldRules(no_jokers_reason="there are no jokers in Straight Rummy")
    assert refused("JK 4H 5H", no_jokers) == "there are no jokers in Straight Rummy"


@pytest.mark.parametrize("rules, good, bad", [
    (MeldRules(runs=ACES_LOW), ["AH 2H 3H"], ["QH KH AH", "KH AH 2H"]),
    (MeldRules(runs=ACES_HIGH), ["QH KH AH"], ["AH 2H 3H", "KH AH 2H"]),
    (MeldRules(runs=ACES_BOTH), ["AH 2H 3H", "QH KH AH"], ["KH AH 2H"]),
    (MeldRules(runs=ACES_AROUND), ["AH 2H 3H", "QH KH AH", "KH AH 2H", "QH KH AH 2H 3H",
                                   "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"], []),
    (PENANG, ["AH 2H 3H", "QH KH AH",
              "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"], ["KH AH 2H"]),
    (REMI, ["2H 3H 4H 5H 6H 7H 8H 9H 10H", "JH QH KH"], ["10H JH QH", "JH QH KH AH"]),
    (TILES_RULES, ["R1 R2 R3", "R11 R12 R13"], ["R12 R13 R1", "R13 R1 R2"]),
])
def test_ace_positions_per_shape(rules: MeldRules, good: list[str], bad: list[str]) -> None:
    for text in good:
        assert read(text, rules).kind == RUN, text
    for text in bad:
        refused(text, rules)


def test_penang_ace_fitting_both_ends_goes_high() -> None:
    run = read("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", PENANG)
    grown = extend_meld(run, cards("AH"), PENANG, 1)
    assert grown.pieces[-1].code == "AH" and grown.faces[-1] == Face(1, Suit.H)
    assert grown.faces[0] == Face(2, Suit.H)


def test_indian_wild_cards_pure_and_impure() -> None:
    rules = indian(7)
    assert read("5H 6H 7H", rules).pure  # a wild card in its own place keeps it pure
    impure = read("JC 7H QC", rules)
    assert impure.kind == RUN and not impure.pure and impure.faces[2] == Face(13, Suit.C)
    assert read("7S 7S 7H", rules).kind == SET  # jokers only: a set, never a sequence
    assert read("5H 5S 5D 5C JK", rules).kind == SET
    assert not read("JK 5S 6S", rules).pure


def test_tile_set_takes_a_missing_colour_and_at_most_four() -> None:
    meld = read("R5 B5 J", TILES_RULES)
    assert meld.kind == RUN or meld.kind == SET
    assert read("R5 B5 K5 J", TILES_RULES).kind == SET
    assert "at most 4" in refused("R5 B5 K5 O5 J", TILES_RULES)
    assert read("R5 J J", TILES_RULES).kind == RUN  # TIL-9: read as a run by default
    assert TILE_JOKER.is_joker


def test_layoff_reasons() -> None:
    run = read("4S 5S 6S", STRAIGHT)
    assert describe(extend_meld(run, cards("3S 7S"), STRAIGHT, 2), STRAIGHT) == \
        "3S 4S 5S 6S 7S"
    with pytest.raises(IllegalMove, match="9H does not fit meld 2: it takes only spades"):
        extend_meld(run, cards("9H"), STRAIGHT, 2)
    eights = read("8H 8H 8C 8S", PENANG)
    with pytest.raises(IllegalMove, match="9H does not fit meld 4: it takes only 8s"):
        extend_meld(eights, cards("9H"), PENANG, 4)
    four = read("8H 8D 8C 8S", STRAIGHT)
    with pytest.raises(IllegalMove, match="does not fit meld 1"):
        extend_meld(four, cards("8H"), STRAIGHT, 1)
