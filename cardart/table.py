"""The public table: piles, the players panel, the discard pile and the numbered melds.

Top to bottom: a heading (variant, hand number, who is to move) and the status
line; the piles (stock or pool with its count, the top discard, Indian Rummy's
wild joker) beside the players panel; Remi's spread discard pile with its top
three cards marked 1 (top), 2, 3; then every meld with its number (NOT-11),
wrapped into rows, jokers badged with the card they stand for (NOT-8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image

from bot.engine.cards import Piece
from bot.engine.views import MeldView, PlayerPanel, SeatState, TableView

from . import palette, shapes, sprites
from .encode import png_bytes
from .fonts import Typeface, draw_text, fitted, text
from .layout import (
    MARGIN,
    SPACING,
    SPAN,
    WIDTH,
    Block,
    Line,
    balanced_rows,
    draw_run,
    name_of,
    stack,
    step_to_fit,
    variant_title,
)
from .palette import RGB, Style
from .raster import fill, paste
from .sprites import PieceSize

SECTION_GAP = 22
CAPTION_SIZE = 26
PANEL_SIZE = 30
MELD_NUMBER_SIZE = 26
OWNER_COLUMN = 200
"""Width of the owners' names beside their melds (Remi)."""
MELD_GAP = (28, 18)
"""Space between melds: across, and between rows."""

_GROUPED_BY_OWNER = {"remi"}
"""Variants whose table combinations are shown grouped by owner (REM-7)."""
_INACTIVE = {SeatState.DEAD, SeatState.DROPPED, SeatState.OUT, SeatState.ELIMINATED}


