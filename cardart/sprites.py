"""Card and tile sprites, drawn once per piece, size and style, then shared read-only.

Every card keeps its *index* (rank over suit) in a narrow strip on its left
edge, so it stays readable when the next card overlaps it; the right part
carries a large pip, a framed court letter or the joker's star. Badges (NEW,
WILD, ``=7H``, position markers) are separate sprites pasted over a card, so
one card sprite serves every badge combination.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.engine.cards import Card, Piece, Tile

from . import palette, shapes
from .cache import drawn_once
from .fonts import Text, Typeface, draw_text, fitted, text
from .palette import RGB, Style
from .raster import Sprite, Stamp, cut, fill, sprite
from .words import say


@dataclass(frozen=True, slots=True)
class PieceSize:
    """The dimensions of one family of sprites; everything drawn on them scales from these."""

    width: int
    height: int
    index: int
    """Font size of the rank or number."""
    symbol: int
    """Size of the suit symbol or colour mark under it."""
    tile: bool = False
    """Tiles lie side by side; cards overlap."""

    @property
    def radius(self) -> int:
        return max(6, self.width // 14)

    @property
    def edge(self) -> int:
        return max(2, self.width // 70)

    @property
    def pad(self) -> int:
        return round(self.width * 0.07)


BADGE_SIZE = 22
"""Font size of the badges pasted on pieces (NEW, WILD, ``=7H``, markers)."""

CARD_LARGE = PieceSize(width=168, height=236, index=56, symbol=46)
CARD_SMALL = PieceSize(width=96, height=134, index=36, symbol=28)
TILE_LARGE = PieceSize(width=74, height=98, index=50, symbol=18, tile=True)
TILE_SMALL = PieceSize(width=54, height=72, index=36, symbol=13, tile=True)


def _blank(size: PieceSize, edge: RGB, face: RGB, bottom_edge: int = 0) -> Image.Image:
    """A piece's body: an ``edge``-coloured rim around a ``face``-coloured inside."""
    body = Image.new("RGB", (size.width, size.height), edge)
    inner = shapes.rounded_box(size.width - 2 * size.edge,
                               size.height - 2 * size.edge - bottom_edge,
                               size.radius - size.edge)
    fill(body, inner, face, (size.edge, size.edge))
    return body


def _outlined(body: Image.Image, size: PieceSize) -> Sprite:
    return sprite(body, shapes.rounded_box(size.width, size.height, size.radius), size.radius)


def _rank_text(label: str, size: PieceSize) -> Text:
    # "10" is squeezed so that it fits the strip like one-letter ranks.
    return text(label, Typeface.BOLD, size.index, -round(size.index * 0.1) if len(label) > 1
                else 0)


def _index_centre(size: PieceSize) -> int:
    """The x of the index column's centre line: ranks and suit symbols are centred on it."""
    return size.pad + _rank_text("10", size).width // 2


