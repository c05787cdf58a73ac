"""The Penang computer player (bot/ai/penang.py): legal, purposeful, and it finishes games."""

from __future__ import annotations

import random

import pytest

from bot.ai.penang import choose_move, shed_plan
from bot.ai.random_player import random_move
from bot.engine.cards import JOKER
from bot.engine.moves import Done, LayOff, MeldDown, Swap
from bot.engine.variants.penang import DeclareDead, PenangGame, PenangOptions
from tests.engine_helpers import card, cards
from tests.penang_helpers import A, B, penang, play

BIG = ["10S JS QS 2C 5D 9H KC 3S 7D", "10H JH QH 2D 5C 9S KD 3H 7C", "JD JD JC 2H 5S 9D KH 3C 7S",
       "4D 4D 4S 2S 5H 9C KS 3D 7H"]
"""Hands long enough that nobody is close to going out."""


def moves_of_turn(game: PenangGame, seat: int) -> tuple[PenangGame, list]:
    """Let the computer play ``seat``'s whole turn; the game after it and the moves made."""
    made = []
    rng = random.Random(0)
    serial = game.turn_serial
    while not game.is_over and game.to_move == seat and game.turn_serial == serial:
        move = choose_move(game, seat, rng)
        made.append(move)
        game, _ = game.apply(move)
    return game, made


def test_PEN_20_goes_out_when_it_can() -> None:
    """PEN-20: a hand that can be played out entirely this turn is played out."""
    game = penang(held=["5C 6C 7C 9S 9H JK 8H", *BIG[1:]], table=["5H 6H 7H"], turn=A)
    game, made = moves_of_turn(game, A)
    assert game.is_over and game.results[-1].notes[A] == "Game"
    assert all(not isinstance(m, Done) for m in made)


def test_PEN_13_keeps_its_hand_alive_one_card_at_a_time() -> None:
    """PEN-13/PEN-14: with nobody close to going out, one single-card lay-off, then done."""
    game = penang(held=["8H 9H AS AH 2C 6D", *BIG[1:]], table=["5H 6H 7H", "AC AD AC"], turn=A)
    after, made = moves_of_turn(game, A)
    actions = [m for m in made if isinstance(m, MeldDown | LayOff)]
    assert len(actions) == 1 and isinstance(actions[0], LayOff)
    assert len(actions[0].cards) == 1
    assert actions[0].meld == 1  # the run end first: another player may take it
    assert isinstance(made[-1], Done) and after.to_move == B


def test_PEN_16_takes_a_substitution_that_frees_a_joker() -> None:
    """PEN-16: a swap that frees a joker is taken."""
    game = penang(held=["6H 9S 2C 5D 9H KC", *BIG[1:]], table=["5H JK 7H", "QC QD QS"], turn=A)
    move = choose_move(game, A, random.Random(1))
    assert move == Swap(A, card("6H"), 1)


def test_PEN_15_passport_meld_keeps_jokers() -> None:
    """PEN-15: the passport is a meld without jokers when one exists."""
    game = penang(held=["JK 5D 6D 7D 9C 9S 2H KC", *BIG[1:]], turn=A, passport=False)
    move = choose_move(game, A, random.Random(1))
    assert isinstance(move, MeldDown)
    assert JOKER not in [p for p, _ in move.melds[0]]


def test_PEN_25_sheds_jokers_and_high_cards_when_an_opponent_is_close() -> None:
    """PEN-25: an opponent with 3 cards left: everything that can go, goes (jokers too)."""
    hands = ["JK KS 8H AC 9S 2D", "3H 4C 9D", *BIG[2:]]
    game = penang(held=hands, table=["5H 6H 7H", "KH KD KC", "AS AD AH"], turn=A)
    after, made = moves_of_turn(game, A)
    assert [c.code for c in after.hands[A]] == ["9S", "2D"]
    first = made[0]
    assert isinstance(first, LayOff) and first.cards[0][0] in (JOKER, card("AC"))
    calm = penang(held=hands[:1] + BIG[1:], table=["5H 6H 7H", "KH KD KC", "AS AD AH"], turn=A)
    after, made = moves_of_turn(calm, A)
    assert len(after.hands[A]) == 5


def test_PEN_21_alone_it_sheds_everything() -> None:
    """PEN-21: with every opponent Dead only points matter: it plays all it can."""
    game = penang(held=["JK KS 8H AC 9S 2D", *BIG[1:]], table=["5H 6H 7H", "KH KD KC"],
                  turn=A, out=[False, True, True, True])
    plan, out = shed_plan(game, A)
    assert not out and len(plan) == 3  # KS, 8H and the joker; AC 9S 2D fit nowhere
    after, _ = moves_of_turn(game, A)
    assert sorted(c.code for c in after.hands[A]) == ["2D", "9S", "AC"]


def test_choose_move_is_deterministic() -> None:
    game = PenangGame.new(4, seed=7)
    seat = game.to_move
    assert choose_move(game, seat, random.Random(1)) == choose_move(game, seat, random.Random(2))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_computer_moves_are_legal_and_games_finish(players: int) -> None:
    """Every move the computer makes is accepted, and whole matches end."""
    for seed in range(3):
        game = PenangGame.new(players, PenangOptions(games=2, jokers=6 + 2 * (seed % 2)),
                              seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            game, _ = game.apply(choose_move(game, game.to_move, rng))  # raises if illegal
        assert game.is_over and len(game.results) == 2


def test_computer_against_random_players_finishes() -> None:
    for seed in range(4):
        game = PenangGame.new(4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_move
            move = choose_move(game, seat, rng) if seat == 0 else random_move(game, seat, rng)
            assert not (seat == 0 and isinstance(move, DeclareDead))
            game, _ = game.apply(move)
        assert game.is_over


def test_computer_never_concedes_with_a_move_left() -> None:
    game = play(penang(held=["5C 6C 7C 2H", *BIG[1:]], turn=A, passport=False))
    move = choose_move(game, A, random.Random(0))
    assert move == MeldDown(A, ((tuple((c, None) for c in cards("5C 6C 7C"))),))