def render_table(view: TableView, names: Sequence[str], *, style: Style = "four") -> bytes:
    """Draw the table as PNG bytes; ``names[seat]`` is the name shown for each seat."""
    title = [variant_title(view.variant), f"hand {view.hand_number}"]
    mover = next((p.seat for p in view.players if p.to_move), view.to_move)
    if mover is not None:
        title.append(f"{name_of(names, mover)} to move")
    blocks: list[Block] = [Line(" · ".join(title), face=Typeface.BOLD)]
    if view.status:
        blocks.append(Line(view.status, size=CAPTION_SIZE, colour=palette.FELT_MUTED))
    blocks.append(_TopBlock(_piles(view, style), _Panel(view, names, mover)))
    if view.discard_marked:
        blocks.append(_SpreadPile(view.discard, view.discard_marked, view.tiles, style))
    if view.melds:
        blocks.append(_Melds(view, names, style))
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
    def width(self) -> int:
        return max(self.sprite.width, text(self.caption, Typeface.BOLD, CAPTION_SIZE).width)

    @property
    def height(self) -> int:
        return self.sprite.height + SPACING + text("H", Typeface.BOLD, CAPTION_SIZE).cap

    def draw(self, picture: Image.Image, xy: tuple[int, int]) -> None:
        x, y = xy
        left = x + (self.width - self.sprite.width) // 2
        paste(picture, self.sprite, (left, y))
        if self.count is not None:
            chip = sprites.badge(str(self.count), palette.INK, palette.CHIP, PANEL_SIZE)
            paste(picture, chip, (left + (self.sprite.width - chip.width) // 2,
                                  y + (self.sprite.height - chip.height) // 2))
        caption = text(self.caption, Typeface.BOLD, CAPTION_SIZE)
        draw_text(picture, caption, (x + (self.width - caption.width) // 2,
                                     y + self.sprite.height + SPACING), self.caption_ink)


def _piles(view: TableView, style: Style) -> list[_Pile]:
    size = sprites.TILE_LARGE if view.tiles else sprites.CARD_SMALL
    piles = []
    if view.stock is not None:
        back = sprites.tile_back(size) if view.tiles else sprites.card_back(size)
        piles.append(_Pile(back, view.stock_label, count=view.stock))
    if view.discard and not view.discard_marked:
        piles.append(_Pile(sprites.piece_sprite(view.discard[-1], size, style), "discard"))
    if view.wild is not None:
        piles.append(_Pile(sprites.piece_sprite(view.wild, size, style), "WILD JOKER",
                           palette.GOLD))
    return piles


# ---------------------------------------------------------------------------
# Players panel
# ---------------------------------------------------------------------------

PANEL_ROW = 50
PANEL_HEADER = 30
NOTE_SIZE = 24
NAME_ROOM = 260
"""The narrowest name column beside the piles; with less, the panel goes under them."""
_COLUMNS = (("cards", 90), ("score", 120), ("state", 260))
"""Right-hand columns of the panel and their widths; the name takes the rest."""


@dataclass(frozen=True, slots=True)
class _Panel:
    view: TableView
    names: Sequence[str]
    mover: int | None

    @property
    def height(self) -> int:
        return PANEL_HEADER + len(self.view.players) * PANEL_ROW

    def draw(self, picture: Image.Image, xy: tuple[int, int], width: int) -> None:
        x, y = xy
        starts = self._column_starts(x, width)
        headers = ("player", "tiles" if self.view.tiles else "cards", "score", "state")
        for start, header in zip(starts, headers, strict=True):
            draw_text(picture, text(header, Typeface.REGULAR, 22), (start, y), palette.FELT_MUTED)
        for row, player in enumerate(self.view.players):
            self._row(picture, player, (x, y + PANEL_HEADER + row * PANEL_ROW), width, starts)

    @staticmethod
    def _column_starts(x: int, width: int) -> list[int]:
        starts, right = [], x + width
        for _, column in reversed(_COLUMNS):
            right -= column
            starts.insert(0, right)
        return [x + 40, *starts]

    def _row(self, picture: Image.Image, player: PlayerPanel, xy: tuple[int, int], width: int,
             starts: list[int]) -> None:
        x, y = xy
        moving = player.seat == self.mover
        bar = palette.GOLD if moving else palette.FELT_DARK
        ink = palette.INK if moving else palette.FELT_TEXT
        fill(picture, shapes.box_stamp(width, PANEL_ROW - 6, 10), bar, (x, y))
        line = y + (PANEL_ROW - 6 - text("H", Typeface.BOLD, PANEL_SIZE).cap) // 2
        if moving:
            arrow = shapes.pointer(22)
            fill(picture, arrow, palette.INK, (x + 10, y + (PANEL_ROW - 6 - arrow.height) // 2))
        name_ink = palette.FELT_MUTED if player.state in _INACTIVE and not moving else ink
        name_room = starts[1] - starts[0] - 12
        if player.dealer:
            dealer = sprites.badge("D", palette.INK, palette.CHIP)
            name_room -= dealer.width + 8
        name = fitted(name_of(self.names, player.seat), Typeface.BOLD, PANEL_SIZE, name_room)
        draw_text(picture, name, (starts[0], line), name_ink)
        if player.dealer:
            paste(picture, dealer, (starts[0] + name.width + 8,
                                    y + (PANEL_ROW - 6 - dealer.height) // 2))
        cells = (str(player.pieces_left), player.score, player.state.value)
        runs = [fitted(content, Typeface.BOLD, PANEL_SIZE, room - 8)
                for content, (_, room) in zip(cells, _COLUMNS, strict=True)]
        for start, run in zip(starts[1:], runs, strict=True):
            draw_text(picture, run, (start, line), ink)
        if player.note:  # after the state, smaller, in the room left
            left = starts[-1] + runs[-1].width + 10
            note = fitted(player.note, Typeface.REGULAR, NOTE_SIZE, x + width - 10 - left)
            draw_text(picture, note, (left, line + runs[-1].cap - note.cap), ink)


@dataclass(frozen=True, slots=True)
class _TopBlock:
    """The piles, with the players panel beside them or, if that leaves it too narrow, below."""

    piles: list[_Pile]
    panel: _Panel

    @property
    def _piles_width(self) -> int:
        return sum(pile.width + SECTION_GAP for pile in self.piles) + (
            SECTION_GAP if self.piles else 0)

    @property
    def _beside(self) -> bool:
        fixed = 40 + sum(width for _, width in _COLUMNS)
        return SPAN - self._piles_width >= fixed + NAME_ROOM

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


# ---------------------------------------------------------------------------
# Remi's spread discard pile
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _SpreadPile:
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
        return (text("H", Typeface.BOLD, CAPTION_SIZE).cap + SPACING
                + max(len(self.rows), 1) * (self._row_height + SPACING))

    def draw(self, picture: Image.Image, top: int) -> None:
        count = len(self.pile)
        caption = f"Discard pile · {count} {'tile' if self.tiles else 'card'}"
        caption += ("s" if count != 1 else "") + (" · 1 = top" if count else " · empty")
        draw_text(picture, fitted(caption, Typeface.BOLD, CAPTION_SIZE, SPAN), (MARGIN, top),
                  palette.FELT_TEXT)
        y = top + text("H", Typeface.BOLD, CAPTION_SIZE).cap + SPACING
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


# ---------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Meld:
    """One meld laid out: its number chip above its overlapping pieces."""

    meld: MeldView
    tiles: bool
    xs: list[int] = field(init=False)
    stand_ins: dict[int, sprites.Sprite] = field(init=False)
    width: int = field(init=False)

    def __post_init__(self) -> None:
        size = self.size
        self.stand_ins = {
            i: sprites.badge("=" + face.label(self.tiles), palette.BADGE_TEXT,
                             palette.JOKER_PURPLE, sprites.BADGE_SIZE - 2)
            for i, face in self.meld.jokers}
        natural = sprites.strip(size)
        self.xs, x = [], 0
        for i in range(len(self.meld.pieces)):
            self.xs.append(x)
            badge = self.stand_ins.get(i)
            x += max(natural, badge.width + 6) if badge else natural
        last = self.xs[-1] + size.width if self.xs else 0
        self.width = max(last, self.chip.width)

    @property
    def size(self) -> PieceSize:
        return sprites.TILE_SMALL if self.tiles else sprites.CARD_SMALL

    @property
    def chip(self) -> sprites.Sprite:
        return sprites.badge(str(self.meld.number), palette.INK, palette.CHIP, MELD_NUMBER_SIZE)

    @property
    def height(self) -> int:
        return self.chip.height + 4 + self.size.height

    def draw(self, picture: Image.Image, xy: tuple[int, int], style: Style) -> None:
        x, y = xy
        paste(picture, self.chip, (x, y))
        y += self.chip.height + 4
        draw_run(picture, self.meld.pieces, [x + dx for dx in self.xs], y, self.size, style)
        for i, badge in self.stand_ins.items():
            paste(picture, badge, (x + self.xs[i] + 3,
                                   y + self.size.height - badge.height - 5))


@dataclass(slots=True)
class _Melds:
    """Every meld, numbered, wrapped into rows.

    Where melds are grouped by owner (Remi), each owner's melds wrap beside
    the owner's name, one group under the other.
    """

    view: TableView
    names: Sequence[str]
    style: Style
    placed: list[tuple[_Meld | str, int, int]] = field(init=False)
    """What goes where: a meld or an owner's name, and its position below the caption."""
    height: int = field(init=False)

    def __post_init__(self) -> None:
        melds = [_Meld(meld, self.view.tiles) for meld in self.view.melds]
        groups: list[tuple[str | None, list[_Meld]]] = [(None, melds)]
        if self.view.variant.lower() in _GROUPED_BY_OWNER:
            owners = sorted({m.meld.owner for m in melds if m.meld.owner is not None})
            groups = [(name_of(self.names, owner), [m for m in melds if m.meld.owner == owner])
                      for owner in owners]
            groups.append((None, [m for m in melds if m.meld.owner is None]))
        self.placed = []
        y = text("H", Typeface.BOLD, CAPTION_SIZE).cap + SPACING + 4
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

    def _flow(self, melds: list[_Meld], left: int, top: int) -> int:
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
        draw_text(picture, text(f"Melds · {len(self.view.melds)}", Typeface.BOLD, CAPTION_SIZE),
                  (MARGIN, top), palette.FELT_TEXT)
        for item, x, y in self.placed:
            if isinstance(item, str):
                name = fitted(item, Typeface.BOLD, CAPTION_SIZE, OWNER_COLUMN - 16)
                draw_text(picture, name, (x, top + y), palette.GOLD)
            else:
                item.draw(picture, (x, top + y), self.style)
