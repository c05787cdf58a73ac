"""The worked examples of 40-rummi.md played through the engine.

RMI-E9 … RMI-E12 (pure settlement) and the Tien Hu division of RMI-E1/E2 are
tests in test_rummi_chips.py and test_rummi_tienhu.py; here each example is
played as a game: the deal's checks, plays and refusals, the timer.
"""

from __future__ import annotations

from bot.engine.game import Timeout
from bot.engine.moves import Done, Swap
from bot.engine.rummi_chips import hand_points
from tests.engine_helpers import card, cards, refused
from tests.rummi_helpers import add, dealt, meld, melds_text, play, rummi, who

E1_HAND = "AS 2S 3S 4S 5S 7H 8H 9H QD KD AD 9C 9C 9S 4D 4H JK 10S JS QS"
E2_HAND = "2S 2S 3S 5S 6S 8S 9S 2H 3H 5H 6H 8H 9H 2D 3D 5D 6D 8C 9C KC"
FILL = ["10S JS QS KS", "10H JH QH KH", "6D 6D 6C 6C", "4D 4D 4S 4S"]
"""Hands that always have a play, for players whose turns only pass by."""


def test_RMI_E1_tien_hu_wins_before_play() -> None:
    """RMI-E1 (RMI-8, RMI-23, RMI-27): A wins at once; A's Aces and joker are not charged."""
    game = dealt(4, [E1_HAND, "2C 3C 4C 5C 6C 7C 8C 10C 10D 10H 2D 3D 5D 6D 7D 8D 9D 10D 2H 3H",
                     "2C 3C 4C 5C 6C 7C 8C 10C 10H 5H 6H 5H 6H 7H 8H 3H 2H 6S 7S 8S",
                     "KS KS KH KH KC KC QC QC JC JC 6S 7S 8S JH JH QH QH JD 5S 3S"])
    a, b, c, d = game.turn_order()
    assert game.is_over and game.table == []
    result = game.results[-1]
    assert result.winners == (a,)
    assert result.points[a] == 60 and all(result.points[s] == -20 for s in (b, c, d))
    assert sum(result.points) == 0
    assert "Tien Hu" in result.summary and result.notes[a].startswith("Tien Hu")
    assert sorted(c.code for m in game.last_division for c in m.pieces) == \
        sorted(c.code for c in cards(E1_HAND))
    winner = game.result_view().placings[0]
    assert winner.seat == a and winner.points == "+30" and winner.grouped


def test_RMI_E1_with_7C_instead_of_QS_play_starts() -> None:
    """RMI-E1: with 7C instead of QS no division exists → normal play."""
    game = dealt(4, [E1_HAND.replace("QS", "7C")], seed=3)
    assert not game.is_over and game.results == []
    assert game.to_move == game.turn_order()[0]


def test_RMI_E2_no_passport_is_out_before_play_with_111_points() -> None:
    """RMI-E2 (RMI-7, RMI-9)."""
    game = dealt(4, [FILL[0] + " 2C 3C 4C", E2_HAND], seed=2)
    a, b = game.turn_order()[:2]
    assert game.out[b] and game.notes[b] == "no passport"
    assert hand_points(game.hands[b]) == 111
    assert game.to_move == a


def test_RMI_E2_with_a_joker_it_is_a_tien_hu_checked_first() -> None:
    """RMI-E2: JK instead of KC → Tien Hu, checked before the passport → B wins at once."""
    game = dealt(4, ["QS KS AS 5C", E2_HAND.replace("KC", "JK")], seed=2)
    b = game.turn_order()[1]
    assert game.is_over and game.results[-1].winners == (b,)
    assert not game.out[b]


def test_RMI_E3_first_play_must_be_a_sequence() -> None:
    """RMI-E3 (RMI-17)."""
    a, *_ = who()
    game = rummi(held=["7S 7H 7D 2C 3C 4C", *FILL[1:]], passport=False)
    refused(game, meld(a, "7S 7H 7D"), "your first play must be a 3-card sequence (passport)")
    game = play(game, meld(a, "2C 3C 4C"))
    assert melds_text(game) == ["2C 3C 4C"] and game.passport[a]


def test_RMI_E4_adding_waits_for_ones_own_passport() -> None:
    """RMI-E4 (RMI-14, RMI-17): B adds to A's meld only after laying a sequence."""
    a, b, c, d = who()
    game = rummi(held=[FILL[0], "8H 9D 10D JD 5S", FILL[2], FILL[3]], table=[(a, "5H 6H 7H")],
                 turn=b, passport=[True, False, True, True])
    refused(game, add(b, "8H", 1), "no passport yet: lay a 3-card sequence first")
    game = play(game, meld(b, "9D 10D JD"))
    assert game.to_move == c
    game = play(game, meld(c, "6D 6D 6C"), meld(d, "4D 4D 4S"), meld(a, "10S JS QS"))
    game = play(game, add(b, "8H", 1))
    assert melds_text(game)[0] == "5H 6H 7H 8H"


