"""The replay's picture: every hand open, the step's changes outlined, readable on a phone."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PIL import Image

from bot.engine.game import Game
from bot.engine.replay import open_view
from bot.registry import VARIANTS
from cardart import palette, sprites
from cardart.layout import MARGIN, WIDTH
from cardart.open_table import MARK, outline_run, render_open_table
from tests.test_cardart import colour_mask, decode, runs_of

NAMES = ["alice", "Ada (bot)", "Babbage (bot)", "a rather long display name that goes on"]


def played(key: str, players: int, moves: int, seed: int = 4) -> list[Game]:
    kind = VARIANTS[key]
    level = "easy" if key == "tiles" else "standard"  # the quickest: see test_game_record
    states = [kind.game.new(players, seed=seed)]
    while len(states) <= moves and not states[-1].is_over:
        game = states[-1]
        assert game.to_move is not None
        move = kind.choose_move(game, game.to_move, random.Random(len(states)), level)
        states.append(game.apply(move)[0])
    return states


def gold(picture: Image.Image) -> int:
    return colour_mask(picture, palette.GOLD).histogram()[255]


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_variant_draws_every_hand_full_width_and_the_same_each_time(key: str) -> None:
    players = min(4, VARIANTS[key].game.max_players)
    states = played(key, players, 12)
    view = open_view(states[-1], states[-2], heading="Hand 1 · move 12 of 99",
                     caption="12. alice: something")
    png = render_open_table(view, NAMES[:players], title=VARIANTS[key].title)
    picture = decode(png)
    assert picture.width == WIDTH and picture.height > 150 * players
    assert render_open_table(view, NAMES[:players], title=VARIANTS[key].title) == png
    # One band per seat, down the left edge: felt, then a band's dark (or gold-brown) fill.
    column = [picture.getpixel((MARGIN + 20, y)) for y in range(picture.height)]
    bands = {palette.FELT_DARK, palette.WINNER_BAND}
    starts = [y for y in range(1, len(column))
              if column[y] in bands and column[y - 1] == palette.FELT]
    assert len(starts) >= players


def test_a_draw_outlines_the_card_drawn_and_nothing_else() -> None:
    states = played("straight", 3, 60)
    views = [open_view(states[i], states[i - 1]) for i in range(1, len(states))]
    marked = next(v for v in views if sum(len(h.gained) for h in v.hands) == 1
                  and not v.melds_marked and not v.discard_marked)
    plain = dataclasses.replace(marked, hands=tuple(dataclasses.replace(h, gained=())
                                                    for h in marked.hands))
    with_mark = decode(render_open_table(marked, NAMES[:3]))
    without = decode(render_open_table(plain, NAMES[:3]))
    ring = 2 * (sprites.CARD_SMALL.width + sprites.CARD_SMALL.height) * MARK
    assert 0.6 * ring < gold(with_mark) - gold(without) < 1.2 * ring  # one card outlined


def test_a_new_meld_is_outlined_as_one_stretch() -> None:
    picture = Image.new("RGB", (WIDTH, 300), palette.FELT)
    size = sprites.CARD_SMALL
    xs = [100 + i * 40 for i in range(7)]
    outline_run(picture, xs, 100, size, [1, 2, 3, 6])
    assert runs_of(picture, 100 - MARK + 1, palette.GOLD) == 2  # 1–3 together, 6 alone
    assert runs_of(picture, 100 + size.height // 2, palette.GOLD) == 4  # both sides of each


def test_the_discard_put_down_is_outlined() -> None:
    states = played("straight", 2, 40)
    views = [open_view(states[i], states[i - 1]) for i in range(1, len(states))]
    discard = next(v for v in views if v.discard_marked)
    plain = dataclasses.replace(discard, discard_marked=False)
    assert gold(decode(render_open_table(discard, NAMES[:2]))) > \
        gold(decode(render_open_table(plain, NAMES[:2])))


def test_a_long_hand_and_a_long_rack_wrap_inside_the_picture() -> None:
    penang = played("penang", 2, 0)[0]  # 25 cards each (PEN-4)
    tiles = played("tiles", 2, 30)[-1]
    for state in (penang, tiles):
        view = open_view(state)
        picture = decode(render_open_table(view, NAMES[:2]))
        right = picture.crop((WIDTH - MARGIN + 1, 0, WIDTH, picture.height))
        assert [c for _, c in right.getcolors()] == [palette.FELT]  # nothing past the margin


def test_an_empty_hand_and_a_meld_step_render() -> None:
    states = played("rummi", 3, 40)
    meld = next(i for i in range(1, len(states))
                if len(states[i].table_view().melds) > len(states[i - 1].table_view().melds))
    view = open_view(states[meld], states[meld - 1])
    assert view.melds_marked
    decode(render_open_table(view, NAMES[:3]))
    empty = dataclasses.replace(view, hands=tuple(dataclasses.replace(h, pieces=(), gained=())
                                                  for h in view.hands))
    decode(render_open_table(empty, NAMES[:3]))


def test_a_new_meld_marks_all_its_pieces() -> None:
    states = played("straight", 3, 80)
    laid = [i for i in range(1, len(states))
            if len(states[i].table_view().melds) > len(states[i - 1].table_view().melds)]
    assert laid
    for i in laid:
        view = open_view(states[i], states[i - 1])
        meld = states[i].table_view().melds[-1]
        assert view.marks_in(meld.number) == tuple(range(len(meld.pieces)))
