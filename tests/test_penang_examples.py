"""The worked examples PEN-E1 … PEN-E15 of 30-penang.md, one test each."""

from __future__ import annotations

import pytest

from bot.engine.cards import JOKER
from bot.engine.errors import IllegalMove
from bot.engine.game import Timeout
from bot.engine.melds import read_meld
from bot.engine.moves import Done, LayOff, MeldDown, Swap, placed
from bot.engine.variants.penang import (
    DeclareDead,
    PenangGame,
    PenangOptions,
    hand_points,
    penang_rules,
)
from bot.engine.views import SeatState
from tests.engine_helpers import card, cards, groups, refused
from tests.penang_helpers import A, B, C, D, penang, play, position

FILL = ["10S JS QS", "10H JH QH", "JD JD JC", "4D 4D 4S"]
"""Per seat, a hand that can always act (a meld), for players whose turn only passes by."""


def lay(seat: int, text: str, number: int) -> LayOff:
    return LayOff(seat, placed(*cards(text)), number)


def meld(seat: int, text: str) -> MeldDown:
    return MeldDown(seat, groups(text))


def test_PEN_E1_passport_before_layoff() -> None:
    """PEN-E1 (PEN-15)."""
    game = penang(held=[FILL[0], "9C 9D 9S 7H KD", FILL[2], FILL[3]], table=[(A, "4H 5H 6H")],
                  turn=B, passport=[True, False, False, False])
    refused(game, lay(B, "7H", 1), "your first action must be a new meld (passport)")
    game = play(game, meld(B, "9C 9D 9S"), lay(B, "7H", 1))
    assert game.table[0].meld.codes == "4H 5H 6H 7H"
    assert game.table[1].meld.codes == "9S 9D 9C"
    game = play(game, Done(B))
    assert game.to_move == C


def test_PEN_E2_no_passport_is_dead_and_scores_151() -> None:
    """PEN-E2 (PEN-17, PEN-23)."""
    hand_b = "AS 2S 4S 5S 7S 8S 10S JS KS AH 2H 4H 5H 7H 8H 10H JH KH 3D 6C"
    assert len(cards(hand_b)) == 20
    game = penang(held=["QD QD QC 2C", hand_b, FILL[2], FILL[3]], turn=A,
                  passport=[False] * 4)
    game = play(game, meld(A, "QD QD QC"), Done(A))
    assert game.out[B] and game.notes[B] == "no passport"
    assert game.to_move == C
    assert hand_points(cards(hand_b)) == 151
    game = play(game, DeclareDead(C), DeclareDead(D))  # A, holding 2C, is then Dead too
    assert game.is_over and game.results[-1].points[B] == 151


def test_PEN_E3_run_joker_takes_only_its_card() -> None:
    """PEN-E3 (PEN-16)."""
    game = penang(held=[FILL[0], FILL[1], "10C 10D 5S", FILL[3]],
                  table=["4H 5H 6H", "7S 7D 7C", "9C JK JC"], turn=C)
    refused(game, Swap(C, card("10D"), 3), "JK in meld 3 stands for 10C; 10D does not fit")
    game = play(game, Swap(C, card("10C"), 3))
    assert game.table[2].meld.codes == "9C 10C JC"
    assert sorted(c.code for c in game.hands[C]) == ["10D", "5S", "JK"]


@pytest.mark.parametrize("swap", ["QS", "QD", "QC"])
def test_PEN_E4_set_joker_takes_any_suit(swap: str) -> None:
    """PEN-E4 (PEN-9, PEN-16): QS gives QS QH QS (a repeated suit); QD, QC fit too."""
    game = penang(held=["3C 3C 3H", FILL[1], FILL[2], f"{swap} 2C"],
                  table=["AS 2S 3S", "4D 5D 6D", "8C 9C 10C", "KH KD KC", "QS QH JK"], turn=D)
    game = play(game, Swap(D, card(swap), 5))
    assert game.table[4].meld.codes == f"QS QH {swap}"
    assert JOKER in game.hands[D]


def test_PEN_E5_no_swap_before_passport() -> None:
    """PEN-E5 (PEN-15)."""
    game = penang(held=[FILL[0], FILL[1], FILL[2], "10C 2D 3D 4D 8S"],
                  table=[(A, "4H 5H 6H"), (B, "7S 7D 7C"), (C, "9C JK JC")], turn=D,
                  passport=[True, True, True, False])
    refused(game, Swap(D, card("10C"), 3), "no passport yet: make a new meld first")
    game = play(game, meld(D, "2D 3D 4D"), Swap(D, card("10C"), 3))
    assert game.table[2].meld.codes == "9C 10C JC"


