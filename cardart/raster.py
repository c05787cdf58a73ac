"""Low-level drawing: anti-aliased masks with few grey levels, and filling through them.

Everything in a picture is a flat colour filled through a mask (a shape, a
glyph run, a rounded rectangle). Masks are drawn supersampled for smooth edges,
then *posterised* to :data:`LEVELS` grey levels. A composed picture therefore
holds only the design colours and a handful of blends between touching pairs,
well under 256 colours (90 to 170 in the demos), so it becomes a palette PNG
without a slow quantiser (see :mod:`cardart.encode`). Eight levels of
anti-aliasing are indistinguishable from 256 at these sizes. Hands and racks
go further and are drawn straight into palette indices: :func:`fill` and
:func:`paste` hand an indexed canvas to :mod:`cardart.indexed`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from PIL import Image, ImageDraw

from . import indexed
from .palette import RGB
from .stamps import Box, Sprite, Stamp

LEVELS = 8
"""Grey levels of every mask, 0 and 255 included."""

SUPERSAMPLE = 4
"""Shapes are drawn at this multiple of their size, then reduced."""


_POSTERISE = [round(round(v * (LEVELS - 1) / 255) * 255 / (LEVELS - 1)) for v in range(256)]


def posterise(mask: Image.Image) -> Image.Image:
    """``mask`` with its grey values rounded to :data:`LEVELS` levels."""
    return mask.point(_POSTERISE)


def supersampled(size: tuple[int, int], draw: Callable[[ImageDraw.ImageDraw, int], None]
                 ) -> Image.Image:
    """A posterised "L" mask of ``size`` drawn by ``draw(canvas, scale)`` at ``scale``×.

    ``draw`` paints white (255) on black, multiplying its coordinates by ``scale``.
    """
    width, height = size
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    draw(ImageDraw.Draw(big), SUPERSAMPLE)
    return posterise(big.reduce(SUPERSAMPLE))


def cut(mask: Image.Image, corner: int) -> Stamp:
    """Cut ``mask`` along lines ``corner`` px in from each side (its corners' size).

    Of the nine blocks, solid ones stacked in a column are merged, so a rounded
    box becomes three solid columns and four blended corners.
    """
    width, height = mask.size
    corner = min(corner, width // 2, height // 2)
    xs = sorted({0, corner, width - corner, width})
    ys = sorted({0, corner, height - corner, height})
    solid: list[Box] = []
    edges: list[tuple[Box, Image.Image]] = []
    for left, right in itertools.pairwise(xs):
        run_top = None  # top of the solid run being merged in this column
        for top, bottom in itertools.pairwise(ys):
            block = mask.crop((left, top, right, bottom))
            low, high = block.getextrema()
            if isinstance(high, tuple):  # Pillow types getextrema for every mode
                raise ValueError("cut() takes a one-band mask")
            if low == 255:
                run_top = top if run_top is None else run_top
                continue
            if run_top is not None:
                solid.append((left, run_top, right, top))
                run_top = None
            if high > 0:
                edges.append(((left, top, right, bottom), block))
        if run_top is not None:
            solid.append((left, run_top, right, height))
    return Stamp(width, height, tuple(solid), tuple(edges))


def sprite(picture: Image.Image, mask: Image.Image, corner: int) -> Sprite:
    """A sprite of ``picture`` (RGB) shown through ``mask``; see :func:`cut`."""
    stamp = cut(mask, corner)
    return Sprite(picture, stamp,
                  tuple((box, picture.crop(box)) for box in stamp.solid),
                  tuple((box, picture.crop(box), block) for box, block in stamp.edges))


def _moved(box: Box, x: int, y: int) -> Box:
    return (box[0] + x, box[1] + y, box[2] + x, box[3] + y)


def fill(canvas: Image.Image, mask: Image.Image | Stamp, colour: RGB,
         xy: tuple[int, int]) -> None:
    """Paint ``colour`` through ``mask`` with the mask's top-left corner at ``xy``."""
    if canvas.mode == "L" and canvas.info and indexed.is_indexed(canvas):
        indexed.fill(canvas, mask, colour, xy)
        return
    x, y = xy
    if isinstance(mask, Stamp):
        for box in mask.solid:
            canvas.paste(colour, _moved(box, x, y))
        for box, block in mask.edges:
            canvas.paste(colour, _moved(box, x, y), block)
    else:
        canvas.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


def paste(canvas: Image.Image, piece: Sprite, xy: tuple[int, int]) -> None:
    """Paste ``piece`` with its top-left corner at ``xy``."""
    if canvas.mode == "L" and canvas.info and indexed.is_indexed(canvas):
        indexed.paste(canvas, piece, xy)
        return
    x, y = xy
    for box, part in piece.opaque:
        canvas.paste(part, (box[0] + x, box[1] + y))
    for box, part, block in piece.blended:
        canvas.paste(part, (box[0] + x, box[1] + y), block)
