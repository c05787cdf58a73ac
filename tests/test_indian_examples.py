"""The fourteen worked examples of the Indian Rummy spec (20-indian.md), one test (or more) each."""

from __future__ import annotations

import pytest

from bot.engine.game import Timeout
from bot.engine.moves import Discard, Draw
from bot.engine.variants.indian import (
    Declare,
    Drop,
    IndianGame,
    card_value,
    indian_rules,
    judge_grouping,
    loser_count,
    search_show,
)
from tests.test_indian_helpers import card, cards, groups, indian, position, refused

P1, P2, P3, P4 = 0, 1, 2, 3

EXAMPLE_A = "AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC"
FILLER = ["2C 4C 6C 8C JC KC 2H 4H 6H 8H JH KH 3S",
          "3H 5H 7H 9H QH AH 3D 5D 7D 9D JD KD 2S",
          "AC 3C 7C 10C 10D 6D 8D QD 8S JS KS AS 4S"]
"""Hands for players who only watch (two packs, nothing wild in them for cut 10H)."""


def flat(text: str) -> str:
    return text.replace("|", " ")


def declare(game: IndianGame, seat: int, finish: str, grouping: str | None = None):
    return game.apply(Declare(seat, card(finish), groups(grouping) if grouping else None))


def test_IND_E1_seed_example_A_valid_show() -> None:
    """IND-23, IND-24: P1 draws 8H and shows a valid grouping; P1 scores 0, the deal ends."""
    game = indian(4, held=[flat(EXAMPLE_A), *FILLER], cut="10H", closed="8H")
    game, _ = game.apply(Draw(P1, "closed"))
    game, events = declare(game, P1, "8H", EXAMPLE_A)
    result = game.results[-1]
    assert result.winners == (P1,) and result.points[P1] == 0
    assert game.is_over and game.open[-1] == card("8H")
    assert all(result.points[s] > 0 for s in (P2, P3, P4))
    assert any(e.kind == "declare" and "valid show" in e.text for e in events)


@pytest.mark.parametrize("wild", [9, 5])
def test_IND_E1_variants_nines_or_fives_wild(wild: int) -> None:
    """IND-12, IND-13: with 9s wild 9D 9S 9C is a set of jokers; with 5s wild 5S 6S 7S is pure."""
    verdict = judge_grouping(groups(EXAMPLE_A), indian_rules(wild))
    assert verdict.valid and verdict.pure_sequences == 2


def test_IND_E2_seed_example_B_impure_and_search() -> None:
    """IND-11 – IND-14: 7H stands for KC in JC 7H QC; the search finds a valid split too."""
    grouping = "3H 4H 5H 6H | JC 7H QC | QS QD QC | 9S 9H 9C"
    game = indian(3, held=[flat(grouping), FILLER[0], FILLER[1]], cut="7S", closed="KD")
    game, _ = game.apply(Draw(P1, "closed"))
    verdict = judge_grouping(groups(grouping), game.rules)
    assert verdict.valid and (verdict.sequences, verdict.pure_sequences) == (2, 1)
    assert "7H(=KC)" in verdict.shown
    explicit, _ = declare(game, P1, "KD", grouping)
    searched, events = declare(game, P1, "KD")
    for after in (explicit, searched):
        assert after.results[-1].winners == (P1,)
    assert "7H(=KC)" in events[0].text or "7H(=" in events[0].text


def test_IND_E3_wrong_show_only_one_sequence() -> None:
    """IND-23, IND-25: every group valid but one sequence: 80, out, 6D on top, play goes on."""
    grouping = "2S 3S 4S | 8H 8D 8C | KS KH KD | 5C 5D 5H 5S"
    game = indian(3, held=[flat(grouping), FILLER[0], FILLER[1]], cut="9C", open="2D",
                  closed="6D")
    game, _ = game.apply(Draw(P1, "closed"))
    game, events = declare(game, P1, "6D", grouping)
    assert not game.active[P1] and game.deal_points[P1] == 80
    assert game.deal_notes[P1] == "wrong show"
    assert game.open[-1] == card("6D")
    assert game.to_move == P2 and game.phase == "draw" and not game.is_over
    wrong = next(e for e in events if e.kind == "wrong_show")
    assert "only one sequence" in wrong.text and "\n" not in wrong.text


