"""The worked examples REM-E1 … REM-E16 of 50-remi.md, one test each."""

from __future__ import annotations

from bot.engine.game import Timeout
from bot.engine.moves import Discard, Draw
from bot.engine.variants.remi import Close, Take, best_score, timeout_discard
from tests.remi_helpers import card, cards, groups, refused, remi

P, Q = 0, 1
FILL = None  # the other seat: seven cards the example does not use


def test_REM_E1_seed_hand_minus_10() -> None:
    score = best_score(cards("3C 4C 5C 6C JC JD QC"))
    assert score.total == -10
    assert score.plus == (tuple(cards("3C 4C 5C 6C")),)
    assert sorted(c.code for c in score.minus) == ["JC", "JD", "QC"]


def test_REM_E2_seed_hand_minus_50() -> None:
    score = best_score(cards("3H 3S 4S 5H QH QS QD"))
    assert score.total == -50  # REM-A3: the seed's −70 does not follow from the values
    assert score.plus == ()


def test_REM_E3_take_position_3_cards_above_go_to_hand() -> None:
    game = remi(held=["6C 7C 2H 9S JD KH AD", FILL], pile="5C QH 4C")
    game, _ = game.apply(Take(P, card("5C"), tuple(cards("6C 7C"))))
    assert [m.meld.pieces for m in game.table] == [tuple(cards("5C 6C 7C"))]
    assert len(game.hands[P]) == 7 and {card("QH"), card("4C")} <= set(game.hands[P])
    assert game.pile == [] and game.phase == "discard"
    game, _ = game.apply(Discard(P, card("2H")))
    assert len(game.hands[P]) == 6
    # REM-12: 4C never joins 5C 6C 7C; no move adds a card to a table combination.
    assert all(m.meld.pieces == tuple(cards("5C 6C 7C")) for m in game.table)


def test_REM_E4_take_with_a_gap_refused() -> None:
    game = remi(held=["3C 6C 2H 9S JD KH AD", FILL], pile="5C QH 4C")
    refused(game, Take(P, card("5C"), tuple(cards("3C 6C"))),
            "3C 5C 6C is not a sequence: 4C is missing")
    refused(game, Take(P, card("5C"), tuple(cards("3C 4C 6C"))),
            "4C is in the discard pile: only the picked card may come from it")


def test_REM_E5_set_take_needs_a_sequence() -> None:
    game = remi(held=["8S 8H 2D 5C 9H KS AD", FILL], pile="8D")
    refused(game, Take(P, card("8D"), tuple(cards("8S 8H"))),
            "a set needs a sequence first (on the table or in your hand)")
    game = remi(held=["8S 8H 2D 3D 4D KS AD", FILL], pile="8D")
    game, _ = game.apply(Take(P, card("8D"), tuple(cards("8S 8H"))))
    assert set(game.table[0].meld.pieces) == set(cards("8D 8S 8H"))
    assert sorted(game.hands[P]) == sorted(cards("2D 3D 4D KS AD"))
    assert game.phase == "discard"


def test_REM_E6_no_card_left_then_position_2_and_closing_discard() -> None:
    game = remi(held=["7D 8D", FILL], pile="9D")
    refused(game, Take(P, card("9D"), tuple(cards("7D 8D"))),
            "you would have no card left to discard")
    game = remi(held=["7D 8D", FILL], pile="9D KC", table=[(P, "2S 3S 4S")])
    game, _ = game.apply(Take(P, card("9D"), tuple(cards("7D 8D"))))
    assert game.hands[P] == [card("KC")]
    game, events = game.apply(Discard(P, card("KC")))
    assert any(e.kind == "close" for e in events)
    result = game.results[-1]
    assert result.winners == (P,)
    # +15 for 7D 8D 9D, +15 for the earlier 2S 3S 4S, bonus 10 × 10.
    assert result.points[P] == 15 + 15 + 100
    assert game.scorings[-1][P].bonus == 100


def test_REM_E7_invalid_sequences_in_takes_and_closes() -> None:
    for hand, top, shown, reason in [
            ("10S JS", "QS", "10S JS QS", "10 and J are not adjacent"),
            ("2H 3H", "AH", "AH 2H 3H", "an ace cannot be in a sequence"),
            ("QD KD", "AD", "AD QD KD", "an ace cannot be in a sequence")]:
        game = remi(held=[hand + " 5C 7C 9C", FILL], pile=top)
        refused(game, Take(P, card(top), tuple(cards(hand))),
                f"{shown} is not a sequence: {reason}")
    game = remi(held=["10S JS QS 2D 3D 4D 9C KH", FILL], phase="discard")
    refused(game, Close(P, card("9C"), groups("10S JS QS | 2D 3D 4D | KH")),
            "group 1: 10S JS QS is not a sequence: 10 and J are not adjacent")
    game = remi(held=["AH 2H 3H 5D 6D 7D 9C", FILL], phase="discard")
    refused(game, Close(P, card("9C"), groups("AH 2H 3H | 5D 6D 7D")),
            "group 1: AH 2H 3H is not a sequence: an ace cannot be in a sequence")
    game = remi(held=["QD KD AD 5D 6D 7D 9C", FILL], phase="discard")
    refused(game, Close(P, card("9C"), groups("QD KD AD | 5D 6D 7D")),
            "group 1: QD KD AD is not a sequence: an ace cannot be in a sequence")
    refused(game, Close(P, card("9C")), "AD QD KD fit no combination: every card but the "
            "closing card must be in one")


