"""The score chart of a match: each player's running total after every hand.

Series differ in colour (Okabe and Ito's colour-blind palette), in marker shape
and in dash pattern, so they stay apart in greyscale and for every kind of
colour blindness. The legend lists players best first, with their final total.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.i18n import capitalized
from bot.engine.views import ScoreSeries

from . import palette, shapes
from .encode import png_bytes
from .fonts import Typeface, draw_text, fitted, text
from .layout import MARGIN, SMALL_SIZE, WIDTH, Block, Line, name_of, stack
from .palette import RGB
from .raster import fill, supersampled
from .words import _, _n, say

PLOT_HEIGHT = 560
LEGEND_WIDTH = 380
LEGEND_SIZE = 28
LINE_WIDTH = 4
MARKER = 18
MAX_X_LABELS = 12
INSET = (86, 24, 28, 56)
"""Space inside the paper around the plotting area: left, top, right, bottom."""
MARKER_KINDS = ("circle", "square", "triangle", "diamond", "nabla", "cross")
DASHES: tuple[tuple[int, ...], ...] = ((), (18, 9), (5, 7), (18, 7, 5, 7))
"""On/off lengths in px of each series' line; () is solid."""


@dataclass(frozen=True, slots=True)
class SeriesLook:
    """How one player's series is drawn."""

    colour: RGB
    marker: str
    dashes: tuple[int, ...]

    @classmethod
    def of(cls, index: int) -> SeriesLook:
        return cls(palette.CHART_SERIES[index % len(palette.CHART_SERIES)],
                   MARKER_KINDS[index % len(MARKER_KINDS)], DASHES[index % len(DASHES)])


def render_score_chart(series: ScoreSeries, names: Sequence[str], *,
                       title: str | None = None) -> bytes:
    """Draw the running totals as PNG bytes; ``names[seat]`` labels each seat's line."""
    hands = max((len(totals) for totals in series.totals), default=0)
    better = _("lower is better") if series.lower_is_better else _("higher is better")
    played = _n("{n} hand played", "{n} hands played", hands) if series.hand_label == "hand" \
        else _("{hand}: {n}", hand=capitalized(series.hand_label), n=hands)
    blocks: list[Block] = [
        Line(_("Running totals · {variant}", variant=say(title or series.variant)),
             face=Typeface.BOLD),
        Line(f"{played} · {better}", size=SMALL_SIZE, colour=palette.FELT_MUTED),
        _Chart(series, names, hands)]
    return png_bytes(stack(blocks, 16))


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values from at or below ``low`` to at or above ``high``, about ``count`` steps."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step)
    last = math.ceil(high / step)
    return [i * step for i in range(first, last + 1)]


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _dashed(points: Sequence[tuple[float, float]], dashes: tuple[int, ...]
            ) -> list[list[tuple[float, float]]]:
    """Split a polyline into its visible pieces under an on/off dash pattern."""
    if not dashes:
        return [list(points)]
    pieces: list[list[tuple[float, float]]] = []
    phase, on = 0, True
    remaining: float = dashes[0]
    current: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while length - done > remaining:
            done += remaining
            t = done / length
            point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(point)
                pieces.append(current)
            current = [point]
            phase = (phase + 1) % len(dashes)
            remaining, on = dashes[phase], not on
        remaining -= length - done
        if on:
            current.append((x1, y1))
        else:
            current = [(x1, y1)]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


