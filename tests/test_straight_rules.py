"""Straight Rummy, rule by rule (STR-1 … STR-43). Worked examples are in test_straight_examples."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions, NotYourTurn
from bot.engine.game import Timeout
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, placed
from bot.engine.notation import parse_list
from bot.engine.rng import Rng
from bot.engine.table import next_seat
from bot.engine.variants.straight import CARDS_DEALT, StraightGame, StraightOptions, card_value
from tests.engine_helpers import all_cards, card, cards, groups, refused, straight

A, B, C = 0, 1, 2


# -- Players and cards --------------------------------------------------------

def test_STR_1_seat_order_wraps_and_skips_inactive() -> None:
    assert next_seat(2, 3) == 0
    assert next_seat(0, 3, [True, False, True]) == 2
    game = straight(3, held=["2C 3C", "4D 4S", "5D 5S"], turn=C, phase="play", discard="9S")
    game, _ = game.apply(Discard(C, card("5D")))
    assert game.turn == A


@pytest.mark.parametrize("players", [1, 7])
def test_STR_2_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="needs 2 to 6 players"):
        StraightGame.new(players)


def test_STR_2_every_count_from_two_to_six_starts() -> None:
    for players in range(2, 7):
        assert StraightGame.new(players, seed=players).players == players


def test_STR_3_one_pack_and_no_jokers() -> None:
    game = straight(2, held=["2C 3C 4C", "5D"], phase="play", discard="9S")
    assert Counter(all_cards(StraightGame.new(4, seed=3))) == Counter(card_deck(1))
    move = MeldDown(A, (((card("2C"), None), (JOKER, None), (card("4C"), None)),))
    refused(game, move, "there are no jokers in Straight Rummy")
    with pytest.raises(IllegalMove, match="there are no jokers in Straight Rummy"):
        game.resolve(A, parse_list("JK"))


@pytest.mark.parametrize("text, low, other", [("AS", 1, 15), ("2H", 2, 2), ("10D", 10, 10),
                                              ("JC", 10, 10), ("QS", 10, 10), ("KH", 10, 10)])
def test_STR_4_card_values(text: str, low: int, other: int) -> None:
    assert card_value(card(text), "low") == low
    for aces in ("high", "both", "around"):
        assert card_value(card(text), aces) == other


@pytest.mark.parametrize("players, dealt", list(CARDS_DEALT.items()))
def test_STR_5_cards_dealt(players: int, dealt: int) -> None:
    game = StraightGame.new(players, seed=11)
    assert [len(h) for h in game.hands] == [dealt] * players
    assert dealt == {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[players]


def test_STR_6_first_dealer_random_then_clockwise() -> None:
    dealers = {StraightGame.new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = straight(2, held=["2C", "9H"], phase="play", discard="5D", hands=3)
    game.played_before[A] = True
    first_dealer = game.dealer
    game, _ = game.apply(Discard(A, card("2C")))
    assert game.hand_number == 2 and game.dealer == (first_dealer + 1) % 2


def test_STR_7_deal_procedure() -> None:
    """One at a time from the dealer's left; the next card up; the rest is the stock."""
    for players in (2, 3, 6):
        seed = 1234 + players
        game = StraightGame.new(players, seed=seed)
        rng = Rng.from_seed(seed)
        dealer = rng.below(players)
        deck = card_deck(1)
        rng.shuffle(deck)
        dealt = CARDS_DEALT[players]
        expected = [[] for _ in range(players)]
        for i in range(dealt * players):
            expected[(dealer + 1 + i) % players].append(deck[i])
        assert game.dealer == dealer
        assert game.hands == expected
        assert game.discard == [deck[dealt * players]]
        assert game.stock[::-1] == deck[dealt * players + 1:]


def test_STR_8_first_turn_left_of_dealer() -> None:
    for seed in range(10):
        game = StraightGame.new(5, seed=seed)
        assert game.turn == (game.dealer + 1) % 5 == game.to_move


def test_STR_9_public_information_only() -> None:
    game = StraightGame.new(3, seed=5)
    view = game.table_view()
    assert view.discard == (game.discard[-1],)
    assert view.stock == len(game.stock)
    assert [p.pieces_left for p in view.players] == [7, 7, 7]
    text = repr(view)
    for hand in game.hands:
        # A hand's codes may coincide with the top discard, never more.
        assert not any(f"Card({c.code})" in text for c in hand if c != game.discard[-1])


