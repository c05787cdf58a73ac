"""The Rummy 500 computer players: legal moves only, and the choices their docstring claims."""

from __future__ import annotations

import random

import pytest

from bot.ai.rummy500 import choose_easy, choose_move
from bot.engine.moves import Discard, Draw, LayOff, MeldDown, Take
from tests.rummy500_helpers import card, cards, new, rummy500

P = 0


@pytest.mark.parametrize("chooser", [choose_move, choose_easy])
def test_whole_games_are_played_with_legal_moves_only(chooser) -> None:
    for seed in range(2):
        game = new(3, seed=seed, target=150, jokers=seed == 1)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            game, _ = game.apply(chooser(game, game.to_move, rng))
        assert game.is_over


def test_it_takes_a_deep_card_that_makes_a_meld_worth_more_than_the_cards_above() -> None:
    game = rummy500(held=["KH KS 2C 5D 9S", None], pile="8C KD 3H")
    move = choose_move(game, P, random.Random(0))
    assert isinstance(move, Take) and move.card == card("KD") and move.meld is None
    assert set(move.with_cards) == set(cards("KH KS"))


def test_it_draws_when_no_pile_card_is_worth_its_cost() -> None:
    game = rummy500(held=["4H 2C 9S QD 7C", None], pile="3H 5H KC QC JD 10C 8S 9D")
    assert choose_move(game, P, random.Random(0)) == Draw(P, "stock")


def test_it_melds_then_lays_off_then_discards_a_card_that_feeds_nobody() -> None:
    game = rummy500(held=["4H 5H 6H 9S KD 2C", None], table=[(1, "10S JS QS")], pile="7D",
                    phase="play")
    move = choose_move(game, P, random.Random(0))
    assert isinstance(move, MeldDown) and move.melds[0][0][0] == card("4H")
    game, _ = game.apply(move)
    move = choose_move(game, P, random.Random(0))
    assert move == LayOff(P, ((card("9S"), None),), 1)
    game, _ = game.apply(move)
    assert choose_move(game, P, random.Random(0)) == Discard(P, card("KD"))


def test_easy_takes_only_the_top_card() -> None:
    game = rummy500(held=["KH KS 2C 5D 9S", None], pile="8C KD 3H")
    assert choose_easy(game, P, random.Random(0)) == Draw(P, "stock")
    top = rummy500(held=["KH KS 2C 5D 9S", None], pile="8C 3H KD")
    move = choose_easy(top, P, random.Random(0))
    assert isinstance(move, Take) and move.card == card("KD")
    assert set(move.with_cards) == set(cards("KH KS"))
