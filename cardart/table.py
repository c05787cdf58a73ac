"""The public table: piles, the players panel, the discard pile and the numbered melds.

Top to bottom: a heading (variant, hand number, who is to move) and the status
line; the piles (stock or pool with its count, the top discard, Indian Rummy's
wild joker) beside the players panel; Remi's spread discard pile with its top
three cards marked 1 (top), 2, 3; then every meld with its number (NOT-11),
wrapped into rows, jokers badged with the card they stand for (NOT-8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.views import TableView

from . import palette, sprites
from .encode import png_bytes
from .fonts import Text, Typeface, cap_height, draw_text, fitted, shortened, text
from .layout import (
    CAPTION_SIZE,
    HEADING_SIZE,
    MARGIN,
    SECTION_GAP,
    SPACING,
    SPAN,
    TEXT_SIZE,
    WIDTH,
    Block,
    Line,
    name_of,
    stack,
)
from .melds import Melds, SpreadPile
from .palette import RGB, Style
from .panel import PlayersPanel
from .raster import paste
from .words import _, say

PILE_CAPTION_ROOM = 200
"""The widest a pile's caption may be (the pile widens to hold it)."""
MOVER_ROOM = SPAN // 4
"""Room kept for the name of the player to move when the rest of the heading is long."""


def render_table(view: TableView, names: Sequence[str], *, style: Style = "four",
                 title: str | None = None) -> bytes:
    """Draw the table as PNG bytes; ``names[seat]`` is the name shown for each seat."""
    heading = [say(title or view.variant), f"{say(view.hand_label)} {view.hand_number}"]
    mover = next((p.seat for p in view.players if p.to_move), view.to_move)
    if mover is not None:
        # A long name is cut so that "to move" stays in the heading.
        rest = text(" · ".join([*heading, _("{player} to move", player="")]), Typeface.BOLD,
                    HEADING_SIZE).width
        name = shortened(name_of(names, mover), Typeface.BOLD, HEADING_SIZE,
                         max(SPAN - rest, MOVER_ROOM))
        heading.append(_("{player} to move", player=name))
    blocks: list[Block] = [Line(" · ".join(heading), face=Typeface.BOLD)]
    if view.status:
        blocks.append(Line(view.status, size=CAPTION_SIZE, colour=palette.FELT_MUTED))
    blocks.append(_TopBlock(_piles(view, style), PlayersPanel(view, names, mover)))
    if view.discard_marked:
        blocks.append(SpreadPile(view.discard, view.discard_marked, view.tiles, style))
    if view.melds:
        blocks.append(Melds(view, names, style))
    return png_bytes(stack(blocks, SECTION_GAP))


# ---------------------------------------------------------------------------
# Piles: stock or pool, top discard, wild joker
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pile:
    """One pile: a sprite, an optional count on it, a caption under it."""

    sprite: sprites.Sprite
    caption: str
    caption_ink: RGB = palette.FELT_TEXT
    count: int | None = None

    @property
    def _caption(self) -> Text:
        return fitted(self.caption, Typeface.BOLD, CAPTION_SIZE, PILE_CAPTION_ROOM)

    @property
    def width(self) -> int:
        return max(self.sprite.width, self._caption.width)

    @property
    def height(self) -> int:
        return self.sprite.height + SPACING + cap_height(Typeface.BOLD, CAPTION_SIZE)

    def draw(self, picture: Image.Image, xy: tuple[int, int]) -> None:
        x, y = xy
        left = x + (self.width - self.sprite.width) // 2
        paste(picture, self.sprite, (left, y))
        if self.count is not None:
            chip = sprites.badge(str(self.count), palette.INK, palette.CHIP, TEXT_SIZE)
            paste(picture, chip, (left + (self.sprite.width - chip.width) // 2,
                                  y + (self.sprite.height - chip.height) // 2))
        caption = self._caption
        draw_text(picture, caption, (x + (self.width - caption.width) // 2,
                                     y + self.sprite.height + SPACING), self.caption_ink)


def _piles(view: TableView, style: Style) -> list[_Pile]:
    size = sprites.TILE_LARGE if view.tiles else sprites.CARD_SMALL
    piles = []
    if view.stock is not None:
        back = sprites.tile_back(size) if view.tiles else sprites.card_back(size)
        piles.append(_Pile(back, view.stock_label, count=view.stock))
    if view.discard and not view.discard_marked:
        piles.append(_Pile(sprites.piece_sprite(view.discard[-1], size, style),
                           view.discard_label))
    if view.wild is not None:
        piles.append(_Pile(sprites.piece_sprite(view.wild, size, style), _("WILD JOKER"),
                           palette.GOLD))
    return piles


@dataclass(frozen=True, slots=True)
class _TopBlock:
    """The piles, with the players panel beside them or, if that leaves it too narrow, below."""

    piles: list[_Pile]
    panel: PlayersPanel

    @property
    def _piles_width(self) -> int:
        return sum(pile.width + SECTION_GAP for pile in self.piles) + (
            SECTION_GAP if self.piles else 0)

    @property
    def _beside(self) -> bool:
        return PlayersPanel.fits(SPAN - self._piles_width)

    @property
    def _piles_height(self) -> int:
        return max((pile.height for pile in self.piles), default=0)

    @property
    def height(self) -> int:
        if self._beside:
            return max(self.panel.height, self._piles_height)
        return self._piles_height + SECTION_GAP + self.panel.height

    def draw(self, picture: Image.Image, top: int) -> None:
        x = MARGIN
        for pile in self.piles:
            pile.draw(picture, (x, top))
            x += pile.width + SECTION_GAP
        if self._beside:
            left = MARGIN + self._piles_width
            self.panel.draw(picture, (left, top), WIDTH - MARGIN - left)
        else:
            self.panel.draw(picture, (MARGIN, top + self._piles_height + SECTION_GAP), SPAN)
