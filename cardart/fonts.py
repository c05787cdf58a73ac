"""Every word in every picture, in any of the shipped scripts: the one place text is set.

The fonts are shipped in ``cardart/fonts/`` (never system fonts). Each
:class:`Typeface` is a *chain* of them: DejaVu first (Latin, Greek, Cyrillic,
the card faces' letters and symbols), then Noto Sans Devanagari, Tamil and
Thai, Noto Sans CJK SC and Noto Emoji (how those files were made:
``cardart/fontbuild.py``). Text is cut into grapheme clusters (``\\X``: a
Devanagari conjunct with its vowel signs, an emoji with its modifiers and
joiners stay whole); each cluster is set in the first font of the chain whose
character map holds all its characters, except that emoji go to the emoji font
first. Neighbouring clusters in one font make a *run*; runs are shaped (raqm,
where Pillow has it: conjuncts, vowel signs, marks, emoji sequences) and set
on one baseline.

Runs of the first font that need no shaping (no combining marks, nothing
right-to-left) are laid out by Pillow's BASIC engine, so plain Latin text sets
exactly as it always did, whether or not libraqm is installed. Without raqm,
everything is BASIC: Devanagari and Tamil then draw unshaped.

Text is placed by its *cap box*: ``x`` is the left edge of the ink and ``y``
the top of a capital letter of the first font, so codes, numbers and names
line up whatever their script. Text cut to a width loses whole clusters and
ends with an ellipsis (:func:`fitted`). Rendered runs are cached like sprites.
FreeType faces are not safe to use from two threads at once, so every use of
one goes through one lock.

The API: :func:`text` sets a string, :func:`fitted` sets it within a width
(:func:`shortened` gives the string it sets), :func:`draw_text` paints the
result, :func:`cap_height` is the height a line takes.
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import regex
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

from .cache import drawn_once
from .palette import RGB
from .raster import fill, posterise
from .words import say

FONT_DIR = Path(__file__).with_name("fonts")
ELLIPSIS = "…"
_FREETYPE = threading.Lock()
_CLUSTER = regex.compile(r"\X")
_RAQM = features.check_feature("raqm")

EMOJI_FONTS = frozenset({"NotoEmoji-Bold.ttf", "NotoEmoji-Regular.ttf"})
"""Tried first for a cluster that asks for an emoji (see :func:`_wants_emoji`)."""
IGNORED = frozenset({0x200C, 0x200D, *range(0xFE00, 0xFE10), 0x20E3, *range(0xE0020, 0xE0080)})
"""Joiners, variation selectors, the keycap and tags: a font need not map them to set a
cluster (they choose or join the glyphs of the characters around them)."""


class Typeface(Enum):
    """The two faces, each a chain of font files tried in turn for every cluster: condensed
    bold for cards, codes, names and badges; regular for prose."""

    BOLD = ("DejaVuSansCondensed-Bold.ttf", "NotoSansDevanagari-Bold.ttf",
            "NotoSansTamil-Bold.ttf", "NotoSansThai-Bold.ttf", "NotoSansCJKsc-Bold.otf",
            "NotoEmoji-Bold.ttf")
    REGULAR = ("DejaVuSans.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansTamil-Regular.ttf",
               "NotoSansThai-Regular.ttf", "NotoSansCJKsc-Regular.otf", "NotoEmoji-Regular.ttf")

    @property
    def chain(self) -> tuple[str, ...]:
        """The font files, first choice first."""
        return self.value


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


@dataclass(frozen=True, slots=True)
class Run:
    """Neighbouring clusters set in one font."""

    content: str
    font: str
    """The font file's name in :data:`FONT_DIR`."""


def clusters(content: str) -> list[str]:
    """``content``'s grapheme clusters (Unicode's extended clusters, Indic conjuncts whole)."""
    return _CLUSTER.findall(content)


@drawn_once()
def coverage(font: str) -> frozenset[int]:
    """The code points ``font`` (a file in :data:`FONT_DIR`) maps to a glyph: its cmap."""
    with TTFont(FONT_DIR / font, lazy=True) as face:
        return frozenset(face.getBestCmap())


def _wants_emoji(cluster: str) -> bool:
    """An emoji presentation selector, a keycap, or a character of the pictographic blocks
    (U+1F300 to U+1FAFF, where DejaVu has a few text-style faces)."""
    return any(c in "\ufe0f\u20e3" or 0x1F1E6 <= ord(c) <= 0x1FAFF for c in cluster)


@drawn_once(maxsize=4096)
def _font_of(cluster: str, face: Typeface) -> str:
    """The font of ``face``'s chain that sets ``cluster``: the first that maps every character
    (emoji fonts first for emoji), else the one that maps most of them (the others then
    show its missing-glyph box)."""
    wanted = [ord(c) for c in cluster if ord(c) not in IGNORED] or [ord(c) for c in cluster]
    chain = face.chain
    if _wants_emoji(cluster):
        chain = tuple(sorted(chain, key=lambda font: font not in EMOJI_FONTS))
    best, most = chain[0], -1
    for font in chain:
        mapped = coverage(font)
        count = sum(point in mapped for point in wanted)
        if count == len(wanted):
            return font
        if count > most:
            best, most = font, count
    return best