# -- Melds --------------------------------------------------------------------

def test_STR_10_a_meld_has_at_least_three_cards() -> None:
    game = straight(2, held=["2C 3C 9D", "5D"], phase="play", discard="9S")
    refused(game, MeldDown(A, groups("2C 3C")), "2C 3C is not a valid meld: 3 cards needed")


@pytest.mark.parametrize("aces, text, valid", [
    ("low", "AH 2H 3H", True), ("low", "QH KH AH", False),
    ("high", "QH KH AH", True), ("high", "AH 2H 3H", False),
    ("both", "AH 2H 3H", True), ("both", "QH KH AH", True), ("both", "KH AH 2H", False),
    ("around", "KH AH 2H", True), ("around", "QH KH AH 2H 3H", True),
    ("around", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True),
])
def test_STR_11_runs_by_aces_setting(aces: str, text: str, valid: bool) -> None:
    game = straight(2, held=[text + " 9S", "5D"], phase="play", discard="9C", aces=aces)
    move = MeldDown(A, groups(text))
    if valid:
        game.apply(move)
    else:
        refused(game, move)


def test_STR_12_sets_of_three_or_four_different_suits() -> None:
    game = straight(2, held=["7S 7H 7D 7C 9S", "5D"], phase="play", discard="9C")
    game.apply(MeldDown(A, groups("7S 7H 7D")))
    after, _ = game.apply(MeldDown(A, groups("7S 7H 7D 7C")))
    assert after.table[0].meld.kind == "set"


def test_STR_13_typed_order_does_not_matter_runs_print_in_rank_order() -> None:
    game = straight(2, held=["9S 7S 8S 2C", "5D"], phase="play", discard="9C")
    game, _ = game.apply(MeldDown(A, groups("9S 7S 8S")))
    assert game.table[0].meld.codes == "7S 8S 9S"


def test_STR_14_lay_off_on_any_meld_and_owner_recorded() -> None:
    game = straight(3, held=["10S 2C", "4D", "5D"], phase="play", discard="9C",
                    table=[(B, "7S 8S 9S")])
    game, _ = game.apply(LayOff(A, placed(card("10S")), 1))
    assert game.table[0].owner == B and game.table[0].meld.codes == "7S 8S 9S 10S"


def test_STR_15_melds_stay_numbered_and_are_never_split() -> None:
    game = straight(2, held=["10S 6S 4D 4C 4H 2C", "5D"], phase="play", discard="9C",
                    table=[(B, "7S 8S 9S")])
    game, _ = game.apply(LayOff(A, placed(*cards("6S 10S")), 1))
    game, _ = game.apply(MeldDown(A, groups("4D 4C 4H")))
    assert [(m.number, m.meld.codes) for m in game.table] == [(1, "6S 7S 8S 9S 10S"),
                                                              (2, "4H 4D 4C")]
    assert {m.kind for m in StraightGame.move_types} == {"draw", "meld", "layoff", "discard",
                                                          "timeout"}


# -- A turn -------------------------------------------------------------------

def test_STR_16_only_the_player_to_move_acts() -> None:
    game = StraightGame.new(3, seed=2)
    other = (game.turn + 1) % 3
    with pytest.raises(NotYourTurn, match="it is not your turn"):
        game.apply(Draw(other, "stock"))
    assert game.legal_moves(other) == []


def test_STR_18_draw_one_card_and_only_once() -> None:
    game = straight(2, held=["2C 9D", "5D"], stock="KH", discard="7S 3H")
    after, events = game.apply(Draw(A, "stock"))
    assert card("KH") in after.hands[A] and len(after.stock) == len(game.stock) - 1
    (event,) = [e for e in events if e.kind == "draw"]
    assert "KH" not in event.text and event.private == "You drew KH."
    refused(after, Draw(A, "discard"), "you have already drawn this turn")
    taken, events = game.apply(Draw(A, "discard"))
    assert card("3H") in taken.hands[A] and taken.discard == cards("7S")
    assert "3H" in next(e for e in events if e.kind == "draw").text
    refused(game, MeldDown(A, groups("2C 3C 4C")), "draw first")
    refused(game, LayOff(A, placed(card("2C")), 1), "draw first")