def test_IND_E4_cap_at_80() -> None:
    """IND-27: no sequence possible, so all 13 count: 118, capped to 80."""
    hand = cards("KS KH QD QC JD 10S 10H 9C 9D 8S 8H 7C 7D")
    rules = indian_rules(4)
    assert sum(card_value(c, rules) for c in hand) == 118
    assert loser_count(hand, rules) == 80
    game = indian(2, held=[flat(EXAMPLE_A), "KS KH QD QC JD 10S 10H 9C 9D 8S 8H 7C 7D"],
                  cut="4C", closed="8C", open="2C", packs=2)
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = declare(game, P1, "8C", EXAMPLE_A)
    assert game.results[-1].points == (0, 80)


def test_IND_E5_only_leftovers_count() -> None:
    """IND-27: 4S 5S 6S | 9H 10H JK | KD KC KS, left over 2D 3C 8C 5H = 18 (not 82)."""
    hand = cards("4S 5S 6S 9H 10H JK KD KC KS 2D 3C 8C 5H")
    rules = indian_rules(7)
    assert sum(card_value(c, rules) for c in hand) == 82
    assert loser_count(hand, rules) == 18
    game = indian(2, held=[flat(EXAMPLE_A), "4S 5S 6S 9H 10H JK KD KC KS 2D 3C 8C 5H"],
                  cut="7C", closed="8H", open="2C", packs=2)
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = declare(game, P1, "8H", EXAMPLE_A)
    assert game.results[-1].points == (0, 18)
    assert game.results[-1].notes[P2] == "counted 18"


def test_IND_E6_duplicate_suit_in_a_set() -> None:
    """IND-13: 7S 7S 7H is no set when 10s are wild (wrong show); with 7s wild it is."""
    grouping = "2H 3H 4H | 6C 7C 8C | 7S 7S 7H | KD KC KH JK"
    game = indian(4, held=[flat(grouping), *FILLER], cut="10H", closed="9S")
    game, _ = game.apply(Draw(P1, "closed"))
    after, events = declare(game, P1, "9S", grouping)
    assert after.deal_points[P1] == 80 and not after.active[P1]
    assert "7S 7S 7H is not a set: two 7S in a set" in events[0].text
    sevens = judge_grouping(groups(grouping), indian_rules(7))
    assert sevens.valid and sevens.pure_sequences == 2


def test_IND_E7_no_K_A_2() -> None:
    """IND-11: KH AH 2H is not a sequence (wrong show); KH JK 2H is not one either."""
    grouping = "5D 6D 7D | KH AH 2H | 9S 9C 9D | JS JH JD JC"
    game = indian(4, held=[flat(grouping), *FILLER], cut="4H", closed="10C")
    game, _ = game.apply(Draw(P1, "closed"))
    after, events = declare(game, P1, "10C", grouping)
    assert after.deal_points[P1] == 80
    assert "KH AH 2H is not a sequence" in events[0].text
    with_joker = judge_grouping(groups("KH JK 2H"), indian_rules(4))
    assert not with_joker.valid and "KH JK 2H is not a sequence" in with_joker.reason


def test_IND_E8_printed_joker_cut_makes_aces_wild() -> None:
    """IND-7: cut JK, so aces are jokers: AS stands for 10H, AC for a K; aces count 0."""
    grouping = "2C 3C 4C | 8H 9H AS | KS KD AC | 5D 5H 5S 5C"
    game = indian(3, held=[flat(grouping), FILLER[0], FILLER[1]], cut="JK", closed="QH")
    assert game.wild_rank == 1
    verdict = judge_grouping(groups(grouping), game.rules)
    assert verdict.valid and "AS(=10H)" in verdict.shown and "AC(=K)" in verdict.shown
    assert judge_grouping(groups("AH 2H 3H"), game.rules).pure_sequences == 1
    assert judge_grouping(groups("AD AH AC"), game.rules).sequences == 0
    assert card_value(card("AS"), game.rules) == 0
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = declare(game, P1, "QH", grouping)
    assert game.results[-1].winners == (P1,)


