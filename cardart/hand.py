"""A player's own hand (cards) or rack (tiles), with a code and ``#n`` under every piece.

The returned :attr:`RenderedHand.order` is the left-to-right, top-to-bottom
order of the picture: ``#n`` in a command means ``order[n - 1]`` (rules NOT-7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from bot.engine.cards import RANK_NAMES, Piece, Tile, sort_by_rank, sort_by_suit
from bot.engine.views import HandView

from . import palette, sprites
from .encode import png_bytes
from .fonts import Typeface, draw_text, fitted
from .indexed import draw_png
from .layout import (
    HEADING_SIZE,
    LABEL_HEIGHT,
    MARGIN,
    SPACING,
    SPAN,
    Block,
    Line,
    balanced_rows,
    label_chip,
    stack,
    step_to_fit,
)
from .palette import Style
from .raster import fill, paste
from .sprites import PieceSize
from .words import _, _n

Sort = Literal["suit", "rank"]

CARDS_PER_ROW = 13
TILES_PER_ROW = 15
ROW_GAP = 22
HIGHLIGHT = 5
TILE_BADGE_SIZE = 18


@dataclass(frozen=True, slots=True)
class RenderedHand:
    """A hand picture and the order its pieces were drawn in (``#1`` is ``order[0]``)."""

    png: bytes
    order: tuple[Piece, ...]


def render_hand(view: HandView, *, sort: Sort | None = None, style: Style = "four",
                title: str | None = None) -> RenderedHand:
    """Draw a hand of cards, or a rack of tiles when ``view.tiles``.

    ``sort`` orders by suit (tiles: colour) or by rank (tiles: number), jokers last;
    ``None`` keeps the engine's order. ``title`` replaces the default heading.
    """
    pieces = hand_order(view.pieces, sort)
    blocks = _blocks(view, pieces, sort, style, title)
    return RenderedHand(draw_png(lambda indexed: stack(blocks, ROW_GAP, indexed=indexed)),
                        pieces)


def render_hand_rgb(view: HandView, *, sort: Sort | None = None, style: Style = "four",
                    title: str | None = None) -> bytes:
    """The same picture drawn on RGB and quantised (the path before :mod:`cardart.indexed`).

    For the bench and the tests that compare the two.
    """
    pieces = hand_order(view.pieces, sort)
    return png_bytes(stack(_blocks(view, pieces, sort, style, title), ROW_GAP))


def _blocks(view: HandView, pieces: tuple[Piece, ...], sort: Sort | None, style: Style,
            title: str | None) -> list[Block]:
    heading = title if title is not None else _default_title(view, len(pieces), sort)
    return [Line(heading), _Rows(view, pieces, style)]


@dataclass(frozen=True, slots=True)
class _Rows:
    """The pieces in one or more rows, each with its label chip, badges where due."""

    view: HandView
    pieces: tuple[Piece, ...]
    style: Style

    @property
    def size(self) -> PieceSize:
        return sprites.TILE_LARGE if self.view.tiles else sprites.CARD_LARGE

    @property
    def rows(self) -> list[int]:
        return balanced_rows(len(self.pieces),
                             TILES_PER_ROW if self.view.tiles else CARDS_PER_ROW)

    @property
    def row_height(self) -> int:
        return self.size.height + SPACING + LABEL_HEIGHT

    @property
    def height(self) -> int:
        return max(len(self.rows), 1) * (self.row_height + ROW_GAP) - ROW_GAP

    def draw(self, picture: Image.Image, top: int) -> None:
        size, rows = self.size, self.rows
        if not rows:
            draw_text(picture, fitted(_("No pieces left"), Typeface.REGULAR, HEADING_SIZE, SPAN),
                      (MARGIN, top + size.height // 2), palette.FELT_MUTED)
            return
        step = step_to_fit(max(rows), size.width, SPAN, size.width + SPACING)
        chip_width = min(step - SPACING, size.width)
        newest = _last_index_of(self.pieces, self.view.newest)
        wild = self.view.wild_rank
        index = 0
        for row, count in enumerate(rows):
            y = top + row * (self.row_height + ROW_GAP)
            for x in range(MARGIN, MARGIN + count * step, step):
                piece = self.pieces[index]
                paste(picture, sprites.piece_sprite(piece, size, self.style), (x, y))
                _badges(picture, piece, (x, y), size, newest=index == newest,
                        wild=not piece.is_joker and piece.rank == wild)
                label_chip(picture, (x, y + size.height + SPACING), chip_width, piece.code,
                           palette.piece_colour(piece, self.style), index + 1)
                index += 1


def hand_order(pieces: Sequence[Piece], sort: Sort | None) -> tuple[Piece, ...]:
    """The order in which :func:`render_hand` draws ``pieces``: what ``#n`` means (NOT-7)."""
    if sort == "suit":
        return tuple(sort_by_suit(pieces))
    if sort == "rank":
        return tuple(sort_by_rank(pieces))
    if sort is None:
        return tuple(pieces)
    raise ValueError(f"sort must be 'suit', 'rank' or None, not {sort!r}")


def _last_index_of(pieces: tuple[Piece, ...], piece: Piece | None) -> int | None:
    """Where the newest piece is badged: the last copy, as sorting is stable."""
    if piece is None:
        return None
    matches = [i for i, p in enumerate(pieces) if p == piece]
    return matches[-1] if matches else None


def _badges(picture: Image.Image, piece: Piece, xy: tuple[int, int], size: PieceSize, *,
            newest: bool, wild: bool) -> None:
    """Outline the newest piece and tag it NEW; tag wild cards WILD.

    On a card the tags sit at the bottom of the strip that stays visible; a
    tile has no room to spare, so its tag straddles its top edge.
    """
    x, y = xy
    if newest:
        fill(picture, sprites.highlight(size, HIGHLIGHT), palette.GOLD,
             (x - HIGHLIGHT, y - HIGHLIGHT))
    if isinstance(piece, Tile):
        if newest:
            tag = sprites.badge(_("NEW"), palette.INK, palette.GOLD, TILE_BADGE_SIZE,
                                max_width=size.width)
            paste(picture, tag, (x + (size.width - tag.width) // 2, y - tag.height // 2))
        return
    room = size.width - size.pad
    tags = [sprites.badge(_("NEW"), palette.INK, palette.GOLD, max_width=room)] if newest else []
    if wild:
        tags.append(sprites.badge(_("WILD"), palette.BADGE_TEXT, palette.JOKER_PURPLE,
                                  max_width=room))
    bottom = y + size.height - size.pad
    for tag in tags:
        bottom -= tag.height
        paste(picture, tag, (x + size.pad // 2, bottom))
        bottom -= 4


def _default_title(view: HandView, count: int, sort: Sort | None) -> str:
    parts = [_("Your rack") if view.tiles else _("Your hand"),
             _n("{n} tile", "{n} tiles", count) if view.tiles else _n("{n} card", "{n} cards",
                                                 count)]
    if sort is not None:
        parts.append({("suit", False): _("sorted by suit"), ("rank", False): _("sorted by rank"),
                      ("suit", True): _("sorted by colour"),
                      ("rank", True): _("sorted by number")}[sort, view.tiles])
    if view.wild_rank is not None:
        parts.append(_("{rank} wild", rank=RANK_NAMES[view.wild_rank]))
    return " · ".join(parts)
