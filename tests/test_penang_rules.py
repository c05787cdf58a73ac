"""Penang Rummy, rule by rule (PEN-1 … PEN-31 of 30-penang.md), and the shared shedding core."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from bot.engine.cards import JOKER, card_deck
from bot.engine.errors import IllegalMove, InvalidOptions, NotYourTurn
from bot.engine.game import Timeout
from bot.engine.melds import extend_meld, is_meld, read_meld
from bot.engine.moves import Discard, Done, Draw, LayOff, MeldDown, Swap, placed
from bot.engine.rng import Rng
from bot.engine.shedding import (
    LayoffTargets,
    any_new_meld,
    cheapest_new_meld,
    new_meld_candidates,
    run_ends,
    single_layoffs,
)
from bot.engine.table import TableMeld
from bot.engine.variants.penang import (
    DeclareDead,
    PenangGame,
    PenangOptions,
    card_value,
    hand_points,
    has_action,
    layoff_melds,
    list_swaps,
    meld_reading,
    penang_rules,
)
from bot.engine.views import SeatState
from tests.engine_helpers import card, cards, groups, refused
from tests.penang_helpers import A, B, C, D, penang, play, position

RULES = penang_rules()
KEEP = ["10S JS QS", "10H JH QH", "JD JD JC", "4D 4D 4S"]
"""Per seat, a hand that can always act (a meld)."""


def new(players: int = 4, seed: int = 1, **options) -> PenangGame:
    return PenangGame.new(players, PenangOptions.build(**options), seed=seed)


def lay(seat: int, text: str, number: int) -> LayOff:
    return LayOff(seat, placed(*cards(text)), number)


def meld(seat: int, text: str) -> MeldDown:
    return MeldDown(seat, groups(text))


def hands(**by_seat: str) -> list[str]:
    """KEEP hands with some seats replaced: ``hands(b="7H 8H")``."""
    seats = {"a": A, "b": B, "c": C, "d": D}
    result = list(KEEP)
    for name, text in by_seat.items():
        result[seats[name]] = text
    return result


# -- players and cards -------------------------------------------------------


@pytest.mark.parametrize("players", [1, 6])
def test_PEN_1_player_count_refused(players: int) -> None:
    """PEN-1: 2–5 players."""
    with pytest.raises(InvalidOptions):
        new(players)


@pytest.mark.parametrize("players, jokers, size", [
    (2, 6, 110), (3, 8, 112), (4, 6, 110), (4, 8, 112), (5, 6, 162), (5, 8, 164)])
def test_PEN_2_deck(players: int, jokers: int, size: int) -> None:
    """PEN-2: two packs plus 6 or 8 jokers; a third pack with five players."""
    game = new(players, jokers=jokers)
    assert sum(game.inventory().values()) == size
    assert game.inventory() == Counter(card_deck(3 if players == 5 else 2, jokers))
    assert game.inventory()[JOKER] == jokers


def test_PEN_2_jokers_option_is_6_or_8() -> None:
    """PEN-2: ``jokers`` allows only 6 and 8."""
    with pytest.raises(InvalidOptions, match="6 or 8"):
        PenangOptions.build(jokers=7)


def test_PEN_3_clockwise_is_increasing_seat_wrapping() -> None:
    """PEN-3: after the last seat comes seat 1."""
    game = penang(held=hands(d="5C 6C 7C 2H"), turn=D)
    game = play(game, meld(D, "5C 6C 7C"), Done(D))
    assert game.to_move == A


def test_PEN_4_first_dealer_is_random() -> None:
    """PEN-4: every seat deals the first game for some seed; the seed decides."""
    dealers = {new(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new(4, seed=5).dealer == new(4, seed=5).dealer


@pytest.mark.parametrize("players, jokers, size, rest", [
    (2, 6, 20, 70), (2, 8, 20, 72), (3, 6, 25, 35), (3, 8, 25, 37), (4, 6, 20, 30),
    (4, 8, 20, 32), (5, 6, 20, 62), (5, 8, 20, 64)])
def test_PEN_5_deal_sizes_and_cards_set_aside(players: int, jokers: int, size: int,
                                              rest: int) -> None:
    """PEN-5: 20 cards each (25 with three players); the rest is set aside unseen."""
    game = new(players, jokers=jokers)
    assert [len(h) for h in game.hands] == [size] * players
    assert len(game.set_aside) == rest
    view = game.table_view()
    assert view.stock is None and view.discard == ()


def test_PEN_5_deal_one_at_a_time_from_the_dealers_left() -> None:
    """PEN-5: the shuffled deck dealt one card at a time, clockwise, from the dealer's left."""
    seed, players = 11, 4
    game = new(players, seed=seed)
    rng = Rng.from_seed(seed)
    dealer = rng.below(players)
    deck = card_deck(2, 6)
    rng.shuffle(deck)
    first = (dealer + 1) % players
    expected = [[] for _ in range(players)]
    for i in range(20 * players):
        expected[(first + i) % players].append(deck[i])
    assert game.dealer == dealer
    assert [sorted(h) for h in game.hands] == [sorted(h) for h in expected]
    assert Counter(game.set_aside) == Counter(deck[20 * players:])