def test_IND_E9_drops() -> None:
    """IND-21, IND-28, IND-29: P2 first drop 20, P3 middle drop 40, P4 refused after drawing,
    P1 shows: P4 counted 27; P1's gain is 87."""
    p4 = "2S 3S 4S 5H 6H 7H 8H QD QC QH 9C 8D KD"
    junk = "2C 3C 4C 5C 6C 7C 8C 9C"
    game = indian(4, held=[flat(EXAMPLE_A), FILLER[0], FILLER[1], p4], cut="10H",
                  closed=junk, open="JH")
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, card("2C")))
    game, _ = game.apply(Drop(P2))  # P2's first turn, before drawing
    assert game.deal_points[P2] == 20 and game.deal_notes[P2] == "first drop"
    for _ in range(2):  # P3's first and second turns; P4 and P1 draw and discard
        game, _ = game.apply(Draw(P3, "closed"))
        game, _ = game.apply(Discard(P3, game.drawn))
        game, _ = game.apply(Draw(P4, "closed"))
        refused(game, Drop(P4), "you can drop only before drawing")
        game, _ = game.apply(Discard(P4, game.drawn))
        game, _ = game.apply(Draw(P1, "closed"))
        game, _ = game.apply(Discard(P1, game.drawn))
    game, _ = game.apply(Drop(P3))  # P3's third turn
    assert game.deal_points[P3] == 40 and game.deal_notes[P3] == "middle drop"
    game, _ = game.apply(Draw(P4, "closed"))
    game, _ = game.apply(Discard(P4, game.drawn))
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = declare(game, P1, game.drawn.code)
    result = game.results[-1]
    assert result.points == (0, 20, 40, 27)
    assert result.notes[P1] == "valid show, wins 87"


def test_IND_E10_last_player_left() -> None:
    """IND-26: with 2 players, P2's first drop ends the deal at once: P1 0, P2 20."""
    game = indian(2, held=[flat(EXAMPLE_A), FILLER[0]], closed="3C")
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, card("3C")))
    game, events = game.apply(Drop(P2))
    assert game.is_over and game.results[-1].points == (0, 20)
    assert game.results[-1].winners == (P1,)
    assert any("last player left" in e.text for e in events)


P1_30 = "2S 3S 4S 5H 6H 7H QD QC QH KD 9C 8D 3C"
"""A loser's hand counted 30 (KD 9C 8D 3C left over)."""


def test_IND_E11_pool_elimination() -> None:
    """IND-31: P1 85 + 30 = 115 is eliminated; P2 60 + 20 = 80; P3 40; next deal P2 v P3, 53
    cards."""
    game = indian(3, held=[P1_30, FILLER[0], flat(EXAMPLE_A)], cut="10H", closed="KC",
                  turn=P2, totals=[85, 60, 40], format="pool101")
    game, _ = game.apply(Drop(P2))
    game, _ = game.apply(Draw(P3, "closed"))
    game, events = declare(game, P3, "KC")
    result = game.results[-1]
    assert result.points == (30, 20, 0)
    assert game.totals == [115, 80, 40] and result.totals == (115, 80, 40)
    assert game.eliminated == [True, False, False] and "eliminated" in result.notes[P1]
    assert not game.is_over and game.deal_number == 2
    assert game.packs == 1 and game.hands[P1] == [] and sum(game.deck().values()) == 53
    assert game.all_cards() == game.deck()
    assert len(game.hands[P2]) == len(game.hands[P3]) == 13
    assert any(e.kind == "eliminated" for e in events)


@pytest.mark.parametrize("start, out", [(70, False), (71, True)])
def test_IND_E11_exactly_100_survives(start: int, out: bool) -> None:
    """IND-31: a total of exactly 100 survives; 101 is eliminated."""
    game = indian(3, held=[P1_30, FILLER[0], flat(EXAMPLE_A)], cut="10H", closed="KC",
                  turn=P3, totals=[start, 0, 0], format="pool101")
    game, _ = game.apply(Draw(P3, "closed"))
    game, _ = declare(game, P3, "KC")
    assert game.totals[P1] == start + 30
    assert game.eliminated[P1] is out


def test_IND_E11_pool201_drop_costs_25() -> None:
    """IND-21: in pool201 the same first drop costs 25."""
    game = indian(3, held=[P1_30, FILLER[0], flat(EXAMPLE_A)], turn=P2, format="pool201")
    game, _ = game.apply(Drop(P2))
    assert game.deal_points[P2] == 25


def test_IND_E12_jokers_on_the_open_deck() -> None:
    """IND-18: 7D (7s wild) discarded by P1 cannot be taken; P2 draws from the closed deck."""
    game = indian(2, held=[flat(EXAMPLE_A), FILLER[0]], cut="7C", closed="7D 2D", open="9H",
                  packs=2)
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = game.apply(Discard(P1, card("7D")))
    refused(game, Draw(P2, "open"), "jokers cannot be taken from the open deck")
    game, _ = game.apply(Draw(P2, "closed"))
    assert card("2D") in game.hands[P2]


