"""The fourteen worked examples of the Straight Rummy spec (10-straight.md), one test each."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalMove
from bot.engine.game import Timeout
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, placed
from tests.engine_helpers import card, cards, groups, refused, straight

A, B, C, D = 0, 1, 2, 3


def test_STR_E1_scoring_losers_pay_their_hand_value() -> None:
    """STR-31, STR-4: A goes out; B pays 18, C pays 22; A gains 40."""
    game = straight(3, held=["9C", "KS 7D AH", "5C 5D QH 2S"], discard="3C", phase="play",
                    hands=1)
    game.played_before[A] = True
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.results[-1].winners == (A,)
    assert game.scores == [40, 0, 0]


@pytest.mark.parametrize("bonus, penalty, expected", [
    ("double", False, [58, 0]), ("ten", False, [39, 0]), ("double", True, [0, 58])])
def test_STR_E2_going_rummy(bonus: str, penalty: bool, expected: list[int]) -> None:
    """STR-29, STR-32, STR-34: all ten cards leave in one turn."""
    game = straight(2, held=["2S 3S 4S 9H 9D 9C JC QC KC 7D", "KD QS 8H AC"], stock="5S",
                    discard="6H", rummy_bonus=bonus, penalty_scoring=penalty, hands=1)
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(MeldDown(A, groups("2S 3S 4S 5S | 9H 9D 9C | JC QC KC")))
    game, events = game.apply(Discard(A, card("7D")))
    assert game.results[-1].notes[A] == "went rummy"
    assert game.scores == expected
    assert any("went rummy" in e.text for e in events)


def test_STR_E3_out_without_a_discard() -> None:
    """STR-28: a meld of the last cards ends the hand at once; not rummy."""
    game = straight(2, held=["4S 4H", "KD QS"], stock="4D", discard="6H",
                    table=[(A, "7C 8C 9C")], hands=1)
    game.played_before[A] = True
    game.has_melded[A] = True
    game, _ = game.apply(Draw(A, "stock"))
    after, _ = game.apply(MeldDown(A, groups("4S 4H 4D")))
    assert after.hands[A] == [] and after.is_over
    assert after.results[-1].notes[A] == "went out"
    assert after.scores == [20, 0]


def test_STR_E3_discard_to_go_out_keeps_a_card() -> None:
    """STR-23: with discard_to_go_out the same meld is refused; A may discard instead."""
    game = straight(2, held=["4S 4H", "KD QS"], stock="4D", discard="6H",
                    discard_to_go_out=True)
    game, _ = game.apply(Draw(A, "stock"))
    refused(game, MeldDown(A, groups("4S 4H 4D")), "keep a card to discard")
    game, _ = game.apply(Discard(A, card("4D")))
    assert sorted(c.code for c in game.hands[A]) == ["4H", "4S"]


def test_STR_E4_lay_off_on_another_players_meld() -> None:
    """STR-20, STR-14: both ends at once; a gap is refused."""
    game = straight(3, held=["3S 7S 9S KD", "2C", "2D"], table=[(C, "AC AD AH"),
                                                                 (B, "4S 5S 6S")],
                    phase="play", discard="5D")
    game, _ = game.apply(LayOff(A, placed(*cards("3S 7S")), 2))
    assert game.table[1].meld.codes == "3S 4S 5S 6S 7S"
    assert game.table[1].owner == B
    refused(game, LayOff(A, placed(card("9S")), 2), "9S does not fit meld 2: 8S is missing")


def test_STR_E4_meld_before_layoff() -> None:
    """STR-26: without a meld of A's own, A's first lay-off is refused."""
    game = straight(3, held=["3S 7S 9S KD", "2C", "2D"], table=[(B, "4S 5S 6S")],
                    phase="play", discard="5D", meld_before_layoff=True)
    refused(game, LayOff(A, placed(card("3S")), 1), "lay down a meld of your own first")


def test_STR_E5_refused_moves_change_nothing() -> None:
    """STR-18, STR-19, NOT-13."""
    game = straight(3, held=["3H 4H 6H 9C", "2C", "2D"], stock="KD", discard="5D")
    refused(game, Discard(A, card("9C")), "draw first")
    game, _ = game.apply(Draw(A, "stock"))
    refused(game, MeldDown(A, groups("3H 4H 6H")), "3H 4H 6H is not a run: 5H is missing")
    refused(game, Discard(A, card("QS")), "you do not hold QS")
    assert game.phase == "play" and len(game.hands[A]) == 5


def test_STR_E6_reshuffle() -> None:
    """STR-17: the top discard stays, the rest becomes the stock."""
    game = straight(3, held=["2C", "5S 6C", "7C 8C"], turn=B, phase="play", stock="",
                    discard="9C 2D KH")
    game, events = game.apply(Discard(B, card("5S")))
    assert game.turn == C and game.phase == "draw"
    assert [c.code for c in game.discard] == ["5S"]
    assert sorted(c.code for c in game.stock) == sorted(["9C", "2D", "KH"])
    assert any(e.kind == "reshuffle" for e in events)


@pytest.mark.parametrize("penalty", [False, True])
def test_STR_E7_failed_reshuffle(penalty: bool) -> None:
    """STR-17, STR-33: one card in the pile ends the hand; nobody scores."""
    game = straight(3, held=["2C 3C", "KS", "AH 3D 3S"], turn=A, phase="draw", stock="",
                    discard="7H", penalty_scoring=penalty, hands=2)
    game, _ = game.apply(Draw(A, "discard"))
    dealer = game.dealer
    game, events = game.apply(Discard(A, card("7H")))
    result = game.results[-1]
    assert result.winners == () and result.points == (0, 0, 0)
    assert game.scores == [0, 0, 0]
    assert game.hand_number == 2 and game.dealer == (dealer + 1) % 3
    assert any(e.kind == "hand_over" for e in events)


@pytest.mark.parametrize("penalty, expected", [(True, [11, 10, 7]), (False, [0, 0, 0])])
def test_STR_E8_stock_out_end(penalty: bool, expected: list[int]) -> None:
    """STR-17, STR-33: B draws the last stock card; C's turn begins with an empty stock."""
    game = straight(3, held=["2C 9D", "KS", "AH 3D 3S"], turn=B, stock="8H", discard="4C",
                    stock_out="end", penalty_scoring=penalty, hands=1)
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, card("8H")))
    assert game.is_over and game.results[-1].winners == ()
    assert game.scores == expected


