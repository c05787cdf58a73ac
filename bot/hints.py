"""Hints (``/rummy hint``, *Hint* on the hand panel): the strongest computer's move, and why.

:func:`hint_move` is the one place a hint's move is chosen: today the variant's
strongest computer level (:func:`hint_level`) run in a thread with an RNG seeded
from the game and its move count, so the same position always gets the same
hint. Pointing hints at another player (a search in a worker process) is a
change to that function alone.

:func:`hint` adds the words (:func:`bot.engine.explain.explain`): the move and
why in a sentence, and where the move's outcome is known to the player (the
pile's top card taken, a spread pile's take) the discard that would follow it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass

from .engine.errors import IllegalMove
from .engine.explain import HIDDEN, LATER, explain, goes_on, hidden_result
from .engine.game import Game, Move
from .registry import Variant

STRONGEST = "strong"
"""The level hints ask where a variant has it; otherwise its first (default) level."""
MAX_PLAN = 64
"""At most this many moves of the turn are asked for (a Tile Rummy plan may be long)."""
PLAN_SECONDS = 0.6
"""After the first move, the rest of the turn is asked for only while the hint has taken
less than this: a slow player (a search) leaves the rest for the player to ask again, so a
hint stays within its 1.5 s."""
REMEMBERED = 256
"""Turns whose plans are kept (:data:`_GIVEN`); more, and the oldest are forgotten."""

_GIVEN: dict[tuple[str, int, int, int], tuple[list[str], list[Move], str]] = {}
"""Plans told, by (variant, seed, turn, seat): the position before each move (as JSON),
the moves, and why the turn goes on after them (``explain``'s ``rest``). A player who follows a hint
step by step and asks again is told the rest of the same plan (a computer that plans its
whole turn at once may answer a half-played plan with "undo")."""


def hint_level(variant: Variant) -> str:
    """The computer level whose move a hint names."""
    return STRONGEST if STRONGEST in variant.computers else next(iter(variant.computers))


def hint_rng(game: Game, moves: int) -> random.Random:
    """Deterministic from the game's seed and its move count: the same position, the same
    hint (and a hint never disturbs the computers' own RNG)."""
    return random.Random(f"hint:{game.seed}:{moves}")


async def hint_move(variant: Variant, game: Game, seat: int, moves: int) -> Move:
    """The move the strongest computer player would make for ``seat`` now (``moves``: the
    game's saved move count). Off the event loop: a strong player may search."""
    return await asyncio.to_thread(variant.choose_move, game, seat, hint_rng(game, moves),
                                   hint_level(variant))


@dataclass(frozen=True, slots=True)
class Hint:
    move: Move
    """The move to make now (the engine accepts it)."""
    text: str
    """Why, in one or two sentences."""


async def hint(variant: Variant, game: Game, seat: int, moves: int) -> Hint:
    """The hint for ``seat``, whose turn it is: the move, and why.

    The rest of the turn is asked of the same player move by move, as far as the player
    can know it (not past a draw from the stock), and told in a second sentence.
    """
    key = (variant.key, game.seed, game.turn_serial, seat)
    here = _position(game)
    given = _GIVEN.get(key)
    if given is not None and here in given[0]:
        start = given[0].index(here)
        plan, rest = given[1][start:], given[2]
    else:
        positions, plan, rest = await _plan(variant, game, seat, moves)
        if len(_GIVEN) >= REMEMBERED:
            _GIVEN.clear()
        _GIVEN[key] = (positions, plan, rest)
    plan = await asyncio.to_thread(condense, game, seat, plan)
    text = await asyncio.to_thread(explain, game, seat, plan, rest)
    return Hint(plan[0], text)


def _position(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


async def _plan(variant: Variant, game: Game, seat: int, moves: int
                ) -> tuple[list[str], list[Move], str]:
    """The seat's turn from here as the hint's player would play it: the positions before
    each move, the moves, and why the turn goes on after them if it does (``explain``'s
    ``rest``: past a hidden outcome, or not asked further for time)."""
    budget = time.monotonic() + PLAN_SECONDS
    plan = [await hint_move(variant, game, seat, moves)]
    positions = [_position(game)]
    state = game
    while True:
        if hidden_result(state, plan[-1]):
            hidden = await asyncio.to_thread(goes_on, state, seat, plan[-1])
            return positions, plan, HIDDEN if hidden else ""
        try:
            after, _ = await asyncio.to_thread(state.apply, plan[-1])
        except IllegalMove:
            return positions, plan, ""
        if after.is_over or after.to_move != seat or after.turn_serial != state.turn_serial:
            return positions, plan, ""
        if len(plan) >= MAX_PLAN or time.monotonic() > budget:
            return positions, plan, LATER
        state = after
        positions.append(_position(state))
        plan.append(await hint_move(variant, state, seat, moves + len(plan)))


def condense(game: Game, seat: int, plan: list[Move]) -> list[Move]:
    """A turn of many table changes told as one (Tile Rummy, TIL-20).

    Where the game offers an ``arrange`` move and the plan ends the turn with Done, the
    plan becomes: Done, when the pieces already placed are the ones the plan places (the
    player has played the hint, perhaps arranged otherwise); else the engine's Arrange of
    the pieces still to place, then Done, when the engine accepts that. Otherwise (or when
    a placed piece would have to come back) the plan stays as it is.
    """
    arrange = next((m for m in type(game).move_types if m.kind == "arrange"), None)
    if arrange is None or len(plan) < 2 or plan[-1].kind != "done":
        return plan
    done = plan[-1]
    target = game
    try:
        for move in plan[:-1]:
            target, _ = target.apply(move)
    except IllegalMove:
        return plan
    now = Counter(game.hand_view(seat).pieces)
    then = Counter(target.hand_view(seat).pieces)
    if then - now:  # the plan takes a placed piece back: told step by step
        return plan
    to_place = tuple(sorted((now - then).elements(), key=lambda p: p.index))
    whole = [arrange(seat=seat, tiles=to_place), done] if to_place else [done]  # type: ignore[call-arg]
    state = game
    try:
        for move in whole:
            state, _ = state.apply(move)
    except IllegalMove:
        return plan
    return whole