def test_PEN_6_dealers_left_starts_and_dead_players_are_skipped() -> None:
    """PEN-6: the first turn is the dealer's left; turns pass clockwise, skipping the Dead."""
    for seed in range(5):
        game = new(4, seed=seed)
        first = (game.dealer + 1) % 4
        assert game.to_move == first or game.out[first]
    game = penang(held=hands(a="5C 6C 7C 2H"), turn=A, out=[False, True, False, False])
    game = play(game, meld(A, "5C 6C 7C"), Done(A))
    assert game.to_move == C


def test_PEN_7_no_stock_no_discard() -> None:
    """PEN-7: nobody draws or discards."""
    game = penang(held=hands(), turn=A)
    assert Draw not in PenangGame.move_types and Discard not in PenangGame.move_types
    refused(game, Draw(A, "stock"))
    refused(game, Discard(A, card("10S")))


# -- melds -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "AH 2H 3H", "QH KH AH", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "9C 10C JC QC KC"])
def test_PEN_8_runs(text: str) -> None:
    """PEN-8: A-2-3, Q-K-A and the 14-card A…A run are runs."""
    meld_ = meld_reading(penang(held=[text, *KEEP[1:]], turn=A), A, groups(text)[0])
    assert meld_.is_run and len(meld_) == len(cards(text))


@pytest.mark.parametrize("text", ["KH AH 2H", "JH QH KH AH 2H"])
def test_PEN_8_runs_never_wrap(text: str) -> None:
    """PEN-8: K-A-2 is not a run."""
    game = penang(held=[text, *KEEP[1:]], turn=A)
    with pytest.raises(IllegalMove, match="cannot wrap"):
        game.apply(meld(A, text))


def test_PEN_8_full_run_takes_nothing_more() -> None:
    """PEN-8: a 14-card A…A run cannot grow; a 13-card A…K run takes the high Ace."""
    full = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    assert run_ends(RULES.runs, (*range(1, 14), 1)) == (None, None)
    game = penang(held=["JK 2D", *KEEP[1:]], table=[full], turn=A)
    refused(game, lay(A, "JK", 1))
    assert not LayoffTargets.of(game.table, RULES).any_fits(game.hands[A])
    game = penang(held=["AS JK", *KEEP[1:]], table=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"],
                  turn=A)
    game = play(game, lay(A, "AS", 1))
    assert len(game.table[0].meld) == 14


def test_PEN_8_ace_low_off_means_ace_high_only() -> None:
    """PEN-8: with ``ace_low`` false A-2-3 is refused and Q-K-A accepted."""
    game = penang(held=["AH 2H 3H QH KH 5C", *KEEP[1:]], turn=A, ace_low=False)
    with pytest.raises(IllegalMove, match="an Ace is high only"):
        game.apply(meld(A, "AH 2H 3H"))
    game = play(game, meld(A, "QH KH AH"))
    assert game.table[0].meld.is_run
    assert any_new_meld(cards("AH 2H 3H"), RULES)
    assert not any_new_meld(cards("AH 2H 3H"), penang_rules(False))


