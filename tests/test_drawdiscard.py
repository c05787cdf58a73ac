"""The draw-and-discard core itself: spread-pile look-ups, what seats know, the match loop.

Each variant's rules are tested in its own files; these check the parts of
:mod:`bot.engine.drawdiscard` that the next variants (Gin, Rummy 500) will use
in ways Straight, Indian and Remi do not yet: takes from any depth, a copy
named by position, the knowledge kept across plays.
"""

from __future__ import annotations

import dataclasses

from bot.engine.drawdiscard import forget
from bot.engine.game import Event
from bot.engine.moves import Discard, Draw, MeldDown, Take
from bot.engine.variants.straight import StraightGame
from tests.engine_helpers import card, cards, groups, refused, straight
from tests.remi_helpers import remi
from tests.rummy500_helpers import rummy500

P = 0


def test_a_pile_card_is_found_at_any_depth_or_refused_with_the_reason() -> None:
    """REM-16a, FHR-18: position 1 is the top; Rummy 500 (no deepest) reaches every card."""
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="9C 5H KD 2S QH")
    assert game.top_cards(5) == cards("QH 2S KD 5H 9C")
    assert game.position_of(card("5H")) == 4
    assert game.cards_above(4) == tuple(cards("KD 2S QH"))  # FHR-E1: they come too
    assert game.pile_refusal(card("5H"), None) == 4
    assert game.pile_refusal(card("5H"), 3) == ("5H is position 4 of the discard pile: only "
                                                "positions 1 to 3 can be taken")
    assert game.pile_refusal(card("5H"), None, position=4) == 4
    assert game.pile_refusal(card("5H"), None, position=2) == ("position 2 of the discard pile "
                                                               "is 2S, not 5H")
    assert game.pile_refusal(card("5H"), None, position=9) == ("the discard pile has no "
                                                               "position 9")
    assert game.pile_refusal(card("8C"), None) == "8C is not in the discard pile"


def test_a_take_naming_a_position_must_name_the_card_there() -> None:
    """Take.position (FHR-18 ``pos``) names one copy; the card must be the one there."""
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="3D 5C QH 4C")
    refused(game, Take(P, card("5C"), tuple(cards("6C 7C")), position=2),
            "position 2 of the discard pile is QH, not 5C")
    after, _ = game.apply(Take(P, card("5C"), tuple(cards("6C 7C")), position=3))
    assert after.table[0].meld.codes == "5C 6C 7C" and after.pile == cards("3D")


def test_cards_from_the_pile_are_known_until_played() -> None:
    """A take's received cards are public; cards leaving the hand are forgotten."""
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="3D 5C QH 4C")
    game, _ = game.apply(Take(P, card("5C"), tuple(cards("6C 7C"))))
    assert game.known[P] == cards("QH 4C")
    game, _ = game.apply(Discard(P, card("QH")))
    assert game.known[P] == cards("4C")
    assert forget(cards("4C 4C 9S"), cards("4C 2H")) == cards("4C 9S")


def test_a_meld_plays_known_cards_too() -> None:
    game = straight(2, held=["4S 4H 9C 2D", "KS QS 5H"], discard="3C 4D", stock="2H 3H")
    game, _ = game.apply(Draw(P, "discard"))
    assert game.known[P] == cards("4D") and game.taken == card("4D")
    game, _ = game.apply(MeldDown(P, groups("4S 4H 4D")))
    assert game.known[P] == []


def test_the_match_counts_hands_and_keeps_results_in_order() -> None:
    """Every finished hand adds its points to the totals and is numbered in order."""
    game = straight(2, held=["9C", "KS 2H"], phase="play", discard="3C", hands=3)
    game, events = game.apply(Discard(P, card("9C")))
    assert [e.kind for e in events][:3] == ["discard", "hand_over", "hand_started"]
    assert game.hand_number == 2 and [r.number for r in game.results] == [1]
    assert game.totals == [24, 0] and game.results[-1].totals == (24, 0)  # rummy: 2 × 12


def test_the_match_end_hook_runs_once_before_the_announcement() -> None:
    """``_end_match`` (Gin's end bonuses, GIN-35) runs when the match ends, between the last
    hand's announcement and the match's, and may change the final totals."""
    calls: list[list[int]] = []

    class Ending(StraightGame):
        def _end_match(self, events: list[Event]) -> None:
            calls.append(list(self.totals))
            self.totals = [t + 1 for t in self.totals]

    def ending(game: StraightGame) -> Ending:
        return Ending(**{f.name: getattr(game, f.name) for f in dataclasses.fields(game)
                         if f.init})

    game = ending(straight(2, held=["9C", "KS 2H"], phase="play", discard="3C", hands=1))
    game, events = game.apply(Discard(P, card("9C")))
    assert calls == [[24, 0]] and game.totals == [25, 1] and game.winners == (P,)
    assert [e.kind for e in events][-2:] == ["hand_over", "match_over"]
    game = ending(straight(2, held=["9C", "KS 2H"], phase="play", discard="3C", hands=2))
    game.apply(Discard(P, card("9C")))
    assert len(calls) == 1  # not at the end of a hand that does not end the match


def test_the_shared_take_lists_legal_takes_to_a_depth_and_checks_turn_and_phase() -> None:
    """FHR-33: one take machinery for Remi and Rummy 500 (the listing, the turn and phase)."""
    game = rummy500(held=["4H 6H KS KH 2C", "9S 9D"], pile="5H 8C KD 3D")
    assert [t.card for t in game.takes(P)] == cards("KD 5H")
    assert [t.card for t in game.takes(P, depth=2)] == cards("KD")
    assert game.take_positions(P) == [2, 4]
    refused(game, Take(1, card("KD"), tuple(cards("KS KH"))), "it is not your turn")
    game, _ = game.apply(Draw(P, "stock"))
    refused(game, Take(P, card("KD"), tuple(cards("KS KH"))), "you have already drawn")
