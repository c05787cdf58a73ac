"""The colours of every picture, in one place.

Suits use four colours by default (spades black, hearts red, diamonds blue,
clubs green) so that no two suits share a colour; the ``classic`` style keeps
the traditional red and black. The shape of the suit symbol and the letter in
every code carry the suit too, so colour is never the only cue. Tiles pair each
colour with a shape for the same reason (red ▲, blue ■, orange ◆, black ●).
The chart palette is Okabe and Ito's, chosen for colour-blind readers.
"""

from __future__ import annotations

from typing import Literal

from bot.engine.cards import Colour, Piece, Suit, Tile

RGB = tuple[int, int, int]
Style = Literal["four", "classic"]
STYLES: tuple[Style, ...] = ("four", "classic")

FELT: RGB = (24, 86, 56)
"""The opaque table background: reads the same in Discord's light and dark themes."""
FELT_DARK: RGB = (16, 64, 41)
FELT_TEXT: RGB = (240, 240, 240)
FELT_MUTED: RGB = (176, 204, 188)

CARD: RGB = (252, 252, 250)
CARD_EDGE: RGB = (120, 124, 130)
CHIP: RGB = (244, 244, 240)
CHIP_TEXT: RGB = (80, 80, 80)
INK: RGB = (17, 17, 17)
GOLD: RGB = (255, 196, 0)
JOKER_PURPLE: RGB = (122, 40, 160)
BADGE_TEXT: RGB = (255, 255, 255)
SILVER: RGB = (200, 204, 208)
BRONZE: RGB = (205, 127, 50)
WINNER_BAND: RGB = (70, 60, 16)

BACK: RGB = (36, 62, 128)
BACK_LINES: RGB = (70, 100, 170)

TILE: RGB = (250, 244, 226)
TILE_EDGE: RGB = (150, 140, 110)
TILE_BACK: RGB = (214, 202, 170)

RED: RGB = (200, 16, 46)
GREEN: RGB = (19, 138, 54)
BLUE: RGB = (11, 92, 213)
ORANGE: RGB = (226, 120, 0)
BLACK: RGB = (20, 20, 20)

_FOUR_COLOUR = {Suit.S: INK, Suit.H: RED, Suit.D: BLUE, Suit.C: GREEN}
_CLASSIC = {Suit.S: INK, Suit.H: RED, Suit.D: RED, Suit.C: INK}
_TILE_COLOURS = {Colour.R: RED, Colour.B: BLUE, Colour.K: BLACK, Colour.O: ORANGE}

CHART_SERIES: tuple[RGB, ...] = (
    (0, 114, 178),    # blue
    (230, 159, 0),    # orange
    (0, 158, 115),    # bluish green
    (213, 94, 0),     # vermillion
    (204, 121, 167),  # reddish purple
    (86, 180, 233),   # sky blue
    (0, 0, 0),        # black
    (240, 228, 66),   # yellow, last: weakest on white
)
CHART_PAPER: RGB = (252, 252, 250)
CHART_GRID: RGB = (222, 226, 224)
CHART_TEXT: RGB = (60, 60, 60)
CHART_MUTED: RGB = (120, 120, 120)


def suit_colour(suit: int, style: Style = "four") -> RGB:
    """The ink of a suit; the joker (suit -1) is purple in every style."""
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, not {style!r}")
    if suit < 0:
        return JOKER_PURPLE
    return (_CLASSIC if style == "classic" else _FOUR_COLOUR)[Suit(suit)]


def tile_colour(colour: int) -> RGB:
    """The ink of a tile colour; the joker (colour -1) is red like its smiley."""
    return RED if colour < 0 else _TILE_COLOURS[Colour(colour)]


def piece_colour(piece: Piece, style: Style = "four") -> RGB:
    """The ink of a card's suit or a tile's colour (the colour its code is written in)."""
    if isinstance(piece, Tile):
        return tile_colour(piece.colour)
    return suit_colour(piece.suit, style)
