"""The players panel of the table: name, pieces left, score, state, dealer, whose turn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.views import PlayerPanel, SeatState, TableView

from . import palette, shapes, sprites
from .fonts import Typeface, cap_height, draw_text, fitted, text
from .layout import SMALL_SIZE, TEXT_SIZE, name_of, right_columns
from .raster import fill, paste
from .words import _

INACTIVE = {SeatState.DEAD, SeatState.DROPPED, SeatState.OUT, SeatState.ELIMINATED}
"""States whose players are shown muted: out of this hand or the game."""
PANEL_ROW = 50
PANEL_HEADER = 30
NAME_ROOM = 260
"""The narrowest useful name column."""
COLUMNS = (("cards", 90), ("score", 120), ("state", 260))
"""Right-hand columns of the panel and their widths; the name takes the rest."""


@dataclass(frozen=True, slots=True)
class PlayersPanel:
    """One row per seat; the player to move in gold with a pointer, inactive players muted."""

    view: TableView
    names: Sequence[str]
    mover: int | None

    @property
    def height(self) -> int:
        return PANEL_HEADER + len(self.view.players) * PANEL_ROW

    @staticmethod
    def fits(width: int) -> bool:
        """Whether ``width`` px leave the names enough room."""
        return width >= 40 + sum(column for _head, column in COLUMNS) + NAME_ROOM

    def draw(self, picture: Image.Image, xy: tuple[int, int], width: int) -> None:
        x, y = xy
        starts = self._column_starts(x, width, self._state_width(width))
        headers = (_("player"), _("tiles") if self.view.tiles else _("cards"), _("score"),
                   _("state"))
        rooms = (starts[1] - starts[0] - 12, *(room - 8 for _head, room in COLUMNS))
        for start, header, room in zip(starts, headers, rooms, strict=True):
            draw_text(picture, fitted(header, Typeface.REGULAR, SMALL_SIZE - 2, room), (start, y),
                      palette.FELT_MUTED)
        for row, player in enumerate(self.view.players):
            self._row(picture, player, (x, y + PANEL_HEADER + row * PANEL_ROW), width, starts)

    def _state_width(self, width: int) -> int:
        """The state column: wide enough for each state and its note (``won`` and ``Dead
        (no play)``, ``playing`` and ``no initial meld yet``) where the names can spare
        the room, never narrower than its usual width."""
        usual = COLUMNS[-1][1]
        needed = max((text(p.state.word, Typeface.BOLD, TEXT_SIZE).width + 10
                      + (text(p.note, Typeface.REGULAR, SMALL_SIZE).width if p.note else 0)
                      + 18 for p in self.view.players), default=usual)
        spare = width - 40 - NAME_ROOM - sum(column for _head, column in COLUMNS)
        return usual + max(0, min(needed - usual, spare))

    @staticmethod
    def _column_starts(x: int, width: int, state: int) -> list[int]:
        """Where the name (after the pointer) and the right-hand columns begin."""
        widths = [column for _head, column in COLUMNS[:-1]] + [state]
        return [x + 40, *right_columns(x + width, widths)]

    def _row(self, picture: Image.Image, player: PlayerPanel, xy: tuple[int, int], width: int,
             starts: list[int]) -> None:
        x, y = xy
        moving = player.seat == self.mover
        bar = palette.GOLD if moving else palette.FELT_DARK
        ink = palette.INK if moving else palette.FELT_TEXT
        fill(picture, shapes.box_stamp(width, PANEL_ROW - 6, 10), bar, (x, y))
        line = y + (PANEL_ROW - 6 - cap_height(Typeface.BOLD, TEXT_SIZE)) // 2
        if moving:
            arrow = shapes.pointer(22)
            fill(picture, arrow, palette.INK, (x + 10, y + (PANEL_ROW - 6 - arrow.height) // 2))
        name_ink = palette.FELT_MUTED if player.state in INACTIVE and not moving else ink
        name_room = starts[1] - starts[0] - 12
        if player.dealer:
            dealer = sprites.badge("D", palette.INK, palette.CHIP)
            name_room -= dealer.width + 8
        name = fitted(name_of(self.names, player.seat), Typeface.BOLD, TEXT_SIZE, name_room)
        draw_text(picture, name, (starts[0], line), name_ink)
        if player.dealer:
            paste(picture, dealer, (starts[0] + name.width + 8,
                                    y + (PANEL_ROW - 6 - dealer.height) // 2))
        cells = (str(player.pieces_left), player.score, player.state.word)
        rooms = [b - a for a, b in zip(starts[1:], [*starts[2:], x + width], strict=True)]
        runs = [fitted(content, Typeface.BOLD, TEXT_SIZE, room - 8)
                for content, room in zip(cells, rooms, strict=True)]
        for start, run in zip(starts[1:], runs, strict=True):
            draw_text(picture, run, (start, line), ink)
        if player.note:  # after the state, smaller, in the room left
            left = starts[-1] + runs[-1].width + 10
            note = fitted(player.note, Typeface.REGULAR, SMALL_SIZE, x + width - 10 - left)
            draw_text(picture, note, (left, line + runs[-1].cap - note.cap), ink)
