"""A replay's picture: the table with every hand open, and what the step changed outlined.

Top to bottom: the heading (variant, and where in the game the step is), the move
in the record's notation in gold, the piles (stock with its count, the top
discard, Indian Rummy's wild joker), Remi's spread discard pile, the numbered
melds, then one band per seat: name, pieces held, score and state, and the hand
itself. Pieces the step moved are outlined in gold: what came into a hand, what
was laid in a meld, the card put on the discard pile. In an overlapping run
only the visible part of a piece is outlined, so the outline never hides the
next piece's index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.cards import Piece
from bot.engine.replay import OpenHand, OpenTableView
from bot.engine.views import PlayerPanel

from . import palette, shapes, sprites
from .cache import drawn_once
from .encode import png_bytes
from .fonts import Typeface, cap_height, draw_text, fitted, text
from .layout import (
    CAPTION_SIZE,
    MARGIN,
    SECTION_GAP,
    SMALL_SIZE,
    SPACING,
    SPAN,
    TEXT_SIZE,
    Block,
    Line,
    balanced_rows,
    draw_run,
    name_of,
    stack,
    step_to_fit,
)
from .melds import MeldLayout, Melds, SpreadPile
from .palette import Style
from .panel import INACTIVE
from .raster import Stamp, cut, fill, paste
from .sprites import PieceSize
from .words import _, _n, say

MARK = 5
"""Thickness of the gold outline round a piece the step moved."""
BAND_PAD = 12
"""Felt between a hand's band edge and what it holds."""


def render_open_table(view: OpenTableView, names: Sequence[str], *, style: Style = "four",
                      title: str | None = None) -> bytes:
    """Draw the open table as PNG bytes; ``names[seat]`` is the name shown for each seat."""
    table = view.table
    heading = [say(title or table.variant),
               say(view.heading) or f"{say(table.hand_label)} {table.hand_number}"]
    blocks: list[Block] = [Line(" · ".join(heading), face=Typeface.BOLD)]
    if view.caption:
        blocks.append(Line(view.caption, size=TEXT_SIZE, colour=palette.GOLD,
                           face=Typeface.BOLD))
    if table.status:
        blocks.append(Line(table.status, size=CAPTION_SIZE, colour=palette.FELT_MUTED))
    piles = _piles(view, style)
    if piles:
        blocks.append(_Piles(piles))
    if table.discard_marked:
        blocks.append(SpreadPile(table.discard, table.discard_marked, table.tiles, style))
    if table.melds:
        blocks.append(_MarkedMelds(Melds(table, names, style), view))
    panels = {p.seat: p for p in table.players}
    blocks += [_HandBand(hand, panels.get(hand.seat), name_of(names, hand.seat), table.tiles,
                         style) for hand in view.hands]
    return png_bytes(stack(blocks, SECTION_GAP))


# ---------------------------------------------------------------------------
# Outlines
# ---------------------------------------------------------------------------


@drawn_once(maxsize=256)
def _ring(width: int, height: int, radius: int) -> Stamp:
    outer = radius + MARK
    return cut(shapes.rounded_ring(width + 2 * MARK, height + 2 * MARK, outer, MARK), outer)


def outline(picture: Image.Image, xy: tuple[int, int], width: int, size: PieceSize) -> None:
    """Outline ``width`` px of a piece of ``size`` whose top-left corner is at ``xy``."""
    x, y = xy
    fill(picture, _ring(width, size.height, size.radius), palette.GOLD, (x - MARK, y - MARK))


def outline_run(picture: Image.Image, xs: Sequence[int], y: int, size: PieceSize,
                marked: Sequence[int]) -> None:
    """Outline the pieces at positions ``marked`` of a run drawn at ``xs``: each stretch of
    neighbours in one outline (a new meld is outlined whole), up to where the next piece
    covers the last of them."""
    chosen = sorted(set(marked))
    while chosen:
        first = last = chosen.pop(0)
        while chosen and chosen[0] == last + 1:
            last = chosen.pop(0)
        visible = xs[last + 1] - xs[last] if last + 1 < len(xs) else size.width
        width = xs[last] - xs[first] + min(size.width, max(visible, 1))
        outline(picture, (xs[first], y), width, size)


# ---------------------------------------------------------------------------
# Piles
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pile:
    sprite: sprites.Sprite
    size: PieceSize
    caption: str
    count: int | None = None
    marked: bool = False
    ink: palette.RGB = palette.FELT_TEXT


def _piles(view: OpenTableView, style: Style) -> list[_Pile]:
    table = view.table
    size = sprites.TILE_LARGE if table.tiles else sprites.CARD_SMALL
    piles = []
    if table.stock is not None:
        back = sprites.tile_back(size) if table.tiles else sprites.card_back(size)
        piles.append(_Pile(back, size, table.stock_label, table.stock))
    if table.discard and not table.discard_marked:
        piles.append(_Pile(sprites.piece_sprite(table.discard[-1], size, style), size,
                           table.discard_label, marked=view.discard_marked))
    if table.wild is not None:
        piles.append(_Pile(sprites.piece_sprite(table.wild, size, style), size, _("WILD JOKER"),
                           ink=palette.GOLD))
    return piles


