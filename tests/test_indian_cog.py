"""Indian's controls without Discord: buttons, panel, confirmations, results."""

from __future__ import annotations

import json

import pytest

from bot.controls.base import (
    ARG_LIMIT,
    Reply,
    decode_declaration,
    encode_declaration,
)
from bot.controls.indian import IndianControls
from bot.customids import decode_positions
from bot.engine.errors import IllegalMove, NotYourTurn
from bot.engine.moves import Discard, Draw
from bot.engine.variants.indian import Declare, Drop, IndianGame
from bot.ui import CUSTOM_ID_LIMIT
from tests.test_indian_helpers import card, cards, groups, indian

COG = IndianControls()

# Seed example A (IND-23): 10s wild, P1 draws 8H and shows.
SHOW = "AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC"
HAND_A = "AD 2D 3D 4D 5S 6S 7S 9D 9S 9C QS QD QC 8H"
OTHER = "2H 3H 5H 6C 7C 9H JH KH KS KD 4C 8C JC"


def after_drawing(hand: str = HAND_A, **kw) -> IndianGame:
    return indian(3, held=[hand, OTHER, "AH 4H 7H 8D 10D JD 2C 3C 5C 6D 8S 10S JS"],
                  phase="discard", **kw)


def labels(buttons) -> list[str]:
    return [b.label for b in buttons]


def state(game: IndianGame) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


# -- the turn message and the panel ---------------------------------------------------------


def test_turn_buttons_draw_take_and_drop() -> None:
    game = indian(2, held=[HAND_A[:-3], OTHER], open="5C KC")
    buttons = COG.turn_buttons(game)
    assert labels(buttons) == ["Draw closed", "Take KC", "Drop"]
    assert [(b.action, b.arg) for b in buttons] == [("draw", "closed"), ("draw", "open"),
                                                    ("drop", "")]
    assert not any(b.disabled for b in buttons)
    assert COG.turn_buttons(after_drawing()) == []  # nothing routine after drawing


def test_a_joker_on_the_open_deck_cannot_be_taken() -> None:
    game = indian(2, held=[HAND_A[:-3], OTHER], open="5C 10D")  # 10s wild, 10D discarded
    take = COG.turn_buttons(game)[1]
    assert take.label == "Take 10D" and take.disabled
    with pytest.raises(IllegalMove, match=r"^jokers cannot be taken from the open deck$"):
        game.apply(COG.action(game, 0, "draw", "open", [], []))


def test_panel_after_drawing_needs_exactly_one_card() -> None:
    game = after_drawing()
    order = game.hand(0)
    none = COG.panel(game, 0, [], order)
    assert labels(none.buttons) == ["Discard selected", "Declare…", "Check show"]
    assert none.buttons[0].disabled and none.buttons[1].disabled and not none.buttons[2].disabled
    one = COG.panel(game, 0, [14], order)
    assert not any(b.disabled for b in one.buttons)
    assert decode_positions(one.buttons[1].arg) == [14]
    assert COG.panel(game, 0, [1, 2], order).buttons[0].disabled


def test_panel_before_drawing_out_of_turn_and_out_of_the_deal() -> None:
    game = indian(3, held=[HAND_A[:-3], OTHER, "AH 4H 7H 8D 10D JD 2C 3C 5C 6D 8S 10S JS"])
    assert labels(COG.panel(game, 0, [], game.hand(0)).buttons) == [
        "Draw closed", "Take 5C", "Drop", "Check show"]
    assert labels(COG.panel(game, 1, [], game.hand(1)).buttons) == ["Check show"]
    dropped, _ = game.apply(Drop(0))
    assert COG.panel(dropped, 0, [], dropped.hand(0)).buttons == ()


# -- check, declare, drop --------------------------------------------------------------------


def test_check_is_a_reply_that_changes_nothing() -> None:
    game = after_drawing()
    before = state(game)
    reply = COG.action(game, 0, "check", "", [], [])
    assert isinstance(reply, Reply) and "valid show" in reply.text
    assert labels(reply.buttons) == ["Declare with 8H"]  # the check was the preview
    finish, grouping = decode_declaration(game, 0, reply.buttons[0].arg)
    assert finish == card("8H") and grouping is None
    assert state(game) == before
    waiting = COG.action(game, 1, "check", "", [], [])
    assert isinstance(waiting, Reply) and not waiting.buttons  # not their turn: no declare