def test_PEN_9_sets_repeat_suits_without_upper_size() -> None:
    """PEN-9: 8H 8H 8C 8S is a set; eight 8s are a set too."""
    game = penang(held=["8H 8H 8C 8S 8D 8D 8S 8C 2C", *KEEP[1:]], turn=A)
    after = play(game, meld(A, "8H 8H 8C 8S 8D 8D 8S 8C"))
    assert not after.table[0].meld.is_run and len(after.table[0].meld) == 8


def test_PEN_10_joker_keeps_its_card_and_needs_a_natural() -> None:
    """PEN-10, NOT-8: a joker stands for one card for good; JK JK JK is refused."""
    game = penang(held=["JK JK JK 7H 8H 9H 6H 2C", *KEEP[1:]], turn=A)
    refused(game, meld(A, "JK JK JK"), "a meld needs at least one natural card")
    game = play(game, meld(A, "7H JK=8H 9H"))
    assert game.table[0].meld.faces[1].label() == "8H"
    game = play(game, lay(A, "6H JK", 1))
    faces = [f.label() for f in game.table[0].meld.faces]
    assert faces == ["6H", "7H", "8H", "9H", "10H"]
    view = game.table_view().melds[0]
    assert [f.label() for _, f in view.jokers] == ["8H", "10H"]  # the table shows the card


def test_PEN_10_designated_joker() -> None:
    """PEN-10, NOT-8: ``JK=4H`` puts the joker below the run instead of above."""
    game = penang(held=["JK 5H 6H 2C", *KEEP[1:]], turn=A)
    game = play(game, meld(A, "JK=4H 5H 6H"))
    assert [f.label() for f in game.table[0].meld.faces] == ["4H", "5H", "6H"]


@pytest.mark.parametrize("text, is_run", [("5D JK JK", True), ("5D JK=5 JK", False),
                                          ("5D JK=5S JK", False), ("JK 5D JK", True)])
def test_PEN_11_one_natural_card_reads_as_a_run(text: str, is_run: bool) -> None:
    """PEN-11: one natural plus jokers is a run unless a joker is given the natural's rank."""
    game = penang(held=["5D JK JK 2C", *KEEP[1:]], turn=A)
    assert meld_reading(game, A, groups(text)[0]).is_run is is_run


def test_PEN_12_anybody_may_lay_off_on_any_meld() -> None:
    """PEN-12: melds belong to nobody."""
    game = penang(held=hands(a="7H 2C"), table=[(B, "4H 5H 6H")], turn=A)
    game = play(game, lay(A, "7H", 1))
    assert game.table[0].owner == B and game.table[0].meld.codes == "4H 5H 6H 7H"


# -- a turn ------------------------------------------------------------------


def test_PEN_13_multi_card_layoff_is_one_action_judged_on_the_result() -> None:
    """PEN-13: 9H 8H onto 5H 6H 7H gives 5H–9H in one action; jokers may be laid off."""
    game = penang(held=hands(a="9H 8H JK 2C"), table=["5H 6H 7H", "KS KD KC"], turn=A)
    game = play(game, lay(A, "9H 8H", 1))
    assert game.table[0].meld.codes == "5H 6H 7H 8H 9H" and game.actions == 1
    game = play(game, lay(A, "JK", 2))
    assert len(game.table[1].meld) == 4 and game.actions == 2


def test_PEN_13_ace_fitting_both_ends_goes_high() -> None:
    """PEN-13: an Ace laid off on a 2–K run goes to the high end."""
    run = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    game = penang(held=hands(a="AS 2C"), table=[run], turn=A)
    game = play(game, lay(A, "AS", 1))
    assert game.table[0].meld.faces[-1].rank == 1 and game.table[0].meld.pieces[0].rank == 2


def test_PEN_13_several_melds_in_one_command() -> None:
    """PEN-13: each new meld is an action."""
    game = penang(held=hands(a="5C 6C 7C 9S 9S 9H 2H"), turn=A)
    game = play(game, meld(A, "5C 6C 7C | 9S 9S 9H"))
    assert len(game.table) == 2 and game.actions == 2