@dataclass(frozen=True, slots=True)
class _Piles:
    """The piles side by side, each captioned under it, the stock with its count on it."""

    piles: list[_Pile]

    @staticmethod
    def _width(pile: _Pile) -> int:
        return max(pile.sprite.width, text(pile.caption, Typeface.BOLD, CAPTION_SIZE).width)

    @property
    def height(self) -> int:
        tallest = max(pile.sprite.height for pile in self.piles)
        return MARK + tallest + SPACING + cap_height(Typeface.BOLD, CAPTION_SIZE)

    def draw(self, picture: Image.Image, top: int) -> None:
        x, y = MARGIN + MARK, top + MARK
        for pile in self.piles:
            width = self._width(pile)
            left = x + (width - pile.sprite.width) // 2
            paste(picture, pile.sprite, (left, y))
            if pile.marked:
                outline(picture, (left, y), pile.size.width, pile.size)
            if pile.count is not None:
                chip = sprites.badge(str(pile.count), palette.INK, palette.CHIP, TEXT_SIZE)
                paste(picture, chip, (left + (pile.sprite.width - chip.width) // 2,
                                      y + (pile.sprite.height - chip.height) // 2))
            caption = text(pile.caption, Typeface.BOLD, CAPTION_SIZE)
            draw_text(picture, caption, (x + (width - caption.width) // 2,
                                         y + pile.sprite.height + SPACING), pile.ink)
            x += width + SECTION_GAP + MARK


# ---------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _MarkedMelds:
    """The table's melds as the table picture draws them, with the step's pieces outlined."""

    melds: Melds
    view: OpenTableView

    @property
    def height(self) -> int:
        return self.melds.height

    def draw(self, picture: Image.Image, top: int) -> None:
        self.melds.draw(picture, top)
        for item, x, y in self.melds.placed:
            if not isinstance(item, MeldLayout):
                continue
            marked = self.view.marks_in(item.meld.number)
            if marked:
                xs = [x + dx for dx in item.xs]
                outline_run(picture, xs, top + y + item.chip.height + 4, item.size, marked)


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _HandBand:
    """One seat: a header line (name, count, score, state, what it gave up), then its hand."""

    hand: OpenHand
    panel: PlayerPanel | None
    name: str
    tiles: bool
    style: Style

    @property
    def size(self) -> PieceSize:
        return sprites.TILE_SMALL if self.tiles else sprites.CARD_SMALL

    @property
    def _inner(self) -> int:
        return SPAN - 2 * BAND_PAD - 2 * MARK

    @property
    def rows(self) -> list[int]:
        per_row = 1 + (self._inner - self.size.width) // sprites.strip(self.size)
        return balanced_rows(len(self.hand.pieces), per_row)

    @property
    def _header(self) -> int:
        return cap_height(Typeface.BOLD, TEXT_SIZE)

    @property
    def height(self) -> int:
        rows = max(len(self.rows), 1)
        pieces = rows * (self.size.height + 2 * MARK) + (rows - 1) * SPACING
        return 2 * BAND_PAD + self._header + SPACING + pieces

    def draw(self, picture: Image.Image, top: int) -> None:
        panel = self.panel
        moving = panel is not None and panel.to_move
        fill(picture, shapes.box_stamp(SPAN, self.height, 14),
             palette.WINNER_BAND if moving else palette.FELT_DARK, (MARGIN, top))
        x, y = MARGIN + BAND_PAD, top + BAND_PAD
        muted = panel is not None and panel.state in INACTIVE
        ink = palette.GOLD if moving else palette.FELT_MUTED if muted else palette.FELT_TEXT
        prefix = "▶ " if moving else ""
        name = fitted(prefix + self.name, Typeface.BOLD, TEXT_SIZE, self._inner // 2)
        draw_text(picture, name, (x, y), ink)
        details = fitted(self._details(), Typeface.REGULAR, SMALL_SIZE,
                         SPAN - 2 * BAND_PAD - name.width - 20)
        draw_text(picture, details, (x + name.width + 20, y + name.cap - details.cap),
                  palette.FELT_MUTED)
        y += self._header + SPACING + MARK
        x += MARK
        if not self.hand.pieces:
            empty = text(_("nothing left on the rack") if self.tiles else _("nothing left in hand"),
                         Typeface.REGULAR, SMALL_SIZE)
            draw_text(picture, empty, (x, y + (self.size.height - empty.cap) // 2),
                      palette.FELT_MUTED)
            return
        self._draw_pieces(picture, x, y)

    def _draw_pieces(self, picture: Image.Image, left: int, y: int) -> None:
        size, rows = self.size, self.rows
        step = step_to_fit(max(rows), size.width, self._inner, size.width + SPACING)
        start = 0
        gained = set(self.hand.gained)
        for count in rows:
            pieces: tuple[Piece, ...] = self.hand.pieces[start:start + count]
            xs = [left + i * step for i in range(count)]
            draw_run(picture, pieces, xs, y, size, self.style)
            outline_run(picture, xs, y, size, [i - start for i in range(start, start + count)
                                               if i in gained])
            start += count
            y += size.height + 2 * MARK + SPACING

    def _details(self) -> str:
        """``8 cards · score 35 · dealer · dead · +KD −7H`` (what the panel and the step say)."""
        count = len(self.hand.pieces)
        parts = [_n("{n} tile", "{n} tiles", count) if self.tiles
                 else _n("{n} card", "{n} cards", count)]
        panel = self.panel
        if panel is not None:
            parts.append(_("score {score}", score=panel.score))
            if panel.dealer:
                parts.append(_("dealer"))
            if panel.state.value != "playing":
                parts.append(say(panel.state.word))
            if panel.note:
                parts.append(say(panel.note))
        if self.hand.changes():
            parts.append(self.hand.changes())
        return " · ".join(parts)