def test_REM_E8_picture_sequence_and_10_J_Q_K_scoring() -> None:
    game = remi(held=["JH QH 2C 5D 8S 9S AS", FILL], pile="KH")
    game, _ = game.apply(Take(P, card("KH"), tuple(cards("JH QH"))))
    assert game.table[0].meld.is_run
    assert sorted(c.code for c in game.table[0].meld.pieces) == ["JH", "KH", "QH"]
    score = best_score(cards("10S JS QS KS 2H 5C 9D"))
    assert score.total == 10
    assert score.plus == (tuple(cards("JS QS KS")),)


def test_REM_E9_numeral_closing_card_85() -> None:
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C", FILL], stock="6D")
    game, _ = game.apply(Draw(P, "stock"))
    game, _ = game.apply(Close(P, card("6D")))
    assert game.results[-1].points[P] == 85
    assert game.scorings[-1][P].bonus == 50


def test_REM_E10_picture_closing_card_135() -> None:
    game = remi(held=["4H 5H 6H 7H 8H 9H 10H", FILL], stock="QS")
    game, _ = game.apply(Draw(P, "stock"))
    game, _ = game.apply(Close(P, card("QS")))
    assert game.results[-1].points[P] == 135


def test_REM_E11_ace_closing_card_210() -> None:
    game = remi(held=["7S 8S 9S KH KS KC", FILL], table=[(P, "4D 5D 6D")], stock="AS")
    game, _ = game.apply(Draw(P, "stock"))
    game, _ = game.apply(Close(P, card("AS"), groups("7S 8S 9S | KH KS KC")))
    assert game.results[-1].points[P] == 210


def test_REM_E12_stock_out_scores_everyone_without_bonus() -> None:
    game = remi(3, held=["KS KD KC 7D", "5C 6C 7C 8C QD QH AS", "9S 9H 9D JC JD JH 2C"],
                table=[(0, "2H 3H 4H")], stock="", turn=1, dealer=0)
    game, events = game.apply(Draw(1, "stock"))
    assert [e.kind for e in events][:2] == ["stock_out", "hand_over"]
    assert game.results[0].points == (40, -15, -50)
    assert all(s.bonus == 0 for s in game.scorings[0])


def test_REM_E13_three_of_a_kind_cannot_close() -> None:
    game = remi(held=["7H 7S 7D", FILL], phase="discard")
    for closing in ("7H", "7S", "7D"):
        refused(game, Close(P, card(closing)))
    assert not game.close_options(P)
    game.apply(Discard(P, card("7H")))  # discarding normally is fine


def test_REM_E14_timeout_discards_the_highest_loose_card() -> None:
    assert timeout_discard(cards("2S 3S 4S 9H KD AC 6C 6H")) == card("AC")
    game = remi(held=["2S 3S 4S 9H KD 6C 6H", FILL], stock="AC")
    game, _ = game.apply(Timeout(P))
    assert game.pile == [card("AC")]


def test_REM_E15_broken_backing_counts_the_set_minus() -> None:
    game = remi(held=["8S 8H 2D 3D 4D KS AD", FILL], pile="8D", stock="9C")
    game, _ = game.apply(Take(P, card("8D"), tuple(cards("8S 8H"))))
    game, _ = game.apply(Discard(P, card("AD")))
    score = best_score(cards("2D 4D KS 9C"), game.own_melds(P))
    assert score.total == -40
    assert len(score.minus_sets) == 1 and not score.plus


def test_REM_E16_dealer_rotation_and_previous_winner() -> None:
    ended = "KS KD KC 7D", "5C 6C 7C 8C QD QH AS", "9S 9H 9D JC JD JH 2C"
    game = remi(3, held=list(ended), table=[(0, "2H 3H 4H")], stock="", turn=1, dealer=0)
    after, _ = game.apply(Draw(1, "stock"))
    assert after.dealer == 2 and after.turn == 2  # C deals and (first_player dealer) starts
    both = remi(3, held=list(ended), table=[(0, "2H 3H 4H")], stock="", turn=1, dealer=0,
                totals=[0, 0, 35])
    after, _ = both.apply(Draw(1, "stock"))
    assert after.totals[1] == after.totals[2] == -15 and after.dealer == 1  # B before C
    prev = remi(3, held=list(ended), table=[(0, "2H 3H 4H")], stock="", turn=1, dealer=0,
                first_player="previous_winner")
    after, _ = prev.apply(Draw(1, "stock"))
    assert after.dealer == 2 and after.turn == 0  # A had the highest deal score