def test_PEN_14_done_needs_an_action_and_only_the_player_on_turn_plays() -> None:
    """PEN-14: ``done`` first is refused; no passing; other players are refused."""
    game = penang(held=hands(a="5C 6C 7C 9S 2H"), turn=A)
    refused(game, Done(A), "make at least one meld or lay-off first")
    with pytest.raises(NotYourTurn):
        game.apply(meld(B, "10H JH QH"))
    refused(game, Done(B))
    game = play(game, meld(A, "5C 6C 7C"))
    assert game.to_move == A  # a turn is any number of actions
    game = play(game, Done(A))
    assert game.to_move == B


def test_PEN_15_passport_first_then_everything_in_the_same_turn() -> None:
    """PEN-15: lay-offs and swaps wait for a new meld; after it, in the same turn, they work."""
    game = penang(held=hands(a="7H 9C 9D 9S 10C 2S"), table=["4H 5H 6H", "9C JK JC"], turn=A,
                  passport=False)
    refused(game, lay(A, "7H", 1), "your first action must be a new meld (passport)")
    refused(game, Swap(A, card("10C"), 2), "no passport yet: make a new meld first")
    game = play(game, meld(A, "9C 9D 9S"), lay(A, "7H", 1), Swap(A, card("10C"), 2))
    assert game.passport[A] and JOKER in game.hands[A]


def test_PEN_16_substitution_rules() -> None:
    """PEN-16: exact card in a run, any suit in a set; the joker may be used at once."""
    game = penang(held=hands(a="6H QD 2C"), table=["5H JK 7H", "QS QH JK"], turn=A)
    with pytest.raises(IllegalMove, match="stands for 6H"):
        game.apply(Swap(A, card("QD"), 1))
    refused(game, Swap(A, card("2C"), 2), "meld 2 is a set of Qs; 2C does not fit")
    refused(game, Swap(A, JOKER, 2))
    game = play(game, Swap(A, card("6H"), 1), Swap(A, card("QD"), 2))
    assert game.table[0].meld.codes == "5H 6H 7H" and game.table[1].meld.codes == "QS QH QD"
    assert game.actions == 0 and Counter(game.hands[A])[JOKER] == 2
    refused(game, Done(A), "make at least one meld or lay-off first")
    game = play(game, LayOff(A, placed(JOKER, JOKER), 2), Done(A))
    assert len(game.table[1].meld) == 5


def test_PEN_16_no_joker_to_swap() -> None:
    """PEN-16: a meld without a joker offers no swap."""
    game = penang(held=hands(a="6H 2C"), table=["5H 6H 7H"], turn=A)
    refused(game, Swap(A, card("6H"), 1), "meld 1 has no joker")
    assert list_swaps(game, A) == []


def test_PEN_16_list_swaps_for_the_hand_panel() -> None:
    """PEN-16: ``list_swaps`` offers exactly the legal substitutions, on turn only."""
    game = penang(held=hands(a="6H QD QC 9S 2C"), table=["5H JK 7H", "QS QH JK JK"], turn=A)
    swaps = list_swaps(game, A)
    assert {(s.card.code, s.meld) for s in swaps} == {("6H", 1), ("QD", 2), ("QC", 2)}
    for swap in swaps:
        game.apply(swap)
    assert list_swaps(game, B) == []
    assert list_swaps(dataclasses.replace(game, passport=[False] * 4), A) == []


def test_PEN_13_layoff_melds_for_a_selection() -> None:
    """PEN-13: ``layoff_melds`` names the melds that take a selection as one lay-off."""
    game = penang(held=hands(a="8H 9H 7S JK 2C"),
                  table=["5H 6H 7H", "7D 7C 7H", "10H JH QH", "5S 6S 7S"], turn=A)
    assert layoff_melds(game, A, cards("8H 9H")) == [1, 3]
    assert layoff_melds(game, A, cards("7S")) == [2]
    assert layoff_melds(game, A, cards("JK")) == [1, 2, 3, 4]
    assert layoff_melds(game, A, cards("8H 7S")) == []