@dataclass(frozen=True, slots=True)
class _Chart:
    series: ScoreSeries
    names: Sequence[str]
    hands: int

    @property
    def height(self) -> int:
        return PLOT_HEIGHT

    def draw(self, picture: Image.Image, top: int) -> None:
        paper_width = WIDTH - 2 * MARGIN - LEGEND_WIDTH - 16
        paper = Image.new("RGB", (paper_width, PLOT_HEIGHT), palette.CHART_PAPER)
        values = [v for totals in self.series.totals for v in totals] or [0.0]
        ticks = nice_ticks(min(0.0, *values), max(0.0, *values))
        left, up, right, down = INSET
        inner_w, inner_h = paper_width - left - right, PLOT_HEIGHT - up - down

        def at(hand: int, value: float) -> tuple[float, float]:
            x = inner_w / 2 if self.hands <= 1 else hand * inner_w / (self.hands - 1)
            y = inner_h * (ticks[-1] - value) / (ticks[-1] - ticks[0])
            return (left + x, up + y)

        self._axes(paper, ticks, at)
        lines = [(SeriesLook.of(seat), [at(hand, value) for hand, value in enumerate(totals)])
                 for seat, totals in enumerate(self.series.totals)]
        for look, points in lines:
            _draw_line(paper, points, look)
        for look, points in lines:  # markers last, so no line hides one
            for x, y in points:
                _marker(paper, look, (round(x), round(y)))
        picture.paste(paper, (MARGIN, top), shapes.rounded_box(paper_width, PLOT_HEIGHT, 14))
        self._legend(picture, (MARGIN + paper_width + 16, top))

    def _axes(self, paper: Image.Image, ticks: list[float],
              at: Callable[[int, float], tuple[float, float]]) -> None:
        draw = ImageDraw.Draw(paper)
        left, _top, right, _bottom = INSET
        for tick in ticks:
            _, y = at(0, tick)
            colour = palette.CHART_TEXT if tick == 0 else palette.CHART_GRID
            draw.line((left, round(y), paper.width - right, round(y)), fill=colour,
                      width=2 if tick == 0 else 1)
            label = text(_number(tick), Typeface.REGULAR, SMALL_SIZE)
            draw_text(paper, label, (left - 12 - label.width, round(y) - label.cap // 2),
                      palette.CHART_TEXT)
        caption = fitted(self.series.hand_label, Typeface.REGULAR, SMALL_SIZE, left - 24)
        draw_text(paper, caption, (left - 12 - caption.width, paper.height - INSET[3] + 16),
                  palette.CHART_MUTED)
        labels = self.series.labels or tuple(str(hand + 1) for hand in range(self.hands))
        every = max(1, math.ceil(self.hands / MAX_X_LABELS))
        x_first, _y = at(0, ticks[0])
        x_every, _y = at(min(every, self.hands - 1), ticks[0])
        room = round(x_every - x_first) - 12 if self.hands > 1 else paper.width - left - right
        for hand in range(self.hands - 1, -1, -every):  # counted back from the last hand
            x, _y = at(hand, ticks[0])
            label = fitted(labels[hand] if hand < len(labels) else str(hand + 1),
                           Typeface.REGULAR, SMALL_SIZE, room)
            draw_text(paper, label, (round(x) - label.width // 2, paper.height - INSET[3] + 16),
                      palette.CHART_TEXT)

    def _legend(self, picture: Image.Image, xy: tuple[int, int]) -> None:
        x, y = xy
        finals = [(totals[-1] if totals else 0.0, seat)
                  for seat, totals in enumerate(self.series.totals)]
        finals.sort(key=lambda item: (item[0] if self.series.lower_is_better else -item[0],
                                      item[1]))
        row = 52
        for rank, (final, seat) in enumerate(finals):
            look = SeriesLook.of(seat)
            top = y + rank * row
            fill(picture, shapes.box_stamp(LEGEND_WIDTH, row - 8, 10), palette.CHART_PAPER,
                 (x, top))
            middle = top + (row - 8) / 2
            _draw_line(picture, [(x + 12, middle), (x + 60, middle)], look)
            _marker(picture, look, (x + 36, top + (row - 8) // 2))
            value = text(_number(final), Typeface.BOLD, LEGEND_SIZE)
            name = fitted(name_of(self.names, seat), Typeface.BOLD, LEGEND_SIZE,
                          LEGEND_WIDTH - 100 - value.width)  # 12 px clear of the total
            line = top + (row - 8 - name.cap) // 2
            draw_text(picture, name, (x + 76, line), palette.CHART_TEXT)
            draw_text(picture, value, (x + LEGEND_WIDTH - 12 - value.width, line),
                      palette.CHART_TEXT)


def _polyline(draw: ImageDraw.ImageDraw, k: int, points: Sequence[tuple[float, float]],
              dashes: tuple[int, ...]) -> None:
    for piece in _dashed(points, dashes):
        draw.line([(x * k, y * k) for x, y in piece], fill=255, width=LINE_WIDTH * k,
                  joint="curve")


def _draw_line(canvas: Image.Image, points: Sequence[tuple[float, float]],
               look: SeriesLook) -> None:
    """Draw one series' line, supersampling only the box around it."""
    if len(points) < 2:
        return
    left = math.floor(min(x for x, _ in points)) - LINE_WIDTH
    top = math.floor(min(y for _, y in points)) - LINE_WIDTH
    right = math.ceil(max(x for x, _ in points)) + LINE_WIDTH
    bottom = math.ceil(max(y for _, y in points)) + LINE_WIDTH
    moved = [(x - left, y - top) for x, y in points]
    mask = supersampled((right - left, bottom - top),
                        lambda draw, k: _polyline(draw, k, moved, look.dashes))
    fill(canvas, mask, look.colour, (left, top))


def _marker(canvas: Image.Image, look: SeriesLook, centre: tuple[int, int]) -> None:
    """A marker with a thin halo of paper around it, so it stands out on crossing lines."""
    cx, cy = centre
    halo = shapes.marker(look.marker, MARKER + 6)
    fill(canvas, halo, palette.CHART_PAPER, (cx - halo.width // 2, cy - halo.height // 2))
    mark = shapes.marker(look.marker, MARKER)
    fill(canvas, mark, look.colour, (cx - MARKER // 2, cy - MARKER // 2))