def strip(size: PieceSize) -> int:
    """How far apart pieces sit in a tight run (melds, piles, what a player held).

    Cards overlap down to the slice that still shows their whole index; tiles
    lie side by side, as on a real table.
    """
    if size.tile:
        return size.width + 2
    return size.pad + _rank_text("10", size).width + max(3, size.pad // 2)


def _centred(body: Image.Image, mask: Image.Image, colour: RGB, cx: int, y: int) -> None:
    fill(body, mask, colour, (cx - mask.width // 2, y))


def _card_face(card: Card, size: PieceSize, style: Style) -> Image.Image:
    body = _blank(size, palette.CARD_EDGE, palette.CARD)
    ink = palette.suit_colour(card.suit, style)
    w, h, cx = size.width, size.height, _index_centre(size)
    rank = _rank_text(card.label, size)
    draw_text(body, rank, (cx - rank.width // 2, size.pad + size.edge), ink)
    _centred(body, shapes.suit(card.suit, size.symbol), ink, cx,
             size.pad + size.edge + rank.cap + round(w * 0.05))
    if card.rank > 10:  # court card: its letter framed, with a small suit
        x, y, fw, fh = round(w * 0.44), round(h * 0.40), round(w * 0.50), round(h * 0.52)
        fill(body, shapes.rounded_ring(fw, fh, size.radius, size.edge + 1), ink, (x, y))
        letter = text(card.label, Typeface.BOLD, round(w * 0.3))
        draw_text(body, letter, (x + (fw - letter.width) // 2, y + round(fh * 0.12)), ink)
        _centred(body, shapes.suit(card.suit, round(w * 0.17)), ink, x + fw // 2,
                 y + round(fh * 0.14) + letter.cap + round(fh * 0.1))
    else:
        pip = shapes.suit(card.suit, round(w * 0.46))
        fill(body, pip, ink, (round(w * 0.64) - pip.width // 2,
                              round(h * 0.62) - pip.height // 2))
    return body


def _joker_face(size: PieceSize) -> Image.Image:
    body = _blank(size, palette.CARD_EDGE, palette.CARD)
    ink, cx = palette.JOKER_PURPLE, _index_centre(size)
    y = size.pad + size.edge
    _centred(body, shapes.star(size.symbol), ink, cx, y)
    y += size.symbol + round(size.width * 0.04)
    # The letters stop above the room a badge (NEW, =7H) takes at the bottom.
    pitch = (size.height - size.pad - round(BADGE_SIZE * 1.5) - y) // 5
    for letter in "JOKER":
        glyph = text(letter, Typeface.BOLD, round(pitch / 0.95))
        draw_text(body, glyph, (cx - glyph.width // 2, y), ink)
        y += pitch
    big = shapes.star(round(size.width * 0.46))
    fill(body, big, ink, (round(size.width * 0.66) - big.width // 2,
                          round(size.height * 0.6) - big.height // 2))
    return body


@drawn_once()
def card_sprite(card: Card, size: PieceSize, style: Style = "four") -> Sprite:
    """The face of ``card`` (the printed joker included)."""
    body = _joker_face(size) if card.is_joker else _card_face(card, size, style)
    return _outlined(body, size)


@drawn_once()
def card_back(size: PieceSize) -> Sprite:
    """The back of a card (the stock)."""
    body = _blank(size, palette.CARD_EDGE, palette.CARD)
    inset = size.edge + round(size.width * 0.06)
    width, height = size.width - 2 * inset, size.height - 2 * inset
    panel = Image.new("RGB", (width, height), palette.BACK)
    pattern = shapes.lattice(width, height, max(8, size.width // 8), size.edge)
    fill(panel, pattern, palette.BACK_LINES, (0, 0))
    body.paste(panel, (inset, inset), shapes.rounded_box(width, height,
                                                         max(size.radius - inset, 3)))
    return _outlined(body, size)


def _tile_blank(size: PieceSize, face: RGB) -> Image.Image:
    # A thicker bottom edge gives the tile its depth.
    return _blank(size, palette.TILE_EDGE, face, bottom_edge=round(size.height * 0.06))


@drawn_once()
def tile_sprite(tile: Tile, size: PieceSize) -> Sprite:
    """The face of ``tile``: its number over its colour mark, or the joker's smiley."""
    body = _tile_blank(size, palette.TILE)
    ink, cx, top = palette.tile_colour(tile.colour), size.width // 2, round(size.height * 0.14)
    if tile.is_joker:
        face = shapes.smiley(round(size.width * 0.62))
        _centred(body, face, ink, cx, top)
        word = text("JOKER", Typeface.BOLD, round(size.width * 0.2))
        draw_text(body, word, (cx - word.width // 2, top + face.height + round(size.height * 0.07)),
                  palette.BLACK)
    else:
        number = text(tile.label, Typeface.BOLD, size.index,
                      -round(size.index * 0.06) if tile.number > 9 else 0)
        draw_text(body, number, (cx - number.width // 2, top), ink)
        _centred(body, shapes.colour_mark(tile.colour, size.symbol), ink, cx,
                 top + number.cap + round(size.height * 0.1))
    return _outlined(body, size)


@drawn_once()
def tile_back(size: PieceSize) -> Sprite:
    """A face-down tile (the pool)."""
    body = _tile_blank(size, palette.TILE_BACK)
    inset = round(size.width * 0.18)
    ring = shapes.rounded_ring(size.width - 2 * inset, size.height - 2 * inset - 4,
                               size.radius, size.edge)
    fill(body, ring, palette.TILE_EDGE, (inset, inset))
    return _outlined(body, size)


def piece_sprite(piece: Piece, size: PieceSize, style: Style = "four") -> Sprite:
    """The sprite of a card or a tile."""
    if isinstance(piece, Tile):
        return tile_sprite(piece, size)
    return card_sprite(piece, size, style)


def badge(label: str, ink: RGB, background: RGB, size: int = BADGE_SIZE,
          max_width: int | None = None) -> Sprite:
    """A pill with ``label`` in it (NEW, WILD, ``=7H``, meld numbers); its label is cut with an
    ellipsis where the pill would be wider than ``max_width``."""
    return _badge(say(label), ink, background, size, max_width)


@drawn_once(maxsize=512)
def _badge(label: str, ink: RGB, background: RGB, size: int, max_width: int | None) -> Sprite:
    pad_x, pad_y = round(size * 0.35), round(size * 0.28)
    run = (text(label, Typeface.BOLD, size) if max_width is None
           else fitted(label, Typeface.BOLD, size, max_width - 2 * pad_x))
    # Marks above the capitals (Thai, Devanagari) or strokes below the baseline stay inside.
    above = max(pad_y, -run.top)
    below = max(pad_y, run.mask.height + run.top - run.cap)
    height = above + run.cap + below
    width = max(run.width + 2 * pad_x, height)
    body = Image.new("RGB", (width, height), background)
    draw_text(body, run, ((width - run.width) // 2, above), ink)
    return sprite(body, shapes.rounded_box(width, height, height // 2), height // 2)


@drawn_once()
def highlight(size: PieceSize, thickness: int) -> Stamp:
    """A ring that outlines a piece of ``size`` from outside (the newest card)."""
    radius = size.radius + thickness
    return cut(shapes.rounded_ring(size.width + 2 * thickness, size.height + 2 * thickness,
                                   radius, thickness), radius)
