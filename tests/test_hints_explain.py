"""The words of a hint (bot.engine.explain): real melds, the right card values, each variant's
own moves; and the hint's move (bot.hints) is one the engine accepts, the same every time."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import hints
from bot.engine.explain import HIDDEN, brief, explain, hidden_result
from bot.engine.moves import Discard, Done, Draw, LayOff, MeldDown, Take, placed
from bot.engine.variants.indian import Declare, Drop
from bot.engine.variants.remi import Close
from bot.engine.variants.rummi import Leave
from bot.engine.variants.tiles import Arrange
from bot.hints import condense, hint, hint_level, hint_move
from bot.registry import VARIANTS
from tests.engine_helpers import card, cards, straight
from tests.penang_helpers import penang
from tests.remi_helpers import remi
from tests.rummi_helpers import rummi
from tests.test_indian_helpers import indian
from tests.tiles_helpers import tiles_game, tl

A, B = 0, 1


# -- Straight: draws and discards, with STR-4 values -------------------------------------


def test_STR_4_taking_the_discard_names_the_meld_it_completes_then_the_discard() -> None:
    game = straight(2, held=["7H 8H KC 2D 3S 5C 6C", "2C 3C 4C"], discard="9H")
    text = explain(game, A, [Draw(A, "discard"), Discard(A, card("KC"))])
    assert text == ("Take 9H: it completes 7H 8H 9H. Then discard KC: it fits nothing and "
                    "costs 10 points.")


def test_STR_4_an_ace_low_costs_one_point_and_high_fifteen() -> None:
    hand = ["AS 7H 8H 9H KD", "2C 3C 4C"]
    low = straight(2, held=hand, discard="5C", phase="play", aces="low")
    assert explain(low, A, [Discard(A, card("AS"))]) == \
        "Discard AS: it fits nothing and costs 1 point."
    high = straight(2, held=hand, discard="5C", phase="play", aces="high")
    assert explain(high, A, [Discard(A, card("AS"))]) == \
        "Discard AS: it fits nothing and costs 15 points."


def test_STR_18_a_stock_draw_says_why_not_the_discard_and_leaves_the_rest_to_ask() -> None:
    game = straight(2, held=["7H 8H 9H 2D", "2C 3C 4C"], discard="KS")
    text = explain(game, A, [Draw(A, "stock")], rest=HIDDEN)
    assert text.startswith("Draw from the stock: KS on the discard would not improve your hand.")
    assert text.endswith("Then ask again: what to keep depends on what you draw.")


def test_STR_18_a_taken_card_that_only_lowers_deadwood_says_by_how_much() -> None:
    game = straight(2, held=["KC QD 2S 9H 5D 4C 3H", "2C 3C 4H"], discard="AS", aces="low")
    text = explain(game, A, [Draw(A, "discard"), Discard(A, card("KC"))])
    # 47 points loose now; with AS for KC: 2+9+5+4+3+10+1 = 34
    assert text.startswith("Take AS: after your discard, your unmelded cards cost 34 points "
                           "instead of 43 points.")


def test_STR_19_STR_20_melds_and_layoffs_name_their_cards_meld_numbers_and_values() -> None:
    game = straight(2, held=["QS QD QC 10H 4D 9C", "2C 3C 4C"], table=[(B, "7H 8H 9H")],
                    phase="play")
    meld = explain(game, A, [MeldDown(A, (placed(*cards("QS QD QC")),))])
    assert meld == ("Meld QS QD QC: a complete meld, and laying it down takes 30 points out of "
                    "your hand.")
    layoff = explain(game, A, [LayOff(A, placed(card("10H")), 1), Discard(A, card("9C"))])
    assert layoff.startswith("Lay off 10H on meld 1 (7H 8H 9H): it extends that run and sheds "
                             "10 points. Then discard 9C")


def test_STR_28_a_last_discard_goes_out() -> None:
    game = straight(2, held=["5D", "2C 3C 4C"], phase="play", discard="9S")
    assert explain(game, A, [Discard(A, card("5D"))]) == \
        "Discard 5D and go out: it is your last card."


def test_STR_22_a_discard_that_leaves_every_other_card_melded_shows_the_melds() -> None:
    game = straight(2, held=["7H 8H 9H QS QD QC 4D", "2C 3C 4C"], phase="play", discard="9S")
    assert explain(game, A, [Discard(A, card("4D"))]) == (
        "Discard 4D: every other card is then in a meld (QS QD QC | 7H 8H 9H).")


def test_brief_names_each_kind_of_move_for_the_rest_of_a_turn() -> None:
    assert brief(LayOff(A, placed(card("10S")), 2)) == "lay off 10S on meld 2"
    assert brief(MeldDown(A, (placed(*cards("5C 6C 7C")),))) == "meld 5C 6C 7C"
    assert brief(Done(A)) == "press Done"
    assert brief(Arrange(A, tuple(tl("R7 B7")))) == "place R7 B7 (Arrange)"


# -- each variant's own moves ----------------------------------------------------------------


def test_REM_3_REM_16_a_take_names_the_combination_and_the_cards_that_come_with_it() -> None:
    game = remi(2, held=["7S 8S 2H 9D KC QH 4D", None], pile="6S 3C")
    text = explain(game, A, [Take(A, card("6S"), tuple(cards("7S 8S"))),
                             Discard(A, card("KC"))])
    assert text == ("Take 6S with 7S 8S: together they make 6S 7S 8S, and the card above it "
                    "comes to your hand. Then discard KC: it fits nothing and costs 10 points.")


def test_REM_3_numerals_cost_five_in_remi() -> None:
    game = remi(2, held=["2H 9D KC QH 4D 5S 6S 8C", None], phase="discard", pile="3C")
    assert explain(game, A, [Discard(A, card("9D"))]) == \
        "Discard 9D: it fits nothing and costs 5 points."


def test_REM_19_a_close_names_the_melds_laid() -> None:
    game = remi(2, held=["7S 8S 9S QH QD QC 4D", None], phase="discard", pile="3C")
    assert explain(game, A, [Close(A, card("4D"))]) == (
        "Close with 4D: the rest of your hand goes down in melds (7S 8S 9S | QH QD QC) and the "
        "closing card earns its bonus.")


def test_IND_21_a_drop_says_what_it_costs_and_how_far_the_hand_is() -> None:
    game = indian(2, held=["2S 5H 9D KC QH 4C 7S AD 3H 8C 6D JS 10C",
                           "2C 3C 4D 5D 6S 7D 8D 9C 10D JD QD KD AS"], cut="JK")
    text = explain(game, A, [Drop(A)])
    assert text.startswith("Drop: a drop costs 20 points, and your hand leaves ")
    assert "unmelded, too far from a show to play on." in text


def test_PEN_23_a_penang_layoff_counts_an_ace_fifteen_and_the_turn_goes_on() -> None:
    game = penang(2, held=["AH 5C 9D", "2C 3C 4C"], table=["QH KH JH"])
    text = explain(game, A, [LayOff(A, placed(card("AH")), 1), Done(A)])
    assert text == ("Lay off AH on meld 1 (JH QH KH): it extends that run and sheds 15 points. "
                    "Then press Done.")


def test_RMI_a_rummi_meld_counts_cards_not_points() -> None:
    game = rummi(2, held=["5H 6H 7H 9C 2D", "2C 3C 4C"])
    seat = game.to_move
    assert seat is not None
    assert explain(game, seat, [MeldDown(seat, (placed(*cards("5H 6H 7H")),))]) == (
        "Meld 5H 6H 7H: a complete meld, and laying it down takes 3 cards out of your hand.")


def test_TIL_20_an_arrangement_names_the_melds_it_changes_and_the_points_placed() -> None:
    game = tiles_game(2, racks=["R10 B2 K9", "O1 O2 O3"], table=["R7 R8 R9"])
    text = explain(game, A, [Arrange(A, tuple(tl("R10"))), Done(A)])
    assert text == ("Place R10 (Arrange): the table is rearranged (meld 1 change), and 1 tile "
                    "worth 10 leaves your rack. Then press Done.")


def test_TIL_20_a_plan_of_many_steps_is_told_as_one_arrangement() -> None:
    game = tiles_game(2, racks=["R10 R11 B2 K9", "O1 O2 O3"], table=["R7 R8 R9"])
    steps = _plan_from(game, A)
    assert len(steps) > 3 and steps[-1] == Done(A)  # tiles moved and played one by one
    assert condense(game, A, steps) == [Arrange(A, tuple(tl("R10 R11"))), Done(A)]
    # A player who placed them already (however) is told to press Done.
    arranged, _ = game.apply(Arrange(A, tuple(tl("R10 R11"))))
    assert asyncio.run(hint(VARIANTS["tiles"], arranged, A, 1)).move == Done(A)


def _plan_from(game, seat):
    variant = VARIANTS["tiles"]
    moves = []
    state = game
    while True:
        move = variant.choose_move(state, seat, random.Random(0), hint_level(variant))
        moves.append(move)
        state, _ = state.apply(move)
        if state.to_move != seat or state.turn_serial != game.turn_serial:
            return moves


# -- the move: the strongest level, deterministic, accepted -----------------------------------


def test_the_hint_asks_the_strongest_level_the_registry_has() -> None:
    assert hint_level(VARIANTS["tiles"]) == "strong"
    assert hint_level(VARIANTS["straight"]) == next(iter(VARIANTS["straight"].computers))
    game = VARIANTS["straight"].game.new(2, seed=4)
    seat = game.to_move
    assert seat is not None
    chosen = asyncio.run(hint_move(VARIANTS["straight"], game, seat, 0))
    assert chosen == asyncio.run(hint_move(VARIANTS["straight"], game, seat, 0))
    assert chosen in game.legal_moves(seat)


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_a_hint_is_a_move_the_engine_accepts_and_the_same_each_time(key: str) -> None:
    variant = VARIANTS[key]
    game = variant.game.new(2, variant.game.options_type(), 3)
    rng = random.Random(1)
    for moves in range(30):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        given = asyncio.run(hint(variant, game, seat, moves))
        again = asyncio.run(hint(variant, game, seat, moves))
        assert given == again and given.text
        game.apply(given.move)  # accepted: raises if not
        game, _ = game.apply(variant.choose_move(game, seat, rng))


def test_IND_16_the_open_deck_is_seen_and_the_closed_deck_is_not() -> None:
    game = indian(2, held=["2S 3S 4S 9D 9H KC QH 4C 7S AD 3H 8C 6D",
                           "2C 3C 4D 5D 6S 7D 8D 10C 10D JD QD KD AS"], cut="JK", open="9C")
    assert not hidden_result(game, Draw(A, "open")) and hidden_result(game, Draw(A, "closed"))
    assert explain(game, A, [Draw(A, "open")]).startswith("Take 9C: it completes 9H 9D 9C.")
    assert explain(game, A, [Draw(A, "closed")], rest=HIDDEN).startswith(
        "Draw from the closed deck: 9C on the open deck would not improve your hand.")


def test_a_move_with_no_words_of_its_own_is_named_in_the_notation() -> None:
    game = rummi(2, held=["5H 6H 7H 9C 2D", "2C 3C 4C"])
    seat = game.to_move
    assert seat is not None
    assert explain(game, seat, [Leave(seat)]) == (
        "Play `leave`: it is what the strongest computer player would do now.")


def test_STR_19_the_rest_of_the_turn_is_told_and_left_to_ask_for_when_time_is_short(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = straight(2, held=["7H 8H KC 2D 3S 5C 6C", "2C 3C 4C"], discard="9H")
    straight_rummy = VARIANTS["straight"]
    whole = asyncio.run(hint(straight_rummy, game, A, 0))
    assert whole.move == Draw(A, "discard")
    assert whole.text == ("Take 9H: it completes 7H 8H 9H. Then meld 7H 8H 9H and discard KC: "
                          "it fits nothing and costs 10 points.")
    monkeypatch.setattr(hints, "PLAN_SECONDS", -1.0)  # a slow player: no time to look ahead
    hints._GIVEN.clear()
    short = asyncio.run(hint(straight_rummy, game, A, 0))
    assert short.move == whole.move
    assert short.text == ("Take 9H: it completes 7H 8H 9H. Then ask again for the rest of your "
                          "turn.")


def test_IND_23_a_show_names_its_sequences_and_sets() -> None:
    game = indian(2, held=["2S 3S 4S 5H 6H 7H 9D 9C 9H KD KC KH KS 8C",
                           "2C 3C 4D 5D 6S 7D 8D 10C 10D JD QD QH AS"], cut="JK",
                  phase="discard")
    text = explain(game, A, [Declare(A, card("8C"))])
    assert text.startswith("Declare, finishing with 8C: the other cards make a valid show: ")
    shown = {frozenset(group.split()) for group in text.split(": ", 2)[2][:-1].split(" | ")}
    assert shown == {frozenset(g.split()) for g in ("2S 3S 4S", "5H 6H 7H", "9D 9C 9H",
                                                    "KD KC KH KS")}
