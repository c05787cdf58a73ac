"""The end of a game: placings, points and totals, what each player held (and the card they
finished with, in a slot of its own), notes, the seed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.cards import Piece
from bot.engine.i18n import tr
from bot.engine.views import MeldView, Placing, ResultView

from . import palette, shapes, sprites
from .encode import png_bytes
from .fonts import Text, Typeface, cap_height, draw_text, fitted, text
from .layout import (
    MARGIN,
    SMALL_SIZE,
    SPACING,
    TEXT_SIZE,
    WIDTH,
    Block,
    Line,
    draw_run,
    name_of,
    right_columns,
    stack,
    step_to_fit,
)
from .melds import paste_stand_ins, stand_ins
from .palette import RGB, Style
from .raster import fill
from .words import _, say

ROW_GAP = 14
MEDAL = 44
NAME_X = MARGIN + MEDAL + 24
COLUMNS = ((tr("points"), 150), (tr("total"), 150))
"""The right-hand columns and their widths."""
MEDALS: dict[int, RGB] = {1: palette.GOLD, 2: palette.SILVER, 3: palette.BRONZE}
SLOT_PAD = 5
"""The felt margin around a card in its own slot (the finish card)."""
FINISH_CAPTION = tr("finish")
GROUP_GAP = 18
"""Felt between two groups of a grouped hand."""
DEADWOOD_GAP = 44
"""Felt between the last group and the deadwood, which stands apart."""
GROUP_CAPTION = SMALL_SIZE - 2
FINISH_CAPTION_ROOM = 200
"""The widest the finish slot's caption may be."""


def render_results(view: ResultView, names: Sequence[str], *, style: Style = "four",
                   title: str | None = None) -> bytes:
    """Draw the results as PNG bytes; ``names[seat]`` is the name shown for each seat."""
    subtitle = [say(title or view.variant)]
    if view.match_over:
        subtitle.append(_("match over"))
    if view.seed is not None:
        subtitle.append(_("seed {seed}", seed=str(view.seed)))
    blocks: list[Block] = [Line(say(view.title), face=Typeface.BOLD),
                           Line(" · ".join(subtitle), size=SMALL_SIZE, colour=palette.FELT_MUTED),
                           _ColumnHeads()]
    size = sprites.TILE_SMALL if view.tiles else sprites.CARD_SMALL
    blocks += [_PlacingRow(placing, name_of(names, placing.seat), size, style,
                           view.group_title, view.tiles)
               for placing in sorted(view.placings, key=lambda p: (p.place, p.seat))]
    return png_bytes(stack(blocks, ROW_GAP))


def _column_starts() -> list[int]:
    return right_columns(WIDTH - MARGIN, [width for _head, width in COLUMNS])


@dataclass(frozen=True, slots=True)
class _ColumnHeads:
    @property
    def height(self) -> int:
        return cap_height(Typeface.REGULAR, SMALL_SIZE)

    def draw(self, picture: Image.Image, top: int) -> None:
        for start, (head, width) in zip(_column_starts(), COLUMNS, strict=True):
            draw_text(picture, fitted(head, Typeface.REGULAR, SMALL_SIZE, width - 20),
                      (start + 16, top), palette.FELT_MUTED)


