"""The results picture: the finish card in a slot of its own, and rows of players not dealt in."""

from __future__ import annotations

import dataclasses

from bot.engine.cards import Card, Suit
from bot.engine.views import Placing, ResultView
from cardart import palette, render_results, sprites
from cardart.demo import NAMES, sample_indian_results
from tests.test_cardart import colour_mask, decode

SHOWN = tuple(Card(rank, Suit.D) for rank in range(1, 14))
FINISH = Card(8, Suit.H)


def card_right_edge(png: bytes) -> int:
    """The right end of the card faces in a picture."""
    box = colour_mask(decode(png), palette.CARD).getbbox()
    assert box is not None
    return box[2]


def one_row(**placing) -> ResultView:
    return ResultView("indian", "Deal 1 result", (Placing(0, 1, "0", "0", **placing),))


def test_the_finish_card_has_a_slot_beside_the_held_cards() -> None:
    plain = render_results(one_row(held=SHOWN), NAMES)
    slotted = render_results(one_row(held=SHOWN, finish=FINISH), NAMES)
    assert decode(slotted).size == decode(plain).size  # the slot fits in the row
    gap = card_right_edge(slotted) - card_right_edge(plain)
    # one card further right, past the "finish" caption, and no further than the picture
    assert sprites.CARD_SMALL.width + 60 < gap < 400
    picture = decode(slotted)
    _, top, right, bottom = colour_mask(picture, palette.CARD).getbbox()
    frame = colour_mask(picture, palette.FELT).crop((right + 1, top, right + 4, bottom))
    assert frame.getbbox() == (0, 0, 3, bottom - top)  # a felt frame, not the band, around it


def test_a_finish_card_alone_still_gets_a_card_row() -> None:
    alone = decode(render_results(one_row(finish=FINISH), NAMES))
    empty = decode(render_results(one_row(), NAMES))
    assert alone.height - empty.height > sprites.CARD_SMALL.height - 40


def test_a_loser_not_dealt_in_shows_only_the_note() -> None:
    out = ResultView("indian", "Game over", (Placing(0, 1, "0", "40", held=SHOWN),
                                             Placing(1, 2, "–", "120",
                                                     note="eliminated in deal 3")))
    as_winner = dataclasses.replace(out, placings=(out.placings[0], dataclasses.replace(
        out.placings[1], place=1)))
    # The winner's empty hand is news ("nothing left in hand"); the eliminated player's is not.
    assert decode(render_results(out, NAMES)).height < decode(render_results(as_winner,
                                                                            NAMES)).height


def test_the_indian_demo_draws() -> None:
    view = sample_indian_results()
    assert view.placings[0].finish is not None
    assert decode(render_results(view, NAMES)).width == 1200
