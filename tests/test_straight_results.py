"""Straight results and the final table say how the hand and the match ended (STR-44,
STR-37): no winner, a stalemate, and who won or lost once the match is over."""

from __future__ import annotations

import dataclasses

from bot.engine.moves import Discard
from bot.engine.views import SeatState
from tests.engine_helpers import card, straight

A, B, C = 0, 1, 2


def test_STR_37_final_table_shows_winner_and_losers_as_the_match_ended() -> None:
    game = straight(3, held=["9C", "KS", "2D 3D"], phase="play", discard="3C", hands=1)
    game.played_before[A] = True
    over, _ = game.apply(Discard(A, card("9C")))
    assert over.is_over
    states = {p.seat: p.state for p in over.table_view().players}
    assert states == {A: SeatState.WON, B: SeatState.LOST, C: SeatState.LOST}


def test_STR_37_removed_loser_is_lost_with_its_note() -> None:
    game = straight(3, held=["9C", "KS", "2D 3D"], phase="play", discard="3C", hands=1)
    game.played_before[A] = True
    game.active[C] = False
    over, _ = game.apply(Discard(A, card("9C")))
    panel = over.table_view().players[C]
    assert panel.state is SeatState.LOST and panel.note == "removed"


def test_STR_44_stalemate_is_named_in_the_result_titles() -> None:
    game = straight(2, held=["9C 8C", "KS 2H"], phase="play", discard="3C 4D 5S", stock="",
                    hands=2)
    mid, _ = dataclasses.replace(game, reshuffles=2).apply(Discard(A, card("9C")))
    assert mid.result_view().title == "Hand 1: stalemate, no winner"
    one = straight(2, held=["9C 8C", "KS 2H"], phase="play", discard="3C 4D 5S", stock="",
                   hands=1)
    over, _ = dataclasses.replace(one, reshuffles=2).apply(Discard(A, card("9C")))
    assert over.result_view().title == "Match over after 1 hand · the last a stalemate"


def test_STR_17_hand_without_a_winner_is_titled_so() -> None:
    game = straight(2, held=["9C 8C", "KS"], phase="play", discard="3C", stock="",
                    stock_out="end", hands=2)
    after, _ = game.apply(Discard(A, card("9C")))
    assert after.result_view().title == "Hand 1: no winner"


def test_STR_31_each_loser_note_says_what_they_paid() -> None:
    game = straight(3, held=["9C", "KS 7D AH", "5C 5D QH 2S"], phase="play", discard="3C",
                    hands=2)
    game.played_before[A] = True
    game.active[C] = False
    after, _ = game.apply(Discard(A, card("9C")))
    assert after.results[-1].notes == ("went out", "paid 18", "removed, paid 22")
    penalty = straight(2, held=["9C", "KS"], phase="play", discard="3C", hands=2,
                       penalty_scoring=True)
    penalty.played_before[A] = True
    after, _ = penalty.apply(Discard(A, card("9C")))
    assert after.results[-1].notes == ("went out", "")  # the points column says +10