def test_PEN_E6_swap_is_not_an_action() -> None:
    """PEN-E6 (PEN-14, PEN-16)."""
    game = penang(held=[FILL[0], FILL[1], FILL[2], "QD 8S 2C"],
                  table=["AS 2S 3S", "4D 5D 6D", "8C 9C 10C", "KH KD KC", "QS QH JK"], turn=D)
    game = play(game, Swap(D, card("QD"), 5))
    assert game.table[4].meld.codes == "QS QH QD"
    refused(game, Done(D), "make at least one meld or lay-off first")
    game = play(game, lay(D, "JK", 5))
    assert game.table[4].meld.codes == "QS QH QD JK"
    game = play(game, Done(D))
    assert game.to_move == A


def test_PEN_E7_lay_off_at_both_ends_in_one_action() -> None:
    """PEN-E7 (PEN-12, PEN-13)."""
    game = penang(held=["2H 7H 9H AH 5C", FILL[1], FILL[2], FILL[3]],
                  table=[(B, "KS KD KC"), (B, "3H 4H 5H 6H")], turn=A)
    game = play(game, LayOff(A, placed(*cards("2H 7H")), 2))
    assert game.table[1].meld.codes == "2H 3H 4H 5H 6H 7H"
    assert game.actions == 1
    refused(game, lay(A, "9H", 2), "9H does not fit meld 2: 8H is missing")
    game = play(game, lay(A, "AH", 2))
    assert game.table[1].meld.codes == "AH 2H 3H 4H 5H 6H 7H"


def test_PEN_E8_sets_repeat_suits_and_have_no_upper_size() -> None:
    """PEN-E8 (PEN-9, PEN-13)."""
    game = penang(held=["8S " + FILL[0], "9H " + FILL[1], "8H 8H 8C 8S " + FILL[2],
                        "8D " + FILL[3]],
                  table=["AH 2H 3H"], turn=C)
    game = play(game, meld(C, "8H 8H 8C 8S"), Done(C))
    assert game.table[1].meld.codes == "8S 8H 8H 8C"
    game = play(game, lay(D, "8D", 2), Done(D), lay(A, "8S", 2), Done(A))
    assert len(game.table[1].meld) == 6
    assert sorted(c.code for c in game.table[1].meld.pieces) == sorted(
        ["8H", "8H", "8C", "8S", "8D", "8S"])
    refused(game, lay(B, "9H", 2), "9H does not fit meld 2: it takes only 8s")


def test_PEN_E9_runs_never_wrap() -> None:
    """PEN-E9 (PEN-8)."""
    game = penang(held=["KH AH 2H QH 3H AH 2H 5C", FILL[1], FILL[2], FILL[3]], turn=A)
    refused(game, meld(A, "KH AH 2H"),
            "KH AH 2H is not a run: it cannot wrap from K through A to 2")
    game = play(game, meld(A, "QH KH AH"))
    with pytest.raises(IllegalMove, match="wrap"):
        game.apply(lay(A, "2H", 1))
    game = play(game, meld(A, "AH 2H 3H"))
    assert game.table[1].meld.codes == "AH 2H 3H"
    high_only = penang(held=["AH 2H 3H 5C", FILL[1], FILL[2], FILL[3]], turn=A, ace_low=False)
    with pytest.raises(IllegalMove, match="an Ace is high only"):
        high_only.apply(meld(A, "AH 2H 3H"))


def test_PEN_E10_natural_card_and_one_natural_readings() -> None:
    """PEN-E10 (PEN-10, PEN-11)."""
    game = penang(held=["JK JK JK 5D 5C", FILL[1], FILL[2], FILL[3]], turn=A, jokers=8)
    refused(game, meld(A, "JK JK JK"), "a meld needs at least one natural card")
    rules = penang_rules()
    run = read_meld(list(groups("5D JK JK")[0]), rules)
    assert run.is_run and [f.label() for f in run.faces] == ["5D", "6D", "7D"]
    group = read_meld(list(groups("5D JK=5 JK")[0]), rules)
    assert not group.is_run and {f.rank for f in group.faces} == {5}
    after = play(game, meld(A, "5D JK=5 JK"))
    assert not after.table[0].meld.is_run


def test_PEN_E11_game_and_ranking() -> None:
    """PEN-E11 (PEN-20, PEN-23 … PEN-25)."""
    game = penang(held=["7H", "JK JK 7D", "AS KD 2C", "JK 5S 5H 9C"], table=["4H 5H 6H"],
                  turn=A, out=[False, False, False, True])
    game = play(game, lay(A, "7H", 1))
    assert game.is_over
    assert game.results[-1].points == (0, 47, 27, 39)
    view = game.result_view()
    assert [(p.seat, p.place) for p in view.placings] == [(A, 1), (C, 2), (D, 3), (B, 4)]
    assert view.placings[0].note == "Game"
    assert game.table_view().players[A].state == SeatState.WON


