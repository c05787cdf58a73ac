"""The worked examples FHR-E1 … FHR-E16 of 80-rummy500.md, one test each (some in parts)."""

from __future__ import annotations

import dataclasses

from bot.engine.game import Timeout
from bot.engine.melds import read_meld
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, Take, placed
from bot.engine.variants.remi import Take as RemiTake
from bot.engine.variants.rummy500 import Rummy500Game, card_value, table_values
from tests.remi_helpers import remi
from tests.rummy500_helpers import card, cards, groups, refused, rummy500

A, B, C = 0, 1, 2
P = A
FILL = None


def test_FHR_E1_take_5H_with_cards_above_then_meld() -> None:
    game = rummy500(held=["4H 6H 2C 3D 8S JD KC", FILL], pile="9C 5H KD 2S QH")
    game, events = game.apply(Take(P, card("5H"), tuple(cards("4H 6H"))))
    assert game.table[0].number == 1 and game.table[0].meld.codes == "4H 5H 6H"
    assert game.credit == [[P, P, P]]
    assert len(game.hands[P]) == 7 - 2 + 3
    assert set(cards("KD 2S QH")) <= set(game.hands[P])
    assert game.pile == cards("9C") and game.phase == "play"
    assert "took 5H from position 4; KD 2S QH went to their hand, and laid meld 1" \
        in events[0].text
    game, _ = game.apply(Discard(P, card("8S")))
    assert game.pile == cards("9C 8S") and game.turn == 1


def test_FHR_E2_a_take_without_a_valid_use_is_refused_and_moves_nothing() -> None:
    game = rummy500(held=["4H 7H 2C 3D 8S JD KC", FILL], pile="9C 5H KD 2S QH")
    refused(game, Take(P, card("5H"), tuple(cards("4H 7H"))),
            "4H 5H 7H is not a run: 6H is missing")
    refused(game, Take(P, card("5H")),
            "say how you use 5H: with:<cards> for a new meld or meld:<n> to lay it off")


def test_FHR_E3_cards_above_may_join_the_meld_unlike_remi() -> None:
    game = rummy500(held=["4H 2C 3D 8S JD KC QS", FILL], pile="2D 5H 9C 6H")
    after, _ = game.apply(Take(P, card("5H"), tuple(cards("4H 6H"))))
    assert after.table[0].meld.codes == "4H 5H 6H" and card("9C") in after.hands[P]
    remi_game = remi(held=["4H 2C 3D 8S JD KC QS", None], pile="2D 5H 9C 6H")
    refused(remi_game, RemiTake(P, card("5H"), tuple(cards("4H 6H"))),
            "6H is in the discard pile: only the picked card may come from it")  # REM-16b


def test_FHR_E4_layoff_scores_for_layer() -> None:
    game = rummy500(3, held=["10S JS 2C 3D 4H", "5C 8D", "KD QC 2H"],
                    table=[(B, "7S 8S 9S")], pile="4D 6S", turn=A, phase="play")
    game, _ = game.apply(LayOff(A, placed(*cards("10S JS")), 1))
    game, _ = game.apply(Discard(A, card("2C")))
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, card("5C")))
    # C takes 6S from position 3 (2C and 5C were discarded on it) with ``meld:1``.
    assert game.position_of(card("6S")) == 3
    game, _ = game.apply(Take(C, card("6S"), meld=1))
    assert game.table[0].meld.codes == "6S 7S 8S 9S 10S JS"
    assert (game.table_points(A), game.table_points(B), game.table_points(C)) == (20, 24, 6)


def test_FHR_E5_an_ace_beginning_a_run_scores_1() -> None:
    rules = rummy500(held=["2D", "3D"]).rules
    assert sum(table_values(read_meld(cards("AH 2H 3H"), rules), "both")) == 6
    assert sum(table_values(read_meld(cards("QS KS AS"), rules), "both")) == 35
    game = rummy500(3, held=["AC 9D KH", "5S 5H", "AD 8C 4D"], table=[(C, "2C 3C 4C")],
                    turn=A, phase="play")
    game, _ = game.apply(LayOff(A, placed(card("AC")), 1))
    assert game.table_points(A) == 1 and game.table_points(C) == 9
    assert card_value(card("AD")) == 15  # C holds it: −15 at the end
    assert sum(table_values(read_meld(cards("AS AH AD"), rules), "both")) == 45


def test_FHR_E6_k_a_2_refused_with_both_accepted_around() -> None:
    game = rummy500(held=["KH AH 2H 2D 7C", FILL], table=[(B, "QD KD AD")], phase="play")
    refused(game, MeldDown(P, groups("KH AH 2H")),
            "KH AH 2H is not a run: an ace is high or low, not both")
    refused(game, LayOff(P, placed(card("2D")), 1),
            "2D does not fit meld 1: an ace is high or low, not both")
    around = rummy500(held=["KH AH 2H 2D 7C", FILL], table=[(B, "QD KD AD")], phase="play",
                      aces="around")
    around, _ = around.apply(MeldDown(P, groups("KH AH 2H")))
    around, _ = around.apply(LayOff(P, placed(card("2D")), 1))
    assert around.table_points(P) == 10 + 15 + 2 + 2  # every ace 15
    assert around.table_points(B) == 10 + 10 + 15


