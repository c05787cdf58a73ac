"""Indonesian Remi, rule by rule (REM-1 … REM-32 of 50-remi.md)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions, NotYourTurn
from bot.engine.game import Timeout
from bot.engine.melds import is_meld
from bot.engine.moves import Discard, Draw, Resume
from bot.engine.variants.remi import (
    RULES,
    Close,
    RemiGame,
    RemiOptions,
    Take,
    best_score,
    card_order,
    card_value,
    has_sequence,
)
from bot.engine.views import SeatState
from tests.remi_helpers import card, cards, groups, new, refused, remi

P, Q, R = 0, 1, 2


# -- players and cards ----------------------------------------------------------


def test_REM_1_two_to_four_players_one_pack_no_jokers() -> None:
    for n in (2, 3, 4):
        game = new(n)
        assert game.inventory() == Counter(card_deck(1))
    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            new(n)
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], phase="discard")
    refused(game, Discard(P, JOKER), "there are no jokers in Remi")
    with pytest.raises(IllegalMove, match="there are no jokers in Remi"):
        game.check_piece(JOKER)


def test_REM_2_turns_pass_to_the_next_seat_wrapping() -> None:
    game = remi(3, held=["2S 3S 4S 9H KD AC 6C", None, None], turn=2)
    game, _ = game.apply(Draw(R, "stock"))
    game, _ = game.apply(Discard(R, game.hands[R][0]))
    assert game.turn == P


def test_REM_3_card_values() -> None:
    values = [card_value(c) for c in cards("2S 5H 9D 10C JS QH KD AC")]
    assert values == [5, 5, 5, 5, 10, 10, 10, 15]


def test_REM_4_highest_card_order() -> None:
    ordered = sorted(cards("2C 10S JS QS KS KH AC AS"), key=card_order, reverse=True)
    assert [c.code for c in ordered] == ["AS", "AC", "KS", "KH", "QS", "JS", "10S", "2C"]


# -- deal and turn order ------------------------------------------------------------


def test_REM_5_first_dealer_random_then_lowest_total() -> None:
    dealers = {new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = remi(3, held=[None, None, None], dealer=0, totals=[10, -5, -5])
    assert game.next_dealer() == 1  # tie: first clockwise after the previous dealer
    game = dataclasses.replace(game, dealer=1)
    assert game.next_dealer() == 2
    game = dataclasses.replace(game, dealer=2, totals=[-5, -5, 10])
    assert game.next_dealer() == 0
    game = dataclasses.replace(game, dealer=0, totals=[-5, -5, 10])
    assert game.next_dealer() == 1  # the previous dealer comes last


def test_REM_6_seven_cards_each_the_rest_is_stock() -> None:
    for n, stock in ((2, 38), (3, 31), (4, 24)):
        game = new(n)
        assert [len(h) for h in game.hands] == [7] * n
        assert len(game.stock) == stock and game.pile == []


def test_REM_7_the_pile_is_spread_with_three_positions_and_melds_by_owner() -> None:
    game = remi(held=["2S 3S 4S 9H KS AC 6C", None], pile="5C QH 4C 9S",
                table=[(Q, "6H 7H 8H"), (P, "JD QD KD")])
    view = game.table_view()
    assert view.discard == tuple(cards("5C QH 4C 9S"))
    assert view.discard_marked == 3 and view.melds_by_owner
    assert [m.owner for m in view.melds] == [Q, P]
    assert game.top_cards() == cards("9S 4C QH")
    assert remi(held=["2S", None], pile="5C").table_view().discard_marked == 1


def test_REM_8_first_player_dealer_or_previous_winner() -> None:
    game = new(3, seed=4)
    assert game.turn == game.dealer
    game = remi(3, held=["2S 3S 4S 5S 9H 9D 9C", None, None], stock="6D KC KH KS",
                dealer=2, turn=0, first_player="previous_winner")
    game, _ = game.apply(Draw(P, "stock"))
    game, _ = game.apply(Close(P, card("6D")))
    assert game.turn == P and game.dealer != P  # the closer starts the next deal
    game = remi(3, held=["2S 3S 4S 5S 9H 9D 9C", None, None], stock="6D", dealer=2, turn=0)
    game, _ = game.apply(Draw(P, "stock"))
    game, _ = game.apply(Close(P, card("6D")))
    assert game.turn == game.dealer


# -- melds ------------------------------------------------------------------------------


def test_REM_9_sequences_numerals_or_exactly_J_Q_K() -> None:
    for good in ("2S 3S 4S", "2H 3H 4H 5H 6H 7H 8H 9H 10H", "JC QC KC", "8D 9D 10D"):
        assert is_meld(cards(good), RULES), good
    for bad in ("10S JS QS", "AH 2H 3H", "QD KD AD", "JC QC KC AC", "10S JS QS KS",
                "2S 3H 4S"):
        assert not is_meld(cards(bad), RULES), bad


def test_REM_10_sets_of_three_or_four_of_any_rank() -> None:
    for good in ("AS AH AD", "7S 7H 7D 7C", "KS KD KC"):
        assert is_meld(cards(good), RULES)
    assert not is_meld(cards("7S 7H"), RULES)


def test_REM_11_backing_by_a_table_or_hand_sequence() -> None:
    assert has_sequence(cards("2D 3D 4D KS"))
    assert not has_sequence(cards("2D 3D 5D 10D JD QD"))
    # Backed by a hand sequence made of cards outside the set.
    assert best_score(cards("9S 9H 9D 2C 3C 4C")).total == 30
    assert best_score(cards("9S 9H 9D 2C 3C")).total == -25
    # Backed by the player's own table sequence.
    table = [m.meld for m in remi(held=[None, None], table=[(P, "JH QH KH")]).table]
    assert best_score(cards("9S 9H 9D 2C"), table).total == 30 + 15 - 5


def test_REM_12_no_card_is_ever_added_to_a_table_combination() -> None:
    game = remi(held=["4C 8D 9S JD KH AD 2H", None], pile="5C 6C 7C",
                table=[(P, "8C 9C 10C")], phase="discard")
    moves = game.legal_moves(P)
    assert all(isinstance(m, Discard | Close) for m in moves)
    game = dataclasses.replace(game, phase="acquire")
    refused(game, Take(P, card("7C"), tuple(cards("8C 9C"))), "you do not hold 8C")
    # The hand's 4C can never join the table's 8C 9C 10C: only a take or a close lays cards.
    assert {type(m).__name__ for m in game.legal_moves(P)} <= {"Draw", "Take"}


def test_REM_13_first_combination_a_sequence_unless_a_backed_set_take() -> None:
    game = remi(held=["8S 8H 2D 5C 9H KS AD", None], pile="8D")
    refused(game, Take(P, card("8D"), tuple(cards("8S 8H"))))
    game = remi(held=["8S 8H 2D 3D 4D KS AD", None], pile="8D")
    game, _ = game.apply(Take(P, card("8D"), tuple(cards("8S 8H"))))
    assert game.table[0].meld.kind == "set"


# -- a turn ---------------------------------------------------------------------------


def test_REM_14_one_acquisition_then_a_discard_or_close() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], pile="5S")
    refused(game, Discard(P, card("9H")), "draw or take first")
    refused(game, Close(P, card("9H")), "draw or take first")
    refused(game, Draw(Q, "stock"), "it is not your turn")
    game, _ = game.apply(Draw(P, "stock"))
    refused(game, Draw(P, "stock"), "you have already drawn or taken this turn")
    refused(game, Take(P, card("5S"), tuple(cards("3S 4S"))),
            "you have already drawn or taken this turn")
    with pytest.raises(NotYourTurn):
        game.apply(Discard(Q, game.hands[Q][0]))


def test_REM_15_draw_takes_the_top_of_the_stock() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], stock="7D 8D")
    game, events = game.apply(Draw(P, "stock"))
    assert game.hands[P][-1] == card("7D") and game.stock == [card("8D")]
    assert events[0].private == "You drew 7D." and "7D" not in events[0].text
    assert game.hand_view(P).newest == card("7D")
    refused(game, Draw(P, "discard"))


def test_REM_16_take_lays_the_combination_and_cards_above_go_to_the_hand() -> None:
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="3D 5C QH 4C")
    after, events = game.apply(Take(P, card("5C"), tuple(cards("7C 6C"))))
    assert after.table[0].owner == P and after.table[0].meld.codes == "5C 6C 7C"
    assert after.pile == [card("3D")]
    assert after.hands[P][-2:] == cards("QH 4C")
    assert "position 3" in events[0].text


def test_REM_16a_take_needs_a_pile_card_in_positions_1_to_3() -> None:
    refused(remi(held=["6C 7C 2H 9S JD KH AD", None]), Take(P, card("5C"), tuple(cards("6C 7C"))),
            "the discard pile is empty")
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="5C 3D QH 4C")
    refused(game, Take(P, card("5C"), tuple(cards("6C 7C"))),
            "5C is position 4 of the discard pile: only positions 1 to 3 can be taken")
    refused(game, Take(P, card("8C"), tuple(cards("6C 7C"))), "8C is not in the discard pile")


def test_REM_16b_take_must_be_one_valid_combination() -> None:
    game = remi(held=["6C 9C 2H 9S JD KH AD", None], pile="5C QH 4C")
    refused(game, Take(P, card("4C"), tuple(cards("6C 9C"))),
            "4C 6C 9C is not a sequence: 5C, 7C and 8C are missing")
    refused(game, Take(P, card("4C"), (card("6C"),)),
            "name 2 or more hand cards that make a combination with 4C")
    refused(game, Take(P, card("4C"), tuple(cards("6C 5C"))),
            "5C is in the discard pile: only the picked card may come from it")
    refused(game, Take(P, card("4C"), tuple(cards("6C 7C"))), "you do not hold 7C")


def test_REM_16c_set_take_needs_sequence() -> None:
    # Cards received from above do not back the set.
    game = remi(held=["8S 8H 2D 3D 5C KS AD", None], pile="8D 4D")
    refused(game, Take(P, card("8D"), tuple(cards("8S 8H"))),
            "a set needs a sequence first (on the table or in your hand)")
    # The set's own hand cards do not back it.
    game = remi(held=["8S 8H 9H 10H 5C KS AD", None], pile="8D")
    assert game.take_verdict(P, card("8D"), cards("8S 8H")).ok is False
    game = remi(held=["8S 8H 2C KS AD", None], pile="8D", table=[(P, "2D 3D 4D")])
    assert game.take_verdict(P, card("8D"), cards("8S 8H")).ok
    # Somebody else's sequence does not back it.
    game = remi(held=["8S 8H 2C KS AD", None], pile="8D", table=[(Q, "2D 3D 4D")])
    assert not game.take_verdict(P, card("8D"), cards("8S 8H")).ok


def test_REM_16d_no_take_that_leaves_nothing_to_discard() -> None:
    game = remi(held=["7D 8D", None], pile="9D")
    refused(game, Take(P, card("9D"), tuple(cards("7D 8D"))),
            "you would have no card left to discard")
    assert game.takes(P) == []


def test_REM_17_cards_reach_the_table_only_by_take_or_close() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], phase="discard")
    assert {m.kind for m in RemiGame.move_types} == {"draw", "take", "discard", "close",
                                                     "timeout", "resume"}
    game, _ = game.apply(Discard(P, card("9H")))
    assert game.table == []


def test_REM_18_discard_any_card_and_the_last_card_closes() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC", None], stock="6C")
    game, _ = game.apply(Draw(P, "stock"))
    after, _ = game.apply(Discard(P, card("6C")))  # even the card just drawn
    assert after.pile == [card("6C")] and after.turn == Q
    game = remi(held=["9H", None], pile="5D", table=[(P, "6D 7D 8D")], phase="discard")
    after, events = game.apply(Discard(P, card("9H")))
    assert any(e.kind == "close" for e in events)
    assert after.results[-1].points[P] == 15 + 50


# -- ending a game -----------------------------------------------------------------------


def test_REM_19_close_with_or_without_a_grouping() -> None:
    hand = "2S 3S 4S 5S 9H 9D 9C 6D"
    game = remi(held=[hand, None], phase="discard")
    preview = game.close_preview(P, card("6D"))
    assert preview.score.total == 85 and len(preview.melds) == 2
    after, _ = game.apply(Close(P, card("6D"), groups("9H 9D 9C | 2S 3S 4S 5S")))
    assert after.results[-1].points[P] == 85 and after.scorings[-1][P].closing == card("6D")
    refused(game, Close(P, card("6D"), groups("9H 9D 9C | 2S 3S 4S")),
            "5S is in no group: every card but the closing card must be in a combination")
    refused(game, Close(P, card("6D"), groups("9H 9D 9C 6D | 2S 3S 4S 5S")),
            "6D is your closing card: group the other cards")
    # A set is backed only by a sequence on the table or in the arrangement.
    sets = remi(held=["9H 9D 9C KS KH KD 2C 5H", None], phase="discard")
    refused(sets, Close(P, card("5H"), groups("9H 9D 9C | KS KH KD 2C")))
    refused(remi(held=["9H 9D 9C KS KH KD 5H", None], phase="discard"), Close(P, card("5H")),
            "a set needs a sequence first (on the table or in your combinations)")
    backed = remi(held=["9H 9D 9C KS KH KD 5H", None], phase="discard",
                  table=[(P, "2C 3C 4C")])
    assert backed.close_preview(P, card("5H")).score.total == 15 + 15 + 30 + 50
    # Closing is never compulsory; a refused close leaves the turn going on.
    game.apply(Discard(P, card("6D")))


def test_REM_20_no_close_without_a_closing_card() -> None:
    game = remi(held=["4H 5H 6H 7H", None], phase="discard")
    assert [p.card for p in game.close_options(P)] == [card("4H"), card("7H")]
    refused(game, Close(P, card("5H")))
    refused(remi(held=["7H 7S 7D", None], phase="discard"), Close(P, card("7H")),
            "7S 7D fit no combination: every card but the closing card must be in one")


def test_REM_21_stock_out_ends_the_deal_at_once() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC 6C", "6H 7H 8H JD QS 2D 3C"], stock="")
    game, events = game.apply(Draw(P, "stock"))
    assert events[0].kind == "stock_out" and events[1].kind == "hand_over"
    assert game.results[-1].points == (15 - 35, 15 - 30)
    assert all(s.bonus == 0 and s.closing is None for s in game.scorings[-1])
    assert game.deal_number == 2


def test_REM_22_winner_is_the_closer_or_the_highest_after_stock_out() -> None:
    game = remi(3, held=["2S 3S 4S 9H KD AC 6C", "KS 2H 5D 7C 9C JH QC", "AD 3H 6S 8D 10H QD KC"],
                stock="", turn=1, dealer=2)
    game, _ = game.apply(Draw(Q, "stock"))
    assert game.results[-1].winners == (P,)
    tie = remi(3, held=["2S 5C 8D", "3S 6C 9D", "4S 7C 10D"], stock="", turn=1, dealer=1)
    tie, _ = tie.apply(Draw(Q, "stock"))
    assert tie.results[-1].points == (-15, -15, -15) and tie.results[-1].winners == (Q,)


# -- scoring ------------------------------------------------------------------------------


def test_REM_23_an_arrangement_may_be_empty_or_disjoint_melds() -> None:
    assert best_score([]).total == 0
    score = best_score(cards("2H 3H 4H 5H 5S 5D"))
    assert score.total == 30 and score.minus == ()  # 2H 3H 4H + 5H 5S 5D, not 2H-5H


def test_REM_24_best_arrangement_plus_and_minus() -> None:
    table = [m.meld for m in remi(held=[None, None], table=[(P, "KS KD KC")]).table]
    # The table set is unbacked without a sequence, and counts plus once one is in the hand.
    assert best_score(cards("2C 5H"), table).total == -30 - 10
    assert best_score(cards("2C 3C 4C 5H"), table).total == 30 + 15 - 5
    # Sets inside the hand need a sequence: search with and without one.
    assert best_score(cards("9S 9H 9D 9C 2D 3D 4D")).total == 35
    assert best_score(cards("9S 9H 9D 9C 2D 3D 5D")).total == -35


def test_REM_25_closer_bonus_ten_times_the_closing_card() -> None:
    for closing, bonus in (("6D", 50), ("QS", 100), ("AS", 150)):
        game = remi(held=["2S 3S 4S " + closing, None], phase="discard")
        after, _ = game.apply(Close(P, card(closing)))
        assert after.results[-1].points[P] == 15 + bonus
        assert after.scorings[-1][P].closing == card(closing)


def test_REM_26_deal_scores_itemised_and_added_to_totals() -> None:
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C 6D", "3C 4C 5C 6C JC JD QC"], phase="discard",
                totals=[100, 20])
    game, events = game.apply(Close(P, card("6D")))
    assert game.totals == [185, 10]
    loser = game.scorings[-1][Q]
    assert loser.plus == (tuple(cards("3C 4C 5C 6C")),) and loser.total == -10
    assert game.results[-1].notes[Q] == "+20 (3C 4C 5C 6C) −30 (JD JC QC)"
    view = game.result_view()
    assert [p.seat for p in view.placings] == [P, Q] and view.placings[0].finish == card("6D")
    assert any("+85" in e.text for e in events)


# -- match -------------------------------------------------------------------------------------


def test_REM_27_match_to_target_or_fixed_deals() -> None:
    close = ["2S 3S 4S 5S 9H 9D 9C 6D", None]
    game = remi(held=close, phase="discard", target=50)
    assert game.apply(Close(P, card("6D")))[0].is_over
    game = remi(held=close, phase="discard", target=100)
    assert not game.apply(Close(P, card("6D")))[0].is_over
    game = remi(held=close, phase="discard", target=50, deals=2)
    after, _ = game.apply(Close(P, card("6D")))
    assert not after.is_over and after.deal_number == 2
    game = remi(held=close, phase="discard", deals=1)
    assert game.apply(Close(P, card("6D")))[0].is_over
    with pytest.raises(InvalidOptions):
        RemiOptions.build(deals=51)
    with pytest.raises(InvalidOptions):
        RemiOptions.build(target=10)


def test_REM_28_highest_total_wins_and_ties_share() -> None:
    game = remi(held=["2S", "5C"], phase="discard", deals=1, totals=[0, 35],
                table=[(P, "3S 4S 5S")])
    after, events = game.apply(Discard(P, card("2S")))
    assert after.totals == [65, 30] and after.winners == (P,)
    game = remi(held=["2S", "5C"], phase="discard", deals=1, totals=[0, 70],
                table=[(P, "3S 4S 5S")])
    after, events = game.apply(Discard(P, card("2S")))
    assert after.totals == [65, 65] and after.winners == (P, Q)
    assert "win." in events[-1].text


def test_REM_option_defaults() -> None:
    options = RemiOptions()
    assert (options.first_player, options.target, options.deals, options.turn_seconds) == \
        ("dealer", 500, 0, 90)
    with pytest.raises(InvalidOptions):
        RemiOptions.build(turn_seconds=10)


# -- timeouts -------------------------------------------------------------------------------------


def test_REM_29_no_timer_means_no_timeout() -> None:
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], turn_seconds=0)
    refused(game, Timeout(P), "there is no turn timer in this game")
    refused(remi(held=["2S 3S 4S 9H KD AC 6C", None]), Timeout(Q), "it is not your turn")


def test_REM_30_timeout_draws_then_discards_never_takes_or_closes() -> None:
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C", None], pile="6S", stock="6D")
    after, _ = game.apply(Timeout(P))
    assert after.table == [] and after.results == []  # no take of 6S, no close with 6D
    assert after.pile == cards("6S 6D")
    # After a take the bot only discards.
    game = remi(held=["2S 3S 9H KD AC 6C 7C", None], pile="4S", table=[(P, "8D 9D 10D")])
    game, _ = game.apply(Take(P, card("4S"), tuple(cards("2S 3S"))))
    after, _ = game.apply(Timeout(P))
    assert after.pile == [card("AC")]
    # Every card in a best arrangement: the removal leaving the best score, ties the highest.
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C", None], stock="9S")
    after, _ = game.apply(Timeout(P))
    assert after.pile == [card("9S")]  # every removal keeps 35; 9S is the highest (REM-4)
    # Empty stock: the timeout draw ends the deal.
    game = remi(held=["2S 3S 4S 9H KD AC 6C", None], stock="")
    after, _ = game.apply(Timeout(P))
    assert after.deal_number == 2


def test_REM_31_three_timeouts_put_a_player_on_auto_play_until_resume() -> None:
    game = new(2, seed=3)
    seat = game.turn
    other = 1 - seat
    for _ in range(2):
        game, _ = game.apply(Timeout(seat))
        game, _ = game.apply(Draw(other, "stock"))
        game, _ = game.apply(Discard(other, game.hands[other][0]))
    assert game.timeouts[seat] == 2 and not game.auto[seat]
    game, events = game.apply(Timeout(seat))
    assert game.auto[seat] and any(e.kind == "auto_play" for e in events)
    assert game.table_view().players[seat].state == SeatState.AUTO
    # The auto seat's turns are played at once: the other seat is always to move.
    for _ in range(3):
        game, _ = game.apply(Draw(other, "stock"))
        game, events = game.apply(Discard(other, game.hands[other][0]))
        if game.is_over:
            break
        assert game.turn == other and any(e.kind == "auto_turn" for e in events)
    refused(game, Resume(other), "you are not on auto-play")
    assert Resume(seat) in game.legal_moves(seat)
    game, _ = game.apply(Resume(seat))
    assert not game.auto[seat] and game.timeouts[seat] == 0
    game, _ = game.apply(Draw(other, "stock"))
    game, _ = game.apply(Discard(other, game.hands[other][0]))
    assert game.turn == seat  # from the next turn on the player plays themselves
    # The count resets when the player finishes a turn themselves.
    game, _ = game.apply(Timeout(seat))
    game, _ = game.apply(Draw(other, "stock"))
    game, _ = game.apply(Discard(other, game.hands[other][0]))
    game, _ = game.apply(Draw(seat, "stock"))
    game, _ = game.apply(Discard(seat, game.hands[seat][0]))
    assert game.timeouts[seat] == 0


def test_REM_31_every_seat_on_auto_play_waits_for_the_timer() -> None:
    game = dataclasses.replace(new(2, seed=5), auto=[True, True], timeouts=[3, 3])
    seat = game.turn
    after, _ = game.apply(Timeout(seat))
    assert after.turn == 1 - seat  # one turn per timeout, no runaway


def test_REM_32_auto_played_seats_keep_their_hand_and_are_scored() -> None:
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C 6D", "3C 4C 5C 6C JC JD QC"], phase="discard")
    game = dataclasses.replace(game, auto=[False, True], timeouts=[0, 3])
    after, _ = game.apply(Close(P, card("6D")))
    assert after.results[0].points[Q] == -10
    assert after.auto[Q]  # auto-play carries into later deals


def test_REM_16_helpers_for_the_take_buttons() -> None:
    """REM-16: which positions a hand can use, and why a selection works or not."""
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="5C QH 4C")
    assert game.positions_for(P) == [3]
    assert game.positions_for(P, cards("6C 7C")) == [3]
    assert game.positions_for(P, cards("2H 9S")) == []
    verdict = game.take_verdict(P, card("5C"), cards("6C 7C"))
    assert verdict.ok and verdict.position == 3 and verdict.received == tuple(cards("QH 4C"))
    assert not game.take_verdict(P, card("4C"), cards("6C 7C")).ok
    # Public: every top card some unseen cards could complete.
    assert game.open_positions() == [1, 2, 3]
    seen = remi(held=[None, None], pile="2S 4S 3C 3D 3H 2D 2H",
                table=[(Q, "4C 5C 6C"), (P, "4H 5H 6H"), (P, "4D 5D 6D")])
    # 2H: 2S 2D in the pile, 3H and 4H seen → only 2C is hidden: no combination possible.
    assert seen.open_positions() == []  # 2D and 3H are just as dead


def test_REM_19_close_preview_for_the_confirmation_question() -> None:
    game = remi(held=["2S 3S 4S 5S 9H 9D 9C 6D", None], phase="discard")
    preview = game.close_preview(P, card("6D"), groups("2S 3S 4S 5S | 9H 9D 9C"))
    assert preview.text == ("close with 6D, exposing 2S 3S 4S 5S | 9H 9D 9C: +85 this deal "
                            "(bonus 50)")
    assert [p.card for p in game.close_options(P)] == [card("6D")]
    refused(game, Close(P, card("6D"), (*groups("2S 3S 4S 5S | 9H 9D 9C"), ())),
            "group 3 is empty")
    refused(game, Close(P, card("6D"), ()),
            "name your combinations, or leave them out to let the bot find them")
    single = remi(held=["9H", None], phase="discard", table=[(P, "2C 3C 4C")])
    assert single.close_preview(P, card("9H"), ()).score.total == 15 + 50