def runs(content: str, face: Typeface) -> list[Run]:
    """``content`` cut into runs, each set in one font of ``face``'s chain."""
    out: list[Run] = []
    for cluster in clusters(unicodedata.normalize("NFC", content)):
        font = _font_of(cluster, face)
        if out and out[-1].font == font:
            out[-1] = Run(out[-1].content + cluster, font)
        else:
            out.append(Run(cluster, font))
    return out


def _shaped(run: Run, face: Typeface) -> bool:
    """Whether ``run`` is laid out by raqm: runs of fallback fonts always, runs of the first
    font when they hold combining marks or right-to-left letters."""
    if not _RAQM:
        return False
    if run.font != face.chain[0]:
        return True
    return any(unicodedata.combining(c) or unicodedata.bidirectional(c) in ("R", "AL", "AN")
               for c in run.content)


@drawn_once()
def _font(font: str, size: int, shaped: bool) -> ImageFont.FreeTypeFont:
    engine = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / font), size, layout_engine=engine)


def text(content: str, face: Typeface, size: int, tracking: int = 0) -> Text:
    """``content`` set in ``face`` at ``size`` px, with ``tracking`` px between clusters; a
    message (``tr``, from the engine's views) is set in the current language."""
    return _text(say(content), face, size, tracking)


@drawn_once(maxsize=4096)
def _text(content: str, face: Typeface, size: int, tracking: int = 0) -> Text:
    pieces = runs(content, face)
    if tracking:
        pieces = [Run(cluster, run.font) for run in pieces for cluster in clusters(run.content)]
    fonts = [_font(run.font, size, _shaped(run, face)) for run in pieces]
    with _FREETYPE:
        cap_top, cap_bottom = _ink_box(_font(face.chain[0], size, False), "H")[1::2]
        pens, pen = [], 0
        for run, font in zip(pieces, fonts, strict=True):
            pens.append(pen)
            pen += round(font.getlength(run.content)) + tracking
        boxes = [(x + box[0], box[1], x + box[2], box[3])
                 for x, box in zip(pens, (_ink_box(font, run.content)
                                          for run, font in zip(pieces, fonts, strict=True)),
                                   strict=True)
                 if box[2] > box[0] and box[3] > box[1]]
        if not boxes:  # empty or blank
            return Text(Image.new("L", (1, 1), 0), 0, cap_bottom - cap_top, 0)
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        mask = Image.new("L", (right - left, bottom - top), 0)
        draw = ImageDraw.Draw(mask)
        for x, run, font in zip(pens, pieces, fonts, strict=True):
            draw.text((x - left, -top), run.content, fill=255, font=font, anchor="ls")
    return Text(posterise(mask), right - left, cap_bottom - cap_top, top - cap_top)


def _ink_box(font: ImageFont.FreeTypeFont, run: str) -> tuple[int, int, int, int]:
    """``run``'s ink box in whole pixels, relative to the pen on the baseline (Pillow types it
    float for fractional strokes; without a stroke FreeType measures whole pixels, so
    nothing is rounded away)."""
    left, top, right, bottom = font.getbbox(run, anchor="ls")
    return int(left), int(top), int(right), int(bottom)


def cap_height(face: Typeface, size: int) -> int:
    """The height a line of ``face`` at ``size`` takes in a layout."""
    return text("H", face, size).cap


def draw_text(canvas: Image.Image, run: Text, xy: tuple[int, int], colour: RGB) -> None:
    """Paint ``run`` with its cap box's top-left corner at ``xy``."""
    if run.width:
        fill(canvas, run.mask, colour, (xy[0], xy[1] + run.top))


def shortened(content: str, face: Typeface, size: int, max_width: int) -> str:
    """``content`` as :func:`fitted` sets it: whole if it fits in ``max_width`` px of ink, else
    its longest prefix of whole clusters that fits with an ellipsis after it, else empty.

    For a name inside a longer line ("Priya to move"), cut before the line is composed.
    """
    content = say(content)
    if text(content, face, size).width <= max_width:
        return content
    parts = clusters(unicodedata.normalize("NFC", content))
    low, high = 0, len(parts)  # the longest prefix that fits is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if text(_cut(parts, middle), face, size).width <= max_width:
            low = middle
        else:
            high = middle
    cut = _cut(parts, low)
    return cut if text(cut, face, size).width <= max_width else ""


def _cut(parts: list[str], count: int) -> str:
    return "".join(parts[:count]).rstrip() + ELLIPSIS


def fitted(content: str, face: Typeface, size: int, max_width: int) -> Text:
    """``content`` set within ``max_width`` px of ink (see :func:`shortened`): never wider."""
    return text(shortened(content, face, size, max_width), face, size)