def test_STR_19_several_melds_all_or_nothing() -> None:
    game = straight(2, held=["2C 3C 4C 8S 8H 9D KD", "5D"], phase="play", discard="9C")
    refused(game, MeldDown(A, groups("2C 3C 4C | 8S 8H 9D")), "8S 8H 9D is not a set: 9D is "
            "not a 8")
    ok = straight(2, held=["2C 3C 4C 8S 8H 8D KD", "5D"], phase="play", discard="9C")
    after, _ = ok.apply(MeldDown(A, groups("2C 3C 4C | 8S 8H 8D")))
    assert [m.number for m in after.table] == [1, 2]


def test_STR_20_lay_off_on_both_ends() -> None:
    game = straight(2, held=["3S 7S 9D", "5D"], phase="play", discard="9C",
                    table=[(B, "4S 5S 6S")])
    game, _ = game.apply(LayOff(A, placed(*cards("7S 3S")), 1))
    assert game.table[0].meld.codes == "3S 4S 5S 6S 7S"


def test_STR_21_melds_and_lay_offs_in_any_order() -> None:
    game = straight(2, held=["2C 3C 4C 10S 5C KD", "5D"], phase="play", discard="9C",
                    table=[(B, "7S 8S 9S")])
    game, _ = game.apply(LayOff(A, placed(card("10S")), 1))
    game, _ = game.apply(MeldDown(A, groups("2C 3C 4C")))
    game, _ = game.apply(LayOff(A, placed(card("5C")), 2))
    assert len(game.hands[A]) == 1 and game.phase == "play"


def test_STR_22_any_card_may_be_discarded_even_the_taken_one() -> None:
    game = straight(2, held=["2C 9D", "5D 6D"], discard="7S")
    game, _ = game.apply(Draw(A, "discard"))
    game, _ = game.apply(Discard(A, card("7S")))
    assert game.discard[-1] == card("7S") and game.turn == B


def test_STR_23_discard_to_go_out_refuses_emptying_by_lay_off() -> None:
    game = straight(2, held=["10S", "5D"], phase="play", discard="9C",
                    table=[(B, "7S 8S 9S")], discard_to_go_out=True)
    refused(game, LayOff(A, placed(card("10S")), 1), "keep a card to discard")


def test_STR_24_taken_card_rule_is_off_by_default() -> None:
    game = straight(2, held=["5D 6D 7D", "KS"], discard="8C")
    game, _ = game.apply(Draw(A, "discard"))
    game.apply(Discard(A, card("8C")))


def test_STR_25_lay_offs_unaffected_by_one_meld_per_turn() -> None:
    game = straight(2, held=["5D 6D 7D 8D 9D 10D", "KS"], phase="play", discard="9C",
                    one_meld_per_turn=True)
    game, _ = game.apply(MeldDown(A, groups("5D 6D 7D")))
    game, _ = game.apply(LayOff(A, placed(card("8D")), 1))
    game, _ = game.apply(LayOff(A, placed(card("9D")), 1))
    assert game.table[0].meld.codes == "5D 6D 7D 8D 9D"


def test_STR_26_own_meld_earlier_in_the_turn_counts() -> None:
    game = straight(2, held=["5D 6D 7D 10S 2C", "KS"], phase="play", discard="9C",
                    table=[(B, "7S 8S 9S")], meld_before_layoff=True)
    refused(game, LayOff(A, placed(card("10S")), 1), "lay down a meld of your own first")
    game, _ = game.apply(MeldDown(A, groups("5D 6D 7D")))
    game, _ = game.apply(LayOff(A, placed(card("10S")), 1))
    assert game.table[0].meld.codes == "7S 8S 9S 10S"


def test_STR_27_accepted_moves_are_final() -> None:
    game = straight(2, held=["5D 6D 7D 2C", "KS"], phase="play", discard="9C")
    after, _ = game.apply(MeldDown(A, groups("5D 6D 7D")))
    assert not any(m.kind in ("undo", "take") for m in StraightGame.move_types)
    assert after.table and not game.table  # the old value is untouched, the new one final


def test_STR_28_going_out_by_discard_ends_the_hand_at_once() -> None:
    game = straight(3, held=["9C", "4D 5D 6D", "KS"], phase="play", discard="3C", hands=1)
    game.played_before[A] = True
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.is_over and game.results[-1].winners == (A,)
    assert game.results[-1].held[B] == tuple(cards("4D 5D 6D"))  # B never got to meld