# -- Dead ----------------------------------------------------------------------


def test_PEN_17_turn_start_check_before_passport_needs_a_meld() -> None:
    """PEN-17: before the passport only a new meld counts (a lay-off does not)."""
    game = penang(held=hands(a="5C 6C 7C 2H", b="7H 2D"), table=["4H 5H 6H"], turn=A,
                  passport=[True, False, True, True])
    game = play(game, meld(A, "5C 6C 7C"), Done(A))
    assert game.out[B] and game.notes[B] == "no passport" and game.to_move == C
    assert game.table_view().players[B].state == SeatState.DEAD


def test_PEN_17_turn_start_check_after_passport() -> None:
    """PEN-17: with a passport a lay-off keeps a player alive; nothing at all: Dead."""
    base = dict(table=["4H 5H 6H"], turn=A)
    alive = play(penang(held=hands(a="5C 6C 7C 2H", b="7H 2D"), **base),
                 meld(A, "5C 6C 7C"), Done(A))
    assert alive.to_move == B
    dead = play(penang(held=hands(a="5C 6C 7C 2H", b="9H 2D"), **base),
                meld(A, "5C 6C 7C"), Done(A))
    assert dead.out[B] and dead.notes[B] == "no play" and dead.to_move == C


def test_PEN_17_substitution_paths_count() -> None:
    """PEN-17: a swap that frees a joker for a lay-off keeps the hand alive (also chained)."""
    table = ["5H JK 7H", "QC QD QS"]
    assert has_action(cards("6H 9S"), penang(held=KEEP, table=table).table, RULES, True)
    assert not has_action(cards("6H 9S"), penang(held=KEEP, table=table).table, RULES, False)
    assert not has_action(cards("9S 4C"), penang(held=KEEP, table=table).table, RULES, True)
    # Only full 14-card runs: the freed joker fits nowhere, but two jokers and a card make a meld.
    full = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    two = [full.replace("5S", "JK"), "AH 2H 3H 4H 5H 6H 7H 8H 9H JK JH QH KH AH"]
    game = penang(held=KEEP, table=two)
    assert has_action(cards("5S 10H 2C"), game.table, RULES, True)
    assert not has_action(cards("5S 4C"), game.table[:1], RULES, True)


def test_PEN_18_concede_keeps_the_actions_made() -> None:
    """PEN-18: a player may declare Dead during their turn; their actions stay."""
    game = penang(held=hands(a="5C 6C 7C 2H 3H"), turn=A)
    refused(game, DeclareDead(B))
    game = play(game, meld(A, "5C 6C 7C"), DeclareDead(A))
    assert game.out[A] and game.notes[A] == "conceded" and len(game.table) == 1
    assert game.to_move == B


def test_PEN_19_dead_players_take_no_part() -> None:
    """PEN-19: no turns, lay-offs or swaps for the Dead, even when a meld would fit."""
    game = penang(held=hands(a="5C 6C 7C 8C 2H", b="8C 9C JK"), table=["5H JK 7H"], turn=A,
                  out=[False, True, False, False])
    game = play(game, meld(A, "5C 6C 7C"), Done(A))
    assert game.to_move == C
    refused(game, lay(B, "8C", 2), "you are Dead in this game")
    refused(game, Swap(B, card("8C"), 1))
    assert game.legal_moves(B) == []
    game = play(game, DeclareDead(C), DeclareDead(D))
    assert game.to_move == A and game.out[B]


def test_PEN_20_game_ends_at_once() -> None:
    """PEN-20: the last card played ends the game, no done needed; others score their hands."""
    game = penang(held=hands(a="5C 6C 7C"), turn=A)
    game = play(game, meld(A, "5C 6C 7C"))
    assert game.is_over and game.results[-1].points[A] == 0
    assert game.results[-1].notes[A] == "Game"
    assert game.results[-1].points[B] == hand_points(cards(KEEP[1]))


