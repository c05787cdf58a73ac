"""Words a player reads: results naming the groups, plurals, the card just drawn, options."""

from __future__ import annotations

from bot.engine.cards import Card, Face, Suit
from bot.engine.variants.indian import IndianOptions
from bot.engine.variants.straight import StraightOptions
from bot.engine.views import HandView, MeldView, Placing, ResultView
from bot.registry import rules as rules_text
from bot.rules_text import options_text
from bot.texts import (
    amount,
    drawn_text,
    grouping_text,
    not_your_turn_text,
    record_text,
    result_number,
    result_text,
)
from tests.engine_helpers import cards


def test_plural_agrees_with_the_count() -> None:
    assert amount(1) == "1 point" and amount(0) == "0 points" and amount(2, "chip") == "2 chips"
    assert amount(1.5) == "1.5 points" and amount(33.5, "chip") == "33.5 chips"


def test_record_text_agrees_in_number() -> None:
    assert record_text(1, 1, 1.0, 12) == "1 game, 1 win (100%), avg 12 points"
    assert record_text(3, 0, 0.0, 1) == "3 games, 0 wins (0%), avg 1 point"


def test_record_text_reads_a_variant_unit_and_may_leave_the_average_out() -> None:
    # Rummi stores half-chips (RMI-22): 67 half-chips read 33.5 chips.
    assert record_text(2, 1, 0.5, 67, "chip", 2) == "2 games, 1 win (50%), avg 33.5 chips"
    assert record_text(3, 1, 1 / 3, 10 / 3) == "3 games, 1 win (33%), avg 3.3 points"
    assert record_text(2, 1, 0.5, None) == "2 games, 1 win (50%)"
    assert result_number(-11, 2) == "-5.5" and result_number(12) == "12"


def test_not_your_turn_says_whose_turn_it_is() -> None:
    assert not_your_turn_text(1, ["Ana", "Ben"]) == "It is not your turn: it is Ben's turn."
    assert not_your_turn_text(None, ["Ana", "Ben"]) == "It is nobody's turn now."


def test_drawn_text_names_the_newest_card() -> None:
    hand = cards("7H 8H 9C")
    assert drawn_text(HandView(0, tuple(hand), newest=hand[2])) == "You drew **9C**."
    assert drawn_text(HandView(0, tuple(hand))) == ""


def _meld(text: str, kind: str, faces: str | None = None) -> MeldView:
    pieces = tuple(cards(text))
    shown = tuple(cards(faces)) if faces else pieces
    return MeldView(1, pieces, tuple(Face.of(c) for c in shown), kind)


def test_result_text_names_groups_and_deadwood() -> None:
    loser = Placing(1, 2, "12", "12", held=tuple(cards("5H 6H 7H 9C 9D JK KD 2C")),
                    note="counted 12",
                    groups=(_meld("5H 6H 7H", "run"), _meld("9C 9D JK", "set", "9C 9D 9S")),
                    deadwood=tuple(cards("KD 2C")), deadwood_value=12)
    indian = ResultView("indian", "Deal 1 result", (loser,), run_word="sequence")
    assert grouping_text(loser, indian) == ("Pure sequence 5H 6H 7H · Set 9C 9D JK(=9S) · "
                                            "Deadwood: KD 2C (12)")
    rummi = ResultView("rummi", "Game 1 result", (loser,), run_word="sequence",
                       set_word="kill", pure_runs=False)  # Rummi's words (RMI-10, RMI-11)
    assert grouping_text(loser, rummi) == ("Sequence 5H 6H 7H · Kill 9C 9D JK(=9S) · "
                                           "Deadwood: KD 2C (12)")
    winner = Placing(0, 1, "0", "0", held=tuple(cards("AD 2D 3D 4S 5S JK")),
                     finish=Card(8, Suit.H),
                     groups=(_meld("AD 2D 3D", "run"), _meld("4S 5S JK", "run", "4S 5S 6S")),
                     deadwood_value=0)
    text = result_text(ResultView("indian", "Deal 1 result", (winner, loser),
                                  run_word="sequence"), ["Ana", "Ben"])
    assert text.splitlines()[0] == ("1. **Ana** 0, total 0 — Pure sequence AD 2D 3D · "
                                    "Sequence 4S 5S JK(=6S) · finished with 8H")
    assert "Deadwood: KD 2C (12)" in text.splitlines()[1]


def test_result_text_keeps_ungrouped_hands_flat() -> None:
    text = result_text(ResultView("straight", "Hand 1 result",
                                  (Placing(1, 2, "+0", "0", held=tuple(cards("KD 2C"))),)),
                       ["Ana", "Ben"])
    assert text == "2. **Ben** +0, total 0 — held KD 2C"


def test_options_read_naturally() -> None:
    indian = options_text(IndianOptions)
    assert "`deals` (2, 3 or 6; default 2)" in indian and "0–0" not in indian
    assert "`decks` (1 or 2, or leave it out)" in indian
    assert "`turn_seconds` (0, or 10 to 600; default 90)" in indian
    straight = options_text(StraightOptions)
    assert "`aces` (low, high, both or around; default low)" in straight
    assert "`hands` (1 to 100, or leave it out)" in straight
    for text, options in ((indian, IndianOptions), (straight, StraightOptions)):
        assert len(text.splitlines()) == len(options.specs())
        assert " | " not in text and " or or " not in text
    assert "at most twice a hand" in rules_text("straight")