@pytest.mark.parametrize("aces, ok", [
    ("low", {"AH 2H 3H"}), ("high", {"QH KH AH"}), ("both", {"AH 2H 3H", "QH KH AH"}),
    ("around", {"AH 2H 3H", "QH KH AH", "KH AH 2H"})])
def test_STR_E9_aces(aces: str, ok: set[str]) -> None:
    """STR-11, STR-4."""
    for text in ("AH 2H 3H", "QH KH AH", "KH AH 2H"):
        game = straight(2, held=[text + " 9C", "5D"], phase="play", discard="6H", aces=aces)
        if text in ok:
            game.apply(MeldDown(A, groups(text)))
        else:
            with pytest.raises(IllegalMove):
                game.apply(MeldDown(A, groups(text)))
    game = straight(2, held=["AS 4C", "5D"], aces=aces)
    assert game.hand_value(A) == (5 if aces == "low" else 19)


def test_STR_E9_low_aces_message() -> None:
    game = straight(2, held=["QH KH AH 9C", "5D"], phase="play", discard="6H")
    refused(game, MeldDown(A, groups("QH KH AH")), "QH KH AH is not a run: aces are low")


def test_STR_E10_timeout_discard() -> None:
    """STR-40, STR-41: draw from stock, keep the run, discard 9D."""
    game = straight(4, held=["2C", "KS QS JS 9D 9C 8H 4C", "3C", "4D"], turn=B, stock="2H",
                    discard="5D")
    game, events = game.apply(Timeout(B))
    assert [c.code for c in game.discard][-1] == "9D"
    assert sorted(c.code for c in game.hands[B]) == sorted(
        ["KS", "QS", "JS", "9C", "8H", "4C", "2H"])
    assert game.timeouts[B] == 1 and game.turn == C
    assert any(e.kind == "timeout" for e in events)