def test_PEN_21_all_dead_ends_the_game_and_the_last_plays_alone() -> None:
    """PEN-21: with one live player left they play turn after turn until out or Dead."""
    game = penang(3, held=["2H", "3H", "5C 6C 7C 8C 9C 10C"], turn=C, out=[True, True, False])
    serial = game.turn_serial
    game = play(game, meld(C, "5C 6C 7C"), Done(C))
    assert game.to_move == C and game.turn_serial == serial + 1
    game = play(game, lay(C, "8C", 1), Done(C), lay(C, "9C", 1), Done(C), lay(C, "10C", 1))
    assert game.is_over and game.results[-1].notes[C] == "Game"
    game = penang(3, held=["2H", "3H", "5C 6C 7C 2D"], turn=C, out=[True, True, False])
    game = play(game, meld(C, "5C 6C 7C"), Done(C))
    assert game.is_over and game.results[-1].summary == "Every player is Dead."


# -- scoring -----------------------------------------------------------------


def test_PEN_22_points_table_is_standard_only() -> None:
    """PEN-22: ``points`` has one value."""
    assert PenangOptions().points == "standard"
    with pytest.raises(InvalidOptions):
        PenangOptions.build(points="other")


def test_PEN_23_card_points() -> None:
    """PEN-23: 2–10 face value, J Q K 10, Ace 15, joker 20."""
    assert [card_value(c) for c in cards("2S 9H 10D JC QS KH AD JK")] == [
        2, 9, 10, 10, 10, 10, 15, 20]


def test_PEN_24_game_points_are_the_cards_held() -> None:
    """PEN-24: the sum of the cards held; the player who went out has 0."""
    game = penang(held=["8H", "JK AS", "KD 2C", "9C"], table=["5H 6H 7H"], turn=A)
    game = play(game, lay(A, "8H", 1))
    assert game.results[-1].points == (0, 35, 12, 9)


def test_PEN_25_ties_share_places() -> None:
    """PEN-25: lower is better; ties share the place and the next is skipped."""
    game = penang(held=["8H", "KD 2C", "9C 3D", "JK AS"], table=["5H 6H 7H"], turn=A)
    game = play(game, lay(A, "8H", 1))
    view = game.result_view()
    assert {p.seat: p.place for p in view.placings} == {A: 1, B: 2, C: 2, D: 4}
    assert game.results[-1].winners == (A,)
    assert PenangGame.lower_is_better


def test_PEN_26_match_of_several_games() -> None:
    """PEN-26: ``games`` games with the same seats; totals add up; lowest total wins."""
    game = penang(held=["8H", "KD 2C", "9C 3D", "JK AS"], table=["5H 6H 7H"], turn=A, games=2)
    game = play(game, lay(A, "8H", 1))
    assert not game.is_over and game.game_number == 2
    assert [len(h) for h in game.hands] == [20] * 4 and game.table == []
    game = position(game, held=["9C", "8H", "2C", "3D"], table=["5H 6H 7H"], turn=B)
    game = play(game, lay(B, "8H", 1))
    assert game.is_over and game.totals == [9, 12, 14, 38]
    assert game.winners == (A,) and game.table_view().players[A].state == SeatState.WON
    assert game.result_view().title == "Match over after 2 games"
    with pytest.raises(InvalidOptions):
        PenangOptions.build(games=21)


@pytest.mark.parametrize("rule, points, dealer", [
    ("winner", "8H|KD 2C|9C 3D|JK AS", A), ("loser", "8H|KD 2C|9C 3D|JK AS", D),
    ("loser", "8H|KD 2C|KC 2D|3H", B)])
def test_PEN_27_next_dealer(rule: str, points: str, dealer: int) -> None:
    """PEN-27: lowest (winner) or highest (loser) game points; ties by turn order."""
    game = penang(held=points.split("|"), table=["5H 6H 7H"], turn=A, games=2,
                  dealer_rule=rule)
    game = play(game, lay(A, "8H", 1))
    assert game.dealer == dealer and game.to_move is not None


# -- timeouts ----------------------------------------------------------------


def test_PEN_28_timer_option() -> None:
    """PEN-28: 0 means no timer (Timeout refused); otherwise 30–600 seconds."""
    game = penang(held=hands(), turn=A, turn_seconds=0)
    refused(game, Timeout(A), "there is no turn timer in this game")
    assert new(turn_seconds=30).turn_seconds == 30 and PenangOptions().turn_seconds == 120
    with pytest.raises(InvalidOptions):
        PenangOptions.build(turn_seconds=29)