def test_FHR_E7_meld_last_cards_goes_out_without_a_discard() -> None:
    game = rummy500(held=["8C 8D", "5S 6S 9H"], stock="8H 2C 3C")
    game, _ = game.apply(Draw(A, "stock"))
    game, events = game.apply(MeldDown(A, groups("8C 8D 8H")))
    assert game.results[-1].winners == (A,) and game.results[-1].points[A] == 24
    assert any("went out" in e.text for e in events)
    strict = rummy500(held=["8C 8D", "5S 6S 9H"], stock="8H 2C 3C", discard_to_go_out=True)
    strict, _ = strict.apply(Draw(A, "stock"))
    refused(strict, MeldDown(A, groups("8C 8D 8H")), "keep a card to discard")
    strict, _ = strict.apply(Discard(A, card("8H")))
    assert strict.turn == B and strict.hand_number == 1


def test_FHR_E8_a_take_that_empties_the_hand_goes_out() -> None:
    game = rummy500(held=["JD QD", "5S 6S 9H"], pile="9C KD")
    after, _ = game.apply(Take(A, card("KD"), tuple(cards("JD QD"))))
    assert after.results[-1].winners == (A,) and after.hand_number == 2
    strict = rummy500(held=["JD QD", "5S 6S 9H"], pile="9C KD", discard_to_go_out=True)
    refused(strict, Take(A, card("KD"), tuple(cards("JD QD"))), "keep a card to discard")


def test_FHR_E9_hand_scores_table_minus_hand() -> None:
    game = rummy500(3, held=["10S", "KD 3C", "AH QC 9D"],
                    table=[(A, "4H 5H 6H"), (B, "7S 8S 9S")], pile="2D JS",
                    phase="draw", turn=A)
    game, _ = game.apply(Take(A, card("JS"), tuple(cards("10S")), meld=2))
    result = game.results[-1]
    assert result.winners == (A,)
    assert result.points == (35, 11, -34)
    assert "table 35" in result.notes[A] and "hand −34" in result.notes[C]


def test_FHR_E10_empty_stock_pile_reshuffle_end() -> None:
    def turn_of_b(**options: object) -> Rummy500Game:
        game = rummy500(held=["4H 7C 5S", "KS KD 2C 3D"], pile="9C 2D KH", stock="", turn=A,
                        phase="play", **options)
        game, _ = game.apply(Discard(A, card("5S")))  # the pile is 9C 2D KH 5S as B's turn begins
        return game

    game = turn_of_b()  # ``pile``
    assert game.turn == B and game.phase == "draw" and game.pile == cards("9C 2D KH 5S")
    took, _ = game.apply(Take(B, card("KH"), tuple(cards("KS KD"))))
    assert set(took.table[0].meld.pieces) == set(cards("KS KH KD")) and card("5S") in took.hands[B]
    drew, events = game.apply(Draw(B, "stock"))
    assert drew.hand_number == 2 and drew.results[-1].winners == ()
    assert drew.results[-1].points == (-(4 + 7), -(10 + 10 + 2 + 3))
    assert any("drew from the empty stock" in e.text for e in events)
    game = turn_of_b(stock_out="reshuffle")
    assert game.pile == cards("5S") and sorted(game.stock) == sorted(cards("9C 2D KH"))
    assert game.turn == B and game.phase == "draw" and game.reshuffles == 1
    game = turn_of_b(stock_out="end")
    assert game.hand_number == 2 and game.results[-1].winners == ()


def test_FHR_E11_two_packs_sets_and_copies_in_the_pile() -> None:
    hand = rummy500(6, held=["7H 7H 7S 7D 2S", *[FILL] * 5], phase="play")
    assert hand.packs == 2
    refused(hand, MeldDown(P, groups("7H 7H 7S")), "7H 7H 7S is not a set: two 7H in a set")
    after, _ = hand.apply(MeldDown(P, groups("7H 7S 7D")))
    assert after.table[-1].meld.kind == "set"
    game = rummy500(6, held=["7H 7C 3H 4H 2S", *[FILL] * 5], table=[(B, "7H 7S 7D")],
                    pile="5H 2C 3C 4C 6D 8D 9D 10D 5H", phase="play")
    refused(game, LayOff(P, placed(card("7H")), 1), "7H does not fit meld 1: two 7H in a set")
    after, _ = game.apply(LayOff(P, placed(card("7C")), 1))
    assert len(after.table[0].meld) == 4
    draw = dataclasses.replace(game, phase="draw")
    assert draw.pile_refusal(card("5H"), None) == 1  # the upper copy
    top, _ = draw.apply(Take(P, card("5H"), tuple(cards("3H 4H"))))
    assert len(top.pile) == 8
    deep, _ = draw.apply(Take(P, card("5H"), tuple(cards("3H 4H")), position=9))
    assert deep.pile == [] and deep.table[-1].meld.codes == "3H 4H 5H"
    assert deep.hands[P].count(card("5H")) == 1  # the upper copy came with the cards above