def test_STR_29_not_rummy_after_an_earlier_meld() -> None:
    game = straight(2, held=["2C 3C 4C 9S 10S", "KS QD"], stock="8H 2D JS", discard="5D",
                    hands=1)
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(MeldDown(A, groups("2C 3C 4C")))
    game, _ = game.apply(Discard(A, card("8H")))
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, card("2D")))
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(MeldDown(A, groups("9S 10S JS")))
    assert game.results[-1].notes[A] == "went out"
    assert game.scores == [20, 0]  # no doubling


def test_STR_29_rummy_with_melds_and_lay_off_in_one_turn() -> None:
    game = straight(2, held=["2C 3C 4C 10S", "KS"], stock="9D", discard="5D",
                    table=[(B, "7S 8S 9S")], hands=1)
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(LayOff(A, placed(card("10S")), 1))
    game, _ = game.apply(MeldDown(A, groups("2C 3C 4C")))
    game, _ = game.apply(Discard(A, card("9D")))
    assert game.results[-1].notes[A] == "went rummy"
    assert game.scores == [20, 0]


def test_STR_30_a_hand_ends_three_ways() -> None:
    out = straight(2, held=["9C", "KS"], phase="play", discard="3C", hands=1)
    out.played_before[A] = True
    assert out.apply(Discard(A, card("9C")))[0].results[-1].summary.endswith("went out.")
    empty = straight(2, held=["9C 8C", "KS"], phase="play", discard="3C", stock="",
                     stock_out="end", hands=1)
    assert "no winner" in empty.apply(Discard(A, card("9C")))[0].results[-1].summary
    last = straight(2, held=["9C 8C", "KS QS"], turn=B, stock="2D 3D", discard="3C",
                    hands=1)
    last.timeouts[B] = 2
    assert "last active player" in last.apply(Timeout(B))[0].results[-1].summary


def test_STR_44_two_reshuffles_then_the_next_empty_stock_is_a_stalemate() -> None:
    # Seat A discards the last card it can; B's turn begins with an empty stock after the
    # second reshuffle of the hand: no third reshuffle, the hand ends with no winner.
    game = straight(2, held=["9C 8C", "KS 2H"], phase="play", discard="3C 4D 5S", stock="",
                    hands=2)
    game = dataclasses.replace(game, reshuffles=2)
    after, events = game.apply(Discard(A, card("9C")))
    result = after.results[-1]
    assert result.number == 1 and result.winners == () and result.points == (0, 0)
    assert result.summary.startswith("Stalemate: the stock ran out after 2 reshuffles")
    assert [e.kind for e in events if e.kind in ("reshuffle", "hand_over")] == ["hand_over"]
    assert "Stalemate" in next(e.text for e in events if e.kind == "hand_over")
    assert after.stalemates == [1] and after.hand_number == 2 and after.reshuffles == 0
    assert "stalemate" in after.result_view().title
    assert StraightGame.from_json(after.to_json()) == after


def test_STR_44_is_scored_like_stock_out_end() -> None:
    game = straight(2, held=["9C 8C", "KS 2H"], phase="play", discard="3C 4D", stock="",
                    penalty_scoring=True, hands=1)
    game = dataclasses.replace(game, reshuffles=2)
    over, _ = game.apply(Discard(A, card("9C")))
    assert over.is_over and over.scores == [8, 12]  # STR-33: own hand value, no bonus
    assert over.result_view().placings[0].seat == A


def test_STR_44_the_first_two_reshuffles_still_happen() -> None:
    game = straight(2, held=["9C 8C", "KS 2H"], phase="play", discard="3C 4D 5S", stock="",
                    hands=1)
    once, events = game.apply(Discard(A, card("9C")))
    assert once.reshuffles == 1 and not once.results and len(once.stock) == 3
    assert "1 more reshuffle allowed" in next(e.text for e in events if e.kind == "reshuffle")
    second = dataclasses.replace(game, reshuffles=1)
    twice, events = second.apply(Discard(A, card("9C")))
    assert twice.reshuffles == 2 and not twice.results and twice.to_move == B
    assert "last reshuffle" in next(e.text for e in events if e.kind == "reshuffle")


