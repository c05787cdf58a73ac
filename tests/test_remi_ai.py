"""The Remi computer player (bot/ai/remi.py)."""

from __future__ import annotations

import dataclasses
import random

from bot.ai.random_player import random_move
from bot.ai.remi import best_discard, choose_move, evaluate
from bot.engine.moves import Discard, Draw, Resume
from bot.engine.variants.remi import Close, RemiGame, RemiOptions, Take
from tests.remi_helpers import card, cards, remi

P, Q = 0, 1


def test_REM_25_computer_closes_with_the_dearest_closing_card() -> None:
    """REM-19, REM-25: both 4H and AS could close; the ace brings 150."""
    game = remi(held=["4H 5H 6H 7H 8H 9H 10H AS", None], phase="discard")
    move = choose_move(game, P, random.Random(1))
    assert move == Close(P, card("AS"))
    after, _ = game.apply(move)
    assert after.results[-1].points[P] == 35 + 150


def test_REM_16_computer_takes_a_card_that_completes_a_combination() -> None:
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="QS 5C")
    move = choose_move(game, P, random.Random(1))
    assert move == Take(P, card("5C"), tuple(cards("6C 7C")))


def test_REM_16_computer_draws_when_no_take_is_worth_it() -> None:
    game = remi(held=["6C 7C 2H 9S JD KH AD", None], pile="5D QS")
    assert choose_move(game, P, random.Random(1)) == Draw(P, "stock")


def test_REM_11_computer_keeps_the_sequence_that_backs_its_set() -> None:
    """REM-11, REM-24: 2D 3D 4D backs 9S 9H 9D; the loose king goes, not a diamond."""
    game = remi(held=["2D 3D 4D 9S 9H 9D KC 5S", None], phase="discard")
    move = choose_move(game, P, random.Random(1))
    assert move == Discard(P, card("KC"))
    assert evaluate(cards("2D 3D 4D 9S 9H 9D 5S")) > evaluate(cards("2D 3D 9S 9H 9D KC 5S"))


def test_REM_30_computer_discards_the_highest_card_outside_its_arrangement() -> None:
    card_out, _ = best_discard(cards("2S 3S 4S 9H KD AC 6C 6H"), [], random.Random(1))
    assert card_out == card("AC")


def test_REM_31_computer_resumes_a_seat_on_auto_play() -> None:
    game = dataclasses.replace(remi(held=[None, None]), auto=[True, False])
    assert choose_move(game, P, random.Random(1)) == Resume(P)


def test_choices_are_deterministic_from_game_and_rng() -> None:
    game = RemiGame.new(3, RemiOptions(), seed=11)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(40):
        if game.is_over:
            break
        seat = game.to_move
        move = choose_move(game, seat, rng_a)
        assert choose_move(game, seat, rng_b) == move
        game, _ = game.apply(move)


def test_computer_beats_the_random_player() -> None:
    """A small sample of the bench (bench/remi_ai.py plays 1,000 matches)."""
    wins = 0
    for seed in range(6):
        players = (choose_move, random_move) if seed % 2 == 0 else (random_move, choose_move)
        game = RemiGame.new(2, RemiOptions(target=200), seed)
        rng = random.Random(seed)
        for _ in range(20000):
            if game.is_over:
                break
            seat = game.to_move
            game, _ = game.apply(players[seat](game, seat, rng))
        wins += game.winners == (seed % 2,)
    assert wins >= 5