def test_PEN_E12_last_player_plays_on_alone_then_all_dead() -> None:
    """PEN-E12 (PEN-21, PEN-25)."""
    game = penang(3, held=["9S 4D 10H", "KC QC 3S", "7D 2C 8H"], table=["5H 6H 7H"],
                  turn=C, out=[True, True, False])
    serial = game.turn_serial
    game = play(game, lay(C, "8H", 1), Done(C))
    assert game.is_over  # C's next turn found no action: Dead, and everyone is Dead
    assert game.turn_serial == serial  # no further turn was started
    assert game.results[-1].points == (23, 23, 9)
    view = game.result_view()
    assert [(p.seat, p.place) for p in view.placings] == [(C, 1), (A, 2), (B, 2)]

    alone = penang(3, held=["9S 4D 10H", "KC QC 3S", "7D 2C 8H 9H"], table=["5H 6H 7H"],
                   turn=C, out=[True, True, False])
    alone = play(alone, lay(alone.turn, "8H", 1), Done(C))
    assert alone.to_move == C and not alone.is_over  # C takes turn after turn alone


def test_PEN_E13_substitution_keeps_a_hand_alive() -> None:
    """PEN-E13 (PEN-17)."""
    table = ["5H JK 7H", "QC QD QS"]
    game = penang(held=["KS KH KD 2C 3C", "6H 9S", FILL[2], FILL[3]], table=table, turn=A)
    game = play(game, meld(A, "KS KH KD"), Done(A))
    assert game.to_move == B and not game.out[B]
    game = play(game, Swap(B, card("6H"), 1), lay(B, "JK", 2), Done(B))
    assert game.to_move == C
    dead = penang(held=["KS KH KD 2C 3C", "9S 4C", FILL[2], FILL[3]], table=table, turn=A)
    dead = play(dead, meld(A, "KS KH KD"), Done(A))
    assert dead.out[B] and dead.to_move == C
    assert hand_points(dead.hands[B]) == 13


def test_PEN_E14_timeout_auto_play() -> None:
    """PEN-E14 (PEN-30, PEN-31)."""
    game = penang(held=[FILL[0], "KD 5C 9S 9H", FILL[2], FILL[3]],
                  table=["KS KH KC", "2C 3C 4C"], turn=B, turn_seconds=120)
    after = play(game, Timeout(B))
    assert sorted(after.table[0].meld.codes.split()) == ["KC", "KD", "KH", "KS"]
    assert sorted(c.code for c in after.hands[B]) == sorted(["5C", "9S", "9H"])
    assert after.timeouts[B] == 1 and after.to_move == C

    first = penang(held=[FILL[0], "2S 3S 4S 7C 7D 7H KH", FILL[2], FILL[3]], turn=B,
                   passport=[True, False, True, True], turn_seconds=120)
    after = play(first, Timeout(B))
    assert after.table[-1].meld.codes == "2S 3S 4S" and after.passport[B]

    tired = position(game, held=[FILL[0], "KD 5C 9S 9H", FILL[2], FILL[3]],
                     table=["KS KH KC", "2C 3C 4C"], turn=B)
    tired.timeouts[B] = 2
    after = play(tired, Timeout(B))
    assert after.out[B] and after.table[0].meld.codes == "KS KH KC"
    assert len(after.hands[B]) == 4


def test_PEN_E15_dealers_and_match_totals() -> None:
    """PEN-E15 (PEN-26, PEN-27)."""
    held1 = ["8H", "KS 10H 9D 2C", "10C 2D", "KD 10D 9S 2H"]
    for rule, dealer in (("winner", A), ("loser", B)):
        game = penang(held=held1, table=["5H 6H 7H"], turn=A, games=2, dealer_rule=rule)
        assert game.dealer == D
        game = play(game, lay(A, "8H", 1))
        assert game.results[-1].points == (0, 31, 12, 31)
        assert game.game_number == 2 and game.dealer == dealer
    # Game 2 (dealt by A under `winner`): D goes out.
    game = position(game, held=["KS KH KD QS", "5C", "KC 10C", "8H"], table=["5H 6H 7H"],
                    turn=D)
    game = play(game, lay(D, "8H", 1))
    assert game.is_over
    assert game.totals == [40, 36, 32, 31]
    view = game.result_view()
    assert [p.seat for p in view.placings] == [D, C, B, A]
    assert view.match_over and game.winners == (D,)


def test_examples_build_valid_games() -> None:
    """The builder keeps every card in one place (a sanity check of the helpers)."""
    game = penang(held=[FILL[0], FILL[1], FILL[2], FILL[3]], table=["4H 5H 6H"])
    assert game.inventory() == game.deck()
    assert isinstance(game, PenangGame) and PenangOptions().jokers == 6
