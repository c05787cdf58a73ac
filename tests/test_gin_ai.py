"""The Gin Rummy computer players (bot/ai/gin.py)."""

from __future__ import annotations

import dataclasses
import random

from bot.ai.gin import choose_easy, choose_move
from bot.ai.random_player import random_move
from bot.engine.moves import Discard, Draw, Resume
from bot.engine.variants.gin import GinGame, GinOptions, Knock, Pass
from tests.gin_helpers import card, cards, gin

CHOOSERS = (choose_move, choose_easy)


def test_GIN_19_both_levels_go_gin_when_they_can() -> None:
    game = gin(held=["2S 3S 4S 5S 8H 8D 8C JD QD KD AH", None])
    for choose in CHOOSERS:
        assert choose(game, 0, random.Random(1)) == Knock(0, card("AH"))


def test_GIN_17_the_knock_discard_leaves_the_least_deadwood() -> None:
    game = gin(held=["2S 3S 4S 8H 8D 8C JD QD KD 4C KH", None], stock_size=25)
    for choose in CHOOSERS:
        assert choose(game, 0, random.Random(1)) == Knock(0, card("KH"))


def test_GIN_8_the_upcard_is_taken_when_it_makes_a_meld_and_passed_otherwise() -> None:
    held = ["5H 6H 9S 9D 2C 4D JS QC KH 3S", None]
    offer = dataclasses.replace(gin(held=held, pile="7H"), phase="offer", offer=1)
    for choose in CHOOSERS:
        assert choose(offer, 0, random.Random(1)) == Draw(0, "discard")
    useless = dataclasses.replace(gin(held=held, pile="KC"), phase="offer", offer=1)
    assert choose_easy(useless, 0, random.Random(1)) == Pass(0)
    assert choose_move(useless, 0, random.Random(1)) == Pass(0)


def test_GIN_13_the_computer_draws_from_the_stock_when_the_discard_is_no_help() -> None:
    game = gin(held=["5H 6H 9S 9D 2C 4D JS QC KH 3S", None], pile="KC", phase="draw")
    for choose in CHOOSERS:
        assert choose(game, 0, random.Random(1)) == Draw(0, "stock")


def test_GIN_11_easy_throws_the_dearest_deadwood_and_never_breaks_a_meld() -> None:
    game = gin(held=["5H 6H 7H 9S 9D 9C 2C 4D JS KH 3S", None])
    move = choose_easy(game, 0, random.Random(1))
    assert isinstance(move, Discard) and move.card.code in ("JS", "KH")


def test_the_standard_level_keeps_a_card_the_opponent_could_meld() -> None:
    """bob took 8S and 8D from the pile: alice's 8C would give him a set, so she keeps it
    and throws 5S, which nothing of his is known to fit; the easy level throws 8C."""
    game = gin(held=["2H 3H 4H 5D 6D 7D 8C 5S 3C AS 2C", "8S 8D KH QH JH 10D 9D 9H 4C 6C"])
    game = dataclasses.replace(game, known=[[], cards("8S 8D")])
    assert choose_easy(game, 0, random.Random(1)) == Discard(0, card("8C"))
    assert choose_move(game, 0, random.Random(1)) == Discard(0, card("5S"))


def test_GIN_15_the_taken_card_is_never_thrown_back() -> None:
    game = gin(held=["5H 6H 9S 9D 2C 4D JS QC KH 3S", None], pile="7C", phase="draw")
    game, _ = game.apply(Draw(0, "discard"))
    for choose in CHOOSERS:
        assert choose(game, 0, random.Random(1)) != Discard(0, card("7C"))


def test_GIN_44_a_computer_on_auto_play_resumes() -> None:
    game = dataclasses.replace(gin(held=[None, None]), auto=[True, False])
    assert choose_move(game, 0, random.Random(1)) == Resume(0)


def test_the_computer_beats_the_random_player() -> None:
    """A small sample (bench/gin.py measures both levels against OpenSpiel's bot)."""
    wins = 0
    for seed in range(4):
        ours = seed % 2
        game = GinGame.new(2, GinOptions.build(target=50), seed)
        rng = random.Random(seed)
        for _ in range(20000):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            chooser = choose_move if seat == ours else random_move
            game, _ = game.apply(chooser(game, seat, rng))
        wins += game.winners == (ours,)
    assert wins == 4