def test_RMI_E5_kills_repeat_suits_and_grow_one_card_a_play() -> None:
    """RMI-E5 (RMI-11, RMI-15)."""
    a, b, c, d = who()
    game = rummi(held=["3C 3C 3H " + FILL[0], FILL[1], "3S 3S 3H " + FILL[2], "3D " + FILL[3]],
                 turn=c)
    game = play(game, meld(c, "3S 3S 3H"), add(d, "3D", 1))
    assert melds_text(game) == ["3S 3S 3H 3D"]
    refused(game, add(a, "3C 3C", 1), "add one card per play")
    game = play(game, add(a, "3C", 1), meld(b, "10H JH QH"), meld(c, "6D 6D 6C"),
                meld(d, "4D 4D 4S"), add(a, "3H", 1))
    assert sorted(cards(melds_text(game)[0])) == sorted(cards("3S 3S 3H 3D 3C 3H"))


def test_RMI_E6_a_new_sequence_is_exactly_three_cards() -> None:
    """RMI-E6 (RMI-10, RMI-16) with ``one``: the turn ends after the play."""
    _a, b, c, _ = who()
    game = rummi(held=[FILL[0], "9D 10D JD QD 5S", *FILL[2:]], turn=b)
    refused(game, meld(b, "9D 10D JD QD"),
            "a new sequence is exactly 3 cards: lay 3, then add one card per play")
    game = play(game, meld(b, "9D 10D JD"))
    assert game.to_move == c
    refused(game, add(b, "QD", 1))


def test_RMI_E6_with_many_a_second_play_then_done() -> None:
    """RMI-E6 with ``many``: 9D 10D JD, then QD added as a second play, then ``done``."""
    _, b, c, _ = who()
    game = rummi(held=[FILL[0], "9D 10D JD QD 5S", *FILL[2:]], turn=b, plays_per_turn="many")
    game = play(game, meld(b, "9D 10D JD"))
    assert game.to_move == b
    game = play(game, add(b, "QD", 1))
    assert game.to_move == b and melds_text(game) == ["9D 10D JD QD"]
    game = play(game, Done(b))
    assert game.to_move == c


def test_RMI_E7_jokers_on_the_table_are_fixed() -> None:
    """RMI-E7 (RMI-13): no swap; 6H does not fit where the joker is; 4H or 8H fit."""
    a, *_ = who()
    game = rummi(held=["6H 4H 8H " + FILL[0], *FILL[1:]], table=["2C 3C 4C", "5H JK=6H 7H"])
    refused(game, Swap(a, card("6H"), 2), "jokers on the table are fixed: there is no "
            "substitution in Rummi")
    refused(game, add(a, "6H", 2), "6H does not fit meld 2: JK holds its place")
    assert melds_text(play(game, add(a, "4H", 2)))[1] == "4H 5H JK 7H"
    assert melds_text(play(game, add(a, "8H", 2)))[1] == "5H JK 7H 8H"


def test_RMI_E8_last_player_in_stops_and_tiers_pay() -> None:
    """RMI-E8 (RMI-18, RMI-21, RMI-25): C has no play and is out; only A is left → points."""
    a, b, c = who(3)
    game = rummi(3, held=["8D 8C 4H", "10S 10H 5D 5C", "2C 9D KS"],
                 table=["5H 6H 7H", "QS QD QH", "4C 5C 6C"], out=[False, True, False],
                 tiers="1-2")
    game = play(game, add(a, "4H", 1))  # B is skipped; C has no play
    assert game.out[c] and game.notes[c] == "no play"
    assert game.is_over
    result = game.results[-1]
    assert result.points[a] == 6 and result.points[c] == -2 and result.points[b] == -4
    assert f"Only {{p{a}}} is not out" in result.summary
    assert f"{{p{c}}} pays {{p{a}}} 1 (tier)" in result.summary
    assert f"{{p{b}}} pays {{p{a}}} 2 (tier)" in result.summary


def test_RMI_E13_timeout_adds_the_most_valuable_card() -> None:
    """RMI-E13 (RMI-31, RMI-32): AS onto meld 3; count 1."""
    _a, b, c, _d = who()
    table = ["5H 6H 7H", "KS KC KH", "2S 3S 4S"]
    game = rummi(held=[FILL[0], "AS 4H KD 9C", "JD JD JC JC", "4D 4D 4C 4C"], table=table,
                 turn=b)
    after = play(game, Timeout(b))
    assert melds_text(after)[2] == "AS 2S 3S 4S"
    assert after.timeouts[b] == 1 and after.to_move == c


def test_RMI_E13_a_joker_goes_first() -> None:
    """RMI-E13: had B held a JK, it would have gone first (valued 20), onto meld 1."""
    _a, b, _c, _d = who()
    game = rummi(held=[FILL[0], "AS 4H KD 9C JK", "JD JD JC JC", "4D 4D 4C 4C"],
                 table=["5H 6H 7H", "KS KC KH", "2S 3S 4S"], turn=b)
    after = play(game, Timeout(b))
    assert "JK" in melds_text(after)[0] and card("JK") not in after.hands[b]


def test_RMI_E13_third_timeout_puts_the_player_out() -> None:
    """RMI-E13: had the count already been 2, B would be out instead."""
    _a, b, c, _d = who()
    game = rummi(held=[FILL[0], "AS 4H KD 9C", "JD JD JC JC", "4D 4D 4C 4C"],
                 table=["5H 6H 7H", "KS KC KH", "2S 3S 4S"], turn=b)
    game.timeouts[b] = 2
    after = play(game, Timeout(b))
    assert after.out[b] and after.notes[b] == "timed out"
    assert len(after.hands[b]) == 4 and after.to_move == c