def test_STR_44_a_hand_that_reshuffled_for_ever_now_ends() -> None:
    # Seed 39, random player in seat A, computer in seat B: before STR-44 this hand was still
    # running after 2,000 moves (21 reshuffles); now it ends in a stalemate.
    import random

    from bot.ai.random_player import random_move
    from bot.ai.straight import choose_move

    players = (random_move, choose_move)
    game = StraightGame.new(2, StraightOptions(hands=1), 39)
    rng = random.Random(39)
    for _ in range(2000):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        game, _ = game.apply(players[seat](game, seat, rng))
    assert game.is_over and game.reshuffles <= 2


# -- Scoring and match -----------------------------------------------------------

def test_STR_31_only_the_winner_scores() -> None:
    game = straight(3, held=["9C", "KS", "2D 3D"], phase="play", discard="3C", hands=2)
    game.played_before[A] = True
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.results[-1].points == (15, 0, 0)


def test_STR_32_rummy_bonus_ten() -> None:
    game = straight(2, held=["2C 3C 4C", "KS"], stock="9D", discard="5D",
                    rummy_bonus="ten", hands=1)
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(MeldDown(A, groups("2C 3C 4C")))
    game, _ = game.apply(Discard(A, card("9D")))
    assert game.scores == [20, 0]


def test_STR_33_no_bonus_without_a_winner() -> None:
    game = straight(2, held=["9C 8C", "KS"], phase="play", discard="3C", stock="",
                    stock_out="end", penalty_scoring=True, rummy_bonus="double", hands=1)
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.scores == [8, 10]


def test_STR_34_penalty_scoring_losers_add_their_payment() -> None:
    game = straight(3, held=["9C", "KS", "2D 3D"], phase="play", discard="3C",
                    penalty_scoring=True, hands=2)
    game.played_before[A] = True
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.results[-1].points == (0, 10, 5)


def test_STR_35_cumulative_scores_shown_after_every_hand() -> None:
    game = straight(2, held=["9C", "KS"], phase="play", discard="3C", hands=3)
    game.played_before[A] = True
    game, events = game.apply(Discard(A, card("9C")))
    (over,) = [e for e in events if e.kind == "hand_over"]
    assert "{p0} 10" in over.text and "{p1} 0" in over.text
    assert game.results[-1].totals == (10, 0)
    assert game.table_view().players[A].score == "10"


def test_STR_36_fixed_number_of_hands_overrides_target() -> None:
    game = straight(2, held=["9C", "KS"], phase="play", discard="3C", hands=2, target=5)
    game.played_before[A] = True
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.scores[A] == 10 and not game.is_over and game.hand_number == 2


def test_STR_37_tied_players_share_the_match_win() -> None:
    game = straight(3, held=["9C", "KS", "KD"], phase="play", discard="3C", hands=1,
                    penalty_scoring=True)
    game.played_before[A] = True
    game.scores[:] = [20, 0, 0]
    game, _ = game.apply(Discard(A, card("9C")))
    assert game.scores == [20, 10, 10]
    assert game.winners == (B, C)


# -- Options and timeouts --------------------------------------------------------

@pytest.mark.parametrize("key, value", [("target", 0), ("target", 10001), ("hands", 0),
                                        ("hands", 101), ("turn_seconds", 5),
                                        ("turn_seconds", 601), ("aces", "sideways"),
                                        ("stock_out", "stop"), ("rummy_bonus", "triple"),
                                        ("penalty_scoring", "yes"), ("colour", 1)])
def test_STR_38_out_of_range_options_are_refused(key: str, value: object) -> None:
    with pytest.raises(InvalidOptions):
        StraightOptions.build(**{key: value})


