"""Vector shapes as anti-aliased masks: suit symbols, tile marks, stars, rounded boxes.

Suits are drawn as shapes rather than font glyphs: Pillow's built-in font has
no suit glyphs, and polygons and circles drawn supersampled stay crisp at any
card size. Shapes are defined on a unit square and scaled; every mask is
cached and read-only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw

from bot.engine.cards import Colour, Suit

from .cache import drawn_once
from .raster import Stamp, cut, supersampled

Point = tuple[float, float]


def _scaled(points: Sequence[Point], box: float) -> list[Point]:
    return [(x * box, y * box) for x, y in points]


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, box: float,
          fill: int = 255) -> None:
    draw.ellipse(((cx - r) * box, (cy - r) * box, (cx + r) * box, (cy + r) * box), fill=fill)


def _stem(draw: ImageDraw.ImageDraw, box: float) -> None:
    draw.polygon(_scaled([(0.46, 0.55), (0.54, 0.55), (0.66, 1.0), (0.34, 1.0)], box), fill=255)


def _heart(draw: ImageDraw.ImageDraw, box: float) -> None:
    _disc(draw, 0.25, 0.30, 0.25, box)
    _disc(draw, 0.75, 0.30, 0.25, box)
    # From the lobes' tangent points down to the tip.
    draw.polygon(_scaled([(0.061, 0.464), (0.5, 0.30), (0.939, 0.464), (0.5, 0.97)], box),
                 fill=255)


def _spade(draw: ImageDraw.ImageDraw, box: float) -> None:
    r = 0.24
    _disc(draw, 0.5 - r, 0.60, r, box)
    _disc(draw, 0.5 + r, 0.60, r, box)
    draw.polygon(_scaled([(0.5, 0.0), (0.03, 0.55), (0.5, 0.72), (0.97, 0.55)], box), fill=255)
    _stem(draw, box)


def _diamond(draw: ImageDraw.ImageDraw, box: float) -> None:
    # Slightly concave sides, like a printed diamond.
    side = [(0.5, 0.0), (0.66, 0.25), (0.86, 0.5), (0.66, 0.75), (0.5, 1.0), (0.34, 0.75),
            (0.14, 0.5), (0.34, 0.25)]
    draw.polygon(_scaled(side, box), fill=255)


def _club(draw: ImageDraw.ImageDraw, box: float) -> None:
    r = 0.215
    _disc(draw, 0.5, 0.25, r, box)
    _disc(draw, 0.5 - 0.235, 0.58, r, box)
    _disc(draw, 0.5 + 0.235, 0.58, r, box)
    _disc(draw, 0.5, 0.5, 0.14, box)
    _stem(draw, box)


_SUITS = {Suit.S: _spade, Suit.H: _heart, Suit.D: _diamond, Suit.C: _club}


@drawn_once()
def suit(which: int, size: int) -> Image.Image:
    """The symbol of suit ``which`` in a ``size``×``size`` mask."""
    return supersampled((size, size), lambda draw, k: _SUITS[Suit(which)](draw, size * k))


def _triangle(draw: ImageDraw.ImageDraw, box: float) -> None:
    draw.polygon(_scaled([(0.5, 0.04), (1.0, 0.92), (0.0, 0.92)], box), fill=255)


def _square(draw: ImageDraw.ImageDraw, box: float) -> None:
    draw.rectangle(_scaled([(0.1, 0.1), (0.9, 0.9)], box), fill=255)


def _rhombus(draw: ImageDraw.ImageDraw, box: float) -> None:
    draw.polygon(_scaled([(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)], box), fill=255)


def _circle(draw: ImageDraw.ImageDraw, box: float) -> None:
    _disc(draw, 0.5, 0.5, 0.44, box)


def _nabla(draw: ImageDraw.ImageDraw, box: float) -> None:
    draw.polygon(_scaled([(0.0, 0.08), (1.0, 0.08), (0.5, 0.96)], box), fill=255)


def _cross(draw: ImageDraw.ImageDraw, box: float) -> None:
    for a, b in (((0.1, 0.1), (0.9, 0.9)), ((0.1, 0.9), (0.9, 0.1))):
        draw.line(_scaled([a, b], box), fill=255, width=round(0.26 * box))


MARKERS = {"circle": _circle, "square": _square, "triangle": _triangle, "diamond": _rhombus,
           "nabla": _nabla, "cross": _cross}
"""Marker shapes by name (tile colours and chart series)."""
_TILE_MARKS = {Colour.R: "triangle", Colour.B: "square", Colour.O: "diamond", Colour.K: "circle"}


@drawn_once()
def marker(kind: str, size: int) -> Image.Image:
    """One of :data:`MARKERS` in a ``size``×``size`` mask."""
    return supersampled((size, size), lambda draw, k: MARKERS[kind](draw, size * k))


def colour_mark(colour: int, size: int) -> Image.Image:
    """The colour-blind mark of a tile colour: red ▲, blue ■, orange ◆, black ●."""
    return marker(_TILE_MARKS[Colour(colour)], size)


@drawn_once()
def star(size: int) -> Image.Image:
    """A five-pointed star filling a ``size`` square."""
    def draw_star(draw: ImageDraw.ImageDraw, k: int) -> None:
        box = size * k
        points = []
        for i in range(10):
            radius = box * (0.5 if i % 2 == 0 else 0.2)
            angle = -math.pi / 2 + i * math.pi / 5
            # Centred a little low: the points reach 0.5 up but only 0.4 down.
            points.append((box * 0.5 + radius * math.cos(angle),
                           box * 0.55 + radius * math.sin(angle)))
        draw.polygon(points, fill=255)
    return supersampled((size, size), draw_star)


@drawn_once()
def smiley(size: int) -> Image.Image:
    """A round face with its eyes and smile cut out (the tile joker)."""
    def draw_face(draw: ImageDraw.ImageDraw, k: int) -> None:
        box = size * k
        _disc(draw, 0.5, 0.5, 0.5, box)
        _disc(draw, 0.34, 0.38, 0.08, box, fill=0)
        _disc(draw, 0.66, 0.38, 0.08, box, fill=0)
        draw.arc((0.24 * box, 0.24 * box, 0.76 * box, 0.76 * box), 25, 155, fill=0,
                 width=round(0.08 * box))
    return supersampled((size, size), draw_face)


@drawn_once()
def rounded_box(width: int, height: int, radius: int) -> Image.Image:
    """A filled rounded rectangle (cards, tiles, chips, badges)."""
    return supersampled((width, height), lambda draw, k: draw.rounded_rectangle(
        (0, 0, width * k - 1, height * k - 1), radius=radius * k, fill=255))


@drawn_once()
def box_stamp(width: int, height: int, radius: int) -> Stamp:
    """:func:`rounded_box`, cut for fast filling."""
    return cut(rounded_box(width, height, radius), radius)


@drawn_once()
def rounded_ring(width: int, height: int, radius: int, thickness: int) -> Image.Image:
    """The outline of :func:`rounded_box` (the highlight round the newest card)."""
    outer = rounded_box(width, height, radius)
    inner = Image.new("L", (width, height), 0)
    inner.paste(rounded_box(width - 2 * thickness, height - 2 * thickness,
                            max(radius - thickness, 1)), (thickness, thickness))
    return ImageChops.subtract(outer, inner)


@drawn_once()
def disc(diameter: int) -> Image.Image:
    """A filled circle (marker badges, chart markers)."""
    return supersampled((diameter, diameter),
                        lambda draw, k: _disc(draw, 0.5, 0.5, 0.5, diameter * k))


@drawn_once()
def lattice(width: int, height: int, step: int, thickness: int) -> Image.Image:
    """Diagonal lines both ways every ``step`` px (the pattern on a card's back)."""
    def draw_lines(draw: ImageDraw.ImageDraw, k: int) -> None:
        for offset in range(-height, width + height, step):
            draw.line((offset * k, 0, (offset + height) * k, height * k), fill=255,
                      width=thickness * k)
            draw.line((offset * k, height * k, (offset + height) * k, 0), fill=255,
                      width=thickness * k)
    return supersampled((width, height), draw_lines)


@drawn_once()
def pointer(size: int) -> Image.Image:
    """A triangle pointing right (whose turn it is)."""
    return supersampled((size, size), lambda draw, k: draw.polygon(
        _scaled([(0.1, 0.0), (0.95, 0.5), (0.1, 1.0)], size * k), fill=255))
