"""Rummy 500 rules FHR-1 … FHR-42 (80-rummy500.md), one or more tests each.

The worked examples are in test_rummy500_examples.py; the Discord rules
(FHR-34 – FHR-37) are also checked end to end in test_rummy500_e2e.py.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions, NotYourTurn
from bot.engine.game import Timeout
from bot.engine.melds import read_meld
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, Take, placed
from bot.engine.variants.remi import RemiGame
from bot.engine.variants.rummy500 import (
    Rummy500Game,
    Rummy500Options,
    card_value,
    table_values,
)
from tests.rummy500_helpers import card, cards, groups, new, refused, rummy500

A, B, C = 0, 1, 2
P = A


# -- players and cards --------------------------------------------------------------------


def test_FHR_1_positions_count_from_the_top_and_next_wraps() -> None:
    game = rummy500(3, held=["2C 3C", "4D 5D", "6H 7H"], pile="9C 5H KD", turn=C,
                    phase="play")
    assert [game.position_of(c) for c in cards("KD 5H 9C")] == [1, 2, 3]
    game, _ = game.apply(Discard(C, card("6H")))
    assert game.turn == A  # the seat after the last is the first


@pytest.mark.parametrize("players", [1, 9])
def test_FHR_2_two_to_eight_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        Rummy500Game.new(players, seed=1)
    assert Rummy500Game.new(8, seed=1).players == 8


def test_FHR_3_packs_by_player_count_and_one_pack_refused_from_five() -> None:
    assert sum(new(4).inventory().values()) == 52
    assert sum(new(5).inventory().values()) == 104
    assert sum(new(2, decks="2").inventory().values()) == 104
    with pytest.raises(InvalidOptions, match="use two packs with 5 or more players"):
        new(5, decks="1")
    assert Counter(new(6).inventory()) == Counter(card_deck(2))  # identical copies


def test_FHR_4_jokers_off_refused_on_two_per_pack() -> None:
    game = rummy500(held=["9H 10H 2C", None], phase="play")
    refused(game, MeldDown(P, (placed(card("9H"), card("10H"), JOKER),)),
            "jokers are off in this game")
    assert new(2, jokers=True).inventory()[JOKER] == 2
    assert new(6, jokers=True).inventory()[JOKER] == 4


def test_FHR_5_values() -> None:
    assert [card_value(c) for c in cards("2H 9S 10D JC QH KS AD JK")] == \
        [2, 9, 10, 10, 10, 10, 15, 15]
    rules = Rummy500Options().meld_rules
    assert table_values(read_meld(cards("AC 2C 3C"), rules), "both") == [1, 2, 3]
    assert table_values(read_meld(cards("QC KC AC"), rules), "both") == [10, 10, 15]
    around = Rummy500Options(aces="around").meld_rules
    assert table_values(read_meld(cards("AC 2C 3C"), around), "around") == [15, 2, 3]


# -- deal and turn order ----------------------------------------------------------------


def test_FHR_6_first_dealer_random_then_the_next_seat() -> None:
    dealers = {Rummy500Game.new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = rummy500(3, held=["2C", "4D 5D", "6H 7H"], phase="play")
    first = game.dealer
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.hand_number == 2 and game.dealer == (first + 1) % 3


@pytest.mark.parametrize(("players", "options", "each"),
                         [(2, {}, 13), (2, {"two_player_deal": 10}, 10), (3, {}, 7),
                          (8, {}, 7)])
def test_FHR_7_deal_sizes_upcard_and_stock(players: int, options: dict, each: int) -> None:
    game = new(players, **options)
    assert all(len(h) == each for h in game.hands)
    assert len(game.pile) == 1
    assert len(game.stock) == sum(game.inventory().values()) - players * each - 1


def test_FHR_8_left_of_the_dealer_moves_first() -> None:
    for seed in range(6):
        game = Rummy500Game.new(5, seed=seed)
        assert game.turn == (game.dealer + 1) % 5


def test_FHR_9_the_table_shows_everything_public_and_no_hand() -> None:
    game = rummy500(3, held=["10S JS 2C", "5C 8D", "KD QC 2H"], table=[(B, "7S 8S 9S")],
                    pile="4D 6S AH", turn=A, phase="play", totals=[10, -5, 40])
    game, _ = game.apply(LayOff(A, placed(*cards("10S JS")), 1))
    view = game.table_view()
    assert view.discard == tuple(cards("4D 6S AH")) and view.discard_marked == 3
    assert view.stock == len(game.stock)
    assert [p.pieces_left for p in view.players] == [1, 2, 3]
    assert [p.score for p in view.players] == ["10", "-5", "40"]
    assert [p.note for p in view.players] == ["table 20", "table 24", "table 0"]
    (meld,) = view.melds
    assert meld.number == 1 and meld.placers == (B, B, B, A, A)
    assert not hasattr(view, "hands")


# -- melds ---------------------------------------------------------------------------------


def test_FHR_10_a_meld_has_three_cards_or_more() -> None:
    game = rummy500(held=["9H 10H 2C", None], phase="play")
    with pytest.raises(IllegalMove, match="3 cards needed"):
        game.apply(MeldDown(P, groups("9H 10H")))


def test_FHR_11_runs_one_suit_consecutive_aces_both_ends() -> None:
    game = rummy500(held=["AH 2H 3H QS KS AS 4D 6D 5C", None], phase="play")
    game, _ = game.apply(MeldDown(P, groups("AH 2H 3H | QS KS AS")))
    assert [m.meld.codes for m in game.table] == ["AH 2H 3H", "QS KS AS"]
    refused(game, MeldDown(P, groups("4D 5C 6D")), "4D 5C 6D is not a run: 5C is not a diamond")


def test_FHR_12_set_three_or_four_of_a_rank_in_different_suits() -> None:
    game = rummy500(held=["9H 9S 9D 9C 2C", None], phase="play")
    after, _ = game.apply(MeldDown(P, groups("9H 9S 9D 9C")))
    assert after.table[0].meld.kind == "set" and len(after.table[0].meld) == 4


def test_FHR_13_a_joker_stands_for_one_card_a_set_holds_four_a_meld_needs_a_card() -> None:
    game = rummy500(held=["9H 9S 9D JK JK 2C 3C", None], phase="play", jokers=True)
    game, _ = game.apply(MeldDown(P, groups("9H 9S 9D JK")))
    refused(game, LayOff(P, placed(JOKER), 1))  # a set holds at most 4
    with pytest.raises(IllegalMove):
        game.apply(MeldDown(P, groups("JK 2C 3C | JK")))
    lone = rummy500(held=["JK JK JK 2C", None], phase="play", jokers=True, decks="2")
    refused(lone, MeldDown(P, (placed(JOKER, JOKER, JOKER),)),
            "a meld needs at least one natural card")


def test_FHR_14_lay_off_on_anyones_meld_chained_and_not_beyond_an_ace() -> None:
    game = rummy500(held=["7D 8D 2S KH", None], table=[(B, "4D 5D 6D"), (B, "AH 2H 3H"),
                                                        (B, "QS KS AS")], phase="play")
    game, _ = game.apply(LayOff(P, placed(card("7D")), 1))
    game, _ = game.apply(LayOff(P, placed(card("8D")), 1))  # on the 7 laid off before
    assert game.table[0].meld.codes == "4D 5D 6D 7D 8D"
    refused(game, LayOff(P, placed(card("2S")), 3),
            "2S does not fit meld 3: an ace is high or low, not both")
    refused(game, LayOff(P, placed(card("KH")), 2),
            "KH does not fit meld 2: an ace is high or low, not both")


def test_FHR_15_every_table_card_is_credited_to_its_placer() -> None:
    game = rummy500(held=["3D 7D KC", "8D 9D"], table=[(B, "4D 5D 6D")], phase="play")
    game, _ = game.apply(LayOff(A, placed(*cards("3D 7D")), 1))
    assert game.table[0].meld.codes == "3D 4D 5D 6D 7D"
    assert game.credit == [[A, B, B, B, A]]
    assert game.table[0].owner == B  # the meld stays whole and keeps its number
    assert (game.table_points(A), game.table_points(B)) == (10, 15)


# -- a turn --------------------------------------------------------------------------------


def test_FHR_16_one_acquisition_then_play_then_discard() -> None:
    game = rummy500(held=["4H 5H 6H 2C", "8S 9S"], stock="KD 3C")
    with pytest.raises(NotYourTurn, match="it is not your turn"):
        game.apply(Draw(B, "stock"))
    refused(game, MeldDown(A, groups("4H 5H 6H")), "draw or take first")
    refused(game, LayOff(A, placed(card("2C")), 1), "draw or take first")
    refused(game, Discard(A, card("2C")), "draw or take first")
    game, _ = game.apply(Draw(A, "stock"))
    refused(game, Draw(A, "stock"), "you have already drawn")
    refused(game, Take(A, card("9C"), tuple(cards("4H 5H"))), "you have already drawn")
    game, _ = game.apply(MeldDown(A, groups("4H 5H 6H")))
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.turn == B and game.phase == "draw"


def test_FHR_17_a_draw_is_told_to_the_drawer_only() -> None:
    game = rummy500(held=["4H 5H", "8S 9S"], stock="KD 3C")
    game, events = game.apply(Draw(A, "stock"))
    assert game.hands[A][-1] == card("KD")
    (event,) = events
    assert event.text == "{p0} drew from the stock." and event.private == "You drew KD."


def test_FHR_18_deep_take_must_be_used() -> None:
    game = rummy500(held=["4H 6H 9S", None], pile="2C 5H KD QH")
    refused(game, Take(P, card("5H")),
            "say how you use 5H: with:<cards> for a new meld or meld:<n> to lay it off")
    refused(game, Take(P, card("5D"), tuple(cards("4H 6H"))), "5D is not in the discard pile")
    refused(game, Take(P, card("5H"), tuple(cards("4H 7H"))), "you do not hold 7H")
    refused(game, Take(P, card("5H"), meld=3), "there is no meld 3 on the table")
    taken, _ = game.apply(Take(P, card("5H"), tuple(cards("4H 6H"))))
    assert taken.pile == cards("2C") and taken.credit == [[P, P, P]]
    assert sorted(taken.hands[P]) == sorted(cards("9S KD QH"))
    assert taken.known[P] == cards("KD QH")  # cards taken from the pile are public


def test_FHR_18_a_take_may_lay_off_on_any_meld_with_hand_cards() -> None:
    game = rummy500(held=["10S 2C 3D", None], pile="4H JS", table=[(B, "7S 8S 9S")])
    refused(game, Take(P, card("JS"), meld=1), "JS does not fit meld 1: 10S is missing")
    taken, _ = game.apply(Take(P, card("JS"), tuple(cards("10S")), meld=1))
    assert taken.table[0].meld.codes == "7S 8S 9S 10S JS" and taken.credit == [[B, B, B, P, P]]


def test_FHR_19_free_top_card_not_discarded_that_turn() -> None:
    game = rummy500(held=["2H 3H 8D", None], pile="4H 9C", free_top_card=True)
    taken, _ = game.apply(Take(P, card("9C")))
    refused(taken, Discard(P, card("9C")), "you took 9C from the discard pile this turn")
    after, _ = taken.apply(Discard(P, card("8D")))
    assert after.pile == cards("4H 8D")
    used, _ = game.apply(Take(P, card("4H"), tuple(cards("2H 3H"))))
    assert used.taken is None  # a used card locks nothing
    melded = rummy500(held=["7C 8C 2D 5S", None], pile="4H 9C", free_top_card=True)
    melded, _ = melded.apply(Take(P, card("9C")))
    melded, _ = melded.apply(MeldDown(P, groups("7C 8C 9C")))
    assert melded.taken is None  # melded later in the turn: nothing left to lock


def test_FHR_20_several_melds_all_or_nothing() -> None:
    game = rummy500(held=["4H 5H 6H 9C 9D 9S 2C 3D 5C", None], phase="play")
    refused(game, MeldDown(P, groups("4H 5H 6H | 9C 9D 2C")))
    after, _ = game.apply(MeldDown(P, groups("4H 5H 6H | 9C 9D 9S")))
    assert [m.number for m in after.table] == [1, 2]


def test_FHR_21_layoff_must_keep_the_meld_valid_no_limit() -> None:
    game = rummy500(held=["9S 10S JS QS 4D 4C", None], table=[(B, "5S 6S 7S"), (B, "4H 4S 4C")],
                    phase="play", decks="2")
    refused(game, LayOff(P, placed(card("9S")), 1), "9S does not fit meld 1: 8S is missing")
    game, _ = game.apply(LayOff(P, placed(card("4D")), 2))
    refused(game, LayOff(P, placed(card("4C")), 2))
    game = dataclasses.replace(game, hands=[cards("8S 9S 10S JS 2C"), game.hands[B]])
    for code in ("8S", "9S", "10S", "JS"):
        game, _ = game.apply(LayOff(P, placed(card(code)), 1))
    assert len(game.table[0].meld) == 7


def test_FHR_22_discard_any_card_even_one_just_taken() -> None:
    game = rummy500(held=["4H 6H 9S", None], pile="2C 5H KD")
    game, _ = game.apply(Take(P, card("5H"), tuple(cards("4H 6H"))))
    game, _ = game.apply(Discard(P, card("KD")))
    assert game.pile == cards("2C KD") and game.turn == 1


def test_FHR_23_going_out_by_discard_meld_layoff_or_take() -> None:
    game = rummy500(held=["2C", "4D 5D"], phase="play")
    out, events = game.apply(Discard(A, card("2C")))
    assert out.results[-1].winners == (A,) and out.hand_number == 2
    assert events[-1].kind in ("turn", "hand_started")
    layoff = rummy500(held=["7S", "4D 5D"], phase="play", table=[(B, "4S 5S 6S")])
    out, _ = layoff.apply(LayOff(A, placed(card("7S")), 1))
    assert out.results[-1].winners == (A,)
    strict = dataclasses.replace(layoff, options=Rummy500Options(discard_to_go_out=True))
    refused(strict, LayOff(A, placed(card("7S")), 1), "keep a card to discard")


# -- empty stock ---------------------------------------------------------------------------


def test_FHR_24_pile_mode_plays_on_until_both_are_empty() -> None:
    game = rummy500(held=["5C 6C", "8S 9S"], pile="2D", stock="", phase="play")
    after, _ = game.apply(Discard(A, card("5C")))
    assert after.hand_number == 1 and after.turn == B and after.phase == "draw"
    assert Take(B, card("5C")) not in after.takes(B) and after.take_positions(B) == []
    both = dataclasses.replace(after, pile=[], turn=A)
    events: list = []
    both._begin_turn(events)  # a turn begins with the stock and the pile empty
    assert both.hand_number == 2 and any("are empty" in e.text for e in events)


def test_FHR_25_reshuffle_at_most_twice_then_the_hand_ends() -> None:
    game = rummy500(held=["4H 7C 5S 6D", "KS KD 2C 3D"], pile="9C 2D KH", stock="", turn=A,
                    phase="play", stock_out="reshuffle")
    game, _ = game.apply(Discard(A, card("5S")))
    assert game.reshuffles == 1 and game.pile == cards("5S") and len(game.stock) == 3
    game = dataclasses.replace(game, stock=[], pile=cards("9C 2D 3H"), turn=A, phase="play",
                               reshuffles=2)
    game, events = game.apply(Discard(A, card("4H")))
    assert game.hand_number == 2 and any("cannot be refilled" in e.text for e in events)
    short = rummy500(held=["4H 7C", "KS KD 2C 3D"], pile="", stock="", turn=A, phase="play",
                     stock_out="reshuffle")
    short, _ = short.apply(Discard(A, card("4H")))  # one pile card: nothing to reshuffle
    assert short.hand_number == 2


def test_FHR_26_end_mode_ends_when_a_turn_begins_with_an_empty_stock() -> None:
    game = rummy500(held=["4H 7C", "KS KD"], pile="9C", stock="", turn=A, phase="play",
                    stock_out="end")
    game, _ = game.apply(Discard(A, card("4H")))
    assert game.hand_number == 2 and game.results[-1].winners == ()


# -- scoring and match ---------------------------------------------------------------------


def test_FHR_27_removed_players_scored_and_no_going_out_bonus() -> None:
    game = rummy500(held=["2C", "KD QD"], table=[(A, "4H 5H 6H")], phase="play")
    game.active[B] = False
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.results[-1].points == (15, -20)  # no bonus for A; B's cards count


def test_FHR_28_running_scores_may_go_below_zero() -> None:
    game = rummy500(held=["2C", "KD QD"], phase="play", totals=[0, 5])
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.totals == [0, -15]


def test_FHR_29_fixed_hands_end_the_game_and_ties_share() -> None:
    game = rummy500(held=["2C", "2D"], phase="play", hands=1, totals=[0, 2])
    over, _ = game.apply(Discard(A, card("2C")))
    assert over.is_over and over.totals == [0, 0] and over.winners == (A, B)
    target = rummy500(held=["2C", "KD"], phase="play", totals=[498, 0])
    target, _ = target.apply(Discard(A, card("2C")))
    assert not target.is_over  # 498 < 500


def test_FHR_30_went_out_finish_and_highest_finish() -> None:
    position = dict(held=["2C", "3D"], phase="play", totals=[500, 520])
    highest, _ = rummy500(**position).apply(Discard(A, card("2C")))  # type: ignore[arg-type]
    assert highest.winners == (B,)
    went, _ = rummy500(**position, finish="went_out").apply(  # type: ignore[arg-type]
        Discard(A, card("2C")))
    assert went.winners == (A,)


def test_FHR_31_a_tie_at_the_top_deals_another_hand() -> None:
    game = rummy500(held=["2C", "3D"], phase="play", totals=[503, 506])
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.totals == [503, 503] and not game.is_over and game.hand_number == 2


@pytest.mark.parametrize(("key", "value"), [("target", 99), ("target", 5001), ("hands", 0),
                                            ("hands", 51), ("turn_seconds", 5),
                                            ("two_player_deal", 11), ("decks", "3"),
                                            ("aces", "low"), ("stock_out", "never"),
                                            ("finish", "lowest")])
def test_FHR_32_out_of_range_options_are_refused(key: str, value: object) -> None:
    with pytest.raises(InvalidOptions):
        Rummy500Options.build(**{key: value})


def test_FHR_33_remi_and_rummy500_share_the_spread_pile_take() -> None:
    """One take machinery (DrawDiscardGame): Remi stops at position 3, Rummy 500 goes deep."""
    assert RemiGame.take_depth == 3 and Rummy500Game.take_depth is None
    assert RemiGame.takes is Rummy500Game.takes
    assert RemiGame._check_take is Rummy500Game._check_take
    game = rummy500(held=["4H 6H 9S", None], pile="5H 2C 3D KD QH")
    assert game.take_positions(P) == [5]
    assert game.takes(P) == [Take(P, card("5H"), tuple(cards("4H 6H")))]


# -- Discord (the engine's side; the bot's in test_rummy500_e2e.py) -----------------------------


def test_FHR_35_meld_views_carry_each_cards_placer() -> None:
    game = rummy500(held=["3D KC", None], table=[(B, "4D 5D 6D")], phase="play")
    game, _ = game.apply(LayOff(A, placed(card("3D")), 1))
    assert game.meld_views()[0].placers == (A, B, B, B)


def test_FHR_36_takes_and_the_end_of_a_hand_are_told() -> None:
    game = rummy500(held=["4H 6H 2C", "KD 3C"], pile="9C 5H QH", table=[(B, "7S 8S 9S")])
    game, events = game.apply(Take(A, card("5H"), tuple(cards("4H 6H"))))
    assert events[0].text == ("{p0} took 5H from position 2; QH went to their hand, and laid "
                              "meld 2: 4H 5H 6H.")
    game, _ = game.apply(Discard(A, card("QH")))
    game, _ = game.apply(Draw(B, "stock"))
    drawn = game.hands[B][-1]
    game = dataclasses.replace(game, hands=[cards("2C"), [*cards("KD 3C"), drawn]])
    game, _ = game.apply(Discard(B, drawn))
    game = dataclasses.replace(game, phase="play")
    game, events = game.apply(Discard(A, card("2C")))
    over = next(e for e in events if e.kind == "hand_over")
    assert over.text == ("{p0} went out. {p0}: table 15, hand no cards, +15 → 15; "
                         "{p1}: table 24, hand KD 3C = 13, +11 → 11.")


def test_FHR_37_a_hand_is_shown_to_its_owner_only() -> None:
    game = rummy500(held=["4H 6H 2C", "KD 3C"])
    assert game.hand_view(A).pieces == tuple(cards("4H 6H 2C"))
    assert game.hand_view(A).seat == A
    assert "4H" not in repr(game.table_view())


# -- timeouts ------------------------------------------------------------------------------


def test_FHR_38_no_timer_no_timeout() -> None:
    game = rummy500(held=["4H 6H", "KD 3C"], turn_seconds=0)
    refused(game, Timeout(A), "there is no turn timer in this game")


def test_FHR_39_timeout_keeps_melds_and_jokers_and_the_free_card() -> None:
    game = rummy500(held=["5H 6H 7H KS JK", None], phase="play", jokers=True)
    assert game.timeout_discard(A) == card("KS")
    only = rummy500(held=["5H 6H 7H JK", None], phase="play", jokers=True)
    assert only.timeout_discard(A) == card("7H")  # all in melds: all restored, joker kept
    free = rummy500(held=["2H 3C 8D", None], pile="4S AC", free_top_card=True)
    free, _ = free.apply(Take(A, card("AC")))
    assert free.timeout_discard(A) == card("8D")  # AC was taken this turn


def test_FHR_40_the_count_resets_when_the_player_ends_a_turn() -> None:
    game = rummy500(held=["4H 6H 9C", "KD 3C 8S"], turn_seconds=60)
    game, _ = game.apply(Timeout(A))
    assert game.timeouts == [1, 0]
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, game.hands[B][0]))
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(Discard(A, game.hands[A][0]))
    assert game.timeouts == [0, 0]


def test_FHR_41_third_timeout_removes_and_commands_are_refused() -> None:
    game = rummy500(3, held=["4H 6H 9C", "KD 3C 8S", "2S 5D 7C"], turn_seconds=60)
    game.timeouts[A] = 2
    game, _ = game.apply(Timeout(A))
    assert game.active == [False, True, True] and game.turn == B
    refused(game, Draw(A, "stock"), "you were removed from this hand for inactivity")
    assert game.timeouts[A] == 3


def test_FHR_42_one_active_player_left_ends_the_hand() -> None:
    game = rummy500(held=["4H 6H 9C", "KD 3C 8S"], turn_seconds=60, turn=B, phase="play")
    game.timeouts[B] = 2
    game, events = game.apply(Timeout(B))
    assert game.hand_number == 2 and game.results[-1].winners == ()
    assert any("last active player" in e.text for e in events)


def test_random_play_never_loses_a_card() -> None:
    """Properties over whole games (the contract test does more, for every variant)."""
    for seed in range(3):
        game = new(3, seed=seed, jokers=seed == 1)
        start = game.inventory()
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            game, _ = game.apply(rng.choice(game.legal_moves(seat)))
            assert game.inventory() == start
            assert len(game.credit) == len(game.table)
            assert all(len(c) == len(m.meld) for c, m in zip(game.credit, game.table,
                                                             strict=True))
