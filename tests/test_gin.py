"""Gin Rummy engine: every GIN rule and worked example (``shared/rules/70-gin.md``)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine.arrange import deadwood_value
from bot.engine.cards import card_deck
from bot.engine.errors import InvalidOptions
from bot.engine.game import HandResult, Timeout
from bot.engine.moves import Discard, Draw, Resume
from bot.engine.variants.gin import (
    RULES,
    GinGame,
    GinOptions,
    Knock,
    Pass,
    best_grouping,
    card_value,
    deadwood_count,
    defend,
)
from tests.gin_helpers import card, cards, gin, groups, new, refused


def knock(game: GinGame, code: str | None = None, text: str | None = None,
          gin_only: bool = False) -> tuple[GinGame, list]:
    move = Knock(game.turn, card(code) if code else None, groups(text) if text else None,
                 gin_only)
    return game.apply(move)


def last_show(game: GinGame):
    show = game.showdowns[-1]
    assert show is not None
    return show


# -- players, cards, values ----------------------------------------------------------------


def test_GIN_1_deadwood_is_the_value_of_the_cards_outside_melds() -> None:
    grouping = best_grouping(cards("2S 3S 4S KD QH"))
    assert grouping.melds == (tuple(cards("2S 3S 4S")),)
    assert grouping.count == 20 == deadwood_count(cards("2S 3S 4S KD QH"))


def test_GIN_2_exactly_two_players() -> None:
    for players in (1, 3, 4):
        with pytest.raises(InvalidOptions, match="Gin Rummy is for exactly 2 players"):
            GinGame.new(players)


def test_GIN_3_one_pack_no_jokers() -> None:
    game = new()
    assert sorted(game.inventory().elements(), key=lambda c: c.index) == \
        sorted(card_deck(1), key=lambda c: c.index)
    refused(gin(held=[None, None]), Discard(0, card("JK")), "there are no jokers in Gin Rummy")


def test_GIN_4_values() -> None:
    assert [card_value(c) for c in cards("AS 2H 9D 10C JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]


def test_GIN_5_aces_are_low_only() -> None:
    assert deadwood_count(cards("AS 2S 3S")) == 0
    assert deadwood_count(cards("QS KS AS")) == 21
    assert deadwood_count(cards("KS AS 2S")) == 13


# -- deal and turn order ------------------------------------------------------------------


def test_GIN_6_winner_deals_next_alternate_and_same_dealer_after_void() -> None:
    game = gin(held=["AS 2S 3S 4H 5H 6H 7C 8C 9C 5D KH", None], dealer=1)
    after, _ = knock(game, "KH")
    assert after.results[-1].winners == (0,) and after.dealer == 0
    alternate = dataclasses.replace(
        gin(held=["AS 2S 3S 4H 5H 6H 7C 8C 9C 5D KH", None], dealer=0),
        options=GinOptions.build(dealer="alternate"))
    after, _ = knock(alternate, "KH")
    assert after.results[-1].winners == (0,) and after.dealer == 1
    walled = gin(held=["6C KS KH QS QH JS 2D 4D 6D 8D", None], stock_size=3, phase="draw",
                 dealer=1)
    walled, _ = walled.apply(Draw(0, "stock"))
    walled, _ = walled.apply(Discard(0, card("6C")))
    walled, _ = walled.apply(Pass(1))
    assert walled.results[-1].winners == () and walled.dealer == 1


def test_GIN_7_deal_ten_each_an_upcard_and_31_in_the_stock() -> None:
    game = new(seed=4)
    assert [len(h) for h in game.hands] == [10, 10]
    assert len(game.pile) == 1 and len(game.stock) == 31
    assert game.first_upcard == game.pile[0]
    assert game.turn == 1 - game.dealer and game.phase == "offer"


def test_GIN_8_and_E11_the_upcard_offer() -> None:
    game = new(seed=5)
    n, d = game.turn, game.dealer
    refused(game, Draw(n, "stock"), "take the upcard or pass")
    refused(game, Discard(n, game.hands[n][0]), "take the upcard or pass")
    passed, _ = game.apply(Pass(n))
    assert passed.turn == d and passed.phase == "offer"
    both, _ = passed.apply(Pass(d))
    assert both.turn == n and both.phase == "draw"
    refused(both, Draw(n, "discard"), "both players passed the upcard: draw from the stock")
    drawn, _ = both.apply(Draw(n, "stock"))
    assert len(drawn.hands[n]) == 11
    taken, _ = passed.apply(Draw(d, "discard"))  # had D taken the upcard
    assert taken.turn == d and taken.phase == "play" and taken.taken == game.pile[-1]
    out = next(c for c in taken.hands[d] if c != taken.taken)
    after, _ = taken.apply(Discard(d, out))
    assert after.turn == n and after.phase == "draw" and not after.offer
    assert Draw(n, "discard") in after.legal_moves(n)


def test_GIN_9_public_pile_stock_and_limit_private_hands() -> None:
    game = gin(held=[None, None], pile="3C 4D 9H", phase="draw")
    view = game.table_view()
    assert [c.code for c in view.discard] == ["3C", "4D", "9H"]
    assert view.stock == len(game.stock)
    assert "knock limit 10" in view.status
    assert "0 boxes" in view.players[0].score
    assert game.hand_view(0).pieces == tuple(game.hands[0])


# -- melds and deadwood --------------------------------------------------------------------


def test_GIN_10_melds_are_runs_and_sets_of_three_or_four() -> None:
    assert deadwood_count(cards("7S 7H 7D 7C")) == 0
    assert deadwood_count(cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH")) == 0
    assert deadwood_count(cards("7S 7H")) == 14
    assert deadwood_count(cards("7S 8H 9D")) == 24


def test_GIN_E1_best_arrangement() -> None:
    hand = cards("5H 6H 7H 7S 7D 7C 9S 10S JS AD")
    grouping = best_grouping(hand)
    assert grouping.count == 1 and grouping.deadwood == (card("AD"),)
    assert sorted(map(len, grouping.melds)) == [3, 3, 3]
    assert deadwood_count(cards("5H 6H AD")) == 12  # taking all four 7s


def test_GIN_11_exact_best_deadwood_agrees_with_an_independent_search() -> None:
    rng = random.Random(11)
    deck = card_deck(1)
    for _ in range(400):
        hand = rng.sample(deck, rng.choice((10, 11)))
        assert deadwood_count(hand) == deadwood_value(hand, RULES, card_value)


def test_GIN_12_and_E14_canonical_choice_and_given_groups() -> None:
    held = ["7S 7H 7D 8S 8H 8D 9S 9H 9D 2C KD", "7C 4D KH QC 3S AH 2H 3H 4H 5H"]
    chosen = best_grouping(cards(held[0])[:10])
    assert [m[0].rank == m[1].rank for m in chosen.melds] == [True, True, True]  # sets
    after, _ = knock(gin(held=held), "KD")
    show = last_show(after)
    assert show.layoffs == ((card("7C"), 0),) and show.defender_count == 27
    assert after.results[-1].points == (25, 0)
    after, _ = knock(gin(held=held), "KD", "7S 8S 9S | 7H 8H 9H | 7D 8D 9D")
    assert not last_show(after).layoffs and after.results[-1].points == (32, 0)


# -- a turn --------------------------------------------------------------------------------


def test_GIN_13_draw_first_and_only_once() -> None:
    game = gin(held=[None, None], phase="draw")
    refused(game, Discard(0, game.hands[0][0]), "draw first")
    refused(game, Knock(0, game.hands[0][0]), "draw first")
    drawn, _ = game.apply(Draw(0, "stock"))
    refused(drawn, Draw(0, "stock"), "you have already drawn")


def test_GIN_14_discard_passes_the_turn_only_the_player_to_move_acts() -> None:
    game = gin(held=[None, None], phase="draw")
    refused(game, Draw(1, "stock"), "it is not your turn")
    drawn, _ = game.apply(Draw(0, "stock"))
    after, _ = drawn.apply(Discard(0, drawn.hands[0][0]))
    assert after.turn == 1 and after.phase == "draw" and len(after.hands[0]) == 10


def test_GIN_15_and_E12_the_taken_card_stays_this_turn() -> None:
    held = ["AS 2S 3S 4H 5H 6H 7C 8C 9C 5D", None]
    game = gin(held=held, pile="7H", phase="draw")
    taken, _ = game.apply(Draw(0, "discard"))
    refused(taken, Discard(0, card("7H")), "you took 7H from the discard pile this turn")
    refused(taken, Knock(0, card("7H")), "you took 7H from the discard pile this turn")
    assert Discard(0, card("7H")) not in taken.legal_moves(0)
    free = dataclasses.replace(game, options=GinOptions.build(discard_taken_card=True))
    taken, _ = free.apply(Draw(0, "discard"))
    taken.apply(Knock(0, card("7H")))
    taken.apply(Discard(0, card("7H")))


def test_GIN_27_and_E12_two_recycled_takes_in_a_row_void_the_hand() -> None:
    game = gin(held=[None, None], pile="7H", phase="draw", discard_taken_card=True)
    game, _ = game.apply(Draw(0, "discard"))
    game, _ = game.apply(Discard(0, card("7H")))
    assert game.recycled
    game, _ = game.apply(Draw(1, "discard"))
    game, events = game.apply(Discard(1, card("7H")))
    assert game.results[-1].winners == () and game.showdowns[-1] is None
    assert any("void" in e.text for e in events)


def test_GIN_16_check_is_private_and_changes_nothing() -> None:
    game = gin(held=["2S 3S 4S 5S 8D 8H 8C KC 6D 4H AC", None])
    before = game.to_json()
    text = game.check(0)
    assert text.startswith("Discarding KC leaves deadwood 11") and "no knock yet" in text
    assert game.check(0, groups("2S 3S 4S 5S | 8D 8H 8C")) == \
        "Your groups: 2S 3S 4S 5S | 8H 8D 8C · deadwood AC 4H 6D KC = 21."
    assert game.to_json() == before


# -- knocking ------------------------------------------------------------------------------


def test_GIN_17_and_E2_knock_refused_over_the_limit() -> None:
    game = gin(held=["2S 3S 4S 5S 8D 8H 8C KC 6D 4H AC", None])
    refused(game, Knock(0, card("KC")),
            "after discarding KC your best deadwood is 11; the knock limit is 10")
    refused(game, Knock(0, card("5S")),
            "after discarding 5S your best deadwood is 21; the knock limit is 10")
    assert not game.knocks(0)


def test_GIN_18_groups_may_leave_a_meldable_card_as_deadwood() -> None:
    game = gin(held=["AS 2S 3S 4S 5H 6H 7H 9C 9D 9H KD", None])
    after, _ = knock(game, "KD", "2S 3S 4S | 5H 6H 7H | 9C 9D 9H")
    assert last_show(after).knocker_deadwood == (card("AS"),)
    refused(game, Knock(0, card("KD"), groups("2S 3S 4S | 5H 6H 7H")),
            "your groups leave deadwood 28; the knock limit is 10")
    refused(game, Knock(0, card("KD"), groups("2S 3S 5H")),
            None)  # an invalid group (NOT-13)
    refused(game, Knock(0, card("KD"), groups("AS 2S 3S | 3S 4S 5H")))


def test_GIN_19_gin_is_a_knock_with_no_deadwood() -> None:
    game = gin(held=["2S 3S 4S 5S 8H 8D 8C JD QD KD AH", None])
    after, _ = knock(game, "AH")
    assert last_show(after).kind == "gin"
    refused(gin(held=["2S 3S 4S 8H 8D 8C JD QD KD 4C KH", None]),
            Knock(0, card("KH"), None, True), "that is not gin: deadwood 4")


def test_GIN_20_31_and_E7_big_gin() -> None:
    """GIN-20, GIN-31 (big gin scores D + big_gin_bonus) and GIN-E7."""
    held = ["AC 2C 3C 4C 6H 7H 8H QS QH QD QC", "5S 6S 7S 8S 9D 9H 9C JD JS KS"]
    big = gin(held=held, big_gin_bonus=31)
    after, _ = knock(big)
    show = last_show(after)
    assert show.kind == "big gin" and show.discard is None and show.defender_count == 30
    assert after.results[-1].points == (61, 0)
    plain = gin(held=held)
    refused(plain, Knock(0), "name the card you discard")
    after, _ = knock(plain, "4C")
    assert last_show(after).kind == "gin" and after.results[-1].points == (55, 0)
    after, _ = knock(plain, "2C")
    assert last_show(after).kind == "knock" and last_show(after).knocker_count == 8
    short = gin(held=["AC 2C 3C 4C 6H 7H 8H QS QH QD KC", held[1]], big_gin_bonus=31)
    refused(short, Knock(0), "big gin needs all 11 cards in melds; name the card you discard")


def test_GIN_21_and_E9_oklahoma_knock_limit() -> None:
    ace = gin(held=["AS 2S 3S 4H 5H 6H 7C 8C 9C AD QS", None], upcard="AH", oklahoma=True)
    assert ace.knock_limit == 0
    refused(ace, Knock(0, card("QS")), "the knock limit is 0 this hand: only gin")
    for code in ("10D", "JD", "QC", "KH"):
        assert gin(held=[None, None], upcard=code, oklahoma=True).knock_limit == 10
    assert gin(held=[None, None], upcard="7S", oklahoma=True).knock_limit == 7
    assert gin(held=[None, None], knock_limit=0).knock_limit == 0


# -- the defender ---------------------------------------------------------------------------


def test_GIN_22_and_E3_lay_offs_including_onto_cards_laid_off_before() -> None:
    game = gin(held=["3H 4H 5H 9S 9D 9C JC QC KC 4S KS", "6H 7H 9H 10C 2C 2S 2D 5S KD QD"])
    after, _ = knock(game, "KS")
    show = last_show(after)
    assert show.defender_melds == (tuple(cards("2S 2D 2C")),)
    assert [c.code for c, _ in show.layoffs] == ["6H", "7H", "9H", "10C"]
    assert show.defender_count == 25 and after.results[-1].points == (21, 0)
    assert [i for _, i in show.layoffs] == [0, 0, 1, 2]  # onto the knocker's melds 1, 2, 3


def test_GIN_22_never_onto_the_knockers_deadwood_and_no_lay_offs_after_gin() -> None:
    defence = defend(cards("9H 5C"), [cards("5H 6H 7H")])
    assert [c.code for c, _ in defence.layoffs] == []  # 8H is deadwood: 9H cannot follow
    assert defend(cards("8H 9H 2C"), [cards("5H 6H 7H")]).count == 2
    assert defend(cards("8H 9H 2C"), [cards("5H 6H 7H")], lay_off=False).count == 19


def test_GIN_30_and_E6_gin_no_lay_offs() -> None:
    game = gin(held=["2S 3S 4S 5S 8H 8D 8C JD QD KD AH", "6S 8S 10D 4C 4D 4H 9H 9C 3H KC"])
    after, _ = knock(game, "AH")
    show = last_show(after)
    assert not show.layoffs and show.defender_count == 55
    assert after.results[-1].points == (80, 0)


def test_GIN_23_and_E4_lay_offs_chosen_for_the_lowest_count_undercut() -> None:
    game = gin(held=["4C 5C 6C 10S JS QS 7D 7H 7S 8H 2D", "3C 7C 9S KS 8S 8D 8C 2H AH AS"])
    after, _ = knock(game, "2D")
    show = last_show(after)
    assert show.knocker_count == 8 and show.defender_count == 4
    assert sorted(c.code for c, _ in show.layoffs) == ["3C", "7C", "9S", "KS"]
    assert show.kind == "undercut" and after.results[-1].points == (0, 29)
    assert card("8H") not in [c for c, _ in show.layoffs]


def test_GIN_23_ties_lay_off_fewest_cards() -> None:
    # 8C fits the clubs run or stays in B's own set of four 8s: the same count, fewer laid off.
    defence = defend(cards("8D 8S 8C 8H 10S QD"), [cards("9C 10C JC")])
    assert defence.layoffs == () and defence.count == 20


# -- hands that end without a knock -----------------------------------------------------------


B_WALL = "7C 8C 2H 3H 4H 9S 9D 9H JD AS"


def test_GIN_24_25_and_E10_the_wall() -> None:
    game = gin(held=["6C KS KH QS QH JS 2D 4D 6D 8D", B_WALL], stock_size=3, phase="draw")
    game, _ = game.apply(Draw(0, "stock"))
    walled, _ = game.apply(Discard(0, card("6C")))
    assert walled.phase == "wall" and walled.turn == 1 and len(walled.stock) == 2
    refused(walled, Draw(1, "stock"),
            "2 cards are left in the stock: knock with the upcard or pass")
    knocked, _ = walled.apply(Knock(1, card("JD")))
    assert last_show(knocked).knocker == 1 and last_show(knocked).knocker_count == 1
    void, _ = walled.apply(Pass(1))
    assert void.results[-1].points == (0, 0) and void.results[-1].winners == ()
    assert void.hand_number == 2 and void.dealer == walled.dealer  # GIN-25
    assert void.boxes == [0, 0]
    off = dataclasses.replace(game, options=GinOptions.build(fiftieth_card=False))
    ended, _ = off.apply(Discard(0, card("6C")))
    assert ended.hand_number == 2 and ended.results[-1].winners == ()


def test_GIN_26_the_fiftieth_take_voids_the_hand() -> None:
    game = dataclasses.replace(gin(held=[None, None], pile="7H", phase="draw"), pile_takes=49)
    after, events = game.apply(Draw(0, "discard"))
    assert after.hand_number == 2 and after.results[-1].winners == ()
    assert any(e.kind == "take_limit" for e in events)
    near = dataclasses.replace(game, pile_takes=48)
    after, _ = near.apply(Draw(0, "discard"))
    assert after.phase == "play" and after.pile_takes == 49


# -- scoring a hand ----------------------------------------------------------------------------


def test_GIN_28_knock_scores_the_difference() -> None:
    game = gin(held=["3H 4H 5H 9S 9D 9C JC QC KC 4S KS", "6H 7H 9H 10C 2C 2S 2D 5S KD QD"])
    after, _ = knock(game, "KS")
    assert after.results[-1].points == (21, 0) and after.totals == [21, 0]


E5 = ["AS 2S 3S 4H 5H 6H 7C 8C 9C 5D KH", "6S 7S 8S JD JC JH QD QC QH 5C"]


def test_GIN_29_and_E5_undercut_on_equal_counts() -> None:
    after, _ = knock(gin(held=E5, dealer=1), "KH")
    assert last_show(after).kind == "undercut" and after.results[-1].points == (0, 25)
    assert after.boxes == [0, 1]
    off = gin(held=E5, dealer=1, undercut_on_tie=False)
    after, events = knock(off, "KH")
    assert after.results[-1].points == (0, 0) and after.results[-1].winners == ()
    assert after.boxes == [0, 0] and after.dealer == 1
    assert any("nobody scores" in e.text for e in events)


def test_GIN_32_and_E8_oklahoma_spades_double() -> None:
    a = "4H 5H 6H 9C 10C JC KD KH KC 6D QS"
    win, _ = knock(gin(held=[a, "2S 3S 4S 5S 8D 8S 8C 8H 10S QD"], upcard="7S",
                       oklahoma=True), "QS")
    assert win.results[-1].points == (28, 0)
    under, _ = knock(gin(held=[a, "2S 3S 4S 5S 8D 8S 8C 8H AD 4D"], upcard="7S",
                         oklahoma=True), "QS")
    assert under.results[-1].points == (0, 52)
    single, _ = knock(gin(held=[a, "2S 3S 4S 5S 8D 8S 8C 8H 10S QD"], upcard="7S",
                          oklahoma=True, oklahoma_spades_double=False), "QS")
    assert single.results[-1].points == (14, 0)
    single, _ = knock(gin(held=[a, "2S 3S 4S 5S 8D 8S 8C 8H AD 4D"], upcard="7S",
                          oklahoma=True, oklahoma_spades_double=False), "QS")
    assert single.results[-1].points == (0, 26)


def test_GIN_33_the_scorer_wins_the_hand_and_a_box() -> None:
    after, _ = knock(gin(held=E5), "KH")
    assert after.results[-1].winners == (1,) and after.boxes == [0, 1]
    assert after.table_view().players[1].score == "25 · 1 box"


# -- the game ------------------------------------------------------------------------------


E13_A = "AS 2S 3S 4H 5H 6H 7C 8C 9C 5D KH"
E13_B = "KD KC KS 6S 7S 8S 9S 10S QC 10H"


def _before_e13(b_boxes: int, **options) -> GinGame:
    game = gin(held=[E13_A, E13_B], **options)
    wins = [0] * 4 + [1] * b_boxes
    results = [HandResult(number=i + 1, winners=(w,), points=(0, 0), totals=(0, 0), held=(),
                          notes=(), summary="") for i, w in enumerate(wins)]
    return dataclasses.replace(game, totals=[92, 40], results=results,
                               showdowns=[None] * len(results), hand_number=len(results) + 1)


def test_GIN_34_35_and_E13_game_to_target_with_end_bonuses() -> None:
    after, events = knock(_before_e13(2), "KH")
    assert after.is_over and after.running == [107, 40]
    assert after.totals == [332, 90] and after.winners == (0,)
    assert after.results[-1].totals == (332, 90)
    assert any("Final totals" in e.text for e in events)


def test_GIN_36_and_E13_shutout() -> None:
    assert knock(_before_e13(0), "KH")[0].totals == [664, 40]
    assert knock(_before_e13(0, shutout="bonus"), "KH")[0].totals == [432, 40]
    assert knock(_before_e13(0, shutout="off"), "KH")[0].totals == [332, 40]


def test_GIN_34_a_fixed_number_of_hands_ignores_the_target() -> None:
    game = gin(held=E5, hands=1, line_bonus=0, game_bonus=0, shutout="off")
    after, _ = knock(game, "KH")
    assert after.is_over and after.totals == [0, 25]
    equal = dataclasses.replace(gin(held=E5, hands=1, undercut_on_tie=False))
    after, _ = knock(equal, "KH")
    assert after.is_over and after.totals == [0, 0] and after.winners == (0, 1)


# -- options -------------------------------------------------------------------------------


def test_GIN_37_options_checked_at_creation_and_the_openspiel_preset() -> None:
    for bad in ({"knock_limit": 11}, {"target": 5}, {"big_gin_bonus": 101},
                {"shutout": "triple"}, {"turn_seconds": 5}, {"preset": "bicycle"}):
        with pytest.raises(InvalidOptions):
            GinOptions.build(**bad)
    preset = GinOptions.build(preset="openspiel")
    assert (preset.undercut_on_tie, preset.discard_taken_card, preset.hands,
            preset.line_bonus, preset.game_bonus, preset.shutout,
            preset.oklahoma_spades_double, preset.big_gin_bonus) == \
        (False, True, 1, 0, 0, "off", False, 0)
    explicit = GinOptions.build(preset="openspiel", undercut_on_tie=True, hands=None)
    assert explicit.undercut_on_tie and explicit.hands is None
    assert GinOptions.build(**dataclasses.asdict(explicit)) == explicit


def test_GIN_39_our_engine_lays_off_for_whoever_defends() -> None:
    for knocker in (0, 1):
        held = ["3H 4H 5H 9S 9D 9C JC QC KC 4S KS", "6H 7H 9H 10C 2C 2S 2D 5S KD QD"]
        game = gin(held=held[::-1] if knocker else held, turn=knocker)
        after, _ = knock(game, "KS")
        assert len(last_show(after).layoffs) == 4


def test_GIN_E16_a_knock_the_openspiel_shortcut_would_not_offer() -> None:
    game = gin(held=["AS 3S 4S 5S 4H 5H 2D 3D 4D 5D 2C", None], upcard="7C", oklahoma=True)
    assert game.knock_limit == 7
    preview = game.knock_preview(0, card("5H"))
    assert preview.grouping.count == 7
    assert [c.code for c in preview.grouping.deadwood] == ["AS", "2C", "4H"]


# -- Discord-facing texts ------------------------------------------------------------------


def test_GIN_41_the_knock_message() -> None:
    game = gin(held=["3H 4H 5H 9S 9D 9C JC QC KC 4S KS", "6H 7H 9H 10C 2C 2S 2D 5S KD QD"])
    _, events = knock(game, "KS")
    (over,) = [e for e in events if e.kind == "hand_over"]
    assert "**Knock** discarding KS: {p0} melds 3H 4H 5H | 9S 9D 9C | JC QC KC, deadwood " \
           "4S = 4." in over.text
    assert "6H → 3H 4H 5H" in over.text and "10C → JC QC KC" in over.text
    assert "deadwood 5S QD KD = 25. {p0} scores 25 − 4 = 21." in over.text
    assert "{p0} 21 (1 box)" in over.text
    view = game.apply(Knock(0, card("KS")))[0].result_view()
    defender = next(p for p in view.placings if p.seat == 1)
    assert defender.grouped and defender.deadwood_value == 25
    assert [g.kind for g in defender.groups] == ["set", "layoff", "layoff", "layoff"]
    assert defender.grouping_note == \
        "laid off: 6H 7H → 3H 4H 5H · 9H → 9S 9D 9C · 10C → JC QC KC"


# -- timeouts --------------------------------------------------------------------------------


def test_GIN_42_no_timer_with_zero_seconds() -> None:
    game = gin(held=[None, None], phase="draw", turn_seconds=0)
    refused(game, Timeout(0), "there is no turn timer in this game")


def test_GIN_43_and_E15_the_bot_draws_and_discards_for_an_absent_player() -> None:
    game = gin(held=["2S 3S 4S 9H 9D 9C KD QH 5C 6C", None], stock="JH", phase="draw")
    after, _ = game.apply(Timeout(0))
    assert card("KD") == after.pile[-1] and after.timeouts[0] == 1
    assert after.turn == 1 and not after.results
    offer = new(seed=3)
    passed, _ = offer.apply(Timeout(offer.turn))
    assert passed.offer == 2


def test_GIN_44_three_timeouts_put_a_player_on_auto_play_both_absent_abandon() -> None:
    game = dataclasses.replace(gin(held=[None, None], phase="draw"), timeouts=[2, 0])
    game, events = game.apply(Timeout(0))
    assert game.auto[0] and any(e.kind == "auto_play" for e in events)
    assert game.turn == 1 and game.table_view().players[0].state.value == "auto-play"
    game, _ = game.apply(Draw(1, "stock"))
    game, events = game.apply(Discard(1, game.hands[1][0]))
    assert game.turn == 1 and any(e.kind == "auto_turn" for e in events)  # played at once
    resumed, _ = game.apply(Resume(0))
    assert not resumed.auto[0] and resumed.timeouts[0] == 0
    refused(resumed, Resume(0), "you are not on auto-play")
    both = dataclasses.replace(gin(held=E5), auto=[True, True])
    after, _ = knock(both, "KH")
    assert after.is_over and after.abandoned and after.winners == ()
    assert after.result_view().title == "Game abandoned"


def test_GIN_41_the_results_picture_groups_both_hands_and_marks_lay_offs() -> None:
    import cardart

    game = gin(held=["3H 4H 5H 9S 9D 9C JC QC KC 4S KS", "6H 7H 9H 10C 2C 2S 2D 5S KD QD"])
    view = game.apply(Knock(0, card("KS")))[0].result_view()
    defender = next(p for p in view.placings if p.seat == 1)
    assert [view.group_title(g) for g in defender.groups] == ["Set", "Laid off", "Laid off",
                                                             "Laid off"]
    knocker = next(p for p in view.placings if p.seat == 0)
    assert [view.group_title(g) for g in knocker.groups] == ["Run", "Set", "Run"]
    png = cardart.render_results(view, ["alice", "bob"], title="Gin Rummy")
    assert png.startswith(b"\x89PNG")


def test_GIN_38_openspiel_cards_actions_and_parameters() -> None:
    from bench.gin import meld_pieces, os_id, os_parameters

    assert [os_id(c) for c in cards("AS AC AD AH KS KH")] == [0, 13, 26, 39, 12, 51]
    assert os_parameters(GinOptions.build(preset="openspiel", knock_limit=7)) == {
        "knock_card": 7, "gin_bonus": 25, "undercut_bonus": 25, "oklahoma": False}
    run = tuple(cards("2H 3H 4H 5H 6H 7H 8H 9H"))
    assert [len(p) for p in meld_pieces(run)] == [5, 3]
    assert [len(p) for p in meld_pieces(run[:6])] == [3, 3]
    assert meld_pieces(run[:5]) == [run[:5]]
