"""The Indian Rummy computer player (bot/ai/indian.py) and the random legal player."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai.indian import assess, choose_move, has_pure_run, hopeless
from bot.ai.random_player import random_move
from bot.engine.moves import Discard, Draw
from bot.engine.variants.indian import Declare, Drop, IndianGame, IndianOptions, indian_rules
from tests.test_indian_helpers import card, cards, indian

P1, P2 = 0, 1
SHOW = "AD 2D 3D 4D 5S 6S 7S 9D 9S 9C QS QD QC"
LOOSE2 = "3H 5H 7H 9H QH AH 3D 5D 7D 9D JD KD 2S"


def test_IND_23_computer_declares_a_valid_show() -> None:
    """IND-23: with a valid show in hand, the computer declares (and the show is valid)."""
    game = indian(2, held=[SHOW + " KH", LOOSE2], phase="discard", packs=2)
    move = choose_move(game, P1, random.Random(1))
    assert move == Declare(P1, card("KH"))
    after, _ = game.apply(move)
    assert after.results[-1].winners == (P1,)


def test_IND_21_computer_drops_a_hopeless_hand_at_its_first_turn() -> None:
    """IND-21: no joker, no pure sequence, high cards everywhere: first drop."""
    hopeless_hand = "AS 4S 7S 10S 2H 5H 8H JH 3D 6D 9D QD KC"
    game = indian(2, held=[hopeless_hand, LOOSE2], cut=None, packs=2)
    assert hopeless(cards(hopeless_hand), game.rules)
    assert choose_move(game, P1, random.Random(1)) == Drop(P1)
    later = dataclasses.replace(game, has_drawn=[True, False])
    assert isinstance(choose_move(later, P1, random.Random(1)), Draw)


def test_IND_12_computer_keeps_pure_sequences_and_discards_high_deadwood() -> None:
    """IND-12, IND-27: the pure sequence stays; the dearest loose card goes."""
    hand = "4S 5S 6S 7S 9H 10H JH 2C 2D 2H KD 8C 3D 5H"
    game = indian(2, held=[hand, LOOSE2], phase="discard", cut="6C", packs=2)
    move = choose_move(game, P1, random.Random(3))
    assert isinstance(move, Discard) and move.card == card("KD")


def test_IND_7_computer_keeps_jokers() -> None:
    """IND-7: jokers are never thrown away while other cards are loose."""
    hand = "4S 5S 6S 9H JK 2C 2D KD 8C 3D QH 7C 7H AS"
    game = indian(2, held=[hand, LOOSE2], phase="discard", cut="7D", packs=2)
    move = choose_move(game, P1, random.Random(3))
    assert isinstance(move, Discard) and not game.is_joker(move.card)


def test_IND_18_computer_takes_a_useful_open_card() -> None:
    """IND-18: the open card that completes a pure sequence is taken; a useless one is not."""
    hand = "4S 5S 9H 10H JH 2C 2D 2H KD 8C 3D QC AH"
    game = indian(2, held=[hand, LOOSE2], cut="7C", open="6S", packs=2)
    assert choose_move(game, P1, random.Random(1)) == Draw(P1, "open")
    useless = indian(2, held=[hand, LOOSE2], cut="7C", open="6D", packs=2)
    assert choose_move(useless, P1, random.Random(1)) == Draw(P1, "closed")


def test_IND_18_computer_never_asks_for_an_open_joker() -> None:
    """IND-18: a joker on the open deck (after a discard) is not requested."""
    hand = "4S 5S 9H 10H JH 2C 2D 2H KD 8C 3D QC AH"
    game = indian(2, held=[hand, LOOSE2], cut="7C", open="2S 7D", packs=2)
    assert choose_move(game, P1, random.Random(1)) == Draw(P1, "closed")


def test_IND_12_assessment_basics() -> None:
    """IND-12, IND-23: a valid show scores below any unfinished hand; pure runs detected."""
    rules = indian_rules(10)
    done = assess(cards(SHOW), rules)
    assert done.valid and done.pure
    assert not assess(cards(LOOSE2), rules).valid
    assert done.score < assess(cards(LOOSE2), rules).score
    assert has_pure_run(cards("QH KH AH")) and not has_pure_run(cards("KH AH 2H"))
    assert not has_pure_run(cards("5H JK 7H"))


@pytest.mark.parametrize("fmt, players", [("points", 2), ("pool101", 3), ("deals", 4),
                                          ("pool201", 2)])
def test_IND_16_computer_games_run_to_the_end(fmt: str, players: int) -> None:
    """IND-16, IND-24, IND-31, IND-32: computer players finish whole games; every move is
    accepted and every card stays in one place (long deals reshuffle the closed deck)."""
    options = IndianOptions.build(format=fmt, deals=2)
    game = IndianGame.new(players, options, seed=players * 31 + len(fmt))
    rng = random.Random(7)
    kinds = set()
    for _ in range(3000):
        if game.is_over:
            break
        seat = game.to_move
        game, events = game.apply(choose_move(game, seat, rng))
        kinds.update(e.kind for e in events)
        assert game.all_cards() == game.deck()
    assert game.is_over
    assert "declare" in kinds


def test_IND_17_random_player_chooses_among_legal_moves() -> None:
    """IND-17: the random legal player always picks a listed move."""
    game = IndianGame.new(3, IndianOptions(), seed=5)
    rng = random.Random(2)
    while not game.is_over:
        seat = game.to_move
        move = random_move(game, seat, rng)
        assert move in game.legal_moves(seat)
        game, _ = game.apply(move)
    with pytest.raises(ValueError):
        random_move(game, 0, rng)


def test_IND_17_computer_is_deterministic_given_its_rng() -> None:
    """IND-17: the same state and the same rng seed give the same move."""
    game = IndianGame.new(2, IndianOptions(), seed=12)
    moves = {choose_move(game, game.to_move, random.Random(4)) for _ in range(3)}
    assert len(moves) == 1
    with pytest.raises(ValueError):
        choose_move(game, 1 - game.to_move, random.Random(4))


def test_IND_21_computer_beats_random_players() -> None:
    """IND-21 – IND-26: over a handful of two-player deals the computer wins nearly all."""
    wins = 0
    for seed in range(20):
        game = IndianGame.new(2, IndianOptions(), seed=seed)
        rng = random.Random(seed)
        players = (choose_move, random_move) if seed % 2 else (random_move, choose_move)
        while not game.is_over:
            seat = game.to_move
            game, _ = game.apply(players[seat](game, seat, rng))
        computer = 0 if seed % 2 else 1
        wins += game.results[-1].winners == (computer,)
    assert wins >= 16