def test_declare_asks_first_and_the_answer_declares() -> None:
    game = after_drawing()
    before = state(game)
    question = COG.action(game, 0, "declare", "14", [card("8H")], [])
    assert isinstance(question, Reply)
    assert question.text.startswith("**Declare with 8H?**") and "valid show" in question.text
    assert labels(question.buttons) == ["Declare", "Cancel"]
    assert state(game) == before
    cancel = COG.action(game, 0, "dismiss", question.buttons[1].arg, [], [])
    assert cancel == Reply("Not declared: nothing changed.", update=True)
    move = COG.action(game, 0, "confirm", question.buttons[0].arg, [], [])
    assert move == Declare(0, card("8H"), None)
    over, _ = game.apply(move)
    assert over.results[-1].winners == (0,)


def test_a_wrong_show_is_named_before_it_is_confirmed() -> None:
    game = after_drawing()
    question = COG.confirm_declare(game, 0, card("QC"), None)
    assert "wrong show" in question.text and "80 points" in question.text
    assert question.buttons[0].style.name == "danger"


def test_typed_groups_travel_as_positions_with_joker_faces() -> None:
    hand = "3H 4H 5H 6H JC 7S QC QS QD QH 9S 9H 9C 2D"
    game = after_drawing(hand, cut="7D")  # 7s wild
    grouping = groups("3H 4H 5H 6H | JC 7S=KC QC | QS QD QH | 9S 9H 9C")
    arg, bare = encode_declaration(game, 0, card("2D"), grouping)
    assert not bare and "=KC" in arg and len(arg) <= ARG_LIMIT
    assert decode_declaration(game, 0, arg) == (card("2D"), grouping)
    question = COG.confirm_declare(game, 0, card("2D"), grouping)
    assert "valid show" in question.text


def test_a_grouping_too_long_for_a_button_drops_its_faces(monkeypatch) -> None:
    hand = "3H 4H 5H 6H JC 7S QC QS QD QH 9S 9H 9C 2D"
    game = after_drawing(hand, cut="7D")  # 7s wild
    grouping = groups("3H 4H 5H 6H | JC 7S=KC QC | QS QD QH | 9S 9H 9C")
    worst = "t123456~14~" + "|".join(["10=10H-11=10H-12=10H-13=10H"] * 3 + ["1-2-3-4-5"])
    assert len(f"rm:{10**18}:confirm:{worst}") > CUSTOM_ID_LIMIT  # faces can overflow…
    monkeypatch.setattr("bot.controls.base.ARG_LIMIT", 30)
    arg, bare = encode_declaration(game, 0, card("2D"), grouping)
    assert bare and "=" not in arg  # … so they are left out (they are optional, IND-15)
    question = COG.confirm_declare(game, 0, card("2D"), grouping)
    assert "left for the bot to choose" in question.text and "valid show" in question.text


def test_a_stale_confirmation_is_refused() -> None:
    game = after_drawing()
    arg = COG.action(game, 0, "declare", "14", [card("8H")], []).buttons[0].arg
    moved, _ = game.apply(Discard(0, card("8H")))
    with pytest.raises(IllegalMove, match="out of date"):
        COG.action(moved, 0, "confirm", arg, [], [])


def test_drop_button_asks_and_the_answer_drops() -> None:
    game = indian(3, held=[HAND_A[:-3], OTHER, "AH 4H 7H 8D 10D JD 2C 3C 5C 6D 8S 10S JS"])
    question = COG.action(game, 0, "drop", "", [], [])
    assert isinstance(question, Reply) and "first drop costs 20" in question.text
    assert labels(question.buttons) == ["Drop (20)", "Cancel"]
    assert COG.action(game, 0, "dropok", question.buttons[0].arg, [], []) == Drop(0)
    with pytest.raises(NotYourTurn):
        COG.action(game, 1, "drop", "", [], [])
    with pytest.raises(IllegalMove, match="you can drop only before drawing"):
        COG.action(after_drawing(), 0, "drop", "", [], [])
    drawn, _ = game.apply(Draw(0, "closed"))
    with pytest.raises(IllegalMove, match="out of date"):
        COG.action(drawn.apply(Discard(0, drawn.hand(0)[0]))[0], 0, "dropok",
                   question.buttons[0].arg, [], [])


# -- the results picture's finish slot ----------------------------------------------------------


def test_the_declarers_finish_card_is_in_the_results() -> None:
    game = after_drawing()
    over, _ = game.apply(Declare(0, card("8H"), groups(SHOW)))
    winner = over.result_view().placings[0]
    assert winner.seat == 0 and winner.finish == card("8H")
    assert sorted(winner.held) == sorted(cards(SHOW.replace("|", "")))
    assert all(p.finish is None for p in over.result_view().placings[1:])
    dropped, _ = indian(2, held=[HAND_A[:-3], OTHER]).apply(Drop(0))  # no show, no finish
    assert all(p.finish is None for p in dropped.result_view().placings)
