"""Text as masks, from the DejaVu fonts shipped in ``cardart/fonts/`` (never system fonts).

Text is placed by its *cap box*: ``x`` is the left edge of the ink and ``y`` the
top of a capital letter, so codes, numbers and names line up whatever their
letters. Rendered runs are cached like sprites. FreeType faces are not safe to
use from two threads at once, so every use of one goes through one lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .cache import drawn_once
from .palette import RGB
from .raster import fill, posterise

FONT_DIR = Path(__file__).with_name("fonts")
ELLIPSIS = "…"
_FREETYPE = threading.Lock()


class Typeface(Enum):
    """The two shipped faces: condensed bold for cards, codes and badges; regular for prose."""

    BOLD = "DejaVuSansCondensed-Bold.ttf"
    REGULAR = "DejaVuSans.ttf"


@dataclass(frozen=True, slots=True)
class Text:
    """A rendered run of text: its ink as a mask, placed relative to the cap box."""

    mask: Image.Image
    width: int
    """Ink width, from the left edge of the ink."""
    cap: int
    """Cap height of the face at this size: the height layouts reserve for a line."""
    top: int
    """Where the ink starts relative to the cap line (negative above it, e.g. accents)."""


@drawn_once()
def _font(face: Typeface, size: int) -> ImageFont.FreeTypeFont:
    # BASIC layout: the same glyph positions whether or not libraqm is installed.
    return ImageFont.truetype(str(FONT_DIR / face.value), size,
                              layout_engine=ImageFont.Layout.BASIC)


@drawn_once(maxsize=4096)
def text(content: str, face: Typeface, size: int, tracking: int = 0) -> Text:
    """``content`` set in ``face`` at ``size`` px, with ``tracking`` px between letters."""
    font = _font(face, size)
    runs = list(content) if tracking and content else [content]
    with _FREETYPE:
        cap_top, cap_bottom = _ink_box(font, "H")[1::2]
        pens, pen = [], 0
        for run in runs:
            pens.append(pen)
            pen += round(font.getlength(run)) + tracking
        boxes = [(x + box[0], box[1], x + box[2], box[3])
                 for x, box in zip(pens, (_ink_box(font, run) for run in runs), strict=True)]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        if right <= left or bottom <= top:  # empty or blank
            return Text(Image.new("L", (1, 1), 0), 0, cap_bottom - cap_top, 0)
        mask = Image.new("L", (right - left, bottom - top), 0)
        draw = ImageDraw.Draw(mask)
        for x, run in zip(pens, runs, strict=True):
            draw.text((x - left, -top), run, fill=255, font=font)
    return Text(posterise(mask), right - left, cap_bottom - cap_top, top - cap_top)


def _ink_box(font: ImageFont.FreeTypeFont, run: str) -> tuple[int, int, int, int]:
    """``run``'s ink box in whole pixels (Pillow types it float for fractional strokes;
    without a stroke FreeType measures whole pixels, so nothing is rounded away)."""
    left, top, right, bottom = font.getbbox(run)
    return int(left), int(top), int(right), int(bottom)


def cap_height(face: Typeface, size: int) -> int:
    """The height a line of ``face`` at ``size`` takes in a layout."""
    return text("H", face, size).cap


def draw_text(canvas: Image.Image, run: Text, xy: tuple[int, int], colour: RGB) -> None:
    """Paint ``run`` with its cap box's top-left corner at ``xy``."""
    if run.width:
        fill(canvas, run.mask, colour, (xy[0], xy[1] + run.top))


def fitted(content: str, face: Typeface, size: int, max_width: int) -> Text:
    """``content``, cut short with an ellipsis if it is wider than ``max_width``."""
    whole = text(content, face, size)
    if whole.width <= max_width:
        return whole
    low, high = 0, len(content)  # the longest prefix that fits is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if text(content[:middle].rstrip() + ELLIPSIS, face, size).width <= max_width:
            low = middle
        else:
            high = middle
    return text(content[:low].rstrip() + ELLIPSIS, face, size)