def test_PEN_29_expiry_after_an_action_ends_the_turn() -> None:
    """PEN-29: as if done; no auto-play and no timeout counted."""
    game = penang(held=hands(a="5C 6C 7C 8C 2H"), turn=A)
    game = play(game, meld(A, "5C 6C 7C"), Timeout(A))
    assert game.to_move == B and game.timeouts[A] == 0 and len(game.hands[A]) == 2


def test_PEN_30_lays_off_the_most_valuable_card_on_the_lowest_meld() -> None:
    """PEN-30 (1): most points, then rank, then suit S H D C; the lowest-numbered meld."""
    table = ["8S 8H 8D", "5D 6D 7D", "QS QH QD", "10C JC QC", "JS QS KS"]
    game = penang(held=hands(a="8C KC KC 9C"), table=table, turn=A)
    after = play(game, Timeout(A))
    assert after.table[3].meld.codes == "10C JC QC KC" and after.to_move == B
    game = penang(held=hands(a="QC AD 8C"), table=table, turn=A)
    after = play(game, Timeout(A))
    assert after.table[2].meld.codes.count("Q") == 4  # QC (10) on meld 3 before 8C (8)
    game = penang(held=hands(a="JK 8C"), table=table, turn=A)
    after = play(game, Timeout(A))
    assert JOKER in after.table[0].meld.pieces  # the joker (20) onto meld 1


def test_PEN_30_lays_the_cheapest_three_card_meld() -> None:
    """PEN-30 (2): lowest total; ties card by card from the top; the run reading."""
    value = card_value
    assert cheapest_new_meld(cards("2S 3S 4S 7C 7D 7H KH"), RULES, value) == tuple(
        cards("2S 3S 4S"))
    # 2H 3H 4H and 2S 3S 4S tie on points and ranks: spades count as more valuable.
    assert cheapest_new_meld(cards("2S 3S 4S 2H 3H 4H"), RULES, value) == tuple(
        cards("2H 3H 4H"))
    # 3C 4C 5C (12) vs 2D 2S 8D? not a meld. 4S 4H 4D (12) vs 3C 4C 5C (12): top card 5 > 4.
    assert cheapest_new_meld(cards("4S 4H 4D 3C 5C"), RULES, value) == tuple(cards("4S 4H 4D"))
    game = penang(held=hands(a="5D JK JK"), turn=A, passport=False)
    after = play(game, Timeout(A))
    assert after.table[0].meld.is_run  # same cards: the run reading


def test_PEN_30_swaps_when_only_a_swap_opens_an_action() -> None:
    """PEN-30 (3): the first swap in meld order freeing a joker, then that joker laid off."""
    game = penang(held=hands(a="6H 9S"), table=["5H JK 7H", "QC QD QS"], turn=A)
    after = play(game, Timeout(A))
    assert after.table[0].meld.codes == "5H 6H 7H JK"
    assert [c.code for c in after.hands[A]] == ["9S"] and after.to_move == B


def test_PEN_31_timeout_count() -> None:
    """PEN-31: +1 per auto-played turn, reset by an own action, third in a row: Dead."""
    table = ["5H 6H 7H"]
    game = penang(held=hands(a="8H 9H 10H JH QH KH 2C"), table=table, turn=A)
    game = play(game, Timeout(A))
    assert game.timeouts[A] == 1
    game = position(game, held=hands(a="9H 10H JH QH KH 2C"), table=["5H 6H 7H 8H"], turn=A)
    game.timeouts[A] = 1
    game = play(game, Timeout(A))
    assert game.timeouts[A] == 2 and not game.out[A]
    own = play(position(game, held=hands(a="10H JH 2C"), table=["5H 6H 7H 8H 9H"], turn=A),
               lay(A, "10H", 1))
    assert own.timeouts[A] == 0
    game = position(game, held=hands(a="10H JH 2C"), table=["5H 6H 7H 8H 9H"], turn=A)
    game = play(game, Timeout(A))
    assert game.out[A] and game.notes[A] == "timed out" and len(game.hands[A]) == 3


