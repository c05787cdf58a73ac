"""``redeal_unseen`` of Penang, Rummi (shedding games) and Tile Rummy, as properties.

As for the draw-and-discard games (tests/test_redeal_unseen.py): the sample
keeps everything ``seat`` sees (the public view, its own hand), every piece
(inventory), every piece known to be in a hand (a Penang joker taken by a
swap, tiles another player has staged from their rack), and it depends only on
what ``seat`` may see: two games that differ only in hidden pieces give the
identical sample.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import penang as penang_ai
from bot.ai import rummi as rummi_ai
from bot.ai import tiles as tiles_ai
from bot.engine.errors import IllegalMove
from bot.engine.game import Game
from bot.engine.rng import Rng
from bot.engine.shedding import SheddingGame
from bot.engine.variants.penang import PenangGame
from bot.engine.variants.rummi import RummiGame
from bot.engine.variants.tiles import TilesGame

GAMES: dict[str, tuple[type[Game[Any]], Any]] = {
    "penang": (PenangGame, penang_ai.choose_move),
    "rummi": (RummiGame, rummi_ai.choose_move),
    "tiles": (TilesGame, tiles_ai.choose_strong),
}


def position(variant: str, players: int, seed: int, steps: int) -> Game[Any]:
    """A position reached by computers and random legal moves (never the game's end)."""
    cls, choose = GAMES[variant]
    game = cls.new(players, None, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        moves = game.legal_moves(seat)
        move = rnd.choice(moves) if moves and rnd.random() < 0.2 else choose(game, seat, rnd)
        try:
            after, _ = game.apply(move)
        except IllegalMove:
            continue
        if after.is_over:
            break
        game = after
    return game


def hidden_places(game: Game[Any], seat: int) -> list[list[Any]]:
    """The lists ``seat`` cannot see into (less known pieces, which ``shuffle_hidden`` keeps)."""
    if isinstance(game, SheddingGame):
        return [*(game.hands[s] for s in range(game.players) if s != seat), game.set_aside]
    assert isinstance(game, TilesGame)
    return [*(game.racks[s] for s in range(game.players) if s != seat), game.pool]


def known(game: Game[Any], seat: int, other: int) -> Counter[Any]:
    """Pieces of ``other``'s hand that ``seat`` knows are there."""
    if isinstance(game, SheddingGame):
        return Counter(game.hand(other)) & Counter(game.known[other])
    assert isinstance(game, TilesGame)
    if other == game.turn and not game.over:
        return Counter(game._placed_from_rack())
    return Counter()


def shuffle_hidden(game: Game[Any], seat: int, rnd: random.Random) -> Game[Any]:
    """The same game but for the hidden pieces and the generator: what ``seat`` cannot see."""
    twin = game.clone()
    places = hidden_places(twin, seat)
    others = [s for s in range(game.players) if s != seat]
    slots: list[tuple[list[Any], int]] = []
    for place, owner in zip(places, [*others, None], strict=True):
        keep = known(game, seat, owner) if owner is not None else Counter()
        for i, piece in enumerate(place):
            if keep[piece]:
                keep[piece] -= 1
            else:
                slots.append((place, i))
    pieces = [place[i] for place, i in slots]
    rnd.shuffle(pieces)
    for (place, i), piece in zip(slots, pieces, strict=True):
        place[i] = piece
    if isinstance(twin, SheddingGame):
        for s in others:
            twin.hands[s].sort(key=lambda c: c.index)
    else:
        assert isinstance(twin, TilesGame)
        twin.drawn = [t if t is None or s == seat else twin.racks[s][-1]
                      for s, t in enumerate(twin.drawn)]
    twin.rng = Rng(rnd.getrandbits(64))
    return twin


def check_redeal(game: Game[Any], seat: int, sample: int) -> Game[Any]:
    redealt = game.redeal_unseen(seat, Rng(sample))
    assert redealt.table_view() == game.table_view()
    assert redealt.hand_view(seat) == game.hand_view(seat)
    assert list(redealt.hand(seat)) == list(game.hand(seat))
    assert redealt.inventory() == game.inventory()
    for other in range(game.players):
        assert len(redealt.hand(other)) == len(game.hand(other))
        assert not known(game, seat, other) - Counter(redealt.hand(other))
    assert type(game).from_json(json.loads(json.dumps(redealt.to_json()))) == redealt
    return redealt


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(GAMES)), players=st.integers(2, 4),
       seed=st.integers(0, 10_000), steps=st.integers(0, 120), sample=st.integers(0, 2**32))
def test_redeal_keeps_what_the_seat_sees_and_every_piece(variant: str, players: int, seed: int,
                                                         steps: int, sample: int) -> None:
    game = position(variant, players, seed, steps)
    for seat in range(players):
        redealt = check_redeal(game, seat, sample)
        mover = redealt.to_move
        if mover is not None:  # the sample plays on: its legal moves are accepted
            moves = redealt.legal_moves(mover)
            if moves:
                redealt.apply(random.Random(sample).choice(moves))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(GAMES)), players=st.integers(2, 4),
       seed=st.integers(0, 10_000), steps=st.integers(0, 120), sample=st.integers(0, 2**32),
       other=st.integers(0, 2**32))
def test_games_differing_only_in_hidden_pieces_give_the_same_sample(
        variant: str, players: int, seed: int, steps: int, sample: int, other: int) -> None:
    game = position(variant, players, seed, steps)
    seat = seed % players
    twin = shuffle_hidden(game, seat, random.Random(other))
    assert twin.table_view() == game.table_view()
    assert twin.hand_view(seat) == game.hand_view(seat)
    assert twin.inventory() == game.inventory()
    assert (game.redeal_unseen(seat, Rng(sample)).to_json()
            == twin.redeal_unseen(seat, Rng(sample)).to_json())


def test_PEN_16_a_swapped_joker_stays_in_the_hand_until_played() -> None:
    """PEN-16: everyone sees the joker a swap takes go to the swapper's hand."""
    from bot.engine.cards import JOKER
    from bot.engine.variants.penang import Swap, possible_swaps

    for seed in range(200):
        game = position("penang", 3, seed, 30)
        if game.is_over or game.to_move is None:
            continue
        seat = game.to_move
        swaps = possible_swaps(game.hands[seat], game.table) if game.passport[seat] else []
        if not swaps:
            continue
        card, number, _slot = swaps[0]
        before = game.known[seat].count(JOKER)
        after, _ = game.apply(Swap(seat, card, number))
        assert after.known[seat].count(JOKER) == before + 1
        for sample in range(10):
            redealt = after.redeal_unseen((seat + 1) % 3, Rng(sample))
            assert JOKER in redealt.hands[seat]
        return
    raise AssertionError("no position with a swap found")
