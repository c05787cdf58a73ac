"""Reading cards, tiles, lists and positions (NOT-1 … NOT-10, NOT-13)."""

from __future__ import annotations

import pytest

from bot.engine.cards import JOKER, TILE_JOKER, Card, Colour, Face, Suit, Tile, codes
from bot.engine.errors import IllegalMove, ParseError
from bot.engine.notation import (
    CARDS,
    MAX_TOKENS,
    TILES,
    parse_groups,
    parse_list,
    parse_ref,
    parse_single,
    take_from_hand,
)
from tests.engine_helpers import cards


def one(text: str) -> Card:
    return parse_single(text).piece


@pytest.mark.parametrize("text, rank", [("AS", 1), ("2S", 2), ("9S", 9), ("10S", 10),
                                        ("TS", 10), ("JS", 11), ("QS", 12), ("KS", 13)])
def test_NOT_1_ranks_and_T_for_ten(text: str, rank: int) -> None:
    assert one(text) == Card(rank, Suit.S)


@pytest.mark.parametrize("text", ["1S", "11H", "0D", "01C", "1", "ZZ", "10", "S"])
def test_NOT_1_one_alone_is_not_a_rank(text: str) -> None:
    with pytest.raises(ParseError) as error:
        one(text)
    assert error.value.message == f'"{text}" is not a card'


@pytest.mark.parametrize("text, suit", [("7s", Suit.S), ("7♠", Suit.S), ("7♤", Suit.S),
                                        ("7h", Suit.H), ("7♥", Suit.H), ("7♡", Suit.H),
                                        ("7d", Suit.D), ("7♦", Suit.D), ("7♢", Suit.D),
                                        ("7c", Suit.C), ("7♣", Suit.C), ("7♧", Suit.C)])
def test_NOT_2_suit_symbols_and_any_case(text: str, suit: Suit) -> None:
    assert one(text) == Card(7, suit)


@pytest.mark.parametrize("text, canonical", [("AS", "AS"), ("10H", "10H"), ("TH", "10H"),
                                             ("qd", "QD"), ("7♣", "7C"), ("th", "10H")])
def test_NOT_3_canonical_output(text: str, canonical: str) -> None:
    assert one(text).code == canonical
    assert str(one(text)) == canonical


@pytest.mark.parametrize("text", ["JK", "jk", "joker", "JOKER", "jkr", "*"])
def test_NOT_4_joker_spellings(text: str) -> None:
    assert one(text) is JOKER
    assert JOKER.code == "JK"


def test_NOT_5_naming_a_code_twice_needs_two_copies() -> None:
    hand = cards("7H 7H 8H")
    refs = parse_list("7H 7H")
    assert take_from_hand(refs, hand) == cards("7H 7H")
    with pytest.raises(IllegalMove, match="you hold one 8H, not two"):
        take_from_hand(parse_list("8H 8H"), hand)
    with pytest.raises(IllegalMove, match="you hold two 7H, not three"):
        take_from_hand(parse_list("7H 7H 7H"), hand)
    with pytest.raises(IllegalMove, match="you do not hold QS"):
        take_from_hand(parse_list("QS"), hand)


def test_NOT_6_lists_with_spaces_commas_and_groups() -> None:
    assert [r.piece.code for r in parse_list("7H 8H 9H")] == ["7H", "8H", "9H"]
    assert [r.piece.code for r in parse_list("7h,8h,9h")] == ["7H", "8H", "9H"]
    assert [r.piece.code for r in parse_list(" 7h ,  8h,9h ")] == ["7H", "8H", "9H"]
    groups = parse_groups("AS 2S 3S | 7D 7C 7H")
    assert [[r.piece.code for r in g] for g in groups] == [["AS", "2S", "3S"],
                                                           ["7D", "7C", "7H"]]
    with pytest.raises(ParseError, match="group 2 is empty"):
        parse_groups("AS 2S 3S | ")
    with pytest.raises(ParseError, match="one group only"):
        parse_list("AS | 2S")
    with pytest.raises(ParseError, match="one group only"):
        parse_list("AS 2S |")


def test_NOT_6_a_bar_in_a_single_list_does_not_hide_a_wrong_code() -> None:
    """Issue 19 item 13: garbage with a | is answered with what is wrong in it first."""
    with pytest.raises(ParseError, match=r'^"11H" is not a card'):
        parse_list("7H | 11H")
    with pytest.raises(ParseError, match=r'^"ZZ" is not a card'):
        parse_list("ZZ|QQ|")
    with pytest.raises(ParseError, match="one group only"):
        parse_list("7H | 8H")  # nothing else wrong: the | is the problem