def test_STR_38_options_are_fixed_for_the_game() -> None:
    game = StraightGame.new(2, StraightOptions.build(aces="around", turn_seconds=0), seed=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.options.aces = "low"  # type: ignore[misc]
    assert StraightOptions.build(turn_seconds=0).turn_seconds == 0
    assert StraightOptions().describe() == "standard rules"
    assert StraightOptions.build(aces="high", target=200).describe() == "aces: high · target: 200"


def test_STR_39_no_timer_no_timeout() -> None:
    game = straight(2, held=["9C 8C", "KS"], discard="3C", turn_seconds=0)
    refused(game, Timeout(A), "there is no turn timer in this game")
    assert straight(2, held=["9C", "KS"], discard="3C").turn_seconds == 90


def test_STR_40_timeout_after_drawing_and_taken_card_excluded() -> None:
    game = straight(2, held=["KD QC 3S", "KS"], discard="KH", no_discard_of_taken_card=True)
    game, _ = game.apply(Draw(A, "discard"))
    game, _ = game.apply(Timeout(A))
    assert game.discard[-1] == card("KD")  # KH was taken; KD beats QC on rank
    assert card("KH") in game.hands[A]


def test_STR_40_cards_in_melds_are_kept_unless_all_are() -> None:
    game = straight(2, held=["4C 5C 6C 7C", "KS"], stock="8C", discard="3C")
    game, _ = game.apply(Timeout(A))
    assert game.discard[-1] == card("8C")  # every card is in some meld: the highest goes


def test_STR_41_own_discard_resets_the_count() -> None:
    game = straight(2, held=["9C 8C 2D", "KS QS JD"], discard="3C", stock="2H 3H 4H 5H")
    game, _ = game.apply(Timeout(A))
    assert game.timeouts[A] == 1
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(Discard(B, card("3H")))
    game, _ = game.apply(Draw(A, "stock"))
    game, _ = game.apply(Discard(A, card("4H")))
    assert game.timeouts[A] == 0


def test_STR_41_timeout_whose_discard_goes_out_still_counts() -> None:
    game = straight(2, held=["9C", "KS 2D"], phase="play", discard="3C", hands=2)
    game.timeouts[A] = 1
    game, _ = game.apply(Timeout(A))  # the bot discards A's last card: A goes out
    assert game.results[-1].winners == (A,) and game.hand_number == 2
    assert game.timeouts[A] == 2  # +1, not reset: A did not end the turn themselves


def test_STR_41_going_out_by_a_meld_resets_the_count() -> None:
    game = straight(2, held=["4S 4H 4D", "KS 2D"], phase="play", discard="3C", hands=2)
    game.timeouts[A] = 2
    game, _ = game.apply(MeldDown(A, groups("4S 4H 4D")))
    assert game.results[-1].winners == (A,) and game.timeouts[A] == 0


def test_STR_41_count_carries_over_between_hands() -> None:
    game = straight(2, held=["9C 8C 2D", "KS"], discard="3C", stock="2H 3H", hands=3)
    game.timeouts[A] = 2
    game.played_before[B] = True
    game, _ = game.apply(Timeout(A))
    assert game.timeouts[A] == 3 and game.results[-1].winners == (B,)  # STR-43
    assert game.hand_number == 2 and game.timeouts[A] == 3


def test_STR_42_removed_player_is_dealt_into_the_next_hand() -> None:
    game = straight(3, held=["9C 8C 2D", "JS QS", "5D 7H"], discard="3C", stock="2H KS",
                    hands=2)
    game.timeouts[A] = 2
    game, _ = game.apply(Timeout(A))
    assert not game.active[A]
    assert game.table_view().players[A].state.value == "out"
    game.played_before[B] = True
    game, _ = game.apply(Draw(B, "stock"))
    game, _ = game.apply(MeldDown(B, groups("JS QS KS")))
    assert game.hand_number == 2 and all(game.active) and len(game.hands[A]) == 7


def test_STR_43_last_active_player_wins_without_rummy() -> None:
    game = straight(2, held=["9C 8C 2D", "KS"], discard="3C", stock="2H 3H", hands=1)
    game.timeouts[A] = 2
    game, _ = game.apply(Timeout(A))
    assert game.results[-1].winners == (B,)
    assert game.results[-1].notes[B] == "went out"
    assert game.scores[B] == sum(card_value(c, "low") for c in game.results[-1].held[A])


def test_NOT_11_melds_are_numbered_in_the_order_laid() -> None:
    game = straight(2, held=["2C 3C 4C 8S 8H 8D 5C KD", "5D"], phase="play", discard="9C")
    game, _ = game.apply(MeldDown(A, groups("8S 8H 8D")))
    game, _ = game.apply(MeldDown(A, groups("2C 3C 4C")))
    game, _ = game.apply(LayOff(A, placed(card("5C")), 2))
    assert [(m.number, m.meld.codes) for m in game.table] == [(1, "8S 8H 8D"),
                                                              (2, "2C 3C 4C 5C")]
    assert [m.number for m in game.table_view().melds] == [1, 2]