def test_FHR_E12_free_top_card() -> None:
    position = dict(held=["2H 3H 8D JC KS", FILL], pile="4D 2S 9C")
    refused(rummy500(**position), Take(P, card("9C")),  # type: ignore[arg-type]
            "say how you use 9C: with:<cards> for a new meld or meld:<n> to lay it off")
    free = rummy500(**position, free_top_card=True)  # type: ignore[arg-type]
    taken, _ = free.apply(Take(P, card("9C")))
    assert card("9C") in taken.hands[P] and taken.phase == "play"
    refused(taken, Discard(P, card("9C")), "you took 9C from the discard pile this turn")
    refused(free, Take(P, card("2S")),
            "say how you use 2S: with:<cards> for a new meld or meld:<n> to lay it off")


def test_FHR_E13_winner_at_the_target() -> None:
    # A goes out by discarding 2C and scores −0; totals decide (FHR-30).
    game = rummy500(3, held=["2C", "3S 4S", "9H 9D"], pile="KD", totals=[514, 530, 500],
                    phase="play")
    over, _ = game.apply(Discard(A, card("2C")))
    # A 514 + 0; B 530 − 7 = 523; C 500 − 18 = 482: B has the highest.
    assert over.totals == [514, 523, 482] and over.is_over and over.winners == (B,)
    tied = rummy500(3, held=["2C", "3S 4S", "9H 9D"], pile="KD", totals=[520, 527, 300],
                    phase="play")
    tied, _ = tied.apply(Discard(A, card("2C")))
    assert tied.totals[:2] == [520, 520] and not tied.is_over  # FHR-31: another hand
    assert tied.hand_number == 2
    went = rummy500(3, held=["2C", "3S 4S", "9H 9D"], pile="KD", totals=[505, 537, 300],
                    phase="play", finish="went_out")
    went, _ = went.apply(Discard(A, card("2C")))
    assert went.is_over and went.winners == (A,) and went.totals[B] == 530
    below = rummy500(3, held=["3S 4S", "5C 5D", "2C"], pile="KD", totals=[300, 537, 498],
                     phase="play", finish="went_out", turn=C)
    below, _ = below.apply(Discard(C, card("2C")))
    assert below.totals[C] == 498 and below.is_over and below.winners == (B,)


def test_FHR_E14_timeout_draws_then_discards_the_highest_loose_card() -> None:
    game = rummy500(held=["4C 5S", "KS QS JS 9D 9C 8H AC"], stock="2H 3H 4H", turn=B,
                    pile="6D")
    game, _events = game.apply(Timeout(B))
    assert game.pile[-1] == card("AC") and game.timeouts[B] == 1
    assert sorted(game.hands[B]) == sorted(cards("KS QS JS 9D 9C 8H 2H"))


def test_FHR_E15_a_joker_takes_its_place() -> None:
    game = rummy500(held=["9H JK JH 10H 8H QH 3C", FILL], phase="play", jokers=True)
    game, _ = game.apply(MeldDown(P, groups("9H JK JH")))
    assert [f.label() for f in game.table[0].meld.faces] == ["9H", "10H", "JH"]
    refused(game, LayOff(P, placed(card("10H")), 1), "10H does not fit meld 1: JK holds its place")
    game, _ = game.apply(LayOff(P, placed(card("8H"), card("QH")), 1))
    assert game.table_points(P) == 8 + 9 + 15 + 10 + 10
    assert card_value(card("JK")) == 15


def test_FHR_E16_removal_keeps_cards_against_the_player() -> None:
    game = rummy500(3, held=["2C 3S", "4D 5D", "KS QC JC 3H 3D 5C"], turn=C, phase="play",
                    turn_seconds=60, table=[(C, "7H 8H 9H")])
    game.timeouts[C] = 2
    game, events = game.apply(Timeout(C))
    assert game.pile[-1] == card("KS")  # FHR-39
    assert not game.active[C] and any("removed" in e.text for e in events)
    assert sum(card_value(c) for c in game.hands[C]) == 31
    refused(game, Discard(C, card("QC")), "you were removed from this hand for inactivity")
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(Discard(A, game.hands[A][-1]))
    assert game.turn == B
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, game.hands[B][-1]))
    assert game.turn == A  # C's turns are skipped
    game = dataclasses.replace(game, hands=[cards("2C"), *game.hands[1:]], phase="play")
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.results[-1].points[C] == 24 - 31
    assert game.active == [True, True, True]  # dealt into the next hand
    two = rummy500(2, held=["2C 3S", "KC QC 5C"], turn=B, phase="play", turn_seconds=60)
    two.timeouts[B] = 2
    two, events = two.apply(Timeout(B))
    assert two.hand_number == 2 and two.results[-1].winners == ()