def test_STR_E11_taken_card() -> None:
    """STR-24: the taken card cannot be discarded, nor left alone in hand."""
    game = straight(2, held=["5D 6D 7D", "KS"], discard="8C", table=[(B, "9C 10C JC")],
                    no_discard_of_taken_card=True, hands=1)
    game, _ = game.apply(Draw(A, "discard"))
    refused(game, Discard(A, card("8C")), "you took 8C from the discard pile this turn")
    refused(game, MeldDown(A, groups("5D 6D 7D")),
            "8C would be your only card and cannot be discarded this turn")
    game, _ = game.apply(LayOff(A, placed(card("8C")), 1))
    game, _ = game.apply(MeldDown(A, groups("5D 6D 7D")))
    assert game.results[-1].winners == (A,)


def test_STR_E12_one_meld_per_turn() -> None:
    """STR-25: a second meld is refused, lay-offs are not; two melds in one command neither."""
    game = straight(2, held=["5D 6D 7D JH JS JC 8D 2C 3C 4C 8S 8H", "KS"], phase="play",
                    discard="9S", one_meld_per_turn=True)
    refused(game, MeldDown(A, groups("2C 3C 4C | 8S 8H 8D")), "only one meld per turn")
    game, _ = game.apply(MeldDown(A, groups("5D 6D 7D")))
    refused(game, MeldDown(A, groups("JH JS JC")), "only one meld per turn")
    game, _ = game.apply(LayOff(A, placed(card("8D")), 1))
    assert game.table[0].meld.codes == "5D 6D 7D 8D"


def test_STR_E13_removal_after_three_timeouts() -> None:
    """STR-42, STR-31: B is removed but pays its hand value when A goes out."""
    game = straight(3, held=["5S 6S", "KS QS JS 9C 8H 4C 2H", "6D 6H"], turn=B,
                    stock="10D 7S", discard="5D", hands=1)
    game.timeouts[B] = 2
    game, events = game.apply(Timeout(B))  # draws 10D, discards it: the third timeout
    assert not game.active[B] and any(e.kind == "removed" for e in events)
    assert sorted(c.code for c in game.hands[B]) == sorted(["KS", "QS", "JS", "9C", "8H",
                                                            "4C", "2H"])
    refused(game, Draw(B, "stock"), "you were removed from this hand for inactivity")
    game, _ = game.apply(Draw(C, "discard"))
    game, _ = game.apply(Discard(C, card("10D")))
    assert game.turn == A  # B is skipped
    game.played_before[A] = True
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(MeldDown(A, groups("5S 6S 7S")))
    assert game.results[-1].winners == (A,)
    assert game.scores[A] == (10 + 10 + 10 + 9 + 8 + 4 + 2) + (6 + 6) == 65


def test_STR_E13_two_players_removal_ends_the_hand() -> None:
    """STR-43: removing B leaves A alone: A wins B's hand value, no rummy bonus."""
    game = straight(2, held=["5H 6H", "KS QS JS 9C 8H 4C 2H"], turn=B, stock="10D 3C",
                    discard="5D", hands=1)
    game.timeouts[B] = 2
    game, _ = game.apply(Timeout(B))
    assert game.results[-1].winners == (A,)
    assert game.scores == [53, 0]
    assert game.results[-1].notes[A] == "went out"


def test_STR_E14_match_end() -> None:
    """STR-36, STR-37: A reaches the target and wins."""
    game = straight(3, held=["2C", "9H", "6C"], phase="play", discard="5D")
    game.played_before[A] = True
    game.scores[:] = [92, 40, 75]
    game, events = game.apply(Discard(A, card("2C")))
    assert game.scores == [107, 40, 75] and game.is_over and game.winners == (A,)
    assert any(e.kind == "match_over" for e in events)


def test_STR_E14_penalty_lowest_wins() -> None:
    game = straight(3, held=["2C", "9H", "AH KD 8C"], phase="play", discard="5D",
                    penalty_scoring=True)
    game.played_before[A] = True
    game.scores[:] = [95, 51, 82]
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.scores == [95, 60, 101]
    assert game.is_over and game.winners == (B,)