def test_NOT_7_positions_name_cards_of_the_shown_hand() -> None:
    shown = cards("AS 5S KS 2H 10H")
    hand = list(reversed(shown))
    picked = take_from_hand(parse_list("#1 #5 2h"), hand, shown)
    assert picked == cards("AS 10H 2H")
    with pytest.raises(IllegalMove, match="#6 is not in your hand"):
        take_from_hand(parse_list("#6"), hand, shown)
    with pytest.raises(IllegalMove, match="you named #2 twice"):
        take_from_hand(parse_list("#2 #2"), hand, shown)


def test_NOT_7_stale_positions_are_refused() -> None:
    with pytest.raises(IllegalMove, match="your hand changed, look at your new hand"):
        take_from_hand(parse_list("#3"), cards("AS 2S 3S"), shown=None)


def test_NOT_7_bad_position_syntax() -> None:
    with pytest.raises(ParseError, match="positions start at #1"):
        parse_ref("#0")
    with pytest.raises(ParseError, match="write # and a number"):
        parse_ref("#x")


def test_NOT_8_joker_annotations_parse() -> None:
    assert parse_ref("JK=7H").stands_for == Face(7, Suit.H)
    assert parse_ref("JK=7").stands_for == Face(7, -1)
    assert parse_ref("jk=10").stands_for == Face(10, -1)
    assert parse_ref("#3=QS").position == 3
    assert parse_ref("7D=8H").piece == Card(7, Suit.D)
    with pytest.raises(ParseError, match="say what the joker stands for"):
        parse_ref("JK=")
    with pytest.raises(ParseError, match="not for another joker"):
        parse_ref("JK=JK")


@pytest.mark.parametrize("text, tile", [("R7", Tile(7, Colour.R)), ("b13", Tile(13, Colour.B)),
                                        ("K1", Tile(1, Colour.K)), ("O10", Tile(10, Colour.O)),
                                        ("Y10", Tile(10, Colour.O)),
                                        ("red7", Tile(7, Colour.R)),
                                        ("yellow3", Tile(3, Colour.O)),
                                        ("BLACK12", Tile(12, Colour.K)),
                                        ("orange1", Tile(1, Colour.O)),
                                        ("blue2", Tile(2, Colour.B))])
def test_NOT_9_tile_codes(text: str, tile: Tile) -> None:
    assert parse_single(text, TILES).piece == tile


@pytest.mark.parametrize("text", ["J", "JK", "joker", "*"])
def test_NOT_9_tile_joker(text: str) -> None:
    assert parse_single(text, TILES).piece is TILE_JOKER
    assert TILE_JOKER.code == "J"


@pytest.mark.parametrize("text", ["R14", "R0", "G7", "R", "7R", "R07"])
def test_NOT_9_bad_tiles(text: str) -> None:
    with pytest.raises(ParseError, match=f'"{text}" is not a tile'):
        parse_single(text, TILES)


def test_NOT_10_copies_positions_and_annotations_for_tiles() -> None:
    rack = [Tile(4, Colour.R), Tile(4, Colour.R), TILE_JOKER]
    assert take_from_hand(parse_list("R4 R4", TILES), rack) == rack[:2]
    with pytest.raises(IllegalMove, match="you hold one J, not two"):
        take_from_hand(parse_list("J J", TILES), rack)
    assert take_from_hand(parse_list("#3", TILES), rack, rack) == [TILE_JOKER]
    assert parse_ref("J=R6", TILES).stands_for == Face(6, Colour.R)
    assert parse_ref("J=6", TILES).stands_for == Face(6, -1)
    groups = parse_groups("R1 R2 R3 | K5,B5,O5", TILES)
    assert len(groups) == 2


def test_NOT_13_huge_input_is_refused_in_one_line() -> None:
    with pytest.raises(ParseError, match="too long"):
        parse_list("7H " * 2000)
    with pytest.raises(ParseError, match=f"at most {MAX_TOKENS}"):
        parse_list("7H " * (MAX_TOKENS + 1))


def test_NOT_13_errors_quote_the_offending_part() -> None:
    with pytest.raises(ParseError) as error:
        parse_list("7H 8H 11H")
    assert str(error.value) == '"11H" is not a card'
    assert "\n" not in str(error.value)


def test_codes_prints_canonical_forms() -> None:
    assert codes(cards("th qd 7♣ jk")) == "10H QD 7C JK"
    assert CARDS.parse_piece("10h").code == "10H"
