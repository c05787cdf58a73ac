"""Layout helpers shared by every composition: canvas, headings, rows of pieces, label chips.

All pictures are :data:`WIDTH` px wide, the width of the design samples, so a
phone scales every picture alike and the smallest text (labels, at least 24 px
tall here) stays legible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from bot.engine.cards import Piece

from . import palette, shapes
from .fonts import Typeface, cap_height, draw_text, fitted
from .palette import RGB, Style
from .raster import fill, paste
from .sprites import PieceSize, piece_sprite

WIDTH = 1200
MARGIN = 18
SPAN = WIDTH - 2 * MARGIN
"""The usable width inside the margins."""

HEADING_SIZE = 30
TEXT_SIZE = 30
"""Names, scores and other text in bold."""
CAPTION_SIZE = 26
SMALL_SIZE = 24
"""Notes, axes and other secondary text."""
SECTION_GAP = 22
LABEL_SIZE = 34
"""Codes and ``#n`` under pieces: DejaVu Condensed Bold at 34 px has 25 px tall capitals."""
LABEL_PAD = 8
LABEL_HEIGHT = 2 * cap_height(Typeface.BOLD, LABEL_SIZE) + 3 * LABEL_PAD + 2
SPACING = 8
"""The gap between pieces that do not overlap, and between a piece and its label."""


def balanced_rows(count: int, per_row: int) -> list[int]:
    """How many pieces go in each row: as few rows as possible, as even as possible."""
    if count <= 0:
        return []
    rows = -(-count // per_row)
    return [count // rows + (1 if row < count % rows else 0) for row in range(rows)]


def step_to_fit(count: int, width: int, span: int, natural: int) -> int:
    """Distance between the left edges of ``count`` pieces ``width`` wide within ``span``.

    Pieces sit ``natural`` apart when there is room, and overlap evenly when not.
    """
    if count <= 1:
        return natural
    return min(natural, (span - width) // (count - 1))


def right_columns(right: int, widths: Sequence[int]) -> list[int]:
    """Left edges of columns ``widths`` wide that end, side by side, at ``right``."""
    starts: list[int] = []
    for width in reversed(widths):
        right -= width
        starts.insert(0, right)
    return starts


def draw_run(picture: Image.Image, pieces: Sequence[Piece], xs: Sequence[int], y: int,
             size: PieceSize, style: Style) -> None:
    """Paste pieces left to right, each over the one before it."""
    for piece, x in zip(pieces, xs, strict=True):
        paste(picture, piece_sprite(piece, size, style), (x, y))


def label_chip(picture: Image.Image, xy: tuple[int, int], width: int, code: str, ink: RGB,
               position: int) -> None:
    """The chip under a piece in a hand: its code over ``#position`` (rules NOT-7)."""
    x, y = xy
    fill(picture, shapes.box_stamp(width, LABEL_HEIGHT, 8), palette.CHIP, xy)
    line = y + LABEL_PAD
    for content, colour in ((code, ink), (f"#{position}", palette.CHIP_TEXT)):
        run = fitted(content, Typeface.BOLD, LABEL_SIZE, width - 4)
        draw_text(picture, run, (x + (width - run.width) // 2, line), colour)
        line += run.cap + LABEL_PAD + 2


class Block(Protocol):
    """One horizontal band of a picture, laid out before the canvas exists."""

    @property
    def height(self) -> int: ...

    def draw(self, picture: Image.Image, top: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Line:
    """A line of text as a block."""

    content: str
    size: int = HEADING_SIZE
    colour: RGB = palette.FELT_TEXT
    face: Typeface = Typeface.REGULAR

    @property
    def height(self) -> int:
        return cap_height(self.face, self.size)

    def draw(self, picture: Image.Image, top: int) -> None:
        draw_text(picture, fitted(self.content, self.face, self.size, SPAN), (MARGIN, top),
                  self.colour)


def stack(blocks: Sequence[Block], gap: int, *, indexed: bool = False) -> Image.Image:
    """A felt-green picture holding ``blocks`` top to bottom, ``gap`` px apart.

    The felt is opaque, so the picture reads the same on light and dark themes.
    ``indexed``: drawn on an indexed canvas (:mod:`cardart.indexed`), not RGB.
    """
    height = 2 * MARGIN + sum(block.height for block in blocks) + gap * max(len(blocks) - 1, 0)
    if indexed:
        from .indexed import canvas  # only pictures drawn indexed need it

        picture = canvas((WIDTH, height), palette.FELT)
    else:
        picture = Image.new("RGB", (WIDTH, height), palette.FELT)
    top = MARGIN
    for block in blocks:
        block.draw(picture, top)
        top += block.height + gap
    return picture


def name_of(names: Sequence[str], seat: int) -> str:
    """The player's name at ``seat``; the bot passes one name per seat."""
    if not 0 <= seat < len(names):
        raise ValueError(f"no name for seat {seat}: {len(names)} names given")
    return names[seat]
