"""The Rummi computer player (bot/ai/rummi.py): legal, deterministic, and playing by its plan."""

from __future__ import annotations

import random

from bot.ai.random_player import random_move
from bot.ai.rummi import choose_move
from bot.engine.moves import Done, MeldDown
from bot.engine.variants.rummi import RummiGame, RummiOptions
from tests.engine_helpers import cards
from tests.rummi_helpers import add, meld, play, rummi, who

FILL = ["10H JH QH KH", "QD QD QC QC", "4D 4D 4S 4S"]


def test_moves_are_legal_and_deterministic() -> None:
    for seed in range(6):
        game = RummiGame.new(4, RummiOptions(plays_per_turn="many" if seed % 2 else "one"),
                             seed=seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            move = choose_move(game, seat, random.Random(1))
            assert move == choose_move(game, seat, random.Random(2))
            assert move in game.legal_moves(seat) or isinstance(move, Done)
            game, _ = game.apply(move)


def test_goes_for_hu() -> None:
    a, *_ = who()
    game = rummi(held=["8H", *FILL], table=["5H 6H 7H"])
    assert choose_move(game, a) == add(a, "8H", 1)
    game = rummi(held=["9S 10S JS", *FILL], table=["5H 6H 7H"])
    assert choose_move(game, a) == meld(a, "9S 10S JS")


def test_passport_early_with_the_dearest_sequence_of_its_plan() -> None:
    a, *_ = who()
    game = rummi(held=["2C 3C 4C QS KS AS 7D 9H", *FILL], passport=False)
    move = choose_move(game, a)
    assert isinstance(move, MeldDown)
    assert sorted(p for p, _ in move.melds[0]) == sorted(cards("QS KS AS"))


def test_keeps_a_card_a_kill_will_still_take() -> None:
    """A loose 9C fits the kill of 9s at any later turn; 8H may lose its sequence end."""
    a, *_ = who()
    game = rummi(held=["8H 9C 2S 6D KC", *FILL], table=["5H 6H 7H", "9S 9D 9H"])
    assert choose_move(game, a) == add(a, "8H", 1)


def test_sheds_aces_first() -> None:
    a, *_ = who()
    game = rummi(held=["5S AH 9C 2D", *FILL], table=["6S 7S 8S", "2H 3H 4H"])
    assert choose_move(game, a) == add(a, "AH", 2)


def test_keeps_its_joker_for_a_lean_turn() -> None:
    a, *_ = who()
    game = rummi(held=["JK 5S 9C 2D", *FILL], table=["6S 7S 8S"])
    assert choose_move(game, a) == add(a, "5S", 1)


def test_lays_melds_of_its_plan_one_per_turn() -> None:
    a, *_ = who()
    game = rummi(held=["2C 3C 4C 7S 7H 7D 9D", *FILL], table=["5H 6H 7H"])
    move = choose_move(game, a)
    assert isinstance(move, MeldDown)
    assert sorted(p for p, _ in move.melds[0]) in (sorted(cards("2C 3C 4C")),
                                                  sorted(cards("7S 7H 7D")))


def test_with_many_it_ends_the_turn_keeping_sure_plays() -> None:
    a, *_ = who()
    game = rummi(held=["8H 2C 3C 4C 9S 9S 9D JD", *FILL], table=["5H 6H 7H"],
                 plays_per_turn="many")
    game = play(game, choose_move(game, a))
    assert game.to_move == a
    moves = []
    while game.to_move == a:
        move = choose_move(game, a)
        moves.append(move)
        game = play(game, move)
    assert moves[-1] == Done(a) and len(game.hands[a]) >= 3


def test_beats_random_players_more_often_than_chance() -> None:
    """A small sample of the bench (bench/rummi_ai.py): well above the 25% of chance."""
    wins = 0.0
    games = 40
    for seed in range(games):
        game = RummiGame.new(4, seed=seed)
        rng = random.Random(seed)
        me = seed % 4
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game, _ = game.apply((choose_move if seat == me else random_move)(game, seat, rng))
        chips = game.results[-1].points
        if chips[me] == max(chips):
            wins += 1 / chips.count(max(chips))
    assert wins / games >= 0.4
