"""Melds and Remi's spread discard pile: runs of overlapping pieces on the table.

Every meld carries its number (NOT-11) in a chip above it, and every joker a
badge with the card it stands for (NOT-8): ``=7H``, or ``=7`` where the suit is
left open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image

from bot.engine.cards import Piece
from bot.engine.views import MeldView, TableView

from . import palette, sprites
from .fonts import Typeface, cap_height, draw_text, fitted
from .layout import (
    CAPTION_SIZE,
    MARGIN,
    SPACING,
    SPAN,
    WIDTH,
    balanced_rows,
    draw_run,
    name_of,
    step_to_fit,
)
from .palette import Style
from .raster import paste
from .sprites import PieceSize

MELD_NUMBER_SIZE = 26
OWNER_COLUMN = 200
"""Width of the owners' names beside their melds (Remi)."""
MELD_GAP = (28, 18)
"""Space between melds: across, and between rows."""


@dataclass(slots=True)
class SpreadPile:
    """The whole pile, bottom to top, in overlapping rows; the top ``marked`` cards numbered."""

    pile: tuple[Piece, ...]
    marked: int
    tiles: bool
    style: Style
    size: PieceSize = field(init=False)
    rows: list[int] = field(init=False)
    step: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = sprites.TILE_SMALL if self.tiles else sprites.CARD_SMALL
        narrowest = sprites.strip(self.size)
        self.rows = balanced_rows(len(self.pile), 1 + (SPAN - self.size.width) // narrowest)
        self.step = step_to_fit(max(self.rows, default=1), self.size.width, SPAN,
                                self.size.width + SPACING)

    @property
    def _row_height(self) -> int:
        return self.size.height + SPACING + sprites.badge("1", palette.INK, palette.GOLD).height

    @property
    def height(self) -> int:
        return (cap_height(Typeface.BOLD, CAPTION_SIZE) + SPACING
                + len(self.rows) * (self._row_height + SPACING))

    def draw(self, picture: Image.Image, top: int) -> None:
        count = len(self.pile)
        caption = f"Discard pile · {count} {'tile' if self.tiles else 'card'}"
        caption += ("s" if count != 1 else "") + (" · 1 = top" if count else " · empty")
        draw_text(picture, fitted(caption, Typeface.BOLD, CAPTION_SIZE, SPAN), (MARGIN, top),
                  palette.FELT_TEXT)
        y = top + cap_height(Typeface.BOLD, CAPTION_SIZE) + SPACING
        start = 0
        for length in self.rows:
            xs = [MARGIN + i * self.step for i in range(length)]
            draw_run(picture, self.pile[start:start + length], xs, y, self.size, self.style)
            for i, x in enumerate(xs):
                position = count - (start + i)  # 1 is the top card
                if position <= self.marked:
                    marker = sprites.badge(str(position), palette.INK, palette.GOLD)
                    visible = min(self.step, self.size.width)
                    paste(picture, marker, (x + (visible - marker.width) // 2,
                                            y + self.size.height + SPACING))
            start += length
            y += self._row_height + SPACING


def stand_ins(meld: MeldView, tiles: bool) -> dict[int, sprites.Sprite]:
    """The ``=7H`` badge for each joker of ``meld``, by position (NOT-8)."""
    return {i: sprites.badge("=" + face.label(tiles), palette.BADGE_TEXT, palette.JOKER_PURPLE,
                             sprites.BADGE_SIZE - 2)
            for i, face in meld.jokers}


def paste_stand_ins(picture: Image.Image, badges: dict[int, sprites.Sprite], xs: Sequence[int],
                    y: int, size: PieceSize) -> None:
    """Badges on the jokers of a run of pieces drawn at ``xs``, ``y`` (bottom-left corner)."""
    for i, badge in badges.items():
        paste(picture, badge, (xs[i] + 3, y + size.height - badge.height - 5))


@dataclass(slots=True)
class MeldLayout:
    """One meld laid out: its number chip above its overlapping pieces."""

    meld: MeldView
    tiles: bool
    names: Sequence[str] = ()
    """Every seat's name, for the placers' initials under the pieces (Rummy 500 FHR-35)."""
    xs: list[int] = field(init=False)
    stand_ins: dict[int, sprites.Sprite] = field(init=False)
    initials: list[sprites.Sprite] = field(init=False)
    width: int = field(init=False)

    def __post_init__(self) -> None:
        size = self.size
        self.stand_ins = stand_ins(self.meld, self.tiles)
        self.initials = [sprites.badge(initial(name_of(self.names, seat)), palette.INK,
                                       palette.CHIP, PLACER_SIZE)
                         for seat in self.meld.placers] if self.names else []
        natural = sprites.strip(size)
        self.xs, x = [], 0
        for i in range(len(self.meld.pieces)):
            self.xs.append(x)
            badge = self.stand_ins.get(i)
            wide = max(natural, badge.width + 6) if badge else natural
            if self.initials and i < len(self.meld.pieces) - 1:
                wide = max(wide, self.initials[i].width + 2)
            x += wide
        last = self.xs[-1] + size.width if self.xs else 0
        self.width = max(last, self.chip.width)

    @property
    def size(self) -> PieceSize:
        return sprites.TILE_SMALL if self.tiles else sprites.CARD_SMALL

    @property
    def chip(self) -> sprites.Sprite:
        """The meld's number; on a staged table (Tile Rummy) a changed meld says so in gold
        and an invalid one in red, in words as well as colour."""
        number = str(self.meld.number)
        if self.meld.kind == "invalid":
            return sprites.badge(f"{number} invalid", palette.BADGE_TEXT, palette.RED,
                                 MELD_NUMBER_SIZE)
        if self.meld.changed:
            return sprites.badge(f"{number} changed", palette.INK, palette.GOLD,
                                 MELD_NUMBER_SIZE)
        return sprites.badge(number, palette.INK, palette.CHIP, MELD_NUMBER_SIZE)

    @property
    def height(self) -> int:
        under = max((b.height for b in self.initials), default=-4) + 4
        return self.chip.height + 4 + self.size.height + under

    def draw(self, picture: Image.Image, xy: tuple[int, int], style: Style) -> None:
        x, y = xy
        paste(picture, self.chip, (x, y))
        y += self.chip.height + 4
        xs = [x + dx for dx in self.xs]
        draw_run(picture, self.meld.pieces, xs, y, self.size, style)
        paste_stand_ins(picture, self.stand_ins, xs, y, self.size)
        for left, badge in zip(xs, self.initials, strict=False):  # none, or one per piece
            paste(picture, badge, (left, y + self.size.height + 4))


PLACER_SIZE = 16
"""Text size of the placers' initials under meld pieces."""


def initial(name: str) -> str:
    """A name's first letter, upper case, for the placer badges (``?`` for an empty name)."""
    stripped = name.strip()
    return stripped[:1].upper() if stripped else "?"


@dataclass(slots=True)
class Melds:
    """Every meld, numbered, wrapped into rows.

    Where melds are grouped by owner (Remi), each owner's melds wrap beside
    the owner's name, one group under the other.
    """

    view: TableView
    names: Sequence[str]
    style: Style
    placed: list[tuple[MeldLayout | str, int, int]] = field(init=False)
    """What goes where: a meld or an owner's name, and its position below the caption."""
    height: int = field(init=False)

    def __post_init__(self) -> None:
        melds = [MeldLayout(meld, self.view.tiles, self.names) for meld in self.view.melds]
        groups: list[tuple[str | None, list[MeldLayout]]] = [(None, melds)]
        if self.view.melds_by_owner:
            owners = sorted({m.meld.owner for m in melds if m.meld.owner is not None})
            groups = [(name_of(self.names, owner), [m for m in melds if m.meld.owner == owner])
                      for owner in owners]
            groups.append((None, [m for m in melds if m.meld.owner is None]))
        self.placed = []
        y = cap_height(Typeface.BOLD, CAPTION_SIZE) + SPACING + 4
        for owner, members in groups:
            if not members:
                continue
            left = MARGIN
            if owner is not None:
                chip = members[0].chip.height + 4
                self.placed.append((owner, MARGIN, y + chip + SPACING))
                left += OWNER_COLUMN
            y = self._flow(members, left, y) + MELD_GAP[1]
        self.height = y - MELD_GAP[1]

    def _flow(self, melds: list[MeldLayout], left: int, top: int) -> int:
        """Place ``melds`` in rows from ``left`` to the right margin; return the bottom."""
        x, y, row_height = left, top, 0
        for meld in melds:
            if x > left and x + meld.width > WIDTH - MARGIN:
                x, y, row_height = left, y + row_height + MELD_GAP[1], 0
            self.placed.append((meld, x, y))
            x += meld.width + MELD_GAP[0]
            row_height = max(row_height, meld.height)
        return y + row_height

    def draw(self, picture: Image.Image, top: int) -> None:
        draw_text(picture, fitted(f"Melds · {len(self.view.melds)}", Typeface.BOLD, CAPTION_SIZE,
                                  SPAN), (MARGIN, top), palette.FELT_TEXT)
        for item, x, y in self.placed:
            if isinstance(item, str):
                name = fitted(item, Typeface.BOLD, CAPTION_SIZE, OWNER_COLUMN - 16)
                draw_text(picture, name, (x, top + y), palette.GOLD)
            else:
                item.draw(picture, (x, top + y), self.style)
