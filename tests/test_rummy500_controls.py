"""Rummy 500's controls without Discord: the take menus offer exactly what the hand can use."""

from __future__ import annotations

import pytest

from bot.controls.base import Reply
from bot.controls.rummy500 import Rummy500Controls
from bot.engine.errors import IllegalMove
from bot.engine.moves import Draw, Take
from tests.rummy500_helpers import card, cards, rummy500

CONTROLS = Rummy500Controls()
P = 0


def test_FHR_34_the_draw_panel_offers_the_pile_cards_the_picked_cards_use() -> None:
    game = rummy500(held=["4H 6H 10S 2C KD", "3C 8D"], pile="7D 5H JS 2D",
                    table=[(1, "7S 8S 9S")])
    order = game.hands[P]
    panel = CONTROLS.panel(game, P, [1, 2], order)
    (menu,) = panel.selects
    assert menu.options == (("Take 3: 5H with 4H 6H", "3"),)
    move = CONTROLS.action(game, P, "takewith", menu.arg, cards("4H 6H"), ["3"])
    assert move == Take(P, card("5H"), tuple(cards("4H 6H")))
    panel = CONTROLS.panel(game, P, [3], order)
    (menu,) = panel.selects
    assert menu.options == (("Take 2: JS with 10S on meld 1", "2@1"),)
    move = CONTROLS.action(game, P, "takewith", menu.arg, cards("10S"), ["2@1"])
    assert move == Take(P, card("JS"), tuple(cards("10S")), 1)
    assert [b.label for b in panel.buttons] == ["Draw", "Take…"]


def test_FHR_34_take_lists_usable_depths_then_asks_how_when_there_are_several_ways() -> None:
    game = rummy500(held=["4H 6H 3H 7H KD", "3C 8D"], pile="9C 5H JS")
    menu = CONTROLS.action(game, P, "take", "", [], [])
    assert isinstance(menu, Reply) and [b.label for b in menu.buttons] == ["Take 2: 5H"]
    question = CONTROLS.action(game, P, "takeat", "2", [], [])
    assert isinstance(question, Reply)
    labels = {b.label: b.arg for b in question.buttons}
    assert "With 4H 6H" in labels and "With 3H 4H" in labels and "With 6H 7H" in labels
    move = CONTROLS.action(game, P, "takeuse", labels["With 4H 6H"], [], [])
    assert move == Take(P, card("5H"), tuple(cards("4H 6H")))
    with pytest.raises(IllegalMove, match="cannot use JS"):
        CONTROLS.action(game, P, "takeat", "1", [], [])
    with pytest.raises(IllegalMove, match="out of date"):
        CONTROLS.action(game, P, "takeat", "9", [], [])
    assert CONTROLS.action(game, P, "draw", "", [], []) == Draw(P, "stock")
    nothing = rummy500(held=["2C 9D", "3C 8D"], pile="5H JS")
    answer = CONTROLS.action(nothing, P, "take", "", [], [])
    assert isinstance(answer, Reply) and not answer.buttons and "draw" in answer.text
    with pytest.raises(IllegalMove, match="not your turn"):
        CONTROLS.action(game, 1, "take", "", [], [])
