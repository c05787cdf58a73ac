"""A player's own hand (cards) or rack (tiles), with a code and ``#n`` under every piece.

The returned :attr:`RenderedHand.order` is the left-to-right, top-to-bottom
order of the picture: ``#n`` in a command means ``order[n - 1]`` (rules NOT-7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import Image

from bot.engine.cards import RANK_NAMES, Piece, Tile, sort_by_rank, sort_by_suit
from bot.engine.views import HandView

from . import palette, sprites
from .encode import png_bytes
from .layout import (
    HEADING_SIZE,
    LABEL_HEIGHT,
    MARGIN,
    SPACING,
    SPAN,
    balanced_rows,
    canvas,
    heading,
    label_chip,
    piece_ink,
    step_to_fit,
)
from .palette import Style
from .raster import fill, paste
from .sprites import PieceSize

Sort = Literal["suit", "rank"]

CARDS_PER_ROW = 13
TILES_PER_ROW = 15
ROW_GAP = 20
HIGHLIGHT = 5
BADGE_SIZE = 22
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
    pieces = tuple(_sorted(view.pieces, sort))
    size = sprites.TILE_LARGE if view.tiles else sprites.CARD_LARGE
    rows = balanced_rows(len(pieces), TILES_PER_ROW if view.tiles else CARDS_PER_ROW)
    natural = size.width + SPACING
    step = step_to_fit(max(rows, default=1), size.width, SPAN, natural)
    chip_width = min(step - SPACING, size.width)

    top = MARGIN + HEADING_SIZE + 14
    row_height = size.height + SPACING + LABEL_HEIGHT + ROW_GAP
    picture = canvas(top + max(len(rows), 1) * row_height - ROW_GAP + MARGIN)
    heading(picture, title if title is not None else _default_title(view, len(pieces), sort),
            (MARGIN, MARGIN))

    newest = _last_index_of(pieces, view.newest)
    start = 0
    for row, count in enumerate(rows):
        y = top + row * row_height
        xs = [MARGIN + i * step for i in range(count)]
        for i, x in enumerate(xs):
            index = start + i
            piece = pieces[index]
            paste(picture, sprites.piece_sprite(piece, size, style), (x, y))
            _badges(picture, piece, (x, y), size, newest=index == newest,
                    wild=view.wild_rank is not None and not piece.is_joker
                    and piece.rank == view.wild_rank)
            label_chip(picture, (x, y + size.height + SPACING), chip_width, piece.code,
                       piece_ink(piece, style), index + 1)
        start += count
    if not pieces:
        heading(picture, "No pieces left", (MARGIN, top + size.height // 2),
                colour=palette.FELT_MUTED)
    return RenderedHand(png_bytes(picture), pieces)


def _sorted(pieces: tuple[Piece, ...], sort: Sort | None) -> list[Piece]:
    if sort == "suit":
        return sort_by_suit(pieces)
    if sort == "rank":
        return sort_by_rank(pieces)
    if sort is None:
        return list(pieces)
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
            tag = sprites.badge("NEW", palette.INK, palette.GOLD, TILE_BADGE_SIZE)
            paste(picture, tag, (x + (size.width - tag.width) // 2, y - tag.height // 2))
        return
    tags = [sprites.badge("NEW", palette.INK, palette.GOLD, BADGE_SIZE)] if newest else []
    if wild:
        tags.append(sprites.badge("WILD", palette.BADGE_TEXT, palette.JOKER_PURPLE, BADGE_SIZE))
    bottom = y + size.height - size.pad
    for tag in tags:
        bottom -= tag.height
        paste(picture, tag, (x + size.pad // 2, bottom))
        bottom -= 4


def _default_title(view: HandView, count: int, sort: Sort | None) -> str:
    noun = ("tile" if view.tiles else "card") + ("" if count == 1 else "s")
    parts = [f"Your {'rack' if view.tiles else 'hand'}", f"{count} {noun}"]
    if sort is not None:
        by = {("suit", False): "suit", ("rank", False): "rank", ("suit", True): "colour",
              ("rank", True): "number"}[sort, view.tiles]
        parts.append(f"sorted by {by}")
    if view.wild_rank is not None:
        parts.append(f"{RANK_NAMES[view.wild_rank]}s wild")
    return " · ".join(parts)