@dataclass(frozen=True, slots=True)
class _PlacingRow:
    """A band: medal, name, points and total on the first line; held pieces and note below."""

    placing: Placing
    name: str
    size: sprites.PieceSize
    style: Style
    group_title: Callable[[MeldView], str] = MeldView.title
    """What a group is called, in the variant's words (``ResultView.group_title``)."""
    tiles: bool = False

    @property
    def height(self) -> int:
        line = cap_height(Typeface.BOLD, TEXT_SIZE)
        small = cap_height(Typeface.REGULAR, SMALL_SIZE)
        height = 2 * SPACING + line + SPACING + 4
        if self.placing.grouped:
            height += self._grouped().height + SPACING
        elif self.placing.held or self.placing.finish is not None:
            height += self.size.height + SPACING
        elif self._says_nothing_left:
            height += small + SPACING
        return height + (small + SPACING if self._note else 0) + SPACING

    @property
    def _note(self) -> str:
        return " · ".join(say(n) for n in (self.placing.note, self.placing.grouping_note) if n)

    def _grouped(self) -> _GroupedHand:
        """The grouped hand, the finish card last in its own captioned slot."""
        return _GroupedHand.of(self.placing, self.group_title, self.tiles, self.size,
                               WIDTH - MARGIN - 16 - NAME_X)

    @property
    def _says_nothing_left(self) -> bool:
        """An empty hand is news for a winner or a plain row; a loser's note says why instead
        (e.g. "eliminated in deal 3": a player not dealt in held nothing)."""
        return not self.placing.held and (self.placing.winner or not self.placing.note)

    def draw(self, picture: Image.Image, top: int) -> None:
        winner = self.placing.winner
        band = palette.WINNER_BAND if winner else palette.FELT_DARK
        fill(picture, shapes.box_stamp(WIDTH - 2 * MARGIN, self.height, 14), band,
             (MARGIN, top))
        y = top + 2 * SPACING
        medal = MEDALS.get(self.placing.place, palette.CHIP)
        fill(picture, shapes.disc(MEDAL), medal, (MARGIN + 14, y - 8))
        number = text(str(self.placing.place), Typeface.BOLD, TEXT_SIZE)
        draw_text(picture, number, (MARGIN + 14 + (MEDAL - number.width) // 2,
                                    y - 8 + (MEDAL - number.cap) // 2), palette.INK)
        starts = _column_starts()
        name = fitted(self.name, Typeface.BOLD, TEXT_SIZE, starts[0] - NAME_X - 16)
        draw_text(picture, name, (NAME_X, y), palette.GOLD if winner else palette.FELT_TEXT)
        for start, value, (_head, width) in zip(starts, (self.placing.points, self.placing.total),
                                            COLUMNS, strict=True):
            run = fitted(value, Typeface.BOLD, TEXT_SIZE, width - 20)
            draw_text(picture, run, (start + 16, y), palette.FELT_TEXT)
        y += name.cap + SPACING + 4
        small = cap_height(Typeface.REGULAR, SMALL_SIZE)
        finish = self.placing.finish
        caption = fitted(FINISH_CAPTION, Typeface.REGULAR, SMALL_SIZE, FINISH_CAPTION_ROOM)
        slot = 3 * SPACING + caption.width + SPACING + SLOT_PAD + self.size.width
        right = WIDTH - MARGIN - 16 - (slot if finish is not None else 0)
        end = NAME_X
        grouped = self._grouped() if self.placing.grouped else None
        if grouped is not None:
            grouped.draw(picture, (NAME_X, y), self.style)
            finish = None  # drawn as the grouped hand's last slot
        elif self.placing.held:
            held = self.placing.held
            natural = sprites.strip(self.size)
            step = step_to_fit(len(held), self.size.width, right - NAME_X, natural)
            draw_run(picture, held, [NAME_X + i * step for i in range(len(held))], y, self.size,
                     self.style)
            end = NAME_X + (len(held) - 1) * step + self.size.width
        elif self._says_nothing_left or finish is not None:
            nothing = fitted(_("nothing left on the rack") if self.size.tile
                             else _("nothing left in hand"), Typeface.REGULAR, SMALL_SIZE,
                             right - NAME_X)
            middle = (self.size.height - nothing.cap) // 2 if finish is not None else 0
            draw_text(picture, nothing, (NAME_X, y + middle), palette.FELT_MUTED)
            end = NAME_X + nothing.width
        if finish is not None:
            self._finish_slot(picture, finish, caption, end + 3 * SPACING, y)
        if grouped is not None:
            y += grouped.height + SPACING
        elif self.placing.held or finish is not None:
            y += self.size.height + SPACING
        elif self._says_nothing_left:
            y += small + SPACING
        if self._note:
            note = fitted(self._note, Typeface.REGULAR, SMALL_SIZE, WIDTH - MARGIN - 16 - NAME_X)
            draw_text(picture, note, (NAME_X, y), palette.FELT_MUTED)

    def _finish_slot(self, picture: Image.Image, finish: Piece, caption: Text, x: int,
                     y: int) -> None:
        """The finish card in a felt slot of its own, captioned on its left, from ``x``."""
        draw_text(picture, caption, (x, y + (self.size.height - caption.cap) // 2),
                  palette.FELT_MUTED)
        x += caption.width + SPACING + SLOT_PAD
        fill(picture, shapes.box_stamp(self.size.width + 2 * SLOT_PAD,
                                       self.size.height + 2 * SLOT_PAD, 12),
             palette.FELT, (x - SLOT_PAD, y - SLOT_PAD))
        draw_run(picture, [finish], [x], y, self.size, self.style)


@dataclass(frozen=True, slots=True)
class _Segment:
    """One captioned stretch of a grouped hand: a group, or the deadwood."""

    pieces: tuple[Piece, ...]
    caption: str
    meld: MeldView | None = None
    """The group, for its joker badges; ``None`` for the deadwood and the finish card."""
    finish: bool = False

    @property
    def apart(self) -> bool:
        """Deadwood and the finish card stand apart from the groups."""
        return self.meld is None


@dataclass(frozen=True, slots=True)
class _GroupedHand:
    """A hand drawn as its groups side by side, captioned, and the deadwood apart (IND-23,
    IND-27). Rows wrap when the groups do not fit the width at a readable overlap."""

    rows: tuple[tuple[_Segment, ...], ...]
    steps: tuple[int, ...]
    """The overlap step of the pieces in each row."""
    tiles: bool
    size: sprites.PieceSize

    @classmethod
    def of(cls, placing: Placing, group_title: Callable[[MeldView], str], tiles: bool,
           size: sprites.PieceSize, span: int) -> _GroupedHand:
        segments = [_Segment(g.pieces, say(group_title(g)).lower(), g) for g in placing.groups]
        if placing.deadwood or not placing.groups:
            segments.append(_Segment(placing.deadwood,
                                     _("deadwood · {value}", value=placing.deadwood_value)))
        if placing.finish is not None:
            segments.append(_Segment((placing.finish,), FINISH_CAPTION, finish=True))
        natural = sprites.strip(size)
        rows: list[list[_Segment]] = []
        for segment in segments:
            if rows and _row_width(rows[-1] + [segment], natural, size) > span:
                rows.append([segment])
            elif rows:
                rows[-1].append(segment)
            else:
                rows.append([segment])
        steps = tuple(_fit_step(row, natural, size, span) for row in rows)
        return cls(tuple(tuple(row) for row in rows), steps, tiles, size)

    @property
    def _row_height(self) -> int:
        return cap_height(Typeface.REGULAR, GROUP_CAPTION) + SPACING + self.size.height

    @property
    def height(self) -> int:
        return len(self.rows) * self._row_height + (len(self.rows) - 1) * SPACING

    def draw(self, picture: Image.Image, xy: tuple[int, int], style: Style) -> None:
        left, y = xy
        caption_height = cap_height(Typeface.REGULAR, GROUP_CAPTION)
        for row, step in zip(self.rows, self.steps, strict=True):
            x = left
            for i, segment in enumerate(row):
                if i:
                    x += _gap(segment)
                width = _segment_width(len(segment.pieces), step, self.size)
                deadwood = segment.apart and not segment.finish
                ink = palette.FELT_TEXT if deadwood else palette.FELT_MUTED
                face = Typeface.BOLD if deadwood else Typeface.REGULAR
                room = width + (_gap(row[i + 1]) if i < len(row) - 1 else 200)
                draw_text(picture, fitted(segment.caption, face, GROUP_CAPTION, room), (x, y),
                          ink)
                xs = [x + k * step for k in range(len(segment.pieces))]
                top = y + caption_height + SPACING
                if segment.finish:
                    fill(picture, shapes.box_stamp(self.size.width + 2 * SLOT_PAD,
                                                   self.size.height + 2 * SLOT_PAD, 12),
                         palette.FELT, (x - SLOT_PAD, top - SLOT_PAD))
                draw_run(picture, segment.pieces, xs, top, self.size, style)
                if segment.meld is not None:
                    paste_stand_ins(picture, stand_ins(segment.meld, self.tiles), xs, top,
                                    self.size)
                x += width
            y += self._row_height + SPACING


def _segment_width(count: int, step: int, size: sprites.PieceSize) -> int:
    return (count - 1) * step + size.width if count else 0


def _gap(segment: _Segment) -> int:
    """The felt left of ``segment``: wide before the deadwood and the finish card."""
    return DEADWOOD_GAP if segment.apart else GROUP_GAP


def _gaps(row: list[_Segment]) -> int:
    return sum(_gap(s) for s in row[1:])


def _row_width(row: list[_Segment], step: int, size: sprites.PieceSize) -> int:
    return sum(_segment_width(len(s.pieces), step, size) for s in row) + _gaps(row)


def _fit_step(row: list[_Segment], natural: int, size: sprites.PieceSize, span: int) -> int:
    """The largest step up to ``natural`` at which ``row`` fits ``span``."""
    overlaps = sum(max(len(s.pieces) - 1, 0) for s in row)
    if not overlaps:
        return natural
    room = span - _gaps(row) - sum(size.width for s in row if s.pieces)
    return max(1, min(natural, room // overlaps))