@pytest.mark.parametrize("pickup", [True, False])
def test_IND_E12_first_open_card_joker(pickup: bool) -> None:
    """IND-18: the deal's first open card JK may be taken first, unless the option is off."""
    game = indian(2, held=[flat(EXAMPLE_A), FILLER[0]], cut="7C", open="JK",
                  first_open_joker_pickup=pickup)
    if pickup:
        game, _ = game.apply(Draw(P1, "open"))
        assert game.drawn.is_joker
    else:
        refused(game, Draw(P1, "open"), "jokers cannot be taken from the open deck")


@pytest.mark.parametrize("fmt, cost", [("points", 40), ("pool201", 50)])
def test_IND_E13_timeouts(fmt: str, cost: int) -> None:
    """IND-35 – IND-37: P3's timer expires: the bot draws 9C and discards it (miss 1); the third
    consecutive miss drops P3 for 40 (50 in pool201)."""
    game = indian(3, held=[FILLER[0], FILLER[1], flat(EXAMPLE_A)], turn=P1, format=fmt,
                  closed="2D 3D 9C 4D 5D 6D 7D 8D 2H")
    for turn in range(3):
        for seat in (P1, P2):
            game, _ = game.apply(Draw(seat, "closed"))
            game, _ = game.apply(Discard(seat, game.drawn))
        expected = game.closed[-1]
        assert turn > 0 or expected == card("9C")
        game, _ = game.apply(Timeout(P3))
        assert game.open[-1] == expected
        if turn < 2:
            assert game.misses[P3] == turn + 1 and game.active[P3]
            assert len(game.hands[P3]) == 13
    assert not game.active[P3] and game.deal_points[P3] == cost
    assert game.deal_notes[P3] == "missed turns, middle drop"
    assert game.to_move == P1


def test_IND_E14_deals_format_chips() -> None:
    """IND-32: two deals of three players; chips P1 7, P2 -112, P3 105; P3 wins."""
    p2_32 = "2S 3S 4S 5H 6H 7H QD QC QH KD 9C 8D 5C"
    p1_45 = "AS 2S 3S 4S 5H 6H 7H KD QC 9C 8D 6D 2C"
    game = indian(3, held=[flat(EXAMPLE_A), p2_32, FILLER[0]], turn=P3, closed="KC",
                  format="deals", deals=2)
    game, _ = game.apply(Drop(P3))
    game, _ = game.apply(Draw(P1, "closed"))
    game, _ = declare(game, P1, "KC")
    assert game.results[-1].points == (52, -32, -20)
    assert game.deal_number == 2 and not game.is_over
    wrong = "2S 3S 4S | 8H 8D 8C | KS KH KD | 5C 5D 5H 5S"
    game = position(game, held=[p1_45, flat(wrong), flat(EXAMPLE_A)], turn=P2,
                    closed="6D KC", open="2H")
    game, _ = game.apply(Draw(P2, "closed"))
    game, _ = declare(game, P2, "6D", wrong)
    game, _ = game.apply(Draw(P3, "closed"))
    game, _ = declare(game, P3, "KC")
    assert game.results[-1].points == (-45, -80, 125)
    assert game.totals == [7, -112, 105] and sum(game.totals) == 0
    assert game.is_over and game.winners == (P3,)
    assert game.result_view().placings[0].seat == P3


def test_IND_E14_tied_chips_share_the_win() -> None:
    """IND-32: players tied on the most chips share the win."""
    game = indian(2, held=[flat(EXAMPLE_A), FILLER[0]], turn=P2, format="deals", deals=2)
    game, _ = game.apply(Drop(P2))
    game = position(game, held=[FILLER[0], flat(EXAMPLE_A)], turn=P1)
    game, _ = game.apply(Drop(P1))
    assert game.is_over and game.totals == [0, 0] and game.winners == (P1, P2)
    assert [p.place for p in game.result_view().placings] == [1, 1]


def test_IND_E_search_reports_no_pure_sequence() -> None:
    """IND-23: without a grouping, the search explains why no split qualifies."""
    verdict = search_show(cards("KS KH QD QC JD 10S 10H 9C 9D 8S 8H 7C 7D"), indian_rules(4))
    assert not verdict.valid and "pure sequence" in verdict.reason
    assert "\n" not in verdict.text
