"""Property tests: random Tile Rummy games with legal and illegal actions (hypothesis).

Whatever is thrown at it, the engine never crashes, a refused action changes
nothing (NOT-13), after every commit every table meld is valid, the 106 tiles
are conserved across pool, racks and table (TIL-1), the JSON round trip is
exact, and the same seed and moves replay to the same game.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.tiles import choose_move
from bot.engine.cards import tile_set
from bot.engine.errors import IllegalMove
from bot.engine.game import Move, Timeout
from bot.engine.melds import read_meld
from bot.engine.moves import Done, Draw, Resume
from bot.engine.variants.tiles import (
    RULES,
    Arrange,
    MoveTile,
    Play,
    Release,
    Reset,
    Split,
    TableMeld,
    Take,
    TilesGame,
    TilesOptions,
)
from tests.tiles_helpers import all_tiles, random_position

TILES = tile_set(1, 1)

options_strategy = st.builds(
    TilesOptions,
    initial_meld=st.sampled_from([0, 10, 30]),
    joker_retrieve=st.sampled_from(["free", "replace", "replace_from_rack"]),
    joker_locks_meld=st.booleans(), retrieved_joker_new_meld_only=st.booleans(),
    invalid_done=st.sampled_from(["reject", "penalty"]),
    turn_seconds=st.sampled_from([0, 60]), games=st.integers(1, 2),
    target=st.sampled_from([0, 0, 50]))


def wild_move(game: TilesGame, rng: random.Random) -> Move:
    """An action that is often illegal: any seat, any tile, any meld number."""
    seat = rng.randrange(game.players)
    tile = rng.choice(TILES)
    meld = rng.randint(0, len(game.staged) + 1)
    kind = rng.randrange(11)
    if kind == 0:
        return Play(seat, ((tile, None),), rng.choice([None, meld]))
    if kind == 1:
        return MoveTile(seat, tile, meld, rng.choice([None, meld + 1]))
    if kind == 2:
        return Split(seat, meld, rng.randint(0, 4))
    if kind == 3:
        return Release(seat, tile, meld, rng.choice([None, meld - 1]))
    if kind == 4:
        return Take(seat, tile, rng.choice([None, meld]))
    if kind == 5:
        return Arrange(seat, (tile,))
    if kind == 6:
        return Done(seat)
    if kind == 7:
        return Draw(seat, rng.choice(["pool", "discard"]))
    if kind == 8:
        return Timeout(seat)
    if kind == 9:
        return Resume(seat)
    rack = game.hand_view(seat).pieces
    return Play(seat, tuple((t, None) for t in rng.sample(rack, min(3, len(rack)))))


def check_invariants(game: TilesGame) -> None:
    assert all_tiles(game) == Counter(tile_set())
    for meld in game.table:
        read_meld([(t, f if t.is_joker else None) for t, f in zip(meld.tiles, meld.faces,
                                                                   strict=True)], RULES)
    staged = Counter(t for m in game.staged for t, o in zip(m.tiles, m.origins, strict=True)
                     if o in ("r", "x", "rj"))
    if not game.is_over:
        assert not staged - Counter(game.racks[game.turn]), "a staged tile is not on the rack"
    data = json.loads(json.dumps(game.to_json()))
    assert TilesGame.from_json(data) == game


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), players=st.integers(2, 4), options=options_strategy,
       script=st.integers(0, 2**32), steps=st.integers(20, 200))
def test_random_games_keep_every_invariant(seed: int, players: int, options: TilesOptions,
                                           script: int, steps: int) -> None:
    rng = random.Random(script)
    game = TilesGame.new(players, options, seed)
    check_invariants(game)
    log: list[Move] = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        roll = rng.random()
        if roll < 0.35:
            move = choose_move(game, seat, rng, rng.choice(["easy", "strong"]))
        elif roll < 0.6:
            legal = game.legal_moves(seat)
            move = rng.choice(legal)
        else:
            move = wild_move(game, rng)
        before = game.to_json()
        try:
            game, _ = game.apply(move)
        except IllegalMove:
            assert game.to_json() == before  # a refusal changes nothing
            continue
        log.append(move)
        check_invariants(game)
    replay = TilesGame.new(players, options, seed)
    for move in log:
        move = TilesGame.move_from_json(json.loads(json.dumps(move.to_json())))
        replay, _ = replay.apply(move)
    assert replay == game


def test_legal_moves_are_all_accepted() -> None:
    game = TilesGame.new(3, TilesOptions(initial_meld=0), seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if game.is_over:
            break
        moves = game.legal_moves(game.to_move)
        assert moves
        for move in moves:
            game.apply(move)  # none raises
        game, _ = game.apply(rng.choice(moves))
    assert Reset(game.to_move) in game.legal_moves(game.to_move)


# -- TIL-20: arrange stages only what done accepts -------------------------------------

JOKER_RULES = [dict(joker_retrieve=retrieve, joker_locks_meld=locks,
                    retrieved_joker_new_meld_only=new_only)
               for retrieve in ("free", "replace", "replace_from_rack")
               for locks in (False, True) for new_only in (False, True)]


def arrange_position(seed: int, rules: dict, initial: bool) -> TilesGame:
    """A table of 6–30 tiles with up to two jokers in it, a rack of 3–10 tiles, ``rules``."""
    rng = random.Random(seed)
    table, rack = random_position(seed, rng.randint(6, 30), rng.randint(3, 10), table_jokers=2)
    game = TilesGame.new(2, TilesOptions.build(**rules), seed=seed)
    melds = [TableMeld(i + 1, tuple(t for t, _ in m), tuple(f for _, f in m))
             for i, m in enumerate(table)]
    used = Counter(rack) + Counter(t for m in melds for t in m.tiles)
    rest = list((Counter(tile_set()) - used).elements())
    game = dataclasses.replace(game, racks=[list(rack), rest[:5]], table=melds, pool=rest[5:],
                               turn=0, initial=[initial, True], passes=0, staged=[],
                               drawn=[None, None])
    game._reset_stage()
    return game


@pytest.mark.parametrize("rules", JOKER_RULES, ids=lambda r: "-".join(map(str, r.values())))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), script=st.integers(0, 2**32), initial=st.booleans(),
       staging=st.integers(0, 4))
def test_TIL_20_what_arrange_stages_passes_done(rules: dict, seed: int, script: int,
                                                initial: bool, staging: int) -> None:
    """Issue 19 item 2: under every joker rule, after a few legal staging actions, whatever
    ``arrange`` stages passes done's checks 1–4 (TIL-13) and holds exactly the staged tiles
    plus the named ones; a refusal is one of TIL-20's two answers and changes nothing."""
    rng = random.Random(script)
    game = arrange_position(seed, rules, initial)
    for _ in range(staging):
        moves = [m for m in game.legal_moves(0) if not isinstance(m, Done | Draw)]
        if not moves:
            break
        game, _ = game.apply(rng.choice(moves))
    left = game.hand_view(0).pieces
    if not left:
        return
    named = tuple(rng.sample(list(left), rng.randint(1, min(3, len(left)))))
    before = game.to_json()
    try:
        after, _ = game.apply(Arrange(0, named))
    except IllegalMove as refusal:
        assert str(refusal) in ("no valid arrangement with these tiles",
                                "no arrangement found that keeps each table joker in its meld")
        assert game.to_json() == before
        return
    assert after.check_done() is None, (rules, [m.codes for m in after.staged])
    staged = Counter(t for m in game.staged for t in m.tiles)
    assert Counter(t for m in after.staged for t in m.tiles) == staged + Counter(named)
