"""Every component the bot emits is read back as exactly what it said (bot.customids).

For every registered variant, through random games: the turn message's buttons,
the hand panel's buttons and selects for random selections, the pick menus, and
the confirmation questions their buttons raise all decode, with the variant's
own actions, to their action and argument; only a hand selection is ever read
as hand positions (issue 19, items 1 and 6). And the reading is strict.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from bot.controls.base import Reply
from bot.customids import (
    PICK,
    SELECTION,
    SHARED,
    Action,
    Unreadable,
    decode,
    decode_positions,
)
from bot.engine.errors import RummyError
from bot.engine.game import Game
from bot.panels import pick_menus
from bot.registry import VARIANTS, Variant
from bot.ui import ButtonSpec, GameButton, GameSelect, SelectSpec

GAME = 9_223_372_036_854_775_807


def emitted(kind: Variant, game: Game, rng: random.Random) -> Iterator[ButtonSpec | SelectSpec]:
    """What the turn message and the mover's panel carry now, and the questions they ask."""
    controls = kind.controls
    yield from controls.turn_buttons(game)
    seat = game.to_move
    if seat is None:
        return
    order = list(game.hand(seat))
    for _ in range(3):
        selected = sorted(rng.sample(range(1, len(order) + 1), rng.randint(0, min(4, len(order)))))
        yield from pick_menus(order, selected, game.tiles)
        panel = controls.panel(game, seat, selected, order)
        yield from panel.selects
        for spec in panel.buttons:
            yield spec
            picked = [order[p - 1] for p in selected]
            try:
                answer = controls.action(game, seat, spec.action, spec.arg, picked, [])
            except (RummyError, IndexError):
                continue
            if isinstance(answer, Reply):
                yield from answer.buttons


def check_reads_back(spec: ButtonSpec | SelectSpec, actions: Mapping[str, Action]) -> None:
    if isinstance(spec, ButtonSpec):
        custom_id = GameButton.make(GAME, spec).item.custom_id
        values: list[str] | None = None
        offered: list[str] = []
    else:
        custom_id = GameSelect.make(GAME, spec).item.custom_id
        offered = [value for _, value in spec.options]
        values = offered[:1] if spec.min_values else []
    assert custom_id is not None
    click = decode(custom_id, values, offered, lambda game_id: actions)
    assert (click.game_id, click.action, click.arg) == (GAME, spec.action, spec.arg)
    action = {**SHARED, **actions}[spec.action]
    if action.arg is SELECTION:
        assert list(click.selection) == decode_positions(spec.arg)
    elif action.arg is PICK:
        assert list(click.selection) == decode_positions(spec.arg[1:])
    else:
        assert click.selection == ()  # never read as hand positions


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_component_a_variant_emits_reads_back(key: str) -> None:
    kind = VARIANTS[key]
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        players = min(kind.game.min_players + seed % 2, kind.game.max_players)  # Gin: 2
        game = kind.game.new(players, kind.game.options_type.build(), seed)
        for _ in range(120):
            if game.is_over or game.to_move is None:
                break
            for spec in emitted(kind, game, rng):
                check_reads_back(spec, kind.controls.actions)
                seen.add(spec.action)
            game, _ = game.apply(kind.choose_move(game, game.to_move, rng))
    assert seen <= set(kind.controls.actions) | set(SHARED)


def reads(custom_id: str, values: Sequence[str] | None = None,
          offered: Sequence[str] = ()) -> bool:
    actions = VARIANTS["remi"].controls.actions
    try:
        decode(custom_id, values, offered, lambda game_id: actions)
    except Unreadable:
        return False
    return True


def test_the_reading_is_strict() -> None:
    assert reads("rm:7:take:3") and reads("rm:7:hand:") and reads("rm:7:discard:m5")
    assert reads("rs:7:takewith:m3", ["2"], ["1", "2"])
    assert not reads("rm:7:take:x") and not reads("rm:7:take:٣") and not reads("rm:٧:take:3")
    assert not reads("rm:07:take:3") and not reads("rm:7:take:12")
    assert not reads("rm:7:discard:3")  # a selection is a bitmask, never a bare number
    assert not reads("rs:7:take:3", ["1"], ["1"])  # a button's action as a select
    assert not reads("rm:7:takewith:m3")  # a select's action as a button
    assert not reads("rs:7:takewith:m3", ["4"], ["1", "2"])  # not offered
    assert not reads("rs:7:takewith:m3", ["1", "2"], ["1", "2"])  # one value only
    assert not reads("rs:7:takewith:m3", [], ["1", "2"])
    assert not reads("rm:1234567890123456789012345:hand:")
    assert not reads("rm:9223372036854775808:hand:") and reads("rm:9223372036854775807:hand:")
    assert not reads("rs:7:pick:1", [str(n) for n in range(1, 27)],
                     [str(n) for n in range(1, 27)])
    assert not reads("rm:7:discard:m" + "z" * 30)  # more positions than any hand holds