def test_PEN_31_count_is_kept_across_games() -> None:
    """PEN-31: the count carries into the next game of the match."""
    game = penang(held=["8H", "KD 2C", "9C 3D", "JK AS"], table=["5H 6H 7H"], turn=A, games=2)
    game.timeouts[B] = 2
    game = play(game, lay(A, "8H", 1))
    assert game.game_number == 2 and game.timeouts[B] == 2


# -- views and the shared core -------------------------------------------------


def test_PEN_19_views_show_dead_players_and_points() -> None:
    """PEN-19, PEN-24: panels show Dead; results carry each hand's points and cards."""
    game = penang(held=["8H", "KD 2C", "9C 3D", "JK AS"], table=["5H 6H 7H"], turn=A,
                  out=[False, False, True, False])
    view = game.table_view()
    assert [p.state for p in view.players] == [SeatState.PLAYING, SeatState.PLAYING,
                                               SeatState.DEAD, SeatState.PLAYING]
    assert view.hand_label == "game" and view.melds[0].number == 1
    game = play(game, lay(A, "8H", 1))
    placings = {p.seat: p for p in game.result_view().placings}
    assert placings[D].points == "35" and [c.code for c in placings[D].held] == ["JK", "AS"]
    assert game.hand_view(B).pieces == tuple(cards("KD 2C"))


def test_PEN_17_quick_checks_agree_with_the_meld_reader() -> None:
    """PEN-17: every 3-card candidate is a valid meld, and any_new_meld agrees."""
    deck = card_deck(2, 8)
    rng = random.Random(5)
    for _ in range(200):
        hand = rng.sample(deck, rng.randint(1, 8))
        found = new_meld_candidates(hand, RULES)
        assert all(is_meld(list(c), RULES) for c in found)
        assert any_new_meld(hand, RULES) == bool(found)
        brute = any(is_meld([a, b, c], RULES) for i, a in enumerate(hand)
                    for j, b in enumerate(hand[i + 1:], i + 1) for c in hand[j + 1:])
        assert brute == bool(found)


def test_PEN_18_forfeit_declares_the_leaver_dead_now_and_later() -> None:
    """PEN-18: ``/rummy leave`` is DeclareDead(leave=True), out of turn too, for every game."""
    game = penang(held=["8H 2D", "KD 2C", "9C 3D 4D 5D", "JK AS"], table=["5H 6H 7H"], turn=A,
                  games=2)
    move = game.forfeit_move(C)
    assert move == DeclareDead(C, leave=True)
    game = play(game, move)
    assert game.out[C] and game.to_move == A and game.left[C]
    assert game.forfeit_move(C) is None
    game = play(game, lay(A, "8H", 1), Done(A))
    while game.game_number == 1:
        game = play(game, DeclareDead(game.to_move))
    assert game.game_number == 2 and game.out[C] and game.notes[C] == "left"


def test_PEN_13_quick_layoff_targets_agree_with_extend_meld() -> None:
    """PEN-13, PEN-17: the quick single-card lay-off list is exactly what extend_meld accepts."""
    rng = random.Random(9)
    for ace_low in (True, False):
        rules = penang_rules(ace_low)
        for _ in range(40):
            deck = card_deck(2, 8)
            rng.shuffle(deck)
            table = []
            pool = deck[20:]
            while len(table) < 8:
                found = new_meld_candidates(pool, rules)
                if not found:
                    break
                chosen = list(rng.choice(found))
                for piece in chosen:
                    pool.remove(piece)
                table.append(TableMeld(len(table) + 1, 0, read_meld(chosen, rules)))
            hand = deck[:20]
            quick = set(single_layoffs(hand, table, rules))
            slow = set()
            for piece in set(hand):
                for table_meld in table:
                    try:
                        extend_meld(table_meld.meld, [piece], rules, table_meld.number)
                    except IllegalMove:
                        continue
                    slow.add((piece, table_meld.number))
            assert quick == slow
