"""Rummi rules RMI-1 … RMI-32 through the engine (40-rummi.md).

Settlement (RMI-22 … RMI-28) and the melds/Tien Hu search (RMI-8, RMI-10 …
RMI-12) are tested on their own modules in test_rummi_chips.py and
test_rummi_tienhu.py; here they are checked as the game uses them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions
from bot.engine.game import Timeout
from bot.engine.moves import Done, MeldDown, placed
from bot.engine.table import deal_in_batches
from bot.engine.variants.rummi import (
    Leave,
    RummiGame,
    RummiOptions,
    add_targets,
    auto_play,
    is_new_meld,
    new_meld_reading,
)
from tests.engine_helpers import card, cards, groups, refused
from tests.rummi_helpers import add, dealt, meld, melds_text, play, rummi, who

FILL = ["10S JS QS KS", "10H JH QH KH", "QD QD QC QC", "4D 4D 4S 4S", "8C 8C 8D 8D"]
E2_HAND = "2S 2S 3S 5S 6S 8S 9S 2H 3H 5H 6H 8H 9H 2D 3D 5D 6D 8C 9C KC"


# -- players, cards, deal (RMI-1 … RMI-6) ---------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_RMI_1_two_to_five_players(players: int) -> None:
    assert RummiGame.new(players, seed=players).players == players


@pytest.mark.parametrize("players", [1, 6])
def test_RMI_1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidOptions):
        RummiGame.new(players)


def test_RMI_2_two_packs_and_eight_jokers() -> None:
    game = RummiGame.new(4, seed=5)
    assert sum(game.deck().values()) == 112 and game.deck()[JOKER] == 8
    assert game.inventory() == Counter(card_deck(2, 8))


@pytest.mark.parametrize(("players", "rest"), [(2, 72), (3, 52), (4, 32), (5, 12)])
def test_RMI_5_twenty_each_and_the_rest_set_aside(players: int, rest: int) -> None:
    game = RummiGame.new(players, seed=11)
    assert all(len(h) == 20 for h in game.hands) or game.is_over
    assert len(game.set_aside) == rest


def test_RMI_5_batches_of_four_anticlockwise_from_the_dealers_right() -> None:
    deck = list(range(100))
    hands = deal_in_batches(deck, 4, first=2, count=20, batch=4, step=-1)
    assert hands[2][:8] == [0, 1, 2, 3, 16, 17, 18, 19]
    assert hands[1][:4] == [4, 5, 6, 7] and hands[0][:4] == [8, 9, 10, 11]
    assert hands[3][:4] == [12, 13, 14, 15]  # the dealer (seat 3) last
    assert deck == list(range(80, 100))


def test_RMI_3_RMI_6_turns_go_anticlockwise_from_the_dealers_right() -> None:
    game = RummiGame.new(5, seed=7)
    dealer = game.dealer
    assert game.turn_order() == [(dealer - 1 - i) % 5 for i in range(5)]
    assert game.to_move == (dealer - 1) % 5 or game.out[(dealer - 1) % 5]


def test_RMI_6_turns_skip_players_who_are_out() -> None:
    a, _b, c, _d = who()
    game = rummi(held=[FILL[0], "2C 9D", FILL[2], FILL[3]], out=[False, True, False, False])
    game = play(game, meld(a, "10S JS QS"))
    assert game.to_move == c


def test_RMI_4_first_dealer_random_then_the_deal_passes_anticlockwise() -> None:
    dealers = {RummiGame.new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = RummiGame.new(3, RummiOptions(games=3), seed=2)
    first = game.dealer
    while game.game_number == 1:
        game, _ = game.apply(Timeout(game.to_move))
    assert game.dealer == (first - 1) % 3


# -- checks before play (RMI-7 … RMI-9) -----------------------------------------


def test_RMI_7_RMI_9_no_passport_is_out_before_play() -> None:
    game = dealt(4, ["QH KH AH", E2_HAND], seed=4)
    b = game.turn_order()[1]
    assert game.out[b] and game.notes[b] == "no passport"


def test_RMI_7_RMI_21_game_ends_before_play_when_one_is_left() -> None:
    game = dealt(2, ["QH KH AH", E2_HAND], seed=4)
    a, b = game.turn_order()
    assert game.is_over and game.results[-1].winners in ((a,), (b,), (a, b))
    assert sum(game.results[-1].points) == 0 and game.table == []


def test_RMI_7_tien_hu_checked_before_no_passport() -> None:
    game = dealt(3, ["2C 3C 4C", E2_HAND.replace("KC", "JK")], seed=4)
    b = game.turn_order()[1]
    assert game.is_over and game.results[-1].winners == (b,)
    assert game.payments[-1][0].reason == "tien_hu"


# -- melds and plays (RMI-13 … RMI-17) ------------------------------------------


def test_RMI_13_a_played_joker_keeps_its_card_and_never_returns() -> None:
    a, *_ = who()
    game = rummi(held=["5H JK 7H 8H " + FILL[0], *FILL[1:4]])
    game = play(game, meld(a, "5H JK 7H"))
    joker_face = game.table[0].meld.faces[1]
    assert joker_face.rank == 6
    game = play(game, *[meld(s, t) for s, t in zip(who()[1:], ["10H JH QH", "QD QD QC",
                                                                 "4D 4D 4S"], strict=True)])
    game = play(game, add(a, "8H", 1))
    assert game.table[0].meld.faces[1] == joker_face and JOKER not in game.hands[a]


def test_RMI_14_anyone_with_a_passport_adds_to_any_meld() -> None:
    a, b, *_ = who()
    game = rummi(held=[FILL[0], "8H " + FILL[1], *FILL[2:4]], table=[(a, "5H 6H 7H")], turn=b)
    game = play(game, add(b, "8H", 1))
    assert melds_text(game) == ["5H 6H 7H 8H"] and game.table[0].owner == a


def test_RMI_15_new_melds_are_three_cards_and_adds_one_card() -> None:
    a, *_ = who()
    game = rummi(held=["3S 3S 3H 3D 9C 10C " + FILL[0], *FILL[1:4]], table=["5C 6C 7C"])
    refused(game, meld(a, "3S 3S 3H 3D"),
            "a new kill is exactly 3 cards: lay 3, then add one card per play")
    refused(game, meld(a, "3S 3S"), "a new meld is exactly 3 cards")
    refused(game, MeldDown(a, groups("3S 3S 3H | 10S JS QS")), "lay one new meld per play")
    refused(game, add(a, "9C 10C", 1), "add one card per play")
    refused(game, add(a, "10C", 1), "10C does not fit meld 1: 8C and 9C are missing")
    assert melds_text(play(game, meld(a, "3S 3S 3H"))) == ["5C 6C 7C", "3S 3S 3H"]


def test_RMI_15_an_ace_fitting_both_ends_goes_high() -> None:
    a, *_ = who()
    game = rummi(held=["AS 9C", FILL[1], FILL[2], FILL[4]],
                 table=["2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"])
    grown = play(game, add(a, "AS", 1)).table[0].meld
    assert grown.faces[-1].rank == 1 and grown.pieces[-1] == card("AS")


def test_RMI_16_one_play_ends_the_turn_and_done_is_refused() -> None:
    a, b, *_ = who()
    game = rummi(held=[FILL[0], *FILL[1:4]])
    refused(game, Done(a), "with plays_per_turn one your turn ends by itself after your play")
    game = play(game, meld(a, "10S JS QS"))
    assert game.to_move == b and game.actions == 0


def test_RMI_16_many_needs_a_play_before_done_and_only_the_player_on_turn() -> None:
    a, b, *_ = who()
    game = rummi(held=[FILL[0] + " 9H", *FILL[1:4]], plays_per_turn="many")
    refused(game, Done(a), "make a play first: a turn cannot be passed")
    refused(game, meld(b, "10H JH QH"))
    game = play(game, meld(a, "10S JS QS"), add(a, "KS", 1))
    assert game.to_move == a and game.hands[a] == cards("9H")
    assert game.legal_moves(a)[0] == Done(a)


def test_RMI_17_kills_and_adds_wait_for_the_passport_even_in_the_same_turn() -> None:
    a, *_ = who()
    game = rummi(held=["7S 7H 7D 2C 3C 4C 5C " + FILL[0], *FILL[1:4]], passport=False,
                 table=["8S 9S 10S"], plays_per_turn="many")
    refused(game, meld(a, "7S 7H 7D"), "your first play must be a 3-card sequence (passport)")
    refused(game, add(a, "7S", 1), "no passport yet: lay a 3-card sequence first")
    game = play(game, meld(a, "2C 3C 4C"), meld(a, "7S 7H 7D"), add(a, "5C", 2))
    assert melds_text(game)[1:] == ["2C 3C 4C 5C", "7S 7H 7D"]


def test_RMI_17_a_designated_kill_is_no_passport() -> None:
    a, *_ = who()
    game = rummi(held=["5D JK JK " + FILL[0], *FILL[1:4]], passport=False)
    refused(game, MeldDown(a, groups("5D JK=5 JK")),
            "your first play must be a 3-card sequence (passport)")
    game = play(game, meld(a, "5D JK JK"))
    assert game.table[0].meld.is_run


# -- out of the game (RMI-18, RMI-19) --------------------------------------------


def test_RMI_18_no_play_at_turn_start_is_out() -> None:
    a, b, c, _d = who()
    game = rummi(held=[FILL[0], "2C 9D 5D", FILL[2], FILL[3]], table=["5H 6H 7H"])
    game = play(game, meld(a, "10S JS QS"))
    assert game.out[b] and game.notes[b] == "no play" and game.to_move == c


def test_RMI_18_before_the_passport_only_a_sequence_counts() -> None:
    a, b, c, _d = who()
    game = rummi(held=[FILL[0], "9D 9D 9S 8H", FILL[2], FILL[3]], table=["5H 6H 7H"],
                 passport=[True, False, True, True])
    game = play(game, meld(a, "10S JS QS"))
    assert game.out[b] and game.notes[b] == "no passport" and game.to_move == c


def test_RMI_19_an_out_player_takes_no_part_and_is_scored() -> None:
    a, b, c, _d = who()
    game = rummi(held=[FILL[0], "2C 9D KS", FILL[2], FILL[3]], out=[False, True, False, False])
    refused(game, meld(b, "2C 9D KS"), "you are out in this game")
    game = play(game, meld(a, "10S JS QS"))
    assert game.to_move == c
    assert game.settlement(None).points[b] == 2 + 9 + 10


# -- ending a game (RMI-20, RMI-21) -----------------------------------------------


def test_RMI_20_last_card_is_a_hu() -> None:
    a, _b, _c, d = who()
    game = rummi(held=["8H", "9D 10D 2C AS", "JK 5C", "KD"], table=["5H 6H 7H"], hu_chips=5)
    game = play(game, add(a, "8H", 1))
    assert game.is_over
    result = game.results[-1]
    assert result.winners == (a,) and result.notes[a].startswith("Hu")
    # Hu 5 each; worth B 0.5 (AS), C 0.5 (JK), D 0: B→A, C→A 0.5, B→D, C→D 0.5
    assert result.points[a] == 3 * 10 + 2 and result.points[d] == -10 + 2
    assert sum(result.points) == 0


def test_RMI_21_the_last_player_in_stops_and_is_ranked_on_points() -> None:
    a, b = who(2)
    game = rummi(2, held=["10S JS QS 2D", "2C 9D 5D"])
    game = play(game, meld(a, "10S JS QS"))
    assert game.is_over and game.out[b] and not game.out[a]
    assert game.results[-1].points == tuple(2 if s == a else -2 for s in range(2))


# -- match (RMI-29) ----------------------------------------------------------------


def test_RMI_29_a_match_accumulates_chips_and_the_highest_total_wins() -> None:
    game = RummiGame.new(3, RummiOptions(games=2, turn_seconds=30), seed=9)
    while not game.is_over:
        game, _ = game.apply(Timeout(game.to_move))
    assert len(game.results) == 2
    totals = [sum(r.points[s] for r in game.results) for s in range(3)]
    assert list(game.totals) == totals and sum(totals) == 0
    best = max(totals)
    assert game.winners == tuple(s for s in range(3) if totals[s] == best)
    assert game.result_view().match_over


# -- timeouts (RMI-30 … RMI-32) ------------------------------------------------------


def test_RMI_30_no_timer_refuses_timeouts() -> None:
    a, *_ = who()
    game = rummi(held=FILL[:4], turn_seconds=0)
    refused(game, Timeout(a), "there is no turn timer in this game")


def test_RMI_30_with_many_expiry_after_a_play_ends_the_turn() -> None:
    a, b, *_ = who()
    game = rummi(held=FILL[:4], plays_per_turn="many")
    game = play(game, meld(a, "10S JS QS"), Timeout(a))
    assert game.to_move == b and game.timeouts[a] == 0 and game.hands[a] == cards("KS")


def test_RMI_31_before_the_passport_the_cheapest_sequence() -> None:
    a, *_ = who()
    game = rummi(held=["2C 3C 4C 9H 10H JH KD KS KH " + "JK", *FILL[1:4]], passport=False)
    (move,) = auto_play(game, a)
    assert move == MeldDown(a, (placed(*cards("2C 3C 4C")),))


def test_RMI_31_after_the_passport_the_most_valuable_add_else_cheapest_meld() -> None:
    a, *_ = who()
    game = rummi(held=["KS KH KD 5C 6C 7C 9D", *FILL[1:4]], table=["2H 3H 4H"])
    (move,) = auto_play(game, a)
    assert move == MeldDown(a, (placed(*cards("5C 6C 7C")),))
    game = rummi(held=["KS KH KD 5C 6C 7C 9D 5H", *FILL[1:4]], table=["2H 3H 4H", "9S 9S 9H"])
    (move,) = auto_play(game, a)
    assert move == add(a, "9D", 2)


def test_RMI_31_ties_go_to_the_higher_rank_then_suit() -> None:
    a, *_ = who()
    game = rummi(held=["KS KH 9C", *FILL[1:4]], table=["KD KD KC"])
    (move,) = auto_play(game, a)
    assert move == add(a, "KS", 1)


def test_RMI_32_count_resets_on_an_own_play_and_is_kept_across_games() -> None:
    a, _b, _c, _d = who()
    game = rummi(held=[FILL[0], FILL[1], FILL[2], FILL[3]])
    game.timeouts[a] = 2
    game = play(game, meld(a, "10S JS QS"))
    assert game.timeouts[a] == 0
    match = RummiGame.new(2, RummiOptions(games=2), seed=3)
    while match.game_number == 1:
        match, _ = match.apply(Timeout(match.to_move))
    assert any(match.timeouts)


# -- options, leaving, panel helpers ----------------------------------------------------


def test_RMI_options_table_and_text_kind() -> None:
    specs = {s.name: s for s in RummiOptions.specs()}
    assert specs["tiers"].kind == "text" and specs["tiers"].default == "1-2-3"
    assert specs["plays_per_turn"].choices == ("one", "many")
    assert specs["hu_chips"].bounds == (1, 1000)
    assert specs["turn_seconds"].default == 90 and specs["turn_seconds"].also == (0,)
    assert specs["games"].bounds == (1, 20)
    with pytest.raises(InvalidOptions) as error:
        RummiOptions.build(tiers="5 3 x")
    assert "\n" not in str(error.value) and str(error.value).startswith("tiers")
    with pytest.raises(InvalidOptions):
        RummiOptions.build(tiers="3-2")
    with pytest.raises(InvalidOptions):
        RummiOptions.build(tiers=3)
    assert RummiOptions.build(tiers="2-4").describe() == "tiers: 2-4"


def test_leave_puts_the_leaver_out_now_and_in_later_games() -> None:
    a, b, c, _d = who()
    game = rummi(held=FILL[:4], games=2)
    assert game.forfeit_move(c) == Leave(c)
    game = play(game, Leave(c))
    assert game.out[c] and game.notes[c] == "left" and game.to_move == a
    refused(game, Leave(c), "you have already left this game")
    game = play(game, Leave(a))
    assert game.out[a] and game.to_move == b


def test_panel_helpers_add_targets_and_new_meld_check() -> None:
    a, b, *_ = who()
    game = rummi(held=["8H 4C 4D JK 5S 6S 7S", FILL[1], FILL[2], FILL[4]],
                 table=["5H 6H 7H", "4S 4S 4H", "AC 2C 3C"])
    assert add_targets(game, a, card("8H")) == [1]
    assert add_targets(game, a, card("4C")) == [2, 3]
    assert add_targets(game, a, JOKER) == [1, 2, 3]
    assert add_targets(game, b, card("10H")) == []
    assert is_new_meld(game, a, cards("5S 6S 7S")) and not is_new_meld(game, a, cards("8H 4C 4D"))
    assert new_meld_reading(game, a, placed(*cards("4C 4D JK"))).kind == "set"
    with pytest.raises(IllegalMove):
        new_meld_reading(game, b, placed(*cards("10H JH QH")))
